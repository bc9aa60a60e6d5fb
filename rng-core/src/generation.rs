//! The `Generation` trait: what rng-core needs to know about one NeuronCore generation.
//!
//! Each generated `isa-<gen>` crate implements it for its marker type from its
//! header tree (legality tables, memory geometry, instruction codec); the
//! firmware-wired set and the model choices come from the project's runtime
//! data file next to the headers. Nothing here is implemented by hand for a
//! real generation.

use crate::dtype::Dtype;
use crate::model::ModelChoices;
// The checkpoint arms' and draw instructions' names and codes, shared with the generator.
pub use isa_core::vocab::{
    Algorithm, CheckpointKind, Engine, Generator, ImmSource, PostProcess, StateUpdate,
    ThresholdType,
};
use isa_core::{DecodeError, Violation};

/// One legal (engine, generator, algorithm[, update]) arm and its state width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckpointArm {
    /// Executing engine.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `update_state` (RAND_SET_STATE arms only; `None` for RAND_GET_STATE).
    pub update: Option<StateUpdate>,
    /// State words (u32) per partition.
    pub words: u8,
    /// How the arm's contents are known when the header notes it on the arm (CAYMAN's arms are
    /// inferred: only their number is documented); `None` when the header states the arm as it
    /// is, which is the evidence of the header itself.
    pub evidence: Option<isa_core::Evidence>,
}

/// An (instruction, engine, algorithm) of the runtime data: one for which the firmware ships a
/// body ([`Generation::FIRMWARE_WIRED`]), or one recorded as not wired
/// ([`Generation::FIRMWARE_NOT_WIRED`]), with how that is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WiredBody {
    /// Which checkpoint instruction.
    pub kind: CheckpointKind,
    /// Which engine.
    pub engine: Engine,
    /// Which algorithm the body handles.
    pub algorithm: Algorithm,
    /// How the project knows the firmware ships it, or lacks it (`rng-runtime.json`,
    /// `headers/PROVENANCE.md`).
    pub evidence: isa_core::Evidence,
}

/// SBUF/PSUM address geometry of a generation (from `aws_neuron_isa_tpb_common.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemoryGeometry {
    /// Number of partitions (lanes).
    pub partitions: u32,
    /// Mask applied to an immediate address (`TPB_PARTITION_ADDR_MASK`).
    pub address_mask: u32,
    /// First SBUF address (`STATE_BUF_OFFSET`).
    pub sbuf_offset: u32,
    /// Bytes per SBUF partition (`STATE_BUF_PARTITION_SIZE`).
    pub sbuf_partition_bytes: u32,
    /// First PSUM address (`PSUM_BUF_OFFSET`).
    pub psum_offset: u32,
    /// Bytes per PSUM partition (`PSUM_BUF_PARTITION_SIZE`; 0 when PSUM is disabled).
    pub psum_partition_bytes: u32,
}

/// Address pattern of a state tensor, as the instruction encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorPattern {
    /// Raw `start_addr` (ADDR4) word.
    pub start_addr: u32,
    /// Element strides, innermost first; unused dimensions hold 1.
    pub step_elem: [i16; 4],
    /// Element counts, innermost first; unused dimensions hold 1.
    pub num_elem: [u16; 4],
    /// Number of dimensions the instruction's descriptor has (1 for TENSOR1D, 4 for TENSOR4D).
    pub rank: u8,
}

/// Where a checkpoint instruction moves the state words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateLocation {
    /// A tensor in SBUF or PSUM: per partition, the arm's words in the pattern's element order.
    Tensor(TensorPattern),
    /// The inline `imm_state[0..8]` words of RAND_SET_STATE (the tensor is still described, for the element count).
    Immediate {
        /// The tensor descriptor the instruction carries (its element count declares the width).
        tensor: TensorPattern,
        /// `imm_state[0..8]`.
        words: [u32; 8],
    },
}

/// A decoded and validated RAND_GET_STATE / RAND_SET_STATE, in generation-independent terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckpointInstruction {
    /// Save or restore.
    pub kind: CheckpointKind,
    /// The engine it runs on.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `update_state` (restore only).
    pub update: Option<StateUpdate>,
    /// Raw dtype code of the state tensor.
    pub dtype: u8,
    /// `num_active_channels`.
    pub channels: u8,
    /// Where the words go or come from.
    pub location: StateLocation,
}

/// A 4-byte operand and where its value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    /// How to read `bits`.
    pub source: ImmSource,
    /// The 4 bytes of the `IMM_VAL_INST_FIELD` union, little-endian: the value, the address or the register form.
    pub bits: u32,
}

impl Scalar {
    /// An instruction immediate.
    pub const fn immediate(bits: u32) -> Scalar {
        Scalar {
            source: ImmSource::InstructionImmediate,
            bits,
        }
    }
}

/// A decoded and validated RAND (0x76, D4_RAND): fill a 4-D tensor with draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandInstruction {
    /// The engine it runs on.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `rand_num_steps`: generator steps per output.
    pub steps: u8,
    /// `post_process`.
    pub post_process: PostProcess,
    /// `params[0..4]` as raw words (`params[0]` min, `params[1]` max, fp32, for UNIFORM_IN_RANGE).
    pub params: [u32; 4],
    /// Output type.
    pub dtype: Dtype,
    /// `num_active_channels`.
    pub channels: u8,
    /// `dst_mem_pattern`.
    pub dst: TensorPattern,
}

/// A decoded and validated RAND2 (0xE2, D3_RAND): uniform draws in `[min, max)` into a 3-D tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rand2Instruction {
    /// The engine it runs on.
    pub engine: Engine,
    /// `rand_algorithm` (RAND2 has no `rand_generator`: the engine's `RNG_<algorithm>` state is drawn).
    pub algorithm: Algorithm,
    /// `post_process`.
    pub post_process: PostProcess,
    /// Output type.
    pub dtype: Dtype,
    /// `num_active_channels`.
    pub channels: u8,
    /// `min` (fp32) and `min_src`.
    pub min: Scalar,
    /// `max` (fp32) and `max_src`.
    pub max: Scalar,
    /// `dst_mem_pattern`.
    pub dst: TensorPattern,
}

/// A decoded and validated DROPOUT (0x7F, S3D3_DROPOUT): copy a tensor, zeroing a random subset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DropoutInstruction {
    /// The engine it runs on.
    pub engine: Engine,
    /// `src_mem_pattern`.
    pub src: TensorPattern,
    /// `in_dtype`.
    pub in_dtype: Dtype,
    /// `out_dtype` (the validator requires it equal to `in_dtype`).
    pub out_dtype: Dtype,
    /// `num_active_channels`.
    pub channels: u8,
    /// `threshold` and `threshold_src`.
    pub threshold: Scalar,
    /// `threshold_dtype`; `None` for INVALID (0), which the header reads as FP32.
    pub threshold_dtype: Option<Dtype>,
    /// `threshold_type`.
    pub threshold_type: ThresholdType,
    /// `dst_mem_pattern`.
    pub dst: TensorPattern,
}

/// A decoded and validated PSEUDO_SET_RNG_SEED (0xD0): reseed an engine from one 32-bit value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedInstruction {
    /// The engine it runs on.
    pub engine: Engine,
    /// `seed` and `seed_src`.
    pub seed: Scalar,
}

/// A decoded and validated instruction of the RNG family, in generation-independent terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RngInstruction {
    /// RAND_GET_STATE (0x77) or RAND_SET_STATE (0x78).
    Checkpoint(CheckpointInstruction),
    /// RAND (0x76).
    Rand(RandInstruction),
    /// RAND2 (0xE2).
    Rand2(Rand2Instruction),
    /// DROPOUT (0x7F).
    Dropout(DropoutInstruction),
    /// PSEUDO_SET_RNG_SEED (0xD0).
    SetSeed(SeedInstruction),
}

impl RngInstruction {
    /// The engine the instruction runs on.
    pub const fn engine(&self) -> Engine {
        match self {
            RngInstruction::Checkpoint(i) => i.engine,
            RngInstruction::Rand(i) => i.engine,
            RngInstruction::Rand2(i) => i.engine,
            RngInstruction::Dropout(i) => i.engine,
            RngInstruction::SetSeed(i) => i.engine,
        }
    }

    /// The vendor opcode name (`RAND2`, `RAND_GET_STATE`, ...).
    pub const fn name(&self) -> &'static str {
        match self {
            RngInstruction::Checkpoint(i) => i.kind.name(),
            RngInstruction::Rand(_) => "RAND",
            RngInstruction::Rand2(_) => "RAND2",
            RngInstruction::Dropout(_) => "DROPOUT",
            RngInstruction::SetSeed(_) => "PSEUDO_SET_RNG_SEED",
        }
    }
}

/// Why a 64-byte word is not an executable checkpoint instruction of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstructionError {
    /// The word does not decode.
    Decode(DecodeError),
    /// The word decodes but the generation's validator rejects it.
    Invalid(Violation),
    /// The opcode byte is not RAND_GET_STATE or RAND_SET_STATE.
    NotCheckpoint {
        /// The opcode byte found.
        opcode: u8,
    },
    /// A field holds a value rng-core does not model (an engine without RNG state, say).
    Unmodelled {
        /// What is not modelled.
        what: &'static str,
    },
    /// The opcode byte is not an instruction of the RNG family that the generation's
    /// crate can hand to rng-core (RAND, RAND2, DROPOUT, PSEUDO_SET_RNG_SEED, the checkpoint pair).
    NotRng {
        /// The opcode byte found.
        opcode: u8,
    },
}

impl core::fmt::Display for InstructionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            InstructionError::Decode(e) => write!(f, "does not decode: {e}"),
            InstructionError::Invalid(v) => write!(f, "invalid: {v}"),
            InstructionError::NotCheckpoint { opcode } => write!(
                f,
                "opcode {opcode:#04x} is not RAND_GET_STATE or RAND_SET_STATE"
            ),
            InstructionError::Unmodelled { what } => write!(f, "not modelled: {what}"),
            InstructionError::NotRng { opcode } => write!(
                f,
                "opcode {opcode:#04x} is not an RNG-family instruction the model executes"
            ),
        }
    }
}

impl core::error::Error for InstructionError {}

/// One NeuronCore generation, as rng-core sees it.
///
/// Code generic over `G: Generation` works for every generation; the
/// implementations are generated into the `isa-<gen>` crates.
/// Its name, NC version and header fingerprint are [`isa_core::GenerationMarker::INFO`], the
/// constant [`isa_core::Isa`] reads too.
pub trait Generation: isa_core::GenerationMarker {
    /// Validator-legal RAND_SET_STATE arms (derived from `rand_set_state_legal_combinations`).
    const SET_STATE_ARMS: &'static [CheckpointArm];
    /// Validator-legal RAND_GET_STATE arms (derived from `rand_get_state_legal_combinations`).
    const GET_STATE_ARMS: &'static [CheckpointArm];
    /// Bodies the firmware ships (the runtime-wired set, distinct from validator legality),
    /// each with its evidence level.
    const FIRMWARE_WIRED: &'static [WiredBody];
    /// What the runtime data records as not wired, each with the evidence of the absence
    /// (observed, or the project's choice where nothing documents it).
    const FIRMWARE_NOT_WIRED: &'static [WiredBody] = &[];
    /// How the model fills what the documentation leaves open.
    const MODEL: ModelChoices;
    /// SBUF/PSUM geometry.
    const MEMORY: MemoryGeometry;
    /// Raw dtype code of UINT32, the only state dtype.
    const UINT32_DTYPE: u8;
    /// Largest `num_active_channels` (`POOLING_NUM_CHANNELS`).
    const MAX_CHANNELS: u8;

    /// Decodes `word` and validates it as executed on `engine`.
    fn decode_checkpoint(
        word: &[u8; 64],
        engine: Engine,
    ) -> Result<CheckpointInstruction, InstructionError>;

    /// Whether the firmware ships a body for `kind` on `engine` with `algorithm`, and how that
    /// is known: [`isa_core::Firmware::Wired`] or [`isa_core::Firmware::NotWired`] with the
    /// entry's evidence level, [`isa_core::Firmware::Unknown`] when the runtime data records
    /// neither (a generation without runtime data records nothing).
    fn firmware(kind: CheckpointKind, engine: Engine, algorithm: Algorithm) -> isa_core::Firmware {
        let entry = |list: &'static [WiredBody]| {
            list.iter()
                .find(|w| w.kind == kind && w.engine == engine && w.algorithm == algorithm)
                .map(|w| w.evidence)
        };
        match (entry(Self::FIRMWARE_WIRED), entry(Self::FIRMWARE_NOT_WIRED)) {
            (Some(e), _) => isa_core::Firmware::Wired(e),
            (None, Some(e)) => isa_core::Firmware::NotWired(e),
            (None, None) => isa_core::Firmware::Unknown,
        }
    }

    /// Encodes a checkpoint instruction (no validation: an illegal word can be built on purpose).
    fn encode_checkpoint(inst: &CheckpointInstruction) -> Result<[u8; 64], InstructionError>;

    /// Decodes `word` and validates it as executed on `engine`: any instruction of the RNG
    /// family the generation has (RAND, RAND2, DROPOUT, PSEUDO_SET_RNG_SEED, and the checkpoint
    /// pair, as [`Generation::decode_checkpoint`]). Another opcode is [`InstructionError::NotRng`].
    fn decode_instruction(
        word: &[u8; 64],
        engine: Engine,
    ) -> Result<RngInstruction, InstructionError>;
}
