//! What the documentation leaves open, as named parameters of the model.
//!
//! Every field of [`ModelChoices`] is a hardware detail that no public source
//! states. Each one cites where the project's choice comes from
//! (`rng-facts.md` §, `anchors.md` § in the project's shared reference
//! folder) and lists the alternatives, so that a correction is a change of
//! data, not of code. The generated `isa-<gen>` crates write
//! `ModelChoices { field: ..., ..ModelChoices::RECONSTRUCTED }` from the
//! project's runtime data file.

use core::fmt;
use isa_core::vocab::{Algorithm, Generator};
// The choices `rng-runtime.json` overrides by name, in the vocabulary the generator shares.
pub use isa_core::vocab::{LaneInterleave, PhiloxOffset, SubGeneratorLayout, ZeroGuard};

/// Word positions of the Philox state inside the 7-word RAND_GET_STATE / RAND_SET_STATE record.
///
/// Source: rng-facts §4.6 ("a 16-byte counter start, an 8-byte key, and a
/// 4-byte counter offset", d4_rand.h L73-83, in that order); the word order
/// itself is UNKNOWN (rng-facts §6 item 2). Alternative readings put the key
/// first (`key: [0, 1], counter: [2, 3, 4, 5]`) as cuRAND's seeding does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhiloxLayout {
    /// Word index of counter word `c0` (least significant) .. `c3`.
    pub counter: [u8; 4],
    /// Word index of key word `k0`, `k1`.
    pub key: [u8; 2],
    /// Word index of the counter-offset word (meaning: [`PhiloxOffset`]).
    pub offset: u8,
}

/// How a 32-bit draw `r` becomes a uniform fp32 `u` in `[0, 1)` (RAND / RAND2 UNIFORM_IN_RANGE, DROPOUT).
///
/// Source: rng-facts §4.2 — the simulator's `xorwowStep` computes
/// `bits((r & 0x7FFFFF) | 0x3F800000) - 1.0` (SIM §2.2, CONFIRMED: `and
/// 0x7FFFFF`, `or 0x3F800000`); the firmware pages' prose reads the mantissa
/// as `r >> 9` (XSW §7.1, bit routing MED). rng-facts §6 item 14.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UniformBits {
    /// `f32::from_bits((r & 0x7FFFFF) | 0x3F800000) - 1.0`: the low 23 bits (simulator).
    Mantissa23,
    /// `f32::from_bits((r >> 9) | 0x3F800000) - 1.0`: the high 23 bits (firmware prose).
    High23,
}

/// How `min + u·(max − min)` is rounded (RAND / RAND2 UNIFORM_IN_RANGE).
///
/// Source: rng-facts §4.2 and §6 item 14: the simulator writes `lo + (hi -
/// lo) * u` in C (three fp32 operations, each rounded to nearest even on its
/// x86-64 build, which has no FMA contraction by default); whether the
/// hardware fuses the multiply-add is UNKNOWN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeArithmetic {
    /// `d = max − min`, `p = d·u`, `out = min + p`, each rounded to fp32 (the simulator's expression).
    Separate,
    /// `d = max − min` rounded, then `fma(d, u, min)` with one rounding.
    Fused,
}

/// Rounding of an fp32 value to a narrower float output type (bf16, fp16, fp8).
///
/// Source: none — no page states the output conversion of RAND2 ("Supports
/// output conversion", NKI; rng-facts §4.11). IEEE 754's default is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatRounding {
    /// Round to nearest, ties to even; overflow gives infinity (IEEE formats).
    NearestEven,
    /// Round toward zero (truncate the significand); overflow gives the largest finite value.
    TowardZero,
}

/// How the FP8 dtype codes encode values.
///
/// Source: the DTYPE comments say only E3M4 / E4M3 / E5M2 / E2M5 (rng-facts
/// §1.6). The Neuron compiler documentation distinguishes F8E4M3 (the
/// IEEE-style format of Trn1/Trn2) from F8E4M3FN (native from Trn3 on, error
/// codes NCC_EVRF051/052); which one the FP8_EXP4 code denotes on each
/// generation is not documented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fp8Encoding {
    /// Every FP8 code is an IEEE 754-style binary format: bias `2^(E−1) − 1`,
    /// subnormals, the all-ones exponent for infinities and NaN.
    Ieee,
    /// As `Ieee`, except FP8_EXP4 is OCP E4M3FN: no infinities, only
    /// `S.1111.111` is NaN (largest finite 448); an overflow saturates to ±448
    /// (as NVIDIA's `__NV_SATFINITE`; OCP leaves saturation to the implementation).
    E4m3Fn,
}

/// Conversion of an fp32 value to an integer output type (RAND2 with an integer dtype).
///
/// Source: NKI documents integer outputs of `rand2` ("converted to dst
/// dtype", rng-facts §3.5, §5) without the rule. NaN becomes 0 in both
/// readings; out-of-range values saturate to the type's bounds in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatToInt {
    /// Round to nearest, ties to even, then saturate.
    NearestEvenSaturate,
    /// Truncate toward zero (a C cast), then saturate.
    TowardZeroSaturate,
}

/// How a raw 32-bit draw fills a narrower integer output (RAND RAW_U32).
///
/// Source: NKI's `rng` "truncates each 32-bit random value to the specified
/// data type, taking the least significant bits" (rng-facts §4.11); that is
/// the RNG (0x4D) instruction, applied here to RAND's RAW_U32 by analogy.
/// 64-bit outputs hold the zero-extended draw in both readings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RawInteger {
    /// The least significant bits (`r mod 2^bits`).
    LowBits,
    /// The most significant bits (`r >> (32 − bits)`).
    HighBits,
}

/// One generator state of an engine: a `(rand_generator, rand_algorithm)` pair, as the checkpoint arms name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateRef {
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
}

/// Which way DROPOUT's threshold comparison drops elements.
///
/// Source: rng-facts §1.10 and §4.11 (CONFLICT): the enum comments (DROP §3)
/// say DROP_RATE flushes when `rand < threshold` and KEEP_RATE when `rand >
/// threshold`; the LFSR page (§7) quotes the opposite. DROP's reading matches
/// NKI (`prob` is the drop probability) and is this tree's header comment.
/// rng-facts §6 item 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropoutPolarity {
    /// DROP_RATE drops when `u < threshold`, KEEP_RATE when `u > threshold` (DROP §3).
    DropBelow,
    /// DROP_RATE drops when `u > threshold`, KEEP_RATE when `u < threshold` (the LFSR page).
    DropAbove,
}

/// What DROPOUT does when `u == threshold`.
///
/// Source: UNKNOWN (rng-facts §4.11, §6 item 12: "equality handling UNKNOWN").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropoutTie {
    /// Keep the element (the comparisons are strict).
    Keep,
    /// Drop the element.
    Drop,
}

/// How PSEUDO_SET_RNG_SEED's 32-bit seed becomes generator state words.
///
/// Source: rng-facts §4.8 — the simulator seeds an embedded MT19937-64 with
/// the scalar (`mt[0] = seed`, the standard `init_genrand64` recurrence with
/// multiplier `0x5851F42D4C957F2D`); how MT output becomes XORWOW state is
/// UNKNOWN (rng-facts §6 item 6). The words are produced bank by bank (the
/// engine's states in arm-table order, see [`SeedTargets`]), lane 0 to 127,
/// each lane's checkpoint record in record order, and written as
/// RAND_SET_STATE would (XORWOW gets the zero-guard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedExpansion {
    /// One MT19937-64 output per state word: its low 32 bits.
    Mt19937_64Low32,
    /// Each MT19937-64 output gives two state words: low half, then high half.
    Mt19937_64Halves,
}

/// Which generator states of the engine PSEUDO_SET_RNG_SEED reseeds.
///
/// Source: the header says only "seeds the random-number generator of an
/// engine" (rng-facts §2.5); NKI ties `set_rng_seed` to `rng` draws on the
/// Vector engine and ENC says DROPOUT's PRNG is "seeded out-of-band by
/// PseudoSetRngSeed/RandSetState" (rng-facts §4.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedTargets {
    /// Every state the engine holds (XORWOW and LFSR banks alike), in arm-table order.
    EveryState,
    /// Only the engine's XORWOW state.
    XorwowOnly,
}

/// Where a POINTER_IMMEDIATE operand (RAND2 `min`/`max`, DROPOUT `threshold`) is read for each lane.
///
/// Source: the IMM_SRC comment says the instruction "holds a partition offset
/// to the value" (rng-facts §1.9); NKI allows "scalar or vector" bounds and a
/// `(partitions, 1)` dropout probability (rng-facts §5), which per-lane
/// reading serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointerOperands {
    /// Lane `k` reads the value `k` partitions after the pointer's partition, at the same offset (a `[channels, 1]` tensor).
    PerLane,
    /// Every lane reads the one value at the pointer.
    Broadcast,
}

/// Every undocumented hardware detail the models depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelChoices {
    /// LFSR feedback taps, 1-based bit positions, the register width (32) first.
    ///
    /// Source: rng-facts §4.4 — the simulator's gen-1 LFSR (SIM §2.1, rodata
    /// `{32, 22, 2, 1}`, polynomial x³²+x²²+x²+x+1, Fibonacci, output = new
    /// state). NOT confirmed on hardware: the firmware recurrence is
    /// unrecovered (rng-facts §6 item 1).
    pub lfsr_taps: [u8; 4],
    /// Where counter, key and offset sit in the 7 Philox words (see [`PhiloxLayout`]).
    pub philox_layout: PhiloxLayout,
    /// What the Philox offset word means (see [`PhiloxOffset`]).
    pub philox_offset: PhiloxOffset,
    /// Which of the two PCG32 checkpoint words holds the low half of the 64-bit state (0 or 1).
    ///
    /// Source: rng-facts §4.5 (ENC "word0|word1 = uint64 LCG state"; which
    /// word is low is UNKNOWN, rng-facts §6 item 3). Choice: 0, little-endian.
    pub pcg32_low_word: u8,
    /// The PCG32 increment (odd) of the engine's generator; it is not part of the checkpoint.
    ///
    /// Source: rng-facts §4.5, the simulator's fixed constant
    /// `0x14057B7EF767814F` (SIM §2.1). Alternative: pcg-c's default
    /// `1442695040888963407` (anchors §C.7).
    pub pcg32_increment: u64,
    /// How 24 DVE XORWOW words map to 4 sub-generators (see [`SubGeneratorLayout`]).
    pub dve_xorwow_layout: SubGeneratorLayout,
    /// The restore zero-guard of XORWOW (see [`ZeroGuard`]).
    pub zero_guard: ZeroGuard,
    /// Power-on XORWOW state of every lane and sub-generator, in order x, y, z, w, v, d.
    ///
    /// Source: rng-facts §4.2 — x..v are the POOL firmware defaults (XSW §3,
    /// XTIE §4: `0x075BCD15 0x159A55E5 0x1F123BB5 0x05491333 0x00583F19`).
    /// Of `d` only the low half is known (`0xc934` on CAYMAN, `0xc924` on
    /// MARIANA; the high half is left over in a register, MED); the project
    /// chooses `0x0000C924` (MARIANA's low half, high half zero). It is not
    /// Marsaglia's `6615241`. The DVE default on hardware is unknown (the
    /// simulator uses all ones) — rng-facts §6 item 6.
    pub xorwow_default_seed: [u32; 6],
    /// Which sub-generator of a lane draws which element (see [`LaneInterleave`]).
    pub lane_interleave: LaneInterleave,
    /// How a draw becomes a uniform fp32 in `[0, 1)` (see [`UniformBits`]).
    pub uniform_bits: UniformBits,
    /// Rounding of `min + u·(max − min)` (see [`RangeArithmetic`]).
    pub range_arithmetic: RangeArithmetic,
    /// Rounding of fp32 to bf16 / fp16 / fp8 outputs (see [`FloatRounding`]).
    pub float_rounding: FloatRounding,
    /// Encoding of the FP8 dtype codes (see [`Fp8Encoding`]).
    pub fp8_encoding: Fp8Encoding,
    /// Conversion of fp32 to integer outputs (see [`FloatToInt`]).
    pub float_to_int: FloatToInt,
    /// How RAW_U32 fills a narrower integer output (see [`RawInteger`]).
    pub raw_integer: RawInteger,
    /// The per-lane state DROPOUT's "u32 LFSR per lane" draws from, on the executing engine.
    ///
    /// Source: the header says "each lane draws a 32-bit LFSR value" with no
    /// seed field (rng-facts §2.7, §4.4); which state that is, and whether
    /// RAND_GET_STATE(DVE, LFSR) captures it, is UNKNOWN (rng-facts §4.11,
    /// §6 item 12). Choice: the engine's `RNG_LFSR` / `LFSR` state (on DVE
    /// the 4-word bank RAND_GET_STATE(DVE, RNG_LFSR, LFSR) saves).
    /// Alternatives: `OUTPUT_CVT_LFSR` / `LFSR`; `RNG_XORWOW` / `XORWOW` (v4
    /// VectorE implements XORWOW in hardware, anchors §D).
    ///
    /// So in the model a DROPOUT mask is replayed by saving and restoring this state (on DVE
    /// with the reconstructed choice: `RAND_GET_STATE` / `RAND_SET_STATE` of `RNG_LFSR` / `LFSR`,
    /// 4 words per lane), not the XORWOW state RAND2 draws from: a kernel that saves DVE XORWOW
    /// around a DROPOUT gets another mask after the restore.
    pub dropout_state: StateRef,
    /// DROPOUT's comparison direction (see [`DropoutPolarity`]).
    pub dropout_polarity: DropoutPolarity,
    /// DROPOUT when `u == threshold` (see [`DropoutTie`]).
    pub dropout_tie: DropoutTie,
    /// PSEUDO_SET_RNG_SEED's seed expansion (see [`SeedExpansion`]).
    pub seed_expansion: SeedExpansion,
    /// The states PSEUDO_SET_RNG_SEED reseeds (see [`SeedTargets`]).
    pub seed_targets: SeedTargets,
    /// Where pointer operands are read per lane (see [`PointerOperands`]).
    pub pointer_operands: PointerOperands,
}

/// Why a [`ModelChoices`] value cannot drive the models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModelError {
    /// `lfsr_taps` must be four distinct positions in 1..=32 with 32 first.
    LfsrTaps {
        /// The taps given.
        taps: [u8; 4],
    },
    /// The Philox word indices must be seven distinct values in 0..7.
    PhiloxLayout {
        /// The layout given.
        layout: PhiloxLayout,
    },
    /// `pcg32_low_word` must be 0 or 1.
    Pcg32LowWord {
        /// The value given.
        word: u8,
    },
    /// `pcg32_increment` must be odd.
    Pcg32Increment {
        /// The value given.
        increment: u64,
    },
    /// `ZeroGuard::ForceWordToOne` must name a word in 0..=4 (x..v).
    ZeroGuardWord {
        /// The word given.
        word: u8,
    },
    /// `dropout_state` must pair a generator with its algorithm (`RNG_LFSR` or
    /// `OUTPUT_CVT_LFSR` with `LFSR`, `RNG_XORWOW` with `XORWOW`, `RNG_PHILOX` with `PHILOX`).
    DropoutState {
        /// The pair given.
        state: StateRef,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::LfsrTaps { taps } => write!(
                f,
                "lfsr_taps {taps:?}: need four distinct bit positions in 1..=32, 32 first"
            ),
            ModelError::PhiloxLayout { layout } => write!(
                f,
                "philox_layout {layout:?}: counter, key and offset need seven distinct word indices in 0..7"
            ),
            ModelError::Pcg32LowWord { word } => {
                write!(f, "pcg32_low_word {word}: must be 0 or 1")
            }
            ModelError::Pcg32Increment { increment } => {
                write!(f, "pcg32_increment {increment:#x}: must be odd")
            }
            ModelError::ZeroGuardWord { word } => write!(
                f,
                "zero_guard ForceWordToOne({word}): must name one of words 0..=4 (x..v)"
            ),
            ModelError::DropoutState { state } => write!(
                f,
                "dropout_state {} / {}: the generator does not run that algorithm",
                state.generator.name(),
                state.algorithm.name()
            ),
        }
    }
}

impl core::error::Error for ModelError {}

impl ModelChoices {
    /// The project's reconstruction: the choice named first in each field's documentation.
    pub const RECONSTRUCTED: ModelChoices = ModelChoices {
        lfsr_taps: [32, 22, 2, 1],
        philox_layout: PhiloxLayout {
            counter: [0, 1, 2, 3],
            key: [4, 5],
            offset: 6,
        },
        philox_offset: PhiloxOffset::WordInBlock,
        pcg32_low_word: 0,
        pcg32_increment: 0x1405_7B7E_F767_814F,
        dve_xorwow_layout: SubGeneratorLayout::SubGeneratorMajor,
        zero_guard: ZeroGuard::ForceWordToOne(4),
        xorwow_default_seed: [
            0x075B_CD15,
            0x159A_55E5,
            0x1F12_3BB5,
            0x0549_1333,
            0x0058_3F19,
            0x0000_C924,
        ],
        lane_interleave: LaneInterleave::RoundRobin,
        uniform_bits: UniformBits::Mantissa23,
        range_arithmetic: RangeArithmetic::Separate,
        float_rounding: FloatRounding::NearestEven,
        fp8_encoding: Fp8Encoding::Ieee,
        float_to_int: FloatToInt::NearestEvenSaturate,
        raw_integer: RawInteger::LowBits,
        dropout_state: StateRef {
            generator: Generator::RngLfsr,
            algorithm: Algorithm::Lfsr,
        },
        dropout_polarity: DropoutPolarity::DropBelow,
        dropout_tie: DropoutTie::Keep,
        seed_expansion: SeedExpansion::Mt19937_64Low32,
        seed_targets: SeedTargets::EveryState,
        pointer_operands: PointerOperands::PerLane,
    };

    /// Checks that the choices are self-consistent (usable in `const` context).
    pub const fn check(&self) -> Result<(), ModelError> {
        let taps = self.lfsr_taps;
        if taps[0] != 32 {
            return Err(ModelError::LfsrTaps { taps });
        }
        let mut i = 0;
        while i < 4 {
            if taps[i] == 0 || taps[i] > 32 {
                return Err(ModelError::LfsrTaps { taps });
            }
            let mut j = i + 1;
            while j < 4 {
                if taps[i] == taps[j] {
                    return Err(ModelError::LfsrTaps { taps });
                }
                j += 1;
            }
            i += 1;
        }
        let layout = self.philox_layout;
        let words = layout.words();
        let mut seen = 0u8;
        let mut k = 0;
        while k < 7 {
            if words[k] >= 7 || seen & (1 << words[k]) != 0 {
                return Err(ModelError::PhiloxLayout { layout });
            }
            seen |= 1 << words[k];
            k += 1;
        }
        if self.pcg32_low_word > 1 {
            return Err(ModelError::Pcg32LowWord {
                word: self.pcg32_low_word,
            });
        }
        if self.pcg32_increment & 1 == 0 {
            return Err(ModelError::Pcg32Increment {
                increment: self.pcg32_increment,
            });
        }
        if let ZeroGuard::ForceWordToOne(word) = self.zero_guard {
            if word > ZeroGuard::MAX_WORD {
                return Err(ModelError::ZeroGuardWord { word });
            }
        }
        if !self.dropout_state.is_consistent() {
            return Err(ModelError::DropoutState {
                state: self.dropout_state,
            });
        }
        Ok(())
    }

    /// The LFSR feedback mask: bit `t - 1` set for every tap `t`.
    pub const fn lfsr_tap_mask(&self) -> u32 {
        let mut mask = 0u32;
        let mut i = 0;
        while i < 4 {
            let t = self.lfsr_taps[i];
            if t >= 1 && t <= 32 {
                mask |= 1 << (t - 1);
            }
            i += 1;
        }
        mask
    }
}

impl PhiloxLayout {
    /// The record index of logical word `i`, for `i` in order c0, c1, c2, c3, k0, k1, offset.
    pub const fn words(&self) -> [u8; 7] {
        [
            self.counter[0],
            self.counter[1],
            self.counter[2],
            self.counter[3],
            self.key[0],
            self.key[1],
            self.offset,
        ]
    }
}

impl StateRef {
    /// True when the generator runs the algorithm (the pairs the checkpoint arms use).
    pub const fn is_consistent(&self) -> bool {
        matches!(
            (self.generator, self.algorithm),
            (
                Generator::RngLfsr | Generator::OutputCvtLfsr,
                Algorithm::Lfsr
            ) | (Generator::RngXorwow, Algorithm::Xorwow)
                | (Generator::RngPhilox, Algorithm::Philox)
        )
    }
}

impl Default for ModelChoices {
    fn default() -> Self {
        ModelChoices::RECONSTRUCTED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconstructed_is_consistent_and_matches_the_documented_choices() {
        let m = ModelChoices::RECONSTRUCTED;
        assert_eq!(m.check(), Ok(()));
        assert_eq!(m.lfsr_tap_mask(), (1 << 31) | (1 << 21) | (1 << 1) | 1);
        assert_eq!(m.philox_layout.words(), [0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn inconsistent_choices_are_named() {
        let base = ModelChoices::RECONSTRUCTED;
        let cases = [
            (
                ModelChoices {
                    lfsr_taps: [32, 22, 22, 1],
                    ..base
                },
                "lfsr_taps",
            ),
            (
                ModelChoices {
                    lfsr_taps: [31, 22, 2, 1],
                    ..base
                },
                "lfsr_taps",
            ),
            (
                ModelChoices {
                    lfsr_taps: [32, 33, 2, 1],
                    ..base
                },
                "lfsr_taps",
            ),
            (
                ModelChoices {
                    philox_layout: PhiloxLayout {
                        counter: [0, 1, 2, 3],
                        key: [4, 4],
                        offset: 6,
                    },
                    ..base
                },
                "philox_layout",
            ),
            (
                ModelChoices {
                    philox_layout: PhiloxLayout {
                        counter: [0, 1, 2, 3],
                        key: [4, 5],
                        offset: 7,
                    },
                    ..base
                },
                "philox_layout",
            ),
            (
                ModelChoices {
                    pcg32_low_word: 2,
                    ..base
                },
                "pcg32_low_word",
            ),
            (
                ModelChoices {
                    pcg32_increment: 2,
                    ..base
                },
                "pcg32_increment",
            ),
            (
                ModelChoices {
                    zero_guard: ZeroGuard::ForceWordToOne(5),
                    ..base
                },
                "zero_guard",
            ),
            (
                ModelChoices {
                    dropout_state: StateRef {
                        generator: Generator::RngXorwow,
                        algorithm: Algorithm::Lfsr,
                    },
                    ..base
                },
                "dropout_state",
            ),
        ];
        for (model, field) in cases {
            let err = model.check().expect_err(field);
            extern crate std;
            use std::string::ToString;
            assert!(err.to_string().starts_with(field), "{err}");
        }
    }
}
