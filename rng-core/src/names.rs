//! Vendor names and codes of the checkpoint vocabulary (for messages, files and tools).
//!
//! Names are the vendor member names without prefix (`RNG_XORWOW`,
//! `SRC_TENSOR`; engines as the validators spell `NeuronEngine::Pool | DVE |
//! Act`, upper-cased); codes are the enum values documented in
//! [`crate::generation`].

use crate::dtype::Dtype;
use crate::generation::{
    Algorithm, CheckpointKind, Engine, Generator, ImmSource, PostProcess, StateUpdate,
    ThresholdType,
};

macro_rules! vendor_names {
    ($ty:ident { $($variant:ident = $name:literal;)* }) => {
        impl $ty {
            /// Every member, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The vendor member name without prefix.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// The member named `name` (exact, upper case), if any.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$variant),)*
                    _ => None,
                }
            }
        }
    };
    ($ty:ident { $($variant:ident = $name:literal, $code:literal;)* }) => {
        vendor_names!($ty { $($variant = $name;)* });

        impl $ty {
            /// The member's numeric code.
            pub const fn code(self) -> u8 {
                match self {
                    $($ty::$variant => $code,)*
                }
            }
        }
    };
}

// Engines have no single code: the vendor numbers them four different ways (rng-facts §1.7).
vendor_names!(Engine {
    Pool = "POOL";
    Dve = "DVE";
    Act = "ACT";
});

vendor_names!(Algorithm {
    Lfsr = "LFSR", 0;
    Pcg32 = "PCG32", 1;
    Philox = "PHILOX", 2;
    Xorwow = "XORWOW", 3;
});

vendor_names!(Generator {
    RngLfsr = "RNG_LFSR", 0;
    RngXorwow = "RNG_XORWOW", 1;
    RngPhilox = "RNG_PHILOX", 2;
    OutputCvtLfsr = "OUTPUT_CVT_LFSR", 3;
});

vendor_names!(StateUpdate {
    SrcTensor = "SRC_TENSOR", 0;
    ImmSingle = "IMM_SINGLE", 1;
    ImmLane = "IMM_LANE", 2;
});

vendor_names!(CheckpointKind {
    Save = "RAND_GET_STATE", 0x77;
    Restore = "RAND_SET_STATE", 0x78;
});

vendor_names!(ImmSource {
    InstructionImmediate = "INSTRUCTION_IMMEDIATE", 0;
    PointerImmediate = "POINTER_IMMEDIATE", 1;
    RegPtrImmediate = "REG_PTR_IMMEDIATE", 2;
});

vendor_names!(PostProcess {
    RawU32 = "RAW_U32", 0;
    UniformInRange = "UNIFORM_IN_RANGE", 1;
    Normal = "NORMAL", 2;
});

vendor_names!(ThresholdType {
    DropRate = "DROP_RATE", 0;
    KeepRate = "KEEP_RATE", 1;
});

// Element types by name only: the generated crates map their DTYPE members by name.
vendor_names!(Dtype {
    Uint64 = "UINT64";
    Int8 = "INT8";
    Uint8 = "UINT8";
    Int16 = "INT16";
    Uint16 = "UINT16";
    Bfloat16 = "BFLOAT16";
    Fp16 = "FP16";
    Int32 = "INT32";
    Uint32 = "UINT32";
    Fp32 = "FP32";
    Int64 = "INT64";
    Fp8Exp3 = "FP8_EXP3";
    Fp8Exp4 = "FP8_EXP4";
    Fp8Exp5 = "FP8_EXP5";
    Fp8Exp2 = "FP8_EXP2";
});

impl CheckpointKind {
    /// The firmware's spelling in its log lines (`RandGetState`, `RandSetState`).
    pub const fn firmware_name(self) -> &'static str {
        match self {
            CheckpointKind::Save => "RandGetState",
            CheckpointKind::Restore => "RandSetState",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_round_trip() {
        for e in Engine::ALL {
            assert_eq!(Engine::from_name(e.name()), Some(*e));
        }
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_name(a.name()), Some(*a));
        }
        for g in Generator::ALL {
            assert_eq!(Generator::from_name(g.name()), Some(*g));
        }
        for u in StateUpdate::ALL {
            assert_eq!(StateUpdate::from_name(u.name()), Some(*u));
        }
        assert_eq!(Algorithm::Xorwow.code(), 3);
        assert_eq!(Generator::OutputCvtLfsr.code(), 3);
        assert_eq!(StateUpdate::ImmSingle.code(), 1);
        assert_eq!(CheckpointKind::Restore.code(), 0x78);
        assert_eq!(Engine::from_name("pool"), None);
        for s in ImmSource::ALL {
            assert_eq!(ImmSource::from_name(s.name()), Some(*s));
        }
        for p in PostProcess::ALL {
            assert_eq!(PostProcess::from_name(p.name()), Some(*p));
        }
        for t in ThresholdType::ALL {
            assert_eq!(ThresholdType::from_name(t.name()), Some(*t));
        }
        assert_eq!(Dtype::from_name("FP32R"), None);
    }
}
