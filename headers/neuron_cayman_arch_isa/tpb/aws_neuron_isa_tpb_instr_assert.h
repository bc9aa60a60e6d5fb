/*
 * Engine placement of the random-number opcodes, and the pseudo-opcode list: the neuron-isa project's reconstruction from public facts, not vendor text.
 * ISA header for NC-v3
 */

#ifndef AWS_NEURON_ISA_TPB_INSTR_ASSERT_H
#define AWS_NEURON_ISA_TPB_INSTR_ASSERT_H

#include <stdbool.h>

#include "aws_neuron_isa_tpb_common.h"

// The vendor declares its generated C checks as `STATIC inline bool ...`; what STATIC expands to
// is not documented. This tree makes it `static` unless the includer has already defined it
// (headers/PROVENANCE.md, A52).
#ifndef STATIC
#define STATIC static
#endif

// True for the pseudo opcodes, which the compiler emits and the runtime rewrites into real
// instructions before execution. The list is every PSEUDO_ member of this tree's opcode enum
// (31 of them, 0xc1 to 0xdf; A53).
STATIC inline bool is_pseudo_op(NEURON_ISA_TPB_OPCODE opcode) {
    return(   (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMATRIGGER)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMAREARM)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMABARRIER)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMAMEMCPY_FULL_IND)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_SEMAPHORE_SET)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_LOAD_ACT_FUNC_SET)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_ALL_REDUCE)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_READ_VAR_ADDR)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_EMBEDDING_UPDATE)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_SEND_RECV)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_LABEL)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_STORE)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_LOAD)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMASWAP_QUEUE_SET)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_SET_RNG_SEED)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_BEGIN)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_RETURN)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_FUNCTION_CALL)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_DMA_DIRECT2D)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_SYNC_BARRIER)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_RANGE_CHECK)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_JPEG_DECODE)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_CORE_BARRIER)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TRIGGER_COLLECTIVE2)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_EXTENSION)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_CUR_PROCESSING_RANK_ID)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_GID_LOAD)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_BRANCH_PREFETCH_HINT)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_TENSOR_COMPLETION)
           || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_INST));
}

// True when `engine` may execute `opcode`. Only the random-number family is placed in this tree:
// RNG, RAND, RAND_GET_STATE, RAND_SET_STATE, DROPOUT, PSEUDO_SET_RNG_SEED.
// For any other opcode the answer is false, which here means "not placed by this tree", not
// "illegal" (A53). An engine is listed when the vendor API (NKI) runs the opcode there in this
// generation, and also when a validator arm of this tree names it, so that no legal arm is dead;
// where NKI is silent, the opcode matrix's engine column decides (A54). The trailing notes name the
// PROVENANCE.md entry behind each line. Whether the firmware ships a body for an (engine,
// algorithm) pair is a separate question, answered in rng-runtime.json.
STATIC inline bool neuron_isa_check_opcode_on_engine(NEURON_ISA_TPB_OPCODE opcode,
                                                     NEURON_ISA_TPB_NEURON_ENGINE engine) {
    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_POOL) {
        return(   (opcode == NEURON_ISA_TPB_OPCODE_RNG)               // NKI rng from NC-v3: GpSimd; MTX POOL
               || (opcode == NEURON_ISA_TPB_OPCODE_RAND)              // the Philox state RAND draws is checkpointed on POOL only (A55)
               || (opcode == NEURON_ISA_TPB_OPCODE_RAND_GET_STATE)    // NKI: GpSimd (C13)
               || (opcode == NEURON_ISA_TPB_OPCODE_RAND_SET_STATE));  // NKI: GpSimd (C13)
    }
    if (engine == NEURON_ISA_TPB_NEURON_ENGINE_DVE) {
        return(   (opcode == NEURON_ISA_TPB_OPCODE_RNG)                    // NKI rng: Vector (C13)
               || (opcode == NEURON_ISA_TPB_OPCODE_RAND)                   // not maintained; DVE per MTX (A55)
               || (opcode == NEURON_ISA_TPB_OPCODE_DROPOUT)                // NKI dropout: Vector; MTX POOL/DVE
               || (opcode == NEURON_ISA_TPB_OPCODE_PSEUDO_SET_RNG_SEED));  // seeds the DVE generator; lowered by the runtime (A57)
    }
    return false;
}

#endif // AWS_NEURON_ISA_TPB_INSTR_ASSERT_H
