
#ifndef AWS_NEURON_ISA_DMA_TYPES_H
#define AWS_NEURON_ISA_DMA_TYPES_H

#include <stdint.h>

// DMA building blocks used by the tpb/aws_neuron_isa_tpb_dma_*.h operand headers, which include this
// file as "../common/aws_neuron_isa_dma_types.h". The location is the project's choice.

#ifndef NEURON_ISA_PACKED
#define NEURON_ISA_PACKED __attribute__((__packed__))
#endif

// Priority of the descriptors a DMA instruction generates.
typedef struct NEURON_ISA_TPB_DMA_CONFIGS {
    uint8_t priority_class    : 3;  // priority class
    uint8_t reserved_bitfield : 5;  // zero
} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_CONFIGS;

// Queue selection of a DMA instruction. The comment on queue_id keeps the vendor's own mismatch: it
// speaks of a 4-bit queue ID, the field has 3 bits.
typedef struct NEURON_ISA_TPB_DMA_FLAGS {
    uint8_t queue_id          : 3;  // 4b queue ID
    uint8_t last_desc         : 1;  // placeholder: last descriptor of a transfer
    uint8_t reserved_bitfield : 4;  // zero
} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_FLAGS;

// A descriptor-ring position: a packed 5-byte struct (its 32-bit member sits at offset 1). The layout
// is a placeholder of this tree, written to exercise packed sub-structs inside operand structs.
typedef struct NEURON_ISA_TPB_DMA_QUEUE_REF {
    uint8_t  queue;       // 1 (0    ) queue number
    uint32_t desc_index;  // 4 (1 - 4) descriptor index in the ring
} NEURON_ISA_PACKED NEURON_ISA_TPB_DMA_QUEUE_REF;

#endif // AWS_NEURON_ISA_DMA_TYPES_H
