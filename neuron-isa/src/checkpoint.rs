//! `checkpoint`: get-state, N draws, set-state, N draws on the model, through
//! encoded 64-byte words, and whether the two sequences are identical.

use crate::fail::{Failure, Outcome};
use crate::matrix::ArmKey;
use crate::out::Out;
use isa_core::Isa;
use rng_core::machine::{restore_instruction, save_instruction};
use rng_core::{
    Algorithm, CheckpointArm, CheckpointKind, Engine, Gate, Generation, Generator, LaneRow,
    Machine, SparseMemory, StateUpdate, LANES,
};
use std::fmt::Write as _;
use std::io::Write;

/// Most elements drawn per lane.
pub const MAX_DRAWS: u32 = 1 << 16;

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct Request {
    /// Engine.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// Seed of the convenience seeding.
    pub seed: u64,
    /// Elements drawn per lane, twice.
    pub draws: u32,
    /// `num_active_channels`.
    pub channels: u8,
}

/// The arm of `kind` (restores: from a tensor) for the request, or an exit-1 failure naming it.
fn arm<G: Isa + Generation>(r: &Request, kind: CheckpointKind) -> Result<CheckpointArm, Failure> {
    let key = ArmKey {
        kind,
        engine: r.engine,
        generator: r.generator,
        algorithm: r.algorithm,
        update: (kind == CheckpointKind::Restore).then_some(StateUpdate::SrcTensor),
    };
    key.find::<G>().ok_or_else(|| {
        let name = G::INFO.name;
        Failure::invalid(format!(
            "checkpoint: {} is not a legal arm of {name} (see `neuron-isa matrix --gen {}`)",
            key.describe(),
            name.to_ascii_lowercase()
        ))
    })
}

/// Runs the round trip and prints it; exit 1 unless the sequences are identical.
pub fn checkpoint<G: Isa + Generation, W: Write>(r: &Request, out: &mut Out<W>) -> Outcome {
    if r.draws == 0 || r.draws > MAX_DRAWS {
        return Err(Failure::usage(format!(
            "checkpoint --draws {}: must be in 1..={MAX_DRAWS}",
            r.draws
        )));
    }
    if r.channels == 0 || r.channels > G::MAX_CHANNELS {
        return Err(Failure::usage(format!(
            "checkpoint --channels {}: must be in 1..={}",
            r.channels,
            G::MAX_CHANNELS
        )));
    }
    let save = arm::<G>(r, CheckpointKind::Save)?;
    let restore = arm::<G>(r, CheckpointKind::Restore)?;
    let address = G::MEMORY.sbuf_offset;
    let encode = |c| {
        G::encode_checkpoint(&c).map_err(|e| Failure::invalid(format!("checkpoint: encoding: {e}")))
    };
    let save_word = encode(save_instruction::<G>(&save, r.channels, address))?;
    let restore_word = encode(restore_instruction::<G>(
        &restore, r.channels, address, [0; 8],
    ))?;

    let mut machine: Box<Machine<G, SparseMemory>> =
        Box::new(Machine::new(SparseMemory::new(), Gate::Validator));
    machine.engine_mut(r.engine).seed_lanes(r.seed);
    let run = |m: &mut Machine<G, SparseMemory>, word: &[u8; 64], what: &str| {
        m.execute(word, r.engine).map(|_| ()).map_err(|e| {
            Failure::invalid(format!(
                "checkpoint: the model refused the {what} word: {e}"
            ))
        })
    };
    let draw = |m: &mut Machine<G, SparseMemory>| -> Result<Vec<LaneRow>, Failure> {
        let mut rows = vec![[0u32; LANES]; r.draws as usize];
        m.engine_mut(r.engine)
            .draw(r.generator, r.algorithm, usize::from(r.channels), &mut rows)
            .map_err(|e| Failure::invalid(format!("checkpoint: draw: {e}")))?;
        Ok(rows)
    };
    run(&mut machine, &save_word, "RAND_GET_STATE")?;
    let first = draw(&mut machine)?;
    run(&mut machine, &restore_word, "RAND_SET_STATE")?;
    let second = draw(&mut machine)?;

    let lanes = usize::from(r.channels);
    let differing = (0..lanes)
        .filter(|&p| first.iter().zip(&second).any(|(a, b)| a[p] != b[p]))
        .count();
    let _ = writeln!(
        out,
        "{} {} {} / {}: seed {:#x}, {} lanes at SBUF {address:#x}, {} draws per lane",
        G::INFO.name,
        r.engine.name(),
        r.generator.name(),
        r.algorithm.name(),
        r.seed,
        r.channels,
        r.draws
    );
    for (name, word) in [
        ("RAND_GET_STATE", &save_word),
        ("RAND_SET_STATE", &restore_word),
    ] {
        out.str(name);
        out.str(" ");
        out.hex_bytes(word);
        out.str("\n");
    }
    for (name, rows) in [("after get-state", &first), ("after set-state", &second)] {
        out.str(name);
        out.str(" (lane 0):");
        for row in rows.iter() {
            out.str(" ");
            out.hex(u64::from(row[0]), 8);
        }
        out.str("\n");
        out.maybe_flush()?;
    }
    if differing == 0 {
        let _ = match lanes {
            1 => writeln!(out, "identical: yes (1 lane)"),
            _ => writeln!(out, "identical: yes (all {lanes} lanes)"),
        };
    } else {
        let _ = writeln!(out, "identical: no ({differing} of {lanes} lanes differ)");
    }
    out.flush()?;
    if differing > 0 {
        return Err(Failure::invalid(format!(
            "checkpoint: the restored stream differs on {differing} of {lanes} lanes"
        )));
    }
    Ok(())
}
