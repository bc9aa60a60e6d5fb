/*
 * Dropout operand format (S3D3_DROPOUT): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v2
 */

#ifndef AWS_NEURON_ISA_TPB_S3D3_DROPOUT_H
#define AWS_NEURON_ISA_TPB_S3D3_DROPOUT_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'S3D3_DROPOUT' Format: one 3-D SRC tensor, one 3-D DST tensor.
// Use for: Dropout
//
// For every element each lane draws a 32-bit LFSR value, turns it into an fp32 between 0.0 and 1.0
// and compares it with the threshold. A dropped element is written as 0.0; a kept element is copied
// unchanged (no 1 / (1 - p) scaling is applied). The instruction carries no seed: it uses the
// engine's generator state.
// threshold is an fp32 immediate, or a pointer to the threshold, as threshold_src says. Whether a
// pointer names one value or one per lane is not documented (NKI's prob may be a per-partition
// tile); rng-core's model reads one per lane (its pointer_operands choice).
// threshold_dtype 0 (INVALID) is read as FP32 for compatibility. threshold_type picks the
// comparison; this tree reads DROP_RATE as 'flush when rand < threshold'.
typedef struct NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT {
    NEURON_ISA_TPB_HEADER                 header;               //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS                 events;               //  8 ( 4 - 11)
    uint8_t                               reserved0[4];         //  4 (12 - 15) zero
    NEURON_ISA_TPB_TENSOR3D               src_mem_pattern;      // 16 (16 - 31) input
    NEURON_ISA_TPB_DTYPE                  in_dtype;             //  1 (32     ) input type, no FP32R
    NEURON_ISA_TPB_DTYPE                  out_dtype;            //  1 (33     ) output type, equal to in_dtype
    uint8_t                               num_active_channels;  //  1 (34     ) lanes used
    NEURON_ISA_TPB_IMM_SRC                threshold_src;        //  1 (35     ) where the threshold comes from
    NEURON_ISA_TPB_DTYPE                  threshold_dtype;      //  1 (36     ) threshold type; 0 means FP32
    uint8_t                               reserved1[6];         //  6 (37 - 42) zero
    NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE threshold_type;       //  1 (43     ) drop rate or keep rate
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD     threshold;            //  4 (44 - 47) threshold value or pointer
    NEURON_ISA_TPB_TENSOR3D               dst_mem_pattern;      // 16 (48 - 63) output, same element count as input
} NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT) == 64, "Error: NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT is NOT 64B.");

// fn is_valid_s3d3_dropout(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_dropout_opcode(i)
//    && has_s3d3_dropout_reserved_zero(i)
//    && is_valid_dtype(i.s3d3_dropout.in_dtype, DtypeAllowFP32R::False)
//    && is_valid_dtype(i.s3d3_dropout.out_dtype, DtypeAllowFP32R::True)
//    && s3d3_dropout_same_src_dst_type(i)
//    && s3d3_dropout_src_dst_count_check(i)
//    && s3d3_dropout_threshold_dtype_check(i)
//    && is_valid_enum(EnumList::DropoutThresholdType, i.s3d3_dropout.threshold_type)
//    && has_valid_active_channel_range(i.s3d3_dropout.num_active_channels, POOLING_NUM_CHANNELS)
//    && start_addr_active_channels(i.s3d3_dropout.src_mem_pattern.start_addr, i.s3d3_dropout.num_active_channels)
//    && start_addr_active_channels(i.s3d3_dropout.dst_mem_pattern.start_addr, i.s3d3_dropout.num_active_channels)
//    && tensor3d_valid(i.s3d3_dropout.src_mem_pattern, i.s3d3_dropout.in_dtype,
//                      WriteTensor::False, AllowedInPSUM::True, AllowedInSBUF::True)
//    && tensor3d_valid(i.s3d3_dropout.dst_mem_pattern, i.s3d3_dropout.out_dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn has_dropout_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::DROPOUT
// }

// fn has_s3d3_dropout_reserved_zero(i: Inst) -> bool {
//       (i.s3d3_dropout.reserved0[0] == 0) && (i.s3d3_dropout.reserved0[1] == 0) && (i.s3d3_dropout.reserved0[2] == 0)
//    && (i.s3d3_dropout.reserved0[3] == 0) && (i.s3d3_dropout.reserved1[0] == 0) && (i.s3d3_dropout.reserved1[1] == 0)
//    && (i.s3d3_dropout.reserved1[2] == 0) && (i.s3d3_dropout.reserved1[3] == 0) && (i.s3d3_dropout.reserved1[4] == 0)
//    && (i.s3d3_dropout.reserved1[5] == 0)
// }

// fn s3d3_dropout_same_src_dst_type(i: Inst) -> bool {
//     i.s3d3_dropout.out_dtype == i.s3d3_dropout.in_dtype
// }

// fn s3d3_dropout_src_dst_count_check(i: Inst) -> bool {
//     same_element_count_t3d(i.s3d3_dropout.src_mem_pattern, i.s3d3_dropout.dst_mem_pattern)
// }

// fn threshold_dtype_fp32(d: Dtype) -> bool {
//     (d == Dtype::FP32) || (d == Dtype::INVALID)      // 0 stands for FP32
// }

// fn s3d3_dropout_threshold_dtype_check(i: Inst) -> bool {
//       (   (i.s3d3_dropout.threshold_src == ImmSrc::INSTRUCTION_IMMEDIATE)
//        && threshold_dtype_fp32(i.s3d3_dropout.threshold_dtype))
//    || (   (i.s3d3_dropout.threshold_src != ImmSrc::INSTRUCTION_IMMEDIATE)
//        && is_int_dtype(i.s3d3_dropout.in_dtype)
//        && threshold_dtype_fp32(i.s3d3_dropout.threshold_dtype))
//    || (   (i.s3d3_dropout.threshold_src != ImmSrc::INSTRUCTION_IMMEDIATE)
//        && is_fp_dtype(i.s3d3_dropout.in_dtype)
//        && (   is_fp_dtype(i.s3d3_dropout.threshold_dtype)
//            || (i.s3d3_dropout.threshold_dtype == Dtype::INVALID)))
// }

#endif // AWS_NEURON_ISA_TPB_S3D3_DROPOUT_H
