//! `validate`: the generation's spec validators over every word, and the
//! firmware's wired set with `--firmware`.

use crate::fail::{Failure, Outcome};
use crate::matrix::wired;
use crate::out::Out;
use crate::words::Input;
use isa_core::{DecodeError, Isa, VendorEnum, Violation, INST_NBYTES};
use rng_core::{CheckpointError, CheckpointKind, Engine, Generation, InstructionError};
use std::fmt;
use std::fmt::Write as _;
use std::io::Write;

/// Rejection texts kept for reuse.
const RECENT: usize = 8;

/// Why a word is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The typed decode refused it.
    Decode(DecodeError),
    /// The spec validator refused it.
    Invalid(Violation),
    /// The checkpoint view of a valid word failed (`--firmware`).
    Checkpoint(InstructionError),
    /// The firmware has no body for it (`--firmware`).
    NotWired(CheckpointError),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Decode(e) => write!(f, "does not decode: {e}"),
            Rejection::Invalid(v) => write!(f, "{v}"),
            Rejection::Checkpoint(e) => write!(f, "{e}"),
            Rejection::NotWired(e) => write!(f, "{e}"),
        }
    }
}

/// Why one word is rejected, or `None` when it is valid.
pub fn check<G: Isa + Generation>(
    word: &[u8; INST_NBYTES],
    engine: Engine,
    vendor_engine: G::Engine,
    firmware: bool,
) -> Option<Rejection> {
    let inst = match G::decode(word) {
        Ok(i) => i,
        Err(e) => return Some(Rejection::Decode(e)),
    };
    if let Err(v) = G::validate(&inst, vendor_engine) {
        return Some(Rejection::Invalid(v));
    }
    let checkpoint =
        word[0] == CheckpointKind::Save.code() || word[0] == CheckpointKind::Restore.code();
    if firmware && checkpoint {
        return match G::decode_checkpoint(word, engine) {
            Err(e) => Some(Rejection::Checkpoint(e)),
            Ok(c) if !wired::<G>(c.kind, engine, c.algorithm) => {
                Some(Rejection::NotWired(CheckpointError::NotWired {
                    kind: c.kind,
                    engine,
                    algorithm: c.algorithm,
                }))
            }
            Ok(_) => None,
        };
    }
    None
}

/// The vendor engine member of `G` for `engine`.
pub fn vendor_engine<G: Isa>(engine: Engine) -> Result<G::Engine, Failure> {
    <G::Engine as VendorEnum>::from_vendor_name(engine.name())
        .ok_or_else(|| Failure::usage(format!("{} has no engine {}", G::INFO.name, engine.name())))
}

/// Validates every word; prints one line per invalid word and a summary; exit 1 when any is invalid.
pub fn validate<G: Isa + Generation, W: Write>(
    input: &Input,
    engine: Engine,
    firmware: bool,
    out: &mut Out<W>,
) -> Outcome {
    let vendor = vendor_engine::<G>(engine)?;
    let mut invalid = 0u64;
    // Recent rejections and their text: a stream repeats the same mistakes, and the text is
    // a pure function of the rejection (paths and names are static, values are compared).
    let mut recent: Vec<(Rejection, String)> = Vec::with_capacity(RECENT);
    let mut next_slot = 0;
    let total = input.for_each(|index, word| {
        if let Some(why) = check::<G>(word, engine, vendor, firmware) {
            invalid += 1;
            out.str("word ");
            out.dec(index);
            out.str(" @ ");
            out.hex(index * INST_NBYTES as u64, 0);
            out.str(": ");
            match recent.iter().find(|(seen, _)| *seen == why) {
                Some((_, text)) => out.str(text),
                None => {
                    let text = why.to_string();
                    out.str(&text);
                    if recent.len() < RECENT {
                        recent.push((why, text));
                    } else {
                        recent[next_slot] = (why, text);
                        next_slot = (next_slot + 1) % RECENT;
                    }
                }
            }
            out.str("\n");
            out.maybe_flush()?;
        }
        Ok(())
    })?;
    let _ = writeln!(
        out,
        "{total} word{}: {} valid, {invalid} invalid ({}, engine {}{})",
        if total == 1 { "" } else { "s" },
        total - invalid,
        G::INFO.name,
        engine.name(),
        if firmware { ", firmware gate" } else { "" }
    );
    out.flush()?;
    if invalid > 0 {
        return Err(Failure::invalid(format!(
            "validate: {invalid} of {total} words are invalid"
        )));
    }
    Ok(())
}
