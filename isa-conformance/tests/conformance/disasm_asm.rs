//! `neuron-isa disasm` of the fuzz test's words assembles back byte for byte, for every
//! generation: the words of its three word classes (random words, valid words with bytes
//! changed, mapped opcodes with random operands), listed by `disasm`, then assembled by `asm`,
//! both through the tool's own entry point (`neuron_isa::execute`, what its `main` runs).

use crate::fuzz;

use clap::Parser;
use isa_core::construct::Construct;
use isa_core::{Isa, INST_NBYTES};
use neuron_isa::cli::Cli;
use neuron_isa::out::Out;
use rand_pcg::rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rng_core::Generation;
use std::path::{Path, PathBuf};

/// Words per generation.
const WORDS: usize = 6000;

/// The first `WORDS` 64-byte inputs of the fuzz test's input sequence for `G` (its slices left out).
fn corpus<G: Isa + Generation + Construct>(seed: u64) -> Vec<u8> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let pool = fuzz::valid_words::<G>(&mut rng);
    let mapped = fuzz::mapped_opcodes::<G>();
    let mut bytes = Vec::with_capacity(WORDS * INST_NBYTES);
    let mut k = 0;
    while bytes.len() < WORDS * INST_NBYTES {
        let (_, input) = fuzz::input::<G>(&mut rng, k, &pool, &mapped);
        if input.len() == INST_NBYTES {
            bytes.extend_from_slice(&input);
        }
        k += 1;
    }
    bytes
}

/// Runs `neuron-isa ARGS` in this process; returns its standard output, or its error lines.
fn neuron_isa(args: &[&str]) -> Result<Vec<u8>, Vec<String>> {
    let cli = Cli::try_parse_from(std::iter::once("neuron-isa").chain(args.iter().copied()))
        .map_err(|e| vec![e.to_string()])?;
    let mut out = Out::new(Vec::new());
    neuron_isa::execute(&cli, &mut out).map_err(|f| f.stderr_lines())?;
    Ok(out.into_inner().expect("a Vec takes every byte"))
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("isa-conformance-{}-{name}", std::process::id()))
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

fn round_trip<G: Isa + Generation + Construct>(gen: &str, seed: u64) {
    let words = corpus::<G>(seed);
    let bin = scratch(&format!("{gen}.bin"));
    let listing_file = scratch(&format!("{gen}.s"));
    std::fs::write(&bin, &words).unwrap();
    let listing = neuron_isa(&["disasm", "--gen", gen, path(&bin)]).expect("disasm");
    std::fs::write(&listing_file, &listing).unwrap();
    let back = neuron_isa(&["asm", "--gen", gen, path(&listing_file)]);
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_file(&listing_file);
    let listing = String::from_utf8(listing).expect("a listing is text");
    let back = back.unwrap_or_else(|errors| {
        panic!(
            "{gen}: asm of the disasm listing fails ({} errors), first: {}",
            errors.len(),
            errors[0]
        )
    });
    let lines: Vec<&str> = listing.lines().skip(1).collect();
    assert_eq!(lines.len(), WORDS, "{gen}: one listing line per word");
    for (k, (word, again)) in words
        .chunks(INST_NBYTES)
        .zip(back.chunks(INST_NBYTES))
        .enumerate()
    {
        assert_eq!(
            word, again,
            "{gen}: word {k} differs, listed as `{}`",
            lines[k]
        );
    }
    assert_eq!(back.len(), words.len(), "{gen}: words assembled");
    // The corpus holds both kinds of line, and `.word` is exactly the words that do not decode.
    let raw = lines.iter().filter(|l| l.starts_with(".word ")).count();
    let undecodable = words
        .chunks(INST_NBYTES)
        .filter(|w| G::decode((*w).try_into().unwrap()).is_err())
        .count();
    assert_eq!(raw, undecodable, "{gen}: .word lines");
    assert!(
        raw > WORDS / 4 && WORDS - raw > WORDS / 4,
        "{gen}: {raw} .word lines of {WORDS}"
    );
}

#[test]
fn disasm_of_the_fuzz_words_assembles_back_byte_for_byte_in_every_generation() {
    let seed = fuzz::SEED;
    std::thread::scope(|scope| {
        let runs = [
            scope.spawn(move || round_trip::<isa_sunda::Sunda>("sunda", seed)),
            scope.spawn(move || round_trip::<isa_cayman::Cayman>("cayman", seed ^ 1)),
            scope.spawn(move || round_trip::<isa_mariana::Mariana>("mariana", seed ^ 2)),
            scope.spawn(move || round_trip::<isa_maverick::Maverick>("maverick", seed ^ 3)),
        ];
        for run in runs {
            run.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
    });
}
