
#ifndef AWS_NEURON_ISA_XT_GENERAL_LOCAL_REG_DEFINES_H
#define AWS_NEURON_ISA_XT_GENERAL_LOCAL_REG_DEFINES_H

// Local-register numbers of the Xtensa cores (a separate header family of the vendor package). The
// pages name this file but not its directory: this tree puts it in common/. Only the one define the
// references quote is here. The name carries no NEURON_ISA_TPB_ prefix.
#define AWS_NEURON_ISA_XT_MEMCOPY_CARVEOUT_CFG  39

#endif // AWS_NEURON_ISA_XT_GENERAL_LOCAL_REG_DEFINES_H
