
#ifndef AWS_NEURON_ISA_COMMON_TYPES_H
#define AWS_NEURON_ISA_COMMON_TYPES_H

#include <stdint.h>

// Types shared by the engine trees of a generation. The vendor tree's common/ headers are not
// named by any page; this file, its name and its content are the project's choice. tpb/
// aws_neuron_isa_tpb_common.h includes it as "../common/aws_neuron_isa_common_types.h".

// Number of a sequencer register (the 6-bit register field of BOUND_CHECK_REG has this type).
typedef uint8_t NEURON_ISA_TPB_REG_NUM;

#endif // AWS_NEURON_ISA_COMMON_TYPES_H
