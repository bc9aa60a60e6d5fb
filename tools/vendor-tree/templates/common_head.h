/*
 * Neuron TPB ISA common definitions (vendor-scale test tree): the neuron-isa project's reconstruction, not vendor text.
 * ISA header for NC-v5
 */

#ifndef AWS_NEURON_ISA_TPB_COMMON_H
#define AWS_NEURON_ISA_TPB_COMMON_H

#include <stdint.h>
#include <stdbool.h>

// Register numbers and other types shared with the non-TPB trees live in ../common (found next to this
// directory, whatever the include path is).
#include "../common/aws_neuron_isa_common_types.h"

// Every enum below and every bit-field struct is packed to its minimal size (enums: one byte).
#define NEURON_ISA_PACKED __attribute__((__packed__))

// Compile-time layout check, usable from C11 and from C++11 or later.
#ifdef __cplusplus
#define ISA_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define ISA_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

// Storage class of the generated C validators in aws_neuron_isa_tpb_*assert.h.
#ifndef STATIC
#define STATIC static
#endif

// Sections: 1 constants; 2 core version, engines, events, tensor flags; 3 the opcode enum (on the
// documented lines 157 - 323); 4 data types and the other enums; 5 building blocks (HEADER, EVENTS,
// ADDR4, TENSORnD, MEM_PATTERNnD, ...); 6 validator helpers as `// fn` blocks.

// ---- 1. constants ----------------------------------------------------------------------

static const uint32_t NEURON_ISA_TPB_INST_NBYTES                 = 64U;            // bytes per instruction; inst_word_len counts 4-byte words (16)

// Lanes (channels) per engine and partitions of the on-chip memories.
static const uint32_t NEURON_ISA_TPB_POOLING_NUM_CHANNELS        = 128U;           // POOL (GpSimd) lanes
static const uint32_t NEURON_ISA_TPB_DVE_NUM_CHANNELS            = 128U;           // DVE (vector engine) lanes
static const uint32_t NEURON_ISA_TPB_ACTIVATION_NUM_CHANNELS     = 128U;           // ACT (scalar / activation engine) lanes
static const uint32_t NEURON_ISA_TPB_NUM_PARTITIONS              = 128U;           // SBUF and PSUM partitions

static const uint32_t NEURON_ISA_TPB_NUM_ADDR_REGISTERS          = 64U;            // address registers an ADDR_REG4 may name
static const uint32_t NEURON_ISA_TPB_NUM_DGE_SHAPE_REGISTERS     = 4U;             // DGE shape registers

// ADDR4 marker byte (byte 3 of a start address): how the other three bytes are read.
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_IMM            = 0x00U;          // immediate partition offset
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_REG       = 0x80U;          // address taken from register addr_reg.regnum
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_SHAPE_REG      = 0x40U;          // shape taken from a shape register
static const uint32_t NEURON_ISA_TPB_ADDR4_MARKER_ADDR_SHAPE_REG = 0xC0U;          // address and shape from registers
static const uint32_t NEURON_ISA_TPB_ADDR4MARKER_MXTENSOR_V2     = 0x01U;          // MX tensor (v2) descriptor

// On-chip address map (29-bit addresses): SBUF partition p at STATE_BUF_OFFSET + p * STATE_BUF_PARTITION_SIZE,
// PSUM above it likewise; register-form start addresses are resolved at run time, not checked here.
static const uint32_t NEURON_ISA_TPB_TPB_PARTITION_ADDR_MASK     = 0x1fffffffU;    // address bits of a partition offset
static const uint32_t NEURON_ISA_TPB_STATE_BUF_OFFSET            = 0x0U;           // SBUF base
static const uint32_t NEURON_ISA_TPB_STATE_BUF_PARTITION_SIZE    = 0x100000U;      // bytes per SBUF partition
static const uint32_t NEURON_ISA_TPB_STATE_BUF_SZ                = 0x8000000U;     // NUM_PARTITIONS * STATE_BUF_PARTITION_SIZE
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_OFFSET             = 0x2000000U;     // PSUM base
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_SZ                 = 0x0U;           // PSUM is sized out on this target
static const uint32_t NEURON_ISA_TPB_PSUM_BUF_PARTITION_SIZE     = 0x0U;           // PSUM_BUF_SZ / NUM_PARTITIONS

// ---- 2. core version, engines, events, tensor flags ---------------------------------

// NeuronCore version of a generation (the V1 ISA is not part of these trees).
typedef enum NEURON_ISA_TPB_NEURON_CORE_VERSION {
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V2 = 2, // SUNDA
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V3 = 3, // CAYMAN
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V4 = 4, // MARIANA
    NEURON_ISA_TPB_NEURON_CORE_VERSION_V5 = 5, // MAVERICK
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
