//! Marsaglia's xorwow, as the Neuron simulator and firmware run it.
//!
//! State order (the checkpoint order) x, y, z, w, v, d; shifts 2, 1, 4; Weyl
//! increment 362437; the output is `v + d` after the update (rng-facts §4.2,
//! SIM §2.2; Marsaglia 2003, anchors §C.8).

use rand_core::SeedableRng;

/// The Weyl-sequence increment added to `d` every step (`0x000587C5`).
pub const WEYL: u32 = 362_437;

/// Marsaglia's published default state `x, y, z, w, v, d` (anchors §C.8).
pub const MARSAGLIA_STATE: [u32; 6] = [
    123_456_789,
    362_436_069,
    521_288_629,
    88_675_123,
    5_783_321,
    6_615_241,
];

/// One xorwow step on the six words, returning the new words and the output.
///
/// Written on values so that the lane-parallel banks ([`crate::bank`]) and
/// [`Xorwow`] share one definition and the bank loop still vectorises.
#[inline(always)]
pub const fn step(s: [u32; 6]) -> ([u32; 6], u32) {
    let [x, y, z, w, v, d] = s;
    let v_new = next_v(x, v);
    let d_new = d.wrapping_add(WEYL);
    ([y, z, w, v, v_new, d_new], v_new.wrapping_add(d_new))
}

/// The new `v` of a step from the old `x` and `v` (the xorshift part of [`step`]; the bank's
/// kernel applies it a whole register of lanes at a time).
#[inline(always)]
pub(crate) const fn next_v(x: u32, v: u32) -> u32 {
    let t = x ^ (x >> 2);
    (v ^ (v << 4)) ^ (t ^ (t << 1))
}

/// A single xorwow generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xorwow {
    state: [u32; 6],
}

impl Xorwow {
    /// A generator in state `x, y, z, w, v, d`, taken verbatim.
    ///
    /// An all-zero `x..v` is the dead state of the xorshift part (the stream
    /// is then `d` alone); it is kept as given. Whether and how the hardware guards against it on
    /// a restore is unknown; the model's restore applies `ModelChoices::zero_guard` before it
    /// builds the generator, so this constructor stays a plain bit-exact one.
    pub const fn from_state(state: [u32; 6]) -> Self {
        Xorwow { state }
    }

    /// The current state `x, y, z, w, v, d`.
    pub const fn state(&self) -> [u32; 6] {
        self.state
    }

    /// Advances one step and returns `v + d`.
    pub fn step(&mut self) -> u32 {
        let (next, out) = step(self.state);
        self.state = next;
        out
    }
}

impl Default for Xorwow {
    /// Marsaglia's published default state.
    fn default() -> Self {
        Xorwow::from_state(MARSAGLIA_STATE)
    }
}

impl_rng_core_via_u32!(Xorwow, step);

impl SeedableRng for Xorwow {
    /// The six state words x, y, z, w, v, d, each little-endian: 24 bytes.
    type Seed = [u8; 24];

    fn from_seed(seed: Self::Seed) -> Self {
        let mut state = [0u32; 6];
        rand_core::le::read_u32_into(&seed, &mut state);
        Xorwow::from_state(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn seed_is_the_six_words_little_endian() {
        let mut seed = [0u8; 24];
        for (k, chunk) in seed.chunks_mut(4).enumerate() {
            chunk.copy_from_slice(&MARSAGLIA_STATE[k].to_le_bytes());
        }
        assert_eq!(Xorwow::from_seed(seed), Xorwow::default());
    }

    #[test]
    fn next_u64_puts_the_first_output_low() {
        let mut a = Xorwow::default();
        let mut b = Xorwow::default();
        let lo = u64::from(a.next_u32());
        let hi = u64::from(a.next_u32());
        assert_eq!(b.next_u64(), lo | (hi << 32));
    }

    #[test]
    fn dead_xorshift_state_is_kept_and_yields_the_weyl_sequence() {
        let mut g = Xorwow::from_state([0, 0, 0, 0, 0, 7]);
        assert_eq!(g.next_u32(), 7 + WEYL);
        assert_eq!(g.next_u32(), 7 + 2 * WEYL);
    }
}
