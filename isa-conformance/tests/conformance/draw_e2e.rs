//! End to end: the draw family (RAND, RAND2, DROPOUT, PSEUDO_SET_RNG_SEED) as encoded 64-byte
//! words of the generated crates, decoded and validated by their `Generation::decode_instruction`
//! and executed by rng-core's machine, together with the checkpoint pair.
//!
//! - the program PSEUDO_SET_RNG_SEED, RAND2 (A), RAND_GET_STATE, RAND2 (B), RAND_SET_STATE, RAND2 (C)
//!   gives B == C word for word on every generation with RAND2;
//! - RAND (Philox) on every generation: the first block equals Random123's known answer, and a
//!   save / draw / restore / draw replays;
//! - DROPOUT through the DVE LFSR checkpoint replays, and its mask equals the derived one;
//! - RAND2 from a restored state equals `derive_draws.py`'s values for every range and dtype;
//! - refused words (register address form, unmapped address, element leaving its partition,
//!   unmodelled dtype, register operand, wrong engine, an engine without the state) change nothing.
//!
//! The words come from the generated crates' typed constructors (`Rand2::new`, `Rand::raw_u32`,
//! `Dropout::new`, `PseudoSetRngSeed::new`), which write what each validator fixes; the tests
//! choose only the operands. Expected values come from `rng-core/tests/kat/`.

use rng_core::machine::{restore_instruction, save_instruction};
use rng_core::{
    Algorithm, CheckpointArm, Engine, Gate, Generation, Generator, InstructionError, Machine,
    MachineError, MemoryError, PartitionMemory, RngInstruction, SparseMemory, StateUpdate,
};

type M<G> = Machine<G, SparseMemory>;

/// The draw-family words of one generated crate, by its typed constructors. Addresses are raw
/// ADDR4 words (`TensorAddress::immediate`), so the refusal tests can hand over register forms
/// and addresses outside memory, which only the machine judges.
macro_rules! words {
    ($module:ident, $krate:ident) => {
        #[allow(dead_code)]
        mod $module {
            use k::{Immediate, TensorAddress};
            use $krate as k;

            pub fn tensor3d(start: u32, num: u16) -> k::Tensor3d {
                k::Tensor3d::with_steps(TensorAddress::immediate(start), [1; 3], [num, 1, 1])
            }

            /// `seed` as an instruction immediate, or `Some(address)` of a [1, 1] tensor.
            pub fn set_rng_seed(seed: u32, pointer: Option<u32>) -> [u8; 64] {
                let seed = match pointer {
                    None => Immediate::Value(seed),
                    Some(at) => Immediate::Pointer(at),
                };
                k::PseudoSetRngSeed::new(seed).to_bytes()
            }

            /// RAND (0x76): Philox (the validator's only algorithm), RAW_U32, UINT32, one step,
            /// `n` elements per lane at `start`.
            pub fn rand_philox(channels: u8, start: u32, n: u16) -> [u8; 64] {
                let dst =
                    k::Tensor4d::with_steps(TensorAddress::immediate(start), [1; 4], [n, 1, 1, 1]);
                // `rand_generator` stays 0 (RNG_LFSR): neither the validator nor the machine reads
                // it (the machine picks RAND's bank by `rand_algorithm`), so these draws also show
                // that a Philox RAND needs no matching generator field.
                k::Rand::raw_u32(dst, channels, k::Dtype::Uint32).to_bytes()
            }

            /// DROPOUT (0x7F) of fp32 `n` elements, immediate fp32 threshold.
            pub fn dropout(
                channels: u8,
                src: u32,
                dst: u32,
                n: u16,
                threshold: f32,
                keep_rate: bool,
            ) -> [u8; 64] {
                let threshold_type = if keep_rate {
                    k::DropoutThresholdType::KeepRate
                } else {
                    k::DropoutThresholdType::DropRate
                };
                k::Dropout::new(
                    tensor3d(src, n),
                    tensor3d(dst, n),
                    channels,
                    k::Dtype::Fp32,
                    k::Dtype::Fp32,
                    Immediate::fp32(threshold),
                    threshold_type,
                )
                .to_bytes()
            }
        }
    };
}

/// RAND2 (0xE2), on the generations that have it.
macro_rules! rand2_words {
    ($module:ident, $krate:ident) => {
        #[allow(dead_code)]
        mod $module {
            use k::{Immediate, TensorAddress};
            use $krate as k;

            /// `Rand2::new` with fp32 immediates `min`, `max`; `dtype` by vendor name.
            pub fn rand2(
                dtype: &str,
                channels: u8,
                min: f32,
                max: f32,
                dst: u32,
                n: u16,
            ) -> [u8; 64] {
                let dtype = <k::Dtype as isa_core::VendorEnum>::from_vendor_name(dtype)
                    .unwrap_or_else(|| panic!("{dtype}"));
                let dst = k::Tensor3d::with_steps(TensorAddress::immediate(dst), [1; 3], [n, 1, 1]);
                k::Rand2::new(
                    dst,
                    channels,
                    dtype,
                    Immediate::fp32(min),
                    Immediate::fp32(max),
                )
                .to_bytes()
            }

            /// Whether the generation has the dtype `name`.
            pub fn has_dtype(name: &str) -> bool {
                <k::Dtype as isa_core::VendorEnum>::from_vendor_name(name).is_some()
            }

            /// The same with `min` read through a register (REG_PTR_IMMEDIATE).
            pub fn rand2_register_min(dst: u32) -> [u8; 64] {
                let dst = k::Tensor3d::with_steps(TensorAddress::immediate(dst), [1; 3], [4, 1, 1]);
                k::Rand2::new(
                    dst,
                    1,
                    k::Dtype::Fp32,
                    Immediate::Register(0),
                    Immediate::fp32(1.0),
                )
                .to_bytes()
            }
        }
    };
}

words!(sunda, isa_sunda);
words!(cayman, isa_cayman);
words!(mariana, isa_mariana);
words!(maverick, isa_maverick);
rand2_words!(mariana2, isa_mariana);
rand2_words!(maverick2, isa_maverick);

// ------------------------------------------------------------------ helpers

#[path = "../../../rng-core/tests/kat/read.rs"]
mod read;

fn kat(name: &str) -> Vec<Vec<String>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rng-core/tests/kat");
    read::fields(&dir, name)
}

use read::hex64 as hex;

fn sbuf<G: Generation>(partition: u32, offset: u32) -> u32 {
    G::MEMORY.sbuf_offset + partition * G::MEMORY.sbuf_partition_bytes + offset
}

fn machine<G: Generation>() -> Box<M<G>> {
    Box::new(M::<G>::new(SparseMemory::new(), Gate::Validator))
}

/// Lane `lane`'s `n` elements of `size` bytes at `start` (raw bits).
fn elements<G: Generation>(m: &M<G>, lane: u32, start: u32, n: u32, size: u32) -> Vec<u64> {
    (0..n)
        .map(|j| {
            let mut b = [0u8; 8];
            let at = start + lane * G::MEMORY.sbuf_partition_bytes + j * size;
            m.memory().load_bytes(at, &mut b[..size as usize]);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn arm<G: Generation>(
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    update: Option<StateUpdate>,
) -> CheckpointArm {
    let table = match update {
        None => G::GET_STATE_ARMS,
        Some(_) => G::SET_STATE_ARMS,
    };
    *table
        .iter()
        .find(|a| {
            a.engine == engine
                && a.generator == generator
                && a.algorithm == algorithm
                && a.update == update
        })
        .unwrap_or_else(|| panic!("{}: no arm {engine:?} {generator:?}", G::INFO.name))
}

/// The RAND_GET_STATE and SRC_TENSOR RAND_SET_STATE words of a state, at `at`.
fn checkpoint_words<G: Generation>(
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    channels: u8,
    at: u32,
) -> ([u8; 64], [u8; 64]) {
    let get = arm::<G>(engine, generator, algorithm, None);
    let set = arm::<G>(engine, generator, algorithm, Some(StateUpdate::SrcTensor));
    (
        G::encode_checkpoint(&save_instruction::<G>(&get, channels, at)).unwrap(),
        G::encode_checkpoint(&restore_instruction::<G>(&set, channels, at, [0; 8])).unwrap(),
    )
}

fn run<G: Generation>(m: &mut M<G>, program: &[[u8; 64]], engine: Engine) {
    for (k, word) in program.iter().enumerate() {
        if let Err(e) = m.run(word, engine) {
            panic!("{}: word {k} ({:#04x}): {e}", G::INFO.name, word[0]);
        }
    }
}

// ------------------------------------------------------------------ the RAND2 program

/// PSEUDO_SET_RNG_SEED, RAND2 (A), RAND_GET_STATE, RAND2 (B), RAND_SET_STATE, RAND2 (C): B == C.
fn seed_rand2_checkpoint_program<G: Generation>(
    rand2: fn(&str, u8, f32, f32, u32, u16) -> [u8; 64],
    set_rng_seed: fn(u32, Option<u32>) -> [u8; 64],
) {
    let d = kat("seed_mt19937_64.txt");
    let channels = 128;
    let n = 8u16;
    let (a, b, c, state) = (
        sbuf::<G>(0, 0x000),
        sbuf::<G>(0, 0x400),
        sbuf::<G>(0, 0x800),
        sbuf::<G>(0, 0x1000),
    );
    let (get, set) = checkpoint_words::<G>(
        Engine::Dve,
        Generator::RngXorwow,
        Algorithm::Xorwow,
        channels,
        state,
    );
    let program = [
        set_rng_seed(0x1234_5678, None),
        rand2("FP32", channels, -1.0, 1.0, a, n),
        get,
        rand2("FP32", channels, -1.0, 1.0, b, n),
        set,
        rand2("FP32", channels, -1.0, 1.0, c, n),
    ];
    let mut m = machine::<G>();
    run(&mut m, &program, Engine::Dve);
    for lane in 0..u32::from(channels) {
        let (bw, cw) = (
            elements(&m, lane, b, n.into(), 4),
            elements(&m, lane, c, n.into(), 4),
        );
        assert_eq!(bw, cw, "{}: lane {lane}: B != C", G::INFO.name);
        assert_ne!(
            elements(&m, lane, a, n.into(), 4),
            bw,
            "lane {lane}: A == B"
        );
    }
    // A after the seed is the derived stream (seed 0x12345678, range -1..1, lanes 0 and 5).
    for row in d.iter().filter(|r| r[0] == "rand2" && r[1] == "12345678") {
        let lane: u32 = row[5].parse().unwrap();
        let want: Vec<u64> = row[6..].iter().map(|s| hex(s)).collect();
        assert_eq!(
            elements(&m, lane, a, n.into(), 4),
            want,
            "{} lane {lane}",
            G::INFO.name
        );
    }
    // The seed through a pointer to a [1, 1] tensor gives the same state.
    let mut p = machine::<G>();
    let at = sbuf::<G>(9, 0x40);
    p.memory_mut().store(at, 0x1234_5678);
    run(&mut p, &[set_rng_seed(0, Some(at))], Engine::Dve);
    let mut q = machine::<G>();
    run(&mut q, &[program[0]], Engine::Dve);
    assert_eq!(p.engine(Engine::Dve), q.engine(Engine::Dve));
}

#[test]
fn seed_rand2_get_rand2_set_rand2_repeats_b_in_c() {
    seed_rand2_checkpoint_program::<isa_mariana::Mariana>(mariana2::rand2, mariana::set_rng_seed);
    seed_rand2_checkpoint_program::<isa_maverick::Maverick>(
        maverick2::rand2,
        maverick::set_rng_seed,
    );
}

/// RAND2 words after restoring the derived cases' states: every (range, dtype) row of
/// rand2_xorwow.txt with the project's default choices (separate arithmetic, nearest even).
fn rand2_from_restored_states<G: Generation>(
    rand2: fn(&str, u8, f32, f32, u32, u16) -> [u8; 64],
    has_dtype: fn(&str) -> bool,
) -> usize {
    let d = kat("rand2_xorwow.txt");
    let ranges: Vec<(f32, f32)> = d
        .iter()
        .filter(|r| r[0] == "range")
        .map(|r| read::rand2_range(r))
        .collect();
    let mut checked = 0;
    for case in ["pool", "dve"] {
        let record = read::rand2_state_record(&d, case);
        let engine = if case == "dve" {
            Engine::Dve
        } else {
            Engine::Pool
        };
        let channels = 3u8;
        let at = sbuf::<G>(0, 0x2000);
        let (_, set) = checkpoint_words::<G>(
            engine,
            Generator::RngXorwow,
            Algorithm::Xorwow,
            channels,
            at,
        );
        for row in d.iter().filter(|r| {
            r[0] == "out" && r[1] == case && r[3] == "separate" && r[4] == "rne" && has_dtype(&r[5])
        }) {
            let mut m = machine::<G>();
            for lane in 0..u32::from(channels) {
                for (k, w) in record.iter().enumerate() {
                    m.memory_mut().store(
                        at + lane * G::MEMORY.sbuf_partition_bytes + 4 * k as u32,
                        *w,
                    );
                }
            }
            let (min, max) = ranges[row[2].parse::<usize>().unwrap()];
            let want: Vec<u64> = row[6..].iter().map(|s| hex(s)).collect();
            let size = (row[6].len() / 2) as u32;
            let dst = sbuf::<G>(0, 0x100);
            let word = rand2(&row[5], channels, min, max, dst, want.len() as u16);
            run(&mut m, &[set], engine);
            // RAND2 is placed on DVE alone (instr_assert.h), so a RAND2 word on POOL is refused;
            // the POOL record still checks the model's 6-word POOL bank, through the decoded form.
            let mut draw = G::decode_instruction(&word, Engine::Dve).unwrap();
            if let RngInstruction::Rand2(r) = &mut draw {
                r.engine = engine;
            }
            m.run_instruction(&draw).unwrap();
            for lane in 0..u32::from(channels) {
                assert_eq!(
                    elements(&m, lane, dst, want.len() as u32, size),
                    want,
                    "{} {row:?} lane {lane}",
                    G::INFO.name
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn rand2_words_after_a_restore_match_the_derived_values() {
    // 2 cases x 5 ranges x 12 dtypes; MARIANA has no FP8_EXP2 (E2M5).
    assert_eq!(
        rand2_from_restored_states::<isa_mariana::Mariana>(mariana2::rand2, mariana2::has_dtype),
        110
    );
    assert_eq!(
        rand2_from_restored_states::<isa_maverick::Maverick>(
            maverick2::rand2,
            maverick2::has_dtype
        ),
        120
    );
}

// ------------------------------------------------------------------ RAND (Philox) everywhere

fn rand_philox_program<G: Generation>(rand: fn(u8, u32, u16) -> [u8; 64]) {
    // Random123's 10-round rows: IMM_SINGLE restores counter and key with offset 0 (word 0 of the block).
    let rows = kat("philox4x32.txt");
    let channels = 4u8;
    for row in rows.iter().filter(|r| r[1] == "10") {
        let counter: Vec<u32> = row[2..6].iter().map(|s| hex(s) as u32).collect();
        let key: Vec<u32> = row[6..8].iter().map(|s| hex(s) as u32).collect();
        let expected: Vec<u64> = row[8..12].iter().map(|s| hex(s)).collect();
        let imm_arm = arm::<G>(
            Engine::Pool,
            Generator::RngPhilox,
            Algorithm::Philox,
            Some(StateUpdate::ImmSingle),
        );
        let mut imm = [0u32; 8];
        imm[..4].copy_from_slice(&counter);
        imm[4..6].copy_from_slice(&key);
        let seed =
            G::encode_checkpoint(&restore_instruction::<G>(&imm_arm, channels, 0, imm)).unwrap();
        let (a, b, c, state) = (
            sbuf::<G>(0, 0),
            sbuf::<G>(0, 0x100),
            sbuf::<G>(0, 0x200),
            sbuf::<G>(0, 0x300),
        );
        let (get, set) = checkpoint_words::<G>(
            Engine::Pool,
            Generator::RngPhilox,
            Algorithm::Philox,
            channels,
            state,
        );
        let program = [
            seed,
            rand(channels, a, 4),
            get,
            rand(channels, b, 6),
            set,
            rand(channels, c, 6),
        ];
        let mut m = machine::<G>();
        run(&mut m, &program, Engine::Pool);
        for lane in 0..u32::from(channels) {
            assert_eq!(
                elements(&m, lane, a, 4, 4),
                expected,
                "{} lane {lane}",
                G::INFO.name
            );
            assert_eq!(elements(&m, lane, b, 6, 4), elements(&m, lane, c, 6, 4));
        }
    }
}

#[test]
fn rand_philox_words_give_random123_blocks_and_replay_on_every_generation() {
    rand_philox_program::<isa_sunda::Sunda>(sunda::rand_philox);
    rand_philox_program::<isa_cayman::Cayman>(cayman::rand_philox);
    rand_philox_program::<isa_mariana::Mariana>(mariana::rand_philox);
    rand_philox_program::<isa_maverick::Maverick>(maverick::rand_philox);
}

// ------------------------------------------------------------------ DROPOUT

type DropoutWord = fn(u8, u32, u32, u16, f32, bool) -> [u8; 64];

fn dropout_programs<G: Generation>(
    dropout: DropoutWord,
    set_rng_seed: fn(u32, Option<u32>) -> [u8; 64],
) {
    let d = kat("dropout_lfsr.txt");
    let seeds: Vec<u32> = d.iter().find(|r| r[0] == "seeds").unwrap()[1..]
        .iter()
        .map(|s| hex(s) as u32)
        .collect();
    let threshold = f32::from_bits(hex(&d.iter().find(|r| r[0] == "threshold").unwrap()[1]) as u32);
    let flags: Vec<[bool; 2]> = d
        .iter()
        .filter(|r| r[0] == "element")
        .map(|r| [r[4] == "1", r[5] == "1"])
        .collect();
    let n = flags.len() as u16;
    let channels = 2u8;
    let (src, dst, state, again) = (
        sbuf::<G>(0, 0x100),
        sbuf::<G>(0, 0x400),
        sbuf::<G>(0, 0x800),
        sbuf::<G>(0, 0x900),
    );
    let fill = |m: &mut M<G>| {
        for lane in 0..u32::from(channels) {
            for j in 0..u32::from(n) {
                let v = 1.5f32 + j as f32;
                m.memory_mut().store(
                    src + lane * G::MEMORY.sbuf_partition_bytes + 4 * j,
                    v.to_bits(),
                );
            }
            for (k, s) in seeds.iter().enumerate() {
                m.memory_mut().store(
                    state + lane * G::MEMORY.sbuf_partition_bytes + 4 * k as u32,
                    *s,
                );
            }
        }
    };
    let (_, set) = checkpoint_words::<G>(
        Engine::Dve,
        Generator::RngLfsr,
        Algorithm::Lfsr,
        channels,
        state,
    );
    // The derived mask: restore the seeds into DVE's RNG_LFSR state, then DROPOUT.
    for (keep_rate, k) in [(false, 0), (true, 1)] {
        let mut m = machine::<G>();
        fill(&mut m);
        run(
            &mut m,
            &[set, dropout(channels, src, dst, n, threshold, keep_rate)],
            Engine::Dve,
        );
        for lane in 0..u32::from(channels) {
            let got = elements(&m, lane, dst, n.into(), 4);
            for (j, (v, f)) in got.iter().zip(&flags).enumerate() {
                let kept = u64::from((1.5f32 + j as f32).to_bits());
                assert_eq!(
                    *v,
                    if f[k] { 0 } else { kept },
                    "{} element {j} keep_rate {keep_rate}",
                    G::INFO.name
                );
            }
        }
    }
    // Seed, then save, DROPOUT (B), restore, DROPOUT (C): B == C.
    let (get_again, set_again) = checkpoint_words::<G>(
        Engine::Dve,
        Generator::RngLfsr,
        Algorithm::Lfsr,
        channels,
        again,
    );
    let b = sbuf::<G>(0, 0xA00);
    let c = sbuf::<G>(0, 0xB00);
    let mut m = machine::<G>();
    fill(&mut m);
    let program = [
        set_rng_seed(99, None),
        get_again,
        dropout(channels, src, b, n, 0.5, false),
        set_again,
        dropout(channels, src, c, n, 0.5, false),
    ];
    run(&mut m, &program, Engine::Dve);
    for lane in 0..u32::from(channels) {
        assert_eq!(
            elements(&m, lane, b, n.into(), 4),
            elements(&m, lane, c, n.into(), 4)
        );
    }
}

#[test]
fn dropout_words_mask_as_derived_and_replay_through_the_lfsr_checkpoint() {
    dropout_programs::<isa_mariana::Mariana>(mariana::dropout, mariana::set_rng_seed);
    dropout_programs::<isa_maverick::Maverick>(maverick::dropout, maverick::set_rng_seed);
}

// ------------------------------------------------------------------ refusals

fn refused<G: Generation>(m: &mut M<G>, word: &[u8; 64], engine: Engine) -> MachineError {
    let before = m.clone();
    let err = m.run(word, engine).expect_err("refused");
    assert_eq!(m.memory(), before.memory(), "{err}");
    for e in [Engine::Pool, Engine::Dve, Engine::Act] {
        assert_eq!(m.engine(e), before.engine(e), "{err}");
    }
    err
}

#[test]
fn refused_words_change_nothing_and_say_why() {
    type G = isa_mariana::Mariana;
    let g = G::MEMORY;
    let mut m = machine::<G>();
    run(&mut m, &[mariana::set_rng_seed(5, None)], Engine::Dve);
    m.memory_mut().store(0x40, 0xABCD);

    // Register address form (ADDR_REG marker 0x80, register 3): valid ISA, not modelled.
    let reg = 0x8000_0003;
    assert_eq!(
        refused(
            &mut m,
            &mariana2::rand2("FP32", 1, 0.0, 1.0, reg, 4),
            Engine::Dve
        ),
        MachineError::Operand {
            operand: "dst_mem_pattern",
            error: MemoryError::RegisterForm { start_addr: reg }
        }
    );
    // An address in neither SBUF nor PSUM: the validator refuses it.
    let beyond = g.psum_offset + g.partitions * g.psum_partition_bytes;
    assert!(matches!(
        refused(
            &mut m,
            &mariana2::rand2("FP32", 1, 0.0, 1.0, beyond, 4),
            Engine::Dve
        ),
        MachineError::Instruction(InstructionError::Invalid(_))
    ));
    // The last element leaves partition 0.
    let edge = g.sbuf_partition_bytes - 8;
    assert_eq!(
        refused(
            &mut m,
            &mariana2::rand2("FP32", 1, 0.0, 1.0, edge, 4),
            Engine::Dve
        ),
        MachineError::Operand {
            operand: "dst_mem_pattern",
            error: MemoryError::Element {
                element: 3,
                offset: i64::from(g.sbuf_partition_bytes) + 4,
                partition_bytes: g.sbuf_partition_bytes
            }
        }
    );
    // Output types the model does not hold.
    for dtype in ["FP32R", "FP4_EXP2"] {
        let err = refused(
            &mut m,
            &mariana2::rand2(dtype, 1, 0.0, 1.0, 0, 4),
            Engine::Dve,
        );
        assert!(
            matches!(err, MachineError::Instruction(InstructionError::Unmodelled { what }) if what.contains(dtype)),
            "{err}"
        );
    }
    // An integer dtype is a conversion, not a refusal.
    m.clone()
        .run(
            &mariana2::rand2("INT8", 1, -100.0, 100.0, 0x80, 4),
            Engine::Dve,
        )
        .unwrap();
    assert_eq!(
        refused(&mut m, &mariana2::rand2_register_min(0), Engine::Dve),
        MachineError::RegisterOperand { operand: "min" }
    );
    // PSEUDO_SET_RNG_SEED and DROPOUT are placed on DVE alone (instr_assert.h): refused on POOL,
    // naming the placement rule.
    for word in [
        mariana::set_rng_seed(1, None),
        mariana::dropout(1, 0, 0x100, 4, 0.5, false),
    ] {
        match refused(&mut m, &word, Engine::Pool) {
            MachineError::Instruction(InstructionError::Invalid(v)) => {
                assert_eq!(v.path()[0], "neuron_isa_check_opcode_on_engine", "{v}")
            }
            other => panic!("{other}"),
        }
    }
    // RAND is placed on DVE too, which holds no Philox state to draw from.
    assert!(matches!(
        refused(&mut m, &mariana::rand_philox(1, 0, 4), Engine::Dve),
        MachineError::Checkpoint(rng_core::CheckpointError::NoBank {
            engine: Engine::Dve,
            ..
        })
    ));
    // RAND with XORWOW: the validator admits PHILOX only.
    let mut xorwow = isa_mariana::Rand::from_bytes(&mariana::rand_philox(1, 0, 4)).unwrap();
    xorwow.0.rand_algorithm = isa_mariana::RandAlgorithm::Xorwow;
    xorwow.0.rand_generator = isa_mariana::RandSrc::RngXorwow;
    assert!(matches!(
        refused(&mut m, &xorwow.to_bytes(), Engine::Pool),
        MachineError::Instruction(InstructionError::Invalid(_))
    ));
    // Not an instruction of the family.
    let mut other = [0u8; 64];
    other[0] = 0x41;
    assert_eq!(
        refused(&mut m, &other, Engine::Dve),
        MachineError::Instruction(InstructionError::NotRng { opcode: 0x41 })
    );
}
