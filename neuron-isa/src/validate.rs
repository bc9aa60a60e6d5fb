//! `validate`: the generation's spec validators over every word, and the
//! firmware's wired set with `--firmware`.

use crate::fail::{Failure, Outcome};
use crate::matrix::wired;
use crate::out::Out;
use crate::text::Text;
use crate::words::Input;
use isa_core::program;
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
    let mut run = Validation::new(firmware);
    let total =
        input.for_each(|index, word| run.word::<G, W>(index, word, None, (engine, vendor), out))?;
    run.finish::<G, W>(total, engine.name(), out)
}

/// Validates every word of a program text, each on its engine: its annotation (or `.engine`),
/// else the one engine the tree places it on, else `--engine`. A word with none of them, or
/// one the validators here do not run (they run POOL, DVE and ACT), fails the text (exit 2)
/// before anything is validated.
pub fn validate_text<G: Isa + Generation, W: Write>(
    text: &Text<G::Engine>,
    engine: Option<Engine>,
    firmware: bool,
    out: &mut Out<W>,
) -> Outcome {
    let mut engines = Vec::with_capacity(text.program.statements.len());
    let mut lines = Vec::new();
    for s in &text.program.statements {
        let chosen = match crate::text::engine_of::<G>(s) {
            Some(vendor) => Engine::ALL
                .iter()
                .copied()
                .find(|e| e.name() == vendor.vendor_name()),
            None => engine,
        };
        match chosen {
            Some(e) => engines.push((e, vendor_engine::<G>(e)?)),
            None => lines.push(format!(
                "{}: {}: no engine: annotate the line, set .engine or give --engine (pool, dve, act)",
                text.at(s),
                crate::text::engine_of::<G>(s).map_or_else(
                    || program::opcode_name::<G>(&s.word),
                    |v| format!("engine {v} is not one validate runs")
                )
            )),
        }
    }
    if !lines.is_empty() {
        return Err(Failure::Lines { code: 2, lines });
    }
    let mut run = Validation::new(firmware);
    for (k, (s, &on)) in text.program.statements.iter().zip(&engines).enumerate() {
        run.word::<G, W>(k as u64, &s.word, Some(&text.at(s)), on, out)?;
    }
    let label = engine.map_or("as annotated", |e| e.name());
    run.finish::<G, W>(engines.len() as u64, label, out)
}

/// The state of a validation run: the invalid count and the recent rejections' texts.
struct Validation {
    firmware: bool,
    invalid: u64,
    // Recent rejections and their text: a stream repeats the same mistakes, and the text is
    // a pure function of the rejection (paths and names are static, values are compared).
    recent: Vec<(Rejection, String)>,
    next_slot: usize,
}

impl Validation {
    fn new(firmware: bool) -> Self {
        Validation {
            firmware,
            invalid: 0,
            recent: Vec::with_capacity(RECENT),
            next_slot: 0,
        }
    }

    /// Checks word `index` on `engine`, printing its line when it is invalid (after `at`, the
    /// `FILE:LINE` of a text's word).
    fn word<G: Isa + Generation, W: Write>(
        &mut self,
        index: u64,
        word: &[u8; INST_NBYTES],
        at: Option<&str>,
        (engine, vendor): (Engine, G::Engine),
        out: &mut Out<W>,
    ) -> Outcome {
        let Some(why) = check::<G>(word, engine, vendor, self.firmware) else {
            return Ok(());
        };
        self.invalid += 1;
        if let Some(at) = at {
            out.str(at);
            out.str(": ");
        }
        out.str("word ");
        out.dec(index);
        out.str(" @ ");
        out.hex(index * INST_NBYTES as u64, 0);
        out.str(": ");
        match self.recent.iter().find(|(seen, _)| *seen == why) {
            Some((_, text)) => out.str(text),
            None => {
                let text = why.to_string();
                out.str(&text);
                if self.recent.len() < RECENT {
                    self.recent.push((why, text));
                } else {
                    self.recent[self.next_slot] = (why, text);
                    self.next_slot = (self.next_slot + 1) % RECENT;
                }
            }
        }
        out.str("\n");
        out.maybe_flush()?;
        Ok(())
    }

    /// The summary line; exit 1 when any word was invalid.
    fn finish<G: Isa, W: Write>(self, total: u64, engine: &str, out: &mut Out<W>) -> Outcome {
        let invalid = self.invalid;
        let _ = writeln!(
            out,
            "{total} word{}: {} valid, {invalid} invalid ({}, engine {engine}{})",
            if total == 1 { "" } else { "s" },
            total - invalid,
            G::INFO.name,
            if self.firmware { ", firmware gate" } else { "" }
        );
        out.flush()?;
        if invalid > 0 {
            return Err(Failure::invalid(format!(
                "validate: {invalid} of {total} words are invalid"
            )));
        }
        Ok(())
    }
}
