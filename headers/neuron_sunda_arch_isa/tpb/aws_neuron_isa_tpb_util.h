/*
 * Neuron TPB instruction union over the operand formats of this tree: the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v2
 */

#ifndef AWS_NEURON_ISA_TPB_UTIL_H
#define AWS_NEURON_ISA_TPB_UTIL_H

#include "aws_neuron_isa_tpb_common.h"
#include "aws_neuron_isa_tpb_s1_rand.h"
#include "aws_neuron_isa_tpb_d4_rand.h"
#include "aws_neuron_isa_tpb_s3d3_dropout.h"
#include "aws_neuron_isa_tpb_pseudo_set_rng_seed.h"
#include "aws_neuron_isa_tpb_d4_mr.h"

// The part every operand format shares: header and events, then the format-specific bytes.
typedef struct NEURON_ISA_TPB_INST_COMMON {
    NEURON_ISA_TPB_HEADER header;       //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS events;       //  8 ( 4 - 11)
    uint8_t               payload[52];  // 52 (12 - 63) format specific
} NEURON_ISA_TPB_INST_COMMON;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_COMMON) == 64, "Error: NEURON_ISA_TPB_INST_COMMON is NOT 64B.");

// The instruction as plain bytes.
typedef struct NEURON_ISA_TPB_INST_RAW {
    uint8_t bytes[64];  // 64 ( 0 - 63)
} NEURON_ISA_TPB_INST_RAW;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_RAW) == 64, "Error: NEURON_ISA_TPB_INST_RAW is NOT 64B.");

// One 64-byte instruction, viewed through any of its formats (the spec language calls it Inst).
typedef union NEURON_ISA_TPB_INST_UNION {
    NEURON_ISA_TPB_HEADER                     header;               //  4 ( 0 -  3) opcode and length
    NEURON_ISA_TPB_INST_COMMON                common;               // 64 ( 0 - 63) header and events
    NEURON_ISA_TPB_S1_RAND_STRUCT             s1_rand;              // 64 ( 0 - 63)
    NEURON_ISA_TPB_D4_RAND_STRUCT             d4_rand;              // 64 ( 0 - 63)
    NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT        s3d3_dropout;         // 64 ( 0 - 63)
    NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_STRUCT pseudo_set_rng_seed;  // 64 ( 0 - 63)
    NEURON_ISA_TPB_D4_MR_STRUCT               d4_mr;                // 64 ( 0 - 63)
    NEURON_ISA_TPB_INST_RAW                   raw;                  // 64 ( 0 - 63) bytes
} NEURON_ISA_TPB_INST_UNION;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_INST_UNION) == 64, "Error: NEURON_ISA_TPB_INST_UNION is NOT 64B.");

#endif // AWS_NEURON_ISA_TPB_UTIL_H
