//! The draw instructions' vocabulary (RAND, RAND2, DROPOUT, PSEUDO_SET_RNG_SEED): where an
//! immediate comes from, what a draw is turned into, how DROPOUT reads its threshold.

vocabulary! {
    /// Where an immediate operand comes from (`NEURON_ISA_TPB_IMM_SRC`: RAND2 `min_src`/`max_src`,
    /// DROPOUT `threshold_src`, PSEUDO_SET_RNG_SEED `seed_src`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum ImmSource ["NEURON_ISA_TPB_IMM_SRC"] {
        /// `INSTRUCTION_IMMEDIATE = 0`: the value is in the instruction.
        InstructionImmediate = "INSTRUCTION_IMMEDIATE" => 0,
        /// `POINTER_IMMEDIATE = 1`: the instruction holds the on-chip address of the value.
        PointerImmediate = "POINTER_IMMEDIATE" => 1,
        /// `REG_PTR_IMMEDIATE = 2`: a register holds the address (not modelled).
        RegPtrImmediate = "REG_PTR_IMMEDIATE" => 2,
    }
}

vocabulary! {
    /// What RAND / RAND2 do with a draw (`NEURON_ISA_TPB_RAND_POST_PROC`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum PostProcess ["NEURON_ISA_TPB_RAND_POST_PROC"] {
        /// `RAW_U32 = 0`: the 32-bit draw (integer output types).
        RawU32 = "RAW_U32" => 0,
        /// `UNIFORM_IN_RANGE = 1`: `min + u·(max − min)`, `u` uniform in `[0, 1)`.
        UniformInRange = "UNIFORM_IN_RANGE" => 1,
        /// `NORMAL = 2`: not implemented by the hardware (d4_rand.h).
        Normal = "NORMAL" => 2,
    }
}

vocabulary! {
    /// How DROPOUT reads its threshold (`NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum ThresholdType ["NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE"] {
        /// `DROP_RATE = 0`: the threshold is the drop probability.
        DropRate = "DROP_RATE" => 0,
        /// `KEEP_RATE = 1`: the threshold is the keep probability.
        KeepRate = "KEEP_RATE" => 1,
    }
}
