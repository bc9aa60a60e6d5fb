//! The RNG rows of issue 11: each lane bank of rng-core against its peer, 128 lanes x 256 words.
//!
//! Each benchmark first checks, before timing, that the peer gives its published known answers
//! (Random123, pcg-c, Marsaglia, the derived LFSR file: `rng-core/tests/kat`), that the bank gives
//! them too in the lanes holding those states, and that both sides produce the same words in every
//! lane; any difference panics. Then `<row>/project` and `<row>/peer` are timed (the script
//! `scripts/bench-ratios` turns them into the ratio table).

use benches::{
    assert_known, assert_same_words, lfsr_rows, marsaglia, pcg32_demo, pcg32_srandom, philox_rows,
    splitmix64, textbook_lfsr, textbook_xorwow, LANES,
};
use criterion::{criterion_group, criterion_main, Criterion};
use rand_core_peer::Rng as _;
use rng_core::bank::{Bank, BankShape, LaneRow};
use rng_core::ModelChoices;
use std::hint::black_box;

/// Words drawn per lane by one timed call.
const WORDS: usize = 256;

fn rows(count: usize) -> Vec<LaneRow> {
    vec![[0u32; LANES]; count]
}

/// Draws `WORDS` words for every lane of `bank` once, for the check.
fn first_draw(bank: &Bank) -> Vec<LaneRow> {
    let mut copy = bank.clone();
    let mut out = rows(WORDS);
    copy.draw(LANES, &mut out).expect("128 lanes");
    out
}

fn lane_words(out: &[LaneRow], lane: usize) -> Vec<u32> {
    out.iter().map(|r| r[lane]).collect()
}

fn philox(c: &mut Criterion) {
    let kat = philox_rows();
    // Lanes 0..3 hold the Random123 rows; the rest counters and keys from SplitMix64.
    let mut seed = 11;
    let lanes: Vec<([u32; 4], [u32; 2])> = (0..LANES)
        .map(|p| match kat.get(p) {
            Some(row) => (row.counter, row.key),
            None => {
                let a = splitmix64(&mut seed);
                let b = splitmix64(&mut seed);
                (
                    [a as u32, (a >> 32) as u32, 0, 0],
                    [b as u32, (b >> 32) as u32],
                )
            }
        })
        .collect();
    let mut bank = Bank::new(BankShape::Philox, ModelChoices::RECONSTRUCTED);
    for (p, (ctr, key)) in lanes.iter().enumerate() {
        let record = [ctr[0], ctr[1], ctr[2], ctr[3], key[0], key[1], 0];
        bank.set_lane(p, &record).expect("a Philox lane record");
    }
    let counter = |ctr: &[u32; 4]| {
        ctr.iter()
            .rev()
            .fold(0u128, |a, &w| (a << 32) | u128::from(w))
    };
    let mut peers: Vec<rand_philox::Philox> = lanes
        .iter()
        .map(|(ctr, key)| rand_philox::Philox::new(*key, counter(ctr)))
        .collect();
    let mut peer_out = vec![vec![0u32; WORDS]; LANES];

    let project_first = first_draw(&bank);
    let peer_first: Vec<Vec<u32>> = peers
        .iter()
        .map(|g| {
            let mut out = vec![0; WORDS];
            g.clone().fill_u32(&mut out);
            out
        })
        .collect();
    for (p, row) in kat.iter().enumerate() {
        assert_known("Philox peer", &peer_first[p], &row.block);
        assert_known("Philox bank", &lane_words(&project_first, p), &row.block);
    }
    assert_same_words("Philox4x32-10", &project_first, &peer_first);

    let mut out = rows(WORDS);
    let mut group = c.benchmark_group("philox");
    group.bench_function("project", |b| {
        b.iter(|| {
            bank.draw(LANES, black_box(&mut out)).expect("128 lanes");
        })
    });
    group.bench_function("peer", |b| {
        b.iter(|| {
            for (g, out) in peers.iter_mut().zip(&mut peer_out) {
                g.fill_u32(black_box(out));
            }
        })
    });
    group.finish();
}

/// Per lane, `subs` xorwow states: lane 0's first is Marsaglia's default state.
fn xorwow_states(subs: usize) -> Vec<Vec<[u32; 6]>> {
    let (default, _) = marsaglia();
    let mut seed = 23;
    (0..LANES)
        .map(|p| {
            (0..subs)
                .map(|g| {
                    if p == 0 && g == 0 {
                        default
                    } else {
                        core::array::from_fn(|_| (splitmix64(&mut seed) >> 32) as u32 | 1)
                    }
                })
                .collect()
        })
        .collect()
}

fn xorwow_row(c: &mut Criterion, name: &str, subs: usize) {
    let (_, published) = marsaglia();
    let mut states = xorwow_states(subs);
    let mut bank = Bank::new(
        BankShape::Xorwow {
            sub_generators: subs as u8,
        },
        ModelChoices::RECONSTRUCTED,
    );
    for (p, lane) in states.iter().enumerate() {
        let record: Vec<u32> = lane.iter().flatten().copied().collect();
        bank.set_lane(p, &record).expect("an XORWOW lane record");
    }
    // The textbook loop per state; element j of a lane comes from its state j % subs (round robin).
    let per_state = WORDS / subs;
    let mut buffers = vec![vec![0u32; per_state]; LANES * subs];
    let textbook = |states: &mut [Vec<[u32; 6]>], buffers: &mut [Vec<u32>]| {
        for (lane, bufs) in states.iter_mut().zip(buffers.chunks_mut(subs)) {
            for (state, buf) in lane.iter_mut().zip(bufs) {
                textbook_xorwow(state, buf);
            }
        }
    };

    let project_first = first_draw(&bank);
    let mut check_states = states.clone();
    textbook(&mut check_states, &mut buffers);
    let peer_first: Vec<Vec<u32>> = buffers
        .chunks(subs)
        .map(|bufs| (0..WORDS).map(|j| bufs[j % subs][j / subs]).collect())
        .collect();
    let lane0_state0: Vec<u32> = (0..per_state).map(|k| project_first[k * subs][0]).collect();
    assert_known("XORWOW textbook", &buffers[0], &published);
    assert_known("XORWOW bank", &lane0_state0, &published);
    assert_same_words(name, &project_first, &peer_first);

    let mut out = rows(WORDS);
    let mut group = c.benchmark_group(name);
    group.bench_function("project", |b| {
        b.iter(|| bank.draw(LANES, black_box(&mut out)).expect("128 lanes"))
    });
    group.bench_function("peer", |b| {
        b.iter(|| textbook(&mut states, black_box(&mut buffers)))
    });
    group.finish();
}

fn xorwow_pool(c: &mut Criterion) {
    xorwow_row(c, "xorwow_pool", 1);
}

fn xorwow_dve(c: &mut Criterion) {
    xorwow_row(c, "xorwow_dve", 4);
}

fn pcg32(c: &mut Criterion) {
    let (initstate, initseq, published) = pcg32_demo();
    // One increment for the whole bank (a model choice): pcg-c's demo stream, lane p seeded initstate + p.
    let (_, increment) = pcg32_srandom(initstate, initseq);
    let model = ModelChoices {
        pcg32_increment: increment,
        ..ModelChoices::RECONSTRUCTED
    };
    let mut bank = Bank::new(BankShape::Pcg32, model);
    for p in 0..LANES {
        let (state, _) = pcg32_srandom(initstate + p as u64, initseq);
        bank.set_lane(p, &[state as u32, (state >> 32) as u32])
            .expect("a PCG32 lane record");
    }
    let mut peers: Vec<rand_pcg::Pcg32> = (0..LANES)
        .map(|p| rand_pcg::Pcg32::new(initstate + p as u64, initseq))
        .collect();
    let mut peer_out = vec![vec![0u32; WORDS]; LANES];
    let peer_fill = |peers: &mut [rand_pcg::Pcg32], outs: &mut [Vec<u32>]| {
        for (g, out) in peers.iter_mut().zip(outs) {
            for w in out.iter_mut() {
                *w = g.next_u32();
            }
        }
    };

    let project_first = first_draw(&bank);
    let mut check = peers.clone();
    let mut peer_first = peer_out.clone();
    peer_fill(&mut check, &mut peer_first);
    assert_known("PCG32 peer", &peer_first[0], &published);
    assert_known("PCG32 bank", &lane_words(&project_first, 0), &published);
    assert_same_words("PCG32", &project_first, &peer_first);

    let mut out = rows(WORDS);
    let mut group = c.benchmark_group("pcg32");
    group.bench_function("project", |b| {
        b.iter(|| bank.draw(LANES, black_box(&mut out)).expect("128 lanes"))
    });
    group.bench_function("peer", |b| {
        b.iter(|| peer_fill(&mut peers, black_box(&mut peer_out)))
    });
    group.finish();
}

fn lfsr(c: &mut Criterion) {
    let kat = lfsr_rows();
    // Lanes 0.. hold the known-answer seeds (the all-zero fixed point included), the rest SplitMix64.
    let mut seed = 37;
    let mut states: Vec<u32> = (0..LANES)
        .map(|p| match kat.get(p) {
            Some((s, _)) => *s,
            None => (splitmix64(&mut seed) >> 32) as u32 | 1,
        })
        .collect();
    let mut bank = Bank::new(
        BankShape::Lfsr { sub_generators: 1 },
        ModelChoices::RECONSTRUCTED,
    );
    for (p, s) in states.iter().enumerate() {
        bank.set_lane(p, &[*s]).expect("an LFSR lane record");
    }
    let mut buffers = vec![vec![0u32; WORDS]; LANES];
    let textbook = |states: &mut [u32], buffers: &mut [Vec<u32>]| {
        for (s, buf) in states.iter_mut().zip(buffers) {
            textbook_lfsr(s, buf);
        }
    };

    let project_first = first_draw(&bank);
    let mut check_states = states.clone();
    let mut peer_first = buffers.clone();
    textbook(&mut check_states, &mut peer_first);
    for (p, (_, expected)) in kat.iter().enumerate() {
        assert_known("LFSR textbook", &peer_first[p], expected);
        assert_known("LFSR bank", &lane_words(&project_first, p), expected);
    }
    assert_same_words("LFSR", &project_first, &peer_first);

    let mut out = rows(WORDS);
    let mut group = c.benchmark_group("lfsr");
    group.bench_function("project", |b| {
        b.iter(|| bank.draw(LANES, black_box(&mut out)).expect("128 lanes"))
    });
    group.bench_function("peer", |b| {
        b.iter(|| textbook(&mut states, black_box(&mut buffers)))
    });
    group.finish();
}

criterion_group!(rng, philox, xorwow_pool, xorwow_dve, pcg32, lfsr);
criterion_main!(rng);
