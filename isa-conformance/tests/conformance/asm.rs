//! The text assembly (`isa_core::asm`), seeded and deterministic like the decoder fuzz test
//! (`fuzz`): decodable words from its input classes read back from their disassembly (word ->
//! text -> word is the identity, text -> word -> text the same line), and mutated lines
//! (characters changed, dropped or added, fields dropped or doubled, numbers pushed out of
//! range) never panic and either assemble to a word whose text reads back the same or give one
//! error line with a column inside the line.
//!
//! `cargo test -p isa-conformance --test conformance asm::` runs `WORDS` words and as many
//! mutated lines; `NEURON_ISA_ASM_FUZZ=<n>` runs `n` of each instead (CI runs a million in
//! release, `.ci/run`); the ignored test runs `WORDS_LONG`. `NEURON_ISA_FUZZ_SEED` changes the seed.

use crate::fuzz;
use isa_core::construct::Construct;
use isa_core::{Isa, INST_NBYTES};
use rand_pcg::rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rng_core::Generation;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::str::FromStr;

/// Words (and mutated lines) of the normal test run, over the four generations.
const WORDS: u64 = 1 << 14;
/// Words (and mutated lines) of the ignored long run.
const WORDS_LONG: u64 = 50_000_000;

#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    words: u64,
    mutated: u64,
    mutated_parsed: u64,
    mutated_refused: u64,
}

/// Characters a mutation puts in: the format's own, digits, letters, and a few others.
const ALPHABET: &[char] = &[
    '=',
    '{',
    '}',
    '[',
    ']',
    ',',
    ' ',
    '-',
    '.',
    'x',
    '0',
    '1',
    '9',
    'f',
    'A',
    'Z',
    '_',
    '(',
    ')',
    '\t',
    '\u{e9}',
    '\u{1F600}',
    'N',
    'a',
];

/// The byte ranges of the top-level ` name=value` entries of `line`.
fn entries(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (k, c) in line.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ' ' if depth == 0 => {
                if let Some(s) = start.replace(k) {
                    out.push((s, k));
                }
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
    out
}

fn char_boundary(line: &str, rng: &mut Pcg64Mcg) -> usize {
    let bounds: Vec<usize> = line
        .char_indices()
        .map(|(k, _)| k)
        .chain([line.len()])
        .collect();
    bounds[(rng.next_u64() % bounds.len() as u64) as usize]
}

/// `line` changed in one of seven ways.
fn mutate(line: &str, rng: &mut Pcg64Mcg) -> String {
    let mut s = line.to_string();
    let fields = entries(line);
    let pick = |rng: &mut Pcg64Mcg| ALPHABET[(rng.next_u32() as usize) % ALPHABET.len()];
    match rng.next_u32() % 7 {
        0 => {
            // One character replaced.
            let at = char_boundary(&s, rng);
            if at < s.len() {
                let len = s[at..].chars().next().map_or(0, char::len_utf8);
                s.replace_range(at..at + len, pick(rng).encode_utf8(&mut [0; 4]));
            }
        }
        1 => {
            let at = char_boundary(&s, rng);
            s.insert(at, pick(rng));
        }
        2 => {
            let at = char_boundary(&s, rng);
            if at < s.len() {
                s.remove(at);
            }
        }
        3 if !fields.is_empty() => {
            let (a, b) = fields[(rng.next_u64() % fields.len() as u64) as usize];
            s.replace_range(a..b, "");
        }
        4 if !fields.is_empty() => {
            let (a, b) = fields[(rng.next_u64() % fields.len() as u64) as usize];
            let entry = line[a..b].to_string();
            let at = fields[(rng.next_u64() % fields.len() as u64) as usize].1;
            s.insert_str(at, &entry);
        }
        _ => {
            // A number pushed out of range: digits appended to one, or a sign put before it.
            let digits: Vec<usize> = s
                .char_indices()
                .filter(|&(k, c)| {
                    c.is_ascii_digit() && !s[..k].ends_with(|p: char| p.is_ascii_alphanumeric())
                })
                .map(|(k, _)| k)
                .collect();
            if let Some(&at) = digits.get((rng.next_u64() % digits.len().max(1) as u64) as usize) {
                match rng.next_u32() % 3 {
                    0 => s.insert(at, '-'),
                    1 => s.insert_str(at, "99999999999999999999"),
                    _ => s.insert_str(at, "0x1ffffffff"),
                }
            }
        }
    }
    s
}

/// `words` decodable words of `G` round trip, and as many mutated lines hold the rules.
fn run<G: Isa + Generation + Construct>(words: u64, seed: u64) -> Counts {
    let name = G::INFO.name;
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let pool = fuzz::valid_words::<G>(&mut rng);
    let mapped = fuzz::mapped_opcodes::<G>();
    let mut counts = Counts::default();
    let mut k = 0u64;
    while counts.words < words {
        // Classes 1 and 2: changed valid words, random operands of a mapped opcode.
        let (_, bytes) = fuzz::input::<G>(&mut rng, 1 + k % 2, &pool, &mapped);
        k += 1;
        let word: [u8; INST_NBYTES] = bytes.as_slice().try_into().expect("64 bytes");
        let Ok(inst) = G::decode(&word) else { continue };
        let text = inst.to_string();
        let back = G::parse_instruction(&text).unwrap_or_else(|e| {
            panic!(
                "{name}: `{text}` does not assemble (column {}): {e}",
                e.column()
            )
        });
        assert_eq!(
            G::encode(&back),
            word,
            "{name}: `{text}` assembles to another word"
        );
        assert_eq!(back.to_string(), text, "{name}: text -> word -> text");
        counts.words += 1;

        let line = mutate(&text, &mut rng);
        let step = catch_unwind(AssertUnwindSafe(|| match G::parse_instruction(&line) {
            Ok(inst) => {
                let canonical = inst.to_string();
                let again = G::parse_instruction(&canonical).expect("a canonical line assembles");
                assert_eq!(G::encode(&again), G::encode(&inst), "canonical line");
                assert_eq!(again.to_string(), canonical);
                true
            }
            Err(e) => {
                let message = e.to_string();
                assert!(
                    !message.contains('\n') && !message.is_empty(),
                    "one line: {message}"
                );
                assert!(
                    (1..=line.chars().count() + 1).contains(&e.column()),
                    "column {} of {} characters",
                    e.column(),
                    line.chars().count()
                );
                false
            }
        }));
        match step {
            Ok(parsed) => {
                counts.mutated += 1;
                if parsed {
                    counts.mutated_parsed += 1;
                } else {
                    counts.mutated_refused += 1;
                }
            }
            Err(panic) => {
                eprintln!(
                    "asm {name}: mutated line {:?} (seed {seed:#x}) broke a rule",
                    line
                );
                resume_unwind(panic);
            }
        }
    }
    counts
}

fn run_all(words: u64) {
    let seed = fuzz::seed();
    let per = words.div_ceil(4);
    let started = std::time::Instant::now();
    let runs = std::thread::scope(|scope| {
        let runs = [
            scope.spawn(move || run::<isa_sunda::Sunda>(per, seed)),
            scope.spawn(move || run::<isa_cayman::Cayman>(per, seed ^ 1)),
            scope.spawn(move || run::<isa_mariana::Mariana>(per, seed ^ 2)),
            scope.spawn(move || run::<isa_maverick::Maverick>(per, seed ^ 3)),
        ];
        runs.map(|run| run.join().unwrap_or_else(|panic| resume_unwind(panic)))
    });
    let mut total = Counts::default();
    for c in &runs {
        total.words += c.words;
        total.mutated += c.mutated;
        total.mutated_parsed += c.mutated_parsed;
        total.mutated_refused += c.mutated_refused;
    }
    println!(
        "asm fuzz (seed {seed:#x}, {:.1} s): {total:?}",
        started.elapsed().as_secs_f64()
    );
    assert!(total.words >= words && total.mutated >= words, "{total:?}");
    // Both outcomes of a mutation are reached.
    assert!(
        total.mutated_parsed > 0 && total.mutated_refused > total.mutated / 4,
        "{total:?}"
    );
}

#[test]
fn decodable_words_read_back_and_mutated_lines_fail_in_one_line() {
    let words = std::env::var("NEURON_ISA_ASM_FUZZ")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(WORDS);
    run_all(words);
}

#[test]
#[ignore = "50 M words and mutated lines: long in release; see README, Testing"]
fn fifty_million_words_and_mutated_lines() {
    run_all(WORDS_LONG);
}

#[test]
fn a_typed_instruction_reads_only_its_own_opcode() {
    use isa_mariana::{Instruction, Rand, Rand2};
    let line = "RAND2 num_active_channels=4 min=-1.0 max=1";
    let rand2 = Rand2::from_str(line).unwrap();
    assert_eq!(rand2.to_string(), "RAND2 rand_algorithm=LFSR post_process=RAW_U32 dtype=INVALID num_active_channels=4 min_src=INSTRUCTION_IMMEDIATE max_src=INSTRUCTION_IMMEDIATE min=-1.0 max=1.0");
    assert_eq!(Instruction::from_str(line), Ok(Instruction::Rand2(rand2)));
    let e = Rand::from_str(line).unwrap_err();
    assert_eq!(
        (e.column(), e.to_string().as_str()),
        (1, "expected a `RAND` line, found opcode `RAND2`")
    );
}
