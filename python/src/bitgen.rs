//! 32-bit streams behind numpy's `BitGenerator` protocol.
//!
//! numpy reaches a bit generator through a `PyCapsule` named `"BitGenerator"` that points to a
//! C struct `bitgen_t`: a state pointer and four functions of it (`numpy/random/bitgen.h`).
//! `Core` is that struct followed by the stream, in one allocation that never moves, so
//! numpy's copy of the struct stays valid for the life of the Python object that owns it.
//!
//! The streams are 32-bit; the 64-bit and double outputs are built from it as randomgen's
//! 32-bit generators build them: `next_uint64` is `(w0 << 32) | w1` (the first word the high
//! half), `next_double` is `((w0 >> 5) * 2^26 + (w1 >> 6)) / 2^53`, and `next_raw` is one word.
//! `next_uint32` is the stream itself, so `Generator.integers(0, 2**32, dtype=np.uint32)`
//! reproduces it word for word.

use core::ffi::c_void;
use core::ptr::NonNull;
use rng_core::lfsr::Lfsr32;
use rng_core::pcg32::Pcg32;
use rng_core::philox;
use rng_core::xorwow::Xorwow;

/// A 32-bit output stream.
pub trait Stream32: Send + 'static {
    /// The next word.
    fn next_u32(&mut self) -> u32;

    /// The next two words, in order.
    #[inline]
    fn next_pair(&mut self) -> [u32; 2] {
        let first = self.next_u32();
        [first, self.next_u32()]
    }

    /// `next_double`: the next two words as a double, by [`double_of_words`].
    #[inline]
    fn next_double(&mut self) -> f64 {
        let [w0, w1] = self.next_pair();
        double_of_words(w0, w1)
    }

    /// The next `out.len()` words.
    fn fill(&mut self, out: &mut [u32]) {
        for w in out {
            *w = self.next_u32();
        }
    }
}

impl Stream32 for Xorwow {
    fn next_u32(&mut self) -> u32 {
        self.step()
    }
}

impl Stream32 for Pcg32 {
    fn next_u32(&mut self) -> u32 {
        self.step()
    }
}

impl Stream32 for Lfsr32 {
    fn next_u32(&mut self) -> u32 {
        self.step()
    }
}

/// Philox4x32-10 blocks computed ahead at a time: the stream is the one of
/// [`rng_core::philox::Philox4x32`] (`block(counter)`, `block(counter + 1)`, ...), with many
/// blocks in hand, so that a word costs a copy and one block is computed per four words in a
/// loop without a branch per word.
///
/// The refill also computes the double of every pair of words at an even position, so that
/// `next_double` (numpy calls it once per element of `Generator.random`) is a load while the
/// position is even: the doubles are a function of the words, never a state of their own, so
/// a 32-bit draw or a new state cannot leave them stale; at an odd position the double is
/// built from the words.
#[derive(Clone, Debug, PartialEq)]
pub struct PhiloxStream {
    key: [u32; 2],
    /// Counter of the first block in `buffer`.
    base: [u32; 4],
    buffer: [u32; PhiloxStream::WORDS],
    /// `doubles[i]` is `double_of_words(buffer[2 * i], buffer[2 * i + 1])`.
    doubles: [f64; PhiloxStream::DOUBLES],
    /// Index in `buffer` of the next word.
    next: usize,
}

impl PhiloxStream {
    /// Blocks computed at a time.
    pub const BLOCKS: usize = 32;
    /// Words in the buffer.
    pub const WORDS: usize = 4 * PhiloxStream::BLOCKS;
    /// Doubles in the buffer: one per aligned pair of words.
    const DOUBLES: usize = PhiloxStream::WORDS / 2;

    /// The stream at word `index` (0..=4; 4: the block is used up) of `block(counter)`, as
    /// [`rng_core::philox::Philox4x32::from_position`] reads a position.
    pub fn new(counter: [u32; 4], key: [u32; 2], index: u32) -> PhiloxStream {
        let mut s = PhiloxStream {
            key,
            base: counter,
            buffer: [0; PhiloxStream::WORDS],
            doubles: [0.0; PhiloxStream::DOUBLES],
            next: index.min(4) as usize,
        };
        s.compute();
        s
    }

    /// Computes the blocks of `base`, `base + 1`, ... into the buffer, with the widest vector
    /// instructions the CPU has (the buffer is the same whichever runs).
    fn compute(&mut self) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl")
            {
                // SAFETY: the CPU has the features the copy is compiled for.
                return unsafe {
                    blocks_avx512(self.base, self.key, &mut self.buffer, &mut self.doubles)
                };
            }
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                return unsafe {
                    blocks_avx2(self.base, self.key, &mut self.buffer, &mut self.doubles)
                };
            }
        }
        blocks(self.base, self.key, &mut self.buffer, &mut self.doubles)
    }

    /// `next_double` where the buffer has no double for the position: an odd position, or the
    /// end of the buffer. Out of line with the C calling convention of the function numpy
    /// calls, so that the call to it there is a jump and the hot path needs no stack frame.
    #[cold]
    #[inline(never)]
    extern "C" fn double_from_words(&mut self) -> f64 {
        let first = self.next_u32();
        double_of_words(first, self.next_u32())
    }

    /// The next two words when the buffer does not hold both (out of line, so that the
    /// functions numpy calls per draw need no stack frame).
    #[cold]
    #[inline(never)]
    fn pair_across_refill(&mut self) -> [u32; 2] {
        let first = self.next_u32();
        [first, self.next_u32()]
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        self.base = philox::add_to_counter(self.base, PhiloxStream::BLOCKS as u128);
        self.compute();
        self.next = 0;
    }

    /// The key.
    pub fn key(&self) -> [u32; 2] {
        self.key
    }

    /// The position as rng-core's `Philox4x32` keeps it: the counter of the block the last word
    /// came from and the index after it (1..=4), or `(counter, 0)` before the first word.
    pub fn position(&self) -> ([u32; 4], u32) {
        match self.next {
            0 => (self.base, 0),
            n => (
                philox::add_to_counter(self.base, ((n - 1) / 4) as u128),
                ((n - 1) % 4 + 1) as u32,
            ),
        }
    }
}

/// The Philox4x32-10 blocks of `base`, `base + 1`, ... into `out`, and the double of each
/// aligned pair of their words into `doubles`: the rounds of `rng_core::philox` (its
/// constants), a round of every block at a time over arrays of the counter words, which the
/// compiler turns into vector multiplies (a block at a time is a chain of dependent multiplies;
/// at most half the speed).
#[inline(always)]
fn blocks(
    base: [u32; 4],
    key: [u32; 2],
    out: &mut [u32; PhiloxStream::WORDS],
    doubles: &mut [f64; PhiloxStream::DOUBLES],
) {
    const B: usize = PhiloxStream::BLOCKS;
    // Each 32-bit word in a 64-bit lane, so that a 32 x 32 -> 64-bit multiply is one vector
    // instruction per lane group, with no shuffles.
    let mut c = [[0u64; B]; 4];
    if base[0] <= u32::MAX - B as u32 {
        // No carry out of the low word: the other words are the base's for every block.
        for (b, lane) in c[0].iter_mut().enumerate() {
            *lane = u64::from(base[0]) + b as u64;
        }
        for (word, value) in c[1..].iter_mut().zip(&base[1..]) {
            word.fill(u64::from(*value));
        }
    } else {
        for b in 0..B {
            let counter = philox::add_to_counter(base, b as u128);
            for (word, value) in c.iter_mut().zip(counter) {
                word[b] = u64::from(value);
            }
        }
    }
    let (m0, m1) = (u64::from(philox::M0), u64::from(philox::M1));
    let low = u64::from(u32::MAX);
    let mut k = key;
    for round in 0..10 {
        if round > 0 {
            k = [k[0].wrapping_add(philox::W0), k[1].wrapping_add(philox::W1)];
        }
        let (k0, k1) = (u64::from(k[0]), u64::from(k[1]));
        let [c0, c1, c2, c3] = &mut c;
        for b in 0..B {
            // A lane's word is its low 32 bits. The low products keep their high halves: the
            // XORs carry those into high bits only, which the masks before the multiplies and
            // the truncation at the end ignore (one AND a lane and round fewer). Masked, the
            // compiler sees 32 x 32-bit products (one multiply a lane).
            let p0 = m0 * (c0[b] & low);
            let p1 = m1 * (c2[b] & low);
            let x0 = (p1 >> 32) ^ c1[b] ^ k0;
            let x2 = (p0 >> 32) ^ c3[b] ^ k1;
            c0[b] = x0;
            c1[b] = p1;
            c2[b] = x2;
            c3[b] = p0;
        }
    }
    for (b, words) in out.chunks_exact_mut(4).enumerate() {
        words.copy_from_slice(&[
            c[0][b] as u32,
            c[1][b] as u32,
            c[2][b] as u32,
            c[3][b] as u32,
        ]);
    }
    // A block's words 0 and 1, then 2 and 3: lane by lane, without shuffles.
    for (b, pair) in doubles.chunks_exact_mut(2).enumerate() {
        pair.copy_from_slice(&[
            double_of_words(c[0][b] as u32, c[1][b] as u32),
            double_of_words(c[2][b] as u32, c[3][b] as u32),
        ]);
    }
}

/// [`blocks`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
fn blocks_avx512(
    base: [u32; 4],
    key: [u32; 2],
    out: &mut [u32; PhiloxStream::WORDS],
    doubles: &mut [f64; PhiloxStream::DOUBLES],
) {
    blocks(base, key, out, doubles)
}

/// [`blocks`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocks_avx2(
    base: [u32; 4],
    key: [u32; 2],
    out: &mut [u32; PhiloxStream::WORDS],
    doubles: &mut [f64; PhiloxStream::DOUBLES],
) {
    blocks(base, key, out, doubles)
}

impl Stream32 for PhiloxStream {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.next >= PhiloxStream::WORDS {
            self.refill();
        }
        let w = self.buffer[self.next];
        self.next += 1;
        w
    }

    #[inline]
    fn next_pair(&mut self) -> [u32; 2] {
        match self.buffer.get(self.next..self.next + 2) {
            Some(&[a, b]) => {
                self.next += 2;
                [a, b]
            }
            _ => self.pair_across_refill(),
        }
    }

    #[inline(always)]
    fn next_double(&mut self) -> f64 {
        // An even position before the buffer's last word, in one test (`WORDS` is a power of
        // two): the pair there has its double in `doubles`.
        const OFF_THE_DOUBLES: usize = !(PhiloxStream::WORDS - 2);
        const _: () = assert!(PhiloxStream::WORDS.is_power_of_two());
        if self.next & OFF_THE_DOUBLES == 0 {
            // The index is below `DOUBLES` already; the remainder says so to the compiler.
            let d = self.doubles[(self.next / 2) % PhiloxStream::DOUBLES];
            self.next += 2;
            d
        } else {
            self.double_from_words()
        }
    }

    fn fill(&mut self, out: &mut [u32]) {
        let mut at = 0;
        while at < out.len() {
            if self.next >= PhiloxStream::WORDS {
                self.refill();
            }
            let n = (PhiloxStream::WORDS - self.next).min(out.len() - at);
            out[at..at + n].copy_from_slice(&self.buffer[self.next..self.next + n]);
            self.next += n;
            at += n;
        }
    }
}

/// `next_uint64` from two words of the stream, the first the high half.
#[inline]
pub fn u64_of<S: Stream32>(s: &mut S) -> u64 {
    let [high, low] = s.next_pair();
    (u64::from(high) << 32) | u64::from(low)
}

/// The double of two words: 27 bits of the first, 26 of the second, in [0, 1). Every step is
/// exact, so the result does not depend on how (or how many at a time) it is computed.
#[inline(always)]
pub fn double_of_words(w0: u32, w1: u32) -> f64 {
    (f64::from(w0 >> 5) * 67_108_864.0 + f64::from(w1 >> 6)) / 9_007_199_254_740_992.0
}

/// numpy's `bitgen_t`.
#[repr(C)]
pub struct BitGen {
    state: *mut c_void,
    next_uint64: unsafe extern "C" fn(*mut c_void) -> u64,
    next_uint32: unsafe extern "C" fn(*mut c_void) -> u32,
    next_double: unsafe extern "C" fn(*mut c_void) -> f64,
    next_raw: unsafe extern "C" fn(*mut c_void) -> u64,
}

// SAFETY (all four): numpy passes back the `state` pointer of the `BitGen` these functions were
// put into, which points to the `S` of a live `Core<S>`, and calls them holding the bit
// generator's lock, so no other access to that `S` runs meanwhile. The streams never panic.
unsafe extern "C" fn next_uint64<S: Stream32>(state: *mut c_void) -> u64 {
    u64_of(unsafe { &mut *state.cast::<S>() })
}

unsafe extern "C" fn next_uint32<S: Stream32>(state: *mut c_void) -> u32 {
    unsafe { &mut *state.cast::<S>() }.next_u32()
}

unsafe extern "C" fn next_double<S: Stream32>(state: *mut c_void) -> f64 {
    unsafe { &mut *state.cast::<S>() }.next_double()
}

unsafe extern "C" fn next_raw<S: Stream32>(state: *mut c_void) -> u64 {
    u64::from(unsafe { &mut *state.cast::<S>() }.next_u32())
}

/// The `bitgen_t` and its stream, in one allocation.
#[repr(C)]
struct Core<S> {
    bitgen: BitGen,
    stream: S,
}

/// An owned `Core`: the stream, and the `bitgen_t` numpy calls it through.
///
/// Everything goes through one raw pointer (numpy holds a copy of it inside `bitgen_t`), so
/// the stream is only reached by [`Owned::with`], whose callers hold the bit generator's lock.
pub struct Owned<S: Stream32> {
    core: NonNull<Core<S>>,
}

// SAFETY: the stream is `Send`; the pointer is only dereferenced under the Python-level lock
// (see `Owned::with`), which serialises every access across threads.
unsafe impl<S: Stream32> Send for Owned<S> {}
unsafe impl<S: Stream32> Sync for Owned<S> {}

impl<S: Stream32> Owned<S> {
    /// A new allocation holding `stream`.
    pub fn new(stream: S) -> Owned<S> {
        let core = Box::into_raw(Box::new(Core {
            bitgen: BitGen {
                state: core::ptr::null_mut(),
                next_uint64: next_uint64::<S>,
                next_uint32: next_uint32::<S>,
                next_double: next_double::<S>,
                next_raw: next_raw::<S>,
            },
            stream,
        }));
        // SAFETY: `core` is the live allocation just made.
        unsafe {
            (*core).bitgen.state = core::ptr::addr_of_mut!((*core).stream).cast();
        }
        Owned {
            core: NonNull::new(core).expect("Box::into_raw is never null"),
        }
    }

    /// The `bitgen_t` for numpy's capsule.
    pub fn bitgen(&self) -> NonNull<c_void> {
        self.core.cast()
    }

    /// Runs `f` on the stream.
    ///
    /// # Safety
    /// The caller holds the lock numpy holds while it calls the `bitgen_t` functions (the bit
    /// generator's `lock`), so that `f` is the only access to the stream meanwhile.
    pub unsafe fn with<T>(&self, f: impl FnOnce(&mut S) -> T) -> T {
        // SAFETY: the allocation lives as long as `self`; exclusivity is the caller's promise.
        f(unsafe { &mut (*self.core.as_ptr()).stream })
    }
}

impl<S: Stream32> Drop for Owned<S> {
    fn drop(&mut self) {
        // SAFETY: made by `Box::into_raw` in `new`, freed only here.
        drop(unsafe { Box::from_raw(self.core.as_ptr()) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rng_core::philox::Philox4x32;

    #[test]
    fn the_buffered_philox_stream_is_rng_cores() {
        for (counter, index) in [
            ([0u32; 4], 0),
            ([u32::MAX - 3, u32::MAX, 0, 0], 3),
            ([5, 0, 0, 0], 4),
        ] {
            let key = [0x1234_5678, 0x9abc_def0];
            let mut ours = PhiloxStream::new(counter, key, index);
            let mut theirs = Philox4x32::from_position(counter, key, index);
            for k in 0..1000 {
                assert_eq!(
                    ours.position(),
                    (theirs.counter(), theirs.index()),
                    "before word {k}"
                );
                assert_eq!(ours.next_u32(), theirs.next_word(), "word {k}");
            }
            let mut bulk = PhiloxStream::new(counter, key, index);
            let mut words = vec![0u32; 333];
            bulk.next_u32();
            bulk.fill(&mut words);
            let mut theirs = Philox4x32::from_position(counter, key, index);
            theirs.next_word();
            assert!(words.iter().all(|&w| w == theirs.next_word()));
        }
    }

    #[test]
    fn the_batched_rounds_are_rng_cores_blocks() {
        let key = [0xdead_beef, 7];
        type Blocks = fn(
            [u32; 4],
            [u32; 2],
            &mut [u32; PhiloxStream::WORDS],
            &mut [f64; PhiloxStream::DOUBLES],
        );
        // Every compiled copy the CPU can run, not only the one `compute` picks.
        let mut copies: Vec<(&str, Blocks)> = vec![("portable", |b, k, o, d| blocks(b, k, o, d))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                copies.push(("avx2", |b, k, o, d| unsafe { blocks_avx2(b, k, o, d) }));
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl")
            {
                // SAFETY: the CPU has AVX-512F and VL.
                copies.push(("avx512", |b, k, o, d| unsafe { blocks_avx512(b, k, o, d) }));
            }
        }
        for (name, copy) in copies {
            for base in [[u32::MAX - 5, u32::MAX, 3, 0], [0x8000_0000, 1, 2, 3]] {
                let (mut words, mut doubles) =
                    ([0; PhiloxStream::WORDS], [0.0; PhiloxStream::DOUBLES]);
                copy(base, key, &mut words, &mut doubles);
                for (b, block) in words.chunks_exact(4).enumerate() {
                    let expected = philox::block(philox::add_to_counter(base, b as u128), key);
                    assert_eq!(block, expected, "{name}: block {b}");
                    let pair = [doubles[2 * b], doubles[2 * b + 1]];
                    let defined = [
                        defined_double(expected[0], expected[1]),
                        defined_double(expected[2], expected[3]),
                    ];
                    assert_eq!(pair, defined, "{name}: block {b}'s doubles");
                }
            }
        }
    }

    #[test]
    fn wider_outputs_are_built_as_randomgen_builds_them() {
        let mut s = PhiloxStream::new([0; 4], [0; 2], 0);
        // Random123's block(0, 0): 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
        assert_eq!(u64_of(&mut s), 0x6627_e8d5_e169_c58d);
        let d = s.next_double();
        let expected = (f64::from(0xbc57_ac4cu32 >> 5) * 2f64.powi(26)
            + f64::from(0x9b00_dbd8u32 >> 6))
            / 2f64.powi(53);
        assert_eq!(d, expected);
        let mut ones = Lfsr32::new(0);
        assert_eq!(ones.next_double(), 0.0);
    }

    #[test]
    fn the_capsule_functions_reach_the_stream() {
        let owned = Owned::new(Xorwow::from_state(rng_core::xorwow::MARSAGLIA_STATE));
        let bitgen = owned.bitgen().cast::<BitGen>().as_ptr();
        // SAFETY: single-threaded test; the functions are called as numpy calls them.
        let (a, b) = unsafe {
            (
                ((*bitgen).next_uint32)((*bitgen).state),
                ((*bitgen).next_raw)((*bitgen).state),
            )
        };
        let mut reference = Xorwow::from_state(rng_core::xorwow::MARSAGLIA_STATE);
        assert_eq!((a, b), (reference.step(), u64::from(reference.step())));
        // SAFETY: as above.
        let next = unsafe { owned.with(|s| s.next_u32()) };
        assert_eq!(next, reference.step());
    }

    /// `next_double` by its definition, computed another way than `double_of_words`: the 53-bit
    /// integer of the two words' bits, scaled.
    fn defined_double(w0: u32, w1: u32) -> f64 {
        ((u64::from(w0 >> 5) << 26) | u64::from(w1 >> 6)) as f64 / 2f64.powi(53)
    }

    #[test]
    fn philox_doubles_are_the_words_doubles_at_every_position() {
        // Word, double and 64-bit draws mixed through the capsule functions, so that doubles
        // start at even and odd positions, at a buffer's last word and after the state is set
        // mid-block; each is compared with the words of rng-core's Philox4x32.
        let key = [0x0bad_cafe, 0x1357_9bdf];
        for (counter, index) in [([0u32; 4], 0), ([9, 0, 0, 0], 1), ([u32::MAX, 1, 0, 0], 3)] {
            let owned = Owned::new(PhiloxStream::new(counter, key, index));
            let bitgen = owned.bitgen().cast::<BitGen>().as_ptr();
            let mut reference = Philox4x32::from_position(counter, key, index);
            // Runs of 32-bit draws (0 to 3) then of doubles (0 to 70), at times a 64-bit draw
            // and a state set, varied by an LCG, over many refills of the buffer.
            let mut lcg = 12345u32;
            let mut words = 0;
            while words < 20 * PhiloxStream::WORDS {
                lcg = lcg.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let (singles, doubles) = ((lcg >> 8) % 4, (lcg >> 16) % 71);
                for _ in 0..singles {
                    // SAFETY: single-threaded test; called as numpy calls it.
                    let got = unsafe { ((*bitgen).next_uint32)((*bitgen).state) };
                    assert_eq!(got, reference.next_word(), "word {words}");
                    words += 1;
                }
                for _ in 0..doubles {
                    // SAFETY: as above.
                    let got = unsafe { ((*bitgen).next_double)((*bitgen).state) };
                    let (w0, w1) = (reference.next_word(), reference.next_word());
                    assert_eq!(got, defined_double(w0, w1), "double at word {words}");
                    words += 2;
                }
                if lcg >> 29 == 1 {
                    // SAFETY: as above.
                    let got = unsafe { ((*bitgen).next_uint64)((*bitgen).state) };
                    let (high, low) = (reference.next_word(), reference.next_word());
                    assert_eq!(
                        got,
                        u64::from(high) << 32 | u64::from(low),
                        "at word {words}"
                    );
                    words += 2;
                }
                // SAFETY: as above.
                let position = unsafe { owned.with(|s| s.position()) };
                assert_eq!(position, (reference.counter(), reference.index()));
                if lcg >> 30 == 0 {
                    // A state set where the doubles' alignment may change.
                    let (counter, index) = position;
                    // SAFETY: as above.
                    unsafe { owned.with(|s| *s = PhiloxStream::new(counter, key, index)) };
                }
            }
        }
    }
}
