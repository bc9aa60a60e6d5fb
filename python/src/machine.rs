//! rng-core's lane banks and machine behind one object per generation (trait objects made
//! from the generic types, so Python holds one type whatever the generation).

use crate::for_gen;
use crate::gens::{Gen, Target};
use crate::names;
use isa_core::INST_NBYTES;
use rng_core::engine::StateSource;
use rng_core::machine::TensorPlace;
use rng_core::{
    Algorithm, CheckpointArm, DrawSpan, Engine, EngineRng, Gate, Generation, Generator, LaneRow,
    Machine, PartitionMemory, SparseMemory, StateAccess, StateUpdate, LANES,
};

/// A refusal, in one line.
pub type Refusal = String;

/// One generator state of one engine, for its lanes.
pub trait Bank: Send + Sync {
    /// Lanes drawn, saved and restored.
    fn lanes(&self) -> usize;
    /// State words per lane (the checkpoint width).
    fn words(&self) -> usize;
    /// Draws `out.len()` elements for every lane: `out[j][p]` is element `j` of lane `p`.
    fn draw(&mut self, out: &mut [LaneRow]) -> Result<(), Refusal>;
    /// Draws `out.len() / lanes` elements for every lane into `out`, element-major with only
    /// the bank's lanes (`out[j * lanes + p]`), the same words as [`Bank::draw`].
    fn draw_lanes(&mut self, out: &mut [u32]) -> Result<(), Refusal>;
    /// The RAND_GET_STATE tile, `lanes × words` words, lane-major.
    fn get_state(&self, out: &mut [u32]) -> Result<(), Refusal>;
    /// RAND_SET_STATE from a tile of `lanes × words` words, lane-major.
    fn set_state(&mut self, tile: &[u32]) -> Result<(), Refusal>;
}

struct EngineBank<G: Generation> {
    engine: EngineRng<G>,
    generator: Generator,
    algorithm: Algorithm,
    lanes: u8,
    words: usize,
    save: Option<CheckpointArm>,
    restore: Option<CheckpointArm>,
}

fn describe(engine: Engine, generator: Generator, algorithm: Algorithm) -> String {
    format!(
        "engine={:?}, generator={:?}, algorithm={:?}",
        names::spelling(engine.name()),
        names::spelling(generator.name()),
        names::spelling(algorithm.name())
    )
}

impl<G: Target> EngineBank<G> {
    /// The request of `arm` for the bank's lanes, or why the generation has none (`what`).
    fn access(&self, arm: Option<CheckpointArm>, what: &str) -> Result<StateAccess, Refusal> {
        let arm = arm.ok_or_else(|| {
            format!(
                "{} has no {what} for {}",
                G::INFO.name,
                describe(self.engine.engine(), self.generator, self.algorithm)
            )
        })?;
        Ok(StateAccess::for_arm::<G>(&arm, self.lanes))
    }
}

impl<G: Target> Bank for EngineBank<G> {
    fn lanes(&self) -> usize {
        usize::from(self.lanes)
    }

    fn words(&self) -> usize {
        self.words
    }

    fn draw(&mut self, out: &mut [LaneRow]) -> Result<(), Refusal> {
        self.engine
            .draw(self.generator, self.algorithm, self.lanes(), out)
            .map_err(|e| e.to_string())
    }

    fn draw_lanes(&mut self, out: &mut [u32]) -> Result<(), Refusal> {
        // A part of the draw at a time (`draw_part` keeps the element index of the whole draw).
        const PART: usize = 256;
        let lanes = self.lanes();
        let total = out.len() / lanes;
        let bank = self
            .engine
            .bank_mut(self.generator, self.algorithm)
            .ok_or("the engine holds no such state")?;
        let mut part = vec![[0u32; LANES]; PART.min(total)];
        for (k, chunk) in out[..total * lanes].chunks_mut(PART * lanes).enumerate() {
            let rows = &mut part[..chunk.len() / lanes];
            let span = DrawSpan {
                total: total as u64,
                first: (k * PART) as u64,
                steps: 1,
            };
            bank.draw_part(lanes, span, rows)
                .map_err(|e| e.to_string())?;
            for (row, words) in rows.iter().zip(chunk.chunks_exact_mut(lanes)) {
                words.copy_from_slice(&row[..lanes]);
            }
        }
        Ok(())
    }

    fn get_state(&self, out: &mut [u32]) -> Result<(), Refusal> {
        let access = self.access(self.save, "RAND_GET_STATE arm")?;
        self.engine
            .get_state(&access, out)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn set_state(&mut self, tile: &[u32]) -> Result<(), Refusal> {
        let access = self.access(self.restore, "RAND_SET_STATE arm from a tensor")?;
        self.engine
            .set_state(&access, StateSource::Tensor(tile))
            .map_err(|e| e.to_string())
    }
}

fn bank_of<G: Target>(
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    lanes: u8,
    seed: Option<u64>,
) -> Result<Box<dyn Bank>, Refusal> {
    let gen = G::INFO.name;
    if lanes == 0 || lanes > G::MAX_CHANNELS {
        return Err(format!(
            "lanes={lanes}: {gen} has 1..={} lanes",
            G::MAX_CHANNELS
        ));
    }
    let mut rng = EngineRng::<G>::new(engine, Gate::Validator);
    let Some(bank) = rng.bank(generator, algorithm) else {
        let held: Vec<String> = rng
            .banks()
            .map(|(g, b)| {
                format!(
                    "(generator={:?}, algorithm={:?})",
                    names::spelling(g.name()),
                    names::spelling(b.shape().algorithm().name())
                )
            })
            .collect();
        return Err(format!(
            "{gen}'s {} engine holds no state for {}; it holds {}",
            engine.name(),
            describe(engine, generator, algorithm),
            if held.is_empty() {
                "none".to_string()
            } else {
                held.join(", ")
            }
        ));
    };
    let words = bank.words();
    if let Some(seed) = seed {
        rng.seed_lanes(seed);
    }
    let arm = |arms: &[CheckpointArm], update| {
        arms.iter()
            .find(|a| {
                (a.engine, a.generator, a.algorithm, a.update)
                    == (engine, generator, algorithm, update)
            })
            .copied()
    };
    Ok(Box::new(EngineBank {
        save: arm(G::GET_STATE_ARMS, None),
        restore: arm(G::SET_STATE_ARMS, Some(StateUpdate::SrcTensor)),
        engine: rng,
        generator,
        algorithm,
        lanes,
        words,
    }))
}

/// The bank of `(generator, algorithm)` on `engine` of `gen`, in the model's power-on state or
/// seeded from `seed` as `neuron-isa checkpoint --seed` seeds it (every bank of the engine).
pub fn bank(
    gen: Gen,
    engine: Engine,
    generator: Generator,
    algorithm: Algorithm,
    lanes: u8,
    seed: Option<u64>,
) -> Result<Box<dyn Bank>, Refusal> {
    for_gen!(gen, G => bank_of::<G>(engine, generator, algorithm, lanes, seed))
}

/// Where a memory region lies: its first word per partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    place: TensorPlace,
    /// Partitions.
    pub channels: u32,
    /// Words per partition.
    pub words: u32,
}

impl Region {
    /// The byte address of word `k` of partition `p` of the region.
    pub fn address(&self, p: u32, k: u32) -> u32 {
        let place = &self.place;
        place.space_offset
            + (place.first_partition + p) * place.partition_bytes
            + place.offset
            + 4 * k
    }
}

/// A word the machine refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Its index in the program.
    pub index: usize,
    /// The instruction's vendor name (`RAND2`, or `opcode 0x..`).
    pub instruction: String,
    /// Why (rng-core's message).
    pub reason: String,
}

impl Refused {
    /// `word 3 @ 0xc0 (RAND2): why`, as `neuron-isa run` says it.
    pub fn line(&self) -> String {
        format!(
            "word {} @ {:#x} ({}): {}",
            self.index,
            self.index * INST_NBYTES,
            self.instruction,
            self.reason
        )
    }
}

/// The machine of one generation.
pub trait Machines: Send + Sync {
    /// Runs `words` in order on `engine`, up to the first it refuses (which has no effect).
    fn run(&mut self, words: &[[u8; INST_NBYTES]], engine: Engine) -> Result<(), Refused>;
    /// The one engine that can run every word (`neuron-isa run`'s choice without `--engine`).
    fn placement(&self, words: &[[u8; INST_NBYTES]]) -> Result<Engine, Refusal>;
    /// A region of `channels` partitions of `words` words from byte address `addr`, checked.
    fn region(&self, addr: u32, channels: u32, words: u32) -> Result<Region, Refusal>;
    /// The word at a byte address of a region.
    fn load(&self, address: u32) -> u32;
    /// Stores a word at a byte address of a region.
    fn store(&mut self, address: u32, value: u32);
}

struct GenMachine<G: Generation> {
    machine: Box<Machine<G, SparseMemory>>,
}

impl<G: Target> GenMachine<G> {
    fn runs_on(&self, word: &[u8; INST_NBYTES], engine: Engine) -> bool {
        G::decode_instruction(word, engine).is_ok_and(|inst| self.machine.holds_state(&inst))
    }
}

impl<G: Target> Machines for GenMachine<G> {
    fn run(&mut self, words: &[[u8; INST_NBYTES]], engine: Engine) -> Result<(), Refused> {
        for (index, word) in words.iter().enumerate() {
            self.machine.run(word, engine).map_err(|e| Refused {
                index,
                instruction: crate::words::opcode_name(crate::words::gen_of::<G>(), word[0]),
                reason: e.to_string(),
            })?;
        }
        Ok(())
    }

    fn placement(&self, words: &[[u8; INST_NBYTES]]) -> Result<Engine, Refusal> {
        let stops: Vec<(Engine, Option<usize>)> = Engine::ALL
            .iter()
            .map(|&e| (e, words.iter().position(|w| !self.runs_on(w, e))))
            .collect();
        let able: Vec<Engine> = stops
            .iter()
            .filter(|(_, s)| s.is_none())
            .map(|(e, _)| *e)
            .collect();
        match able[..] {
            [one] => Ok(one),
            [] => {
                let why: Vec<String> = stops
                    .iter()
                    .filter_map(|(e, stop)| {
                        let k = (*stop)?;
                        let name =
                            crate::words::opcode_name(crate::words::gen_of::<G>(), words[k][0]);
                        Some(format!(
                            "{} at word {k} ({name})",
                            names::spelling(e.name())
                        ))
                    })
                    .collect();
                Err(format!(
                    "no engine runs every word of the program ({}); give engine= to run up to the word it refuses",
                    why.join(", ")
                ))
            }
            _ => Err(format!(
                "every word runs on {}; choose one with engine=",
                names::choices(&able, Engine::name)
            )),
        }
    }

    fn region(&self, addr: u32, channels: u32, words: u32) -> Result<Region, Refusal> {
        let place = TensorPlace::resolve(addr, &G::MEMORY).map_err(|e| e.to_string())?;
        let room = place.partitions - place.first_partition;
        if channels == 0 || channels > room {
            return Err(format!(
                "channels={channels}: must be in 1..={room} (partitions from {} on)",
                place.first_partition
            ));
        }
        let room = (place.partition_bytes - place.offset) / 4;
        if words == 0 || words > room {
            return Err(format!(
                "words={words}: must be in 1..={room} (the rest of the partition from offset {:#x})",
                place.offset
            ));
        }
        Ok(Region {
            place,
            channels,
            words,
        })
    }

    fn load(&self, address: u32) -> u32 {
        self.machine.memory().load(address)
    }

    fn store(&mut self, address: u32, value: u32) {
        self.machine.memory_mut().store(address, value)
    }
}

/// A machine of `gen` from zeroed memory and the model's power-on state.
pub fn machine(gen: Gen) -> Box<dyn Machines> {
    for_gen!(gen, G => Box::new(GenMachine::<G> {
        machine: Box::new(Machine::new(SparseMemory::new(), Gate::Validator)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct::{checkpoint, Checkpoint};
    use rng_core::CheckpointKind;

    #[test]
    fn a_bank_restores_what_it_saved() {
        let mut b = bank(
            Gen::Mariana,
            Engine::Dve,
            Generator::RngXorwow,
            Algorithm::Xorwow,
            4,
            Some(7),
        )
        .unwrap();
        assert_eq!((b.lanes(), b.words()), (4, 24));
        let mut tile = vec![0; 4 * 24];
        b.get_state(&mut tile).unwrap();
        let mut first = vec![[0; 128]; 9];
        b.draw(&mut first).unwrap();
        b.set_state(&tile).unwrap();
        let mut again = vec![[0; 128]; 9];
        b.draw(&mut again).unwrap();
        assert_eq!(first, again);
        b.set_state(&tile).unwrap();
        // Across parts of 256 elements, and with 9 elements (not a multiple of the DVE's four
        // sub-generators): the words of one draw.
        for n in [9, 600] {
            let mut rows = vec![[0; 128]; n];
            b.set_state(&tile).unwrap();
            b.draw(&mut rows).unwrap();
            let mut lanes = vec![0; n * 4];
            b.set_state(&tile).unwrap();
            b.draw_lanes(&mut lanes).unwrap();
            for (row, words) in rows.iter().zip(lanes.chunks_exact(4)) {
                assert_eq!(&row[..4], words);
            }
        }
        assert!(b.set_state(&tile[1..]).unwrap_err().contains("95"));
        let refused = bank(
            Gen::Mariana,
            Engine::Dve,
            Generator::RngXorwow,
            Algorithm::Lfsr,
            4,
            None,
        );
        assert!(refused
            .err()
            .unwrap()
            .contains("MARIANA's DVE engine holds no state"));
        assert!(bank(
            Gen::Mariana,
            Engine::Dve,
            Generator::RngXorwow,
            Algorithm::Xorwow,
            0,
            None
        )
        .is_err());
    }

    /// The machine's state is large; a debug build needs more than a test thread's stack.
    fn with_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn the_machine_runs_words_and_stops_at_a_refused_one() {
        with_stack(the_machine_runs);
    }

    fn the_machine_runs() {
        let mut m = machine(Gen::Mariana);
        let save = checkpoint(
            Gen::Mariana,
            &Checkpoint {
                kind: CheckpointKind::Save,
                engine: Engine::Dve,
                generator: Generator::RngXorwow,
                algorithm: Algorithm::Xorwow,
                update: None,
                channels: 2,
                addr: Some(0x100),
                imm: None,
            },
        )
        .unwrap();
        assert_eq!(m.placement(&[save]), Ok(Engine::Dve));
        let mut bad = save;
        bad[0] = 0xff;
        let refused = m.run(&[save, bad], Engine::Dve).unwrap_err();
        assert_eq!(refused.index, 1);
        assert!(
            refused.line().starts_with("word 1 @ 0x40 (INVALID): "),
            "{}",
            refused.line()
        );
        let r = m.region(0x100, 2, 24).unwrap();
        assert!(
            (0..24).any(|k| m.load(r.address(1, k)) != 0),
            "the save wrote partition 1"
        );
        assert!(m.region(0x100, 0, 1).is_err());
        assert!(m.region(0x100, 1, 1 << 20).is_err());
    }
}
