
#ifndef AWS_NEURON_ISA_TPB_EXTENDED_UTILS_H
#define AWS_NEURON_ISA_TPB_EXTENDED_UTILS_H

#include "aws_neuron_isa_tpb_common.h"

// Helpers over extended instructions. This file uses NEURON_ISA_TPB_EXT_COMPLETION_INFO but does not
// include aws_neuron_isa_tpb_extended.h, which defines it: include that header first. Alone this file
// does not compile (unknown type), which is the documented include-order constraint of the vendor tree.

// A completion report with its position in the runtime's completion queue.
typedef struct NEURON_ISA_TPB_EXT_COMPLETION_RECORD {
    NEURON_ISA_TPB_EXT_COMPLETION_INFO info;  //  8 ( 0 -  7) the report
    uint32_t                           seq;   //  4 ( 8 - 11) queue position
} NEURON_ISA_TPB_EXT_COMPLETION_RECORD;
ISA_STATIC_ASSERT(sizeof(NEURON_ISA_TPB_EXT_COMPLETION_RECORD) == 12, "Error: NEURON_ISA_TPB_EXT_COMPLETION_RECORD is NOT 12B.");

// fn ext_completion_updates_semaphore(c: ExtCompletionInfo) -> bool {
//     (c.update_mode != UpdateMode::NO_UPDATE) && (c.update_mode != UpdateMode::INVALID)
// }

#endif // AWS_NEURON_ISA_TPB_EXTENDED_UTILS_H
