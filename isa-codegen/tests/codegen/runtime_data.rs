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
