
#ifndef AWS_NEURON_ISA_TPB_EXTENDED_H
#define AWS_NEURON_ISA_TPB_EXTENDED_H

#include "aws_neuron_isa_tpb_common.h"

// How an extended instruction reports completion. Layout: placeholder of this tree; the type name is
// documented (aws_neuron_isa_tpb_extended_utils.h uses it and only compiles after this file).
typedef struct NEURON_ISA_TPB_EXT_COMPLETION_INFO {
    uint8_t                    sem_idx;      //  1 ( 0     ) semaphore to update
    NEURON_ISA_TPB_UPDATE_MODE update_mode;  //  1 ( 1     ) how to update it
    uint8_t                    reserved0[2]; //  2 ( 2 -  3) zero
    uint32_t                   value;        //  4 ( 4 -  7) update value
} NEURON_ISA_TPB_EXT_COMPLETION_INFO;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EXT_COMPLETION_INFO) == 8, "Error: NEURON_ISA_TPB_EXT_COMPLETION_INFO is NOT 8B.");

// Neuron 'EXTENDED' Format: escape to an extended instruction the Pool firmware decodes.
// Use for: ExtendedInst
//
// Layout: placeholder (source: header-conventions.md §2; instruction-mapping.md §3 gaps, the struct
// lives in this spine header). The binding to EXTENDED_INST (0xf0) in instruction_mapping.json is
// this tree's choice.
typedef struct NEURON_ISA_TPB_EXTENDED_STRUCT {
    NEURON_ISA_TPB_HEADER              header;         //  4 ( 0 -  3)
    NEURON_ISA_TPB_EVENTS              events;         //  8 ( 4 - 11)
    uint8_t                            ext_opcode;     //  1 (12     ) extended operation
    uint8_t                            reserved0[3];   //  3 (13 - 15) zero
    NEURON_ISA_TPB_EXT_COMPLETION_INFO completion;     //  8 (16 - 23) completion report
    uint8_t                            payload[40];    // 40 (24 - 63) operation specific
} NEURON_ISA_TPB_EXTENDED_STRUCT;

ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EXTENDED_STRUCT) == 64, "Error: NEURON_ISA_TPB_EXTENDED_STRUCT is NOT 64B.");

#endif // AWS_NEURON_ISA_TPB_EXTENDED_H
