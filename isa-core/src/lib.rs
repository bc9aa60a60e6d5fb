//! Shared runtime vocabulary of the generated `isa-<generation>` crates.
//!
//! Everything a generated crate needs that does not depend on the headers lives
//! here, written once: the decode error a malformed 64-byte word produces, the
//! violation a failed validator reports, the maintenance status of an opcode,
//! little-endian field access, instruction words in callers' buffers and byte
//! streams ([`words`]), the one-line disassembly format ([`disasm`]), the names
//! the generator, the generated crates and rng-core share ([`vocab`]), (with the
//! `serde` feature) the serde helpers, and (with the `std` feature) the
//! fingerprint of a header tree that lets a build notice a new vendor drop.
// Where rustdoc links this crate's items from a dependent's docs built without them
// (`cargo doc -p isa-mariana --no-deps`); a workspace doc build links its local copy.
#![doc(html_root_url = "https://docs.rs/isa-core/0.1.0")]
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(test, feature = "std"))]
extern crate std;

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod arm;
pub mod asm;
#[cfg(feature = "std")]
pub mod build;
pub mod construct;
mod decode;
pub mod disasm;
mod evidence;
pub mod explain;
mod field;
#[cfg(feature = "std")]
pub mod fingerprint;
mod generated_impls;
pub mod generic;
mod isa;
mod kept;
pub mod le;
mod on_engine;
mod predicate;
#[cfg(feature = "alloc")]
pub mod program;
#[cfg(feature = "serde")]
pub mod serde_support;
pub mod space;
pub mod spec;
mod status;
mod violation;
pub mod vocab;
mod word;

/// The serde crate the generated crates derive through (`#[serde(crate = "isa_core::serde")]`).
#[cfg(feature = "serde")]
pub use serde;

pub use construct::{AddressError, Immediate, Memory, TensorError};
pub use decode::{DecodeError, DecodeErrorKind, InvalidEnumValue};
pub use evidence::{Basis, Evidence, Firmware, Reference};
pub use explain::{Explain, Reported, Source};
pub use field::{FieldInfo, FieldKind};
pub use isa::{GenerationMarker, Isa, OpcodeInfo, VendorEnum};
pub use on_engine::{OnEngine, ValidateOnEngine};
pub use predicate::{
    fp32, FieldSpec, MemoryMap, Note, PredicatePath, Relation, Shown, Space, Spaces, MAX_FIELDS,
    MAX_PATH,
};
pub use status::OpcodeStatus;
pub use violation::{InvolvedField, Violation};
pub use word::{word, words, write_word, DecodeWords, EncodeError, Words};

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
    /// Writes the 64 bytes into the start of `out`; a shorter `out` is an error naming both sizes.
    fn encode_into(&self, out: &mut [u8]) -> Result<(), EncodeError> {
        write_word(out, &self.to_bytes())
    }
    /// Decodes `bytes`, which must be exactly one word (another length is a
    /// [`DecodeErrorKind::WrongLength`] error naming it).
    fn from_slice(bytes: &[u8]) -> Result<Self, DecodeError> {
        Self::from_bytes(word(bytes)?)
    }
}
