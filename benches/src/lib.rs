//! What the benchmarks share: the known-answer data of `rng-core/tests/kat` (read from the files,
//! whose headers name their sources: expected values never come from the code under test), the
//! textbook generators the banks are measured against, and the word-for-word comparison that each
//! benchmark runs before it times anything.
//!
//! The peers and this crate are never published (`publish = false`): library users never build them.

use std::path::PathBuf;

/// Lanes of a bank (the peers run one generator per lane).
pub const LANES: usize = 128;

/// The lines of a known-answer file of `rng-core/tests/kat/`, split into fields, comments dropped.
pub fn kat(name: &str) -> Vec<Vec<String>> {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "rng-core", "tests", "kat"]
        .iter()
        .collect();
    read::fields(&dir, name)
}

#[path = "../../rng-core/tests/kat/read.rs"]
mod read;

use read::hex;

/// A decimal word of a known-answer file.
pub fn dec(s: &str) -> u32 {
    s.parse()
        .unwrap_or_else(|e| panic!("known-answer field {s:?}: {e}"))
}

/// `N` words of `fields`, parsed by `parse`.
pub fn words<const N: usize>(fields: &[String], parse: fn(&str) -> u32) -> [u32; N] {
    assert_eq!(fields.len(), N, "known-answer fields {fields:?}");
    core::array::from_fn(|i| parse(&fields[i]))
}

/// A Random123 Philox4x32-10 row: counter, key, the block's four words.
pub struct PhiloxRow {
    /// Counter words c0..c3.
    pub counter: [u32; 4],
    /// Key words k0, k1.
    pub key: [u32; 2],
    /// The block.
    pub block: [u32; 4],
}

/// The 10-round rows of `philox4x32.txt` (Random123's kat_vectors).
pub fn philox_rows() -> Vec<PhiloxRow> {
    let rows: Vec<PhiloxRow> = kat("philox4x32.txt")
        .iter()
        .filter(|r| r[0] == "philox4x32" && r[1] == "10")
        .map(|r| PhiloxRow {
            counter: words(&r[2..6], hex),
            key: words(&r[6..8], hex),
            block: words(&r[8..12], hex),
        })
        .collect();
    assert_eq!(rows.len(), 3, "philox4x32.txt has three 10-round rows");
    rows
}

/// Marsaglia's default state and his published first twenty outputs (`xorwow_marsaglia.txt`).
pub fn marsaglia() -> ([u32; 6], Vec<u32>) {
    let rows = kat("xorwow_marsaglia.txt");
    assert_eq!(rows[0][0], "state");
    let state = words(&rows[0][1..], dec);
    let out: Vec<u32> = rows[1..]
        .iter()
        .flat_map(|r| {
            assert_eq!(r[0], "output");
            r[1..].iter().map(|s| dec(s)).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(out.len(), 20, "twenty published outputs");
    (state, out)
}

/// pcg-c's demo: `srandom(initstate, initseq)` and the six published outputs (`pcg32_demo.txt`).
pub fn pcg32_demo() -> (u64, u64, Vec<u32>) {
    let rows = kat("pcg32_demo.txt");
    assert_eq!(rows[0][0], "srandom");
    let seed = |s: &String| s.parse::<u64>().expect("decimal seed");
    let out: Vec<u32> = rows[1][1..].iter().map(|s| hex(s)).collect();
    assert_eq!(rows[1][0], "32bit:");
    (seed(&rows[0][1]), seed(&rows[0][2]), out)
}

/// The `seed` / `output` pairs of `lfsr_fibonacci.txt` (taps 32, 22, 2, 1; derived independently).
pub fn lfsr_rows() -> Vec<(u32, Vec<u32>)> {
    let rows = kat("lfsr_fibonacci.txt");
    let mut out = Vec::new();
    for pair in rows.windows(2) {
        if pair[0][0] == "seed" && pair[1][0] == "output" {
            out.push((
                hex(&pair[0][1]),
                pair[1][1..].iter().map(|s| hex(s)).collect(),
            ));
        }
    }
    assert!(
        out.len() >= 5,
        "lfsr_fibonacci.txt has its seed/output rows"
    );
    out
}

/// Marsaglia's xorwow, as printed in "Xorshift RNGs" (2003), one generator's state in locals.
pub fn textbook_xorwow(state: &mut [u32; 6], out: &mut [u32]) {
    let [mut x, mut y, mut z, mut w, mut v, mut d] = *state;
    for o in out {
        let t = x ^ (x >> 2);
        x = y;
        y = z;
        z = w;
        w = v;
        v = (v ^ (v << 4)) ^ (t ^ (t << 1));
        d = d.wrapping_add(362_437);
        *o = d.wrapping_add(v);
    }
    *state = [x, y, z, w, v, d];
}

/// The textbook 32-bit Fibonacci LFSR with taps 32, 22, 2, 1 (the output is the new state).
pub fn textbook_lfsr(state: &mut u32, out: &mut [u32]) {
    let mut s = *state;
    for o in out {
        let bit = ((s >> 31) ^ (s >> 21) ^ (s >> 1) ^ s) & 1;
        s = (s << 1) | bit;
        *o = s;
    }
    *state = s;
}

/// The PCG32 state right after pcg-c's `pcg32_srandom_r(initstate, initseq)`, and its increment.
pub fn pcg32_srandom(initstate: u64, initseq: u64) -> (u64, u64) {
    const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
    let inc = (initseq << 1) | 1;
    let state = inc; // 0 * M + inc
    let state = state
        .wrapping_add(initstate)
        .wrapping_mul(MULTIPLIER)
        .wrapping_add(inc);
    (state, inc)
}

/// SplitMix64 (Vigna): the benchmarks' lane states, so no lane shares another's stream.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Fails loudly unless the bank's rows (`bank[j][p]`: element `j` of lane `p`) hold the peer's
/// streams (`peer[p][j]`), word for word.
pub fn assert_same_words(what: &str, bank: &[[u32; LANES]], peer: &[Vec<u32>]) {
    assert_eq!(peer.len(), LANES, "{what}: one peer stream per lane");
    for (p, stream) in peer.iter().enumerate() {
        assert_eq!(stream.len(), bank.len(), "{what}: lane {p} length");
        for (j, &word) in stream.iter().enumerate() {
            assert!(
                bank[j][p] == word,
                "{what}: lane {p} element {j}: project {:#010x}, peer {word:#010x}",
                bank[j][p]
            );
        }
    }
}

/// Fails loudly unless `got` starts with the known answers `expected`.
pub fn assert_known(what: &str, got: &[u32], expected: &[u32]) {
    assert!(
        got.len() >= expected.len() && got[..expected.len()] == *expected,
        "{what}: {:x?} does not start with the known answers {expected:x?}",
        &got[..expected.len().min(got.len())]
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_textbook_generators_give_the_published_words() {
        let (mut state, expected) = marsaglia();
        let mut out = vec![0; expected.len()];
        textbook_xorwow(&mut state, &mut out);
        assert_eq!(out, expected);
        for (seed, expected) in lfsr_rows() {
            let mut s = seed;
            let mut out = vec![0; expected.len()];
            textbook_lfsr(&mut s, &mut out);
            assert_eq!(out, expected, "seed {seed:#x}");
        }
    }

    #[test]
    fn srandom_gives_the_derived_seeded_state() {
        let rows = kat("pcg32_demo.txt");
        let find = |name: &str| {
            let r = rows.iter().find(|r| r[0] == name).expect(name);
            u64::from_str_radix(r[1].trim_start_matches("0x"), 16).expect(name)
        };
        let (initstate, initseq, _) = pcg32_demo();
        assert_eq!(
            pcg32_srandom(initstate, initseq),
            (find("seeded_state"), find("seeded_inc"))
        );
    }

    #[test]
    fn a_differing_word_is_caught() {
        let bank = vec![[7u32; LANES]; 2];
        let mut peer = vec![vec![7u32; 2]; LANES];
        assert_same_words("equal", &bank, &peer);
        peer[5][1] = 8;
        let caught = std::panic::catch_unwind(|| assert_same_words("differs", &bank, &peer));
        assert!(caught.is_err());
    }
}
