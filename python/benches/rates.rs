//! The Rust side of `python/bench/ratios.py`: the rates the Python package is measured
//! against, with the same work as the Python call it is compared with.
//!
//! * `bank GEN ENGINE GENERATOR ALGORITHM LANES SEED WORDS REPS fresh|reused`: rng-core's bank of the arm
//!   (`EngineRng`, seeded as `Bank(..., seed=SEED)` seeds it) drawing WORDS elements per lane
//!   into a new vector each time (`fresh`, as `Bank.draw(WORDS)` returns a new array) or into
//!   the same one (`reused`, as `Bank.draw(WORDS, out=array)`);
//! * `validate GEN ENGINE FILE REPS`: the library's `decode` + `validate` of every 64-byte word
//!   of FILE on ENGINE, as `validate_stream` does (into a fresh verdict per word).
//!
//! Prints the best time of REPS in seconds. Run by `cargo bench -p neuron-isa-python --bench
//! rates -- ...` (the release profile).

use isa_core::{Isa, VendorEnum};
use neuron_isa_native::for_gen;
use neuron_isa_native::gens::Gen;
use neuron_isa_native::names;
use rng_core::{Algorithm, Engine, EngineRng, Gate, Generator, LaneRow, LANES};
use std::hint::black_box;
use std::time::Instant;

fn best(reps: usize, mut run: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn arg<T: std::str::FromStr>(args: &[String], k: usize, what: &str) -> T {
    args.get(k)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("argument {k}: {what}"))
}

fn bank<G: neuron_isa_native::gens::Target>(args: &[String]) -> f64 {
    let engine = names::lookup(Engine::ALL, Engine::name, &args[2]).expect("an engine");
    let generator = names::lookup(Generator::ALL, Generator::name, &args[3]).expect("a generator");
    let algorithm = names::lookup(Algorithm::ALL, Algorithm::name, &args[4]).expect("an algorithm");
    let lanes: usize = arg(args, 5, "lanes");
    let seed: u64 = arg(args, 6, "seed");
    let words: usize = arg(args, 7, "words");
    let reps: usize = arg(args, 8, "reps");
    let mut rng = EngineRng::<G>::new(engine, Gate::Validator);
    rng.seed_lanes(seed);
    let mut reused: Vec<LaneRow> = vec![[0; LANES]; words];
    match args.get(9).map(String::as_str) {
        // A new vector per draw, as `Bank.draw(WORDS)` makes a new array.
        Some("fresh") => best(reps, || {
            let mut out: Vec<LaneRow> = vec![[0; LANES]; words];
            rng.draw(generator, algorithm, lanes, &mut out)
                .expect("a bank of the engine");
            black_box(&out);
        }),
        // The same memory every draw, as `Bank.draw(WORDS, out=array)`.
        Some("reused") => best(reps + 1, || {
            rng.draw(generator, algorithm, lanes, &mut reused)
                .expect("a bank of the engine");
            black_box(&reused);
        }),
        _ => panic!("argument 9: fresh or reused"),
    }
}

fn validate<G: neuron_isa_native::gens::Target>(args: &[String]) -> f64 {
    let engine = names::lookup(
        <G as Isa>::Engine::all(),
        <G as Isa>::Engine::vendor_name,
        &args[2],
    )
    .expect("an engine");
    let stream = std::fs::read(&args[3]).expect("the words file");
    let reps: usize = arg(args, 4, "reps");
    best(reps, || {
        let mut ok = vec![false; stream.len() / 64];
        for (word, ok) in stream.chunks_exact(64).zip(ok.iter_mut()) {
            let word: &[u8; 64] = word.try_into().expect("whole words");
            *ok = G::decode(word).is_ok_and(|inst| G::validate(&inst, engine).is_ok());
        }
        black_box(&ok);
    })
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let gen = Gen::from_name(args.get(1).map_or("", String::as_str)).expect("a generation");
    let seconds = match args.first().map(String::as_str) {
        Some("bank") => for_gen!(gen, G => bank::<G>(&args)),
        Some("validate") => for_gen!(gen, G => validate::<G>(&args)),
        _ => panic!("usage: rates bank|validate GEN ..."),
    };
    println!("{seconds:.9}");
}
