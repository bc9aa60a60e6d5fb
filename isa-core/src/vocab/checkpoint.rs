//! The checkpoint arms' vocabulary: engines, generator sources, algorithms, state updates and
//! the checkpoint instructions themselves.

vocabulary! {
    /// An engine that keeps datapath RNG state.
    ///
    /// Names as the validators spell `NeuronEngine::Pool | DVE | Act`, upper-cased. Engines have
    /// no single code: the vendor numbers them four different ways (rng-facts §1.7).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Engine ["NEURON_ISA_TPB_NEURON_ENGINE"] markers(engine_markers, EngineMarker, ENGINE) {
        /// GpSimd (Pool) engine.
        Pool = "POOL",
        /// Vector engine (DVE).
        Dve = "DVE",
        /// Activation (scalar) engine.
        Act = "ACT",
    }
}

vocabulary! {
    /// The generator algorithm (`NEURON_ISA_TPB_RAND_ALGORITHM`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Algorithm ["NEURON_ISA_TPB_RAND_ALGORITHM"] markers(algorithm_markers, AlgorithmMarker, ALGORITHM) {
        /// `LFSR = 0`.
        Lfsr = "LFSR" => 0,
        /// `PCG32 = 1`.
        Pcg32 = "PCG32" => 1,
        /// `PHILOX = 2` (Philox4x32-10).
        Philox = "PHILOX" => 2,
        /// `XORWOW = 3`.
        Xorwow = "XORWOW" => 3,
    }
}

vocabulary! {
    /// The generator source (`NEURON_ISA_TPB_RAND_SRC`, the `rand_generator` field).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Generator ["NEURON_ISA_TPB_RAND_SRC"] markers(generator_markers, GeneratorMarker, GENERATOR) {
        /// `RNG_LFSR = 0`.
        RngLfsr = "RNG_LFSR" => 0,
        /// `RNG_XORWOW = 1`.
        RngXorwow = "RNG_XORWOW" => 1,
        /// `RNG_PHILOX = 2`.
        RngPhilox = "RNG_PHILOX" => 2,
        /// `OUTPUT_CVT_LFSR = 3`.
        OutputCvtLfsr = "OUTPUT_CVT_LFSR" => 3,
    }
}

vocabulary! {
    /// Where RAND_SET_STATE takes the state from (`NEURON_ISA_TPB_RAND_STATE_UPDATE`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum StateUpdate ["NEURON_ISA_TPB_RAND_STATE_UPDATE"] markers(state_update_markers, StateUpdateMarker, STATE_UPDATE) {
        /// `SRC_TENSOR = 0`: from the source tensor.
        SrcTensor = "SRC_TENSOR" => 0,
        /// `IMM_SINGLE = 1`: from `imm_state[0..7]`, one state for every lane.
        ImmSingle = "IMM_SINGLE" => 1,
        /// `IMM_LANE = 2`: no legal arm in any documented generation.
        ImmLane = "IMM_LANE" => 2,
    }
}

vocabulary! {
    /// Save (RAND_GET_STATE) or restore (RAND_SET_STATE); named and numbered as the opcodes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum CheckpointKind ["NEURON_ISA_TPB_OPCODE"] {
        /// RAND_GET_STATE (0x77): state → tensor.
        Save = "RAND_GET_STATE" => 0x77,
        /// RAND_SET_STATE (0x78): tensor or immediate → state.
        Restore = "RAND_SET_STATE" => 0x78,
    }
}

impl Generator {
    /// The `RNG_<algorithm>` source of an algorithm (RAND2 names only the algorithm);
    /// PCG32 has none.
    #[inline]
    pub const fn for_algorithm(algorithm: Algorithm) -> Option<Generator> {
        match algorithm {
            Algorithm::Lfsr => Some(Generator::RngLfsr),
            Algorithm::Xorwow => Some(Generator::RngXorwow),
            Algorithm::Philox => Some(Generator::RngPhilox),
            Algorithm::Pcg32 => None,
        }
    }
}

impl CheckpointKind {
    /// The firmware's spelling in its log lines (`RandGetState`, `RandSetState`).
    #[inline]
    pub const fn firmware_name(self) -> &'static str {
        match self {
            CheckpointKind::Save => "RandGetState",
            CheckpointKind::Restore => "RandSetState",
        }
    }
}
