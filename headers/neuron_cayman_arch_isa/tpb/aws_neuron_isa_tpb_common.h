/*
 * Neuron TPB ISA common definitions: the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v3
 */

#ifndef AWS_NEURON_ISA_TPB_COMMON_H
#define AWS_NEURON_ISA_TPB_COMMON_H

#include <stdint.h>

// Every enum below and every bit-field struct is packed to its minimal size (enums: one byte).
#define NEURON_ISA_PACKED __attribute__((__packed__))

// Compile-time layout check, usable from C11 and from C++11 or later.
#ifdef __cplusplus
#define ISA_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define ISA_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

// Layout of this file:
//   1. constants: instruction size, lane counts, registers, ADDR4 markers, SBUF / PSUM address map
//   2. NEURON_CORE_VERSION, NEURON_ENGINE, WAIT_MODE, UPDATE_MODE and the tensor-check flags
//   3. NEURON_ISA_TPB_OPCODE, one enumerator per line
//   4. data-type enums, the flag enums the validators take, the RNG-family enums
//   5. building blocks shared by the operand structs (HEADER, EVENTS, ADDR4, TENSORnD, ...)
//   6. validator helpers in the spec language, as `// fn` comment blocks
// The operand structs live in one aws_neuron_isa_tpb_<shape>.h each; the instruction union is in
// aws_neuron_isa_tpb_util.h.

// ---- 1. constants ----------------------------------------------------------------------

// Instruction word.
static const uint32_t NEURON_ISA_TPB_INST_NBYTES                 = 64U;            // bytes per instruction; inst_word_len counts 4-byte words (16)

// Lanes (channels) per engine and partitions of the on-chip memories.
static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS        = 128U;           // POOL (GpSimd) lanes
static const uint32_t NEURON_ISA_TPB_DVE_NUM_CHANNELS            = 128U;           // DVE (vector engine) lanes
static const uint32_t NEURON_ISA_TPB_ACTIVATION_NUM_CHANNELS     = 128U;           // ACT (scalar / activation engine) lanes
static const uint32_t NEURON_ISA_TPB_NUM_PARTITIONS              = 128U;           // SBUF and PSUM partitions

// Register files.
static const uint32_t NEURON_ISA_TPB_NUM_ADDR_REGISTERS          = 64U;            // address registers an ADDR_REG4 may name
static const uint32_t NEURON_ISA_TPB_NUM_DGE_SHAPE_REGISTERS     = 4U;             // DGE shape registers

// ADDR4 marker byte (byte 3 of a start address): how the other three bytes are read.
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_IMM            = 0x00U;          // immediate partition offset
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG       = 0x80U;          // address taken from register addr_reg.regnum
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG      = 0x40U;          // shape taken from a shape register
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_SHAPE_REG = 0xC0U;          // address and shape from registers

// On-chip address map: 29-bit addresses; SBUF (state buffer) first, PSUM above it.
// Partition p of SBUF starts at STATE_BUF_OFFSET + p * STATE_BUF_PARTITION_SIZE, and partition p of
// PSUM at PSUM_BUF_OFFSET + p * PSUM_BUF_PARTITION_SIZE. A start address in register form
// (ADDR4_MARKER_ADDR_REG) is resolved at run time and is not checked against this map.
static const uint32_t NEURON_ISA_TPB_TPB_PARTITION_ADDR_MASK     = 0x1fffffffU;    // address bits of a partition offset
static const uint32_t NEURON_ISA_TPB_STATE_BUF_OFFSET            = 0x0U;           // SBUF base
static const uint32_t NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE    = 0x40000U;       // bytes per SBUF partition
static const uint32_t NEURON_ISA_TPB_STATE_BUF_SZ                = 0x2000000U;     // NUM_PARTITIONS * STATE_BUF_PARTITION_SIZE
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_OFFSET             = 0x2000000U;     // PSUM base
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_SZ                 = 0x400000U;      // PSUM bytes, all partitions
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_PARTITION_SIZE     = 0x8000U;        // PSUM_BUF_SZ / NUM_PARTITIONS

// ---- 2. core version, engines, events, tensor flags ---------------------------------

// NeuronCore version of a generation (the V1 ISA is not part of these trees).
typedef enum NEURON_ISA_TPB_NEURON_CORE_VERSION {
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V2 = 2, // SUNDA
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V3 = 3, // CAYMAN
} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_CORE_VERSION;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_NEURON_CORE_VERSION) == 1, "Error: NEURON_ISA_TPB_NEURON_CORE_VERSION is NOT 1B.");

// Engines of a NeuronCore, as the ISA numbers them.
typedef enum NEURON_ISA_TPB_NEURON_ENGINE {
    NEURON_ISA_TPB_NEURON_ENGINE_PE     = 0, // tensor engine (systolic array)
    NEURON_ISA_TPB_NEURON_ENGINE_ACT    = 1, // activation / scalar engine
    NEURON_ISA_TPB_NEURON_ENGINE_POOL   = 2, // pooling / GpSimd engine
    NEURON_ISA_TPB_NEURON_ENGINE_DVE    = 3, // vector engine
    NEURON_ISA_TPB_NEURON_ENGINE_TPB_SP = 4, // TPB sync processor
    NEURON_ISA_TPB_NEURON_ENGINE_TOP_SP = 5, // top-level sync processor
} NEURON_ISA_PACKED NEURON_ISA_TPB_NEURON_ENGINE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_NEURON_ENGINE) == 1, "Error: NEURON_ISA_TPB_NEURON_ENGINE is NOT 1B.");

// Semaphore wait done before an instruction starts (EVENTS.wait_mode).
// The event waits 0x6, 0x7, 0xe and 0xf are documented only as WAIT_FOR_EVT_* without their
// exact names, so they are left out of this enum.
typedef enum NEURON_ISA_TPB_WAIT_MODE {
    NEURON_ISA_TPB_WAIT_MODE_NO_WAIT             = 0x0,  // no wait; wait_idx must be 0
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_EQ_IMM = 0x1,  // semaphore == immediate
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LT_IMM = 0x2,  // semaphore <  immediate
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LE_IMM = 0x3,  // semaphore <= immediate
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GT_IMM = 0x4,  // semaphore >  immediate
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GE_IMM = 0x5,  // semaphore >= immediate
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_EQ_REG = 0x81, // semaphore == register
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LT_REG = 0x82, // semaphore <  register
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_LE_REG = 0x83, // semaphore <= register
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GT_REG = 0x84, // semaphore >  register
    NEURON_ISA_TPB_WAIT_MODE_WAIT_FOR_SEM_GE_REG = 0x85, // semaphore >= register
    NEURON_ISA_TPB_WAIT_MODE_INVALID             = 0xff, // never valid in an instruction
} NEURON_ISA_PACKED NEURON_ISA_TPB_WAIT_MODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_WAIT_MODE) == 1, "Error: NEURON_ISA_TPB_WAIT_MODE is NOT 1B.");

// Semaphore update done when an instruction has read its inputs or has completed (EVENTS.update_mode).
typedef enum NEURON_ISA_TPB_UPDATE_MODE {
    NEURON_ISA_TPB_UPDATE_MODE_NO_UPDATE            = 0x0,  // no update; update_idx must be 0
    NEURON_ISA_TPB_UPDATE_MODE_SEM_INC_READ         = 0x3,  // increment after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_INC_COMPLETE     = 0x13, // increment on completion
    NEURON_ISA_TPB_UPDATE_MODE_SEM_DEC_READ         = 0x4,  // decrement after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_DEC_COMPLETE     = 0x14, // decrement on completion
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_IMM_READ     = 0x5,  // add semaphore_value after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_ADD_IMM_COMPLETE = 0x15, // add semaphore_value on completion
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_IMM_READ     = 0x7,  // subtract semaphore_value after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_IMM_COMPLETE = 0x17, // subtract semaphore_value on completion
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_IMM_READ      = 0x9,  // write semaphore_value after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_WR_IMM_COMPLETE  = 0x19, // write semaphore_value on completion
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_READ     = 0x87, // subtract a register after the reads
    NEURON_ISA_TPB_UPDATE_MODE_SEM_SUB_REG_COMPLETE = 0x97, // subtract a register on completion
    NEURON_ISA_TPB_UPDATE_MODE_INVALID              = 0xff, // never valid in an instruction
} NEURON_ISA_PACKED NEURON_ISA_TPB_UPDATE_MODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_UPDATE_MODE) == 1, "Error: NEURON_ISA_TPB_UPDATE_MODE is NOT 1B.");

// Flags passed to the tensor checks: is the tensor written, and which memories may it live in?
typedef enum NEURON_ISA_TPB_WRITE_TENSOR {
    NEURON_ISA_TPB_WRITE_TENSOR_FALSE = 0, // tensor is written: no
    NEURON_ISA_TPB_WRITE_TENSOR_TRUE  = 1, // tensor is written: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_WRITE_TENSOR;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_WRITE_TENSOR) == 1, "Error: NEURON_ISA_TPB_WRITE_TENSOR is NOT 1B.");

typedef enum NEURON_ISA_TPB_ALLOWED_IN_PSUM {
    NEURON_ISA_TPB_ALLOWED_IN_PSUM_FALSE = 0, // may lie in PSUM: no
    NEURON_ISA_TPB_ALLOWED_IN_PSUM_TRUE  = 1, // may lie in PSUM: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALLOWED_IN_PSUM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ALLOWED_IN_PSUM) == 1, "Error: NEURON_ISA_TPB_ALLOWED_IN_PSUM is NOT 1B.");

typedef enum NEURON_ISA_TPB_ALLOWED_IN_SBUF {
    NEURON_ISA_TPB_ALLOWED_IN_SBUF_FALSE = 0, // may lie in SBUF: no
    NEURON_ISA_TPB_ALLOWED_IN_SBUF_TRUE  = 1, // may lie in SBUF: yes
} NEURON_ISA_PACKED NEURON_ISA_TPB_ALLOWED_IN_SBUF;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_ALLOWED_IN_SBUF) == 1, "Error: NEURON_ISA_TPB_ALLOWED_IN_SBUF is NOT 1B.");

// ---- 3. opcodes -----------------------------------------------------------------------

// Status flag at the end of an opcode line:
//   // Y            tested and maintained
//   // n, <reason>  present in the encoding, not maintained (the reason follows the flag)
//   no flag         not classified: EXPONENTIAL, the pseudo opcodes and INVALID
// The enumerators follow the header's own order, not value order.
// A value never changes meaning between generations; an opcode a generation lacks is left out.
// The general vector instructions ran out of room below 0xa0 and continue from 0xe0.
// INVALID (0xff) marks an unusable instruction word.
// Pseudo opcodes occupy 0xc0 - 0xdf (the three top bits are 0b110). The compiler emits them and the
// runtime rewrites each into ordinary instructions before an engine executes anything, which is why
// that bit pattern must stay reserved for them.
typedef enum NEURON_ISA_TPB_OPCODE {
    NEURON_ISA_TPB_OPCODE_LDWEIGHTS                         = 0x01, // Y
    NEURON_ISA_TPB_OPCODE_MATMUL                            = 0x02, // Y
    NEURON_ISA_TPB_OPCODE_PE_REG_WRITE                      = 0x03, // Y
    NEURON_ISA_TPB_OPCODE_WEIGHT_MASK                       = 0x04, // n, tonga stuff, deprecated
    NEURON_ISA_TPB_OPCODE_WEIGHT_SHIFT                      = 0x05, // n, tonga stuff, deprecated
    NEURON_ISA_TPB_OPCODE_LDTAGS                            = 0x06, // Y
    NEURON_ISA_TPB_OPCODE_MATMUL_SPARSE                     = 0x07, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATE                          = 0x21, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATE_QUANTIZE                 = 0x22, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATION_TABLE_LOAD             = 0x23, // Y
    NEURON_ISA_TPB_OPCODE_ACTIVATION_READ_ACCUMULATOR       = 0x24, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_ARITH_OP            = 0x41, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_BITVEC_OP           = 0x51, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_ARITH_OP            = 0x42, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_BITVEC_OP           = 0x52, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ARITH_OP            = 0x43, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_BITVEC_OP           = 0x53, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_ARITH_OP        = 0x44, // n, use TensorScalarArithOp instead
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_BITVEC_OP       = 0x54, // n, use TensorScalarBitvecOp instead
    NEURON_ISA_TPB_OPCODE_POOL                              = 0x45, // Y
    NEURON_ISA_TPB_OPCODE_COPY                              = 0x46, // Y
    NEURON_ISA_TPB_OPCODE_CAST                              = 0x47, // Y
    NEURON_ISA_TPB_OPCODE_RECIPROCAL                        = 0x48, // Y
    NEURON_ISA_TPB_OPCODE_MEMSET                            = 0x49, // Y
    NEURON_ISA_TPB_OPCODE_REG_LOAD                          = 0x4a, // n
    NEURON_ISA_TPB_OPCODE_REG_STORE                         = 0x4b, // n
    NEURON_ISA_TPB_OPCODE_REG_SHUFFLE                       = 0x4c, // n
    NEURON_ISA_TPB_OPCODE_RNG                               = 0x4d, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_ARITH_OP        = 0x4e, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_CUMULATIVE_BITVEC_OP       = 0x5e, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_ARITH     = 0x4f, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_PTR_MULTI_BITVEC    = 0x5f, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_MAX_POOL_SELECT                   = 0x58, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_STATS                  = 0x60, // n
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_STATS2                 = 0x61, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_AGGREGATE              = 0x62, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_GRAD_ACCUMULATE        = 0x63, // n, use BatchNormGradAccumulate2 instead
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_PARAM_LOAD             = 0x64, // n, use BatchNormParamLoad2 instead
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_BACK_PROP              = 0x65, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_PARAMETER_RAM                = 0x66, // Y
    NEURON_ISA_TPB_OPCODE_POOL_BUFFER_LOAD                  = 0x67, // Y
    NEURON_ISA_TPB_OPCODE_GATHER                            = 0x68, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_MASK_SELECT                  = 0x69, // Y
    NEURON_ISA_TPB_OPCODE_STREAM_SHUFFLE                    = 0x6a, // Y
    NEURON_ISA_TPB_OPCODE_STREAM_TRANSPOSE                  = 0x6b, // Y
    NEURON_ISA_TPB_OPCODE_MAX8                              = 0x6c, // Y
    NEURON_ISA_TPB_OPCODE_MATCH_VALUE_LOAD                  = 0x6d, // Y
    NEURON_ISA_TPB_OPCODE_FIND_INDEX8                       = 0x6e, // Y
    NEURON_ISA_TPB_OPCODE_MATCH_REPLACE8                    = 0x6f, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_ARITH        = 0x70, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_IMM_LD_BITVEC       = 0x71, // n, ucode/kaenadve exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_COPY_PREDICATED                   = 0x72, // Y
    NEURON_ISA_TPB_OPCODE_ROI_ALIGN                         = 0x73, // n
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_ADDR                = 0x74, // Y
    NEURON_ISA_TPB_OPCODE_RAND                              = 0x76, // n, ucode exists, not maintained/used
    NEURON_ISA_TPB_OPCODE_RAND_GET_STATE                    = 0x77, // Y
    NEURON_ISA_TPB_OPCODE_RAND_SET_STATE                    = 0x78, // Y
    NEURON_ISA_TPB_OPCODE_EMBEDDING_UPDATE                  = 0x79, // Y
    NEURON_ISA_TPB_OPCODE_LOAD_POOL_ARGUMENT                = 0x7a, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_DEQUANTIZE                 = 0x7b, // Y
    NEURON_ISA_TPB_OPCODE_CROSS_LANE_REDUCE_ARITH           = 0x7c, // Y
    NEURON_ISA_TPB_OPCODE_CROSS_LANE_REDUCE_BITVEC          = 0x7d, // Y
    NEURON_ISA_TPB_OPCODE_IOTA                              = 0x7e, // Y
    NEURON_ISA_TPB_OPCODE_DROPOUT                           = 0x7f, // Y
    NEURON_ISA_TPB_OPCODE_JPEG_DECODE                       = 0x81, // n
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_BATCH_NORM_STATS2       = 0x82, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_ARITH_OP  = 0x83, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_REDUCE_BITVEC_OP = 0x84, // Y
    NEURON_ISA_TPB_OPCODE_CUSTOM_OP_HEADER                  = 0x85, // Y
    NEURON_ISA_TPB_OPCODE_CUSTOM_OP_PAYLOAD                 = 0x86, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_PARAM_LOAD2            = 0x8e, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_AFFINE_SELECT       = 0x92, // Y
    NEURON_ISA_TPB_OPCODE_TRANSPOSE_TENSOR_SCALAR_ARITH_OP  = 0x93, // Y
    NEURON_ISA_TPB_OPCODE_BATCH_NORM_GRAD_ACCUMULATE2       = 0x94, // Y
    NEURON_ISA_TPB_OPCODE_MODIFY_POOL_CONFIG                = 0x95, // Y
    NEURON_ISA_TPB_OPCODE_SORT                              = 0x96, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_SELECT              = 0x98, // 0x97 reserved for SortMerge (wip) // Y
    NEURON_ISA_TPB_OPCODE_CAST_PREDICATED                   = 0x99, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_REDUCE        = 0x9a, // Y
    NEURON_ISA_TPB_OPCODE_DVE_READ_ACCUMULATOR              = 0x9b, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_REDUCE_RANGE_CHECK         = 0x9c, // n, workaround with other instructions, to be removed
    NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_ARITH        = 0x9d, // Y
    NEURON_ISA_TPB_OPCODE_SCALAR_TENSOR_TENSOR_BITVEC       = 0x9e, // Y
    NEURON_ISA_TPB_OPCODE_ENGINE_NOP                        = 0x9f, // Y
    NEURON_ISA_TPB_OPCODE_EXPONENTIAL                       = 0x30,
    NEURON_ISA_TPB_OPCODE_EVENT_SEMAPHORE                   = 0xa0, // Y
    NEURON_ISA_TPB_OPCODE_HALT                              = 0xa1, // Y
    NEURON_ISA_TPB_OPCODE_DRAIN                             = 0xa2, // Y
    NEURON_ISA_TPB_OPCODE_INSTRUCTION_FLUSH                 = 0xa3, // Y
    NEURON_ISA_TPB_OPCODE_NOP                               = 0xa4, // Y
    NEURON_ISA_TPB_OPCODE_WRITE                             = 0xa5, // Y
    NEURON_ISA_TPB_OPCODE_NOTIFY                            = 0xa6, // Y
    NEURON_ISA_TPB_OPCODE_MOVE                              = 0xa7, // Y
    NEURON_ISA_TPB_OPCODE_ALU_OP                            = 0xa8, // Y
    NEURON_ISA_TPB_OPCODE_COMPARE_BRANCH                    = 0xa9, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_LOAD                       = 0xaa, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_STORE                      = 0xab, // Y
    NEURON_ISA_TPB_OPCODE_EVENT_SEMAPHORE_RANGE_CLEAR       = 0xb0, // Y
    NEURON_ISA_TPB_OPCODE_SET_ORDERING_MODE                 = 0xb1, // Y
    NEURON_ISA_TPB_OPCODE_MOVE_SHAPE                        = 0xb2, // Y
    NEURON_ISA_TPB_OPCODE_POLL_SEM                          = 0xb3, // Y
    NEURON_ISA_TPB_OPCODE_BRANCH_PREFETCH_HINT              = 0xb5, // Y
    NEURON_ISA_TPB_OPCODE_DMAMEMCPY                         = 0xb8, // Y
    NEURON_ISA_TPB_OPCODE_DMA_INDIRECT                      = 0xbb, // Y
    NEURON_ISA_TPB_OPCODE_RANGE_SELECT                      = 0xbc, // Y
    NEURON_ISA_TPB_OPCODE_DMA_TRANSPOSE                     = 0xbd, // Y
    NEURON_ISA_TPB_OPCODE_GET_SEQUENCE_BOUNDS               = 0xbe, // Y
    NEURON_ISA_TPB_OPCODE_SB2SB_COLLECTIVE                  = 0xbf, // Y
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMATRIGGER                 = 0xc1,
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMAREARM                   = 0xc2,
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMABARRIER                 = 0xc3,
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMAMEMCPY_FULL_IND         = 0xc4,
    NEURON_ISA_TPB_OPCODE_PSEUDO_SEMAPHORE_SET              = 0xc5,
    NEURON_ISA_TPB_OPCODE_PSEUDO_LOAD_ACT_FUNC_SET          = 0xc6,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_ALL_REDUCE         = 0xc7,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE         = 0xc8,
    NEURON_ISA_TPB_OPCODE_PSEUDO_READ_VAR_ADDR              = 0xc9,
    NEURON_ISA_TPB_OPCODE_PSEUDO_EMBEDDING_UPDATE           = 0xca,
    NEURON_ISA_TPB_OPCODE_PSEUDO_SEND_RECV                  = 0xcb,
    NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_LABEL               = 0xcc,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_STORE               = 0xcd,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_LOAD                = 0xce,
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMASWAP_QUEUE_SET          = 0xcf,
    NEURON_ISA_TPB_OPCODE_PSEUDO_SET_RNG_SEED               = 0xd0,
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_BEGIN             = 0xd1,
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_RETURN            = 0xd2,
    NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_CALL              = 0xd3,
    NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_DIRECT2D               = 0xd4,
    NEURON_ISA_TPB_OPCODE_PSEUDO_SYNC_BARRIER               = 0xd5,
    NEURON_ISA_TPB_OPCODE_PSEUDO_RANGE_CHECK                = 0xd6,
    NEURON_ISA_TPB_OPCODE_PSEUDO_JPEG_DECODE                = 0xd7,
    NEURON_ISA_TPB_OPCODE_PSEUDO_CORE_BARRIER               = 0xd8,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE2        = 0xd9,
    NEURON_ISA_TPB_OPCODE_PSEUDO_EXTENSION                  = 0xda,
    NEURON_ISA_TPB_OPCODE_PSEUDO_CUR_PROCESSING_RANK_ID     = 0xdb,
    NEURON_ISA_TPB_OPCODE_PSEUDO_GID_LOAD                   = 0xdc,
    NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_PREFETCH_HINT       = 0xdd,
    NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_COMPLETION          = 0xde,
    NEURON_ISA_TPB_OPCODE_PSEUDO_INST                       = 0xdf,
    NEURON_ISA_TPB_OPCODE_CONV_LUT_LOAD                     = 0xe4, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_TENSOR_SCAN_ARITH          = 0xe5, // Y
    NEURON_ISA_TPB_OPCODE_TENSOR_SCALAR_CACHE_CUMULATIVE    = 0xe6, // Y
    NEURON_ISA_TPB_OPCODE_INDIRECT_COPY                     = 0xe7, // Y
    NEURON_ISA_TPB_OPCODE_COPY_PREDICATED_SCALAR            = 0xe8, // Y
    NEURON_ISA_TPB_OPCODE_DVE_READ_INDICES                  = 0xe9, // Y
    NEURON_ISA_TPB_OPCODE_SELECT_REDUCE                     = 0xea, // Y
    NEURON_ISA_TPB_OPCODE_EXTENDED_INST                     = 0xf0, // Y
    NEURON_ISA_TPB_OPCODE_DMA_GATHER_TRANSPOSE              = 0xf1, // Y
    NEURON_ISA_TPB_OPCODE_NONZERO_WITH_COUNT                = 0xf2, // Y
    NEURON_ISA_TPB_OPCODE_INVALID                           = 0xff,
} NEURON_ISA_PACKED NEURON_ISA_TPB_OPCODE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_OPCODE) == 1, "Error: NEURON_ISA_TPB_OPCODE is NOT 1B.");

// ---- 4. data types, validator flags, RNG-family enums ----------------------------------

// Element data types. Codes never change meaning between generations; later generations only add
// codes. Listed by family (floating point, unsigned, signed, then the newer formats), not by value.
typedef enum NEURON_ISA_TPB_DTYPE {
    NEURON_ISA_TPB_DTYPE_INVALID  = 0x0, // sentinel, no data type
    NEURON_ISA_TPB_DTYPE_FP8_EXP3 = 0xD, // 1 B, E3M4
    NEURON_ISA_TPB_DTYPE_FP8_EXP4 = 0xE, // 1 B, E4M3
    NEURON_ISA_TPB_DTYPE_FP8_EXP5 = 0xF, // 1 B, E5M2
    NEURON_ISA_TPB_DTYPE_FP16     = 0x7, // 2 B
    NEURON_ISA_TPB_DTYPE_BFLOAT16 = 0x6, // 2 B
    NEURON_ISA_TPB_DTYPE_FP32     = 0xA, // 4 B
    NEURON_ISA_TPB_DTYPE_FP32R    = 0xB, // 4 B, output only (needs DTYPE_ALLOW_FP32R_TRUE)
    NEURON_ISA_TPB_DTYPE_UINT8    = 0x3, // 1 B
    NEURON_ISA_TPB_DTYPE_UINT16   = 0x5, // 2 B
    NEURON_ISA_TPB_DTYPE_UINT32   = 0x9, // 4 B, the RNG state word type
    NEURON_ISA_TPB_DTYPE_UINT64   = 0x1, // 8 B, gated by DTYPE_ALLOW_U64
    NEURON_ISA_TPB_DTYPE_INT8     = 0x2, // 1 B
    NEURON_ISA_TPB_DTYPE_INT16    = 0x4, // 2 B
    NEURON_ISA_TPB_DTYPE_INT32    = 0x8, // 4 B
    NEURON_ISA_TPB_DTYPE_INT64    = 0xC, // 8 B, gated by DTYPE_ALLOW_I64
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE) == 1, "Error: NEURON_ISA_TPB_DTYPE is NOT 1B.");

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

// Random-number algorithm run by an engine lane (rand_algorithm fields).
typedef enum NEURON_ISA_TPB_RAND_ALGORITHM {
    NEURON_ISA_TPB_RAND_ALGORITHM_LFSR   = 0, // 32-bit LFSR started from state word 0 of each lane
    NEURON_ISA_TPB_RAND_ALGORITHM_PCG32  = 1, // PCG-XSH-RR, 64-bit state, 32-bit output
    NEURON_ISA_TPB_RAND_ALGORITHM_PHILOX = 2, // Philox4x32, 10 rounds, counter based
    NEURON_ISA_TPB_RAND_ALGORITHM_XORWOW = 3, // Marsaglia xorwow, five xorshift words + Weyl counter
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_ALGORITHM;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_ALGORITHM) == 1, "Error: NEURON_ISA_TPB_RAND_ALGORITHM is NOT 1B.");

// Generator source selected together with the algorithm (rand_generator fields). The numbering is
// its own: XORWOW is 3 as an algorithm but RNG_XORWOW is 1 here. Inferred, not documented: no page
// lists CAYMAN's members; these three follow from its Xorwow arms (assumption A14 of
// headers/PROVENANCE.md).
typedef enum NEURON_ISA_TPB_RAND_SRC {
    NEURON_ISA_TPB_RAND_SRC_RNG_LFSR   = 0, // plain LFSR generator
    NEURON_ISA_TPB_RAND_SRC_RNG_XORWOW = 1, // xorwow generator
    NEURON_ISA_TPB_RAND_SRC_RNG_PHILOX = 2, // Philox generator
} NEURON_ISA_PACKED NEURON_ISA_TPB_RAND_SRC;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_RAND_SRC) == 1, "Error: NEURON_ISA_TPB_RAND_SRC is NOT 1B.");

// Where RandSetState takes the new state from (S1_RAND.update_state).
typedef enum NEURON_ISA_TPB_RAND_STATE_UPDATE {
    NEURON_ISA_TPB_RAND_STATE_UPDATE_SRC_TENSOR = 0, // state read from src_mem_pattern
    NEURON_ISA_TPB_RAND_STATE_UPDATE_IMM_SINGLE = 1, // uses imm_state; meaning undocumented, name suggests one state for every lane
    NEURON_ISA_TPB_RAND_STATE_UPDATE_IMM_LANE   = 2, // meaning undocumented, name suggests a state per lane; no legal combination accepts it
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

// ---- 5. building blocks ---------------------------------------------------------------

// First word of every instruction.
typedef struct NEURON_ISA_TPB_HEADER {
    NEURON_ISA_TPB_OPCODE opcode;         //  1 ( 0     ) what the instruction does
    uint8_t               inst_word_len;  //  1 ( 1     ) length in 4-byte words, 16
    uint8_t               debug_cmd;      //  1 ( 2     ) debugger command
    uint8_t               debug_hint;     //  1 ( 3     ) debugger hint
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

// Input and output data type in one byte.
typedef struct NEURON_ISA_TPB_DTYPE_PAIR {
    NEURON_ISA_TPB_DTYPE dtype_lo : 4;  // bits 0 - 3: input dtype
    NEURON_ISA_TPB_DTYPE dtype_hi : 4;  // bits 4 - 7: output dtype
} NEURON_ISA_PACKED NEURON_ISA_TPB_DTYPE_PAIR;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_DTYPE_PAIR) == 1, "Error: NEURON_ISA_TPB_DTYPE_PAIR is NOT 1B.");

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

// fn is_valid_dtype(d: Dtype, allow_fp32r: DtypeAllowFP32R) -> bool {
//       dtype_invalid_check(d)
//    && dtype_fp32r_illegal_check(d, allow_fp32r)
//    && dtype_uint64_illegal_check(d, DtypeAllowU64::False)
//    && dtype_int64_illegal_check(d, DtypeAllowI64::False)
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
// }

// fn is_fp_dtype(d: Dtype) -> bool {
//       (d == Dtype::FP8_EXP3)
//    || (d == Dtype::FP8_EXP4)
//    || (d == Dtype::FP8_EXP5)
//    || (d == Dtype::FP16)
//    || (d == Dtype::BFLOAT16)
//    || (d == Dtype::FP32)
//    || (d == Dtype::FP32R)
// }

#endif // AWS_NEURON_ISA_TPB_COMMON_H
