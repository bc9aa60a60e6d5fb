//! PCG32 (PCG-XSH-RR, 64-bit state, 32-bit output), as in pcg-c.
//!
//! The output is taken from the old state, then the LCG advances
//! (imneme/pcg-c-basic `pcg32_random_r`, anchors §C.7; the simulator's step,
//! rng-facts §4.5). The engine's increment is a model choice
//! ([`crate::model::ModelChoices::pcg32_increment`], by default the
//! simulator's constant [`SIMULATOR_INCREMENT`]); any odd increment is allowed.

use core::fmt;
use rand_core::SeedableRng;

/// The LCG multiplier `6364136223846793005`.
pub const MULTIPLIER: u64 = 0x5851_F42D_4C95_7F2D;
/// The simulator's fixed increment (rng-facts §4.5, SIM §2.1).
pub const SIMULATOR_INCREMENT: u64 = 0x1405_7B7E_F767_814F;

/// The XSH-RR output of a 64-bit state.
#[inline(always)]
pub const fn output(state: u64) -> u32 {
    let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
    let rot = (state >> 59) as u32;
    xorshifted.rotate_right(rot)
}

/// One step: `(new state, output of the old state)`.
#[inline(always)]
pub const fn step(state: u64, increment: u64) -> (u64, u32) {
    (
        state.wrapping_mul(MULTIPLIER).wrapping_add(increment),
        output(state),
    )
}

/// The state after `delta` steps from `state` (Brown's arbitrary-stride
/// algorithm, O(log delta)). `delta` is taken modulo 2^64, so
/// `0u64.wrapping_sub(n)` steps back `n`.
pub const fn advance_state(state: u64, increment: u64, delta: u64) -> u64 {
    let mut acc_mult: u64 = 1;
    let mut acc_plus: u64 = 0;
    let mut cur_mult = MULTIPLIER;
    let mut cur_plus = increment;
    let mut d = delta;
    while d > 0 {
        if d & 1 == 1 {
            acc_mult = acc_mult.wrapping_mul(cur_mult);
            acc_plus = acc_plus.wrapping_mul(cur_mult).wrapping_add(cur_plus);
        }
        cur_plus = cur_mult.wrapping_add(1).wrapping_mul(cur_plus);
        cur_mult = cur_mult.wrapping_mul(cur_mult);
        d >>= 1;
    }
    acc_mult.wrapping_mul(state).wrapping_add(acc_plus)
}

/// An even PCG32 increment (the LCG then has a short period; pcg-c never makes one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvenIncrement {
    /// The increment given.
    pub increment: u64,
}

impl fmt::Display for EvenIncrement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PCG32 increment {:#x} is even; it must be odd",
            self.increment
        )
    }
}

impl core::error::Error for EvenIncrement {}

/// A single PCG32 generator: 64-bit state and odd increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pcg32 {
    state: u64,
    increment: u64,
}

impl Pcg32 {
    /// The raw generator `(state, increment)`, taken verbatim; the increment must be odd.
    pub const fn from_raw(state: u64, increment: u64) -> Result<Self, EvenIncrement> {
        if increment & 1 == 0 {
            return Err(EvenIncrement { increment });
        }
        Ok(Pcg32 { state, increment })
    }

    /// The raw state with the simulator's increment [`SIMULATOR_INCREMENT`].
    pub const fn from_state(state: u64) -> Self {
        Pcg32 {
            state,
            increment: SIMULATOR_INCREMENT,
        }
    }

    /// pcg-c's `pcg32_srandom_r(initstate, initseq)`: increment `(initseq << 1) | 1`,
    /// state 0, one step, add `initstate`, one step.
    pub const fn srandom(initstate: u64, initseq: u64) -> Self {
        let increment = (initseq << 1) | 1;
        let (state, _) = step(0, increment);
        let (state, _) = step(state.wrapping_add(initstate), increment);
        Pcg32 { state, increment }
    }

    /// The 64-bit LCG state (the next output is [`output`] of it).
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The increment.
    pub const fn increment(&self) -> u64 {
        self.increment
    }

    /// Moves `delta` steps on (modulo 2^64: a wrapped "negative" delta moves back).
    pub fn advance(&mut self, delta: u64) {
        self.state = advance_state(self.state, self.increment, delta);
    }

    /// The next output.
    pub fn step(&mut self) -> u32 {
        let (next, out) = step(self.state, self.increment);
        self.state = next;
        out
    }
}

impl_rng_core_via_u32!(Pcg32, step);

impl SeedableRng for Pcg32 {
    /// `initstate` then `initseq`, each a little-endian u64 (16 bytes), applied
    /// as [`Pcg32::srandom`], pcg-c's `pcg32_srandom_r`: the increment is
    /// `(initseq << 1) | 1`. That is `rand_pcg::Pcg32::new(state, stream)`, and
    /// **not** `rand_pcg::Pcg32::from_seed` (0.10), which takes the second word
    /// `| 1` as the increment itself, so the same 16 bytes seed another stream
    /// there (`tests/kat.rs` pins both against pcg-c's published output).
    type Seed = [u8; 16];

    fn from_seed(seed: Self::Seed) -> Self {
        let mut words = [0u64; 2];
        rand_core::le::read_u64_into(&seed, &mut words);
        Pcg32::srandom(words[0], words[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn even_increments_are_refused_by_name() {
        assert_eq!(Pcg32::from_raw(1, 4), Err(EvenIncrement { increment: 4 }));
        assert!(Pcg32::from_raw(1, 5).is_ok());
    }

    #[test]
    fn from_state_uses_the_simulator_increment() {
        let g = Pcg32::from_state(99);
        assert_eq!(g.increment(), 0x1405_7B7E_F767_814F);
        let mut a = g;
        let mut b = Pcg32::from_raw(99, SIMULATOR_INCREMENT).unwrap();
        assert_eq!(a.next_u32(), b.next_u32());
    }

    #[test]
    fn advance_zero_is_identity_and_advance_composes() {
        let mut a = Pcg32::srandom(7, 11);
        let before = a;
        a.advance(0);
        assert_eq!(a, before);
        let mut b = before;
        a.advance(1000);
        b.advance(400);
        b.advance(600);
        assert_eq!(a, b);
    }
}
