//! Draw-instruction tests: RAND, RAND2, DROPOUT and PSEUDO_SET_RNG_SEED on the fixture
//! generations, through their decoded forms (the words, with the generated codecs, are tested
//! in isa-conformance).
//!
//! Expected values come from the data files in `tests/kat/`: published streams
//! (`xorwow_marsaglia.txt`), the derived LFSR streams, and `derive_draws.py`'s independent
//! exact-arithmetic derivation (`rand2_xorwow.txt`, `conversions.txt`, `dropout_lfsr.txt`,
//! `seed_mt19937_64.txt`). Nothing expected is computed by the code under test.

extern crate std;
use super::*;
use crate::bank::{LaneRow, LANES};
use crate::engine::Gate;
use crate::fixture::{fixture_generation, Mariana, Maverick, Sunda};
use crate::model::*;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

type M<G> = Machine<G, SparseMemory>;

fixture_generation!(Fused, "FUSED", 4,
    set: <Mariana as Generation>::SET_STATE_ARMS,
    get: <Mariana as Generation>::GET_STATE_ARMS,
    wired: &[],
    model: ModelChoices { range_arithmetic: RangeArithmetic::Fused, ..ModelChoices::RECONSTRUCTED },
    memory: <Mariana as Generation>::MEMORY);

fixture_generation!(TowardZero, "TOWARD_ZERO", 4,
    set: <Mariana as Generation>::SET_STATE_ARMS,
    get: <Mariana as Generation>::GET_STATE_ARMS,
    wired: &[],
    model: ModelChoices {
        float_rounding: FloatRounding::TowardZero,
        float_to_int: FloatToInt::TowardZeroSaturate,
        ..ModelChoices::RECONSTRUCTED
    },
    memory: <Mariana as Generation>::MEMORY);

fixture_generation!(Other, "OTHER", 4,
    set: <Mariana as Generation>::SET_STATE_ARMS,
    get: <Mariana as Generation>::GET_STATE_ARMS,
    wired: &[],
    // Every other reading of the draw-instruction choices.
    model: ModelChoices {
        uniform_bits: UniformBits::High23,
        dropout_polarity: DropoutPolarity::DropAbove,
        dropout_tie: DropoutTie::Drop,
        seed_expansion: SeedExpansion::Mt19937_64Halves,
        seed_targets: SeedTargets::XorwowOnly,
        pointer_operands: PointerOperands::Broadcast,
        raw_integer: RawInteger::HighBits,
        lane_interleave: LaneInterleave::Blocked,
        ..ModelChoices::RECONSTRUCTED
    },
    memory: <Mariana as Generation>::MEMORY);

// ------------------------------------------------------------------ data files

#[path = "../tests/kat/read.rs"]
mod read;

fn data(name: &str) -> Vec<Vec<String>> {
    read::fields(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kat"),
        name,
    )
}

use read::hex64 as hex;

fn hexes(fields: &[String]) -> Vec<u64> {
    fields.iter().map(|s| hex(s)).collect()
}

fn rows<'a>(d: &'a [Vec<String>], tag: &'a str) -> impl Iterator<Item = &'a Vec<String>> + 'a {
    d.iter().filter(move |r| r[0] == tag)
}

// ------------------------------------------------------------------ machine helpers

fn machine<G: Generation>() -> std::boxed::Box<M<G>> {
    std::boxed::Box::new(M::<G>::new(SparseMemory::new(), Gate::Validator))
}

fn set_lanes<G: Generation>(
    m: &mut M<G>,
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    channels: usize,
    record: &[u32],
) {
    let bank = m.engine_mut(engine).bank_mut(generator, algorithm).unwrap();
    for lane in 0..channels {
        bank.set_lane(lane, record).unwrap();
    }
}

fn read<G: Generation>(m: &M<G>, address: u32, size: u32) -> u64 {
    let mut b = [0u8; 8];
    m.memory().load_bytes(address, &mut b[..size as usize]);
    u64::from_le_bytes(b)
}

fn sbuf<G: Generation>(partition: u32, offset: u32) -> u32 {
    G::MEMORY.sbuf_offset + partition * G::MEMORY.sbuf_partition_bytes + offset
}

/// A rank-3 pattern of `n` contiguous elements at `start` (as the compiler fills spare dimensions).
fn contiguous(start: u32, n: u16) -> TensorPattern {
    TensorPattern {
        start_addr: start,
        step_elem: [1; 4],
        num_elem: [n, 1, 1, 1],
        rank: 3,
    }
}

fn rand2(
    engine: Engine,
    dtype: Dtype,
    channels: u8,
    min: f32,
    max: f32,
    dst: TensorPattern,
) -> RngInstruction {
    RngInstruction::Rand2(Rand2Instruction {
        engine,
        algorithm: Algorithm::Xorwow,
        post_process: PostProcess::UniformInRange,
        dtype,
        channels,
        min: Scalar::immediate(min.to_bits()),
        max: Scalar::immediate(max.to_bits()),
        dst,
    })
}

fn dtype(name: &str) -> Dtype {
    Dtype::from_name(name).unwrap_or_else(|| panic!("{name}"))
}

/// Lane `lane`'s `n` elements of `size` bytes at `start`.
fn elements<G: Generation>(m: &M<G>, lane: u32, start: u32, n: usize, size: u32) -> Vec<u64> {
    (0..n as u32)
        .map(|j| {
            read(
                m,
                start + lane * G::MEMORY.sbuf_partition_bytes + j * size,
                size,
            )
        })
        .collect()
}

// ------------------------------------------------------------------ RAND2

/// The expected elements of rand2_xorwow.txt's `out` row for `case`, range `range` and `dtype`
/// (the project's default choices: separate arithmetic, nearest even).
fn expected_out(d: &[Vec<String>], case: &str, range: &str, dtype: &str) -> Vec<u64> {
    let row = rows(d, "out")
        .find(|r| {
            r[1] == case && r[2] == range && r[3] == "separate" && r[4] == "rne" && r[5] == dtype
        })
        .unwrap_or_else(|| panic!("no out row {case} {range} {dtype}"));
    hexes(&row[6..])
}

/// The state record of a case of rand2_xorwow.txt, with the engine its width implies.
fn rand2_case(d: &[Vec<String>], case: &str) -> (Engine, Vec<u32>) {
    let record = read::rand2_state_record(d, case);
    let engine = if record.len() == 24 {
        Engine::Dve
    } else {
        Engine::Pool
    };
    (engine, record)
}

/// Runs every `out` row of rand2_xorwow.txt that `G`'s arithmetic and rounding select.
fn rand2_rows<G: Generation>(arith: &str, rounding: &str) -> usize {
    let d = data("rand2_xorwow.txt");
    let ranges: Vec<(f32, f32)> = rows(&d, "range").map(|r| read::rand2_range(r)).collect();
    let mut checked = 0;
    for row in rows(&d, "out").filter(|r| r[3] == arith && r[4] == rounding) {
        let (engine, record) = rand2_case(&d, &row[1]);
        let (min, max) = ranges[row[2].parse::<usize>().unwrap()];
        let dt = dtype(&row[5]);
        let expected = hexes(&row[6..]);
        let channels = 3;
        let mut m = machine::<G>();
        set_lanes(
            &mut m,
            engine,
            Generator::RngXorwow,
            Algorithm::Xorwow,
            channels,
            &record,
        );
        let start = sbuf::<G>(2, 0x40);
        let inst = rand2(
            engine,
            dt,
            channels as u8,
            min,
            max,
            contiguous(start, expected.len() as u16),
        );
        m.run_instruction(&inst).unwrap();
        for lane in 0..channels as u32 {
            assert_eq!(
                elements(&m, lane, start, expected.len(), dt.size()),
                expected,
                "{} {row:?} lane {lane}",
                G::INFO.name
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn rand2_matches_the_derived_values_for_every_range_and_dtype() {
    // 2 cases x 5 ranges x 12 dtypes (rne) or 11 (rtz: no FP32 row).
    assert_eq!(rand2_rows::<Mariana>("separate", "rne"), 120);
    assert_eq!(rand2_rows::<Fused>("fused", "rne"), 120);
    assert_eq!(rand2_rows::<TowardZero>("separate", "rtz"), 110);
}

#[test]
fn rand2_fused_and_separate_arithmetic_are_distinguished() {
    // The data says the two differ somewhere; make sure the model does not accidentally agree.
    let d = data("rand2_xorwow.txt");
    let fp32 = |arith: &str| -> Vec<Vec<u64>> {
        rows(&d, "out")
            .filter(|r| r[3] == arith && r[4] == "rne" && r[5] == "FP32")
            .map(|r| hexes(&r[6..]))
            .collect()
    };
    assert_ne!(fp32("separate"), fp32("fused"));
}

#[test]
fn uniform_readings_follow_the_model() {
    // Range (0, 1) in fp32: the output is u itself, in both readings of the draw bits.
    let d = data("rand2_xorwow.txt");
    for (tag, g) in [("uniform", 0), ("uniform_high", 1)] {
        for row in rows(&d, tag) {
            let (engine, record) = rand2_case(&d, &row[1]);
            let expected = hexes(&row[2..]);
            let start = sbuf::<Mariana>(0, 0);
            let inst = rand2(
                engine,
                Dtype::Fp32,
                1,
                0.0,
                1.0,
                contiguous(start, expected.len() as u16),
            );
            let got = if g == 0 {
                let mut m = machine::<Mariana>();
                set_lanes(
                    &mut m,
                    engine,
                    Generator::RngXorwow,
                    Algorithm::Xorwow,
                    1,
                    &record,
                );
                m.run_instruction(&inst).unwrap();
                elements(&m, 0, start, expected.len(), 4)
            } else {
                // `Other` also reads elements Blocked; the Pool case has one generator, where that is moot.
                if engine == Engine::Dve {
                    continue;
                }
                let mut m = machine::<Other>();
                set_lanes(
                    &mut m,
                    engine,
                    Generator::RngXorwow,
                    Algorithm::Xorwow,
                    1,
                    &record,
                );
                m.run_instruction(&inst).unwrap();
                elements(&m, 0, start, expected.len(), 4)
            };
            assert_eq!(got, expected, "{tag} {}", row[1]);
        }
    }
}

#[test]
fn rand2_pointer_bounds_are_read_per_lane() {
    // Lane 0 points at (0, 1): the output is u; lane 1 at range 1: the derived fp32 values.
    let d = data("rand2_xorwow.txt");
    let (_, record) = rand2_case(&d, "pool");
    let u = hexes(&rows(&d, "uniform").find(|r| r[1] == "pool").unwrap()[2..]);
    let range = rows(&d, "range").find(|r| r[1] == "1").unwrap();
    let ranged = expected_out(&d, "pool", "1", "FP32");
    let mut m = machine::<Mariana>();
    set_lanes(
        &mut m,
        Engine::Pool,
        Generator::RngXorwow,
        Algorithm::Xorwow,
        2,
        &record,
    );
    let (lo, hi) = (sbuf::<Mariana>(6, 0x10), sbuf::<Mariana>(6, 0x20));
    let next = Mariana::MEMORY.sbuf_partition_bytes;
    m.memory_mut().store(lo, 0.0f32.to_bits());
    m.memory_mut().store(hi, 1.0f32.to_bits());
    m.memory_mut().store(lo + next, hex(&range[2]) as u32);
    m.memory_mut().store(hi + next, hex(&range[3]) as u32);
    let start = sbuf::<Mariana>(0, 0x100);
    let inst = RngInstruction::Rand2(Rand2Instruction {
        min: Scalar {
            source: ImmSource::PointerImmediate,
            bits: lo,
        },
        max: Scalar {
            source: ImmSource::PointerImmediate,
            bits: hi,
        },
        ..match rand2(
            Engine::Pool,
            Dtype::Fp32,
            2,
            0.0,
            0.0,
            contiguous(start, 20),
        ) {
            RngInstruction::Rand2(r) => r,
            _ => unreachable!(),
        }
    });
    m.run_instruction(&inst).unwrap();
    assert_eq!(elements(&m, 0, start, 20, 4), u);
    assert_eq!(elements(&m, 1, start, 20, 4), ranged);
}

#[test]
fn conversions_match_the_derived_encodings() {
    let d = data("conversions.txt");
    let base = ModelChoices::RECONSTRUCTED;
    let rtz = ModelChoices {
        float_rounding: FloatRounding::TowardZero,
        float_to_int: FloatToInt::TowardZeroSaturate,
        ..base
    };
    let fnm = ModelChoices {
        fp8_encoding: Fp8Encoding::E4m3Fn,
        ..base
    };
    let mut n = 0;
    for row in rows(&d, "conv") {
        let x = f32::from_bits(hex(&row[1]) as u32);
        let dt = dtype(&row[2]);
        let want = hexes(&row[3..6]);
        let got = [base, rtz, fnm].map(|m| crate::convert::from_f32(x, dt, &m));
        assert_eq!(got.to_vec(), want, "{row:?}");
        n += 1;
    }
    assert!(n > 500, "{n} rows");
}

// ------------------------------------------------------------------ RAND

fn marsaglia() -> ([u32; 6], Vec<u32>) {
    let d = data("xorwow_marsaglia.txt");
    let state: Vec<u32> = d[0][1..].iter().map(|s| s.parse().unwrap()).collect();
    let out = d[1..]
        .iter()
        .flat_map(|r| {
            r[1..]
                .iter()
                .map(|s| s.parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    (state.try_into().unwrap(), out)
}

fn rand(
    (engine, generator, algorithm): (Engine, Generator, Algorithm),
    steps: u8,
    post_process: PostProcess,
    dtype: Dtype,
    params: [u32; 4],
    dst: TensorPattern,
) -> RngInstruction {
    RngInstruction::Rand(RandInstruction {
        engine,
        generator,
        algorithm,
        steps,
        post_process,
        params,
        dtype,
        channels: 2,
        dst: TensorPattern { rank: 4, ..dst },
    })
}

#[test]
fn rand_raw_u32_writes_the_published_stream_in_the_named_integer_rule() {
    let (state, published) = marsaglia();
    let start = sbuf::<Mariana>(1, 0x80);
    for (dt, expect) in [
        (
            Dtype::Uint32,
            published.iter().map(|&r| u64::from(r)).collect::<Vec<_>>(),
        ),
        // LowBits: r mod 2^bits; 64-bit: zero-extended.
        (
            Dtype::Uint8,
            published.iter().map(|&r| u64::from(r & 0xFF)).collect(),
        ),
        (
            Dtype::Int16,
            published.iter().map(|&r| u64::from(r & 0xFFFF)).collect(),
        ),
        (
            Dtype::Int64,
            published.iter().map(|&r| u64::from(r)).collect(),
        ),
    ] {
        let mut m = machine::<Mariana>();
        set_lanes(
            &mut m,
            Engine::Pool,
            Generator::RngXorwow,
            Algorithm::Xorwow,
            2,
            &state,
        );
        let inst = rand(
            (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
            1,
            PostProcess::RawU32,
            dt,
            [0; 4],
            contiguous(start, 20),
        );
        m.run_instruction(&inst).unwrap();
        for lane in 0..2 {
            assert_eq!(elements(&m, lane, start, 20, dt.size()), expect, "{dt:?}");
        }
    }
    // HighBits reading: the top bits.
    let mut m = machine::<Other>();
    set_lanes(
        &mut m,
        Engine::Pool,
        Generator::RngXorwow,
        Algorithm::Xorwow,
        2,
        &state,
    );
    let inst = rand(
        (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
        1,
        PostProcess::RawU32,
        Dtype::Uint8,
        [0; 4],
        contiguous(start, 20),
    );
    m.run_instruction(&inst).unwrap();
    let high: Vec<u64> = published.iter().map(|&r| u64::from(r >> 24)).collect();
    assert_eq!(elements(&m, 0, start, 20, 1), high);
}

#[test]
fn rand_lfsr_steps_rand_num_steps_times_per_output() {
    let d = data("lfsr_fibonacci.txt");
    let mut streams = std::collections::BTreeMap::new();
    let mut seed = 0;
    for r in &d {
        match r[0].as_str() {
            "seed" => seed = hex(&r[1]) as u32,
            "output" => {
                streams.insert(seed, hexes(&r[1..]));
            }
            _ => {}
        }
    }
    let seeds = [0x0000_0001u32, 0xDEAD_BEEF, 0x1234_5678, 0x8000_0000];
    let start = sbuf::<Mariana>(0, 0);
    for steps in [1u8, 3] {
        let mut m = machine::<Mariana>();
        set_lanes(
            &mut m,
            Engine::Dve,
            Generator::RngLfsr,
            Algorithm::Lfsr,
            2,
            &seeds,
        );
        // Each sub-generator's stream in the file has 16 outputs: 16 / steps elements each.
        let n = 4 * (16 / usize::from(steps));
        let inst = rand(
            (Engine::Dve, Generator::RngLfsr, Algorithm::Lfsr),
            steps,
            PostProcess::RawU32,
            Dtype::Uint32,
            [0; 4],
            contiguous(start, n as u16),
        );
        m.run_instruction(&inst).unwrap();
        // Element j: sub-generator j % 4 (RoundRobin), output number steps·(j / 4) + steps − 1 of its stream.
        let expect: Vec<u64> = (0..n)
            .map(|j| streams[&seeds[j % 4]][usize::from(steps) * (j / 4) + usize::from(steps) - 1])
            .collect();
        assert_eq!(elements(&m, 1, start, n, 4), expect, "steps {steps}");
    }
}

#[test]
fn rand_uniform_in_range_is_rand2_s_formula_on_params() {
    let d = data("rand2_xorwow.txt");
    let (_, record) = rand2_case(&d, "pool");
    let range = rows(&d, "range").find(|r| r[1] == "1").unwrap();
    let (min, max) = (hex(&range[2]) as u32, hex(&range[3]) as u32);
    let expect = expected_out(&d, "pool", "1", "BFLOAT16");
    let mut m = machine::<Mariana>();
    set_lanes(
        &mut m,
        Engine::Pool,
        Generator::RngXorwow,
        Algorithm::Xorwow,
        2,
        &record,
    );
    let start = sbuf::<Mariana>(0, 0x10);
    let inst = rand(
        (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
        1,
        PostProcess::UniformInRange,
        Dtype::Bfloat16,
        [min, max, 0, 0],
        contiguous(start, 20),
    );
    m.run_instruction(&inst).unwrap();
    assert_eq!(elements(&m, 1, start, 20, 2), expect);
}

// ------------------------------------------------------------------ DROPOUT

struct DropoutData {
    seeds: [u32; 4],
    threshold: u32,
    /// (u bits, [DR below, KR below, DR above, KR above])
    elements: Vec<(u32, [bool; 4])>,
    tie: (u32, usize, [bool; 2]),
}

fn dropout_data() -> DropoutData {
    let d = data("dropout_lfsr.txt");
    let seeds: Vec<u32> = hexes(&rows(&d, "seeds").next().unwrap()[1..])
        .iter()
        .map(|&s| s as u32)
        .collect();
    let threshold = hex(&rows(&d, "threshold").next().unwrap()[1]) as u32;
    let elements = rows(&d, "element")
        .map(|r| {
            let flags: Vec<bool> = r[4..8].iter().map(|f| f == "1").collect();
            (hex(&r[3]) as u32, flags.try_into().unwrap())
        })
        .collect();
    let t = rows(&d, "tie").next().unwrap();
    let tie = (
        hex(&t[1]) as u32,
        t[2].parse().unwrap(),
        [t[3] == "1", t[4] == "1"],
    );
    DropoutData {
        seeds: seeds.try_into().unwrap(),
        threshold,
        elements,
        tie,
    }
}

fn dropout(
    engine: Engine,
    dt: Dtype,
    channels: u8,
    threshold: Scalar,
    threshold_type: ThresholdType,
    src: TensorPattern,
    dst: TensorPattern,
) -> RngInstruction {
    RngInstruction::Dropout(DropoutInstruction {
        engine,
        src,
        in_dtype: dt,
        out_dtype: dt,
        channels,
        threshold,
        threshold_dtype: None,
        threshold_type,
        dst,
    })
}

/// Runs DROPOUT over fp32 elements 1.0 + j on two lanes; returns lane 0's and lane 1's dropped flags.
fn run_dropout<G: Generation>(
    threshold: Scalar,
    ty: ThresholdType,
    m: &mut M<G>,
) -> [Vec<bool>; 2] {
    let data = dropout_data();
    let n = data.elements.len();
    set_lanes(
        m,
        Engine::Dve,
        Generator::RngLfsr,
        Algorithm::Lfsr,
        2,
        &data.seeds,
    );
    let (src, dst) = (sbuf::<G>(0, 0x100), sbuf::<G>(0, 0x800));
    for lane in 0..2 {
        for j in 0..n as u32 {
            let v = 1.0f32 + j as f32;
            m.memory_mut().store(
                src + lane * G::MEMORY.sbuf_partition_bytes + 4 * j,
                v.to_bits(),
            );
            m.memory_mut()
                .store(dst + lane * G::MEMORY.sbuf_partition_bytes + 4 * j, 0xDEAD);
        }
    }
    let inst = dropout(
        Engine::Dve,
        Dtype::Fp32,
        2,
        threshold,
        ty,
        contiguous(src, n as u16),
        contiguous(dst, n as u16),
    );
    m.run_instruction(&inst).unwrap();
    [0u32, 1].map(|lane| {
        elements(m, lane, dst, n, 4)
            .iter()
            .enumerate()
            .map(|(j, &v)| {
                let kept = (1.0f32 + j as f32).to_bits();
                assert!(
                    v == 0 || v == u64::from(kept),
                    "element {j}: {v:#x} is neither 0 nor the source"
                );
                v == 0
            })
            .collect()
    })
}

#[test]
fn dropout_masks_follow_the_derived_lfsr_draws() {
    let data = dropout_data();
    let t = Scalar::immediate(data.threshold);
    for (ty, k) in [
        (ThresholdType::DropRate, 0usize),
        (ThresholdType::KeepRate, 1),
    ] {
        let got = run_dropout(t, ty, &mut machine::<Mariana>());
        let want: Vec<bool> = data.elements.iter().map(|(_, f)| f[k]).collect();
        assert_eq!(got[0], want, "{ty:?}");
        assert_eq!(got[1], want, "{ty:?} lane 1");
        assert!(want.iter().any(|&x| x) && want.iter().any(|&x| !x));
    }
}

fixture_generation!(DropAbove, "DROP_ABOVE", 4,
    set: <Mariana as Generation>::SET_STATE_ARMS,
    get: <Mariana as Generation>::GET_STATE_ARMS,
    wired: &[],
    model: ModelChoices {
        dropout_polarity: DropoutPolarity::DropAbove,
        dropout_tie: DropoutTie::Drop,
        pointer_operands: PointerOperands::Broadcast,
        ..ModelChoices::RECONSTRUCTED
    },
    memory: <Mariana as Generation>::MEMORY);

#[test]
fn dropout_polarity_and_ties_follow_the_model() {
    let data = dropout_data();
    let t = Scalar::immediate(data.threshold);
    for (ty, k) in [
        (ThresholdType::DropRate, 2usize),
        (ThresholdType::KeepRate, 3),
    ] {
        let got = run_dropout(t, ty, &mut machine::<DropAbove>());
        let want: Vec<bool> = data.elements.iter().map(|(_, f)| f[k]).collect();
        assert_eq!(got[0], want, "DropAbove {ty:?}");
    }
    // A threshold equal to element j's u: kept with DropoutTie::Keep, dropped with ::Drop.
    let (tie, j, [keep, drop]) = data.tie;
    let below = run_dropout(
        Scalar::immediate(tie),
        ThresholdType::DropRate,
        &mut machine::<Mariana>(),
    );
    assert_eq!(below[0][j], keep);
    let above = run_dropout(
        Scalar::immediate(tie),
        ThresholdType::DropRate,
        &mut machine::<DropAbove>(),
    );
    assert_eq!(above[0][j], drop);
    assert_eq!(data.elements[j].0, tie);
}

#[test]
fn dropout_pointer_thresholds_are_per_lane_or_broadcast() {
    let data = dropout_data();
    // Lane 0 reads the data's threshold, lane 1 reads 2.0 (u < 2 always: everything dropped).
    let at = sbuf::<Mariana>(4, 0x20);
    let pointer = Scalar {
        source: ImmSource::PointerImmediate,
        bits: at,
    };
    let want: Vec<bool> = data.elements.iter().map(|(_, f)| f[0]).collect();
    let mut m = machine::<Mariana>();
    m.memory_mut().store(at, data.threshold);
    m.memory_mut()
        .store(at + Mariana::MEMORY.sbuf_partition_bytes, 2.0f32.to_bits());
    let got = run_dropout(pointer, ThresholdType::DropRate, &mut m);
    assert_eq!(got[0], want);
    assert!(got[1].iter().all(|&d| d), "lane 1 drops everything");
    // Broadcast: both lanes read partition 4's value.
    let mut m = machine::<DropAbove>();
    m.memory_mut().store(at, 2.0f32.to_bits());
    m.memory_mut()
        .store(at + Mariana::MEMORY.sbuf_partition_bytes, data.threshold);
    let got = run_dropout(pointer, ThresholdType::DropRate, &mut m);
    // DropAbove with DROP_RATE and t = 2: u > 2 never, so nothing is dropped on either lane.
    assert!(got.iter().all(|lane| lane.iter().all(|&d| !d)));
}

#[test]
fn dropout_copies_survivors_bit_for_bit_in_narrow_types_and_reads_narrow_thresholds() {
    let data = dropout_data();
    let n = data.elements.len();
    let mut m = machine::<Mariana>();
    set_lanes(
        &mut m,
        Engine::Dve,
        Generator::RngLfsr,
        Algorithm::Lfsr,
        1,
        &data.seeds,
    );
    let (src, dst) = (sbuf::<Mariana>(0, 0x202), sbuf::<Mariana>(0, 0x600));
    let value = |j: usize| 0x8000u64 | j as u64; // fp16 negative subnormals: any pattern must pass unchanged
    for j in 0..n {
        m.memory_mut()
            .store_bytes(src + 2 * j as u32, &(value(j) as u16).to_le_bytes());
    }
    // An fp16 threshold through a pointer: 0.25 = 0x3400.
    let at = sbuf::<Mariana>(0, 0x1000);
    m.memory_mut().store_bytes(at, &0x3400u16.to_le_bytes());
    let mut inst = dropout(
        Engine::Dve,
        Dtype::Fp16,
        1,
        Scalar {
            source: ImmSource::PointerImmediate,
            bits: at,
        },
        ThresholdType::DropRate,
        contiguous(src, n as u16),
        contiguous(dst, n as u16),
    );
    if let RngInstruction::Dropout(d) = &mut inst {
        d.threshold_dtype = Some(Dtype::Fp16);
    }
    m.run_instruction(&inst).unwrap();
    assert_eq!(f32::from_bits(data.threshold), 0.25);
    let got = elements(&m, 0, dst, n, 2);
    for (j, (&v, (_, flags))) in got.iter().zip(&data.elements).enumerate() {
        assert_eq!(v, if flags[0] { 0 } else { value(j) }, "element {j}");
    }
}

// ------------------------------------------------------------------ PSEUDO_SET_RNG_SEED

fn seed_inst(engine: Engine, seed: Scalar) -> RngInstruction {
    RngInstruction::SetSeed(SeedInstruction { engine, seed })
}

fn check_records<G: Generation>(m: &M<G>, expansion: &str, seed: u64) -> usize {
    let d = data("seed_mt19937_64.txt");
    let mut n = 0;
    for row in rows(&d, "record").filter(|r| r[1] == expansion && hex(&r[2]) == seed) {
        let generator = Generator::from_name(&row[3]).unwrap();
        let algorithm = if generator == Generator::RngXorwow {
            Algorithm::Xorwow
        } else {
            Algorithm::Lfsr
        };
        let lane: usize = row[4].parse().unwrap();
        let want: Vec<u32> = hexes(&row[5..]).iter().map(|&w| w as u32).collect();
        let bank = m.engine(Engine::Dve).bank(generator, algorithm).unwrap();
        assert_eq!(bank.lane(lane).unwrap().as_slice(), want, "{row:?}");
        n += 1;
    }
    n
}

#[test]
fn mt19937_64_reproduces_the_published_value() {
    let d = data("seed_mt19937_64.txt");
    let kat = rows(&d, "kat").next().unwrap();
    let (seed, nth, value): (u64, usize, u64) = (
        kat[1].parse().unwrap(),
        kat[2].parse().unwrap(),
        kat[3].parse().unwrap(),
    );
    let mut mt = crate::mt64::Mt19937_64::new(seed);
    let got = (0..nth).map(|_| mt.next_u64()).last().unwrap();
    assert_eq!(got, value);
    for row in rows(&d, "first") {
        let mut mt = crate::mt64::Mt19937_64::new(hex(&row[1]));
        for want in hexes(&row[2..]) {
            assert_eq!(mt.next_u64(), want);
        }
    }
}

#[test]
fn set_seed_fills_every_bank_from_mt19937_64() {
    for seed in [0x1234_5678u32, 0] {
        let mut m = machine::<Mariana>();
        m.run_instruction(&seed_inst(Engine::Dve, Scalar::immediate(seed)))
            .unwrap();
        assert_eq!(check_records(&m, "low32", u64::from(seed)), 9);
        // The same seed through a pointer ([1, 1] tensor in PSUM).
        let at = Mariana::MEMORY.psum_offset + 3 * Mariana::MEMORY.psum_partition_bytes + 0x10;
        let mut p = machine::<Mariana>();
        p.memory_mut().store(at, seed);
        let inst = seed_inst(
            Engine::Dve,
            Scalar {
                source: ImmSource::PointerImmediate,
                bits: at,
            },
        );
        p.run_instruction(&inst).unwrap();
        assert_eq!(p.engine(Engine::Dve), m.engine(Engine::Dve));
        // Halves and XORWOW only (`Other`): the XORWOW records, the LFSR banks untouched.
        let mut o = machine::<Other>();
        let before = o.clone();
        o.run_instruction(&seed_inst(Engine::Dve, Scalar::immediate(seed)))
            .unwrap();
        let xorwow_rows = {
            let d = data("seed_mt19937_64.txt");
            rows(&d, "record")
                .filter(|r| {
                    r[1] == "halves" && hex(&r[2]) == u64::from(seed) && r[3] == "RNG_XORWOW"
                })
                .count()
        };
        assert_eq!(xorwow_rows, 3);
        let d = data("seed_mt19937_64.txt");
        for row in rows(&d, "record").filter(|r| r[1] == "halves" && hex(&r[2]) == u64::from(seed))
        {
            let generator = Generator::from_name(&row[3]).unwrap();
            let lane: usize = row[4].parse().unwrap();
            if generator == Generator::RngXorwow {
                let want: Vec<u32> = hexes(&row[5..]).iter().map(|&w| w as u32).collect();
                let bank = o
                    .engine(Engine::Dve)
                    .bank(generator, Algorithm::Xorwow)
                    .unwrap();
                assert_eq!(bank.lane(lane).unwrap().as_slice(), want);
            } else {
                let now = o
                    .engine(Engine::Dve)
                    .bank(generator, Algorithm::Lfsr)
                    .unwrap();
                let was = before
                    .engine(Engine::Dve)
                    .bank(generator, Algorithm::Lfsr)
                    .unwrap();
                assert_eq!(now, was);
            }
        }
    }
}

#[test]
fn rand2_after_a_seed_draws_the_derived_stream() {
    let d = data("seed_mt19937_64.txt");
    for row in rows(&d, "rand2") {
        let seed = hex(&row[1]) as u32;
        let (min, max) = (
            f32::from_bits(hex(&row[2]) as u32),
            f32::from_bits(hex(&row[3]) as u32),
        );
        let lane: u32 = row[5].parse().unwrap();
        let want = hexes(&row[6..]);
        let mut m = machine::<Mariana>();
        m.run_instruction(&seed_inst(Engine::Dve, Scalar::immediate(seed)))
            .unwrap();
        let start = sbuf::<Mariana>(0, 0);
        m.run_instruction(&rand2(
            Engine::Dve,
            Dtype::Fp32,
            128,
            min,
            max,
            contiguous(start, 8),
        ))
        .unwrap();
        assert_eq!(elements(&m, lane, start, 8, 4), want, "lane {lane}");
    }
}

// ------------------------------------------------------------------ state and patterns

/// Saves the state of `arm` for `channels` lanes through the machine (RAND_GET_STATE).
fn saved<G: Generation>(m: &mut M<G>, arm: &CheckpointArm, channels: u8, at: u32) -> Vec<u32> {
    m.execute_instruction(&save_instruction::<G>(arm, channels, at))
        .unwrap();
    (0..u32::from(channels))
        .flat_map(|p| {
            (0..u32::from(arm.words)).map(move |w| at + p * G::MEMORY.sbuf_partition_bytes + 4 * w)
        })
        .map(|a| m.memory().load(a))
        .collect()
}

#[test]
fn a_draw_advances_exactly_the_state_rand_get_state_saves() {
    let get = *Mariana::GET_STATE_ARMS
        .iter()
        .find(|a| a.engine == Engine::Dve && a.algorithm == Algorithm::Xorwow)
        .unwrap();
    let mut m = machine::<Mariana>();
    m.engine_mut(Engine::Dve).seed_lanes(42);
    let mut reference = m.engine(Engine::Dve).clone();
    let n = 37; // not a multiple of the part size or of 4
    let start = sbuf::<Mariana>(0, 0);
    m.run_instruction(&rand2(
        Engine::Dve,
        Dtype::Uint32,
        128,
        0.0,
        1.0,
        contiguous(start, n),
    ))
    .unwrap();
    let mut rows: Vec<LaneRow> = vec![[0u32; LANES]; usize::from(n)];
    reference
        .draw(Generator::RngXorwow, Algorithm::Xorwow, 128, &mut rows)
        .unwrap();
    assert_eq!(m.engine(Engine::Dve), &reference);
    // Save -> draw (B) -> restore -> draw (C): identical.
    let at = sbuf::<Mariana>(0, 0x4000);
    let words = saved(&mut m, &get, 128, at);
    let b_at = sbuf::<Mariana>(0, 0x8000);
    let c_at = sbuf::<Mariana>(0, 0xC000);
    m.run_instruction(&rand2(
        Engine::Dve,
        Dtype::Fp16,
        128,
        -3.0,
        5.0,
        contiguous(b_at, n),
    ))
    .unwrap();
    let set = *Mariana::SET_STATE_ARMS
        .iter()
        .find(|a| a.engine == Engine::Dve && a.algorithm == Algorithm::Xorwow)
        .unwrap();
    m.execute_instruction(&restore_instruction::<Mariana>(&set, 128, at, [0; 8]))
        .unwrap();
    m.run_instruction(&rand2(
        Engine::Dve,
        Dtype::Fp16,
        128,
        -3.0,
        5.0,
        contiguous(c_at, n),
    ))
    .unwrap();
    for lane in 0..128 {
        assert_eq!(
            elements(&m, lane, b_at, usize::from(n), 2),
            elements(&m, lane, c_at, usize::from(n), 2),
            "lane {lane}"
        );
    }
    assert_eq!(
        saved(&mut m, &get, 128, sbuf::<Mariana>(0, 0x10000)).len(),
        words.len()
    );
}

#[test]
fn parts_of_a_draw_equal_one_draw_for_every_interleave() {
    // 70 elements: three parts of the machine's draw; Lockstep (Maverick) and Blocked (Other) included.
    fn check<G: Generation>() {
        let mut m = machine::<G>();
        m.engine_mut(Engine::Dve).seed_lanes(7);
        let mut reference = m.engine(Engine::Dve).clone();
        let start = sbuf::<G>(0, 0);
        m.run_instruction(&rand(
            (Engine::Dve, Generator::RngXorwow, Algorithm::Xorwow),
            1,
            PostProcess::RawU32,
            Dtype::Uint32,
            [0; 4],
            contiguous(start, 70),
        ))
        .unwrap();
        let mut rows: Vec<LaneRow> = vec![[0u32; LANES]; 70];
        reference
            .draw(Generator::RngXorwow, Algorithm::Xorwow, 2, &mut rows)
            .unwrap();
        for lane in 0..2 {
            let want: Vec<u64> = rows.iter().map(|r| u64::from(r[lane])).collect();
            assert_eq!(
                elements(&m, lane as u32, start, 70, 4),
                want,
                "{}",
                G::INFO.name
            );
        }
        assert_eq!(m.engine(Engine::Dve), &reference, "{}", G::INFO.name);
    }
    check::<Mariana>();
    check::<Maverick>();
    check::<Other>();
}

#[test]
fn tensor_patterns_are_walked_innermost_first_with_signed_strides() {
    // 3-D pattern [3, 2, 2], strides [-1, 8, 20] elements, from 0x100 bytes in; bf16 elements.
    let pattern = TensorPattern {
        start_addr: sbuf::<Mariana>(5, 0x100),
        step_elem: [-1, 8, 20, 1],
        num_elem: [3, 2, 2, 1],
        rank: 3,
    };
    let mut a = machine::<Mariana>();
    a.engine_mut(Engine::Pool).seed_lanes(3);
    let mut b = a.clone();
    a.run_instruction(&rand2(Engine::Pool, Dtype::Bfloat16, 2, 0.0, 8.0, pattern))
        .unwrap();
    let flat = sbuf::<Mariana>(5, 0x800);
    b.run_instruction(&rand2(
        Engine::Pool,
        Dtype::Bfloat16,
        2,
        0.0,
        8.0,
        contiguous(flat, 12),
    ))
    .unwrap();
    let mut j = 0;
    for i2 in 0..2i64 {
        for i1 in 0..2i64 {
            for i0 in 0..3i64 {
                let offset = 2 * (-i0 + 8 * i1 + 20 * i2);
                for lane in 0..2u32 {
                    let at = (i64::from(sbuf::<Mariana>(5 + lane, 0x100)) + offset) as u32;
                    let want = read(
                        &b,
                        flat + lane * Mariana::MEMORY.sbuf_partition_bytes + 2 * j,
                        2,
                    );
                    assert_eq!(read(&a, at, 2), want, "element {j} lane {lane}");
                }
                j += 1;
            }
        }
    }
}

// ------------------------------------------------------------------ refusals change nothing

fn refused<G: Generation>(m: &mut M<G>, inst: &RngInstruction) -> MachineError {
    let before = m.clone();
    let err = m.run_instruction(inst).unwrap_err();
    assert_eq!(m.memory(), before.memory(), "{err}");
    for e in [Engine::Pool, Engine::Dve, Engine::Act] {
        assert_eq!(m.engine(e), before.engine(e), "{err}");
    }
    assert!(!err.to_string().is_empty());
    err
}

#[test]
fn every_refusal_is_typed_names_the_operand_and_changes_nothing() {
    let g = Mariana::MEMORY;
    let mut m = machine::<Mariana>();
    m.engine_mut(Engine::Dve).seed_lanes(1);
    m.engine_mut(Engine::Pool).seed_lanes(2);
    m.memory_mut().store(0, 0x1234);
    let ok = |dst| rand2(Engine::Dve, Dtype::Fp32, 2, 0.0, 1.0, dst);
    let psum_end = g.psum_offset + g.partitions * g.psum_partition_bytes;
    let operand = |operand, error| MachineError::Operand { operand, error };
    let cases: Vec<(RngInstruction, MachineError)> = vec![
        (
            ok(contiguous(psum_end, 4)),
            operand(
                "dst_mem_pattern",
                MemoryError::Unmapped { address: psum_end },
            ),
        ),
        (
            ok(contiguous(0x8000_0010, 4)),
            operand(
                "dst_mem_pattern",
                MemoryError::RegisterForm {
                    start_addr: 0x8000_0010,
                },
            ),
        ),
        (
            ok(contiguous(2, 4)),
            operand(
                "dst_mem_pattern",
                MemoryError::Misaligned {
                    address: 2,
                    alignment: 4,
                },
            ),
        ),
        (
            ok(contiguous(g.sbuf_partition_bytes - 8, 3)),
            operand(
                "dst_mem_pattern",
                MemoryError::Element {
                    element: 2,
                    offset: i64::from(g.sbuf_partition_bytes),
                    partition_bytes: g.sbuf_partition_bytes,
                },
            ),
        ),
        (
            ok(TensorPattern {
                step_elem: [1, -4, 1, 1],
                num_elem: [2, 3, 1, 1],
                ..contiguous(8, 1)
            }),
            operand(
                "dst_mem_pattern",
                MemoryError::Element {
                    element: 4,
                    offset: -24,
                    partition_bytes: g.sbuf_partition_bytes,
                },
            ),
        ),
        (
            ok(contiguous(sbuf::<Mariana>(127, 0), 4)),
            operand(
                "dst_mem_pattern",
                MemoryError::Partition {
                    partition: 1,
                    memory_partition: 128,
                    partitions: 128,
                },
            ),
        ),
        (
            RngInstruction::Rand2(Rand2Instruction {
                min: Scalar {
                    source: ImmSource::RegPtrImmediate,
                    bits: 3,
                },
                ..match ok(contiguous(0, 4)) {
                    RngInstruction::Rand2(r) => r,
                    _ => unreachable!(),
                }
            }),
            MachineError::RegisterOperand { operand: "min" },
        ),
        (
            RngInstruction::Rand2(Rand2Instruction {
                max: Scalar {
                    source: ImmSource::PointerImmediate,
                    bits: psum_end,
                },
                ..match ok(contiguous(0, 4)) {
                    RngInstruction::Rand2(r) => r,
                    _ => unreachable!(),
                }
            }),
            operand("max", MemoryError::Unmapped { address: psum_end }),
        ),
        (
            ok(TensorPattern {
                step_elem: [0; 4],
                num_elem: [4096, 4096, 2, 1],
                ..contiguous(0, 1)
            }),
            MachineError::TooManyElements {
                operand: "dst_mem_pattern",
                elements: 4096 * 4096 * 2,
                max: MAX_ELEMENTS,
            },
        ),
        (
            rand2(Engine::Dve, Dtype::Fp32, 0, 0.0, 1.0, contiguous(0, 4)),
            MachineError::Checkpoint(CheckpointError::Channels {
                channels: 0,
                max: 128,
            }),
        ),
        (
            rand2(Engine::Act, Dtype::Fp32, 1, 0.0, 1.0, contiguous(0, 4)),
            MachineError::Checkpoint(CheckpointError::NoBank {
                engine: Engine::Act,
                generator: Generator::RngXorwow,
                algorithm: Algorithm::Xorwow,
            }),
        ),
        (
            rand(
                (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
                1,
                PostProcess::RawU32,
                Dtype::Fp32,
                [0; 4],
                contiguous(0, 4),
            ),
            MachineError::Dtype {
                field: "dtype",
                dtype: Dtype::Fp32,
                needs: "RAW_U32 writes an integer type",
            },
        ),
        (
            rand(
                (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
                1,
                PostProcess::UniformInRange,
                Dtype::Int32,
                [0; 4],
                contiguous(0, 4),
            ),
            MachineError::Dtype {
                field: "dtype",
                dtype: Dtype::Int32,
                needs: "RAND's UNIFORM_IN_RANGE writes a float type",
            },
        ),
        (
            rand(
                (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
                1,
                PostProcess::Normal,
                Dtype::Fp32,
                [0; 4],
                contiguous(0, 4),
            ),
            MachineError::Unmodelled {
                what: "post_process NORMAL (no hardware support, d4_rand.h)",
            },
        ),
        (
            rand(
                (Engine::Pool, Generator::RngXorwow, Algorithm::Xorwow),
                2,
                PostProcess::RawU32,
                Dtype::Uint32,
                [0; 4],
                contiguous(0, 4),
            ),
            MachineError::Steps {
                algorithm: Algorithm::Xorwow,
                steps: 2,
            },
        ),
        (
            rand(
                (Engine::Dve, Generator::RngLfsr, Algorithm::Lfsr),
                0,
                PostProcess::RawU32,
                Dtype::Uint32,
                [0; 4],
                contiguous(0, 4),
            ),
            MachineError::Steps {
                algorithm: Algorithm::Lfsr,
                steps: 0,
            },
        ),
        (
            dropout(
                Engine::Pool,
                Dtype::Fp32,
                1,
                Scalar::immediate(0),
                ThresholdType::DropRate,
                contiguous(0, 4),
                contiguous(64, 4),
            ),
            MachineError::Checkpoint(CheckpointError::NoBank {
                engine: Engine::Pool,
                generator: Generator::RngLfsr,
                algorithm: Algorithm::Lfsr,
            }),
        ),
        (
            dropout(
                Engine::Dve,
                Dtype::Fp32,
                1,
                Scalar::immediate(0),
                ThresholdType::DropRate,
                contiguous(0, 4),
                contiguous(64, 5),
            ),
            MachineError::ElementCounts { src: 4, dst: 5 },
        ),
        (
            RngInstruction::Dropout(DropoutInstruction {
                out_dtype: Dtype::Fp16,
                ..match dropout(
                    Engine::Dve,
                    Dtype::Fp32,
                    1,
                    Scalar::immediate(0),
                    ThresholdType::DropRate,
                    contiguous(0, 4),
                    contiguous(64, 4),
                ) {
                    RngInstruction::Dropout(d) => d,
                    _ => unreachable!(),
                }
            }),
            MachineError::Dtype {
                field: "out_dtype",
                dtype: Dtype::Fp16,
                needs: "must equal in_dtype",
            },
        ),
        (
            RngInstruction::Dropout(DropoutInstruction {
                threshold_dtype: Some(Dtype::Int32),
                ..match dropout(
                    Engine::Dve,
                    Dtype::Fp32,
                    1,
                    Scalar::immediate(0),
                    ThresholdType::DropRate,
                    contiguous(0, 4),
                    contiguous(64, 4),
                ) {
                    RngInstruction::Dropout(d) => d,
                    _ => unreachable!(),
                }
            }),
            MachineError::Dtype {
                field: "threshold_dtype",
                dtype: Dtype::Int32,
                needs: "the threshold is a float type",
            },
        ),
        (
            dropout(
                Engine::Dve,
                Dtype::Fp32,
                1,
                Scalar::immediate(0),
                ThresholdType::DropRate,
                contiguous(0, 4),
                contiguous(psum_end, 4),
            ),
            operand(
                "dst_mem_pattern",
                MemoryError::Unmapped { address: psum_end },
            ),
        ),
        (
            seed_inst(
                Engine::Dve,
                Scalar {
                    source: ImmSource::RegPtrImmediate,
                    bits: 0,
                },
            ),
            MachineError::RegisterOperand { operand: "seed" },
        ),
        (
            seed_inst(
                Engine::Dve,
                Scalar {
                    source: ImmSource::PointerImmediate,
                    bits: 6,
                },
            ),
            operand(
                "seed",
                MemoryError::Misaligned {
                    address: 6,
                    alignment: 4,
                },
            ),
        ),
    ];
    for (inst, want) in cases {
        assert_eq!(refused(&mut m, &inst), want, "{inst:?}");
    }
    // An engine without any state the model reseeds: SUNDA's DVE.
    let mut s = machine::<Sunda>();
    assert_eq!(
        refused(&mut s, &seed_inst(Engine::Dve, Scalar::immediate(1))),
        MachineError::NothingToSeed {
            engine: Engine::Dve
        }
    );
    // What an engine holds is a static fact: RAND2 (XORWOW) on DVE and POOL, not on ACT.
    let r2 = |engine| rand2(engine, Dtype::Fp32, 1, 0.0, 1.0, contiguous(0, 4));
    assert!(m.holds_state(&r2(Engine::Dve)) && m.holds_state(&r2(Engine::Pool)));
    assert!(!m.holds_state(&r2(Engine::Act)));
    assert!(!s.holds_state(&seed_inst(Engine::Dve, Scalar::immediate(1))));
    // A word the fixture codec does not read.
    let mut word = [0u8; 64];
    word[0] = 0xE2;
    assert_eq!(
        m.run(&word, Engine::Dve),
        Err(MachineError::Instruction(InstructionError::NotRng {
            opcode: 0xE2
        }))
    );
}

#[test]
fn bytes_and_halves_are_parts_of_little_endian_words() {
    let mut mem = SparseMemory::new();
    mem.store(8, 0x4433_2211);
    let mut b = [0u8; 3];
    mem.load_bytes(9, &mut b);
    assert_eq!(b, [0x22, 0x33, 0x44]);
    mem.store_bytes(10, &[0xAA, 0xBB, 0xCC]);
    assert_eq!((mem.load(8), mem.load(12)), (0xBBAA_2211, 0xCC));
    mem.store_bytes(16, &0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!((mem.load(16), mem.load(20)), (0x5566_7788, 0x1122_3344));
}
