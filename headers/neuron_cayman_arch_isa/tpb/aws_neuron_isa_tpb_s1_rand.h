/*
 * RandSetState operand format (S1_RAND): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v3
 */

#ifndef AWS_NEURON_ISA_TPB_S1_RAND_H
#define AWS_NEURON_ISA_TPB_S1_RAND_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'S1_RAND' Format: one 1-D SRC tensor, no DST tensor.
// Use for: RandSetState
//
// Loads the per-lane random-number state of the engine that executes it. The new state is read
// from src_mem_pattern when update_state is SRC_TENSOR: partition p holds the words of lane p and
// num_elem[0] is the state width N, in UINT32 words. With IMM_SINGLE the state is taken from
// imm_state instead; only Philox may be loaded that way, and imm_state[7] must be 0.
// rand_generator and rand_algorithm together choose the generator. The legal pairs, and N for each,
// are the arms of rand_set_state_legal_combinations:
//   Pool  RNG_PHILOX       PHILOX  IMM_SINGLE   7 words
//   Pool  RNG_PHILOX       PHILOX  SRC_TENSOR   7 words
//   Pool  RNG_XORWOW       XORWOW  SRC_TENSOR   6 words
// Inferred, not documented: only the number of arms (3) is documented for this generation; their
// contents are this tree's inference from CAYMAN's software-XORWOW POOL body and the absence of
// LFSR there (assumption A27, conflict C4 of headers/PROVENANCE.md).
// The validator fixes the engine to POOL, as the vendor's does (documented); NKI offers RandSetState
// on GpSimd (POOL) alone in NC-v3.
typedef struct NEURON_ISA_TPB_S1_RAND_STRUCT {
    NEURON_ISA_TPB_HEADER            header;               //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS            events;               //  8 ( 4 - 11)
    NEURON_ISA_TPB_RAND_ALGORITHM    rand_algorithm;       //  1 (12     ) generator algorithm
    uint8_t                          num_active_channels;  //  1 (13     ) lanes loaded
    NEURON_ISA_TPB_RAND_STATE_UPDATE update_state;         //  1 (14     ) state source
    NEURON_ISA_TPB_DTYPE             in_dtype;             //  1 (15     ) UINT32
    NEURON_ISA_TPB_TENSOR1D          src_mem_pattern;      //  8 (16 - 23) state input, SBUF, read only
    NEURON_ISA_TPB_RAND_SRC          rand_generator;       //  1 (24     ) generator source
    uint8_t                          reserved[7];          //  7 (25 - 31) zero
    uint32_t                         imm_state[8];         // 32 (32 - 63) inline state; zero unless update_state != SRC_TENSOR
} NEURON_ISA_TPB_S1_RAND_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S1_RAND_STRUCT) == 64, "Error: NEURON_ISA_TPB_S1_RAND_STRUCT is NOT 64B.");

// fn is_valid_s1_rand(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_rand_set_state_opcode(i)
//    && has_s1_rand_reserved_zero(i)
//    && rand_set_state_valid_dtype(i)
//    && rand_set_state_imm_zero(i)
//    && has_valid_rand_set_state_imm(i)
//    && has_valid_rand_state_channels(i.s1_rand.num_active_channels, NeuronEngine::Pool)
//    && start_addr_active_channels(i.s1_rand.src_mem_pattern.start_addr, i.s1_rand.num_active_channels)
//    && tensor1d_valid(i.s1_rand.src_mem_pattern, i.s1_rand.in_dtype,
//                      WriteTensor::False, AllowedInPSUM::False, AllowedInSBUF::True)
//    && rand_set_state_legal_combinations(i, NeuronEngine::Pool)
// }

// fn rand_set_state_legal_combinations(i: Inst, e: NeuronEngine) -> bool {
//       (   (e == NeuronEngine::Pool)  // inferred (A27, C4)
//        && (i.s1_rand.rand_generator == RandSrc::RNG_PHILOX)
//        && (i.s1_rand.rand_algorithm == RandAlgorithm::PHILOX)
//        && (i.s1_rand.update_state == RandStateUpdate::IMM_SINGLE)
//        && (i.s1_rand.in_dtype == Dtype::UINT32)
//        && rand_set_state_elem_cnt(i, 7))
//    || (   (e == NeuronEngine::Pool)  // inferred (A27, C4)
//        && (i.s1_rand.rand_generator == RandSrc::RNG_PHILOX)
//        && (i.s1_rand.rand_algorithm == RandAlgorithm::PHILOX)
//        && (i.s1_rand.update_state == RandStateUpdate::SRC_TENSOR)
//        && (i.s1_rand.in_dtype == Dtype::UINT32)
//        && rand_set_state_elem_cnt(i, 7))
//    || (   (e == NeuronEngine::Pool)  // inferred (A27, C4)
//        && (i.s1_rand.rand_generator == RandSrc::RNG_XORWOW)
//        && (i.s1_rand.rand_algorithm == RandAlgorithm::XORWOW)
//        && (i.s1_rand.update_state == RandStateUpdate::SRC_TENSOR)
//        && (i.s1_rand.in_dtype == Dtype::UINT32)
//        && rand_set_state_elem_cnt(i, 6))
// }

// fn rand_set_state_elem_cnt(i: Inst, n: u32) -> bool {
//     i.s1_rand.src_mem_pattern.num_elem[0] == n
// }

// fn has_rand_set_state_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::RAND_SET_STATE
// }

// fn has_s1_rand_reserved_zero(i: Inst) -> bool {
//       (i.s1_rand.reserved[0] == 0) && (i.s1_rand.reserved[1] == 0) && (i.s1_rand.reserved[2] == 0)
//    && (i.s1_rand.reserved[3] == 0) && (i.s1_rand.reserved[4] == 0) && (i.s1_rand.reserved[5] == 0)
//    && (i.s1_rand.reserved[6] == 0)
// }

// fn rand_set_state_valid_dtype(i: Inst) -> bool {
//     i.s1_rand.in_dtype == Dtype::UINT32
// }

// fn rand_set_state_imm_zero(i: Inst) -> bool {
//       (i.s1_rand.update_state != RandStateUpdate::SRC_TENSOR)
//    || (   (i.s1_rand.imm_state[0] == 0) && (i.s1_rand.imm_state[1] == 0)
//        && (i.s1_rand.imm_state[2] == 0) && (i.s1_rand.imm_state[3] == 0)
//        && (i.s1_rand.imm_state[4] == 0) && (i.s1_rand.imm_state[5] == 0)
//        && (i.s1_rand.imm_state[6] == 0) && (i.s1_rand.imm_state[7] == 0))
// }

// fn has_valid_rand_set_state_imm(i: Inst) -> bool {
//       (i.s1_rand.update_state == RandStateUpdate::SRC_TENSOR)
//    || (   (i.s1_rand.rand_generator == RandSrc::RNG_PHILOX)
//        && (i.s1_rand.rand_algorithm == RandAlgorithm::PHILOX)
//        && (i.s1_rand.imm_state[7] == 0))
// }

#endif // AWS_NEURON_ISA_TPB_S1_RAND_H
