//! The banks' draws, records and refusals against the scalar generators and the model's
//! choices; every kernel against the scalar model for every lane count.

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
                (bank.rows[0][p], bank.rows[1][p]) = (g.state() as u32, (g.state() >> 32) as u32);
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
    // One thread per case: the cases are independent, and at opt-level 0 together they take
    // long enough that one test thread would be the suite's slowest.
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
