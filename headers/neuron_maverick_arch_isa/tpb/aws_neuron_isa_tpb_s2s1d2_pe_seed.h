/*
 * PeManageSeed operand format (S2S1D2_PE_SEED): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v5
 */

#ifndef AWS_NEURON_ISA_TPB_S2S1D2_PE_SEED_H
#define AWS_NEURON_ISA_TPB_S2S1D2_PE_SEED_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'S2S1D2_PE_SEED' Format: one 2-D and one 1-D SRC tensor, one 2-D DST tensor.
// Use for: PeManageSeed
//
// Moves the seeds of the PE stochastic rounding (used when PSUM fp32 results are drained as bf16)
// between memory and the array. This is a separate random domain from the engine generators that
// RandGetState / RandSetState handle. Each seed is 32 bits; the PSUM keeps 16 rounding states
// (8 banks, 2 per bank), 2048 seeds in all.
//   LOAD_SEED  reads the seeds from SBUF (16 x 128, INT32) through src_seed_mem_pattern.
//   SAVE_SEED  writes them to the start of PSUM (128 x 16, UINT32) through dst_seed_mem_pattern.
// identity_mem_pattern addresses the 16-element identity diagonal the array multiplies with.
// mode follows the PE_SEED_MODE enum: NONE = 0, LOAD_SEED = 1, SAVE_SEED = 2.
typedef struct NEURON_ISA_TPB_S2S1D2_PE_SEED_STRUCT {
    NEURON_ISA_TPB_HEADER       header;                //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS       events;                //  8 ( 4 - 11)
    NEURON_ISA_TPB_TENSOR2D     src_seed_mem_pattern;  // 12 (12 - 23) LOAD_SEED input, SBUF
    NEURON_ISA_TPB_TENSOR1D     identity_mem_pattern;  //  8 (24 - 31) identity diagonal
    NEURON_ISA_TPB_DTYPE        identity_dtype;        //  1 (32     ) BF16 / FP16 / FP32R / FP8
    NEURON_ISA_TPB_PE_SEED_MODE mode;                  //  1 (33     ) none / load / save
    uint8_t                     num_active_rows;       //  1 (34     ) 16
    uint8_t                     num_active_cols;       //  1 (35     ) 128
    NEURON_ISA_TPB_TENSOR2D     dst_seed_mem_pattern;  // 12 (36 - 47) SAVE_SEED output, PSUM
    uint8_t                     reserved[16];          // 16 (48 - 63) zero
} NEURON_ISA_TPB_S2S1D2_PE_SEED_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S2S1D2_PE_SEED_STRUCT) == 64, "Error: NEURON_ISA_TPB_S2S1D2_PE_SEED_STRUCT is NOT 64B.");

// fn is_valid_s2s1d2_pe_seed(i: Inst, nc: NeuronCoreVersion) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_pe_manage_seed_opcode(i)
//    && has_s2s1d2_pe_seed_reserved_zero(i)
//    && has_valid_nc_pe_seed(nc)
//    && has_valid_pe_seed_mode(i)
//    && has_valid_pe_seed_array_size(i)
//    && has_valid_pe_seed_identity_dtype(i)
//    && has_valid_pe_seed_load_src(i)
//    && has_valid_pe_seed_save_dst(i)
// }

// fn has_pe_manage_seed_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::PE_MANAGE_SEED
// }

// fn has_s2s1d2_pe_seed_reserved_zero(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.reserved[0] == 0) && (i.s2s1d2_pe_seed.reserved[1] == 0) && (i.s2s1d2_pe_seed.reserved[2] == 0)
//    && (i.s2s1d2_pe_seed.reserved[3] == 0) && (i.s2s1d2_pe_seed.reserved[4] == 0) && (i.s2s1d2_pe_seed.reserved[5] == 0)
//    && (i.s2s1d2_pe_seed.reserved[6] == 0) && (i.s2s1d2_pe_seed.reserved[7] == 0) && (i.s2s1d2_pe_seed.reserved[8] == 0)
//    && (i.s2s1d2_pe_seed.reserved[9] == 0) && (i.s2s1d2_pe_seed.reserved[10] == 0) && (i.s2s1d2_pe_seed.reserved[11] == 0)
//    && (i.s2s1d2_pe_seed.reserved[12] == 0) && (i.s2s1d2_pe_seed.reserved[13] == 0) && (i.s2s1d2_pe_seed.reserved[14] == 0)
//    && (i.s2s1d2_pe_seed.reserved[15] == 0)
// }

// fn has_valid_nc_pe_seed(nc: NeuronCoreVersion) -> bool {
//     nc >= NeuronCoreVersion::V4
// }

// fn has_valid_pe_seed_mode(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.mode == PeSeedMode::LOAD_SEED)
//    || (i.s2s1d2_pe_seed.mode == PeSeedMode::SAVE_SEED)
// }

// fn has_valid_pe_seed_array_size(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.num_active_rows == 16)
//    && (i.s2s1d2_pe_seed.num_active_cols == 128)
// }

// fn has_valid_pe_seed_identity_dtype(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.identity_dtype == Dtype::BFLOAT16)
//    || (i.s2s1d2_pe_seed.identity_dtype == Dtype::FP16)
//    || (i.s2s1d2_pe_seed.identity_dtype == Dtype::FP32R)
//    || (i.s2s1d2_pe_seed.identity_dtype == Dtype::FP8_EXP3)
//    || (i.s2s1d2_pe_seed.identity_dtype == Dtype::FP8_EXP4)
//    || (i.s2s1d2_pe_seed.identity_dtype == Dtype::FP8_EXP5)
// }

// fn has_valid_pe_seed_load_src(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.mode != PeSeedMode::LOAD_SEED)
//    || tensor2d_valid(i.s2s1d2_pe_seed.src_seed_mem_pattern, Dtype::INT32,
//                      WriteTensor::False, AllowedInPSUM::False, AllowedInSBUF::True)
// }

// fn has_valid_pe_seed_save_dst(i: Inst) -> bool {
//       (i.s2s1d2_pe_seed.mode != PeSeedMode::SAVE_SEED)
//    || (   (i.s2s1d2_pe_seed.dst_seed_mem_pattern.start_addr.addr_immediate == PSUM_BUF_OFFSET)
//        && (i.s2s1d2_pe_seed.dst_seed_mem_pattern.num_elem[0] == 2)
//        && (i.s2s1d2_pe_seed.dst_seed_mem_pattern.num_elem[1] == 8)
//        && (i.s2s1d2_pe_seed.dst_seed_mem_pattern.step_elem[0] == 1)
//        && (i.s2s1d2_pe_seed.dst_seed_mem_pattern.step_elem[1] == 512)
//        && tensor2d_valid(i.s2s1d2_pe_seed.dst_seed_mem_pattern, Dtype::UINT32,
//                          WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::False))
// }

#endif // AWS_NEURON_ISA_TPB_S2S1D2_PE_SEED_H
