//! Shared runtime vocabulary of the generated `isa-<generation>` crates.
//!
//! Everything a generated crate needs that does not depend on the headers lives
//! here, written once: the decode error a malformed 64-byte word produces, the
//! violation a failed validator reports, the maintenance status of an opcode,
//! little-endian field access, and (with the `std` feature) the fingerprint of
//! a header tree that lets a build notice a new vendor drop.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "std")]
pub mod build;
mod decode;
pub mod explain;
mod field;
#[cfg(feature = "std")]
pub mod fingerprint;
mod isa;
pub mod le;
pub mod spec;
mod status;
mod violation;

pub use decode::{DecodeError, DecodeErrorKind, InvalidEnumValue};
pub use explain::{Explain, Reported, Source};
pub use field::{FieldInfo, FieldKind};
pub use isa::{Isa, OpcodeInfo, VendorEnum};
pub use status::OpcodeStatus;
pub use violation::{FieldSpec, InvolvedField, PredicatePath, Violation, MAX_FIELDS, MAX_PATH};

/// Size in bytes of every TPB instruction word.
pub const INST_NBYTES: usize = 64;

/// Identity of the generation a crate was generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GenerationInfo {
    /// Generation name as the vendor spells the tree: `"MARIANA"`.
    pub name: &'static str,
    /// NeuronCore version (`ISA header for NC-v4` → 4).
    pub nc_version: u8,
    /// Fingerprint of the header tree the crate was generated from (16 hex digits).
    pub fingerprint: &'static str,
}

/// A typed 64-byte instruction bound to one opcode.
pub trait Instruction64: Sized {
    /// The opcode byte this instruction type encodes.
    const OPCODE: u8;
    /// Vendor opcode name without prefix (`"RAND_SET_STATE"`).
    const NAME: &'static str;
    /// Encodes the instruction as the 64 bytes the hardware reads.
    fn to_bytes(&self) -> [u8; INST_NBYTES];
    /// Decodes a word; fails on a foreign opcode byte or an out-of-range enum field.
    fn from_bytes(bytes: &[u8; INST_NBYTES]) -> Result<Self, DecodeError>;
}
