//! The runtime file's model overrides: read once into rng-core's values (the vocabulary's), so
//! that every value it accepts is written into the `Generation` impl and every other one is an
//! error at its key's line.

use crate::common;

use common::{copy_tree, edit, line_of, real_tree, Scratch};

const RUNTIME: &str = "rng-runtime.json";

/// A copy of the CAYMAN tree whose runtime file has `overrides` (JSON members) in its `model`.
fn cayman_with(tag: &str, overrides: &str) -> (Scratch, std::path::PathBuf) {
    let scratch = Scratch::new(&format!("runtime-{tag}"));
    let tree = copy_tree(
        &real_tree("cayman"),
        scratch.path(),
        "neuron_cayman_arch_isa",
    );
    edit(
        &tree.join(RUNTIME),
        "\"model\": {",
        &format!("\"model\": {{\n{overrides}"),
    );
    (scratch, tree)
}

fn choice(key: &str, value: &str) -> String {
    format!("        \"{key}\": {{ \"value\": {value}, \"source\": \"test\" }},\n")
}

#[test]
fn every_override_is_written_as_the_rng_core_value_it_names() {
    let overrides = [
        choice("zero_guard", "\"force_word_to_one:0\""),
        choice("dve_xorwow_layout", "\"word_major\""),
        choice("lane_interleave", "\"blocked\""),
        choice("philox_offset", "\"words_from_start\""),
        choice("lfsr_taps", "[32, 31, 29, 1]"),
        choice("pcg32_low_word", "1"),
        choice("pcg32_increment", "7"),
    ]
    .concat();
    let (_scratch, tree) = cayman_with("every", &overrides);
    let generated = isa_codegen::generate(&tree, &Default::default()).unwrap();
    let text = &generated.files["src/generated/generation.rs"];
    for field in [
        "zero_guard: rng_core::model::ZeroGuard::ForceWordToOne(0u8),",
        "dve_xorwow_layout: rng_core::model::SubGeneratorLayout::WordMajor,",
        "lane_interleave: rng_core::model::LaneInterleave::Blocked,",
        "philox_offset: rng_core::model::PhiloxOffset::WordsFromStart,",
        "lfsr_taps: [32, 31, 29, 1],",
        "pcg32_low_word: 1u8,",
        "pcg32_increment: 7,",
        "..rng_core::ModelChoices::RECONSTRUCTED",
    ] {
        assert!(text.contains(field), "`{field}` missing from:\n{text}");
    }
}

#[test]
fn a_zero_guard_past_word_four_is_an_error_at_its_line() {
    let (_scratch, tree) = cayman_with("guard", &choice("zero_guard", "\"force_word_to_one:5\""));
    let line = line_of(&tree.join(RUNTIME), "force_word_to_one:5");
    let Err(err) = isa_codegen::generate(&tree, &Default::default()) else {
        panic!("the override was accepted");
    };
    assert!(
        err.diagnostics.iter().any(|d| d.loc.file == RUNTIME
            && d.loc.line == line
            && d.message.contains("`zero_guard` is `force_word_to_one:5`")
            && d.message
                .contains("one of disabled, force_word_to_one:<0..4>")),
        "{err}"
    );
}

/// A copy of the CAYMAN tree whose runtime file has `old` replaced by `new`.
fn cayman_edited(tag: &str, old: &str, new: &str) -> (Scratch, std::path::PathBuf) {
    let scratch = Scratch::new(&format!("runtime-{tag}"));
    let tree = copy_tree(
        &real_tree("cayman"),
        scratch.path(),
        "neuron_cayman_arch_isa",
    );
    edit(&tree.join(RUNTIME), old, new);
    (scratch, tree)
}

/// A legal arm that neither list records answers `Unknown` in the generated crate and is a
/// warning at the `not_wired` key (an error under `--strict`).
#[test]
fn a_legal_arm_without_a_firmware_record_is_a_warning() {
    let (_scratch, tree) = cayman_edited(
        "unrecorded",
        r#",
        {
            "instruction": "RAND_GET_STATE",
            "engine": "POOL",
            "algorithm": "PHILOX","#,
        r#",
        {
            "instruction": "RAND_SET_STATE",
            "engine": "POOL",
            "algorithm": "PHILOX","#,
    );
    let line = line_of(&tree.join(RUNTIME), "\"not_wired\"");
    let input = isa_codegen::read::read_tree(&tree).unwrap();
    let model = isa_codegen::model::build(&input).unwrap();
    common::warning(
        &model,
        RUNTIME,
        line,
        &[
            "RAND_GET_STATE on POOL with PHILOX",
            "its firmware answer is unknown",
        ],
    );
    let rt = model.runtime.as_ref().unwrap();
    let op = model.opcode_named("RAND_GET_STATE").unwrap();
    let member = |e: isa_codegen::model::EnumId, short: &str| {
        model.enums[e]
            .members
            .iter()
            .position(|m| m.short == short)
            .unwrap()
    };
    let (pool, philox) = (
        member(model.engine_enum.unwrap(), "POOL"),
        member(
            model.enum_named("NEURON_ISA_TPB_RAND_ALGORITHM").unwrap(),
            "PHILOX",
        ),
    );
    assert_eq!(rt.firmware(op, pool, philox), isa_core::Firmware::Unknown);
    let err = isa_codegen::generate(&tree, &isa_codegen::Options::STRICT).unwrap_err();
    common::strict_reports(&err, RUNTIME, line, &["RAND_GET_STATE on POOL with PHILOX"]);
}

/// An arm recorded both as wired and as not wired is an error at the `not_wired` entry.
#[test]
fn an_arm_both_wired_and_not_wired_is_an_error() {
    let (_scratch, tree) = cayman_edited(
        "both",
        r#""algorithm": "PHILOX",
            "evidence": "observed",
            "source": "rng-facts 4.10: CAYMAN's POOL image ships the software XORWOW body only (XSW)"
        }
    ],"#,
        r#""algorithm": "PHILOX",
            "evidence": "observed",
            "source": "rng-facts 4.10: CAYMAN's POOL image ships the software XORWOW body only (XSW)"
        },
        {
            "instruction": "RAND_GET_STATE",
            "engine": "POOL",
            "algorithm": "XORWOW",
            "evidence": "assumed",
            "source": "test"
        }
    ],"#,
    );
    let text = std::fs::read_to_string(tree.join(RUNTIME)).unwrap();
    let at = text.rfind("\"instruction\": \"RAND_GET_STATE\"").unwrap();
    let line = text[..at].matches('\n').count() as u32 + 1;
    let Err(err) = isa_codegen::generate(&tree, &Default::default()) else {
        panic!("the double entry was accepted");
    };
    assert!(
        err.diagnostics.iter().any(|d| d.loc.file == RUNTIME
            && d.loc.line == line
            && d.message.contains(
                "RAND_GET_STATE on POOL with XORWOW is listed both as wired and as not wired"
            )),
        "{err}"
    );
}
