//! The 32-bit Fibonacci LFSR of the Neuron simulator — a model NOT confirmed on hardware.
//!
//! The only documented recurrence is the simulator's gen-1 `InstRand`
//! (rng-facts §4.4, SIM §2.1): taps `{32, 22, 2, 1}`, polynomial
//! x³²+x²²+x²+x+1, feedback `b = s[31] ^ s[21] ^ s[1] ^ s[0]`, `s = (s << 1) | b`,
//! output = the new state. The firmware's recurrence was not recovered
//! (rng-facts §6 item 1), so the taps are a model choice
//! ([`crate::model::ModelChoices::lfsr_taps`]) and every stream here is the
//! simulator's, not necessarily the hardware's.

use crate::model::ModelChoices;
use core::fmt;
use rand_core::SeedableRng;

/// The simulator's taps (rng-facts §4.4).
pub const SIMULATOR_TAPS: [u8; 4] = [32, 22, 2, 1];

/// One step with feedback mask `mask` (bit `t - 1` per tap `t`): the new state, which is also the output.
#[inline(always)]
pub const fn step(state: u32, mask: u32) -> u32 {
    // Parity by shift-folding (vectorises where a vector popcount does not exist).
    let mut b = state & mask;
    b ^= b >> 16;
    b ^= b >> 8;
    b ^= b >> 4;
    b ^= b >> 2;
    b ^= b >> 1;
    (state << 1) | (b & 1)
}

/// Taps that do not describe a 32-bit Fibonacci register (see [`ModelChoices::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidTaps {
    /// The taps given.
    pub taps: [u8; 4],
}

impl fmt::Display for InvalidTaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LFSR taps {:?}: need four distinct bit positions in 1..=32, 32 first",
            self.taps
        )
    }
}

impl core::error::Error for InvalidTaps {}

/// A single 32-bit Fibonacci LFSR (model not confirmed on hardware).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lfsr32 {
    state: u32,
    mask: u32,
}

impl Lfsr32 {
    /// The simulator's register (taps 32, 22, 2, 1) in `state`.
    ///
    /// State 0 is a fixed point (the stream is all zeros); it is kept as given.
    pub const fn new(state: u32) -> Self {
        Lfsr32 {
            state,
            mask: ModelChoices::RECONSTRUCTED.lfsr_tap_mask(),
        }
    }

    /// A register with other taps (1-based bit positions, 32 first).
    pub const fn with_taps(state: u32, taps: [u8; 4]) -> Result<Self, InvalidTaps> {
        let model = ModelChoices {
            lfsr_taps: taps,
            ..ModelChoices::RECONSTRUCTED
        };
        if model.check().is_err() {
            return Err(InvalidTaps { taps });
        }
        Ok(Lfsr32 {
            state,
            mask: model.lfsr_tap_mask(),
        })
    }

    /// The current state (the last output).
    pub const fn state(&self) -> u32 {
        self.state
    }

    /// Advances one step and returns the new state.
    pub fn step(&mut self) -> u32 {
        self.state = step(self.state, self.mask);
        self.state
    }
}

impl_rng_core_via_u32!(Lfsr32, step);

impl SeedableRng for Lfsr32 {
    /// The 32-bit state, little-endian; the simulator's taps.
    type Seed = [u8; 4];

    fn from_seed(seed: Self::Seed) -> Self {
        Lfsr32::new(u32::from_le_bytes(seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_is_the_xor_of_bits_31_21_1_0() {
        // Only bit 31 set: feedback 1, shifted out.
        assert_eq!(Lfsr32::new(0x8000_0000).step(), 1);
        // Bits 31 and 21: feedback 0.
        assert_eq!(Lfsr32::new(0x8020_0000).step(), 0x0040_0000);
        // Bit 1 alone: feedback 1.
        assert_eq!(Lfsr32::new(2).step(), 5);
        assert_eq!(Lfsr32::new(0).step(), 0);
    }

    #[test]
    fn bad_taps_are_refused() {
        assert_eq!(
            Lfsr32::with_taps(1, [32, 32, 2, 1]),
            Err(InvalidTaps {
                taps: [32, 32, 2, 1]
            })
        );
        let mut other = Lfsr32::with_taps(1, [32, 31, 30, 10]).unwrap();
        assert_eq!(other.step(), 2);
    }
}
