/*
 * Rand2 operand format (D3_RAND): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v5
 */

#ifndef AWS_NEURON_ISA_TPB_D3_RAND_H
#define AWS_NEURON_ISA_TPB_D3_RAND_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'D3_RAND' Format: no SRC tensor, one 3-D DST tensor.
// Use for: Rand2
//
// Fills dst_mem_pattern with uniform random numbers from the DVE xorwow generators:
// out = min + u * (max - min), converted to dtype on output. NKI documents values in the range
// [min, max]; how u is made from the generator's bits, and so which endpoints can occur, is not
// public. The vendor simulator makes u from 23 mantissa bits, in [0, 1): that reading is a model
// choice of rng-core (uniform_bits), not a header fact.
// Only XORWOW and UNIFORM_IN_RANGE are accepted. min and max are fp32 immediates, or pointers to
// them, as min_src / max_src say. With both immediate, min < max as fp32 values (NKI; the vendor
// compiler enforces it): reversed, equal or NaN bounds fail; a pointer or register bound is unread.
// An LFSR alternative exists in the vendor header only as a commented-out clause; it is not part
// of the rule here.
typedef struct NEURON_ISA_TPB_D3_RAND_STRUCT {
    NEURON_ISA_TPB_HEADER             header;               //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS             events;               //  8 ( 4 - 11)
    NEURON_ISA_TPB_RAND_ALGORITHM     rand_algorithm;       //  1 (12     ) XORWOW
    uint8_t                           reserved0[1];         //  1 (13     ) zero
    NEURON_ISA_TPB_RAND_POST_PROC     post_process;         //  1 (14     ) UNIFORM_IN_RANGE
    uint8_t                           reserved1[17];        // 17 (15 - 31) zero
    NEURON_ISA_TPB_DTYPE              dtype;                //  1 (32     ) output type
    uint8_t                           reserved2[1];         //  1 (33     ) zero
    uint8_t                           num_active_channels;  //  1 (34     ) lanes written
    uint8_t                           reserved3[3];         //  3 (35 - 37) zero
    NEURON_ISA_TPB_IMM_SRC            min_src;              //  1 (38     ) where min comes from
    NEURON_ISA_TPB_IMM_SRC            max_src;              //  1 (39     ) where max comes from
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD min;                  //  4 (40 - 43) lower bound
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD max;                  //  4 (44 - 47) upper bound
    NEURON_ISA_TPB_TENSOR3D           dst_mem_pattern;      // 16 (48 - 63) output, SBUF or PSUM
} NEURON_ISA_TPB_D3_RAND_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_D3_RAND_STRUCT) == 64, "Error: NEURON_ISA_TPB_D3_RAND_STRUCT is NOT 64B.");

// fn is_valid_d3_rand(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_rand2_opcode(i)
//    && has_d3_rand_reserved_zero(i)
//    && restrict_rand2_algorithm(i)
//    && has_valid_rand2_post_processing(i)
//    && has_valid_rand2_dtype(i)
//    && has_valid_rand2_min_max(i)
//    && has_valid_active_channel_range_with_tile(i.d3_rand.num_active_channels, DVE_NUM_CHANNELS, i.header.inst_flags)
//    && start_addr_active_channels(i.d3_rand.dst_mem_pattern.start_addr, i.d3_rand.num_active_channels)
//    && tensor3d_valid(i.d3_rand.dst_mem_pattern, i.d3_rand.dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn has_rand2_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::RAND2
// }

// fn has_d3_rand_reserved_zero(i: Inst) -> bool {
//       (i.d3_rand.reserved0[0] == 0) && (i.d3_rand.reserved1[0] == 0) && (i.d3_rand.reserved1[1] == 0)
//    && (i.d3_rand.reserved1[2] == 0) && (i.d3_rand.reserved1[3] == 0) && (i.d3_rand.reserved1[4] == 0)
//    && (i.d3_rand.reserved1[5] == 0) && (i.d3_rand.reserved1[6] == 0) && (i.d3_rand.reserved1[7] == 0)
//    && (i.d3_rand.reserved1[8] == 0) && (i.d3_rand.reserved1[9] == 0) && (i.d3_rand.reserved1[10] == 0)
//    && (i.d3_rand.reserved1[11] == 0) && (i.d3_rand.reserved1[12] == 0) && (i.d3_rand.reserved1[13] == 0)
//    && (i.d3_rand.reserved1[14] == 0) && (i.d3_rand.reserved1[15] == 0) && (i.d3_rand.reserved1[16] == 0)
//    && (i.d3_rand.reserved2[0] == 0) && (i.d3_rand.reserved3[0] == 0) && (i.d3_rand.reserved3[1] == 0)
//    && (i.d3_rand.reserved3[2] == 0)
// }

// fn restrict_rand2_algorithm(i: Inst) -> bool {
//     i.d3_rand.rand_algorithm == RandAlgorithm::XORWOW
// }

// fn has_valid_rand2_post_processing(i: Inst) -> bool {
//     i.d3_rand.post_process == RandPostProc::UNIFORM_IN_RANGE
// }

// fn has_valid_rand2_dtype(i: Inst) -> bool {
//     is_valid_dtype(i.d3_rand.dtype, DtypeAllowFP32R::True)
// }

// fn has_valid_rand2_min_max(i: Inst) -> bool {
//       (i.d3_rand.min_src != ImmSrc::INSTRUCTION_IMMEDIATE)
//    || (i.d3_rand.max_src != ImmSrc::INSTRUCTION_IMMEDIATE)
//    || (i.d3_rand.min.imm_arith_fp32 < i.d3_rand.max.imm_arith_fp32)
// }

#endif // AWS_NEURON_ISA_TPB_D3_RAND_H
