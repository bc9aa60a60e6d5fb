//! Lane banks: the state of one generator of one engine, for all 128 lanes.
//!
//! A [`Bank`] stores its words as structure-of-arrays: one `[u32; LANES]` row
//! per logical state word (per sub-generator word), so a step over all lanes
//! is a straight loop over arrays that the compiler vectorises. The rows hold
//! the state in the model's logical order; the checkpoint record order
//! (RAND_GET_STATE / RAND_SET_STATE) is applied only when a lane is read or
//! written, from the [`ModelChoices`] the bank was made with.
//!
//! Shapes (rng-facts §3.4, §4.3): Pool XORWOW 1 × 6 words, DVE XORWOW
//! 4 sub-generators × 6 = 24, LFSR 1 / 4 / 2 sub-generators of one word
//! (Pool / DVE / Act), Philox 7 words, PCG32 2 words.

use crate::dispatch::{self, Level};
use crate::generation::Algorithm;
use crate::kernel::{self, Chunks, Fill, Job, Owned, PhiloxDraw};
use crate::model::{LaneInterleave, ModelChoices, PhiloxOffset, SubGeneratorLayout, ZeroGuard};
use crate::philox;
use core::fmt;

/// Lanes (partitions) of a bank.
pub const LANES: usize = 128;
/// Most state words of one lane (DVE XORWOW).
pub const MAX_WORDS: usize = 24;
/// Most sub-generators of one lane.
pub const MAX_SUB_GENERATORS: usize = 4;

/// One row of a bank: a word for every lane.
pub type LaneRow = [u32; LANES];

/// What kind of generator a bank holds, and how many per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BankShape {
    /// `sub_generators` (1..=4) XORWOW generators of 6 words per lane.
    Xorwow {
        /// Sub-generators per lane.
        sub_generators: u8,
    },
    /// `sub_generators` (1..=4) one-word LFSRs per lane.
    Lfsr {
        /// Sub-generators per lane.
        sub_generators: u8,
    },
    /// One Philox4x32-10 stream per lane: 4 counter words, 2 key words, 1 offset word.
    Philox,
    /// One PCG32 state per lane: 2 words (the increment is the model's).
    Pcg32,
}

/// A checkpoint width that no bank shape of the algorithm has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShapeError {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The words per lane asked for.
    pub words: u8,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} has no lane state of {} words (XORWOW 6·k, LFSR k for k in 1..=4, PHILOX 7, PCG32 2)",
            self.algorithm, self.words
        )
    }
}

impl core::error::Error for ShapeError {}

impl BankShape {
    /// The shape of a checkpoint arm of `algorithm` with `words` words per lane.
    pub const fn for_arm(algorithm: Algorithm, words: u8) -> Result<BankShape, ShapeError> {
        let max = MAX_SUB_GENERATORS as u8;
        match algorithm {
            Algorithm::Xorwow if words.is_multiple_of(6) && words >= 6 && words / 6 <= max => {
                Ok(BankShape::Xorwow {
                    sub_generators: words / 6,
                })
            }
            Algorithm::Lfsr if words >= 1 && words <= max => Ok(BankShape::Lfsr {
                sub_generators: words,
            }),
            Algorithm::Philox if words == 7 => Ok(BankShape::Philox),
            Algorithm::Pcg32 if words == 2 => Ok(BankShape::Pcg32),
            _ => Err(ShapeError { algorithm, words }),
        }
    }

    /// State words per lane.
    pub const fn words(&self) -> usize {
        match *self {
            BankShape::Xorwow { sub_generators } => 6 * sub_generators as usize,
            BankShape::Lfsr { sub_generators } => sub_generators as usize,
            BankShape::Philox => 7,
            BankShape::Pcg32 => 2,
        }
    }

    /// The algorithm.
    pub const fn algorithm(&self) -> Algorithm {
        match self {
            BankShape::Xorwow { .. } => Algorithm::Xorwow,
            BankShape::Lfsr { .. } => Algorithm::Lfsr,
            BankShape::Philox => Algorithm::Philox,
            BankShape::Pcg32 => Algorithm::Pcg32,
        }
    }
}

/// Why a bank operation was refused (nothing was changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BankError {
    /// A lane index at or past [`LANES`].
    Lane {
        /// The lane asked for.
        lane: usize,
    },
    /// A channel (active lane) count outside `1..=LANES`.
    Channels {
        /// The count given.
        channels: usize,
    },
    /// A lane record of the wrong length.
    Words {
        /// Words given.
        found: usize,
        /// Words per lane of the bank.
        expected: usize,
    },
    /// A part of a draw that does not lie inside the draw.
    Span {
        /// First element of the part.
        first: u64,
        /// Elements in the part.
        len: usize,
        /// Elements in the whole draw.
        total: u64,
    },
    /// Zero generator steps per element.
    Steps,
}

impl fmt::Display for BankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BankError::Lane { lane } => write!(f, "lane {lane} is out of range 0..{LANES}"),
            BankError::Channels { channels } => {
                write!(f, "{channels} active lanes: must be in 1..={LANES}")
            }
            BankError::Words { found, expected } => write!(
                f,
                "lane record of {found} words; this generator has {expected} words per lane"
            ),
            BankError::Span { first, len, total } => write!(
                f,
                "elements {first}..{} are not inside a draw of {total}",
                *first + *len as u64
            ),
            BankError::Steps => write!(f, "an element needs at least one generator step"),
        }
    }
}

impl core::error::Error for BankError {}

/// Where a part of a draw lies in the whole draw (one instruction's elements per lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawSpan {
    /// Elements per lane of the whole draw.
    pub total: u64,
    /// Index of the part's first element in the draw.
    pub first: u64,
    /// Generator steps per element (the element is the last output); at least 1.
    pub steps: u8,
}

/// The checkpoint record of one lane (at most [`MAX_WORDS`] words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneRecord {
    words: [u32; MAX_WORDS],
    len: u8,
}

impl LaneRecord {
    /// The words, in checkpoint order.
    pub fn as_slice(&self) -> &[u32] {
        &self.words[..usize::from(self.len)]
    }
}

/// The state of one generator for all [`LANES`] lanes.
#[derive(Clone, PartialEq, Eq)]
pub struct Bank {
    shape: BankShape,
    model: ModelChoices,
    rows: [LaneRow; MAX_WORDS],
}

impl fmt::Debug for Bank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bank")
            .field("shape", &self.shape)
            .field("lane0", &self.lane(0).map(|r| r.words))
            .finish_non_exhaustive()
    }
}

fn check_channels(channels: usize) -> Result<usize, BankError> {
    if (1..=LANES).contains(&channels) {
        Ok(channels)
    } else {
        Err(BankError::Channels { channels })
    }
}

/// SplitMix64 (Vigna), for [`Bank::seed_lanes`].
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Bank {
    /// A bank in the model's power-on state: XORWOW lanes (every sub-generator)
    /// hold `model.xorwow_default_seed`; the other generators start at zero
    /// (their power-on state is undocumented; an LFSR at zero stays zero, so
    /// restore or seed it before drawing).
    pub fn new(shape: BankShape, model: ModelChoices) -> Bank {
        let mut rows = [[0u32; LANES]; MAX_WORDS];
        if let BankShape::Xorwow { sub_generators } = shape {
            for g in 0..usize::from(sub_generators) {
                for (i, word) in model.xorwow_default_seed.iter().enumerate() {
                    rows[6 * g + i] = [*word; LANES];
                }
            }
        }
        Bank { shape, model, rows }
    }

    /// The shape.
    pub fn shape(&self) -> BankShape {
        self.shape
    }

    /// The model choices the bank follows.
    pub fn model(&self) -> &ModelChoices {
        &self.model
    }

    /// State words per lane.
    pub fn words(&self) -> usize {
        self.shape.words()
    }

    /// The checkpoint record index of logical row `row`.
    fn record_index(&self, row: usize) -> usize {
        match self.shape {
            BankShape::Xorwow { sub_generators } => match self.model.dve_xorwow_layout {
                SubGeneratorLayout::SubGeneratorMajor => row,
                SubGeneratorLayout::WordMajor => (row % 6) * usize::from(sub_generators) + row / 6,
            },
            BankShape::Lfsr { .. } => row,
            BankShape::Philox => usize::from(self.model.philox_layout.words()[row]),
            BankShape::Pcg32 => row ^ usize::from(self.model.pcg32_low_word),
        }
    }

    /// Lane `lane`'s state as its checkpoint record.
    pub fn lane(&self, lane: usize) -> Result<LaneRecord, BankError> {
        if lane >= LANES {
            return Err(BankError::Lane { lane });
        }
        let mut record = LaneRecord {
            words: [0; MAX_WORDS],
            len: self.words() as u8,
        };
        for row in 0..self.words() {
            record.words[self.record_index(row)] = self.rows[row][lane];
        }
        Ok(record)
    }

    /// Writes `lane`'s state from a checkpoint record, applying the model's XORWOW zero-guard.
    pub fn set_lane(&mut self, lane: usize, record: &[u32]) -> Result<(), BankError> {
        if lane >= LANES {
            return Err(BankError::Lane { lane });
        }
        if record.len() != self.words() {
            return Err(BankError::Words {
                found: record.len(),
                expected: self.words(),
            });
        }
        for row in 0..self.words() {
            self.rows[row][lane] = record[self.record_index(row)];
        }
        self.guard_lane(lane);
        Ok(())
    }

    /// The restore zero-guard (rng-facts §4.7): an XORWOW sub-generator whose
    /// x..v are all zero gets the model's word forced to 1.
    fn guard_lane(&mut self, lane: usize) {
        let (BankShape::Xorwow { sub_generators }, ZeroGuard::ForceWordToOne(word)) =
            (self.shape, self.model.zero_guard)
        else {
            return;
        };
        for g in 0..usize::from(sub_generators) {
            if (0..5).all(|i| self.rows[6 * g + i][lane] == 0) {
                self.rows[6 * g + usize::from(word)][lane] = 1;
            }
        }
    }

    /// Fills every lane with a state derived from `seed` (SplitMix64 per lane
    /// and word). A convenience for tests and tools, not a hardware seeding
    /// path (that is undocumented, rng-facts §6 item 6): XORWOW gets the
    /// zero-guard, a Philox lane starts at word 0 of its counter, and an LFSR
    /// word that comes out zero is set to 1.
    pub fn seed_lanes(&mut self, seed: u64) {
        let mut state = seed;
        for lane in 0..LANES {
            for row in 0..self.words() {
                self.rows[row][lane] = splitmix64(&mut state) as u32;
            }
            match self.shape {
                BankShape::Philox => self.rows[6][lane] = 0,
                BankShape::Lfsr { sub_generators } => {
                    for g in 0..usize::from(sub_generators) {
                        if self.rows[g][lane] == 0 {
                            self.rows[g][lane] = 1;
                        }
                    }
                }
                _ => self.guard_lane(lane),
            }
        }
    }

    /// Draws `out.len()` consecutive elements for lanes `0..channels`:
    /// `out[j][p]` is element `j` of lane `p`. Lanes at or past `channels`
    /// neither advance nor are written.
    ///
    /// With several sub-generators per lane the element index counts from 0 in
    /// every call and maps to sub-generators by [`ModelChoices::lane_interleave`].
    pub fn draw(&mut self, channels: usize, out: &mut [LaneRow]) -> Result<(), BankError> {
        let span = DrawSpan {
            total: out.len() as u64,
            first: 0,
            steps: 1,
        };
        self.draw_part(channels, span, out)
    }

    /// Draws elements `span.first .. span.first + out.len()` of one draw
    /// (one instruction) of `span.total` elements, so that an instruction's
    /// elements can be drawn a part at a time with the same result as in one
    /// call: the element index, which picks the sub-generator
    /// ([`ModelChoices::lane_interleave`]), counts from 0 at the start of the
    /// draw, and the part that reaches `total` finishes the draw (the
    /// `Lockstep` surplus steps). Each element is the last of `span.steps`
    /// consecutive outputs of its (sub-)generator (RAND's `rand_num_steps`).
    /// Checked before anything moves: channels, `steps >= 1`, the part inside the draw.
    pub fn draw_part(
        &mut self,
        channels: usize,
        span: DrawSpan,
        out: &mut [LaneRow],
    ) -> Result<(), BankError> {
        self.draw_part_at(Level::best(), channels, span, out)
    }

    /// [`Bank::draw_part`] with the kernels run at `level` (the tests run every level).
    fn draw_part_at(
        &mut self,
        level: Level,
        channels: usize,
        span: DrawSpan,
        out: &mut [LaneRow],
    ) -> Result<(), BankError> {
        let n = check_channels(channels)?;
        if span.steps == 0 {
            return Err(BankError::Steps);
        }
        let inside = span
            .first
            .checked_add(out.len() as u64)
            .is_some_and(|end| end <= span.total);
        if !inside {
            return Err(BankError::Span {
                first: span.first,
                len: out.len(),
                total: span.total,
            });
        }
        match self.shape {
            BankShape::Xorwow { sub_generators } => {
                self.interleave(level, kernel::Xorwow, 6, sub_generators, n, span, out)
            }
            BankShape::Lfsr { sub_generators } => {
                let mask = self.model.lfsr_tap_mask();
                match kernel::Lfsr::four_taps(mask) {
                    Some(gen) => {
                        self.interleave(level, Chunks(gen), 1, sub_generators, n, span, out)
                    }
                    None => {
                        let gen = Chunks(kernel::Lfsr::folded(mask));
                        self.interleave(level, gen, 1, sub_generators, n, span, out)
                    }
                }
            }
            BankShape::Philox => self.draw_philox(level, n, span.steps, out),
            BankShape::Pcg32 => {
                let gen = Chunks(kernel::Pcg32 {
                    increment: self.model.pcg32_increment,
                });
                self.interleave(level, gen, 2, 1, n, span, out)
            }
        }
        Ok(())
    }

    /// Runs the generator of rows `rows` over `owned` rows of `out`.
    #[allow(clippy::too_many_arguments)]
    fn run_steps<G: Fill>(
        &mut self,
        level: Level,
        gen: G,
        rows: core::ops::Range<usize>,
        n: usize,
        out: &mut [LaneRow],
        owned: Owned,
        steps: u8,
    ) {
        let job = Job {
            rows: &mut self.rows[rows],
            n,
            out,
            owned,
            steps,
        };
        dispatch::run(level, gen.kernel(job));
    }

    /// The sub-generators of a lane, each over the elements [`ModelChoices::lane_interleave`]
    /// gives it; `words` state rows per sub-generator.
    #[allow(clippy::too_many_arguments)]
    fn interleave<G: Fill>(
        &mut self,
        level: Level,
        gen: G,
        words: usize,
        subs: u8,
        n: usize,
        span: DrawSpan,
        out: &mut [LaneRow],
    ) {
        let subs = usize::from(subs);
        let len = out.len();
        let mut owned = [Owned {
            start: 0,
            stride: 1,
            count: 0,
        }; MAX_SUB_GENERATORS];
        for (g, owned) in owned.iter_mut().enumerate().take(subs) {
            // The rows (element index k = j - first) that sub-generator g owns, in order.
            *owned = match self.model.lane_interleave {
                LaneInterleave::RoundRobin | LaneInterleave::Lockstep => {
                    // j ≡ g (mod subs): the first such k, then every subs-th.
                    let lag = (span.first % subs as u64) as usize;
                    let start = (g + subs - lag) % subs;
                    Owned {
                        start,
                        stride: subs,
                        count: len.saturating_sub(start).div_ceil(subs),
                    }
                }
                LaneInterleave::Blocked => {
                    // floor(j * subs / total) == g  ⇔  ceil(g * total / subs) <= j < ceil((g + 1) * total / subs).
                    let bound = |g: usize| {
                        (u128::from(span.total) * g as u128).div_ceil(subs as u128) as u64
                    };
                    let lo = bound(g).clamp(span.first, span.first + len as u64);
                    let hi = bound(g + 1).clamp(span.first, span.first + len as u64);
                    Owned {
                        start: (lo - span.first) as usize,
                        stride: 1,
                        count: (hi - lo) as usize,
                    }
                }
            };
        }
        // A block of rows at a time, every sub-generator in it, so the rows stay in cache (one
        // block for generators that keep no chunk state across rows).
        let block = G::BLOCK.saturating_mul(subs);
        for lo in (0..len).step_by(block) {
            let hi = len.min(lo + block);
            for (g, owned) in owned.iter().enumerate().take(subs) {
                let rows = words * g..words * (g + 1);
                self.run_steps(level, gen, rows, n, out, owned.within(lo, hi), span.steps);
            }
        }
        let end = span.first + len as u64;
        if self.model.lane_interleave == LaneInterleave::Lockstep && end == span.total && len != 0 {
            // The trailing partial group still steps every sub-generator; the surplus is discarded.
            let used = (span.total % subs as u64) as usize;
            if used != 0 {
                let mut discard = [[0u32; LANES]];
                let once = Owned {
                    start: 0,
                    stride: 0,
                    count: 1,
                };
                for g in used..subs {
                    let rows = words * g..words * (g + 1);
                    self.run_steps(level, gen, rows, n, &mut discard, once, span.steps);
                }
            }
        }
    }

    fn draw_philox(&mut self, level: Level, n: usize, steps: u8, out: &mut [LaneRow]) {
        let m = out.len() as u64 * u64::from(steps);
        if m == 0 {
            return;
        }
        // Each lane's first block and its first word in it (a used-up block is the next one's word 0).
        let mut counter = [[0u32; LANES]; 4];
        let mut start = [0u32; LANES];
        for p in 0..n {
            let raw = [0, 1, 2, 3].map(|i| self.rows[i][p]);
            let offset = self.rows[6][p];
            let (first, word) = match self.model.philox_offset {
                PhiloxOffset::WordInBlock if offset >= 4 => (philox::add_to_counter(raw, 1), 0),
                PhiloxOffset::WordInBlock => (raw, offset),
                PhiloxOffset::WordsFromStart => (
                    philox::add_to_counter(raw, u128::from(offset / 4)),
                    offset % 4,
                ),
            };
            for (row, c) in counter.iter_mut().zip(first) {
                row[p] = c;
            }
            start[p] = word;
        }
        let [k0, k1] = [&self.rows[4], &self.rows[5]];
        let kernel = PhiloxDraw {
            counter: &counter,
            key: [k0, k1],
            start: &start,
            n,
            out,
            steps,
        };
        dispatch::run(level, kernel);
        for p in 0..n {
            let (next, offset) = match self.model.philox_offset {
                PhiloxOffset::WordInBlock => {
                    // The block of the last word drawn, and the index after it.
                    let last = u64::from(start[p]) + m - 1;
                    let first = [0, 1, 2, 3].map(|i| counter[i][p]);
                    (
                        philox::add_to_counter(first, u128::from(last / 4)),
                        (last % 4 + 1) as u32,
                    )
                }
                PhiloxOffset::WordsFromStart => {
                    let raw = [0, 1, 2, 3].map(|i| self.rows[i][p]);
                    let total = u64::from(self.rows[6][p]) + m;
                    (
                        philox::add_to_counter(raw, u128::from(total >> 32) << 30),
                        total as u32,
                    )
                }
            };
            for (i, c) in next.into_iter().enumerate() {
                self.rows[i][p] = c;
            }
            self.rows[6][p] = offset;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lfsr::Lfsr32;
    use crate::pcg32::Pcg32;
    use crate::xorwow::Xorwow;
    use proptest::prelude::*;
    use rand_core::RngCore;

    extern crate std;
    use std::vec;
    use std::vec::Vec;

    const M: ModelChoices = ModelChoices::RECONSTRUCTED;

    fn drawn(bank: &mut Bank, channels: usize, count: usize) -> Vec<LaneRow> {
        let mut out = vec![[0u32; LANES]; count];
        bank.draw(channels, &mut out).unwrap();
        out
    }

    #[test]
    fn shapes_follow_the_arm_widths() {
        let cases = [
            (
                Algorithm::Xorwow,
                6,
                Ok(BankShape::Xorwow { sub_generators: 1 }),
            ),
            (
                Algorithm::Xorwow,
                24,
                Ok(BankShape::Xorwow { sub_generators: 4 }),
            ),
            (
                Algorithm::Lfsr,
                2,
                Ok(BankShape::Lfsr { sub_generators: 2 }),
            ),
            (Algorithm::Philox, 7, Ok(BankShape::Philox)),
            (Algorithm::Pcg32, 2, Ok(BankShape::Pcg32)),
        ];
        for (algorithm, words, shape) in cases {
            assert_eq!(BankShape::for_arm(algorithm, words), shape);
            assert_eq!(shape.unwrap().words(), usize::from(words));
        }
        for (algorithm, words) in [
            (Algorithm::Xorwow, 7),
            (Algorithm::Xorwow, 30),
            (Algorithm::Lfsr, 0),
            (Algorithm::Lfsr, 5),
            (Algorithm::Philox, 6),
            (Algorithm::Pcg32, 1),
        ] {
            assert_eq!(
                BankShape::for_arm(algorithm, words),
                Err(ShapeError { algorithm, words })
            );
        }
    }

    #[test]
    fn pool_xorwow_lanes_run_the_scalar_generator() {
        let mut bank = Bank::new(BankShape::Xorwow { sub_generators: 1 }, M);
        bank.seed_lanes(5);
        let starts: Vec<[u32; 6]> = (0..LANES)
            .map(|p| bank.lane(p).unwrap().as_slice().try_into().unwrap())
            .collect();
        let out = drawn(&mut bank, LANES, 9);
        for (p, start) in starts.iter().enumerate() {
            let mut g = Xorwow::from_state(*start);
            for (j, row) in out.iter().enumerate() {
                assert_eq!(row[p], g.next_u32(), "lane {p} element {j}");
            }
            assert_eq!(bank.lane(p).unwrap().as_slice(), g.state());
        }
    }

    #[test]
    fn power_on_xorwow_is_the_model_default_for_every_sub_generator() {
        let bank = Bank::new(BankShape::Xorwow { sub_generators: 4 }, M);
        let record = bank.lane(127).unwrap();
        for g in 0..4 {
            assert_eq!(
                record.as_slice()[6 * g..6 * g + 6],
                M.xorwow_default_seed,
                "sub-generator {g}"
            );
        }
    }

    #[test]
    fn round_robin_takes_element_j_from_sub_generator_j_mod_k() {
        let mut bank = Bank::new(BankShape::Xorwow { sub_generators: 4 }, M);
        bank.seed_lanes(11);
        let record: Vec<u32> = bank.lane(3).unwrap().as_slice().to_vec();
        let mut subs: Vec<Xorwow> = (0..4)
            .map(|g| Xorwow::from_state(record[6 * g..6 * g + 6].try_into().unwrap()))
            .collect();
        let out = drawn(&mut bank, 4, 10);
        for (j, row) in out.iter().enumerate() {
            assert_eq!(row[3], subs[j % 4].next_u32(), "element {j}");
        }
        // Sub-generators 0 and 1 advanced three times, 2 and 3 twice.
        let after = bank.lane(3).unwrap();
        for (g, sub) in subs.iter().enumerate() {
            assert_eq!(after.as_slice()[6 * g..6 * g + 6], sub.state());
        }
    }

    #[test]
    fn lockstep_steps_every_sub_generator_of_a_partial_group() {
        let model = ModelChoices {
            lane_interleave: LaneInterleave::Lockstep,
            ..M
        };
        let mut bank = Bank::new(BankShape::Lfsr { sub_generators: 4 }, model);
        bank.set_lane(0, &[1, 2, 3, 4]).unwrap();
        let out = drawn(&mut bank, 1, 5);
        let mut subs = [1, 2, 3, 4].map(Lfsr32::new);
        let expected: Vec<u32> = (0..8).map(|j| subs[j % 4].next_u32()).collect();
        let got: Vec<u32> = out.iter().map(|r| r[0]).collect();
        assert_eq!(got, expected[..5]);
        assert_eq!(bank.lane(0).unwrap().as_slice(), subs.map(|s| s.state()));
    }

    #[test]
    fn blocked_gives_each_sub_generator_one_contiguous_block() {
        let model = ModelChoices {
            lane_interleave: LaneInterleave::Blocked,
            ..M
        };
        let mut bank = Bank::new(BankShape::Xorwow { sub_generators: 4 }, model);
        bank.seed_lanes(13);
        let record: Vec<u32> = bank.lane(0).unwrap().as_slice().to_vec();
        let mut subs: Vec<Xorwow> = (0..4)
            .map(|g| Xorwow::from_state(record[6 * g..6 * g + 6].try_into().unwrap()))
            .collect();
        // 10 elements over 4 sub-generators: floor(j * 4 / 10) = 0 0 0 1 1 2 2 2 3 3.
        let out = drawn(&mut bank, 1, 10);
        let owner = [0, 0, 0, 1, 1, 2, 2, 2, 3, 3];
        for (j, row) in out.iter().enumerate() {
            assert_eq!(row[0], subs[owner[j]].next_u32(), "element {j}");
        }
    }

    #[test]
    fn parts_and_steps_are_checked_and_steps_keep_the_last_output() {
        let mut bank = Bank::new(BankShape::Lfsr { sub_generators: 1 }, M);
        bank.set_lane(0, &[1]).unwrap();
        let before = bank.clone();
        let mut out = vec![[0u32; LANES]; 3];
        let span = |total, first, steps| DrawSpan {
            total,
            first,
            steps,
        };
        assert_eq!(
            bank.draw_part(1, span(4, 2, 1), &mut out),
            Err(BankError::Span {
                first: 2,
                len: 3,
                total: 4
            })
        );
        assert_eq!(
            bank.draw_part(1, span(3, 0, 0), &mut out),
            Err(BankError::Steps)
        );
        assert_eq!(bank, before);
        bank.draw_part(1, span(3, 0, 2), &mut out).unwrap();
        let mut g = Lfsr32::new(1);
        let stream: Vec<u32> = (0..6).map(|_| g.next_u32()).collect();
        assert_eq!(
            [out[0][0], out[1][0], out[2][0]],
            [stream[1], stream[3], stream[5]]
        );
    }

    #[test]
    fn lanes_past_the_channel_count_do_not_move() {
        let mut bank = Bank::new(BankShape::Pcg32, M);
        bank.seed_lanes(1);
        let before = bank.clone();
        let mut out = vec![[0xAAAA_AAAA; LANES]; 3];
        bank.draw(2, &mut out).unwrap();
        for p in 2..LANES {
            assert_eq!(bank.lane(p), before.lane(p));
            assert!(out.iter().all(|r| r[p] == 0xAAAA_AAAA));
        }
        assert_ne!(bank.lane(1), before.lane(1));
    }

    #[test]
    fn pcg32_lanes_use_the_model_increment_and_low_word() {
        let model = ModelChoices {
            pcg32_low_word: 1,
            pcg32_increment: 0x6d,
            ..M
        };
        let mut bank = Bank::new(BankShape::Pcg32, model);
        let state: u64 = 0x1857_06b8_2c2e_03f8;
        bank.set_lane(0, &[(state >> 32) as u32, state as u32])
            .unwrap();
        let out = drawn(&mut bank, 1, 4);
        let mut g = Pcg32::from_raw(state, 0x6d).unwrap();
        for row in &out {
            assert_eq!(row[0], g.next_u32());
        }
        let s = g.state();
        assert_eq!(
            bank.lane(0).unwrap().as_slice(),
            [(s >> 32) as u32, s as u32]
        );
    }

    #[test]
    fn philox_word_in_block_resumes_inside_a_block_and_after_a_used_up_one() {
        let mut bank = Bank::new(BankShape::Philox, M);
        let key = [0xdead, 0xbeef];
        bank.set_lane(0, &[9, 0, 0, 0, key[0], key[1], 2]).unwrap();
        bank.set_lane(1, &[9, 0, 0, 0, key[0], key[1], 4]).unwrap();
        let out = drawn(&mut bank, 2, 3);
        let b9 = philox::block([9, 0, 0, 0], key);
        let b10 = philox::block([10, 0, 0, 0], key);
        assert_eq!([out[0][0], out[1][0], out[2][0]], [b9[2], b9[3], b10[0]]);
        assert_eq!([out[0][1], out[1][1], out[2][1]], [b10[0], b10[1], b10[2]]);
        assert_eq!(
            bank.lane(0).unwrap().as_slice(),
            [10, 0, 0, 0, key[0], key[1], 1]
        );
        assert_eq!(
            bank.lane(1).unwrap().as_slice(),
            [10, 0, 0, 0, key[0], key[1], 3]
        );
    }

    #[test]
    fn philox_words_from_start_counts_words_and_carries_on_wrap() {
        let model = ModelChoices {
            philox_offset: PhiloxOffset::WordsFromStart,
            ..M
        };
        let mut bank = Bank::new(BankShape::Philox, model);
        let key = [1, 2];
        bank.set_lane(0, &[0, 0, 0, 0, key[0], key[1], 6]).unwrap();
        bank.set_lane(1, &[0, 0, 0, 0, key[0], key[1], u32::MAX])
            .unwrap();
        let out = drawn(&mut bank, 2, 2);
        let b1 = philox::block([1, 0, 0, 0], key);
        assert_eq!([out[0][0], out[1][0]], [b1[2], b1[3]]);
        assert_eq!(
            bank.lane(0).unwrap().as_slice(),
            [0, 0, 0, 0, key[0], key[1], 8]
        );
        let last = philox::block([(1 << 30) - 1, 0, 0, 0], key)[3];
        let next = philox::block([1 << 30, 0, 0, 0], key)[0];
        assert_eq!([out[0][1], out[1][1]], [last, next]);
        assert_eq!(
            bank.lane(1).unwrap().as_slice(),
            [1 << 30, 0, 0, 0, key[0], key[1], 1]
        );
    }

    #[test]
    fn record_orders_follow_the_model() {
        let record: Vec<u32> = (0..24).collect();
        let mut sub_major = Bank::new(BankShape::Xorwow { sub_generators: 4 }, M);
        sub_major.set_lane(0, &record).unwrap();
        let word_major_model = ModelChoices {
            dve_xorwow_layout: SubGeneratorLayout::WordMajor,
            ..M
        };
        let mut word_major = Bank::new(BankShape::Xorwow { sub_generators: 4 }, word_major_model);
        word_major.set_lane(0, &record).unwrap();
        // Sub-generator 1's x..d: words 6..12, or words 1, 5, 9, 13, 17, 21.
        let sub1 = |b: &mut Bank| {
            let mut out = vec![[0u32; LANES]; 2];
            b.draw(1, &mut out).unwrap();
            out[1][0]
        };
        let expect_sub_major = Xorwow::from_state([6, 7, 8, 9, 10, 11]).next_u32();
        let expect_word_major = Xorwow::from_state([1, 5, 9, 13, 17, 21]).next_u32();
        assert_eq!(sub1(&mut sub_major), expect_sub_major);
        assert_eq!(sub1(&mut word_major), expect_word_major);

        let philox_model = ModelChoices {
            philox_layout: crate::model::PhiloxLayout {
                counter: [2, 3, 4, 5],
                key: [0, 1],
                offset: 6,
            },
            ..M
        };
        let mut philox_bank = Bank::new(BankShape::Philox, philox_model);
        philox_bank.set_lane(0, &[7, 8, 1, 0, 0, 0, 0]).unwrap();
        let got = drawn(&mut philox_bank, 1, 1)[0][0];
        assert_eq!(got, philox::block([1, 0, 0, 0], [7, 8])[0]);
    }

    #[test]
    fn zero_guard_forces_the_model_word_of_each_dead_sub_generator() {
        let mut record = [0u32; 24];
        record[5] = 77; // sub-generator 0: x..v zero, d = 77
        record[6] = 1; // sub-generator 1 alive
        for (guard, expect) in [
            (ZeroGuard::ForceWordToOne(4), [0, 0, 0, 0, 1, 77]),
            (ZeroGuard::ForceWordToOne(0), [1, 0, 0, 0, 0, 77]),
            (ZeroGuard::Disabled, [0, 0, 0, 0, 0, 77]),
        ] {
            let model = ModelChoices {
                zero_guard: guard,
                ..M
            };
            let mut bank = Bank::new(BankShape::Xorwow { sub_generators: 4 }, model);
            bank.set_lane(9, &record).unwrap();
            let got = bank.lane(9).unwrap();
            assert_eq!(got.as_slice()[0..6], expect, "{guard:?}");
            assert_eq!(got.as_slice()[6..12], record[6..12], "{guard:?}");
            let dead = (2..4).map(|g| &got.as_slice()[6 * g..6 * g + 6]);
            let want = match guard {
                ZeroGuard::ForceWordToOne(4) => [0, 0, 0, 0, 1, 0],
                ZeroGuard::ForceWordToOne(_) => [1, 0, 0, 0, 0, 0],
                ZeroGuard::Disabled => [0; 6],
            };
            for words in dead {
                assert_eq!(words, want, "{guard:?}");
            }
        }
    }

    /// The scalar model of a draw: one lane at a time through the single generators (the
    /// bank's kernels must give exactly its words and end states).
    fn model_draw(bank: &mut Bank, n: usize, span: DrawSpan, out: &mut [LaneRow]) {
        let m = bank.model;
        let steps = usize::from(span.steps);
        match bank.shape {
            BankShape::Xorwow { sub_generators } | BankShape::Lfsr { sub_generators } => {
                let subs = usize::from(sub_generators);
                let xor = matches!(bank.shape, BankShape::Xorwow { .. });
                let step = |rows: &mut [LaneRow; MAX_WORDS], g: usize, p: usize| -> u32 {
                    if xor {
                        let s: [u32; 6] = core::array::from_fn(|i| rows[6 * g + i][p]);
                        let (next, o) = crate::xorwow::step(s);
                        for (i, w) in next.into_iter().enumerate() {
                            rows[6 * g + i][p] = w;
                        }
                        o
                    } else {
                        rows[g][p] = crate::lfsr::step(rows[g][p], m.lfsr_tap_mask());
                        rows[g][p]
                    }
                };
                let owner = |j: u64| match m.lane_interleave {
                    LaneInterleave::Blocked => {
                        (u128::from(j) * subs as u128 / u128::from(span.total)) as usize
                    }
                    _ => (j % subs as u64) as usize,
                };
                for p in 0..n {
                    for (k, row) in out.iter_mut().enumerate() {
                        let g = owner(span.first + k as u64);
                        for _ in 0..steps {
                            row[p] = step(&mut bank.rows, g, p);
                        }
                    }
                    let end = span.first + out.len() as u64;
                    let used = (span.total % subs as u64) as usize;
                    if m.lane_interleave == LaneInterleave::Lockstep
                        && end == span.total
                        && !out.is_empty()
                        && used != 0
                    {
                        for g in used..subs {
                            for _ in 0..steps {
                                step(&mut bank.rows, g, p);
                            }
                        }
                    }
                }
            }
            BankShape::Pcg32 => {
                for p in 0..n {
                    let mut g = Pcg32::from_raw(
                        u64::from(bank.rows[0][p]) | (u64::from(bank.rows[1][p]) << 32),
                        m.pcg32_increment,
                    )
                    .unwrap();
                    for row in out.iter_mut() {
                        for _ in 0..steps {
                            row[p] = g.next_u32();
                        }
                    }
                    (bank.rows[0][p], bank.rows[1][p]) =
                        (g.state() as u32, (g.state() >> 32) as u32);
                }
            }
            BankShape::Philox => {
                let total = out.len() as u64 * steps as u64;
                for p in 0..n {
                    let counter = [0, 1, 2, 3].map(|i| bank.rows[i][p]);
                    let key = [bank.rows[4][p], bank.rows[5][p]];
                    let offset = bank.rows[6][p];
                    let mut stream = match m.philox_offset {
                        PhiloxOffset::WordInBlock => {
                            crate::philox::Philox4x32::from_position(counter, key, offset)
                        }
                        PhiloxOffset::WordsFromStart => crate::philox::Philox4x32::from_position(
                            philox::add_to_counter(counter, u128::from(offset / 4)),
                            key,
                            offset % 4,
                        ),
                    };
                    for row in out.iter_mut() {
                        for _ in 0..steps {
                            row[p] = stream.next_word();
                        }
                    }
                    let (c, o) = match m.philox_offset {
                        PhiloxOffset::WordInBlock => (stream.counter(), stream.index()),
                        PhiloxOffset::WordsFromStart => {
                            let t = u64::from(offset) + total;
                            (
                                philox::add_to_counter(counter, u128::from(t >> 32) << 30),
                                t as u32,
                            )
                        }
                    };
                    for (i, w) in c.into_iter().enumerate() {
                        bank.rows[i][p] = w;
                    }
                    bank.rows[6][p] = o;
                }
            }
        }
    }

    /// Banks of every shape and model variant the kernels treat differently.
    fn kernel_cases() -> Vec<Bank> {
        let mut banks = Vec::new();
        for interleave in [
            LaneInterleave::RoundRobin,
            LaneInterleave::Lockstep,
            LaneInterleave::Blocked,
        ] {
            let model = ModelChoices {
                lane_interleave: interleave,
                ..M
            };
            for k in 1..=4 {
                banks.push(Bank::new(BankShape::Xorwow { sub_generators: k }, model));
                banks.push(Bank::new(BankShape::Lfsr { sub_generators: k }, model));
            }
        }
        // A mask of three bits (duplicate taps, an unchecked model): the general parity fold.
        let folded = ModelChoices {
            lfsr_taps: [32, 32, 2, 1],
            ..M
        };
        banks.push(Bank::new(BankShape::Lfsr { sub_generators: 2 }, folded));
        banks.push(Bank::new(BankShape::Pcg32, M));
        for offset in [PhiloxOffset::WordInBlock, PhiloxOffset::WordsFromStart] {
            let model = ModelChoices {
                philox_offset: offset,
                ..M
            };
            banks.push(Bank::new(BankShape::Philox, model));
        }
        for (k, bank) in banks.iter_mut().enumerate() {
            bank.seed_lanes(k as u64);
        }
        banks
    }

    /// Philox lane positions the kernel treats differently: every offset 0..=5 and a far one,
    /// the same in all lanes or not, counters about to carry.
    fn philox_positions(bank: &mut Bank, variant: usize) {
        for p in 0..LANES {
            let offset = match variant {
                0..=5 => variant as u32,
                6 => 1000,
                _ => (p as u32 * 7 + variant as u32) % 9,
            };
            bank.rows[6][p] = offset;
            if p % 3 == 0 {
                bank.rows[0][p] = u32::MAX - (p as u32 % 4);
                bank.rows[1][p] = u32::MAX;
            }
        }
    }

    /// Whole draws of 7 and 70 elements, and the part from element 3 of an 11-element draw of two
    /// steps per element.
    const SPANS: [DrawSpan; 3] = [
        DrawSpan {
            total: 7,
            first: 0,
            steps: 1,
        },
        DrawSpan {
            total: 11,
            first: 3,
            steps: 2,
        },
        DrawSpan {
            total: 70,
            first: 0,
            steps: 1,
        },
    ];

    #[test]
    fn every_kernel_matches_the_scalar_model_for_every_lane_count() {
        // One thread per case: the cases are independent, and at opt-level 0 they take about
        // 13 s of CPU in all, which one test thread would spend alone.
        std::thread::scope(|scope| {
            let runs: std::vec::Vec<_> = kernel_cases()
                .into_iter()
                .map(|bank| scope.spawn(move || kernel_matches_the_scalar_model(&bank)))
                .collect();
            for run in runs {
                run.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            }
        });
    }

    /// Every kernel level against the scalar model for `bank`: every lane count, every span of
    /// [`SPANS`], and for Philox every lane position of [`philox_positions`].
    fn kernel_matches_the_scalar_model(bank: &Bank) {
        for level in Level::available() {
            let variants = if bank.shape == BankShape::Philox {
                9
            } else {
                1
            };
            for variant in 0..variants {
                let mut start = bank.clone();
                if bank.shape == BankShape::Philox {
                    philox_positions(&mut start, variant);
                }
                for n in 1..=LANES {
                    for span in SPANS {
                        let len = (span.total - span.first).min(40) as usize;
                        let mut fast = start.clone();
                        let mut model = start.clone();
                        let mut got = vec![[0x5555_5555u32; LANES]; len];
                        let mut want = got.clone();
                        fast.draw_part_at(level, n, span, &mut got).unwrap();
                        model_draw(&mut model, n, span, &mut want);
                        let what = (
                            level,
                            bank.shape,
                            bank.model.lane_interleave,
                            variant,
                            n,
                            span,
                        );
                        assert_eq!(got, want, "{what:?}");
                        assert!(fast == model, "end state {what:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn refusals_change_nothing() {
        let mut bank = Bank::new(BankShape::Philox, M);
        bank.seed_lanes(3);
        let before = bank.clone();
        assert_eq!(bank.lane(LANES), Err(BankError::Lane { lane: LANES }));
        assert_eq!(
            bank.set_lane(LANES, &[0; 7]),
            Err(BankError::Lane { lane: LANES })
        );
        assert_eq!(
            bank.set_lane(0, &[0; 6]),
            Err(BankError::Words {
                found: 6,
                expected: 7
            })
        );
        let mut out = vec![[0u32; LANES]; 2];
        assert_eq!(
            bank.draw(0, &mut out),
            Err(BankError::Channels { channels: 0 })
        );
        assert_eq!(
            bank.draw(LANES + 1, &mut out),
            Err(BankError::Channels {
                channels: LANES + 1
            })
        );
        assert_eq!(bank, before);
    }

    fn any_shape() -> impl Strategy<Value = BankShape> {
        prop_oneof![
            (1u8..=4).prop_map(|k| BankShape::Xorwow { sub_generators: k }),
            (1u8..=4).prop_map(|k| BankShape::Lfsr { sub_generators: k }),
            Just(BankShape::Philox),
            Just(BankShape::Pcg32),
        ]
    }

    proptest! {
        #[test]
        fn lane_records_round_trip(shape in any_shape(), seed: u64, lane in 0..LANES, steps in 0usize..9) {
            let mut bank = Bank::new(shape, M);
            bank.seed_lanes(seed);
            let mut out = vec![[0u32; LANES]; steps];
            bank.draw(LANES, &mut out).unwrap();
            let record = bank.lane(lane).unwrap();
            let mut other = Bank::new(shape, M);
            other.set_lane(lane, record.as_slice()).unwrap();
            prop_assert_eq!(other.lane(lane).unwrap(), record);
        }

        #[test]
        fn splitting_a_draw_does_not_change_the_stream(shape in any_shape(), seed: u64, a in 0usize..7, b in 0usize..7) {
            // Holds for single-generator lanes; multi-sub-generator lanes restart the interleave per draw.
            let single = shape.words() == 6 || matches!(shape, BankShape::Philox | BankShape::Pcg32 | BankShape::Lfsr { sub_generators: 1 });
            prop_assume!(single);
            let mut whole = Bank::new(shape, M);
            whole.seed_lanes(seed);
            let mut parts = whole.clone();
            let mut all = vec![[0u32; LANES]; a + b];
            whole.draw(LANES, &mut all).unwrap();
            let mut first = vec![[0u32; LANES]; a];
            let mut second = vec![[0u32; LANES]; b];
            parts.draw(LANES, &mut first).unwrap();
            parts.draw(LANES, &mut second).unwrap();
            first.extend(second);
            prop_assert_eq!(first, all);
            prop_assert_eq!(parts, whole);
        }
    }
}
