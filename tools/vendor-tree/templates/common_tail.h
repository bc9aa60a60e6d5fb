ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_OPCODE) == 1, "Error: NEURON_ISA_TPB_OPCODE is NOT 1B.");

// ---- 4. data types, validator flags, RNG-family enums ----------------------------------

// Element data types. Codes never change meaning between generations; later generations only add
// codes. Listed by family (floating point, unsigned, signed, then the newer formats), not by value.
typedef enum NEURON_ISA_TPB_DTYPE {
    NEURON_ISA_TPB_DTYPE_INVALID  = 0x0,  // sentinel, no data type
    NEURON_ISA_TPB_DTYPE_FP8_EXP3 = 0xD,  // 1 B, E3M4
    NEURON_ISA_TPB_DTYPE_FP8_EXP4 = 0xE,  // 1 B, E4M3
    NEURON_ISA_TPB_DTYPE_FP8_EXP5 = 0xF,  // 1 B, E5M2
    NEURON_ISA_TPB_DTYPE_FP16     = 0x7,  // 2 B
    NEURON_ISA_TPB_DTYPE_BFLOAT16 = 0x6,  // 2 B
    NEURON_ISA_TPB_DTYPE_FP32     = 0xA,  // 4 B
    NEURON_ISA_TPB_DTYPE_FP32R    = 0xB,  // 4 B, output only (needs DTYPE_ALLOW_FP32R_TRUE)
    NEURON_ISA_TPB_DTYPE_UINT8    = 0x3,  // 1 B
    NEURON_ISA_TPB_DTYPE_UINT16   = 0x5,  // 2 B
    NEURON_ISA_TPB_DTYPE_UINT32   = 0x9,  // 4 B, the RNG state word type
    NEURON_ISA_TPB_DTYPE_UINT64   = 0x1,  // 8 B, gated by DTYPE_ALLOW_U64
    NEURON_ISA_TPB_DTYPE_INT8     = 0x2,  // 1 B
    NEURON_ISA_TPB_DTYPE_INT16    = 0x4,  // 2 B
    NEURON_ISA_TPB_DTYPE_INT32    = 0x8,  // 4 B
    NEURON_ISA_TPB_DTYPE_INT64    = 0xC,  // 8 B, gated by DTYPE_ALLOW_I64
    NEURON_ISA_TPB_DTYPE_FP4_EXP2 = 0x10, // 4 bit, E2M1
    NEURON_ISA_TPB_DTYPE_CPTC1    = 0x19, // 1 bit compressed code (0x18 itself is reserved)
    NEURON_ISA_TPB_DTYPE_CPTC2    = 0x1A, // 2 bit compressed code
    NEURON_ISA_TPB_DTYPE_CPTC3    = 0x1B, // 3 bit compressed code
    NEURON_ISA_TPB_DTYPE_CPTC4    = 0x1C, // 4 bit compressed code
    NEURON_ISA_TPB_DTYPE_CPTC5    = 0x1D, // 5 bit compressed code
    NEURON_ISA_TPB_DTYPE_CPTC6    = 0x1E, // 6 bit compressed code
    NEURON_ISA_TPB_DTYPE_CPTC7    = 0x1F, // 7 bit compressed code
    NEURON_ISA_TPB_DTYPE_FP8_EXP2 = 0x11, // 1 B, E2M5
    NEURON_ISA_TPB_DTYPE_INT4     = 0x12, // 4 bit
    NEURON_ISA_TPB_DTYPE_SFP8_E8  = 0x13, // 1 B scale-only, S0E8M0
    NEURON_ISA_TPB_DTYPE_SFP8_E7  = 0x14, // 1 B scale-only, S0E7M1
    NEURON_ISA_TPB_DTYPE_SFP8_E6  = 0x15, // 1 B scale-only, S0E6M2
    NEURON_ISA_TPB_DTYPE_SFP8_E5  = 0x16, // 1 B scale-only, S0E5M3
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE) == 1, "Error: NEURON_ISA_TPB_DTYPE is NOT 1B.");

// The sixteen base codes again, for fields that can only hold one of them (4-bit slots).
typedef enum NEURON_ISA_TPB_DTYPE_BASIC {
    NEURON_ISA_TPB_DTYPE_BASIC_INVALID  = 0x0, // sentinel, no data type
    NEURON_ISA_TPB_DTYPE_BASIC_FP8_EXP3 = 0xD, // 1 B, E3M4
    NEURON_ISA_TPB_DTYPE_BASIC_FP8_EXP4 = 0xE, // 1 B, E4M3
    NEURON_ISA_TPB_DTYPE_BASIC_FP8_EXP5 = 0xF, // 1 B, E5M2
    NEURON_ISA_TPB_DTYPE_BASIC_FP16     = 0x7, // 2 B
    NEURON_ISA_TPB_DTYPE_BASIC_BFLOAT16 = 0x6, // 2 B
    NEURON_ISA_TPB_DTYPE_BASIC_FP32     = 0xA, // 4 B
    NEURON_ISA_TPB_DTYPE_BASIC_FP32R    = 0xB, // 4 B, output only (needs DTYPE_ALLOW_FP32R_TRUE)
    NEURON_ISA_TPB_DTYPE_BASIC_UINT8    = 0x3, // 1 B
    NEURON_ISA_TPB_DTYPE_BASIC_UINT16   = 0x5, // 2 B
    NEURON_ISA_TPB_DTYPE_BASIC_UINT32   = 0x9, // 4 B, the RNG state word type
    NEURON_ISA_TPB_DTYPE_BASIC_UINT64   = 0x1, // 8 B, gated by DTYPE_ALLOW_U64
    NEURON_ISA_TPB_DTYPE_BASIC_INT8     = 0x2, // 1 B
    NEURON_ISA_TPB_DTYPE_BASIC_INT16    = 0x4, // 2 B
    NEURON_ISA_TPB_DTYPE_BASIC_INT32    = 0x8, // 4 B
    NEURON_ISA_TPB_DTYPE_BASIC_INT64    = 0xC, // 8 B, gated by DTYPE_ALLOW_I64
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_BASIC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_BASIC) == 1, "Error: NEURON_ISA_TPB_DTYPE_BASIC is NOT 1B.");

// Flags passed to the dtype checks: may this operand use the gated types?
typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP32R {
    NEURON_ISA_TPB_DTYPE_ALLOW_FP32R_FALSE = 0, // FP32R allowed: no
    NEURON_ISA_TPB_DTYPE_ALLOW_FP32R_TRUE  = 1, // FP32R allowed: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_FP32R;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_ALLOW_FP32R) == 1, "Error: NEURON_ISA_TPB_DTYPE_ALLOW_FP32R is NOT 1B.");

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_U64 {
    NEURON_ISA_TPB_DTYPE_ALLOW_U64_FALSE = 0, // UINT64 allowed: no
    NEURON_ISA_TPB_DTYPE_ALLOW_U64_TRUE  = 1, // UINT64 allowed: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_U64;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_ALLOW_U64) == 1, "Error: NEURON_ISA_TPB_DTYPE_ALLOW_U64 is NOT 1B.");

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_I64 {
    NEURON_ISA_TPB_DTYPE_ALLOW_I64_FALSE = 0, // INT64 allowed: no
    NEURON_ISA_TPB_DTYPE_ALLOW_I64_TRUE  = 1, // INT64 allowed: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_I64;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_ALLOW_I64) == 1, "Error: NEURON_ISA_TPB_DTYPE_ALLOW_I64 is NOT 1B.");

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_FP4 {
    NEURON_ISA_TPB_DTYPE_ALLOW_FP4_FALSE = 0, // FP4_EXP2 / INT4 allowed: no
    NEURON_ISA_TPB_DTYPE_ALLOW_FP4_TRUE  = 1, // FP4_EXP2 / INT4 allowed: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_FP4;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_ALLOW_FP4) == 1, "Error: NEURON_ISA_TPB_DTYPE_ALLOW_FP4 is NOT 1B.");

typedef enum NEURON_ISA_TPB_DTYPE_ALLOW_SCALE {
    NEURON_ISA_TPB_DTYPE_ALLOW_SCALE_FALSE = 0, // SFP8_* scale types allowed: no
    NEURON_ISA_TPB_DTYPE_ALLOW_SCALE_TRUE  = 1, // SFP8_* scale types allowed: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_ALLOW_SCALE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_ALLOW_SCALE) == 1, "Error: NEURON_ISA_TPB_DTYPE_ALLOW_SCALE is NOT 1B.");

// Random-number algorithm run by an engine lane (rand_algorithm fields).
typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {
    NEURON_ISA_TPB_RAND_ALGORITHM_LFSR   = 0, // 32-bit LFSR, one word per sub-generator
    NEURON_ISA_TPB_RAND_ALGORITHM_PCG32  = 1, // PCG-XSH-RR, 64-bit state, 32-bit output
    NEURON_ISA_TPB_RAND_ALGORITHM_PHILOX = 2, // Philox4x32, 10 rounds, counter based
    NEURON_ISA_TPB_RAND_ALGORITHM_XORWOW = 3, // Marsaglia xorwow, five xorshift words + Weyl counter
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_ALGORITHM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_ALGORITHM) == 1, "Error: NEURON_ISA_TPB_RAND_ALGORITHM is NOT 1B.");

// Generator source selected together with the algorithm (rand_generator fields). The numbering is
// its own: XORWOW is 3 as an algorithm but RNG_XORWOW is 1 here; OUTPUT_CVT_LFSR pairs with LFSR.
typedef enum NEURON_ISA_TPB_RAND_SRC {
    NEURON_ISA_TPB_RAND_SRC_RNG_LFSR        = 0, // plain LFSR generator
    NEURON_ISA_TPB_RAND_SRC_RNG_XORWOW      = 1, // xorwow generator
    NEURON_ISA_TPB_RAND_SRC_RNG_PHILOX      = 2, // Philox generator
    NEURON_ISA_TPB_RAND_SRC_OUTPUT_CVT_LFSR = 3, // LFSR generator of the output-conversion path
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_SRC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_SRC) == 1, "Error: NEURON_ISA_TPB_RAND_SRC is NOT 1B.");

// Where RandSetState takes the new state from (S1_RAND.update_state).
typedef enum NEURON_ISA_TPB_RAND_STATE_UPDATE {
    NEURON_ISA_TPB_RAND_STATE_UPDATE_SRC_TENSOR = 0, // from src_mem_pattern
    NEURON_ISA_TPB_RAND_STATE_UPDATE_IMM_SINGLE = 1, // from imm_state, one state for every lane
    NEURON_ISA_TPB_RAND_STATE_UPDATE_IMM_LANE   = 2, // from imm_state per lane; no legal combination accepts it
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_STATE_UPDATE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_STATE_UPDATE) == 1, "Error: NEURON_ISA_TPB_RAND_STATE_UPDATE is NOT 1B.");

// What Rand / Rand2 do with the raw 32-bit output (post_process fields).
typedef enum NEURON_ISA_TPB_RAND_POST_PROC {
    NEURON_ISA_TPB_RAND_POST_PROC_RAW_U32          = 0, // the 32-bit output unchanged
    NEURON_ISA_TPB_RAND_POST_PROC_UNIFORM_IN_RANGE = 1, // fp32 uniform between the min and max operands
    NEURON_ISA_TPB_RAND_POST_PROC_NORMAL           = 2, // normal distribution, not implemented by the hardware
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_POST_PROC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_POST_PROC) == 1, "Error: NEURON_ISA_TPB_RAND_POST_PROC is NOT 1B.");

// Where an immediate operand comes from (min_src, max_src, threshold_src, seed_src).
typedef enum NEURON_ISA_TPB_IMM_SRC {
    NEURON_ISA_TPB_IMM_SRC_INSTRUCTION_IMMEDIATE = 0, // value stored in the instruction
    NEURON_ISA_TPB_IMM_SRC_POINTER_IMMEDIATE     = 1, // instruction holds a partition offset to the value
    NEURON_ISA_TPB_IMM_SRC_REG_PTR_IMMEDIATE     = 2, // a register holds the partition offset
} NEURON_ISA_PACKED NEURON_ISA_TPB_IMM_SRC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_SRC) == 1, "Error: NEURON_ISA_TPB_IMM_SRC is NOT 1B.");

// How Dropout reads its threshold. This tree takes the drop-rate reading: with DROP_RATE an element
// is flushed when its random value is below the threshold (the threshold is the drop probability).
typedef enum NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE {
    NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE_DROP_RATE = 0, // flush to zero when rand < threshold
    NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE_KEEP_RATE = 1, // flush to zero when rand > threshold
} NEURON_ISA_PACKED NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE) == 1, "Error: NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE is NOT 1B.");

// What PeManageSeed does with the PE stochastic-rounding seeds (S2S1D2_PE_SEED.mode).
typedef enum NEURON_ISA_TPB_PE_SEED_MODE {
    NEURON_ISA_TPB_PE_SEED_MODE_NONE      = 0, // no seed transfer
    NEURON_ISA_TPB_PE_SEED_MODE_LOAD_SEED = 1, // load seeds from SBUF into the array
    NEURON_ISA_TPB_PE_SEED_MODE_SAVE_SEED = 2, // write the seeds out to PSUM
} NEURON_ISA_PACKED NEURON_ISA_TPB_PE_SEED_MODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_PE_SEED_MODE) == 1, "Error: NEURON_ISA_TPB_PE_SEED_MODE is NOT 1B.");

// ---- 4b. enums of the other instruction families ----------------------------------------

// Scale operand type of the MX quantizer: a typedef of an enum, used as a field type
// (S3DMX1_QUANT.scale_dtype).
typedef NEURON_ISA_TPB_DTYPE NEURON_ISA_TPB_SCALE_DTYPE;

// The same immediate sources as IMM_SRC with the first two codes swapped. Do not use it for the
// fields IMM_SRC types; it exists beside IMM_SRC in the vendor tree.
typedef enum NEURON_ISA_TPB_IMM_SRC_N {
    NEURON_ISA_TPB_IMM_SRC_N_POINTER_IMMEDIATE     = 0, // instruction holds a partition offset to the value
    NEURON_ISA_TPB_IMM_SRC_N_INSTRUCTION_IMMEDIATE = 1, // value stored in the instruction
    NEURON_ISA_TPB_IMM_SRC_N_REG_PTR_IMMEDIATE     = 2, // a register holds the partition offset
} NEURON_ISA_PACKED NEURON_ISA_TPB_IMM_SRC_N;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_SRC_N) == 1, "Error: NEURON_ISA_TPB_IMM_SRC_N is NOT 1B.");

// What an instruction does with the per-lane accumulator.
typedef enum NEURON_ISA_TPB_ACCUM_CMD {
    NEURON_ISA_TPB_ACCUM_CMD_IDLE            = 0, // leave it alone
    NEURON_ISA_TPB_ACCUM_CMD_ZERO            = 1, // clear it
    NEURON_ISA_TPB_ACCUM_CMD_ACCUMULATE      = 2, // add the results into it
    NEURON_ISA_TPB_ACCUM_CMD_ZERO_ACCUMULATE = 3, // clear it, then add
    NEURON_ISA_TPB_ACCUM_CMD_LOAD_ACCUMULATE = 4, // load it, then add
} NEURON_ISA_PACKED NEURON_ISA_TPB_ACCUM_CMD;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ACCUM_CMD) == 1, "Error: NEURON_ISA_TPB_ACCUM_CMD is NOT 1B.");

// Where TensorStore takes the stored values from (MEM_2D.src_datasrc).
typedef enum NEURON_ISA_TPB_DATA_SRC {
    NEURON_ISA_TPB_DATA_SRC_REGISTER  = 0, // from the registers named in data
    NEURON_ISA_TPB_DATA_SRC_IMMEDIATE = 1, // from the immediates packed in data
} NEURON_ISA_PACKED NEURON_ISA_TPB_DATA_SRC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DATA_SRC) == 1, "Error: NEURON_ISA_TPB_DATA_SRC is NOT 1B.");

// Dimensions an operation spans. UNUSED = 0 and X = 2 are documented; the values of XY, XYZ and
// XYZW are this tree's choice, and code 1 is left unnamed.
typedef enum NEURON_ISA_TPB_TENSOR_SUBDIM {
    NEURON_ISA_TPB_TENSOR_SUBDIM_UNUSED = 0, // no sub-dimension
    NEURON_ISA_TPB_TENSOR_SUBDIM_X      = 2, // innermost dimension
    NEURON_ISA_TPB_TENSOR_SUBDIM_XY     = 3, // two innermost dimensions
    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZ    = 4, // three innermost dimensions
    NEURON_ISA_TPB_TENSOR_SUBDIM_XYZW   = 5, // all four dimensions
} NEURON_ISA_PACKED NEURON_ISA_TPB_TENSOR_SUBDIM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR_SUBDIM) == 1, "Error: NEURON_ISA_TPB_TENSOR_SUBDIM is NOT 1B.");

// Axis of a cross-lane reduction.
typedef enum NEURON_ISA_TPB_REDUCE_AXIS {
    NEURON_ISA_TPB_REDUCE_AXIS_ALL        = 0, // every dimension: one value out
    NEURON_ISA_TPB_REDUCE_AXIS_PARTITIONS = 1, // across partitions only
} NEURON_ISA_PACKED NEURON_ISA_TPB_REDUCE_AXIS;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_REDUCE_AXIS) == 1, "Error: NEURON_ISA_TPB_REDUCE_AXIS is NOT 1B.");

// Logical-NeuronCore grouping of an SB2SB collective run on the Pool iDMA engine.
typedef enum NEURON_ISA_TPB_LNC_SIZE_FMT {
    NEURON_ISA_TPB_LNC_SIZE_FMT_LNC1 = 0, // a core with itself (self test)
    NEURON_ISA_TPB_LNC_SIZE_FMT_LNC2 = 1, // pairs of cores
    NEURON_ISA_TPB_LNC_SIZE_FMT_LNC4 = 2, // groups of four
    NEURON_ISA_TPB_LNC_SIZE_FMT_LNC8 = 3, // all eight
} NEURON_ISA_PACKED NEURON_ISA_TPB_LNC_SIZE_FMT;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_LNC_SIZE_FMT) == 1, "Error: NEURON_ISA_TPB_LNC_SIZE_FMT is NOT 1B.");

// Operation of the collective compute engine.
typedef enum NEURON_ISA_TPB_CCE_OP {
    NEURON_ISA_TPB_CCE_OP_ADD = 0, // sum
    NEURON_ISA_TPB_CCE_OP_MAX = 2, // maximum
    NEURON_ISA_TPB_CCE_OP_MIN = 3, // minimum
} NEURON_ISA_PACKED NEURON_ISA_TPB_CCE_OP;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_CCE_OP) == 1, "Error: NEURON_ISA_TPB_CCE_OP is NOT 1B.");

// Source and target formats of TensorDequantize.
typedef enum NEURON_ISA_TPB_DEQUANT_FMT {
    NEURON_ISA_TPB_DEQUANT_FMT_INVALID     = 0, // no format
    NEURON_ISA_TPB_DEQUANT_FMT_E2M1TO_E5M2 = 1, // FP4 E2M1 in, FP8 E5M2 out
    NEURON_ISA_TPB_DEQUANT_FMT_INT4TO_E5M2 = 2, // INT4 in, FP8 E5M2 out
    NEURON_ISA_TPB_DEQUANT_FMT_NF4TO_E4M3  = 3, // NF4 in, FP8 E4M3 out
    NEURON_ISA_TPB_DEQUANT_FMT_E2M3TO_E4M3 = 4, // FP6 E2M3 in, FP8 E4M3 out
} NEURON_ISA_PACKED NEURON_ISA_TPB_DEQUANT_FMT;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DEQUANT_FMT) == 1, "Error: NEURON_ISA_TPB_DEQUANT_FMT is NOT 1B.");

// Operation of a DGE compute step. The order is the order of the enums.h constants.
typedef enum NEURON_ISA_TPB_DGE_COMPUTE_OP {
    NEURON_ISA_TPB_DGE_COMPUTE_OP_NONE     = 0, // copy only
    NEURON_ISA_TPB_DGE_COMPUTE_OP_ADD      = 1, // add
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MULTIPLY = 2, // multiply
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MAX      = 3, // maximum
    NEURON_ISA_TPB_DGE_COMPUTE_OP_MIN      = 4, // minimum
} NEURON_ISA_PACKED NEURON_ISA_TPB_DGE_COMPUTE_OP;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DGE_COMPUTE_OP) == 1, "Error: NEURON_ISA_TPB_DGE_COMPUTE_OP is NOT 1B.");

// PSUM zero region of a matmul.
typedef enum NEURON_ISA_TPB_MATMUL_ZERO_REGION {
    NEURON_ISA_TPB_MATMUL_ZERO_REGION_SIZE2048  = 0, // 2 KiB
    NEURON_ISA_TPB_MATMUL_ZERO_REGION_SIZE4096  = 1, // 4 KiB
    NEURON_ISA_TPB_MATMUL_ZERO_REGION_SIZE8192  = 2, // 8 KiB
    NEURON_ISA_TPB_MATMUL_ZERO_REGION_SIZE16384 = 3, // 16 KiB
} NEURON_ISA_PACKED NEURON_ISA_TPB_MATMUL_ZERO_REGION;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MATMUL_ZERO_REGION) == 1, "Error: NEURON_ISA_TPB_MATMUL_ZERO_REGION is NOT 1B.");

// Debugger command levels of HEADER.debug_cmd.
typedef enum NEURON_ISA_TPB_DEBUG_CMD_LEVELS {
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_NONE      = 0, // no debug action
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_NOTIFY    = 1, // notify
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_START     = 3, // notify at start
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_END       = 5, // notify at end
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_START_END = 7, // notify at start and end
    NEURON_ISA_TPB_DEBUG_CMD_LEVELS_INS_FIELD = 9, // dump instruction fields
} NEURON_ISA_PACKED NEURON_ISA_TPB_DEBUG_CMD_LEVELS;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DEBUG_CMD_LEVELS) == 1, "Error: NEURON_ISA_TPB_DEBUG_CMD_LEVELS is NOT 1B.");

// ModifyPoolConfig operation.
typedef enum NEURON_ISA_TPB_MODIFY_POOL_OP {
    NEURON_ISA_TPB_MODIFY_POOL_OP_INVALID    = 0, // none
    NEURON_ISA_TPB_MODIFY_POOL_OP_LOAD_LIB   = 1, // load a library
    NEURON_ISA_TPB_MODIFY_POOL_OP_UNLOAD_LIB = 2, // unload it
} NEURON_ISA_PACKED NEURON_ISA_TPB_MODIFY_POOL_OP;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MODIFY_POOL_OP) == 1, "Error: NEURON_ISA_TPB_MODIFY_POOL_OP is NOT 1B.");

// ALU operations. Only the members the references name are here (the MAVERICK enum has 65); the
// order of the five comparisons is read from the range-select validator's note.
typedef enum NEURON_ISA_TPB_ALU_OP {
    NEURON_ISA_TPB_ALU_OP_BYPASS  = 0x00, // pass the operand through
    NEURON_ISA_TPB_ALU_OP_IS_EQ   = 0x12, // a == b
    NEURON_ISA_TPB_ALU_OP_IS_GT   = 0x13, // a >  b
    NEURON_ISA_TPB_ALU_OP_IS_GE   = 0x14, // a >= b
    NEURON_ISA_TPB_ALU_OP_IS_LE   = 0x15, // a <= b
    NEURON_ISA_TPB_ALU_OP_IS_LT   = 0x16, // a <  b
    NEURON_ISA_TPB_ALU_OP_ADD_INT = 0xC4, // integer add; bits 7:6 set mark the integer compute type
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALU_OP;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ALU_OP) == 1, "Error: NEURON_ISA_TPB_ALU_OP is NOT 1B.");

// Reversal of the operands of a tensor-scalar operation. Only NONE is documented.
typedef enum NEURON_ISA_TPB_TENS_SCALAR_REV_OPS {
    NEURON_ISA_TPB_TENS_SCALAR_REV_OPS_NONE = 0, // tensor op scalar
} NEURON_ISA_PACKED NEURON_ISA_TPB_TENS_SCALAR_REV_OPS;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENS_SCALAR_REV_OPS) == 1, "Error: NEURON_ISA_TPB_TENS_SCALAR_REV_OPS is NOT 1B.");

// Background transpose of LoadWeights. The enum is documented, its members are not: these two are
// this tree's placeholders.
typedef enum NEURON_ISA_TPB_BG_XPOSE_MODE {
    NEURON_ISA_TPB_BG_XPOSE_MODE_NONE   = 0, // placeholder: no transpose
    NEURON_ISA_TPB_BG_XPOSE_MODE_XPOSE  = 1, // placeholder: transpose while loading
} NEURON_ISA_PACKED NEURON_ISA_TPB_BG_XPOSE_MODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_BG_XPOSE_MODE) == 1, "Error: NEURON_ISA_TPB_BG_XPOSE_MODE is NOT 1B.");

// Non-blocking semaphore commands of the event engine (one member documented).
typedef enum NEURON_ISA_TPB_EVT_SEM_NONBLOCKING_CMD {
    NEURON_ISA_TPB_EVT_SEM_NONBLOCKING_CMD_SEM_WRITE = 0x49, // write a semaphore without waiting
} NEURON_ISA_PACKED NEURON_ISA_TPB_EVT_SEM_NONBLOCKING_CMD;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EVT_SEM_NONBLOCKING_CMD) == 1, "Error: NEURON_ISA_TPB_EVT_SEM_NONBLOCKING_CMD is NOT 1B.");

// Addressing mode of an indirect DMA. The enumerators repeat the enum name after the prefix, as the
// vendor header does. SRC_INDIRECTION = 0x0 is documented; DST_INDIRECTION is this tree's choice.
typedef enum NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE {
    NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE_INDIRECT_DMA_ADDRESSING_MODE_SRC_INDIRECTION = 0x0, // indices select source rows
    NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE_INDIRECT_DMA_ADDRESSING_MODE_DST_INDIRECTION = 0x1, // indices select destination rows
} NEURON_ISA_PACKED NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE) == 1, "Error: NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE is NOT 1B.");

// Dimension a gather indexes. Member names are this tree's choice (the enum is documented).
typedef enum NEURON_ISA_TPB_INDIRECT_DIM {
    NEURON_ISA_TPB_INDIRECT_DIM_X = 0, // innermost
    NEURON_ISA_TPB_INDIRECT_DIM_Y = 1, // second
    NEURON_ISA_TPB_INDIRECT_DIM_Z = 2, // third
    NEURON_ISA_TPB_INDIRECT_DIM_W = 3, // outermost
} NEURON_ISA_PACKED NEURON_ISA_TPB_INDIRECT_DIM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INDIRECT_DIM) == 1, "Error: NEURON_ISA_TPB_INDIRECT_DIM is NOT 1B.");

// Sub-operation of PSEUDO_INST (0xdf), a second enum of "pseudo opcodes" unrelated to OPCODE.
typedef enum NEURON_ISA_TPB_PSEUDO_OPCODE {
    NEURON_ISA_TPB_PSEUDO_OPCODE_INVALID                     = 0, // none
    NEURON_ISA_TPB_PSEUDO_OPCODE_PSEUDO_EXIT_EXECUTION       = 1, // end the program
    NEURON_ISA_TPB_PSEUDO_OPCODE_PSEUDO_LIBRARY_RELOAD_INDEX = 2, // reload a Pool library by index
} NEURON_ISA_PACKED NEURON_ISA_TPB_PSEUDO_OPCODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_PSEUDO_OPCODE) == 1, "Error: NEURON_ISA_TPB_PSEUDO_OPCODE is NOT 1B.");

// ---- 5. building blocks ---------------------------------------------------------------

// First word of every instruction.
typedef struct NEURON_ISA_TPB_HEADER {
    NEURON_ISA_TPB_OPCODE opcode;         //  1 ( 0     ) what the instruction does
    uint8_t               inst_word_len;  //  1 ( 1     ) length in 4-byte words, 16
    uint8_t               debug_cmd;      //  1 ( 2     ) debugger command
    uint8_t               inst_flags;     //  1 ( 3     ) tile index / instruction flags (position assumed)
} NEURON_ISA_TPB_HEADER;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_HEADER) == 4, "Error: NEURON_ISA_TPB_HEADER is NOT 4B.");

// Semaphore handshake done around every instruction.
typedef struct NEURON_ISA_TPB_EVENTS {
    NEURON_ISA_TPB_WAIT_MODE   wait_mode;        //  1 ( 0     ) wait before start
    uint8_t                    wait_idx;         //  1 ( 1     ) semaphore waited on
    NEURON_ISA_TPB_UPDATE_MODE update_mode;      //  1 ( 2     ) update after read / completion
    uint8_t                    update_idx;       //  1 ( 3     ) semaphore updated
    uint32_t                   semaphore_value;  //  4 ( 4 -  7) immediate of the wait / update
} NEURON_ISA_TPB_EVENTS;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EVENTS) == 8, "Error: NEURON_ISA_TPB_EVENTS is NOT 8B.");

// Byte address inside the on-chip memories: SBUF from STATE_BUF_OFFSET, PSUM from PSUM_BUF_OFFSET.
typedef uint32_t NEURON_ISA_TPB_PARTITION_OFFSET;

// Register form of a start address (marker == ADDR4_MARKER_ADDR_REG).
typedef struct NEURON_ISA_TPB_ADDR_REG4 {
    uint8_t regnum;        //  1 ( 0     ) address register, below NUM_ADDR_REGISTERS
    uint8_t reserved0[2];  //  2 ( 1 -  2) zero
    uint8_t marker;        //  1 ( 3     ) ADDR4_MARKER_*
} NEURON_ISA_TPB_ADDR_REG4;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ADDR_REG4) == 4, "Error: NEURON_ISA_TPB_ADDR_REG4 is NOT 4B.");

// Start address of a tensor: an immediate offset or a register reference.
typedef union NEURON_ISA_TPB_ADDR4 {
    NEURON_ISA_TPB_PARTITION_OFFSET addr_immediate;  //  4 ( 0 -  3) offset; bits 29-31 clear
    NEURON_ISA_TPB_ADDR_REG4        addr_reg;        //  4 ( 0 -  3) register form
} NEURON_ISA_TPB_ADDR4;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ADDR4) == 4, "Error: NEURON_ISA_TPB_ADDR4 is NOT 4B.");

// Register form of an immediate operand.
typedef struct NEURON_ISA_TPB_IMM_REG {
    uint8_t regnum;        //  1 ( 0     ) register holding the value or pointer
    uint8_t reserved0[2];  //  2 ( 1 -  2) zero
    uint8_t marker;        //  1 ( 3     ) register marker
} NEURON_ISA_TPB_IMM_REG;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_REG) == 4, "Error: NEURON_ISA_TPB_IMM_REG is NOT 4B.");

// Tensor access patterns: start address, then all strides (signed, in elements), then all counts.
// num_elem[0] is the innermost dimension; unused dimensions hold stride 1, count 1; a count is never 0.
typedef struct NEURON_ISA_TPB_TENSOR1D {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) first element
    int16_t              step_elem[1];  //  2 ( 4 -  5) strides in elements
    uint16_t             num_elem[1];   //  2 ( 6 -  7) element counts
} NEURON_ISA_TPB_TENSOR1D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR1D) == 8, "Error: NEURON_ISA_TPB_TENSOR1D is NOT 8B.");

typedef struct NEURON_ISA_TPB_TENSOR2D {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) first element
    int16_t              step_elem[2];  //  4 ( 4 -  7) strides in elements
    uint16_t             num_elem[2];   //  4 ( 8 - 11) element counts
} NEURON_ISA_TPB_TENSOR2D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR2D) == 12, "Error: NEURON_ISA_TPB_TENSOR2D is NOT 12B.");

typedef struct NEURON_ISA_TPB_TENSOR3D {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) first element
    int16_t              step_elem[3];  //  6 ( 4 -  9) strides in elements
    uint16_t             num_elem[3];   //  6 (10 - 15) element counts
} NEURON_ISA_TPB_TENSOR3D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR3D) == 16, "Error: NEURON_ISA_TPB_TENSOR3D is NOT 16B.");

typedef struct NEURON_ISA_TPB_TENSOR4D {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) first element
    int16_t              step_elem[4];  //  8 ( 4 - 11) strides in elements
    uint16_t             num_elem[4];   //  8 (12 - 19) element counts
} NEURON_ISA_TPB_TENSOR4D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_TENSOR4D) == 20, "Error: NEURON_ISA_TPB_TENSOR4D is NOT 20B.");

// A 4-byte immediate operand; the matching *_src field (IMM_SRC) says which view applies.
typedef union NEURON_ISA_TPB_IMM_VAL_INST_FIELD {
    NEURON_ISA_TPB_PARTITION_OFFSET imm_ptr;               //  4 ( 0 -  3) pointer to the value
    NEURON_ISA_TPB_IMM_REG          imm_reg;               //  4 ( 0 -  3) register form
    float                           imm_arith_fp32;        //  4 ( 0 -  3) fp32 value
    int32_t                         imm_bitvec_int32;      //  4 ( 0 -  3) signed bit pattern
    uint32_t                        imm_bitvec_uint32;     //  4 ( 0 -  3) unsigned bit pattern
    uint16_t                        imm_bitvec_uint16[2];  //  4 ( 0 -  3) two 16-bit halves
} NEURON_ISA_TPB_IMM_VAL_INST_FIELD;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_IMM_VAL_INST_FIELD) == 4, "Error: NEURON_ISA_TPB_IMM_VAL_INST_FIELD is NOT 4B.");

// One parameter of the Rand instruction (params[0] = min, params[1] = max for UNIFORM_IN_RANGE).
typedef union NEURON_ISA_TPB_RAND_PARAM {
    float    param_fp32;           //  4 ( 0 -  3) fp32 view
    uint32_t param_bitvec_uint32;  //  4 ( 0 -  3) bit pattern view
} NEURON_ISA_TPB_RAND_PARAM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_PARAM) == 4, "Error: NEURON_ISA_TPB_RAND_PARAM is NOT 4B.");

// Input and output data type in one byte. DTYPE has codes above 0xF in this generation, so the
// 4-bit slots are typed with the base codes (DTYPE_BASIC).
typedef struct NEURON_ISA_TPB_DTYPE_PAIR {
    NEURON_ISA_TPB_DTYPE_BASIC dtype_lo : 4;  // bits 0 - 3: input dtype
    NEURON_ISA_TPB_DTYPE_BASIC dtype_hi : 4;  // bits 4 - 7: output dtype
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_PAIR;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_PAIR) == 1, "Error: NEURON_ISA_TPB_DTYPE_PAIR is NOT 1B.");

// Events with separate wait and update values (12 bytes).
typedef struct NEURON_ISA_TPB_EVENTS_EXTENDED {
    NEURON_ISA_TPB_WAIT_MODE   wait_mode;         //  1 ( 0     ) wait before start
    uint8_t                    wait_idx;          //  1 ( 1     ) semaphore waited on
    NEURON_ISA_TPB_UPDATE_MODE update_mode;       //  1 ( 2     ) update after read / completion
    uint8_t                    update_idx;        //  1 ( 3     ) semaphore updated
    uint32_t                   sem_wait_value;    //  4 ( 4 -  7) immediate of the wait
    uint32_t                   sem_update_value;  //  4 ( 8 - 11) immediate of the update
} NEURON_ISA_TPB_EVENTS_EXTENDED;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EVENTS_EXTENDED) == 12, "Error: NEURON_ISA_TPB_EVENTS_EXTENDED is NOT 12B.");

// A 64-bit device address (DMA and TensorStore targets). The views are this tree's choice.
typedef union NEURON_ISA_TPB_ADDR8 {
    uint64_t                 addr_immediate;  //  8 ( 0 -  7) address
    uint32_t                 addr_words[2];   //  8 ( 0 -  7) low and high words
    NEURON_ISA_TPB_ADDR_REG4 addr_reg;        //  4 ( 0 -  3) register form
} NEURON_ISA_TPB_ADDR8;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ADDR8) == 8, "Error: NEURON_ISA_TPB_ADDR8 is NOT 8B.");

// Indirect access patterns: a base, the address of the index tensor, then strides and counts. They
// have the sizes of the tensors they alternate with in MEM_PATTERNnD; the fields are placeholders.
typedef struct NEURON_ISA_TPB_INDIRECT12B {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) base of the indexed tensor
    NEURON_ISA_TPB_ADDR4 index_addr;    //  4 ( 4 -  7) index tensor
    int16_t              step_elem[1];  //  2 ( 8 -  9) strides in elements
    uint16_t             num_elem[1];   //  2 (10 - 11) element counts
} NEURON_ISA_TPB_INDIRECT12B;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INDIRECT12B) == 12, "Error: NEURON_ISA_TPB_INDIRECT12B is NOT 12B.");

typedef struct NEURON_ISA_TPB_INDIRECT16B {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) base of the indexed tensor
    NEURON_ISA_TPB_ADDR4 index_addr;    //  4 ( 4 -  7) index tensor
    int16_t              step_elem[2];  //  4 ( 8 - 11) strides in elements
    uint16_t             num_elem[2];   //  4 (12 - 15) element counts
} NEURON_ISA_TPB_INDIRECT16B;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INDIRECT16B) == 16, "Error: NEURON_ISA_TPB_INDIRECT16B is NOT 16B.");

typedef struct NEURON_ISA_TPB_INDIRECT20B {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) base of the indexed tensor
    NEURON_ISA_TPB_ADDR4 index_addr;    //  4 ( 4 -  7) index tensor
    int16_t              step_elem[3];  //  6 ( 8 - 13) strides in elements
    uint16_t             num_elem[3];   //  6 (14 - 19) element counts
} NEURON_ISA_TPB_INDIRECT20B;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INDIRECT20B) == 20, "Error: NEURON_ISA_TPB_INDIRECT20B is NOT 20B.");

// MX (microscaling) tensor, version 2: data and scales. Fields are placeholders.
typedef struct NEURON_ISA_TPB_MXTENSOR_V2 {
    NEURON_ISA_TPB_ADDR4 start_addr;    //  4 ( 0 -  3) data
    NEURON_ISA_TPB_ADDR4 scale_addr;    //  4 ( 4 -  7) scales
    int16_t              step_elem[2];  //  4 ( 8 - 11) strides in elements
    uint16_t             num_elem[2];   //  4 (12 - 15) element counts
} NEURON_ISA_TPB_MXTENSOR_V2;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MXTENSOR_V2) == 16, "Error: NEURON_ISA_TPB_MXTENSOR_V2 is NOT 16B.");

// Memory patterns: a plain tensor, or an indirect (or MX) pattern of the same size.
typedef union NEURON_ISA_TPB_MEM_PATTERN2D {
    NEURON_ISA_TPB_TENSOR2D    t;  // 12 ( 0 - 11) strided
    NEURON_ISA_TPB_INDIRECT12B i;  // 12 ( 0 - 11) indirect
} NEURON_ISA_TPB_MEM_PATTERN2D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MEM_PATTERN2D) == 12, "Error: NEURON_ISA_TPB_MEM_PATTERN2D is NOT 12B.");

typedef union NEURON_ISA_TPB_MEM_PATTERN3D {
    NEURON_ISA_TPB_TENSOR3D    t;   // 16 ( 0 - 15) strided
    NEURON_ISA_TPB_INDIRECT16B i;   // 16 ( 0 - 15) indirect
    NEURON_ISA_TPB_MXTENSOR_V2 mx;  // 16 ( 0 - 15) MX tensor
} NEURON_ISA_TPB_MEM_PATTERN3D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MEM_PATTERN3D) == 16, "Error: NEURON_ISA_TPB_MEM_PATTERN3D is NOT 16B.");

typedef union NEURON_ISA_TPB_MEM_PATTERN4D {
    NEURON_ISA_TPB_TENSOR4D    t;  // 20 ( 0 - 19) strided
    NEURON_ISA_TPB_INDIRECT20B i;  // 20 ( 0 - 19) indirect
} NEURON_ISA_TPB_MEM_PATTERN4D;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MEM_PATTERN4D) == 20, "Error: NEURON_ISA_TPB_MEM_PATTERN4D is NOT 20B.");

// Data of TensorStore: 32 source register numbers, or packed immediates.
typedef union NEURON_ISA_TPB_MEM2D_DATA {
    uint8_t  src_reg[32];     // 32 ( 0 - 31) register numbers
    uint8_t  imm_uint8[32];   // 32 ( 0 - 31) byte immediates
    uint16_t imm_uint16[16];  // 32 ( 0 - 31) 16-bit immediates
    uint32_t imm_uint32[8];   // 32 ( 0 - 31) 32-bit immediates
} NEURON_ISA_TPB_MEM2D_DATA;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MEM2D_DATA) == 32, "Error: NEURON_ISA_TPB_MEM2D_DATA is NOT 32B.");

// Immediate of Move, in every view the instruction supports.
typedef union NEURON_ISA_TPB_MOVE_IMMEDIATE {
    uint8_t  imm_uint8[32];   // 32 ( 0 - 31) bytes
    uint16_t imm_uint16[16];  // 32 ( 0 - 31) 16-bit words
    uint16_t imm_fp16[16];    // 32 ( 0 - 31) fp16 bit patterns
    uint32_t imm_uint32;      //  4 ( 0 -  3) one unsigned word
    int32_t  imm_int32;       //  4 ( 0 -  3) one signed word
    float    imm_fp32;        //  4 ( 0 -  3) one fp32 value
} NEURON_ISA_TPB_MOVE_IMMEDIATE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_MOVE_IMMEDIATE) == 32, "Error: NEURON_ISA_TPB_MOVE_IMMEDIATE is NOT 32B.");

// Bound check of an indirect access: register bc_reg holds the bound (bc_reg + 1 the high word of a
// wide bound); disabled means all bits zero.
typedef struct NEURON_ISA_TPB_BOUND_CHECK_REG {
    NEURON_ISA_TPB_REG_NUM bc_reg : 6;                      // bound register
    uint8_t                bc_disable_oob_error_notif : 1;  // no notification on an out-of-bounds access
    uint8_t                bc_enabled : 1;                  // check on
} NEURON_ISA_PACKED NEURON_ISA_TPB_BOUND_CHECK_REG;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_BOUND_CHECK_REG) == 1, "Error: NEURON_ISA_TPB_BOUND_CHECK_REG is NOT 1B.");

// Flags of an indirect DMA: enum-typed bit-fields.
typedef struct NEURON_ISA_TPB_DMA_INDIRECT_FLAGS {
    NEURON_ISA_TPB_INDIRECT_DMA_ADDRESSING_MODE indirect_mode : 2;      // which side the indices address
    NEURON_ISA_TPB_INDIRECT_DIM                 gather_dim : 2;         // indexed dimension
    uint8_t                                     reserved_bitfield : 4;  // zero
} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_INDIRECT_FLAGS;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DMA_INDIRECT_FLAGS) == 1, "Error: NEURON_ISA_TPB_DMA_INDIRECT_FLAGS is NOT 1B.");

// ---- 6. shared validator helpers ------------------------------------------------------

// Instruction preamble: a known opcode, a 16-word length (what the compiler writes), sane events.

// fn has_valid_neuron_header(i: Inst) -> bool {
//       is_valid_enum(EnumList::Opcode, i.header.opcode)
//    && (i.header.inst_word_len == (INST_NBYTES / 4))      // 16 words
// }

// fn has_valid_neuron_events(i: Inst) -> bool {
//       (i.common.events.wait_mode != WaitMode::INVALID)
//    && (i.common.events.update_mode != UpdateMode::INVALID)
//    && ((i.common.events.wait_mode != WaitMode::NO_WAIT) || (i.common.events.wait_idx == 0))
//    && ((i.common.events.update_mode != UpdateMode::NO_UPDATE) || (i.common.events.update_idx == 0))
// }

// Lane counts.

// fn has_valid_active_channel_range(n: u8, max: u32) -> bool {
//     (n >= 1) && (n <= max)
// }

// NC-v5 channel check with the tile index from header.inst_flags. Only tile 0 is accepted here:
// the meaning of other tile values is not documented.

// fn has_valid_active_channel_range_with_tile(n: u8, max: u32, inst_flags: u8) -> bool {
//       has_valid_active_channel_range(n, max)
//    && (inst_flags == 0)
// }

// Lane count of a random-state transfer, bounded by the lane count of the engine that runs it.
// Project body: the vendor body of this predicate is not published.

// fn has_valid_rand_state_channels(n: u8, e: NeuronEngine) -> bool {
//       ((e == NeuronEngine::DVE) && has_valid_active_channel_range(n, DVE_NUM_CHANNELS))
//    || ((e == NeuronEngine::Act) && has_valid_active_channel_range(n, ACTIVATION_NUM_CHANNELS))
//    || ((e == NeuronEngine::Pool) && has_valid_active_channel_range(n, POOLING_NUM_CHANNELS))
// }

// Start addresses: immediate or register form, and which memory an immediate falls in.

// fn is_imm_addr(a: Addr4) -> bool {
//     (a.addr_immediate >> 29) == 0      // marker bits 29..31 clear
// }

// fn is_reg_addr(a: Addr4) -> bool {
//     a.addr_reg.marker == ADDR4_MARKER_ADDR_REG
// }

// fn in_sbuf(a: u32) -> bool {
//     (a >= STATE_BUF_OFFSET) && (a < (STATE_BUF_OFFSET + STATE_BUF_SZ))
// }

// fn in_psum(a: u32) -> bool {
//     (a >= PSUM_BUF_OFFSET) && (a < (PSUM_BUF_OFFSET + PSUM_BUF_SZ))
// }

// fn start_partition(a: Addr4) -> u32 {
//     if in_psum(a.addr_immediate) {
//         (a.addr_immediate - PSUM_BUF_OFFSET) / PSUM_BUF_PARTITION_SIZE
//     } else {
//         (a.addr_immediate - STATE_BUF_OFFSET) / STATE_BUF_PARTITION_SIZE
//     }
// }

// The lanes used, counted from the start partition, must exist.

// fn start_addr_active_channels(a: Addr4, n: u8) -> bool {
//     is_reg_addr(a) || ((start_partition(a) + n) <= NUM_PARTITIONS)
// }

// Element sizes in bytes; 4-bit and compressed codes count as one byte.

// fn dtype_size(d: Dtype) -> u32 {
//     if (d == Dtype::UINT64) || (d == Dtype::INT64) {
//         8
//     } else if (d == Dtype::INT32) || (d == Dtype::UINT32) || (d == Dtype::FP32) || (d == Dtype::FP32R) {
//         4
//     } else if (d == Dtype::INT16) || (d == Dtype::UINT16) || (d == Dtype::BFLOAT16) || (d == Dtype::FP16) {
//         2
//     } else {
//         1
//     }
// }

// fn type_size_check(d: Dtype, n: u32) -> bool {
//     dtype_size(d) == n
// }

// fn addr_aligned_dtype(a: u32, d: Dtype) -> bool {
//     (a % dtype_size(d)) == 0
// }

// A start address is either a register reference (valid register, reserved bytes zero) or an
// aligned immediate inside SBUF or PSUM that the operand may use; writes into PSUM need 4-byte types.

// fn tensor_start_addr_valid(a: Addr4, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//       (   is_reg_addr(a)
//        && (a.addr_reg.regnum < NUM_ADDR_REGISTERS)
//        && (a.addr_reg.reserved0[0] == 0)
//        && (a.addr_reg.reserved0[1] == 0))
//    || (   is_imm_addr(a)
//        && addr_aligned_dtype(a.addr_immediate, d)
//        && (in_psum(a.addr_immediate) || in_sbuf(a.addr_immediate))
//        && ((psum == AllowedInPSUM::True) || !in_psum(a.addr_immediate))
//        && ((sbuf == AllowedInSBUF::True) || !in_sbuf(a.addr_immediate))
//        && (type_size_check(d, 4) || !in_psum(a.addr_immediate) || (w == WriteTensor::False)))
// }

// Whole tensors: a valid start address and no empty dimension.

// fn tensor1d_valid(t: Tensor1d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//       tensor_start_addr_valid(t.start_addr, d, w, psum, sbuf)
//    && (t.num_elem[0] != 0)
// }

// fn tensor2d_valid(t: Tensor2d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//       tensor_start_addr_valid(t.start_addr, d, w, psum, sbuf)
//    && (t.num_elem[0] != 0)
//    && (t.num_elem[1] != 0)
// }

// fn tensor3d_valid(t: Tensor3d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//       tensor_start_addr_valid(t.start_addr, d, w, psum, sbuf)
//    && (t.num_elem[0] != 0)
//    && (t.num_elem[1] != 0)
//    && (t.num_elem[2] != 0)
// }

// fn tensor4d_valid(t: Tensor4d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//       tensor_start_addr_valid(t.start_addr, d, w, psum, sbuf)
//    && (t.num_elem[0] != 0)
//    && (t.num_elem[1] != 0)
//    && (t.num_elem[2] != 0)
//    && (t.num_elem[3] != 0)
// }

// Element counts.

// fn t3d_element_count(t: Tensor3d) -> u32 {
//     t.num_elem[0] * t.num_elem[1] * t.num_elem[2]
// }

// fn t4d_element_count(t: Tensor4d) -> u32 {
//     t.num_elem[0] * t.num_elem[1] * t.num_elem[2] * t.num_elem[3]
// }

// fn same_element_count_t3d(a: Tensor3d, b: Tensor3d) -> bool {
//     t3d_element_count(a) == t3d_element_count(b)
// }

// Data-type checks: each gate rejects one class of type unless the caller allows it.

// fn dtype_invalid_check(d: Dtype) -> bool {
//     d != Dtype::INVALID
// }

// fn dtype_fp32r_illegal_check(d: Dtype, allow: DtypeAllowFP32R) -> bool {
//     (allow == DtypeAllowFP32R::True) || (d != Dtype::FP32R)
// }

// fn dtype_uint64_illegal_check(d: Dtype, allow: DtypeAllowU64) -> bool {
//     (allow == DtypeAllowU64::True) || (d != Dtype::UINT64)
// }

// fn dtype_int64_illegal_check(d: Dtype, allow: DtypeAllowI64) -> bool {
//     (allow == DtypeAllowI64::True) || (d != Dtype::INT64)
// }

// fn dtype_4bit_illegal_check(d: Dtype, allow: DtypeAllowFP4) -> bool {
//     (allow == DtypeAllowFP4::True) || ((d != Dtype::FP4_EXP2) && (d != Dtype::INT4))
// }

// fn dtype_scale_illegal_check(d: Dtype, allow: DtypeAllowScale) -> bool {
//       (allow == DtypeAllowScale::True)
//    || (   (d != Dtype::SFP8_E8)
//        && (d != Dtype::SFP8_E7)
//        && (d != Dtype::SFP8_E6)
//        && (d != Dtype::SFP8_E5))
// }

// fn is_valid_dtype(d: Dtype, allow_fp32r: DtypeAllowFP32R) -> bool {
//       dtype_invalid_check(d)
//    && dtype_fp32r_illegal_check(d, allow_fp32r)
//    && dtype_uint64_illegal_check(d, DtypeAllowU64::False)
//    && dtype_int64_illegal_check(d, DtypeAllowI64::False)
//    && dtype_4bit_illegal_check(d, DtypeAllowFP4::False)
//    && dtype_scale_illegal_check(d, DtypeAllowScale::False)
//    && is_valid_enum(EnumList::Dtype, d)
// }

// Integer and floating-point families.

// fn is_int_dtype(d: Dtype) -> bool {
//       (d == Dtype::INT8)
//    || (d == Dtype::UINT8)
//    || (d == Dtype::INT16)
//    || (d == Dtype::UINT16)
//    || (d == Dtype::INT32)
//    || (d == Dtype::UINT32)
//    || (d == Dtype::INT64)
//    || (d == Dtype::UINT64)
//    || (d == Dtype::INT4)
// }

// fn is_fp_dtype(d: Dtype) -> bool {
//       (d == Dtype::FP8_EXP3)
//    || (d == Dtype::FP8_EXP4)
//    || (d == Dtype::FP8_EXP5)
//    || (d == Dtype::FP16)
//    || (d == Dtype::BFLOAT16)
//    || (d == Dtype::FP32)
//    || (d == Dtype::FP32R)
//    || (d == Dtype::FP4_EXP2)
//    || (d == Dtype::FP8_EXP2)
// }

// ---- 6b. helpers of the other instruction families -------------------------------------
// Names from the documented helper vocabulary; the bodies are this tree's, in the spec language.

// NC-v5: the tile index of header.inst_flags must be 0 (the meaning of other tiles is undocumented).

// fn has_tile_idx_zero(i: Inst) -> bool {
//     i.header.inst_flags == 0
// }

// fn check_active_channels(n: u8) -> bool {
//     has_valid_active_channel_range(n, POOLING_NUM_CHANNELS)
// }

// fn has_multiple_32_channels(n: u8) -> bool {
//     (n % 32) == 0
// }

// fn is_zero_subdim(d: TensorSubdim) -> bool {
//     (d == TensorSubdim::UNUSED) || (d == TensorSubdim::X)
// }

// Start-address markers beyond the immediate and register forms.

// fn shape_from_register(a: Addr4) -> bool {
//       (a.addr_reg.marker == ADDR4_MARKER_SHAPE_REG)
//    || (a.addr_reg.marker == ADDR4_MARKER_ADDR_SHAPE_REG)
// }

// fn indirect_pattern(a: Addr4) -> bool {
//     (a.addr_reg.marker & 0x20) != 0      // markers 0x20 and 0xA0
// }

// Memory patterns are checked through their strided view.

// fn mem2d_valid(m: MemPattern2d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//     tensor2d_valid(m.t, d, w, psum, sbuf)
// }

// fn mem3d_valid(m: MemPattern3d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//     tensor3d_valid(m.t, d, w, psum, sbuf)
// }

// fn mem4d_valid(m: MemPattern4d, d: Dtype, w: WriteTensor, psum: AllowedInPSUM, sbuf: AllowedInSBUF) -> bool {
//     tensor4d_valid(m.t, d, w, psum, sbuf)
// }

// fn check_m2d_active_channels(m: MemPattern2d, n: u8) -> bool {
//     start_addr_active_channels(m.t.start_addr, n)
// }

// fn check_m3d_active_channels(m: MemPattern3d, n: u8) -> bool {
//     start_addr_active_channels(m.t.start_addr, n)
// }

// An indirect source and the tensor it feeds stay in one quadrant of 32 partitions.

// fn indirect_quadrant_check_src3d(m: MemPattern3d) -> bool {
//       !indirect_pattern(m.t.start_addr)
//    || ((start_partition(m.i.index_addr) / 32) == (start_partition(m.i.start_addr) / 32))
// }

// fn indirect_quadrant_check_src3d_dst3d(s: MemPattern3d, d: MemPattern3d) -> bool {
//       !indirect_pattern(s.t.start_addr)
//    || is_reg_addr(d.t.start_addr)
//    || ((start_partition(s.i.index_addr) / 32) == (start_partition(d.t.start_addr) / 32))
// }

// More element counts.

// fn t2d_element_count(t: Tensor2d) -> u32 {
//     t.num_elem[0] * t.num_elem[1]
// }

// fn same_element_count_m2d(a: MemPattern2d, b: MemPattern2d) -> bool {
//     t2d_element_count(a.t) == t2d_element_count(b.t)
// }

// fn same_element_count_t4d(a: Tensor4d, b: Tensor4d) -> bool {
//     t4d_element_count(a) == t4d_element_count(b)
// }

// fn same_or_fewer_element_count_t4d(src: Tensor4d, dst: Tensor4d) -> bool {
//     t4d_element_count(dst) <= t4d_element_count(src)
// }

// fn has_transpose_src_element_count_t4d(t: Tensor4d) -> bool {
//     (t.num_elem[0] <= 32) && (t.num_elem[1] <= 32)
// }

// Registers and bound checks.

// fn is_valid_register_read_with_marker(reg: u8, marker: u8) -> bool {
//     (reg < NUM_ADDR_REGISTERS) && (marker == ADDR4_MARKER_ADDR_REG)
// }

// fn bound_check_off(b: BoundCheckReg) -> bool {
//     (b.bc_enabled == 0) && (b.bc_reg == 0) && (b.bc_disable_oob_error_notif == 0)
// }

// fn has_valid_bound_check_reg(b: BoundCheckReg, marker: u8) -> bool {
//       bound_check_off(b)
//    || ((b.bc_enabled == 1) && is_valid_register_read_with_marker(b.bc_reg, marker))
// }

// Immediate operands: in the instruction, behind an SBUF pointer, or behind a register.

// fn has_valid_immediates(v: ImmValInstField, src: ImmSrc, n: u8, d: Dtype) -> bool {
//       (src == ImmSrc::INSTRUCTION_IMMEDIATE)
//    || (   (src == ImmSrc::POINTER_IMMEDIATE)
//        && in_sbuf(v.imm_ptr)
//        && addr_aligned_dtype(v.imm_ptr, d)
//        && (((v.imm_ptr / STATE_BUF_PARTITION_SIZE) + n) <= NUM_PARTITIONS))
//    || (   (src == ImmSrc::REG_PTR_IMMEDIATE)
//        && (v.imm_reg.regnum < NUM_ADDR_REGISTERS))
// }

// Data paths of the engines.

// fn is_valid_fp_dtype_datapath(d: Dtype, allow: DtypeAllowFP32R) -> bool {
//       (d == Dtype::FP8_EXP3) || (d == Dtype::FP8_EXP4) || (d == Dtype::FP8_EXP5)
//    || (d == Dtype::FP16) || (d == Dtype::BFLOAT16) || (d == Dtype::FP32)
//    || ((allow == DtypeAllowFP32R::True) && (d == Dtype::FP32R))
// }

// fn is_valid_int_dtype_datapath(d: Dtype) -> bool {
//     is_int_dtype(d) && (d != Dtype::UINT64) && (d != Dtype::INT64) && (d != Dtype::INT4)
// }

// fn is_valid_aluop(op: AluOp) -> bool {
//     is_valid_enum(EnumList::AluOp, op)
// }

// Generation gates.

// fn has_valid_nc_rs(nc: NeuronCoreVersion) -> bool {
//     nc >= NeuronCoreVersion::V3
// }

// fn has_valid_nc_nonzero(nc: NeuronCoreVersion) -> bool {
//     nc >= NeuronCoreVersion::V3
// }

// fn has_valid_nc_sc(nc: NeuronCoreVersion) -> bool {
//     nc >= NeuronCoreVersion::V4
// }

#endif // AWS_NEURON_ISA_TPB_COMMON_H
