//! Traits every generated crate implements, so tools can serve all generations
//! with one generic code path (`neuron-isa decode --gen …`).

use crate::{
    DecodeError, DecodeWords, FieldInfo, GenerationInfo, OpcodeStatus, Violation, INST_NBYTES,
};
use core::fmt::{Debug, Display};

/// A typed C enum of a generation.
pub trait VendorEnum: Copy + Eq + Debug + Display + Send + Sync + 'static {
    /// Vendor name of the C enum (`"NEURON_ISA_TPB_RAND_ALGORITHM"`).
    const C_NAME: &'static str;
    /// Every member, in header order.
    fn all() -> &'static [Self];
    /// Vendor member name without prefix (`"XORWOW"`).
    fn vendor_name(self) -> &'static str;
    /// The member with this vendor name (without prefix).
    fn from_vendor_name(name: &str) -> Option<Self>;
    /// The member's value.
    fn value_u64(self) -> u64;
}

/// The opcode enum of a generation.
pub trait OpcodeInfo: VendorEnum {
    /// The opcode byte.
    fn byte(self) -> u8;
    /// Maintenance flag.
    fn status(self) -> OpcodeStatus;
    /// A pseudo opcode (lowered by the runtime).
    fn is_pseudo(self) -> bool;
    /// The operand struct the mapping binds it to.
    fn operand_struct(self) -> Option<&'static str>;
}

/// A generation's marker type (`isa_mariana::Mariana`) and its identity.
///
/// [`Isa`] and rng-core's `Generation` both extend it, so code bound by both reads one
/// `G::INFO`, not two constants that would have to be told apart (`<G as Isa>::INFO`).
pub trait GenerationMarker: Copy + Default + Debug + Send + Sync + 'static {
    /// Name, NC version, fingerprint.
    const INFO: GenerationInfo;
}

/// One generation's instruction set, as tools see it.
pub trait Isa: GenerationMarker {
    /// The opcode enum.
    type Opcode: OpcodeInfo;
    /// The engine enum (`NEURON_ISA_TPB_NEURON_ENGINE`).
    type Engine: VendorEnum;
    /// Any typed instruction; `Display` is its one-line disassembly ([`crate::disasm`]).
    type Instruction: Copy + Debug + Display + Eq + core::hash::Hash;
    /// Every opcode.
    fn opcodes() -> &'static [Self::Opcode];
    /// The opcode with this byte.
    fn opcode(byte: u8) -> Option<Self::Opcode>;
    /// The leaf fields of an opcode's operand struct.
    fn fields_of(op: Self::Opcode) -> Option<&'static [FieldInfo]>;
    /// Decodes a word by its opcode byte.
    fn decode(word: &[u8; INST_NBYTES]) -> Result<Self::Instruction, DecodeError>;
    /// Decodes a byte stream word by word, with each word's byte offset (see [`DecodeWords`]).
    fn decode_words(bytes: &[u8]) -> DecodeWords<'_, Self::Instruction> {
        DecodeWords::new(bytes, Self::decode)
    }
    /// Reads one line of the disassembly (`Display`) back into its instruction ([`crate::asm`]).
    fn parse_instruction(line: &str) -> Result<Self::Instruction, crate::asm::AsmError> {
        crate::asm::parse_instruction::<Self>(line)
    }
    /// Encodes an instruction.
    fn encode(inst: &Self::Instruction) -> [u8; INST_NBYTES];
    /// The opcode of an instruction.
    fn opcode_of(inst: &Self::Instruction) -> Self::Opcode;
    /// Runs the spec validator of the instruction's opcode as executed by `engine`.
    fn validate(inst: &Self::Instruction, engine: Self::Engine) -> Result<(), Violation>;
    /// The engines that run `op` per the tree's engine placement
    /// (`neuron_isa_check_opcode_on_engine`); empty when the tree does not place it.
    fn engines(op: Self::Opcode) -> &'static [Self::Engine] {
        let _ = op;
        &[]
    }
    /// How the placement of `op` on `engine` is known, from the note of its placement line;
    /// `None` when the placement does not put `op` on `engine`.
    fn placement_evidence(op: Self::Opcode, engine: Self::Engine) -> Option<crate::Basis> {
        let _ = (op, engine);
        None
    }
}
