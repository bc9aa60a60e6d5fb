//! Every name of the vendor's trees the generator assumes: files, C types, constants,
//! functions, fields and enum members it looks for by name. A vendor drop that renames one of
//! them is handled here, once.
//!
//! Architecture Invariant: this module imports nothing, so every stage may import it without
//! closing a circle; no other module of the generator spells a vendor name out.

// ---- Files (tree-relative paths) ----

/// The master header every tree has.
pub const COMMON_HEADER: &str = "tpb/aws_neuron_isa_tpb_common.h";
/// The mapping of operand structs to opcodes.
pub const MAPPING_FILE: &str = "tpb/instruction_mapping.json";
/// The debug-validator switch.
pub const DEBUG_ASSERT: &str = "tpb/aws_neuron_isa_tpb_debug_assert.h";

// ---- Naming conventions ----

/// Prefix of every vendor declaration.
pub const VENDOR_PREFIX: &str = "NEURON_ISA_TPB_";
/// Prefix of every opcode enumerator.
pub const OPCODE_PREFIX: &str = "NEURON_ISA_TPB_OPCODE_";
/// Suffix of an operand struct's name (`NEURON_ISA_TPB_S1_RAND_STRUCT`).
pub const STRUCT_SUFFIX: &str = "_STRUCT";
/// Prefix of a pseudo opcode's short name (compiler-generated, lowered by the runtime).
pub const PSEUDO_PREFIX: &str = "PSEUDO_";
/// Prefix of a validator spec function (`is_valid_<opcode>`, `is_valid_<shape>`).
pub const VALIDATOR_PREFIX: &str = "is_valid_";
/// Suffix of a legality spec function (`<opcode>_legal_combinations`).
pub const LEGALITY_SUFFIX: &str = "_legal_combinations";

// ---- C types ----

/// The opcode enum.
pub const OPCODE_ENUM: &str = "NEURON_ISA_TPB_OPCODE";
/// The instruction union (`aws_neuron_isa_tpb_util.h`).
pub const INST_UNION: &str = "NEURON_ISA_TPB_INST_UNION";
/// The common instruction header.
pub const HEADER: &str = "NEURON_ISA_TPB_HEADER";
/// The common-prefix view of an instruction (`i.common`).
pub const INST_COMMON: &str = "NEURON_ISA_TPB_INST_COMMON";
/// The engine enum.
pub const NEURON_ENGINE: &str = "NEURON_ISA_TPB_NEURON_ENGINE";
/// The core-version enum.
pub const NEURON_CORE_VERSION: &str = "NEURON_ISA_TPB_NEURON_CORE_VERSION";
/// The data-type enum.
pub const DTYPE: &str = "NEURON_ISA_TPB_DTYPE";
/// The immediate-source enum.
pub const IMM_SRC: &str = "NEURON_ISA_TPB_IMM_SRC";
/// The immediate-operand union.
pub const IMM_VAL: &str = "NEURON_ISA_TPB_IMM_VAL_INST_FIELD";
/// The random-source enum.
pub const RAND_SRC: &str = "NEURON_ISA_TPB_RAND_SRC";
/// The random-algorithm enum.
pub const RAND_ALGORITHM: &str = "NEURON_ISA_TPB_RAND_ALGORITHM";
/// The generator-state update enum (how `RAND_SET_STATE` supplies the state).
pub const RAND_STATE_UPDATE: &str = "NEURON_ISA_TPB_RAND_STATE_UPDATE";
/// The random post-processing enum.
pub const RAND_POST_PROC: &str = "NEURON_ISA_TPB_RAND_POST_PROC";
/// The dropout threshold-type enum.
pub const DROPOUT_THRESHOLD_TYPE: &str = "NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE";
/// The opcode that zeroes elements by draws of the engine's own state (no seed field).
pub const DROPOUT: &str = "DROPOUT";
/// The validator argument that lets a tensor operand lie in PSUM.
pub const ALLOWED_IN_PSUM: &str = "NEURON_ISA_TPB_ALLOWED_IN_PSUM";
/// The validator argument that lets a tensor operand lie in SBUF.
pub const ALLOWED_IN_SBUF: &str = "NEURON_ISA_TPB_ALLOWED_IN_SBUF";
/// The member of both that allows (`AllowedInPSUM::True`).
pub const ALLOWED_TRUE: &str = "TRUE";

// ---- Constants ----

/// The instruction size (full C name).
pub const INST_NBYTES: &str = "NEURON_ISA_TPB_INST_NBYTES";
/// Start of SBUF in the address map (short name, as the spec language spells constants).
pub const STATE_BUF_OFFSET: &str = "STATE_BUF_OFFSET";
/// Bytes of one SBUF partition.
pub const STATE_BUF_PARTITION_SIZE: &str = "STATE_BUF_PARTITION_SIZE";
/// Bytes of SBUF, all partitions.
pub const STATE_BUF_SZ: &str = "STATE_BUF_SZ";
/// Bytes of PSUM, all partitions (0 in a generation that sizes PSUM out).
pub const PSUM_BUF_SZ: &str = "PSUM_BUF_SZ";
/// Start of PSUM in the address map.
pub const PSUM_BUF_OFFSET: &str = "PSUM_BUF_OFFSET";
/// Bytes of one PSUM partition (0 in a generation that sizes PSUM out).
pub const PSUM_BUF_PARTITION_SIZE: &str = "PSUM_BUF_PARTITION_SIZE";
/// Partitions (lanes) of the state buffers.
pub const NUM_PARTITIONS: &str = "NUM_PARTITIONS";
/// Address registers.
pub const NUM_ADDR_REGISTERS: &str = "NUM_ADDR_REGISTERS";
/// The `marker` byte that makes an `ADDR4` a register address.
pub const ADDR4_MARKER_ADDR_REG: &str = "ADDR4_MARKER_ADDR_REG";

// ---- Functions ----

/// The generated C function that places opcodes on engines (`aws_neuron_isa_tpb_instr_assert.h`).
pub const PLACEMENT_FN: &str = "neuron_isa_check_opcode_on_engine";

// ---- Fields and union members ----

/// The instruction union's member holding the common header (`i.header`).
pub const HEADER_MEMBER: &str = "header";
/// The instruction union's member holding the common prefix (`i.common`).
pub const COMMON_MEMBER: &str = "common";
/// The lane-count field.
pub const LANES: &str = "num_active_channels";
/// Suffix of a tensor field (`dst_mem_pattern`: the tensor `dst`).
pub const TENSOR_SUFFIX: &str = "_mem_pattern";
/// A tensor record's start address (a 4-byte `ADDR4` union).
pub const START_ADDR: &str = "start_addr";
/// A tensor record's steps per dimension.
pub const STEP_ELEM: &str = "step_elem";
/// A tensor record's element counts per dimension.
pub const NUM_ELEM: &str = "num_elem";
/// The `ADDR4` member holding an address as one `u32`.
pub const ADDR_IMMEDIATE: &str = "addr_immediate";
/// The `ADDR4` member holding a register address (`regnum`, `marker`).
pub const ADDR_REG: &str = "addr_reg";
/// The register number of a register address.
pub const REGNUM: &str = "regnum";
/// The byte telling a register address from an immediate one.
pub const MARKER: &str = "marker";
/// Suffix of an immediate's source field (`threshold_src` says what `threshold` holds).
pub const IMM_SRC_SUFFIX: &str = "_src";
/// The `IMM_VAL_INST_FIELD` member holding a pointer.
pub const IMM_PTR: &str = "imm_ptr";
/// The `IMM_VAL_INST_FIELD` member holding a value's bits.
pub const IMM_WORD: &str = "imm_bitvec_uint32";
/// The `IMM_VAL_INST_FIELD` member holding a register (`regnum`).
pub const IMM_REG: &str = "imm_reg";
/// The array of a RAND instruction's parameters (the bounds of `UNIFORM_IN_RANGE`).
pub const PARAMS: &str = "params";
/// The immediate generator state of `RAND_SET_STATE`.
pub const IMM_STATE: &str = "imm_state";

// ---- Enum members (short names) ----

/// The post-processing that takes the `params` bounds.
pub const UNIFORM_IN_RANGE: &str = "UNIFORM_IN_RANGE";
/// The `IMM_SRC` member of a value in the instruction.
pub const INSTRUCTION_IMMEDIATE: &str = "INSTRUCTION_IMMEDIATE";
/// The `IMM_SRC` member of a pointer in the instruction.
pub const POINTER_IMMEDIATE: &str = "POINTER_IMMEDIATE";
/// The `IMM_SRC` member of a pointer in a register.
pub const REG_PTR_IMMEDIATE: &str = "REG_PTR_IMMEDIATE";
/// The state update from a tensor.
pub const SRC_TENSOR: &str = "SRC_TENSOR";
/// The state update from one immediate.
pub const IMM_SINGLE: &str = "IMM_SINGLE";
/// The data types an example tries first, most readable first.
pub const EXAMPLE_DTYPES: [&str; 4] = ["FP32", "UINT32", "INT32", "BFLOAT16"];
