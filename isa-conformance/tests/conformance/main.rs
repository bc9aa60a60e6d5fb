//! Cross-crate tests of the generated crates and rng-core, one module per subject, compiled into
//! one test binary: each file its own binary linked the four generated crates once per file.

mod support;

mod api;
mod asm;
mod checkpoint_e2e;
mod disasm_asm;
mod draw_e2e;
mod firmware_evidence;
mod fuzz;
mod generations;
mod generic;
mod placement_evidence;
mod predicates;
mod rng;
