//! The bank's draw loops, written for speed: lanes in chunks of [`W`], each chunk's state held in
//! locals (registers) while it produces a block of elements, so that a step is a handful of
//! vector instructions and no state is loaded or stored per element; XORWOW, whose step is a
//! long chain on six words, a whole row of lanes per step instead ([`Xorwow`]). Run through
//! [`crate::dispatch`]; [`crate::bank`]'s tests compare every path with the scalar generators.
//!

use crate::dispatch::Kernel;
use crate::lane::{LaneRow, LANES};
use crate::{lfsr, pcg32, philox, xorwow};

/// Lanes per chunk of the LFSR and PCG32: two registers per word, two independent dependency
/// chains (a step of either is one long chain).
const W: usize = 16;
/// Lanes per chunk of Philox: a block takes long enough that two registers per word pay.
const PW: usize = 16;
/// Elements per (sub-)generator in a block of output rows: a block (`BLOCK` x sub-generators
/// rows of 512 bytes) stays in cache while every chunk and sub-generator fills it, and the state
/// of a chunk is loaded and stored once per block.
pub(crate) const BLOCK: usize = 32;

/// One word for each lane of a chunk of `W` lanes.
type Lanes = [u32; W];

/// Lanes `base..base + N` of `row` (`LANES` is a multiple of `N`, so always inside).
#[inline(always)]
fn load<const N: usize>(row: &LaneRow, base: usize) -> [u32; N] {
    let mut out = [0; N];
    out.copy_from_slice(&row[base..base + N]);
    out
}

/// Writes the first `valid` of `lanes` to `row` from lane `base` on (lanes at or past the
/// channel count are never written).
#[inline(always)]
fn store<const N: usize>(row: &mut LaneRow, base: usize, valid: usize, lanes: &[u32; N]) {
    if valid == N {
        row[base..base + N].copy_from_slice(lanes);
    } else {
        row[base..base + valid].copy_from_slice(&lanes[..valid]);
    }
}

/// A generator of one state per lane, stepped a chunk of `N` lanes at a time.
pub(crate) trait Lanewise<const N: usize>: Copy {
    /// The state of a chunk, in locals.
    type State: Copy;
    /// The chunk's state from the bank's rows.
    fn load(&self, rows: &[LaneRow], base: usize) -> Self::State;
    /// Writes the chunk's state back (first `valid` lanes).
    fn store(&self, state: &Self::State, rows: &mut [LaneRow], base: usize, valid: usize);
    /// One step of every lane; the outputs.
    fn step(&self, state: &mut Self::State) -> [u32; N];
}

/// The LFSR: one row. With `FOUR` its mask has exactly four bits (every valid model) and the
/// parity is the xor of four shifted copies, a much shorter dependency chain than the general
/// fold of `lfsr::step`.
#[derive(Clone, Copy)]
pub(crate) struct Lfsr<const FOUR: bool> {
    /// Feedback mask (bit `t - 1` per tap `t`), computed once per draw.
    mask: u32,
    /// The mask's bit positions (with `FOUR`).
    taps: [u32; 4],
}

impl Lfsr<false> {
    /// The register with feedback mask `mask`, by the general parity fold.
    pub(crate) fn folded(mask: u32) -> Self {
        Lfsr { mask, taps: [0; 4] }
    }
}

impl Lfsr<true> {
    /// The register for `mask` when it has exactly four bits.
    pub(crate) fn four_taps(mask: u32) -> Option<Self> {
        let mut taps = [0; 4];
        let mut rest = mask;
        for t in &mut taps {
            *t = rest.trailing_zeros();
            rest &= rest.wrapping_sub(1);
        }
        (mask.count_ones() == 4).then_some(Lfsr { mask, taps })
    }
}

impl<const FOUR: bool> Lanewise<W> for Lfsr<FOUR> {
    type State = Lanes;

    #[inline(always)]
    fn load(&self, rows: &[LaneRow], base: usize) -> Self::State {
        load(&rows[0], base)
    }

    #[inline(always)]
    fn store(&self, state: &Self::State, rows: &mut [LaneRow], base: usize, valid: usize) {
        store(&mut rows[0], base, valid, state);
    }

    #[inline(always)]
    fn step(&self, s: &mut Self::State) -> Lanes {
        let [a, b, c, d] = self.taps;
        for word in s.iter_mut() {
            let x = *word;
            *word = if FOUR {
                (x << 1) | (((x >> a) ^ (x >> b) ^ (x >> c) ^ (x >> d)) & 1)
            } else {
                lfsr::step(x, self.mask)
            };
        }
        *s
    }
}

/// PCG32 with the bank's increment: rows low word, high word (logical order), as one `u64` per
/// lane while the chunk runs.
#[derive(Clone, Copy)]
pub(crate) struct Pcg32 {
    /// The increment (a model choice).
    pub increment: u64,
}

impl Lanewise<W> for Pcg32 {
    type State = [u64; W];

    #[inline(always)]
    fn load(&self, rows: &[LaneRow], base: usize) -> Self::State {
        let (lo, hi): (Lanes, Lanes) = (load(&rows[0], base), load(&rows[1], base));
        core::array::from_fn(|p| u64::from(lo[p]) | (u64::from(hi[p]) << 32))
    }

    #[inline(always)]
    fn store(&self, state: &Self::State, rows: &mut [LaneRow], base: usize, valid: usize) {
        let lo: Lanes = core::array::from_fn(|p| state[p] as u32);
        let hi: Lanes = core::array::from_fn(|p| (state[p] >> 32) as u32);
        store(&mut rows[0], base, valid, &lo);
        store(&mut rows[1], base, valid, &hi);
    }

    #[inline(always)]
    fn step(&self, s: &mut Self::State) -> Lanes {
        let mut out = [0; W];
        for p in 0..W {
            let (next, o) = pcg32::step(s[p], self.increment);
            s[p] = next;
            out[p] = o;
        }
        out
    }
}

/// The output rows one (sub-)generator fills, in its stream order: `start + i * stride` for
/// `i < count`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Owned {
    /// First row.
    pub start: usize,
    /// Distance between rows (0: the same row every time, for discarded steps).
    pub stride: usize,
    /// Rows.
    pub count: usize,
}

impl Owned {
    /// The part of these rows inside `lo..hi`.
    pub(crate) fn within(self, lo: usize, hi: usize) -> Owned {
        // How many of the rows lie below `bound`.
        let below = |bound: usize| match bound.checked_sub(self.start) {
            None | Some(0) => 0,
            Some(_) if self.stride == 0 => self.count,
            Some(d) => d.div_ceil(self.stride).min(self.count),
        };
        let (i0, i1) = (below(lo), below(hi));
        Owned {
            start: self.start + i0 * self.stride,
            stride: self.stride,
            count: i1 - i0,
        }
    }
}

/// Runs a [`Job`] of a [`Lanewise`] generator, a chunk of `N` lanes at a time.
pub(crate) struct Steps<'a, G, const N: usize> {
    /// The generator.
    pub gen: G,
    /// What to do.
    pub job: Job<'a>,
}

impl<G: Lanewise<N>, const N: usize> Kernel for Steps<'_, G, N> {
    #[inline(always)]
    fn run(self) {
        let Steps {
            gen,
            job:
                Job {
                    rows,
                    n,
                    out,
                    owned,
                    steps,
                },
        } = self;
        for base in (0..n).step_by(N) {
            let valid = N.min(n - base);
            let mut state = gen.load(rows, base);
            if steps == 1 {
                for i in 0..owned.count {
                    let o = gen.step(&mut state);
                    store(&mut out[owned.start + i * owned.stride], base, valid, &o);
                }
            } else {
                for i in 0..owned.count {
                    for _ in 1..steps {
                        gen.step(&mut state);
                    }
                    let o = gen.step(&mut state);
                    store(&mut out[owned.start + i * owned.stride], base, valid, &o);
                }
            }
            gen.store(&state, rows, base, valid);
        }
    }
}

/// One (sub-)generator's part of a draw: step lanes `0..n` of its state rows through the rows
/// it owns, each element the last of `steps` outputs.
pub(crate) struct Job<'a> {
    /// Its state rows.
    pub rows: &'a mut [LaneRow],
    /// Active lanes.
    pub n: usize,
    /// The draw's rows.
    pub out: &'a mut [LaneRow],
    /// The rows it fills.
    pub owned: Owned,
    /// Steps per element (at least 1).
    pub steps: u8,
}

/// A bank generator: how it runs a [`Job`].
pub(crate) trait Fill: Copy {
    /// Elements per (sub-)generator in a block of output rows (the draw is run a block of rows
    /// at a time, every sub-generator in it).
    const BLOCK: usize;
    /// The kernel for `job`.
    fn kernel(self, job: Job<'_>) -> impl Kernel + '_;
}

/// A [`Lanewise`] generator, run by [`Steps`] a chunk of `N` lanes at a time.
#[derive(Clone, Copy)]
pub(crate) struct Chunks<G, const N: usize>(pub G);

impl<G: Lanewise<N> + 'static, const N: usize> Fill for Chunks<G, N> {
    const BLOCK: usize = BLOCK;

    fn kernel(self, job: Job<'_>) -> impl Kernel + '_ {
        Steps { gen: self.0, job }
    }
}

/// XORWOW, run a whole row of lanes at a time: a step is one pass over the lanes (x and v read,
/// the new v written over x, the output row written), so the lanes' steps are independent and
/// overlap. Holding a chunk's six words in registers through many steps instead is bound by
/// the chain of dependent instructions of each step (six words of two chunks, for two chains,
/// do not fit AVX2's sixteen registers).
///
/// The five xorshift rows are a ring: the new v replaces x, so the word roles rotate instead of
/// the words moving; the rows are put back in order, and `d` advanced, once per run (each step
/// adds the Weyl increments so far to the stored `d`).
#[derive(Clone, Copy)]
pub(crate) struct Xorwow;

impl Fill for Xorwow {
    /// A row of lanes at a time leaves no chunk state to keep in cache: one block, so that the
    /// ring is put back in order once per sub-generator and draw.
    const BLOCK: usize = usize::MAX;

    fn kernel(self, job: Job<'_>) -> impl Kernel + '_ {
        XorwowRows(job)
    }
}

/// The kernel of [`Xorwow`].
pub(crate) struct XorwowRows<'a>(Job<'a>);

/// The ring rows holding v and x when x is ring row `k` (y is row `k + 1` and so on, mod 5).
#[inline(always)]
fn v_and_x(ring: &mut [LaneRow], k: usize) -> [&mut LaneRow; 2] {
    ring.get_disjoint_mut([(k + 4) % 5, k])
        .expect("two rows of five")
}

/// Lanes per piece of a row in [`xorwow_row`]: one AVX2 register.
const XW: usize = 8;

// The row steps work a piece of `XW` lanes at a time (the last `n % XW` lanes one at a time),
// each piece copied in and out whole (one vector load or store per row) and stepped on the
// copies: a loop over the rows themselves is vectorised only behind run-time checks that they
// do not overlap, which cost as much per row as the step.

/// One step of a piece: x becomes the new v, `out` the output (v + d, where the updated d is
/// the stored d plus `weyl`).
#[inline(always)]
fn xorwow_piece<const L: usize>(
    x: &mut [u32; L],
    v: &[u32; L],
    d: &[u32; L],
    weyl: u32,
    out: &mut [u32; L],
) {
    let (old_x, v, d) = (*x, *v, *d);
    let mut new_x = [0; L];
    let mut o = [0; L];
    for p in 0..L {
        new_x[p] = xorwow::next_v(old_x[p], v[p]);
        o[p] = new_x[p].wrapping_add(d[p].wrapping_add(weyl));
    }
    (*x, *out) = (new_x, o);
}

/// One step of lanes `0..n` ([`xorwow_piece`]).
#[inline(always)]
fn xorwow_row(x: &mut LaneRow, v: &LaneRow, d: &LaneRow, weyl: u32, out: &mut LaneRow, n: usize) {
    let (x, x_rest) = x[..n].as_chunks_mut::<XW>();
    let (v, v_rest) = v[..n].as_chunks::<XW>();
    let (d, d_rest) = d[..n].as_chunks::<XW>();
    let (out, out_rest) = out[..n].as_chunks_mut::<XW>();
    for (((x, v), d), out) in x.iter_mut().zip(v).zip(d).zip(out) {
        xorwow_piece(x, v, d, weyl, out);
    }
    let rest = x_rest.iter_mut().zip(v_rest).zip(d_rest).zip(out_rest);
    for (((x, v), d), out) in rest {
        let out = core::array::from_mut(out);
        xorwow_piece(core::array::from_mut(x), &[*v], &[*d], weyl, out);
    }
}

impl Kernel for XorwowRows<'_> {
    #[inline(always)]
    fn run(self) {
        let XorwowRows(Job {
            rows,
            n,
            out,
            owned,
            steps,
        }) = self;
        let [ring @ .., d] = rows else {
            unreachable!("XORWOW has six state rows")
        };
        let Owned {
            start,
            stride,
            count,
        } = owned;
        // Ring row holding x; the Weyl increments added so far.
        let mut k = 0;
        let mut weyl = 0u32;
        // `stride` is 0 only for a single discarded row.
        let rows = out
            .iter_mut()
            .skip(start)
            .step_by(stride.max(1))
            .take(count);
        for row in rows {
            // Every step writes the row; the last one's output stays.
            for _ in 0..steps {
                weyl = weyl.wrapping_add(xorwow::WEYL);
                let [v, x] = v_and_x(ring, k);
                xorwow_row(x, v, d, weyl, row, n);
                k = (k + 1) % 5;
            }
        }
        // The words back in their rows (x in row 0), a row at a time, and d.
        if k != 0 {
            let old = [ring[0], ring[1], ring[2], ring[3], ring[4]];
            for (i, row) in ring.iter_mut().enumerate() {
                row[..n].copy_from_slice(&old[(i + k) % 5][..n]);
            }
        }
        for word in &mut d[..n] {
            *word = word.wrapping_add(weyl);
        }
    }
}

/// Philox4x32-10 over lanes `0..n`: each lane's stream starts at word `start[p]` (0..=3) of block
/// `counter[..][p]`; element `j` is stream word `(j + 1) * steps - 1`.
pub(crate) struct PhiloxDraw<'a> {
    /// Counter words c0..c3 of each lane's first block.
    pub counter: &'a [LaneRow; 4],
    /// Key words.
    pub key: [&'a LaneRow; 2],
    /// Each lane's first word in its first block (0..=3).
    pub start: &'a LaneRow,
    /// Active lanes.
    pub n: usize,
    /// The draw's rows.
    pub out: &'a mut [LaneRow],
    /// Steps per element (at least 1).
    pub steps: u8,
}

/// Philox4x32-10 of a chunk of lanes: `philox::block` of each lane's counter and key. Written
/// lane-innermost, one round at a time, which LLVM's loop vectoriser turns into vector code.
#[inline(always)]
fn philox_lanes(counter: &[[u32; PW]; 4], key: [[u32; PW]; 2]) -> [[u32; PW]; 4] {
    let [mut x0, mut x1, mut x2, mut x3] = *counter;
    let [mut k0, mut k1] = key;
    for r in 0..10 {
        if r > 0 {
            for p in 0..PW {
                k0[p] = k0[p].wrapping_add(philox::W0);
                k1[p] = k1[p].wrapping_add(philox::W1);
            }
        }
        let mut n = [[0u32; PW]; 4];
        for p in 0..PW {
            let p0 = u64::from(x0[p]) * u64::from(philox::M0);
            let p1 = u64::from(x2[p]) * u64::from(philox::M1);
            n[0][p] = (p1 >> 32) as u32 ^ x1[p] ^ k0[p];
            n[2][p] = (p0 >> 32) as u32 ^ x3[p] ^ k1[p];
            // The low halves as 32-bit multiplies: one vector instruction each.
            n[1][p] = x2[p].wrapping_mul(philox::M1);
            n[3][p] = x0[p].wrapping_mul(philox::M0);
        }
        [x0, x1, x2, x3] = n;
    }
    [x0, x1, x2, x3]
}

/// `counter + 1` in every lane, the carry running from c0 up (word by word, so it vectorises).
#[inline(always)]
fn increment(c: &mut [[u32; PW]; 4]) {
    let mut carry = [1u32; PW];
    for word in c.iter_mut() {
        for p in 0..PW {
            word[p] = word[p].wrapping_add(carry[p]);
            carry[p] &= u32::from(word[p] == 0);
        }
    }
}

impl Kernel for PhiloxDraw<'_> {
    #[inline(always)]
    fn run(self) {
        let PhiloxDraw {
            counter,
            key,
            start,
            n,
            out,
            steps,
        } = self;
        let steps = usize::from(steps);
        let words = out.len() * steps;
        for base in (0..n).step_by(PW) {
            let valid = PW.min(n - base);
            let mut c: [[u32; PW]; 4] = core::array::from_fn(|i| load(&counter[i], base));
            let k: [[u32; PW]; 2] = [load(key[0], base), load(key[1], base)];
            let s: [u32; PW] = load(start, base);
            let first = s[0] as usize;
            if steps == 1 && s[..valid].iter().all(|&x| x as usize == first) {
                // Every lane at the same word: block word w is element 4b + w - first of all lanes.
                let blocks = (first + words).div_ceil(4);
                for b in 0..blocks {
                    let block = philox_lanes(&c, k);
                    for (w, lanes) in block.iter().enumerate() {
                        let pos = 4 * b + w;
                        if pos >= first && pos - first < words {
                            store(&mut out[pos - first], base, valid, lanes);
                        }
                    }
                    increment(&mut c);
                }
            } else {
                let most = s[..valid].iter().max().map_or(0, |&x| x as usize);
                let blocks = (most + words).div_ceil(4);
                for b in 0..blocks {
                    let block = philox_lanes(&c, k);
                    for (lane, &at) in s[..valid].iter().enumerate() {
                        for (w, lanes) in block.iter().enumerate() {
                            let Some(pos) = (4 * b + w).checked_sub(at as usize) else {
                                continue;
                            };
                            if pos < words && (pos + 1) % steps == 0 {
                                out[(pos + 1) / steps - 1][base + lane] = lanes[lane];
                            }
                        }
                    }
                    increment(&mut c);
                }
            }
        }
    }
}

// Keeps `LANES` a multiple of the chunk width (the loads above rely on it).
const _: () = assert!(LANES.is_multiple_of(W) && LANES.is_multiple_of(PW));
