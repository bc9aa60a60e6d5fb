/*
 * PseudoSetRngSeed operand format (PSEUDO_SET_RNG_SEED): the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v2
 */

#ifndef AWS_NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_H
#define AWS_NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_H

#include "aws_neuron_isa_tpb_common.h"

// Neuron 'PSEUDO_SET_RNG_SEED' Format: pseudo instruction, no tensor operand.
// Use for: PseudoSetRngSeed
//
// Seeds the random-number generator of an engine from one 32-bit value. The compiler emits it; the
// runtime replaces it with real instructions before execution (that expansion is not documented).
// Only DVE is supported for now. seed holds the value, or a pointer to it, as seed_src says.
typedef struct NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_STRUCT {
    NEURON_ISA_TPB_HEADER             header;         //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS             events;         //  8 ( 4 - 11)
    NEURON_ISA_TPB_IMM_SRC            seed_src;       //  1 (12     ) where the seed comes from
    uint8_t                           reserved0[3];   //  3 (13 - 15) zero
    NEURON_ISA_TPB_IMM_VAL_INST_FIELD seed;           //  4 (16 - 19) seed value or pointer
    uint8_t                           reserved1[44];  // 44 (20 - 63) zero
} NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_STRUCT) == 64, "Error: NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_STRUCT is NOT 64B.");

// fn is_valid_pseudo_set_rng_seed(i: Inst, e: NeuronEngine) -> bool {
//       has_valid_neuron_header(i)
//    && has_valid_neuron_events(i)
//    && has_pseudo_set_rng_seed_opcode(i)
//    && has_pseudo_set_rng_seed_reserved_zero(i)
//    && is_valid_enum(EnumList::ImmSrc, i.pseudo_set_rng_seed.seed_src)
//    && (e == NeuronEngine::DVE)
// }

// fn has_pseudo_set_rng_seed_opcode(i: Inst) -> bool {
//     i.header.opcode == Opcode::PSEUDO_SET_RNG_SEED
// }

// fn has_pseudo_set_rng_seed_reserved_zero(i: Inst) -> bool {
//       (i.pseudo_set_rng_seed.reserved0[0] == 0) && (i.pseudo_set_rng_seed.reserved0[1] == 0) && (i.pseudo_set_rng_seed.reserved0[2] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[0] == 0) && (i.pseudo_set_rng_seed.reserved1[1] == 0) && (i.pseudo_set_rng_seed.reserved1[2] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[3] == 0) && (i.pseudo_set_rng_seed.reserved1[4] == 0) && (i.pseudo_set_rng_seed.reserved1[5] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[6] == 0) && (i.pseudo_set_rng_seed.reserved1[7] == 0) && (i.pseudo_set_rng_seed.reserved1[8] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[9] == 0) && (i.pseudo_set_rng_seed.reserved1[10] == 0) && (i.pseudo_set_rng_seed.reserved1[11] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[12] == 0) && (i.pseudo_set_rng_seed.reserved1[13] == 0) && (i.pseudo_set_rng_seed.reserved1[14] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[15] == 0) && (i.pseudo_set_rng_seed.reserved1[16] == 0) && (i.pseudo_set_rng_seed.reserved1[17] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[18] == 0) && (i.pseudo_set_rng_seed.reserved1[19] == 0) && (i.pseudo_set_rng_seed.reserved1[20] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[21] == 0) && (i.pseudo_set_rng_seed.reserved1[22] == 0) && (i.pseudo_set_rng_seed.reserved1[23] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[24] == 0) && (i.pseudo_set_rng_seed.reserved1[25] == 0) && (i.pseudo_set_rng_seed.reserved1[26] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[27] == 0) && (i.pseudo_set_rng_seed.reserved1[28] == 0) && (i.pseudo_set_rng_seed.reserved1[29] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[30] == 0) && (i.pseudo_set_rng_seed.reserved1[31] == 0) && (i.pseudo_set_rng_seed.reserved1[32] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[33] == 0) && (i.pseudo_set_rng_seed.reserved1[34] == 0) && (i.pseudo_set_rng_seed.reserved1[35] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[36] == 0) && (i.pseudo_set_rng_seed.reserved1[37] == 0) && (i.pseudo_set_rng_seed.reserved1[38] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[39] == 0) && (i.pseudo_set_rng_seed.reserved1[40] == 0) && (i.pseudo_set_rng_seed.reserved1[41] == 0)
//    && (i.pseudo_set_rng_seed.reserved1[42] == 0) && (i.pseudo_set_rng_seed.reserved1[43] == 0)
// }

#endif // AWS_NEURON_ISA_TPB_PSEUDO_SET_RNG_SEED_H
