/*
 * Memset / RegStore / Rng / DveReadIndices operand format (D4_MR): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v3
 */

#ifndef AWS_NEURON_ISA_TPB_D4_MR_H
#define AWS_NEURON_ISA_TPB_D4_MR_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'D4_MR' Format: no SRC tensor, one 4-D DST tensor.
// Use for: Memset, RegStore, Rng, DveReadIndices
//
// This tree carries the format for RNG (0x4D): RNG writes 32 random bits per element of
// dst_mem_pattern, cut to dtype by keeping the least significant bits, and has no algorithm or seed
// field; it draws on the running generator state of the engine that executes it. Only the bytes the
// compiler's RNG encoder writes are known: dst_element_count, dtype, num_active_channels, two words
// it leaves zero (the second is Memset's fill value) and dst_mem_pattern. Bytes 12 - 27, 33 and 35
// are not described anywhere; they are placeholders here (reserved0, reserved1, reserved2), not
// hardware fields, and a real vendor header may give them names and meanings.
// Memset, RegStore and DveReadIndices share the format. Their own field use is not documented, so
// their validator, is_valid_d4_mr, checks only what the shared form fixes: the header, the events,
// the opcode, the lane count and a writable destination for the element type (assumption A66).
typedef struct NEURON_ISA_TPB_D4_MR_STRUCT {
    NEURON_ISA_TPB_HEADER   header;               //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS   events;               //  8 ( 4 - 11)
    uint8_t                 reserved0[16];        // 16 (12 - 27) placeholder: undocumented bytes
    uint32_t                dst_element_count;    //  4 (28 - 31) dst element count
    NEURON_ISA_TPB_DTYPE    dtype;                //  1 (32     ) output type
    uint8_t                 reserved1[1];         //  1 (33     ) placeholder: undocumented byte
    uint8_t                 num_active_channels;  //  1 (34     ) lanes written
    uint8_t                 reserved2[1];         //  1 (35     ) placeholder: undocumented byte
    uint8_t                 reserved3[4];         //  4 (36 - 39) zero for RNG
    uint32_t                fill_imm;             //  4 (40 - 43) Memset's fill value; zero for RNG
    NEURON_ISA_TPB_TENSOR4D dst_mem_pattern;      // 20 (44 - 63) output, SBUF or PSUM
} NEURON_ISA_TPB_D4_MR_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_D4_MR_STRUCT) == 64, "Error: NEURON_ISA_TPB_D4_MR_STRUCT is NOT 64B.");

// RNG: integer output types only, SBUF or PSUM, at most 128 lanes. That dst_element_count equals the
// element count of dst_mem_pattern, and that the placeholder bytes are zero, are this tree's
// assumptions (headers/PROVENANCE.md).

// fn is_valid_rng(i: Inst, e: NeuronEngine) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_rng_opcode(i)
//    && has_d4_mr_rng_zero_fields(i)
//    && has_valid_rng_dtype(i)
//    && has_valid_active_channel_range(i.d4_mr.num_active_channels, POOLING_NUM_CHANNELS)
//    && start_addr_active_channels(i.d4_mr.dst_mem_pattern.start_addr, i.d4_mr.num_active_channels)
//    && tensor4d_valid(i.d4_mr.dst_mem_pattern, i.d4_mr.dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
//    && rng_dst_elem_cnt(i)
//    && has_valid_rng_engine(i, e)
// }

// fn has_rng_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::RNG
// }

// Bytes 36 - 43 are written as zero by the RNG encoder; the placeholders are required to be zero too.

// fn has_d4_mr_rng_zero_fields(i: Inst) -> bool {
//       (i.d4_mr.reserved0[0] == 0) && (i.d4_mr.reserved0[1] == 0) && (i.d4_mr.reserved0[2] == 0) && (i.d4_mr.reserved0[3] == 0)
//    && (i.d4_mr.reserved0[4] == 0) && (i.d4_mr.reserved0[5] == 0) && (i.d4_mr.reserved0[6] == 0) && (i.d4_mr.reserved0[7] == 0)
//    && (i.d4_mr.reserved0[8] == 0) && (i.d4_mr.reserved0[9] == 0) && (i.d4_mr.reserved0[10] == 0) && (i.d4_mr.reserved0[11] == 0)
//    && (i.d4_mr.reserved0[12] == 0) && (i.d4_mr.reserved0[13] == 0) && (i.d4_mr.reserved0[14] == 0) && (i.d4_mr.reserved0[15] == 0)
//    && (i.d4_mr.reserved1[0] == 0) && (i.d4_mr.reserved2[0] == 0) && (i.d4_mr.reserved3[0] == 0) && (i.d4_mr.reserved3[1] == 0)
//    && (i.d4_mr.reserved3[2] == 0) && (i.d4_mr.reserved3[3] == 0) && (i.d4_mr.fill_imm == 0)
// }

// fn has_valid_rng_dtype(i: Inst) -> bool {
//       (i.d4_mr.dtype == Dtype::INT8)
//    || (i.d4_mr.dtype == Dtype::INT16)
//    || (i.d4_mr.dtype == Dtype::INT32)
//    || (i.d4_mr.dtype == Dtype::UINT8)
//    || (i.d4_mr.dtype == Dtype::UINT16)
//    || (i.d4_mr.dtype == Dtype::UINT32)
// }

// fn rng_dst_elem_cnt(i: Inst) -> bool {
//     i.d4_mr.dst_element_count == t4d_element_count(i.d4_mr.dst_mem_pattern)
// }

// RNG runs on DVE, and from NC-v3 on POOL, which cannot reach PSUM.

// fn has_valid_rng_engine(i: Inst, e: NeuronEngine) -> bool {
//       (e == NeuronEngine::DVE)
//    || ((e == NeuronEngine::Pool) && !in_psum(i.d4_mr.dst_mem_pattern.start_addr.addr_immediate))
// }

// MEMSET, REG_STORE, DVE_READ_INDICES and RNG share this struct, and the compiler checks all of them in one
// shape validator (its d4_mr validator dispatches on the opcode). RNG has its own rules above. For the
// other members this tree checks only what the shared form fixes: header, events, the opcode, the
// lane count, and a writable destination in SBUF or PSUM for the element type. Their own rules
// (Memset's fill word, REG_STORE's register operand, ...) are undocumented and not checked (A66).

// fn is_valid_d4_mr(i: Inst) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_d4_mr_opcode(i)
//    && has_valid_active_channel_range(i.d4_mr.num_active_channels, POOLING_NUM_CHANNELS)
//    && start_addr_active_channels(i.d4_mr.dst_mem_pattern.start_addr, i.d4_mr.num_active_channels)
//    && tensor4d_valid(i.d4_mr.dst_mem_pattern, i.d4_mr.dtype,
//                      WriteTensor::True, AllowedInPSUM::True, AllowedInSBUF::True)
// }

// fn has_d4_mr_opcode(i: Inst) -> bool {
//       (i.header.opcode == Opcode::MEMSET)
//    || (i.header.opcode == Opcode::REG_STORE)
//    || (i.header.opcode == Opcode::RNG)
//    || (i.header.opcode == Opcode::DVE_READ_INDICES)
// }

#endif // AWS_NEURON_ISA_TPB_D4_MR_H
