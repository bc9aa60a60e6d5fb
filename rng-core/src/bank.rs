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

pub use crate::lane::{LaneRow, LANES};

/// Most state words of one lane (DVE XORWOW).
pub const MAX_WORDS: usize = 24;
/// Most sub-generators of one lane.
pub const MAX_SUB_GENERATORS: usize = 4;

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
#[path = "bank_tests.rs"]
mod tests;
