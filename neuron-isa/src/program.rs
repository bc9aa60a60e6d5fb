//! `run`: executes a stream of 64-byte words on the rng-core machine (from zeroed memory and the
//! model's power-on state, or an engine state from a checkpoint file) and prints a memory region.
//!
//! Every word runs on one engine queue: `--engine`, or the one engine that can run every word
//! ([`placement`]). A refused word stops the run: memory and state stay as they were before it,
//! the dump of that memory is still printed, and the error (exit 1) names the word's index, byte
//! offset and instruction, and why.

use crate::fail::{Failure, Outcome};
use crate::out::Out;
use crate::text::{engine_of, Text};
use crate::words::Input;
use isa_core::{Isa, VendorEnum, INST_NBYTES};
use rng_core::machine::TensorPlace;
use rng_core::{Checkpoint, Engine, Gate, Generation, Machine, SparseMemory};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// The `--dump ADDR:CHANNELS:WORDS` region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dump {
    /// Byte address of the first word, in the first partition dumped (usually partition 0).
    pub address: u32,
    /// Partitions dumped, from the address's partition on.
    pub channels: u32,
    /// u32 words per partition.
    pub words: u32,
}

/// Parses `ADDR:CHANNELS:WORDS` (each decimal or `0x` hex).
pub fn parse_dump(text: &str) -> Result<Dump, String> {
    let parts: Vec<&str> = text.split(':').collect();
    let [a, c, w] = parts[..] else {
        return Err(format!("`{text}`: expected ADDR:CHANNELS:WORDS"));
    };
    Ok(Dump {
        address: crate::num::u32(a)?,
        channels: crate::num::u32(c)?,
        words: crate::num::u32(w)?,
    })
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Request {
    /// `--engine`, if given.
    pub engine: Option<Engine>,
    /// `--engine-state FILE` (`None`: the model's power-on state).
    pub engine_state: Option<PathBuf>,
    /// The region printed.
    pub dump: Dump,
    /// `--json`.
    pub json: bool,
}

/// The vendor name of the opcode byte of `word` in `G` (`RAND2`), or `opcode 0x..`.
fn instruction_name<G: Isa>(word: &[u8; INST_NBYTES]) -> String {
    isa_core::program::opcode_name::<G>(word)
}

/// Where the program comes from.
#[derive(Debug)]
pub enum Source<E> {
    /// A raw stream of 64-byte words.
    Words(Input),
    /// A program text, read and assembled.
    Text(Text<E>),
}

/// The program's words, each with the engine its text names for it (none for a raw stream)
/// and its `FILE:LINE` (empty for a raw stream).
struct Loaded {
    words: Vec<[u8; INST_NBYTES]>,
    engines: Vec<Option<Engine>>,
    places: Vec<String>,
}

/// The words of `source`; a text's word on an engine the machine does not model fails (exit 2).
fn load<G: Isa>(source: &Source<G::Engine>) -> Result<Loaded, Failure> {
    let mut loaded = Loaded {
        words: Vec::new(),
        engines: Vec::new(),
        places: Vec::new(),
    };
    match source {
        Source::Words(input) => {
            input.for_each(|_, w| {
                loaded.words.push(*w);
                loaded.engines.push(None);
                Ok(())
            })?;
        }
        Source::Text(text) => {
            let mut lines = Vec::new();
            for s in &text.program.statements {
                let engine = engine_of::<G>(s).map(|vendor| {
                    Engine::ALL
                        .iter()
                        .copied()
                        .find(|e| e.name() == vendor.vendor_name())
                        .ok_or(vendor)
                });
                let engine = match engine.transpose() {
                    Ok(engine) => engine,
                    Err(vendor) => {
                        lines.push(format!(
                            "{}: engine {vendor}: the machine runs POOL, DVE and ACT",
                            text.at(s)
                        ));
                        None
                    }
                };
                loaded.words.push(s.word);
                loaded.engines.push(engine);
                loaded.places.push(text.at(s));
            }
            if !lines.is_empty() {
                return Err(Failure::Lines { code: 2, lines });
            }
        }
    }
    Ok(loaded)
}

/// Whether `word` can run on `engine`: it decodes and validates there (the generation's
/// validator and legality tables) and the engine holds the generator state it uses.
fn runs_on<G: Isa + Generation>(
    m: &Machine<G, SparseMemory>,
    word: &[u8; INST_NBYTES],
    engine: Engine,
) -> bool {
    G::decode_instruction(word, engine).is_ok_and(|inst| m.holds_state(&inst))
}

/// The engine queue the program's words run on when `--engine` is not given: the one engine
/// on which every word can run (see `runs_on`), when there is exactly one.
///
/// This is the one place the choice is made. It follows the generated validators, which check
/// the tree's engine placement (`neuron_isa_check_opcode_on_engine`, instr_assert.h) first, then
/// their own rules and the legality tables, and the model's state banks. An empty program needs
/// no engine (`None`).
pub fn placement<G: Isa + Generation>(
    words: &[[u8; INST_NBYTES]],
) -> Result<Option<Engine>, Failure> {
    if words.is_empty() {
        return Ok(None);
    }
    let m = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
    let stops: Vec<(Engine, Option<usize>)> = Engine::ALL
        .iter()
        .map(|&e| (e, words.iter().position(|w| !runs_on(&m, w, e))))
        .collect();
    choose_engine(&stops, |k| instruction_name::<G>(&words[k]))
}

/// The choice of [`placement`] from, per engine, the first word it refuses (`None`: it runs
/// them all); `name_of(k)` names word `k` for the message.
fn choose_engine(
    stops: &[(Engine, Option<usize>)],
    name_of: impl Fn(usize) -> String,
) -> Result<Option<Engine>, Failure> {
    let able: Vec<Engine> = stops
        .iter()
        .filter(|(_, stop)| stop.is_none())
        .map(|(e, _)| *e)
        .collect();
    match able[..] {
        [one] => Ok(Some(one)),
        [] => {
            let why: Vec<String> = stops
                .iter()
                .filter_map(|(e, stop)| {
                    let k = (*stop)?;
                    Some(format!("{} at word {k} ({})", e.name(), name_of(k)))
                })
                .collect();
            Err(Failure::usage(format!(
                "run: no engine runs every word of the program ({}); give --engine to run up to the word it refuses",
                why.join(", ")
            )))
        }
        _ => Err(Failure::usage(format!(
            "run: every word runs on {}; choose the engine with --engine",
            names(&able)
        ))),
    }
}

fn names(engines: &[Engine]) -> String {
    let n: Vec<&str> = engines.iter().map(|e| e.name()).collect();
    match n.len() {
        0 | 1 => n.join(""),
        _ => format!("{} and {}", n[..n.len() - 1].join(", "), n[n.len() - 1]),
    }
}

/// The dump region resolved: the place of its first word, checked against `G`'s memory map.
fn resolve_dump<G: Generation>(dump: &Dump) -> Result<TensorPlace, Failure> {
    let bad = |why: String| {
        Failure::usage(format!(
            "run --dump {:#x}:{}:{}: {why}",
            dump.address, dump.channels, dump.words
        ))
    };
    let place = TensorPlace::resolve(dump.address, &G::MEMORY).map_err(|e| bad(e.to_string()))?;
    let room = place.partitions - place.first_partition;
    if dump.channels == 0 || dump.channels > room {
        return Err(bad(format!(
            "CHANNELS must be in 1..={room} (partitions from {} on)",
            place.first_partition
        )));
    }
    let room = (place.partition_bytes - place.offset) / 4;
    if dump.words == 0 || dump.words > room {
        return Err(bad(format!(
            "WORDS must be in 1..={room} (the rest of the partition from offset {:#x})",
            place.offset
        )));
    }
    Ok(place)
}

/// A refused word.
struct Refusal {
    /// `FILE:LINE: ` of a text's word, else empty.
    place: String,
    index: usize,
    opcode: u8,
    name: String,
    message: String,
}

impl Refusal {
    fn line(&self) -> String {
        format!(
            "run: {}word {} @ {:#x} ({}): {}",
            self.place,
            self.index,
            self.index * INST_NBYTES,
            self.name,
            self.message
        )
    }
}

/// Runs the program and prints the dump; exit 1 when a word is refused.
///
/// A word of a program text runs on the engine its text names (its annotation, `.engine`, or
/// the one engine the tree places it on); the others on `--engine` or [`placement`]'s choice
/// among them.
pub fn run<G: Isa + Generation, W: Write>(
    source: &Source<<G as Isa>::Engine>,
    request: &Request,
    out: &mut Out<W>,
) -> Outcome {
    let place = resolve_dump::<G>(&request.dump)?;
    let Loaded {
        words,
        engines,
        places,
    } = load::<G>(source)?;
    let unnamed: Vec<[u8; INST_NBYTES]> = words
        .iter()
        .zip(&engines)
        .filter(|(_, e)| e.is_none())
        .map(|(w, _)| *w)
        .collect();
    let engine = match request.engine {
        Some(e) => Some(e),
        None => placement::<G>(&unnamed)?,
    };
    let mut m: Box<Machine<G, SparseMemory>> =
        Box::new(Machine::new(SparseMemory::new(), Gate::Validator));
    if let Some(path) = &request.engine_state {
        let name = path.display();
        let state = read_checkpoint(path)
            .map_err(|e| Failure::usage(format!("run --engine-state {name}: {e}")))?;
        state
            .restore_into(m.engine_mut(state.engine))
            .map_err(|e| Failure::usage(format!("run --engine-state {name}: {e}")))?;
    }
    let mut refusal = None;
    let mut executed = 0usize;
    for (index, word) in words.iter().enumerate() {
        // Every word has an engine: its own, or the default chosen for those without one.
        let Some(engine) = engines[index].or(engine) else {
            break;
        };
        if let Err(e) = m.run(word, engine) {
            refusal = Some(Refusal {
                place: places
                    .get(index)
                    .map_or(String::new(), |p| format!("{p}: ")),
                index,
                opcode: word[0],
                name: instruction_name::<G>(word),
                message: e.to_string(),
            });
            break;
        }
        executed += 1;
    }
    let (channels, width) = (request.dump.channels, request.dump.words);
    let region = m
        .read_tensor(request.dump.address, channels, width)
        .map_err(|e| {
            Failure::usage(format!(
                "run --dump {:#x}:{channels}:{width}: {e}",
                request.dump.address
            ))
        })?;
    let rows: Vec<&[u32]> = region.chunks(width as usize).collect();
    if request.json {
        json::<G, W>(
            out,
            engine,
            words.len(),
            executed,
            refusal.as_ref(),
            &request.dump,
            &place,
            &rows,
        );
    } else {
        for row in &rows {
            for (k, w) in row.iter().enumerate() {
                if k > 0 {
                    out.byte(b' ');
                }
                out.hex(u64::from(*w), 8);
            }
            out.byte(b'\n');
            out.maybe_flush()?;
        }
    }
    out.flush()?;
    match refusal {
        Some(r) => Err(Failure::invalid(r.line())),
        None => Ok(()),
    }
}

/// The `--json` document (format `neuron-isa-run`, version 1; README "run").
#[allow(clippy::too_many_arguments)]
fn json<G: Isa + Generation, W: Write>(
    out: &mut Out<W>,
    engine: Option<Engine>,
    words: usize,
    executed: usize,
    refusal: Option<&Refusal>,
    dump: &Dump,
    place: &TensorPlace,
    rows: &[&[u32]],
) {
    let _ = writeln!(out, "{{");
    let _ = writeln!(out, "  \"format\": \"neuron-isa-run\",");
    let _ = writeln!(out, "  \"version\": 1,");
    out.str("  \"generation\": ");
    out.json_str(G::INFO.name);
    out.str(",\n  \"engine\": ");
    match engine {
        Some(e) => out.json_str(e.name()),
        None => out.str("null"),
    }
    let _ = write!(
        out,
        ",\n  \"words\": {words},\n  \"executed\": {executed},\n  \"error\": "
    );
    match refusal {
        None => out.str("null"),
        Some(r) => {
            let _ = write!(
                out,
                "{{\"word\": {}, \"offset\": {}, \"opcode\": {}, \"instruction\": ",
                r.index,
                r.index * INST_NBYTES,
                r.opcode
            );
            out.json_str(&r.name);
            out.str(", \"message\": ");
            out.json_str(&r.message);
            out.str("}");
        }
    }
    let space = place.space.name();
    let _ = write!(
        out,
        ",\n  \"dump\": {{\"address\": {}, \"space\": \"{space}\", \"first_partition\": {}, \"offset\": {}, \"partition_bytes\": {}, \"channels\": {}, \"words\": {}}},\n  \"partitions\": [",
        dump.address,
        place.first_partition,
        place.offset,
        place.partition_bytes,
        dump.channels,
        dump.words
    );
    for (p, row) in rows.iter().enumerate() {
        out.str(if p == 0 { "\n    [" } else { ",\n    [" });
        for (k, w) in row.iter().enumerate() {
            if k > 0 {
                out.str(", ");
            }
            out.dec(u64::from(*w));
        }
        out.str("]");
    }
    out.str("\n  ]\n}\n");
}

/// Reads a checkpoint file, holding at most `rng_core::file::max_json_bytes` + 1 bytes of it:
/// a regular file larger than any legal checkpoint is refused by its size, unread.
fn read_checkpoint(path: &std::path::Path) -> Result<Checkpoint, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if meta.is_dir() {
        return Err("is a directory".into());
    }
    let bound = rng_core::file::max_json_bytes();
    if meta.is_file() && meta.len() > bound as u64 {
        return Err(rng_core::file::FileError::TooLarge {
            size: Some(meta.len()),
            bound,
        }
        .to_string());
    }
    Checkpoint::from_reader(file).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_regions_parse() {
        assert_eq!(
            parse_dump("0x100:2:4"),
            Ok(Dump {
                address: 0x100,
                channels: 2,
                words: 4
            })
        );
        assert!(parse_dump("0x100:2").is_err());
        assert!(parse_dump("0x100:2:4:5").is_err());
        assert!(parse_dump("x:2:4").is_err());
    }

    #[test]
    fn engine_lists_read_as_prose() {
        assert_eq!(names(&[Engine::Pool]), "POOL");
        assert_eq!(
            names(&[Engine::Pool, Engine::Dve, Engine::Act]),
            "POOL, DVE and ACT"
        );
    }

    #[test]
    fn several_able_engines_need_a_choice() {
        let stops = [
            (Engine::Pool, None),
            (Engine::Dve, None),
            (Engine::Act, Some(0)),
        ];
        assert_eq!(
            choose_engine(&stops, |_| "RAND2".into()),
            Err(Failure::usage(
                "run: every word runs on POOL and DVE; choose the engine with --engine"
            ))
        );
        assert_eq!(
            choose_engine(&stops[1..], |_| "RAND2".into()),
            Ok(Some(Engine::Dve))
        );
    }

    #[test]
    fn placement_picks_the_only_engine_or_says_why_not() {
        type G = isa_mariana::Mariana;
        let seed = {
            let mut f = isa_mariana::PseudoSetRngSeedFields::ZEROED;
            f.header.inst_word_len = 16;
            isa_mariana::PseudoSetRngSeed(f).to_bytes()
        };
        assert_eq!(placement::<G>(&[seed]), Ok(Some(Engine::Dve)));
        assert_eq!(placement::<G>(&[]), Ok(None));
        let mut other = [0u8; 64];
        other[0] = 0x41;
        let err = placement::<G>(&[seed, other]).unwrap_err();
        assert_eq!(
            err,
            Failure::usage(
                "run: no engine runs every word of the program (POOL at word 0 (PSEUDO_SET_RNG_SEED), DVE at word 1 (TENSOR_TENSOR_ARITH_OP), ACT at word 0 (PSEUDO_SET_RNG_SEED)); give --engine to run up to the word it refuses"
            )
        );
    }
}
