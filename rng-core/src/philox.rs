//! Philox4x32-10, exactly as Random123 defines it.
//!
//! A block function of a 4-word counter and a 2-word key (anchors §C.6,
//! DEShawResearch/random123 `include/Random123/philox.h`; the simulator's
//! constants, rng-facts §4.6). The stream is the words of `block(counter)`,
//! then `block(counter + 1)`, …, the counter incremented as a 128-bit integer
//! with `c0` least significant.

use rand_core::SeedableRng;

/// Multiplier applied to counter word 0 (`PHILOX_M4x32_0`).
pub const M0: u32 = 0xD251_1F53;
/// Multiplier applied to counter word 2 (`PHILOX_M4x32_1`).
pub const M1: u32 = 0xCD9E_8D57;
/// Key bump added to key word 0 between rounds (`PHILOX_W32_0`).
pub const W0: u32 = 0x9E37_79B9;
/// Key bump added to key word 1 between rounds (`PHILOX_W32_1`).
pub const W1: u32 = 0xBB67_AE85;

#[inline(always)]
const fn mulhilo(a: u32, b: u32) -> (u32, u32) {
    let p = (a as u64) * (b as u64);
    ((p >> 32) as u32, p as u32)
}

#[inline(always)]
const fn round(c: [u32; 4], k: [u32; 2]) -> [u32; 4] {
    let (hi0, lo0) = mulhilo(M0, c[0]);
    let (hi1, lo1) = mulhilo(M1, c[2]);
    [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]
}

/// Philox4x32 with `R` rounds: the key is bumped between rounds (`R - 1` bumps).
#[inline(always)]
pub const fn block_rounds<const R: usize>(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut c = counter;
    let mut k = key;
    let mut r = 0;
    while r < R {
        if r > 0 {
            k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
        }
        c = round(c, k);
        r += 1;
    }
    c
}

/// Philox4x32-10: the four output words of `counter` under `key`.
#[inline(always)]
pub const fn block(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    block_rounds::<10>(counter, key)
}

/// The counter as a 128-bit integer (`c0` least significant).
pub const fn counter_to_u128(counter: [u32; 4]) -> u128 {
    (counter[0] as u128)
        | ((counter[1] as u128) << 32)
        | ((counter[2] as u128) << 64)
        | ((counter[3] as u128) << 96)
}

/// The four counter words of a 128-bit integer (`c0` least significant).
pub const fn counter_from_u128(value: u128) -> [u32; 4] {
    [
        value as u32,
        (value >> 32) as u32,
        (value >> 64) as u32,
        (value >> 96) as u32,
    ]
}

/// `counter + n` modulo 2^128, with carry from `c0` upwards.
pub const fn add_to_counter(counter: [u32; 4], n: u128) -> [u32; 4] {
    counter_from_u128(counter_to_u128(counter).wrapping_add(n))
}

/// A single Philox4x32-10 stream.
///
/// The position is the counter of the current block and the index (0..=4) of
/// the next word in it; index 4 means the block is used up and the next draw
/// moves to `counter + 1` first. This is the checkpoint reading
/// [`crate::model::PhiloxOffset::WordInBlock`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Philox4x32 {
    counter: [u32; 4],
    key: [u32; 2],
    index: u32,
    // block(counter, key), kept in step with the counter.
    buffer: [u32; 4],
}

impl Philox4x32 {
    /// The stream starting at word 0 of `block(counter)`.
    pub const fn new(counter: [u32; 4], key: [u32; 2]) -> Self {
        Philox4x32::from_position(counter, key, 0)
    }

    /// The stream positioned at word `index` of `block(counter)`; any `index >= 4`
    /// means "block used up" (the next word is word 0 of `block(counter + 1)`).
    pub const fn from_position(counter: [u32; 4], key: [u32; 2], index: u32) -> Self {
        Philox4x32 {
            counter,
            key,
            index,
            buffer: block(counter, key),
        }
    }

    /// Counter of the current block.
    pub const fn counter(&self) -> [u32; 4] {
        self.counter
    }

    /// The key.
    pub const fn key(&self) -> [u32; 2] {
        self.key
    }

    /// Index of the next word inside the current block (values `>= 4`: used up).
    pub const fn index(&self) -> u32 {
        self.index
    }

    /// Jumps to word 0 of `block(counter)`, keeping the key.
    pub fn jump_to(&mut self, counter: [u32; 4]) {
        *self = Philox4x32::new(counter, self.key);
    }

    /// Skips `blocks` whole blocks (modulo 2^128), keeping the index inside the block.
    pub fn skip_blocks(&mut self, blocks: u128) {
        *self =
            Philox4x32::from_position(add_to_counter(self.counter, blocks), self.key, self.index);
    }

    /// The next word of the stream.
    pub fn next_word(&mut self) -> u32 {
        if self.index >= 4 {
            self.counter = add_to_counter(self.counter, 1);
            self.buffer = block(self.counter, self.key);
            self.index = 0;
        }
        let out = self.buffer[self.index as usize];
        self.index += 1;
        out
    }
}

impl_rng_core_via_u32!(Philox4x32, next_word);

impl SeedableRng for Philox4x32 {
    /// Counter `c0..c3` then key `k0, k1`, each word little-endian (24 bytes);
    /// the stream starts at word 0 of `block(counter)`.
    type Seed = [u8; 24];

    fn from_seed(seed: Self::Seed) -> Self {
        let mut words = [0u32; 6];
        rand_core::le::read_u32_into(&seed, &mut words);
        Philox4x32::new(
            [words[0], words[1], words[2], words[3]],
            [words[4], words[5]],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn counter_increment_carries_from_c0_up() {
        assert_eq!(add_to_counter([u32::MAX, 0, 0, 0], 1), [0, 1, 0, 0]);
        assert_eq!(
            add_to_counter([u32::MAX, u32::MAX, u32::MAX, 7], 1),
            [0, 0, 0, 8]
        );
        assert_eq!(add_to_counter([u32::MAX; 4], 1), [0; 4]);
        assert_eq!(add_to_counter([0; 4], u128::MAX), [u32::MAX; 4]);
    }

    #[test]
    fn stream_walks_blocks_in_counter_order() {
        let key = [0x1234_5678, 0x9abc_def0];
        let start = [u32::MAX, 3, 0, 0];
        let mut g = Philox4x32::new(start, key);
        let first: [u32; 4] = core::array::from_fn(|_| g.next_u32());
        let second: [u32; 4] = core::array::from_fn(|_| g.next_u32());
        assert_eq!(first, block(start, key));
        assert_eq!(second, block([0, 4, 0, 0], key));
        assert_eq!(g.counter(), [0, 4, 0, 0]);
        assert_eq!(g.index(), 4);
    }

    #[test]
    fn a_used_up_block_moves_on_and_an_inner_index_resumes() {
        let key = [1, 2];
        let mut used_up = Philox4x32::from_position([5, 0, 0, 0], key, 4);
        assert_eq!(used_up.next_u32(), block([6, 0, 0, 0], key)[0]);
        let mut mid = Philox4x32::from_position([5, 0, 0, 0], key, 2);
        assert_eq!(mid.next_u32(), block([5, 0, 0, 0], key)[2]);
        let mut far = Philox4x32::from_position([5, 0, 0, 0], key, 1000);
        assert_eq!(far.next_u32(), block([6, 0, 0, 0], key)[0]);
    }

    #[test]
    fn jump_and_skip_land_on_the_expected_blocks() {
        let key = [9, 9];
        let mut g = Philox4x32::new([0; 4], key);
        g.jump_to([0, 0, 1, 0]);
        assert_eq!(g.next_u32(), block([0, 0, 1, 0], key)[0]);
        g.skip_blocks(1 << 64);
        assert_eq!(g.counter(), [0, 0, 2, 0]);
        assert_eq!(g.next_u32(), block([0, 0, 2, 0], key)[1]);
    }

    #[test]
    fn seed_is_counter_then_key() {
        let mut seed = [0u8; 24];
        seed[0] = 7; // c0 = 7
        seed[16] = 3; // k0 = 3
        assert_eq!(
            Philox4x32::from_seed(seed),
            Philox4x32::new([7, 0, 0, 0], [3, 0])
        );
    }
}
