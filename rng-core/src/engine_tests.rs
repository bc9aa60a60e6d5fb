//! Checkpoint properties over every arm of every (fixture) generation, and every rejection.

extern crate std;
use super::*;
use crate::bank::{LaneRow, LANES};
use crate::fixture::{for_each_generation, Cayman, Mariana, Maverick, Sunda};
use isa_core::GenerationMarker as _;
use proptest::prelude::*;
use std::string::ToString;
use std::vec;
use std::vec::Vec;

pub(crate) fn draws<G: Generation>(
    e: &mut EngineRng<G>,
    arm: &CheckpointArm,
    channels: u8,
    n: usize,
) -> Vec<LaneRow> {
    let mut out = vec![[0u32; LANES]; n];
    e.draw(
        arm.generator,
        arm.algorithm,
        usize::from(channels),
        &mut out,
    )
    .unwrap();
    out
}

fn saved<G: Generation>(e: &EngineRng<G>, get: &CheckpointArm, channels: u8) -> Vec<u32> {
    let mut words = vec![0u32; LANES * 24];
    let n = e
        .get_state(&StateAccess::for_arm::<G>(get, channels), &mut words)
        .unwrap();
    assert_eq!(n, usize::from(channels) * usize::from(get.words));
    words.truncate(n);
    words
}

/// The three checkpoint properties for every arm of `G`; returns the arms checked.
fn arm_properties<G: Generation>(seed: u64, channels: u8, warmup: usize, n: usize) -> usize {
    let mut checked = 0;
    for get in G::GET_STATE_ARMS {
        let set = G::SET_STATE_ARMS
            .iter()
            .find(|a| same_state(a, get) && a.update == Some(StateUpdate::SrcTensor))
            .expect("every GET arm has a tensor SET arm in the fixtures");
        let mut a = EngineRng::<G>::new(get.engine, Gate::Validator);
        a.seed_lanes(seed);
        draws(&mut a, get, 128, warmup);
        let words = saved(&a, get, channels);
        let after_save = draws(&mut a, get, channels, n);

        // Draws after a restore equal the draws after the save point.
        let restore = StateAccess::for_arm::<G>(set, channels);
        a.set_state(&restore, StateSource::Tensor(&words)).unwrap();
        assert_eq!(
            draws(&mut a, get, channels, n),
            after_save,
            "{get:?} replay"
        );

        // set(get(s)) == s, and migration to another bank.
        let mut b = EngineRng::<G>::new(get.engine, Gate::Validator);
        b.seed_lanes(!seed);
        b.set_state(&restore, StateSource::Tensor(&words)).unwrap();
        assert_eq!(saved(&b, get, channels), words, "{get:?} set(get(s))");
        assert_eq!(
            draws(&mut b, get, channels, n),
            after_save,
            "{get:?} migration"
        );
        checked += 2;
    }
    for set in G::SET_STATE_ARMS
        .iter()
        .filter(|a| a.update == Some(StateUpdate::ImmSingle))
    {
        let get = CheckpointArm {
            update: None,
            ..*set
        };
        let mut a = EngineRng::<G>::new(set.engine, Gate::Validator);
        a.seed_lanes(seed);
        draws(&mut a, &get, 128, warmup);
        let lane0 = saved(&a, &get, 1);
        let mut imm = [0u32; 8];
        imm[..lane0.len()].copy_from_slice(&lane0);
        let after_save = draws(&mut a, &get, 1, n);

        let mut b = EngineRng::<G>::new(set.engine, Gate::Validator);
        b.seed_lanes(!seed);
        let access = StateAccess::for_arm::<G>(set, channels);
        b.set_state(&access, StateSource::Immediate(imm)).unwrap();
        // Broadcast: every active lane holds lane 0's state and replays its stream.
        assert_eq!(
            saved(&b, &get, channels),
            lane0.repeat(usize::from(channels))
        );
        let replay = draws(&mut b, &get, channels, n);
        for p in 0..usize::from(channels) {
            let lane: Vec<u32> = replay.iter().map(|r| r[p]).collect();
            let first: Vec<u32> = after_save.iter().map(|r| r[0]).collect();
            assert_eq!(lane, first, "{set:?} lane {p}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn fixture_generations_are_consistent() {
    for_each_generation!(G => {
        assert_eq!(check_generation::<G>(), Ok(()), "{}", G::INFO.name);
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn every_arm_of_every_generation_restores_replays_and_migrates(
        seed: u64, channels in 1u8..=128, warmup in 0usize..9, n in 1usize..11,
    ) {
        for_each_generation!(G => {
            let arms = G::SET_STATE_ARMS.len() + G::GET_STATE_ARMS.len();
            prop_assert_eq!(arm_properties::<G>(seed, channels, warmup, n), arms, "{}", G::INFO.name);
        });
    }
}

#[test]
fn save_writes_each_partition_record_in_lane_order() {
    let mut e = EngineRng::<Mariana>::new(Engine::Pool, Gate::Validator);
    e.seed_lanes(42);
    let get = Mariana::GET_STATE_ARMS
        .iter()
        .find(|a| a.algorithm == Algorithm::Xorwow)
        .unwrap();
    let words = saved(&e, get, 3);
    let bank = e.bank(Generator::RngXorwow, Algorithm::Xorwow).unwrap();
    for p in 0..3 {
        assert_eq!(&words[6 * p..6 * p + 6], bank.lane(p).unwrap().as_slice());
    }
}

#[test]
fn power_on_state_is_the_generation_default() {
    let pool = EngineRng::<Cayman>::new(Engine::Pool, Gate::Validator);
    let xorwow = pool.bank(Generator::RngXorwow, Algorithm::Xorwow).unwrap();
    assert_eq!(
        xorwow.lane(0).unwrap().as_slice(),
        Cayman::MODEL.xorwow_default_seed
    );
    assert_eq!(pool.banks().count(), 2, "Philox and XORWOW on CAYMAN Pool");
    assert_eq!(
        EngineRng::<Sunda>::new(Engine::Dve, Gate::Validator)
            .banks()
            .count(),
        0
    );
    let dve = EngineRng::<Mariana>::new(Engine::Dve, Gate::Validator);
    let shapes: Vec<_> = dve.banks().map(|(g, b)| (g, b.shape())).collect();
    assert_eq!(
        shapes,
        [
            (
                Generator::RngXorwow,
                BankShape::Xorwow { sub_generators: 4 }
            ),
            (Generator::RngLfsr, BankShape::Lfsr { sub_generators: 4 }),
            (
                Generator::OutputCvtLfsr,
                BankShape::Lfsr { sub_generators: 4 }
            ),
        ]
    );
}

fn arm_of<G: Generation>(
    engine: Engine,
    algorithm: Algorithm,
    update: Option<StateUpdate>,
) -> CheckpointArm {
    *G::SET_STATE_ARMS
        .iter()
        .chain(G::GET_STATE_ARMS)
        .find(|a| a.engine == engine && a.algorithm == algorithm && a.update == update)
        .unwrap()
}

/// Runs a restore that must fail and checks that nothing changed.
fn refused_restore<G: Generation>(
    e: &mut EngineRng<G>,
    access: StateAccess,
    source: StateSource<'_>,
) -> CheckpointError {
    let before = e.clone();
    let err = e.set_state(&access, source).unwrap_err();
    assert_eq!(*e, before, "a failed set_state changed the state: {err}");
    err
}

#[test]
fn every_restore_rejection_is_typed_and_changes_nothing() {
    let mut e = EngineRng::<Mariana>::new(Engine::Pool, Gate::Validator);
    e.seed_lanes(7);
    let xorwow = arm_of::<Mariana>(
        Engine::Pool,
        Algorithm::Xorwow,
        Some(StateUpdate::SrcTensor),
    );
    let ok = StateAccess::for_arm::<Mariana>(&xorwow, 2);
    let words = [5u32; 12];

    let cases: Vec<(StateAccess, StateSource<'_>, CheckpointError)> = vec![
        (
            StateAccess { channels: 0, ..ok },
            StateSource::Tensor(&words),
            CheckpointError::Channels {
                channels: 0,
                max: 128,
            },
        ),
        (
            StateAccess {
                channels: 129,
                ..ok
            },
            StateSource::Tensor(&words),
            CheckpointError::Channels {
                channels: 129,
                max: 128,
            },
        ),
        (
            StateAccess {
                update: Some(StateUpdate::ImmLane),
                ..ok
            },
            StateSource::Tensor(&words),
            CheckpointError::ArmNotLegal {
                kind: CheckpointKind::Restore,
                engine: Engine::Pool,
                generator: Generator::RngXorwow,
                algorithm: Algorithm::Xorwow,
                update: Some(StateUpdate::ImmLane),
            },
        ),
        (
            StateAccess {
                generator: Generator::RngLfsr,
                ..ok
            },
            StateSource::Tensor(&words),
            CheckpointError::ArmNotLegal {
                kind: CheckpointKind::Restore,
                engine: Engine::Pool,
                generator: Generator::RngLfsr,
                algorithm: Algorithm::Xorwow,
                update: Some(StateUpdate::SrcTensor),
            },
        ),
        (
            StateAccess { dtype: 0x8, ..ok },
            StateSource::Tensor(&words),
            CheckpointError::Dtype {
                found: 0x8,
                expected: 0x9,
            },
        ),
        (
            StateAccess { elements: 24, ..ok },
            StateSource::Tensor(&words),
            CheckpointError::ElementCount {
                found: 24,
                expected: 6,
            },
        ),
        (
            ok,
            StateSource::Tensor(&words[..11]),
            CheckpointError::Buffer {
                found: 11,
                needed: 12,
            },
        ),
        (
            ok,
            StateSource::Immediate([1; 8]),
            CheckpointError::SourceMismatch {
                update: Some(StateUpdate::SrcTensor),
            },
        ),
        (
            StateAccess {
                kind: CheckpointKind::Save,
                update: None,
                ..ok
            },
            StateSource::Tensor(&words),
            CheckpointError::SourceMismatch { update: None },
        ),
    ];
    for (access, source, expected) in cases {
        assert_eq!(refused_restore(&mut e, access, source), expected);
    }

    let imm_arm = arm_of::<Mariana>(
        Engine::Pool,
        Algorithm::Philox,
        Some(StateUpdate::ImmSingle),
    );
    let imm = StateAccess::for_arm::<Mariana>(&imm_arm, 4);
    let mut bad = [0u32; 8];
    bad[7] = 1;
    assert_eq!(
        refused_restore(&mut e, imm, StateSource::Immediate(bad)),
        CheckpointError::ImmediateWord7 { value: 1 }
    );
    assert_eq!(
        refused_restore(&mut e, imm, StateSource::Tensor(&[0; 28])),
        CheckpointError::SourceMismatch {
            update: Some(StateUpdate::ImmSingle)
        }
    );
    // And the well-formed restore goes through.
    e.set_state(&ok, StateSource::Tensor(&words)).unwrap();
    assert_eq!(
        saved(
            &e,
            &CheckpointArm {
                update: None,
                ..xorwow
            },
            2
        ),
        words
    );
}

#[test]
fn the_firmware_gate_refuses_pool_philox_with_the_firmware_message() {
    let mut e = EngineRng::<Mariana>::new(Engine::Pool, Gate::Firmware);
    let set = arm_of::<Mariana>(
        Engine::Pool,
        Algorithm::Philox,
        Some(StateUpdate::SrcTensor),
    );
    let access = StateAccess::for_arm::<Mariana>(&set, 1);
    let err = refused_restore(&mut e, access, StateSource::Tensor(&[0; 7]));
    assert_eq!(
        err,
        CheckpointError::NotWired {
            kind: CheckpointKind::Restore,
            engine: Engine::Pool,
            algorithm: Algorithm::Philox
        }
    );
    assert_eq!(
        err.to_string(),
        "S: RandSetState : rand_algorithm(0x2) not currently supported on POOL"
    );
    let get = StateAccess::for_arm::<Mariana>(
        &CheckpointArm {
            update: None,
            ..set
        },
        1,
    );
    let mut out = [0u32; 7];
    assert_eq!(
        e.get_state(&get, &mut out).unwrap_err().to_string(),
        "S: RandGetState : rand_algorithm(0x2) not currently supported on POOL"
    );
    // The validator alone accepts it; the gate is a mode.
    e.set_gate(Gate::Validator);
    e.set_state(&access, StateSource::Tensor(&[0; 7])).unwrap();
    // Wired bodies pass in firmware mode; SUNDA ships none at all.
    e.set_gate(Gate::Firmware);
    let xorwow = arm_of::<Mariana>(
        Engine::Pool,
        Algorithm::Xorwow,
        Some(StateUpdate::SrcTensor),
    );
    e.set_state(
        &StateAccess::for_arm::<Mariana>(&xorwow, 1),
        StateSource::Tensor(&[1; 6]),
    )
    .unwrap();
    let mut sunda = EngineRng::<Sunda>::new(Engine::Pool, Gate::Firmware);
    let philox = arm_of::<Sunda>(
        Engine::Pool,
        Algorithm::Philox,
        Some(StateUpdate::SrcTensor),
    );
    assert!(matches!(
        refused_restore(
            &mut sunda,
            StateAccess::for_arm::<Sunda>(&philox, 1),
            StateSource::Tensor(&[0; 7])
        ),
        CheckpointError::NotWired { .. }
    ));
}

#[test]
fn save_rejections_are_typed() {
    let e = EngineRng::<Maverick>::new(Engine::Dve, Gate::Validator);
    let get = arm_of::<Maverick>(Engine::Dve, Algorithm::Xorwow, None);
    let access = StateAccess::for_arm::<Maverick>(&get, 2);
    let mut short = [0u32; 47];
    assert_eq!(
        e.get_state(&access, &mut short),
        Err(CheckpointError::Buffer {
            found: 47,
            needed: 48
        })
    );
    let act = EngineRng::<Maverick>::new(Engine::Act, Gate::Validator);
    let mut out = [0u32; 8];
    let lfsr = StateAccess {
        generator: Generator::OutputCvtLfsr,
        algorithm: Algorithm::Lfsr,
        elements: 2,
        ..access
    };
    assert!(matches!(
        act.get_state(&lfsr, &mut out),
        Err(CheckpointError::ArmNotLegal {
            engine: Engine::Act,
            ..
        })
    ));
    let restore = StateAccess {
        kind: CheckpointKind::Restore,
        ..access
    };
    assert_eq!(
        e.get_state(&restore, &mut out),
        Err(CheckpointError::SourceMismatch { update: None })
    );
}

#[test]
fn draws_name_a_missing_bank() {
    let mut e = EngineRng::<Mariana>::new(Engine::Act, Gate::Validator);
    let mut out = vec![[0u32; LANES]; 1];
    assert_eq!(
        e.draw(Generator::RngXorwow, Algorithm::Xorwow, 1, &mut out),
        Err(CheckpointError::NoBank {
            engine: Engine::Act,
            generator: Generator::RngXorwow,
            algorithm: Algorithm::Xorwow
        })
    );
    assert_eq!(
        e.draw(Generator::OutputCvtLfsr, Algorithm::Lfsr, 0, &mut out),
        Err(CheckpointError::Bank(crate::bank::BankError::Channels {
            channels: 0
        }))
    );
}

#[test]
fn from_instruction_counts_the_elements_over_the_rank() {
    let tensor = TensorPattern {
        start_addr: 0,
        step_elem: [1; 4],
        num_elem: [3, 2, 4, 1],
        rank: 4,
    };
    let inst = CheckpointInstruction {
        kind: CheckpointKind::Save,
        engine: Engine::Dve,
        generator: Generator::RngXorwow,
        algorithm: Algorithm::Xorwow,
        update: None,
        dtype: 9,
        channels: 5,
        location: StateLocation::Tensor(tensor),
    };
    assert_eq!(StateAccess::from_instruction(&inst).elements, 24);
    let one_d = CheckpointInstruction {
        location: StateLocation::Tensor(TensorPattern { rank: 1, ..tensor }),
        ..inst
    };
    assert_eq!(StateAccess::from_instruction(&one_d).elements, 3);
}

crate::fixture::fixture_generation!(BadWidth, "BAD", 9,
    set: &[CheckpointArm { engine: Engine::Pool, generator: Generator::RngXorwow, algorithm: Algorithm::Xorwow, update: Some(StateUpdate::SrcTensor), words: 6, evidence: None }],
    get: &[CheckpointArm { engine: Engine::Pool, generator: Generator::RngXorwow, algorithm: Algorithm::Xorwow, update: None, words: 12, evidence: None }],
    wired: &[],
    model: crate::model::ModelChoices::RECONSTRUCTED,
    memory: Mariana::MEMORY);

crate::fixture::fixture_generation!(BadShape, "BAD", 9,
    set: &[CheckpointArm { engine: Engine::Pool, generator: Generator::RngPhilox, algorithm: Algorithm::Philox, update: Some(StateUpdate::SrcTensor), words: 8, evidence: None }],
    get: &[],
    wired: &[],
    model: crate::model::ModelChoices::RECONSTRUCTED,
    memory: Mariana::MEMORY);

crate::fixture::fixture_generation!(BadModel, "BAD", 9,
    set: &[],
    get: &[],
    wired: &[],
    model: crate::model::ModelChoices { pcg32_low_word: 3, ..crate::model::ModelChoices::RECONSTRUCTED },
    memory: Mariana::MEMORY);

#[test]
fn inconsistent_generation_constants_are_named() {
    assert!(
        matches!(check_generation::<BadWidth>(), Err(GenerationError::Width { arm }) if arm.words == 12)
    );
    assert!(
        matches!(check_generation::<BadShape>(), Err(GenerationError::Shape { arm }) if arm.words == 8)
    );
    assert_eq!(
        check_generation::<BadModel>(),
        Err(GenerationError::Model(ModelError::Pcg32LowWord { word: 3 }))
    );
}
