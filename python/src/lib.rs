//! The Rust side of the Python package `neuron_isa` (import name), built with maturin.
//!
//! The modules below are plain Rust over the workspace's crates, generic over the generation
//! and tested by `cargo test`; with the feature `python` (maturin turns it on), `py` wraps
//! them in the extension module `neuron_isa._native`. Without it nothing of PyO3 is built, so
//! `cargo test --workspace` needs no Python interpreter.
//!
//! `unsafe` is in two places only: [`bitgen`] (numpy's C-level bit generator protocol: a
//! struct of function pointers over a state pointer) and the array access of `py` (numpy
//! arrays reached through their array interface).
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod bitgen;
pub mod construct;
pub mod gens;
pub mod machine;
pub mod names;
pub mod words;

#[cfg(feature = "python")]
pub mod py;
