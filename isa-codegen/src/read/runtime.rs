//! `rng-runtime.json` at the root of a tree: project data that no vendor header
//! carries — the checkpoint bodies the firmware ships (the runtime-wired set)
//! and the rng-core model choices of the generation — with their sources.
//! Optional: a vendor tree dropped in without it generates with an empty wired
//! set and rng-core's default model, and the report says so.

use crate::diag::{Diagnostic, Loc};
use serde::Deserialize;
use std::path::Path;

/// File name, relative to the tree root.
pub const RUNTIME_FILE: &str = "rng-runtime.json";

/// One firmware entry: a wired body (`firmware`) or one recorded as not wired (`not_wired`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Wired {
    /// Opcode name (`RAND_SET_STATE`).
    pub instruction: String,
    /// Engine member (`POOL`).
    pub engine: String,
    /// Algorithm member (`XORWOW`).
    pub algorithm: String,
    /// How it is known (`observed`, `inferred`, ...).
    pub evidence: String,
    /// Where it is documented.
    pub source: String,
}

/// A model choice that overrides rng-core's default, with its source.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Choice<T> {
    /// The value.
    pub value: T,
    /// Where it comes from.
    pub source: String,
}

/// Model overrides as written (each optional; absent fields keep
/// `ModelChoices::RECONSTRUCTED`); `model::runtime` turns the strings into rng-core's values.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ModelOverrides {
    /// XORWOW power-on state, x..d.
    pub xorwow_default_seed: Option<Choice<[u32; 6]>>,
    /// The restore zero-guard, spelt as `isa_core::vocab::ZeroGuard::from_name` reads it.
    pub zero_guard: Option<Choice<String>>,
    /// A name of `isa_core::vocab::SubGeneratorLayout` (`"word_major"`).
    pub dve_xorwow_layout: Option<Choice<String>>,
    /// A name of `isa_core::vocab::LaneInterleave` (`"lockstep"`).
    pub lane_interleave: Option<Choice<String>>,
    /// A name of `isa_core::vocab::PhiloxOffset` (`"words_from_start"`).
    pub philox_offset: Option<Choice<String>>,
    /// LFSR taps, width first.
    pub lfsr_taps: Option<Choice<[u8; 4]>>,
    /// Which PCG32 word is the low half.
    pub pcg32_low_word: Option<Choice<u8>>,
    /// The PCG32 increment.
    pub pcg32_increment: Option<Choice<u64>>,
}

/// The file.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Runtime {
    /// What the file is.
    pub about: String,
    /// Wired bodies.
    pub firmware: Vec<Wired>,
    /// (instruction, engine, algorithm) known or chosen not to be wired, each with the
    /// evidence of the absence; a legal arm in neither list is unknown.
    #[serde(default)]
    pub not_wired: Vec<Wired>,
    /// Why the set is what it is.
    #[serde(default)]
    pub firmware_note: String,
    /// Model overrides.
    #[serde(default)]
    pub model: ModelOverrides,
    /// The file's text (for the lines of diagnostics about its entries).
    #[serde(skip)]
    pub text: String,
}

/// The file's text, `None` when the tree has no such entry at all. Anything else that is not a
/// readable UTF-8 file (a directory, a dangling link, no permission) is an error naming it, never
/// "absent": the crate would silently lose its firmware data. Duplicate keys are rejected.
pub fn read_text(root: &Path) -> Result<Option<String>, Diagnostic> {
    let path = root.join(RUNTIME_FILE);
    let loc = || Loc::new(RUNTIME_FILE, 0);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Diagnostic::new(loc(), format!("cannot read: {e}"))),
        Ok(_) => {}
    }
    if path.is_dir() {
        return Err(Diagnostic::new(
            loc(),
            "is a directory; the runtime data must be a JSON file (or absent)",
        ));
    }
    let text = super::source::read_text(&path, RUNTIME_FILE)?;
    super::json::reject_duplicate_keys(&text, RUNTIME_FILE)?;
    Ok(Some(text))
}

/// Reads the file when the tree has one.
pub fn read(root: &Path) -> Result<Option<Runtime>, Diagnostic> {
    let text = match read_text(root)? {
        Some(text) => text,
        None => return Ok(None),
    };
    serde_json::from_str(&text)
        .map(|r| Some(Runtime { text, ..r }))
        .map_err(|e| Diagnostic::new(Loc::new(RUNTIME_FILE, e.line() as u32), format!("{e}")))
}
