//! Checkpoint file tests against the golden files in `tests/golden/`.

use super::*;
use crate::bank::LANES;
use crate::engine::Gate;
use crate::fixture::{Cayman, Mariana};
use std::string::ToString;

const XORWOW: &str = include_str!("../tests/golden/mariana_pool_xorwow.json");
const PHILOX_IMM: &str = include_str!("../tests/golden/mariana_pool_philox_imm.json");
const PHILOX_KAT: &str = include_str!("../tests/kat/philox4x32.txt");

#[test]
fn golden_files_round_trip_byte_for_byte() {
    for golden in [XORWOW, PHILOX_IMM] {
        let checkpoint = Checkpoint::from_json(golden).unwrap();
        assert_eq!(checkpoint.to_json(), golden);
    }
    let xorwow = Checkpoint::from_json(XORWOW).unwrap();
    assert_eq!(xorwow.lanes.len(), 2);
    assert_eq!(xorwow.update, None);
    assert_eq!(xorwow.lanes[1], [1, 2, 3, 4, 5, 6]);
}

#[test]
fn restoring_the_golden_state_and_capturing_it_again_reproduces_the_file() {
    let checkpoint = Checkpoint::from_json(XORWOW).unwrap();
    let mut pool = EngineRng::<Mariana>::new(Engine::Pool, Gate::Validator);
    checkpoint.restore_into(&mut pool).unwrap();
    let again = Checkpoint::capture(&pool, Generator::RngXorwow, Algorithm::Xorwow, 2).unwrap();
    assert_eq!(again, checkpoint);
    assert_eq!(again.to_json(), XORWOW);
}

#[test]
fn the_imm_single_golden_broadcasts_and_draws_the_random123_row() {
    let checkpoint = Checkpoint::from_json(PHILOX_IMM).unwrap();
    let mut pool = EngineRng::<Mariana>::new(Engine::Pool, Gate::Validator);
    checkpoint.restore_into(&mut pool).unwrap();
    // The published row for the same counter and key (philox4x32 10, digits of pi).
    let row: Vec<u32> = PHILOX_KAT
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() == 12 && f[1] == "10" && f[2] == "243f6a88")
        .unwrap()
        .into_iter()
        .skip(8)
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect();
    let mut out = vec![[0u32; LANES]; 4];
    pool.draw(Generator::RngPhilox, Algorithm::Philox, 3, &mut out)
        .unwrap();
    for p in 0..3 {
        let lane: Vec<u32> = out.iter().map(|r| r[p]).collect();
        assert_eq!(lane, row, "lane {p}");
    }
}

#[test]
fn loading_for_the_wrong_generation_engine_or_arm_is_a_clear_error() {
    let checkpoint = Checkpoint::from_json(XORWOW).unwrap();
    let mut cayman = EngineRng::<Cayman>::new(Engine::Pool, Gate::Validator);
    let before = cayman.clone();
    let err = checkpoint.restore_into(&mut cayman).unwrap_err();
    assert_eq!(
        err.to_string(),
        "checkpoint is for generation MARIANA, not CAYMAN"
    );
    assert_eq!(cayman, before);

    let mut dve = EngineRng::<Mariana>::new(Engine::Dve, Gate::Validator);
    assert_eq!(
        checkpoint.restore_into(&mut dve).unwrap_err().to_string(),
        "checkpoint is for engine POOL, not DVE"
    );

    let mut pool = EngineRng::<Mariana>::new(Engine::Pool, Gate::Validator);
    let before = pool.clone();
    let philox = Checkpoint {
        generator: Generator::RngPhilox,
        algorithm: Algorithm::Philox,
        ..checkpoint.clone()
    };
    assert_eq!(
        philox.restore_into(&mut pool),
        Err(FileError::Checkpoint(CheckpointError::ElementCount {
            found: 6,
            expected: 7
        }))
    );
    let imm = Checkpoint {
        update: Some(StateUpdate::ImmSingle),
        ..checkpoint.clone()
    };
    assert_eq!(
        imm.restore_into(&mut pool),
        Err(FileError::ImmediateLanesDiffer { lane: 1 })
    );
    let lfsr = Checkpoint {
        generator: Generator::RngLfsr,
        ..checkpoint
    };
    assert!(matches!(
        lfsr.restore_into(&mut pool),
        Err(FileError::Checkpoint(CheckpointError::ArmNotLegal { .. }))
    ));
    assert_eq!(pool, before);
}

#[test]
fn malformed_files_are_named() {
    let cases: [(&str, &str, &str); 7] = [
        (
            "\"version\": 1",
            "\"version\": 2",
            "version 2: this build reads version 1",
        ),
        (
            "\"neuron-rng-checkpoint\"",
            "\"other\"",
            "format \"other\": expected \"neuron-rng-checkpoint\"",
        ),
        (
            "\"engine\": \"POOL\"",
            "\"engine\": \"pool\"",
            "engine \"pool\": unknown name",
        ),
        (
            "\"update\": null",
            "\"update\": \"IMM_ALL\"",
            "update \"IMM_ALL\": unknown name",
        ),
        (
            "\"channels\": 2",
            "\"channels\": 3",
            "channels 3 with 2 lanes: must be equal and in 1..=128",
        ),
        (
            "[1, 2, 3, 4, 5, 6]",
            "[1, 2, 3, 4, 5]",
            "lane 1 has 5 words; words_per_lane is 6",
        ),
        (
            "\"version\": 1",
            "\"version\": 1, \"extra\": 0",
            "not a checkpoint file: unknown field `extra`",
        ),
    ];
    for (from, to, message) in cases {
        let text = XORWOW.replacen(from, to, 1);
        assert_ne!(text, XORWOW, "{from}");
        let err = Checkpoint::from_json(&text).unwrap_err().to_string();
        assert!(err.starts_with(message), "{err}");
    }
    assert!(matches!(
        Checkpoint::from_json("{"),
        Err(FileError::Json(_))
    ));
}

#[test]
fn capture_of_an_arm_the_generation_lacks_is_refused() {
    let act = EngineRng::<Mariana>::new(Engine::Act, Gate::Validator);
    assert!(matches!(
        Checkpoint::capture(&act, Generator::RngXorwow, Algorithm::Xorwow, 1),
        Err(FileError::Checkpoint(CheckpointError::ArmNotLegal { .. }))
    ));
}
