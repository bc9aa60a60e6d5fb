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

/// Meaning of the Philox "counter offset" word.
///
/// Source: rng-facts §4.6 (the header names a "4-byte counter offset"; its
/// meaning is UNKNOWN, rng-facts §6 item 2). The project's reading follows
/// cuRAND's `STATE` index into the current output block (anchors §C.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhiloxOffset {
    /// The offset word is the index (0..4) of the next output word inside the
    /// block of the current counter; a value `>= 4` means "block used up": the
    /// next draw first increments the counter and continues at index 0. The
    /// counter words are the current block's counter, so a saved state
    /// restores exactly (`set(get(s)) == s`).
    WordInBlock,
    /// The counter words are a fixed start; the offset word counts the words
    /// drawn since it. The next word is word `offset % 4` of
    /// `block(start + offset / 4)`. When the offset wraps past `u32::MAX` the
    /// start advances by 2^30 blocks, so the position is never lost.
    WordsFromStart,
}

/// How the 24 words of a DVE XORWOW checkpoint map to its 4 sub-generators.
///
/// Source: rng-facts §4.3 and §6 item 4 (ENC: "4× XorwowState, each 6
/// uint32"; SIM §2.3: on restore "the 24-byte sub-blocks are transposed in
/// DWORD order"); the exact mapping is UNKNOWN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SubGeneratorLayout {
    /// Words `[6g, 6g + 6)` are sub-generator `g`'s x, y, z, w, v, d (ENC's reading).
    SubGeneratorMajor,
    /// Word `k·G + g` (G sub-generators, 4 on DVE) is word `k` (x, y, z, w, v, d)
    /// of sub-generator `g`: the simulator's "transposed" reading.
    WordMajor,
}

/// What RAND_SET_STATE does to an XORWOW (sub-)generator whose words 0..4 (x..v) are all zero.
///
/// Source: rng-facts §4.7 (CONFLICT): the simulator forces `word[4] = 1`
/// (SIM §2.3), the compiler-side reading forces `word[0] = 1` (ENC);
/// whether the hardware has a guard at all is UNKNOWN (rng-facts §6 item 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZeroGuard {
    /// Set this word (0..=4, counted inside the sub-generator's x, y, z, w, v, d) to 1.
    ForceWordToOne(u8),
    /// Restore the words as given (an all-zero x..v state then stays dead).
    Disabled,
}

/// Which sub-generator of a lane produces which element of a draw.
///
/// Source: rng-facts §4.3 ("element→sub-generator mapping UNKNOWN", SIM §2.2)
/// and anchors §D (v4 VectorE "4 × 32-bit values per lane per cycle"). The
/// element index counts from 0 at the start of every draw (every
/// instruction), so no hidden position outlives the checkpoint words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneInterleave {
    /// Element `j` comes from sub-generator `j % k`; only the sub-generators
    /// that produce an element advance.
    RoundRobin,
    /// As `RoundRobin`, but the `k` sub-generators step together: a trailing
    /// group of fewer than `k` elements still steps all `k` and discards the
    /// surplus outputs (the "4 values per lane per cycle" reading).
    Lockstep,
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
            if word > 4 {
                return Err(ModelError::ZeroGuardWord { word });
            }
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
        ];
        for (model, field) in cases {
            let err = model.check().expect_err(field);
            extern crate std;
            use std::string::ToString;
            assert!(err.to_string().starts_with(field), "{err}");
        }
    }
}
