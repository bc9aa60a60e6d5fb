# The README's end-to-end program as text (MARIANA; docs/program-format.md): seed the DVE
# generator, draw A, save the DVE XORWOW state, draw B, restore the state, draw C.
# C repeats B word for word:
#   neuron-isa run --gen mariana --file examples/checkpoint.s --dump 0x400:4:8   # B
#   neuron-isa run --gen mariana --file examples/checkpoint.s --dump 0x800:4:8   # C
# Each RAND2 draws 8 fp32 values in [-1, 1) per lane on 4 lanes.
.engine dve
PSEUDO_SET_RNG_SEED header={inst_word_len=16} seed_src=INSTRUCTION_IMMEDIATE seed=0x12345678
RAND2 header={inst_word_len=16} rand_algorithm=XORWOW post_process=UNIFORM_IN_RANGE dtype=FP32 num_active_channels=4 min_src=INSTRUCTION_IMMEDIATE max_src=INSTRUCTION_IMMEDIATE min=-1.0 max=1.0 dst_mem_pattern={start_addr=0x0 step_elem=[1,1,1] num_elem=[8,1,1]}  # A
RAND_GET_STATE header={inst_word_len=16} rand_algorithm=XORWOW post_process=RAW_U32 rand_generator=RNG_XORWOW dtype=UINT32 num_active_channels=4 dst_mem_pattern={start_addr=0x1000 step_elem=[1,1,1,1] num_elem=[24,1,1,1]}  # save
RAND2 header={inst_word_len=16} rand_algorithm=XORWOW post_process=UNIFORM_IN_RANGE dtype=FP32 num_active_channels=4 min_src=INSTRUCTION_IMMEDIATE max_src=INSTRUCTION_IMMEDIATE min=-1.0 max=1.0 dst_mem_pattern={start_addr=0x400 step_elem=[1,1,1] num_elem=[8,1,1]}  # B
RAND_SET_STATE header={inst_word_len=16} rand_algorithm=XORWOW num_active_channels=4 update_state=SRC_TENSOR in_dtype=UINT32 src_mem_pattern={start_addr=0x1000 step_elem=[1] num_elem=[24]} rand_generator=RNG_XORWOW  # restore
RAND2 header={inst_word_len=16} rand_algorithm=XORWOW post_process=UNIFORM_IN_RANGE dtype=FP32 num_active_channels=4 min_src=INSTRUCTION_IMMEDIATE max_src=INSTRUCTION_IMMEDIATE min=-1.0 max=1.0 dst_mem_pattern={start_addr=0x800 step_elem=[1,1,1] num_elem=[8,1,1]}  # C
