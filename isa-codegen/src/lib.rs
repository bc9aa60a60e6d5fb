//! `isa-codegen`: generates the `isa-<generation>` crates from vendor-format
//! Neuron TPB ISA header trees.
//!
//! The data flows one way, one stage per module:
//! [`read`] (bindgen, syn, serde_json) → [`model`] (the generator's own IR) →
//! [`emit`] (quote + prettyplease) → files; [`report`] compares models.

pub mod diag;
pub mod model;
pub mod read;
