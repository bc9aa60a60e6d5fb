//! Known-answer tests: every expected value comes from a data file in `tests/kat/`
//! whose header names its source (published, or derived and how).

use rand_core::RngCore;
use rng_core::lfsr::Lfsr32;
use rng_core::pcg32::Pcg32;
use rng_core::philox::{self, Philox4x32};
use rng_core::xorwow::Xorwow;

#[path = "kat/read.rs"]
mod read;

fn data(name: &str) -> Vec<Vec<String>> {
    read::fields(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kat"),
        name,
    )
}

use read::{hex, hex64};

fn words<const N: usize>(fields: &[String], parse: fn(&str) -> u32) -> [u32; N] {
    assert_eq!(fields.len(), N, "{fields:?}");
    core::array::from_fn(|i| parse(&fields[i]))
}

#[test]
fn philox4x32_random123_rows() {
    let rows = data("philox4x32.txt");
    let mut seen = [0usize; 2];
    for row in &rows {
        assert_eq!(row[0], "philox4x32");
        let counter: [u32; 4] = words(&row[2..6], hex);
        let key: [u32; 2] = words(&row[6..8], hex);
        let expected: [u32; 4] = words(&row[8..12], hex);
        let got = match row[1].as_str() {
            "7" => {
                seen[0] += 1;
                philox::block_rounds::<7>(counter, key)
            }
            "10" => {
                seen[1] += 1;
                // Both the block function and the stream must give the row.
                let mut stream = Philox4x32::new(counter, key);
                let words: [u32; 4] = core::array::from_fn(|_| stream.next_u32());
                assert_eq!(words, expected, "stream of {row:?}");
                philox::block(counter, key)
            }
            other => panic!("unexpected round count {other}"),
        };
        assert_eq!(got, expected, "{row:?}");
    }
    assert_eq!(seen, [3, 3], "the file holds three rows per round count");
}

#[test]
fn philox4x32_stream_crosses_the_counter_increment() {
    let rows = data("philox4x32_stream.txt");
    let counter: [u32; 4] = words(&rows[0][1..], hex);
    let key: [u32; 2] = words(&rows[1][1..], hex);
    assert_eq!(rows[2][0], "stream");
    let expected: Vec<u32> = rows[2][1..].iter().map(|s| hex(s)).collect();
    assert_eq!(expected.len(), 8);
    let mut g = Philox4x32::new(counter, key);
    let got: Vec<u32> = expected.iter().map(|_| g.next_u32()).collect();
    assert_eq!(got, expected);
}

#[test]
fn xorwow_marsaglia_default_sequence() {
    let rows = data("xorwow_marsaglia.txt");
    assert_eq!(rows[0][0], "state");
    let state: [u32; 6] = words(&rows[0][1..], |s| s.parse().unwrap());
    let expected: Vec<u32> = rows[1..]
        .iter()
        .flat_map(|r| {
            assert_eq!(r[0], "output");
            r[1..].iter().map(|s| s.parse::<u32>().unwrap())
        })
        .collect();
    assert_eq!(expected.len(), 20);
    let mut g = Xorwow::from_state(state);
    let got: Vec<u32> = expected.iter().map(|_| g.next_u32()).collect();
    assert_eq!(got, expected);
    assert_eq!(
        Xorwow::default().next_u32(),
        expected[0],
        "Default is Marsaglia's state"
    );
}

#[test]
fn pcg32_seed_42_54_round_1_and_its_replay() {
    let rows = data("pcg32_demo.txt");
    assert_eq!(rows[0][0], "srandom");
    let (initstate, initseq): (u64, u64) =
        (rows[0][1].parse().unwrap(), rows[0][2].parse().unwrap());
    assert_eq!(rows[1][0], "32bit:");
    let round1: [u32; 6] = words(&rows[1][1..], hex);
    assert_eq!(rows[2][0], "Again:");
    let again: [u32; 6] = words(&rows[2][1..], hex);
    assert_eq!(rows[3][0], "seeded_state");
    assert_eq!(rows[4][0], "seeded_inc");

    let mut g = Pcg32::srandom(initstate, initseq);
    assert_eq!(g.state(), hex64(&rows[3][1]));
    assert_eq!(g.increment(), hex64(&rows[4][1]));
    let got: [u32; 6] = core::array::from_fn(|_| g.next_u32());
    assert_eq!(got, round1);
    g.advance(0u64.wrapping_sub(6));
    let replay: [u32; 6] = core::array::from_fn(|_| g.next_u32());
    assert_eq!(replay, again);
}

/// `SeedableRng::from_seed` takes pcg-c's `pcg32_srandom_r(initstate, initseq)` arguments: the
/// published round for (42, 54) comes out of the seed bytes of 42 and 54. So does it out of
/// `rand_pcg::Pcg32::new(42, 54)`, the same mapping; `rand_pcg::Pcg32::from_seed` of the same
/// bytes is another stream (it uses the second word `| 1` as the increment itself).
#[test]
fn pcg32_from_seed_is_pcg_c_srandom_and_rand_pcg_new_not_its_from_seed() {
    use rand_pcg::rand_core::{Rng as _, SeedableRng as _};
    let rows = data("pcg32_demo.txt");
    let (initstate, initseq): (u64, u64) =
        (rows[0][1].parse().unwrap(), rows[0][2].parse().unwrap());
    let round1: [u32; 6] = words(&rows[1][1..], hex);
    let mut seed = [0u8; 16];
    seed[..8].copy_from_slice(&initstate.to_le_bytes());
    seed[8..].copy_from_slice(&initseq.to_le_bytes());

    let mut ours = <Pcg32 as rand_core::SeedableRng>::from_seed(seed);
    assert_eq!(ours.state(), hex64(&rows[3][1]));
    assert_eq!(ours.increment(), hex64(&rows[4][1]));
    let got: [u32; 6] = core::array::from_fn(|_| ours.next_u32());
    assert_eq!(got, round1);

    let mut new = rand_pcg::Pcg32::new(initstate, initseq);
    let theirs: [u32; 6] = core::array::from_fn(|_| new.next_u32());
    assert_eq!(theirs, round1);
    let mut from_seed = rand_pcg::Pcg32::from_seed(seed);
    let other: [u32; 6] = core::array::from_fn(|_| from_seed.next_u32());
    assert_ne!(other, round1);
}

#[test]
fn lfsr_derived_sequences() {
    let rows = data("lfsr_fibonacci.txt");
    let mut checked = 0;
    let mut k = 0;
    while k < rows.len() {
        assert_eq!(rows[k][0], "seed");
        let seed = hex(&rows[k][1]);
        let next = &rows[k + 1];
        let mut g = Lfsr32::new(seed);
        match next[0].as_str() {
            "output" => {
                let expected: Vec<u32> = next[1..].iter().map(|s| hex(s)).collect();
                let got: Vec<u32> = expected.iter().map(|_| g.next_u32()).collect();
                assert_eq!(got, expected, "seed {seed:#010x}");
            }
            "after" => {
                let steps: usize = next[1].parse().unwrap();
                for _ in 0..steps {
                    g.step();
                }
                assert_eq!(g.state(), hex(&next[2]), "seed {seed:#010x} after {steps}");
            }
            other => panic!("unexpected row {other}"),
        }
        checked += 1;
        k += 2;
    }
    assert_eq!(checked, 7);
}
