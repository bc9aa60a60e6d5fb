//! Conformance tests of the generated `isa-<generation>` crates (`isa-sunda`, `isa-cayman`,
//! `isa-mariana`, `isa-maverick`), run against the reference data rather than against the
//! generator's own output. The crate has no code of its own: everything is under `tests/`, in one
//! test binary, `tests/conformance/` (a module per subject; `support/` holds the shared helpers).
//!
//! * `generations.rs`: one `macro_rules!` body instantiated once per generation: exact round
//!   trips of every typed instruction (random words built from each instruction's `FIELDS` table),
//!   every opcode byte 0..=255, decode errors, `Opcode` facts, and the layout rows of
//!   `headers/probe/expected_layout.txt` checked against `FIELDS` and `core::mem::offset_of!`.
//! * `tests/data/opcodes.tsv`: a verbatim copy of the project's reference opcode table
//!   (`shared/reference/opcodes.tsv`), the per-byte expectation of the opcode tests.
//! * `fuzz.rs`: seeded, deterministic fuzzing of decode, round trip, validate and rng-core's
//!   machine over the four generations (a million inputs; 50 million in an ignored test).
//! * `build.rs` turns `expected_layout.txt` into `offset_of!`/`size_of` probes of each crate's
//!   `raw` module (a data row names a field; only code can take its offset).
#![no_std]
#![forbid(unsafe_code)]

/// The README's examples, compiled and run as doctests (so the front door cannot rot).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
