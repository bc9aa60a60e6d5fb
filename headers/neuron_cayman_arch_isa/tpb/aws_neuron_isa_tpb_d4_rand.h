/*
 * Rand / RandGetState operand format (D4_RAND): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v3
 */

#ifndef AWS_NEURON_ISA_TPB_D4_RAND_H
#define AWS_NEURON_ISA_TPB_D4_RAND_H

#include "aws_neuron_isa_tpb_common.h"

// TODO: deprecate Rand
//
// Neuron 'D4_RAND' Format: no SRC tensor, one 4-D DST tensor.
// Use for: Rand, RandGetState
//
// Rand (not maintained) fills dst_mem_pattern with random numbers. It is a different instruction
// from RNG (0x4D), whose operand format is D4_MR (aws_neuron_isa_tpb_d4_mr.h).
//   rand_algorithm  the validator accepts PHILOX only: LFSR and PCG32 were switched off in the ISA
//                   because of microcode problems.
//   rand_num_steps  LFSR only: how many LFSR steps make one output, to break up correlation between
//                   neighbouring outputs; at least 1 for LFSR, exactly 1 for the other algorithms.
//   post_process    RAW_U32 stores the 32-bit output (integer dtype); UNIFORM_IN_RANGE stores an fp32
//                   strictly between params[0] (min) and params[1] (max) (floating-point dtype);
//                   NORMAL has no hardware support yet.
// RandGetState writes the state words of each active lane to dst_mem_pattern, UINT32, partition p
// for lane p; the element count of the tensor is the state width N of the chosen generator.
// rand_num_steps, post_process and params are unused and must be zero. Legal generators and N:
//   Pool  RNG_PHILOX       PHILOX   7 words
//   Pool  RNG_XORWOW       XORWOW   6 words
// Inferred, not documented: only the number of RandGetState arms (2) is documented for this
// generation; their contents are this tree's inference (assumption A27, conflict C4 of
// headers/PROVENANCE.md).
//
// State of one lane, by algorithm:
//   LFSR    every lane is an independent generator started from word 0 of its state; the LFSR is
//           stepped rand_num_steps times and the resulting word is the output (about 30 cycles
//           per element).
//   PCG32   two words, the 64-bit LCG state; about 110 cycles per element.
//   PHILOX  counter based: 16 bytes of counter start, 8 bytes of key and 4 bytes of counter offset,
//           one stream shared by all lanes; saving and restoring keeps the words as they are, so a
//           checkpoint replays the same numbers.
//   XORWOW  six words x, y, z, w, v (xorshift) and d (Weyl counter); output v + d.
typedef struct NEURON_ISA_TPB_D4_RAND_STRUCT {
    NEURON_ISA_TPB_HEADER         header;               //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS         events;               //  8 ( 4 - 11)
    NEURON_ISA_TPB_RAND_ALGORITHM rand_algorithm;       //  1 (12     ) generator algorithm
    uint8_t                       rand_num_steps;       //  1 (13     ) LFSR steps per output; 0 for RandGetState
    NEURON_ISA_TPB_RAND_POST_PROC post_process;         //  1 (14     ) output transform; 0 for RandGetState
    NEURON_ISA_TPB_RAND_SRC       rand_generator;       //  1 (15     ) generator source
    NEURON_ISA_TPB_RAND_PARAM     params[4];            // 16 (16 - 31) [0] min, [1] max; 0 for RandGetState
    NEURON_ISA_TPB_DTYPE          dtype;                //  1 (32     ) output type; UINT32 for RandGetState
    uint8_t                       reserved1[1];         //  1 (33     ) zero
    uint8_t                       num_active_channels;  //  1 (34     ) lanes written
    uint8_t                       reserved2[9];         //  9 (35 - 43) zero
    NEURON_ISA_TPB_TENSOR4D       dst_mem_pattern;      // 20 (44 - 63) output, SBUF or PSUM
} NEURON_ISA_TPB_D4_RAND_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_D4_RAND_STRUCT) == 64, "Error: NEURON_ISA_TPB_D4_RAND_STRUCT is NOT 64B.");

// fn is_valid_d4_rand(i: Inst) -> bool {
//       (has_rand_opcode(i) && is_valid_rand(i))
//    || (has_rand_get_state_opcode(i) && is_valid_rand_get_state(i))
// }

// fn is_valid_rand_get_state(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_rand_get_state_opcode(i)
//    && has_d4_rand_reserved_zero(i)
//    && rand_get_state_unused_field_zero(i)
//    && rand_get_state_valid_dtype(i)
//    && has_valid_rand_state_channels(i.d4_rand.num_active_channels, NeuronEngine::Pool)
//    && start_addr_active_channels(i.d4_rand.dst_mem_pattern.start_addr, i.d4_rand.num_active_channels)
//    && tensor4d_valid(i.d4_rand.dst_mem_pattern, i.d4_rand.dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//    && rand_get_state_dst_reachable(i, NeuronEngine::Pool)
//    && rand_get_state_legal_combinations(i, NeuronEngine::Pool)
// }

// POOL (NKI's GpSimd engine) cannot access PSUM, so a POOL save writes SBUF (NKI, rand_get_state).
// The shared tensor rule admits PSUM for the destination, as the quoted header text does; this
// conjunct adds the engine's reach (assumption A67, conflict C6 of headers/PROVENANCE.md).
// fn rand_get_state_dst_reachable(i: Inst, e: NeuronEngine) -> bool {
//     (e != NeuronEngine::Pool) || !in_psum(i.d4_rand.dst_mem_pattern.start_addr.addr_immediate)
// }

// fn has_rand_get_state_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::RAND_GET_STATE
// }

// fn has_d4_rand_reserved_zero(i: Inst) -> bool {
//       (i.d4_rand.reserved1[0] == 0) && (i.d4_rand.reserved2[0] == 0) && (i.d4_rand.reserved2[1] == 0)
//    && (i.d4_rand.reserved2[2] == 0) && (i.d4_rand.reserved2[3] == 0) && (i.d4_rand.reserved2[4] == 0)
//    && (i.d4_rand.reserved2[5] == 0) && (i.d4_rand.reserved2[6] == 0) && (i.d4_rand.reserved2[7] == 0)
//    && (i.d4_rand.reserved2[8] == 0)
// }

// fn rand_get_state_unused_field_zero(i: Inst) -> bool {
//       (i.d4_rand.rand_num_steps == 0)
//    && (i.d4_rand.post_process == RandPostProc::RAW_U32)      // value 0
//    && (i.d4_rand.params[0].param_bitvec_uint32 == 0)
//    && (i.d4_rand.params[1].param_bitvec_uint32 == 0)
//    && (i.d4_rand.params[2].param_bitvec_uint32 == 0)
//    && (i.d4_rand.params[3].param_bitvec_uint32 == 0)
// }

// fn rand_get_state_valid_dtype(i: Inst) -> bool {
//     i.d4_rand.dtype == Dtype::UINT32
// }

// fn rand_get_state_legal_combinations(i: Inst, e: NeuronEngine) -> bool {
//       (   (e == NeuronEngine::Pool)  // inferred (A27, C4)
//        && (i.d4_rand.rand_generator == RandSrc::RNG_PHILOX)
//        && (i.d4_rand.rand_algorithm == RandAlgorithm::PHILOX)
//        && (i.d4_rand.dtype == Dtype::UINT32)
//        && rand_get_state_elem_cnt(i, 7))
//    || (   (e == NeuronEngine::Pool)  // inferred (A27, C4)
//        && (i.d4_rand.rand_generator == RandSrc::RNG_XORWOW)
//        && (i.d4_rand.rand_algorithm == RandAlgorithm::XORWOW)
//        && (i.d4_rand.dtype == Dtype::UINT32)
//        && rand_get_state_elem_cnt(i, 6))
// }

// fn rand_get_state_elem_cnt(i: Inst, n: u32) -> bool {
//     t4d_element_count(i.d4_rand.dst_mem_pattern) == n
// }

// fn is_valid_rand(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_rand_opcode(i)
//    && has_d4_rand_reserved_zero(i)
//    && restrict_rand_algorithm(i)
//    && has_valid_rand_num_steps(i)
//    && has_valid_rand_post_processing(i)
//    && has_valid_rand_dtype(i)
//    && has_valid_active_channel_range(i.d4_rand.num_active_channels, POOLING_NUM_CHANNELS)
//    && start_addr_active_channels(i.d4_rand.dst_mem_pattern.start_addr, i.d4_rand.num_active_channels)
//    && tensor4d_valid(i.d4_rand.dst_mem_pattern, i.d4_rand.dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn has_rand_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::RAND
// }

// fn restrict_rand_algorithm(i: Inst) -> bool {
//     i.d4_rand.rand_algorithm == RandAlgorithm::PHILOX
// }

// fn has_valid_rand_num_steps(i: Inst) -> bool {
//       (i.d4_rand.rand_algorithm == RandAlgorithm::LFSR)
//    || (i.d4_rand.rand_num_steps == 1)
// }

// fn has_valid_rand_post_processing(i: Inst) -> bool {
//       (i.d4_rand.post_process == RandPostProc::RAW_U32)
//    || (i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE)
// }

// fn has_valid_rand_dtype(i: Inst) -> bool {
//       ((i.d4_rand.post_process == RandPostProc::RAW_U32) && is_int_dtype(i.d4_rand.dtype))
//    || ((i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE) && is_fp_dtype(i.d4_rand.dtype))
// }

#endif // AWS_NEURON_ISA_TPB_D4_RAND_H
