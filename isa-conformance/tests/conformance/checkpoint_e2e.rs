//! End to end: RAND_GET_STATE / RAND_SET_STATE words encoded with the generated crates run on
//! rng-core's machine model (banks + SBUF/PSUM memory), for every arm of every generation.
//! Saving, drawing, restoring and drawing again must repeat the stream exactly, on the same
//! machine and on another one (migration); what the validator or the firmware refuses must
//! change nothing.

use rng_core::machine::{restore_instruction, save_instruction};
use rng_core::{
    CheckpointArm, CheckpointKind, Engine, Gate, Generation, LaneRow, Machine, MachineError,
    SparseMemory, StateUpdate, LANES,
};

const DRAWS: usize = 5;
const CHANNELS: u8 = 128;

fn sbuf<G: Generation>(partition: u32, offset: u32) -> u32 {
    G::MEMORY.sbuf_offset + partition * G::MEMORY.sbuf_partition_bytes + offset
}

fn draws<G: Generation>(m: &mut Machine<G, SparseMemory>, arm: &CheckpointArm) -> Vec<LaneRow> {
    let mut rows = vec![[0u32; LANES]; DRAWS];
    m.engine_mut(arm.engine)
        .draw(
            arm.generator,
            arm.algorithm,
            usize::from(CHANNELS),
            &mut rows,
        )
        .expect("the arm's bank draws");
    rows
}

/// The SRC_TENSOR restore arm matching a save arm.
fn restore_arm<G: Generation>(save: &CheckpointArm) -> Option<CheckpointArm> {
    G::SET_STATE_ARMS.iter().copied().find(|a| {
        a.engine == save.engine
            && a.generator == save.generator
            && a.algorithm == save.algorithm
            && a.update == Some(StateUpdate::SrcTensor)
    })
}

fn every_arm_round_trips<G: Generation>() -> usize {
    let mut checked = 0;
    for save in G::GET_STATE_ARMS {
        let restore = restore_arm::<G>(save)
            .unwrap_or_else(|| panic!("{}: no restore arm for {save:?}", G::INFO.name));
        assert_eq!(
            restore.words,
            save.words,
            "{}: save and restore widths differ",
            G::INFO.name
        );
        let at = sbuf::<G>(0, 0x100);
        let mut m = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
        m.engine_mut(save.engine)
            .seed_lanes(0x5eed_0000 + checked as u64);
        let save_word =
            G::encode_checkpoint(&save_instruction::<G>(save, CHANNELS, at)).expect("encodes");
        let restore_word =
            G::encode_checkpoint(&restore_instruction::<G>(&restore, CHANNELS, at, [0; 8]))
                .expect("encodes");
        assert_eq!(save_word[0], CheckpointKind::Save.code());
        assert_eq!(restore_word[0], CheckpointKind::Restore.code());

        m.execute(&save_word, save.engine)
            .unwrap_or_else(|e| panic!("{}: {save:?}: save: {e}", G::INFO.name));
        let first = draws(&mut m, save);
        // The saved tensor really sits in memory: one lane's words at its partition.
        let lane5: Vec<u32> = (0..u32::from(save.words))
            .map(|k| rng_core::PartitionMemory::load(m.memory(), sbuf::<G>(5, 0x100 + 4 * k)))
            .collect();
        assert!(
            lane5.iter().any(|w| *w != 0),
            "{}: {save:?}: nothing was written for lane 5",
            G::INFO.name
        );

        // Migration: a fresh machine restored from the same memory holds the same state
        // (set(get(s)) == s: saving it again writes the same words) and draws the same stream.
        let mut other = Machine::<G, SparseMemory>::new(m.memory().clone(), Gate::Validator);
        other
            .execute(&restore_word, restore.engine)
            .expect("restores on another machine");
        let resave =
            G::encode_checkpoint(&save_instruction::<G>(save, CHANNELS, sbuf::<G>(0, 0x800)))
                .expect("encodes");
        other.execute(&resave, save.engine).expect("saves again");
        for lane in 0..u32::from(CHANNELS) {
            for k in 0..u32::from(save.words) {
                let saved =
                    rng_core::PartitionMemory::load(m.memory(), sbuf::<G>(lane, 0x100 + 4 * k));
                let resaved =
                    rng_core::PartitionMemory::load(other.memory(), sbuf::<G>(lane, 0x800 + 4 * k));
                assert_eq!(
                    saved,
                    resaved,
                    "{}: {save:?}: set(get(s)) != s at lane {lane} word {k}",
                    G::INFO.name
                );
            }
        }
        assert_eq!(
            draws(&mut other, save),
            first,
            "{}: {save:?}: migrated stream differs",
            G::INFO.name
        );
        m.execute(&restore_word, restore.engine)
            .unwrap_or_else(|e| panic!("{}: {restore:?}: restore: {e}", G::INFO.name));
        assert_eq!(
            draws(&mut m, save),
            first,
            "{}: {save:?}: restored stream differs",
            G::INFO.name
        );
        checked += 1;
    }
    checked
}

/// A word the validator rejects changes nothing.
fn rejected_word_changes_nothing<G: Generation>() {
    let arm = G::GET_STATE_ARMS[0];
    let restore = restore_arm::<G>(&arm).expect("restore arm");
    let mut wrong = restore_instruction::<G>(&restore, CHANNELS, sbuf::<G>(0, 0), [0; 8]);
    if let rng_core::StateLocation::Tensor(ref mut t) = wrong.location {
        t.num_elem[0] += 1; // one word too many for the arm
    }
    let word = G::encode_checkpoint(&wrong).expect("encoding does not validate");
    let mut m = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
    m.engine_mut(arm.engine).seed_lanes(7);
    let mut reference = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
    reference.engine_mut(arm.engine).seed_lanes(7);
    match m.execute(&word, arm.engine) {
        Err(MachineError::Instruction(rng_core::InstructionError::Invalid(v))) => {
            assert_eq!(
                v.predicate(),
                "rand_set_state_legal_combinations",
                "{}: {v}",
                G::INFO.name
            );
        }
        other => panic!(
            "{}: expected a validator rejection, got {other:?}",
            G::INFO.name
        ),
    }
    assert_eq!(
        draws(&mut m, &arm),
        draws(&mut reference, &arm),
        "{}: a rejected restore changed the state",
        G::INFO.name
    );
}

/// With the firmware gate, only wired bodies run; the others are refused before anything moves.
fn firmware_gate<G: Generation>() -> (usize, usize) {
    let (mut ran, mut refused) = (0, 0);
    for save in G::GET_STATE_ARMS {
        let wired = G::FIRMWARE_WIRED.iter().any(|w| {
            w.kind == CheckpointKind::Save
                && w.engine == save.engine
                && w.algorithm == save.algorithm
        });
        let mut m = Machine::<G, SparseMemory>::new(SparseMemory::new(), Gate::Firmware);
        let word = G::encode_checkpoint(&save_instruction::<G>(save, CHANNELS, sbuf::<G>(0, 0)))
            .expect("encodes");
        match m.execute(&word, save.engine) {
            Ok(_) => {
                assert!(wired, "{}: {save:?} ran but is not wired", G::INFO.name);
                ran += 1;
            }
            Err(MachineError::Checkpoint(e)) => {
                assert!(
                    !wired,
                    "{}: {save:?} is wired but was refused: {e}",
                    G::INFO.name
                );
                assert!(
                    m.memory().is_empty(),
                    "{}: a refused save wrote memory",
                    G::INFO.name
                );
                refused += 1;
            }
            Err(e) => panic!("{}: {save:?}: unexpected {e}", G::INFO.name),
        }
    }
    (ran, refused)
}

/// The largest legal checkpoint file of `G` (its widest save arm, every lane, every word at its
/// longest), in rng-core's layout and pretty-printed one number a line, is inside the bound
/// `Checkpoint::from_json` applies before parsing, and reads back.
fn largest_checkpoint_is_inside_the_bound<G: Generation>() {
    let arm = G::GET_STATE_ARMS
        .iter()
        .max_by_key(|a| a.words)
        .expect("every generation saves some state");
    let engine = rng_core::EngineRng::<G>::new(arm.engine, Gate::Validator);
    let mut largest =
        rng_core::Checkpoint::capture(&engine, arm.generator, arm.algorithm, G::MAX_CHANNELS)
            .expect("the widest arm saves");
    for lane in &mut largest.lanes {
        lane.fill(u32::MAX);
    }
    let bound = rng_core::file::max_json_bytes();
    let text = largest.to_json();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for layout in [text, serde_json::to_string_pretty(&value).unwrap()] {
        assert!(layout.len() <= bound, "{} of {bound} bytes", layout.len());
        assert_eq!(rng_core::Checkpoint::from_json(&layout).unwrap(), largest);
    }
}

macro_rules! generation {
    ($name:ident, $krate:ident, $marker:ident, $arms:expr, $fw:expr) => {
        mod $name {
            use super::*;

            #[test]
            fn the_largest_checkpoint_file_is_inside_the_parse_bound() {
                largest_checkpoint_is_inside_the_bound::<$krate::$marker>();
            }

            #[test]
            fn every_checkpoint_arm_saves_restores_and_migrates() {
                assert_eq!(every_arm_round_trips::<$krate::$marker>(), $arms);
            }

            #[test]
            fn a_rejected_restore_changes_nothing() {
                rejected_word_changes_nothing::<$krate::$marker>();
            }

            #[test]
            fn the_firmware_gate_runs_only_wired_bodies() {
                assert_eq!(firmware_gate::<$krate::$marker>(), $fw);
            }
        }
    };
}

// Arm counts (RAND_GET_STATE) per rng-facts §3.4; wired/refused split per each tree's rng-runtime.json.
generation!(sunda, isa_sunda, Sunda, 1, (0, 1));
generation!(cayman, isa_cayman, Cayman, 2, (1, 1));
generation!(mariana, isa_mariana, Mariana, 7, (4, 3));
generation!(maverick, isa_maverick, Maverick, 6, (3, 3));

/// The typed constructors (compile-time-legal arms) produce words the machine runs.
#[test]
fn typed_constructor_words_repeat_the_stream() {
    use isa_mariana::arm::{Dve, Pool, RngXorwow, Xorwow};
    use isa_mariana::{Mariana, RandGetState, RandSetState, StateTensor};
    for (engine, save, restore) in [
        (
            Engine::Pool,
            RandGetState::save::<Pool, RngXorwow, Xorwow, 6>(
                StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                CHANNELS,
            )
            .to_bytes(),
            RandSetState::restore::<Pool, RngXorwow, Xorwow, 6>(
                StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                CHANNELS,
            )
            .to_bytes(),
        ),
        (
            Engine::Dve,
            RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(
                StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                CHANNELS,
            )
            .to_bytes(),
            RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(
                StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                CHANNELS,
            )
            .to_bytes(),
        ),
    ] {
        let arm = Mariana::GET_STATE_ARMS
            .iter()
            .copied()
            .find(|a| a.engine == engine && a.algorithm == rng_core::Algorithm::Xorwow)
            .expect("arm");
        let mut m = Machine::<Mariana, SparseMemory>::new(SparseMemory::new(), Gate::Firmware);
        m.engine_mut(engine).seed_lanes(99);
        m.execute(&save, engine).expect("save runs");
        let first = draws(&mut m, &arm);
        m.execute(&restore, engine).expect("restore runs");
        assert_eq!(draws(&mut m, &arm), first);
    }
}

/// A word tagged with its engine runs on that engine (`Machine::run_on`): the engine is named
/// once, in the constructor's arm.
#[test]
fn engine_tagged_words_run_on_their_engine() {
    use isa_mariana::arm::{Dve, RngXorwow, Xorwow};
    use isa_mariana::{Mariana, NeuronEngine, RandGetState, RandSetState, StateTensor};
    let at = StateTensor::sbuf(0, 0x40).expect("an SBUF address");
    let save = RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(at, CHANNELS);
    let restore = RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(at, CHANNELS);
    assert_eq!(save.engine(), Engine::Dve);
    assert_eq!(NeuronEngine::from(restore.engine()), NeuronEngine::Dve);
    assert_eq!(Engine::try_from(NeuronEngine::Dve), Ok(Engine::Dve));
    assert!(Engine::try_from(NeuronEngine::Pe).is_err());
    let arm = Mariana::GET_STATE_ARMS
        .iter()
        .copied()
        .find(|a| a.engine == Engine::Dve && a.algorithm == rng_core::Algorithm::Xorwow)
        .expect("arm");
    let mut m = Machine::<Mariana, SparseMemory>::new(SparseMemory::new(), Gate::Firmware);
    m.engine_mut(Engine::Dve).seed_lanes(7);
    let before = m.engine(Engine::Pool).clone();
    m.run_on(&save).expect("save runs on DVE");
    let first = draws(&mut m, &arm);
    m.run_on(&restore).expect("restore runs on DVE");
    assert_eq!(draws(&mut m, &arm), first);
    assert_eq!(*m.engine(Engine::Pool), before, "POOL's state is untouched");
}

/// IMM_SINGLE Philox: one inline state broadcast to every lane, then saved back out.
#[test]
fn immediate_philox_state_reaches_every_lane() {
    use isa_cayman::arm::{Philox, Pool, RngPhilox};
    use isa_cayman::{Cayman, RandGetState, RandSetState, StateTensor};
    let words = [1u32, 2, 3, 4, 5, 6, 0];
    let seed =
        RandSetState::seed_immediate::<Pool, RngPhilox, Philox, 7>(words, CHANNELS).to_bytes();
    let save = RandGetState::save::<Pool, RngPhilox, Philox, 7>(
        StateTensor::sbuf(0, 0).expect("an SBUF address"),
        CHANNELS,
    )
    .to_bytes();
    let mut m = Machine::<Cayman, SparseMemory>::new(SparseMemory::new(), Gate::Validator);
    m.execute(&seed, Engine::Pool)
        .expect("IMM_SINGLE restore runs");
    m.execute(&save, Engine::Pool).expect("save runs");
    for lane in [0u32, 63, 127] {
        let got: Vec<u32> = (0..7)
            .map(|k| rng_core::PartitionMemory::load(m.memory(), sbuf::<Cayman>(lane, 4 * k)))
            .collect();
        assert_eq!(got, words, "lane {lane}");
    }
    // With the firmware gate, POOL refuses Philox, as the firmware's SEQ front-end does.
    let mut gated = Machine::<Cayman, SparseMemory>::new(SparseMemory::new(), Gate::Firmware);
    let err = gated.execute(&seed, Engine::Pool).unwrap_err();
    assert!(
        err.to_string().contains("not currently supported on POOL"),
        "{err}"
    );
}
