//! Bit-exact models of the Neuron datapath random-number generators, and the
//! checkpoint semantics of RAND_GET_STATE (0x77) / RAND_SET_STATE (0x78).
//!
//! - Generators, each a [`rand_core::RngCore`]: [`xorwow::Xorwow`],
//!   [`philox::Philox4x32`], [`pcg32::Pcg32`], [`lfsr::Lfsr32`] (the LFSR is
//!   the simulator's recurrence, NOT confirmed on hardware).
//! - [`model::ModelChoices`]: every hardware detail the documentation leaves
//!   open, as a named parameter with its source.
//! - [`bank::Bank`]: one generator's state for all 128 lanes, structure of
//!   arrays, drawn for all lanes at once.
//! - [`engine::EngineRng`]: one engine's banks and what RAND_GET_STATE /
//!   RAND_SET_STATE do to them, generic over [`generation::Generation`]
//!   (implemented by the generated `isa-<gen>` crates).
//! - [`machine::Machine`]: the engines plus an SBUF/PSUM partition memory,
//!   executing 64-byte words of the RNG family: the checkpoint pair, RAND,
//!   RAND2, DROPOUT and PSEUDO_SET_RNG_SEED ([`generation::RngInstruction`]),
//!   with [`convert`] for the element types ([`dtype::Dtype`]).
//! - `file::Checkpoint` (feature `std`): the versioned JSON checkpoint file.
//!
//! `#![no_std]` and allocation-free; the `std` feature adds the sparse memory
//! and the file format. See the crate README for the model assumptions.
// Where rustdoc links this crate's items from a dependent's docs built without them
// (`cargo doc -p isa-mariana --no-deps`); a workspace doc build links its local copy.
#![doc(html_root_url = "https://docs.rs/rng-core/0.1.0")]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
// `unsafe` only in `dispatch` (running a kernel's AVX2 or AVX-512 copy where the CPU has it).
#![deny(unsafe_code)]
#![deny(missing_docs)]
// Errors carry isa-core's fixed-size `Violation` (no allocation in a no_std crate), so
// they are large by design; boxing them would need `alloc`.
#![allow(clippy::result_large_err, clippy::large_enum_variant)]

#[cfg(feature = "std")]
extern crate std;

/// Implements `rand_core::RngCore` for a 32-bit generator through its `$step` method
/// (`next_u64`: two outputs, the first in the low half).
macro_rules! impl_rng_core_via_u32 {
    ($ty:ty, $step:ident) => {
        impl rand_core::RngCore for $ty {
            fn next_u32(&mut self) -> u32 {
                self.$step()
            }

            fn next_u64(&mut self) -> u64 {
                rand_core::impls::next_u64_via_u32(self)
            }

            fn fill_bytes(&mut self, dst: &mut [u8]) {
                rand_core::impls::fill_bytes_via_next(self, dst)
            }
        }
    };
}

pub mod bank;
pub mod convert;
mod dispatch;
pub mod dtype;
pub mod engine;
#[cfg(feature = "std")]
pub mod file;
#[cfg(test)]
mod fixture;
pub mod generation;
mod kernel;
mod lane;
pub mod lfsr;
pub mod machine;
pub mod model;
pub mod mt64;
pub mod pcg32;
pub mod philox;
pub mod xorwow;

pub use bank::{Bank, BankShape, DrawSpan, LaneRow, LANES};
pub use dtype::Dtype;
pub use engine::{CheckpointError, EngineRng, Gate, StateAccess, StateSource};
#[cfg(feature = "std")]
pub use file::Checkpoint;
pub use generation::{
    Algorithm, CheckpointArm, CheckpointInstruction, CheckpointKind, DropoutInstruction, Engine,
    Generation, Generator, ImmSource, InstructionError, MemoryGeometry, PostProcess,
    Rand2Instruction, RandInstruction, RngInstruction, Scalar, SeedInstruction, StateLocation,
    StateUpdate, TensorPattern, ThresholdType, WiredBody,
};
#[cfg(feature = "std")]
pub use machine::SparseMemory;
pub use machine::{Machine, MachineError, MemoryError, PartitionMemory};
pub use model::ModelChoices;
