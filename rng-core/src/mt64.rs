//! MT19937-64 (Matsumoto and Nishimura's 64-bit Mersenne Twister, as C++'s `std::mt19937_64`).
//!
//! The simulator seeds an embedded MT19937-64 with PSEUDO_SET_RNG_SEED's scalar
//! (rng-facts §4.8: `mt[0] = seed`, `mt[i] = 0x5851F42D4C957F2D · (mt[i−1] ^
//! (mt[i−1] >> 62)) + i`, `mti = 312`) — the standard `init_genrand64`. How
//! its output becomes generator state is a model choice
//! ([`crate::model::SeedExpansion`]).

const NN: usize = 312;
const MM: usize = 156;
const MATRIX_A: u64 = 0xB502_6F5A_A966_19E9;
const UPPER: u64 = 0xFFFF_FFFF_8000_0000;
const LOWER: u64 = 0x7FFF_FFFF;

/// One MT19937-64 generator (2.5 KiB of state).
#[derive(Clone)]
pub struct Mt19937_64 {
    mt: [u64; NN],
    index: usize,
}

impl core::fmt::Debug for Mt19937_64 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Mt19937_64")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl Mt19937_64 {
    /// Seeded with `seed` (`init_genrand64`; C++'s default seed is 5489).
    pub fn new(seed: u64) -> Self {
        let mut mt = [0u64; NN];
        mt[0] = seed;
        for i in 1..NN {
            let prev = mt[i - 1];
            mt[i] = 0x5851_F42D_4C95_7F2D_u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
        }
        Mt19937_64 { mt, index: NN }
    }

    fn twist(&mut self) {
        let mix = |a: u64, b: u64| {
            let x = (a & UPPER) | (b & LOWER);
            (x >> 1) ^ if x & 1 == 1 { MATRIX_A } else { 0 }
        };
        for i in 0..NN {
            self.mt[i] = self.mt[(i + MM) % NN] ^ mix(self.mt[i], self.mt[(i + 1) % NN]);
        }
        self.index = 0;
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        if self.index >= NN {
            self.twist();
        }
        let mut x = self.mt[self.index];
        self.index += 1;
        x ^= (x >> 29) & 0x5555_5555_5555_5555;
        x ^= (x << 17) & 0x71D6_7FFF_EDA6_0000;
        x ^= (x << 37) & 0xFFF7_EEE0_0000_0000;
        x ^ (x >> 43)
    }
}
