//! Checkpoint file tests against the golden files in `tests/golden/`.

use super::*;
use crate::bank::LANES;
use crate::engine::Gate;
use crate::fixture::{Cayman, Mariana};
use isa_core::GenerationMarker as _;
use std::format;
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

/// The largest checkpoint of the fixture generation: its widest arm, every lane, every word
/// at its longest.
fn largest_legal() -> Checkpoint {
    let arm = Mariana::GET_STATE_ARMS
        .iter()
        .max_by_key(|a| a.words)
        .unwrap();
    Checkpoint {
        generation: Mariana::INFO.name.to_string(),
        engine: arm.engine,
        generator: arm.generator,
        algorithm: arm.algorithm,
        update: None,
        words_per_lane: arm.words,
        lanes: vec![vec![u32::MAX; usize::from(arm.words)]; usize::from(Mariana::MAX_CHANNELS)],
    }
}

#[test]
fn the_bound_is_twice_the_largest_record_and_admits_every_layout_of_a_legal_file() {
    let bound = max_json_bytes();
    // The widest bank shape is XORWOW's four sub-generators (the DVE arm of the fixture).
    assert_eq!(usize::from(max_lane_words()), crate::bank::MAX_WORDS);
    let largest = largest_legal();
    assert_eq!(usize::from(largest.words_per_lane), crate::bank::MAX_WORDS);
    let text = largest.to_json();
    assert!(text.len() <= bound / 2, "{} vs {bound}", text.len());
    assert_eq!(Checkpoint::from_json(&text).unwrap(), largest);
    // One number a line, indented (serde_json's pretty printer, like `jq .`), and compact.
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for layout in [
        serde_json::to_string_pretty(&value).unwrap(),
        serde_json::to_string(&value).unwrap(),
    ] {
        assert!(layout.len() <= bound, "{} vs {bound}", layout.len());
        assert_eq!(Checkpoint::from_json(&layout).unwrap(), largest);
    }
}

#[test]
fn a_text_past_the_bound_is_refused_before_parsing_naming_size_and_bound() {
    let bound = max_json_bytes();
    // A legal file padded with white space: valid JSON, but larger than any checkpoint.
    let padded = format!("{XORWOW}{}", " ".repeat(bound + 1 - XORWOW.len()));
    let err = Checkpoint::from_json(&padded).unwrap_err();
    assert_eq!(
        err,
        FileError::TooLarge {
            size: Some(bound as u64 + 1),
            bound
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{} bytes: larger than any legal checkpoint file ({bound} bytes at most)",
            bound + 1
        )
    );
    // Exactly at the bound it is read.
    assert!(Checkpoint::from_json(&padded[..bound]).is_ok());
}

#[test]
fn a_reader_is_read_at_most_one_byte_past_the_bound() {
    let bound = max_json_bytes();
    /// Counts the bytes taken from an endless stream of spaces.
    struct Endless(usize);
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b' ');
            self.0 += buf.len();
            Ok(buf.len())
        }
    }
    let mut endless = Endless(0);
    assert_eq!(
        Checkpoint::from_reader(&mut endless),
        Err(FileError::TooLarge { size: None, bound })
    );
    assert_eq!(endless.0, bound + 1);
    assert_eq!(
        Checkpoint::from_reader(XORWOW.as_bytes()),
        Checkpoint::from_json(XORWOW)
    );
    let mut bytes = XORWOW.as_bytes().to_vec();
    bytes[20] = 0xff;
    assert_eq!(
        Checkpoint::from_reader(bytes.as_slice()),
        Err(FileError::NotUtf8 { offset: 20 })
    );
}

#[test]
fn the_readme_states_the_bound_of_this_build() {
    let bound = max_json_bytes().to_string();
    let (thousands, rest) = bound.split_at(bound.len() - 3);
    let shown = format!("`file::max_json_bytes()` ({thousands},{rest} bytes in this build)");
    assert!(
        include_str!("../README.md").contains(&shown),
        "README: update the bound to {shown}"
    );
}
