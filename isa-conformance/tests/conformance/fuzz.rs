//! Seeded, deterministic fuzzing of every generation's decoder, encoder, validators and of
//! rng-core's machine executing the words (issue 12).
//!
//! Four input classes, in turn: random 64-byte words; valid words (built by every typed
//! constructor and every checkpoint arm of the generation) with one to three bytes changed;
//! words of a mapped opcode with random operands (every field from its `FIELDS` table, enum
//! fields a member, or else raw random bytes after the opcode byte); and truncated or overlong
//! byte slices. What must hold for every input:
//!
//! - nothing panics (each input runs under `catch_unwind`; a panic names the input);
//! - a word that decodes encodes back to the same 64 bytes, and `decode_words` and
//!   `isa_core::word` agree with `decode` (whole words, and a partial tail named by its length);
//! - every engine's validator runs, and `Generation::decode_instruction` agrees with `decode`
//!   and `validate` (the same decode error, the same violation, or success only when both pass);
//! - the machine accepts a word only when `decode_instruction` does (and refuses the others with
//!   its error), and a refused word changes no machine state: no store reaches memory, and the
//!   engine the word ran on (the only one `Machine::run` is given) compares equal to a copy
//!   taken before it. Words refused before execution run on a second machine that must never
//!   change at all: every engine and its memory are compared with a copy at the end of every
//!   batch of `BATCH` inputs.
//! - Accepted words with more than `WORK_LIMIT` draws are counted and not executed (the model
//!   takes up to 2^24 elements per partition; a long run would take hours).
//!
//! `cargo test -p isa-conformance --test conformance fuzz::` runs `INPUTS` inputs; the ignored test runs
//! `INPUTS_LONG` (README, "Testing"). `NEURON_ISA_FUZZ_SEED` (a number) changes the seed.

use crate::support;

use isa_core::construct::{Arg, Construct, Immediate, ParamKind, TensorArg};
use isa_core::{DecodeErrorKind, FieldKind, Isa, OpcodeInfo, VendorEnum, INST_NBYTES};
use rand_pcg::rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rng_core::machine::{restore_instruction, save_instruction, MAX_ELEMENTS};
use rng_core::{
    Dtype, Engine, Gate, Generation, InstructionError, Machine, MachineError, PartitionMemory,
    RngInstruction, TensorPattern,
};
use std::collections::HashMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// Inputs of the normal test run, over the four generations.
const INPUTS: u64 = 1 << 20;
/// Inputs of the ignored long run.
const INPUTS_LONG: u64 = 50_000_000;
/// The default seed.
pub(crate) const SEED: u64 = 0x5EED_0012_F022_2026;
/// Inputs per batch: the never-changing machine is compared once a batch.
const BATCH: u64 = 4096;
/// Draws (elements × lanes × steps) above which an accepted word is not executed: the model
/// executes up to 2^24 elements per partition, which would make the run hours long.
const WORK_LIMIT: u64 = 1 << 12;
/// Accepted words after which the executing machine starts afresh (keeps its memory small).
const FRESH_AFTER: u64 = 256;

const ENGINES: [Engine; 3] = [Engine::Pool, Engine::Dve, Engine::Act];

/// A partition memory that counts its stores: a refused word must make none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Journal {
    words: HashMap<u32, u32>,
    stores: u64,
}

impl PartitionMemory for Journal {
    fn load(&self, address: u32) -> u32 {
        self.words.get(&address).copied().unwrap_or(0)
    }

    fn store(&mut self, address: u32, value: u32) {
        self.stores += 1;
        self.words.insert(address, value);
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    inputs: u64,
    decoded: u64,
    validations: u64,
    valid: u64,
    machine_accepted: u64,
    machine_refused: u64,
    refused_after_decode: u64,
    not_executed_large: u64,
    slices: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.inputs += o.inputs;
        self.decoded += o.decoded;
        self.validations += o.validations;
        self.valid += o.valid;
        self.machine_accepted += o.machine_accepted;
        self.machine_refused += o.machine_refused;
        self.refused_after_decode += o.refused_after_decode;
        self.not_executed_large += o.not_executed_large;
        self.slices += o.slices;
    }
}

pub(crate) fn seed() -> u64 {
    std::env::var("NEURON_ISA_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED)
}

fn pick<T: Copy>(rng: &mut Pcg64Mcg, items: &[T]) -> T {
    items[(rng.next_u64() % items.len() as u64) as usize]
}

fn coin(rng: &mut Pcg64Mcg) -> bool {
    rng.next_u32() & 1 == 0
}

fn random_word(rng: &mut Pcg64Mcg) -> [u8; INST_NBYTES] {
    let mut w = [0u8; INST_NBYTES];
    rng.fill_bytes(&mut w);
    w
}

/// The member names of C enum `name`, from any field of the generation that has that type.
fn enum_members<G: Isa>(name: &str) -> Vec<&'static str> {
    for &op in G::opcodes() {
        for f in G::fields_of(op).unwrap_or(&[]) {
            if let FieldKind::Enum {
                name: n, member, ..
            } = f.kind
            {
                if n == name {
                    return support::members(f).into_iter().filter_map(member).collect();
                }
            }
        }
    }
    Vec::new()
}

/// Arguments for a typed constructor: small contiguous tensors in SBUF, few lanes, names of the
/// generation's members, small immediates (some calls fail or make invalid words; that is fine).
fn constructor_args<G: Isa + Generation>(
    rng: &mut Pcg64Mcg,
    params: &[isa_core::construct::Param],
    members: &HashMap<&'static str, Vec<&'static str>>,
) -> Vec<(&'static str, Arg<'static>)> {
    const VALUES: [f32; 6] = [-1.0, 0.0, 0.25, 0.5, 1.0, 2.0];
    let dtypes: Vec<&'static str> = Dtype::ALL.iter().map(|d| d.name()).collect();
    params
        .iter()
        .map(|p| {
            let arg = match p.kind {
                ParamKind::Tensor { rank } => {
                    let mut num = [1u16; 4];
                    num[0] = 1 + (rng.next_u32() % 8) as u16;
                    if rank > 1 {
                        num[1] = 1 + (rng.next_u32() % 2) as u16;
                    }
                    let start = G::MEMORY.sbuf_offset + 0x400 * (rng.next_u32() % 16);
                    Arg::Tensor(TensorArg::contiguous(start, num).expect("small tensors"))
                }
                ParamKind::Lanes => Arg::Lanes(1 + (rng.next_u32() % 8) as u8),
                ParamKind::Dtype => Arg::Member(pick(rng, &dtypes)),
                ParamKind::Enum { name } => {
                    Arg::Member(members.get(name).map_or("", |m| pick(rng, m)))
                }
                ParamKind::Immediate => Arg::Immediate(Immediate::fp32(pick(rng, &VALUES))),
                ParamKind::Fp32 => Arg::Fp32(pick(rng, &VALUES)),
            };
            (p.name, arg)
        })
        .collect()
}

/// The opcodes of `G` with an operand struct, whose words the third input class fills with
/// random operands.
pub(crate) fn mapped_opcodes<G: Isa>() -> Vec<G::Opcode> {
    G::opcodes()
        .iter()
        .copied()
        .filter(|&op| G::fields_of(op).is_some())
        .collect()
}

/// Valid words of `G` to mutate: every checkpoint arm (save and restore, a few lane counts) and
/// words from every typed constructor that decode and validate on some engine.
pub(crate) fn valid_words<G: Isa + Generation + Construct>(
    rng: &mut Pcg64Mcg,
) -> Vec<[u8; INST_NBYTES]> {
    let valid_somewhere =
        |w: &[u8; 64]| ENGINES.iter().any(|&e| G::decode_instruction(w, e).is_ok());
    let mut pool = Vec::new();
    let start = G::MEMORY.sbuf_offset + 0x100;
    for channels in [1, 4, G::MAX_CHANNELS] {
        for arm in G::GET_STATE_ARMS {
            pool.extend(G::encode_checkpoint(&save_instruction::<G>(
                arm, channels, start,
            )));
        }
        for arm in G::SET_STATE_ARMS {
            let imm = core::array::from_fn(|k| if k < 7 { rng.next_u32() } else { 0 });
            pool.extend(G::encode_checkpoint(&restore_instruction::<G>(
                arm, channels, start, imm,
            )));
        }
    }
    let mut members = HashMap::new();
    for c in G::CONSTRUCTORS {
        for p in c.params {
            if let ParamKind::Enum { name } = p.kind {
                members.insert(name, enum_members::<G>(name));
            }
        }
    }
    for c in G::CONSTRUCTORS {
        let mut found = 0;
        for _ in 0..256 {
            let args = constructor_args::<G>(rng, c.params, &members);
            if let Ok(w) = G::construct(c.instruction, c.function, &args) {
                if valid_somewhere(&w) && !pool.contains(&w) {
                    pool.push(w);
                    found += 1;
                    if found == 16 {
                        break;
                    }
                }
            }
        }
    }
    pool.retain(valid_somewhere);
    pool
}

/// Elements per partition of a pattern.
fn elements(p: &TensorPattern) -> u64 {
    p.num_elem[..usize::from(p.rank.clamp(1, 4))]
        .iter()
        .map(|&n| u64::from(n))
        .product()
}

/// The draws an accepted word would make, or `None` when the model refuses its size outright.
fn work(inst: &RngInstruction) -> Option<u64> {
    let (dst, lanes, steps) = match inst {
        RngInstruction::Rand(r) => (r.dst, r.channels, r.steps),
        RngInstruction::Rand2(r) => (r.dst, r.channels, 1),
        RngInstruction::Dropout(d) => (d.dst, d.channels, 1),
        RngInstruction::Checkpoint(_) | RngInstruction::SetSeed(_) => return Some(0),
    };
    let n = elements(&dst);
    (n <= MAX_ELEMENTS).then(|| n * u64::from(lanes) * u64::from(steps.max(1)))
}

fn same_engines<G: Generation, M: PartitionMemory>(a: &Machine<G, M>, b: &Machine<G, M>) -> bool {
    ENGINES.iter().all(|&e| a.engine(e) == b.engine(e))
}

/// A new machine with every engine's state seeded (so that a stray write would show).
fn machine<G: Generation>(seed: u64) -> Box<Machine<G, Journal>> {
    let mut m = Box::new(Machine::new(Journal::default(), Gate::Validator));
    for e in ENGINES {
        m.engine_mut(e).seed_lanes(seed ^ e as u64);
    }
    m
}

fn generation_engines<G: Isa + Generation>() -> Vec<(Engine, <G as Isa>::Engine)> {
    ENGINES
        .iter()
        .filter_map(|&e| <G as Isa>::Engine::from_vendor_name(e.name()).map(|v| (e, v)))
        .collect()
}

/// The input of index `k`: its class name and its bytes (64 of them, except for slices).
pub(crate) fn input<G: Isa>(
    rng: &mut Pcg64Mcg,
    k: u64,
    pool: &[[u8; INST_NBYTES]],
    mapped: &[G::Opcode],
) -> (&'static str, Vec<u8>) {
    match k % 4 {
        0 => ("random word", random_word(rng).to_vec()),
        1 => {
            let mut w = pick(rng, pool);
            for _ in 0..1 + rng.next_u32() % 3 {
                let at = (rng.next_u32() % 64) as usize;
                w[at] = match rng.next_u32() % 3 {
                    0 => w[at] ^ (1 << (rng.next_u32() % 8)),
                    1 => rng.next_u32() as u8,
                    _ => [0x00, 0xff, 0x80, 0x7f][(rng.next_u32() % 4) as usize],
                };
            }
            ("changed valid word", w.to_vec())
        }
        2 => {
            let op = pick(rng, mapped);
            let w = if coin(rng) {
                let fields = G::fields_of(op).unwrap_or(&[]);
                support::build_word(fields, op.byte(), &random_word(rng), &random_word(rng))
            } else {
                let mut w = random_word(rng);
                w[0] = op.byte();
                w
            };
            ("mapped opcode, random operands", w.to_vec())
        }
        _ => {
            let len = match rng.next_u32() % 3 {
                0 => (rng.next_u32() % 64) as usize,
                1 => 65 + (rng.next_u32() % 63) as usize,
                _ => (rng.next_u32() % (4 * 64 + 1)) as usize,
            };
            let mut bytes = Vec::with_capacity(len);
            while bytes.len() < len {
                let w = if coin(rng) {
                    pick(rng, pool)
                } else {
                    random_word(rng)
                };
                bytes.extend_from_slice(&w[..(len - bytes.len()).min(64)]);
            }
            ("slice", bytes)
        }
    }
}

/// Decode, round trip and every engine's validation of one word, and `decode_instruction` for
/// `engine` checked against them; returns that result for the machine.
fn check_word<G: Isa + Generation>(
    word: &[u8; INST_NBYTES],
    engine: Engine,
    engines: &[(Engine, <G as Isa>::Engine)],
    counts: &mut Counts,
) -> Result<RngInstruction, InstructionError> {
    let decoded = G::decode(word);
    if let Ok(inst) = &decoded {
        counts.decoded += 1;
        assert_eq!(
            &G::encode(inst),
            word,
            "decode -> encode is not byte-identical"
        );
        assert_eq!(G::opcode_of(inst).byte(), word[0], "opcode");
    }
    let mut on_engine = None;
    for &(e, isa_engine) in engines {
        let validated = decoded.as_ref().map(|inst| G::validate(inst, isa_engine));
        if let Ok(v) = &validated {
            counts.validations += 1;
            counts.valid += u64::from(v.is_ok());
        }
        if e == engine {
            on_engine = Some(validated);
        }
    }
    let validated = on_engine.expect("the engine is one of the generation's");
    // decode_instruction must say what decode and validate said.
    let result = G::decode_instruction(word, engine);
    match &result {
        Ok(_) => assert!(
            matches!(validated, Ok(Ok(()))),
            "decode_instruction accepts; decode/validate: {validated:?}"
        ),
        Err(InstructionError::Decode(e)) => {
            assert_eq!(decoded.as_ref().err(), Some(e), "decode error")
        }
        Err(InstructionError::Invalid(v)) => assert_eq!(
            validated.as_ref().ok().and_then(|r| r.err()).as_ref(),
            Some(v),
            "violation"
        ),
        Err(InstructionError::NotRng { opcode } | InstructionError::NotCheckpoint { opcode }) => {
            assert_eq!(*opcode, word[0])
        }
        Err(InstructionError::Unmodelled { .. }) => {
            assert!(decoded.is_ok(), "unmodelled but does not decode")
        }
    }
    result
}

/// Splitting a slice: whole words as `decode`, then a partial tail named by its length.
fn check_slice<G: Isa>(bytes: &[u8], counts: &mut Counts) {
    counts.slices += 1;
    let single = isa_core::word(bytes);
    if bytes.len() == INST_NBYTES {
        assert!(single.is_ok());
    } else {
        let e = single.expect_err("a slice of another length is one word");
        assert_eq!(
            (e.kind, e.value),
            (DecodeErrorKind::WrongLength, bytes.len() as u64)
        );
    }
    let items: Vec<_> = G::decode_words(bytes).collect();
    let whole = bytes.len() / INST_NBYTES;
    let tail = bytes.len() % INST_NBYTES;
    assert_eq!(
        items.len(),
        whole + usize::from(tail != 0),
        "items of {} bytes",
        bytes.len()
    );
    for (k, (offset, item)) in items.iter().enumerate() {
        assert_eq!(*offset, k * INST_NBYTES);
        if k < whole {
            let word: &[u8; INST_NBYTES] =
                bytes[*offset..*offset + INST_NBYTES].try_into().unwrap();
            assert_eq!(item, &G::decode(word), "word {k} of a stream");
        } else {
            let e = item.as_ref().expect_err("a partial tail is an error");
            assert_eq!(
                (e.kind, e.value),
                (DecodeErrorKind::WrongLength, tail as u64)
            );
        }
    }
}

/// Runs `inputs` inputs against generation `G` from `seed`; panics naming the first input that
/// breaks a rule.
fn fuzz<G: Isa + Generation + Construct>(inputs: u64, seed: u64) -> Counts {
    let name = G::INFO.name;
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let pool = valid_words::<G>(&mut rng);
    assert!(
        pool.len() > 8,
        "{name}: only {} valid words to change",
        pool.len()
    );
    let mapped = mapped_opcodes::<G>();
    let engines = generation_engines::<G>();
    assert!(
        !engines.is_empty(),
        "{name}: no engine names in common with rng-core"
    );
    let mut live = machine::<G>(seed);
    let mut refusing = machine::<G>(!seed);
    let pristine = refusing.clone();
    let mut since_fresh = 0;
    let mut batch_start = 0;
    let mut counts = Counts::default();
    for k in 0..inputs {
        let (class, bytes) = input::<G>(&mut rng, k, &pool, &mapped);
        let engine = pick(&mut rng, &engines).0;
        let step = catch_unwind(AssertUnwindSafe(|| {
            counts.inputs += 1;
            let Ok(word) = <&[u8; INST_NBYTES]>::try_from(bytes.as_slice()) else {
                check_slice::<G>(&bytes, &mut counts);
                return;
            };
            match check_word::<G>(word, engine, &engines, &mut counts) {
                Err(e) => {
                    // Refused before execution: on the machine that must never change.
                    let stores = refusing.memory().stores;
                    let r = refusing.run(word, engine);
                    assert_eq!(
                        r.err(),
                        Some(MachineError::Instruction(e)),
                        "machine vs decode_instruction"
                    );
                    assert_eq!(
                        refusing.memory().stores,
                        stores,
                        "a refused word stored to memory"
                    );
                    counts.machine_refused += 1;
                }
                Ok(inst) => {
                    if work(&inst).is_some_and(|w| w > WORK_LIMIT) {
                        counts.not_executed_large += 1;
                        return;
                    }
                    let before = live.engine(engine).clone();
                    let stores = live.memory().stores;
                    match live.run(word, engine) {
                        Ok(ran) => {
                            assert_eq!(ran, inst, "the machine ran another instruction");
                            counts.machine_accepted += 1;
                            since_fresh += 1;
                        }
                        Err(e) => {
                            assert!(
                                !matches!(e, MachineError::Instruction(_)),
                                "decode_instruction accepted: {e}"
                            );
                            assert_eq!(
                                live.memory().stores,
                                stores,
                                "refused ({e}) but stored to memory"
                            );
                            assert!(
                                live.engine(engine) == &before,
                                "refused ({e}) but the engine changed"
                            );
                            counts.machine_refused += 1;
                            counts.refused_after_decode += 1;
                        }
                    }
                }
            }
        }));
        if let Err(panic) = step {
            eprintln!(
                "fuzz {name}: input {k} (seed {seed:#x}, {class}, engine {engine:?}) broke a rule: {}",
                bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
            );
            resume_unwind(panic);
        }
        if since_fresh >= FRESH_AFTER {
            live = machine::<G>(seed ^ k);
            since_fresh = 0;
        }
        if (k + 1).is_multiple_of(BATCH) || k + 1 == inputs {
            assert!(
                same_engines(&refusing, &pristine) && refusing.memory() == pristine.memory(),
                "fuzz {name}: a word refused before execution changed the machine (inputs {batch_start}..={k}, seed {seed:#x})"
            );
            batch_start = k + 1;
        }
    }
    println!("fuzz {name}: {counts:?}");
    counts
}

fn run_all(inputs: u64) {
    let seed = seed();
    let per = inputs.div_ceil(4);
    let mut total = Counts::default();
    let started = std::time::Instant::now();
    // One thread per generation: their streams are independent (each its own seed), and a
    // clean `cargo test` has a core to spare while this test runs. A failure panics its thread,
    // and the scope passes the panic on.
    let generations = std::thread::scope(|scope| {
        let runs = [
            scope.spawn(move || fuzz::<isa_sunda::Sunda>(per, seed)),
            scope.spawn(move || fuzz::<isa_cayman::Cayman>(per, seed ^ 1)),
            scope.spawn(move || fuzz::<isa_mariana::Mariana>(per, seed ^ 2)),
            scope.spawn(move || fuzz::<isa_maverick::Maverick>(per, seed ^ 3)),
        ];
        runs.map(|run| {
            run.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    });
    for counts in &generations {
        total.add(counts);
    }
    println!(
        "fuzz total (seed {seed:#x}, {:.1} s): {total:?}",
        started.elapsed().as_secs_f64()
    );
    assert!(total.inputs >= inputs);
    // Every class reached the paths it is for.
    assert!(total.decoded > total.inputs / 8, "{total:?}");
    assert!(total.valid > 0 && total.machine_accepted > 0, "{total:?}");
    assert!(
        total.refused_after_decode > 0 && total.slices > 0,
        "{total:?}"
    );
}

#[test]
fn a_million_inputs_over_the_four_generations_hold_every_rule() {
    run_all(INPUTS);
}

#[test]
#[ignore = "50 M inputs: minutes in release; see README, Testing"]
fn fifty_million_inputs_over_the_four_generations_hold_every_rule() {
    run_all(INPUTS_LONG);
}
