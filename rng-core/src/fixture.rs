//! TEST FIXTURE ONLY — hand-copied `Generation` implementations for rng-core's own unit tests.
//!
//! The real implementations are generated into the `isa-<gen>` crates from the
//! header trees; nothing here is used outside `#[cfg(test)]`. The arm tables
//! are copied from rng-facts §3.4 (MARIANA 8 SET / 7 GET; SUNDA Pool+Philox
//! only; CAYMAN's inferred content; MAVERICK = MARIANA minus Act), the wired
//! sets from rng-facts §4.9/§4.10, the geometry from rng-facts §1.13. The
//! codec is a minimal reading of the S1_RAND / D4_RAND layouts
//! (rng-facts §2.2, §2.3) with one validator predicate, enough to drive
//! `Machine` through real 64-byte checkpoint words; the draw instructions are
//! exercised through their decoded forms.

use crate::generation::*;
use crate::model::ModelChoices;
use isa_core::{DecodeError, DecodeErrorKind, Violation};

const fn arm(
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    update: Option<StateUpdate>,
    words: u8,
) -> CheckpointArm {
    CheckpointArm {
        engine,
        generator,
        algorithm,
        update,
        words,
        evidence: None,
    }
}

use Algorithm as A;
use Engine as E;
use Generator as R;
const SRC: Option<StateUpdate> = Some(StateUpdate::SrcTensor);
const IMM: Option<StateUpdate> = Some(StateUpdate::ImmSingle);

const MARIANA_SET: [CheckpointArm; 8] = [
    arm(E::Pool, R::RngPhilox, A::Philox, IMM, 7),
    arm(E::Pool, R::RngPhilox, A::Philox, SRC, 7),
    arm(E::Pool, R::RngXorwow, A::Xorwow, SRC, 6),
    arm(E::Pool, R::OutputCvtLfsr, A::Lfsr, SRC, 1),
    arm(E::Dve, R::RngXorwow, A::Xorwow, SRC, 24),
    arm(E::Dve, R::RngLfsr, A::Lfsr, SRC, 4),
    arm(E::Dve, R::OutputCvtLfsr, A::Lfsr, SRC, 4),
    arm(E::Act, R::OutputCvtLfsr, A::Lfsr, SRC, 2),
];

const MAVERICK_SET: [CheckpointArm; 7] = [
    MARIANA_SET[0],
    MARIANA_SET[1],
    MARIANA_SET[2],
    MARIANA_SET[3],
    MARIANA_SET[4],
    MARIANA_SET[5],
    MARIANA_SET[6],
];

const fn get_arms<const N: usize>(set: &[CheckpointArm]) -> [CheckpointArm; N] {
    // The GET table is the SET table's tensor arms without update_state.
    let mut out = [arm(E::Pool, R::RngLfsr, A::Lfsr, None, 0); N];
    let (mut i, mut k) = (0, 0);
    while i < set.len() {
        if matches!(set[i].update, Some(StateUpdate::SrcTensor)) {
            out[k] = CheckpointArm {
                update: None,
                ..set[i]
            };
            k += 1;
        }
        i += 1;
    }
    out
}

const fn wired(kind: CheckpointKind, engine: Engine, algorithm: Algorithm) -> WiredBody {
    WiredBody {
        kind,
        engine,
        algorithm,
        // The fixture's copy does not track the levels.
        evidence: isa_core::Evidence::Assumed,
    }
}
use CheckpointKind::{Restore, Save};

const MARIANA_WIRED: [WiredBody; 8] = [
    wired(Save, E::Pool, A::Lfsr),
    wired(Restore, E::Pool, A::Lfsr),
    wired(Save, E::Pool, A::Xorwow),
    wired(Restore, E::Pool, A::Xorwow),
    wired(Save, E::Dve, A::Xorwow),
    wired(Restore, E::Dve, A::Xorwow),
    wired(Save, E::Dve, A::Lfsr),
    wired(Restore, E::Dve, A::Lfsr),
];

const GEOMETRY: MemoryGeometry = MemoryGeometry {
    partitions: 128,
    address_mask: 0x1fff_ffff,
    sbuf_offset: 0,
    sbuf_partition_bytes: 0x4_0000,
    psum_offset: 0x200_0000,
    psum_partition_bytes: 0x8000,
};

macro_rules! fixture_generation {
    ($ty:ident, $name:literal, $nc:literal, set: $set:expr, get: $get:expr, wired: $wired:expr,
     model: $model:expr, memory: $memory:expr) => {
        #[doc = concat!("TEST FIXTURE: ", $name, " (hand-copied tables).")]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $ty;

        impl isa_core::GenerationMarker for $ty {
            const INFO: isa_core::GenerationInfo = isa_core::GenerationInfo {
                name: $name,
                nc_version: $nc,
                fingerprint: "0000000000000000",
            };
        }

        impl $crate::generation::Generation for $ty {
            const SET_STATE_ARMS: &'static [$crate::generation::CheckpointArm] = $set;
            const GET_STATE_ARMS: &'static [$crate::generation::CheckpointArm] = $get;
            const FIRMWARE_WIRED: &'static [$crate::generation::WiredBody] = $wired;
            const MODEL: $crate::model::ModelChoices = $model;
            const MEMORY: $crate::generation::MemoryGeometry = $memory;
            const UINT32_DTYPE: u8 = 0x9;
            const MAX_CHANNELS: u8 = 128;

            fn decode_checkpoint(
                word: &[u8; 64],
                engine: $crate::generation::Engine,
            ) -> Result<
                $crate::generation::CheckpointInstruction,
                $crate::generation::InstructionError,
            > {
                $crate::fixture::decode(word, engine)
            }

            fn encode_checkpoint(
                inst: &$crate::generation::CheckpointInstruction,
            ) -> Result<[u8; 64], $crate::generation::InstructionError> {
                Ok($crate::fixture::encode(inst))
            }

            // The fixture's codec reads only the checkpoint pair: the draw instructions are
            // tested here through their decoded forms, and through real words with the
            // generated codecs in isa-conformance.
            fn decode_instruction(
                word: &[u8; 64],
                engine: $crate::generation::Engine,
            ) -> Result<$crate::generation::RngInstruction, $crate::generation::InstructionError>
            {
                match word[0] {
                    0x77 | 0x78 => $crate::fixture::decode(word, engine)
                        .map($crate::generation::RngInstruction::Checkpoint),
                    opcode => Err($crate::generation::InstructionError::NotRng { opcode }),
                }
            }
        }
    };
}

fixture_generation!(Sunda, "SUNDA", 2,
    set: &[MARIANA_SET[0], MARIANA_SET[1]],
    get: &[arm(E::Pool, R::RngPhilox, A::Philox, None, 7)],
    wired: &[],
    model: ModelChoices::RECONSTRUCTED,
    memory: GEOMETRY);

fixture_generation!(Cayman, "CAYMAN", 3,
    set: &[MARIANA_SET[0], MARIANA_SET[1], MARIANA_SET[2]],
    get: &[
        arm(E::Pool, R::RngPhilox, A::Philox, None, 7),
        arm(E::Pool, R::RngXorwow, A::Xorwow, None, 6),
    ],
    wired: &[MARIANA_WIRED[2], MARIANA_WIRED[3]],
    model: ModelChoices {
        xorwow_default_seed: [0x075B_CD15, 0x159A_55E5, 0x1F12_3BB5, 0x0549_1333, 0x0058_3F19, 0xC934],
        ..ModelChoices::RECONSTRUCTED
    },
    memory: GEOMETRY);

fixture_generation!(Mariana, "MARIANA", 4,
    set: &MARIANA_SET,
    get: &get_arms::<7>(&MARIANA_SET),
    wired: &MARIANA_WIRED,
    model: ModelChoices::RECONSTRUCTED,
    memory: GEOMETRY);

fixture_generation!(Maverick, "MAVERICK", 5,
    set: &MAVERICK_SET,
    get: &get_arms::<6>(&MAVERICK_SET),
    wired: &MARIANA_WIRED,
    // A generation with the other readings, so every model branch is exercised end to end.
    model: ModelChoices {
        dve_xorwow_layout: crate::model::SubGeneratorLayout::WordMajor,
        zero_guard: crate::model::ZeroGuard::ForceWordToOne(0),
        philox_offset: crate::model::PhiloxOffset::WordsFromStart,
        pcg32_low_word: 1,
        lane_interleave: crate::model::LaneInterleave::Lockstep,
        ..ModelChoices::RECONSTRUCTED
    },
    memory: MemoryGeometry { sbuf_partition_bytes: 0x10_0000, psum_partition_bytes: 0, ..GEOMETRY });

fn le16(w: &[u8; 64], at: usize) -> u16 {
    u16::from_le_bytes([w[at], w[at + 1]])
}

fn le32(w: &[u8; 64], at: usize) -> u32 {
    u32::from_le_bytes([w[at], w[at + 1], w[at + 2], w[at + 3]])
}

fn member<T: Copy>(
    all: &[T],
    word: &[u8; 64],
    field: &'static str,
    offset: usize,
    enum_name: &'static str,
) -> Result<T, InstructionError> {
    all.get(usize::from(word[offset]))
        .copied()
        .ok_or(InstructionError::Decode(DecodeError {
            field,
            offset,
            value: u64::from(word[offset]),
            kind: DecodeErrorKind::InvalidEnumValue { enum_name },
        }))
}

fn pattern(w: &[u8; 64], at: usize, rank: usize) -> TensorPattern {
    let mut p = TensorPattern {
        start_addr: le32(w, at),
        step_elem: [1; 4],
        num_elem: [1; 4],
        rank: rank as u8,
    };
    for d in 0..rank {
        p.step_elem[d] = le16(w, at + 4 + 2 * d) as i16;
        p.num_elem[d] = le16(w, at + 4 + 2 * rank + 2 * d);
    }
    p
}

pub(crate) fn decode(
    w: &[u8; 64],
    engine: Engine,
) -> Result<CheckpointInstruction, InstructionError> {
    const ALG: &str = "NEURON_ISA_TPB_RAND_ALGORITHM";
    const SRC_ENUM: &str = "NEURON_ISA_TPB_RAND_SRC";
    let algorithm = member(Algorithm::ALL, w, "rand_algorithm", 12, ALG)?;
    match w[0] {
        0x78 => {
            let update = member(
                StateUpdate::ALL,
                w,
                "update_state",
                14,
                "NEURON_ISA_TPB_RAND_STATE_UPDATE",
            )?;
            let tensor = pattern(w, 16, 1);
            let words: [u32; 8] = core::array::from_fn(|k| le32(w, 32 + 4 * k));
            if update == StateUpdate::SrcTensor && words != [0; 8] {
                const PATH: &[&str] = &["is_valid_s1_rand", "rand_set_state_imm_zero"];
                let v = Violation::new(PATH, &[], [0; isa_core::MAX_FIELDS]);
                return Err(InstructionError::Invalid(v));
            }
            Ok(CheckpointInstruction {
                kind: CheckpointKind::Restore,
                engine,
                generator: member(Generator::ALL, w, "rand_generator", 24, SRC_ENUM)?,
                algorithm,
                update: Some(update),
                dtype: w[15],
                channels: w[13],
                location: match update {
                    StateUpdate::SrcTensor => StateLocation::Tensor(tensor),
                    _ => StateLocation::Immediate { tensor, words },
                },
            })
        }
        0x77 => Ok(CheckpointInstruction {
            kind: CheckpointKind::Save,
            engine,
            generator: member(Generator::ALL, w, "rand_generator", 15, SRC_ENUM)?,
            algorithm,
            update: None,
            dtype: w[32],
            channels: w[34],
            location: StateLocation::Tensor(pattern(w, 44, 4)),
        }),
        opcode => Err(InstructionError::NotCheckpoint { opcode }),
    }
}

fn put_pattern(w: &mut [u8; 64], at: usize, p: &TensorPattern, rank: usize) {
    w[at..at + 4].copy_from_slice(&p.start_addr.to_le_bytes());
    for d in 0..rank {
        w[at + 4 + 2 * d..at + 6 + 2 * d].copy_from_slice(&p.step_elem[d].to_le_bytes());
        let n = at + 4 + 2 * rank + 2 * d;
        w[n..n + 2].copy_from_slice(&p.num_elem[d].to_le_bytes());
    }
}

pub(crate) fn encode(inst: &CheckpointInstruction) -> [u8; 64] {
    let mut w = [0u8; 64];
    w[0] = inst.kind.code();
    w[1] = 0x10;
    w[12] = inst.algorithm.code();
    let (tensor, imm) = match inst.location {
        StateLocation::Tensor(t) => (t, [0; 8]),
        StateLocation::Immediate { tensor, words } => (tensor, words),
    };
    match inst.kind {
        CheckpointKind::Restore => {
            w[13] = inst.channels;
            w[14] = inst.update.map_or(0, StateUpdate::code);
            w[15] = inst.dtype;
            put_pattern(&mut w, 16, &tensor, 1);
            w[24] = inst.generator.code();
            for (k, word) in imm.iter().enumerate() {
                w[32 + 4 * k..36 + 4 * k].copy_from_slice(&word.to_le_bytes());
            }
        }
        CheckpointKind::Save => {
            w[15] = inst.generator.code();
            w[32] = inst.dtype;
            w[34] = inst.channels;
            put_pattern(&mut w, 44, &tensor, 4);
        }
    }
    w
}

/// Runs `$body` once per fixture generation, with `$g` bound to its type.
macro_rules! for_each_generation {
    ($g:ident => $body:block) => {{
        {
            type $g = $crate::fixture::Sunda;
            $body
        }
        {
            type $g = $crate::fixture::Cayman;
            $body
        }
        {
            type $g = $crate::fixture::Mariana;
            $body
        }
        {
            type $g = $crate::fixture::Maverick;
            $body
        }
    }};
}
pub(crate) use fixture_generation;
pub(crate) use for_each_generation;

#[test]
fn table_counts_match_rng_facts() {
    let counts = [
        (Sunda::SET_STATE_ARMS.len(), Sunda::GET_STATE_ARMS.len()),
        (Cayman::SET_STATE_ARMS.len(), Cayman::GET_STATE_ARMS.len()),
        (Mariana::SET_STATE_ARMS.len(), Mariana::GET_STATE_ARMS.len()),
        (
            Maverick::SET_STATE_ARMS.len(),
            Maverick::GET_STATE_ARMS.len(),
        ),
    ];
    assert_eq!(counts, [(2, 1), (3, 2), (8, 7), (7, 6)]);
    assert!(Maverick::SET_STATE_ARMS
        .iter()
        .chain(Maverick::GET_STATE_ARMS)
        .all(|a| a.engine != Engine::Act));
}
