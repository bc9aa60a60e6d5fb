//! The draw family's decoders (`rng_core::Generation::decode_instruction`): emitted for every
//! instruction whose operand fields follow the documented conventions, left out with a note
//! naming the instruction and the field otherwise.

use crate::common;

use common::{copy_tree, real_tree, Scratch};
use std::fs;

fn generation_rs(generated: &isa_codegen::Generated) -> &str {
    generated
        .files
        .get("src/generated/generation.rs")
        .expect("generation.rs is emitted")
}

#[test]
fn every_draw_instruction_of_the_real_trees_gets_a_decoder() {
    for (gen, opcodes) in [
        (
            "sunda",
            &[
                "crate::Rand::",
                "crate::Dropout::",
                "crate::PseudoSetRngSeed::",
            ][..],
        ),
        (
            "mariana",
            &[
                "crate::Rand::",
                "crate::Rand2::",
                "crate::Dropout::",
                "crate::PseudoSetRngSeed::",
            ][..],
        ),
    ] {
        let generated = isa_codegen::generate(&real_tree(gen), &isa_codegen::Options::STRICT)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(generated.notes.is_empty(), "{gen}: {:?}", generated.notes);
        let text = generation_rs(&generated);
        assert!(text.contains("fn decode_instruction("), "{gen}");
        for typed in opcodes {
            assert!(
                text.contains(&format!("{typed}from_bytes(word)")),
                "{gen}: {typed}"
            );
        }
        assert_eq!(text.contains("crate::Rand2::"), gen == "mariana");
    }
}

#[test]
fn an_instruction_whose_fields_do_not_match_is_left_out_with_a_note() {
    let scratch = Scratch::new("draw-family");
    let tree = copy_tree(
        &real_tree("mariana"),
        scratch.path(),
        "neuron_mariana_arch_isa",
    );
    // Rename RAND2's `min_src` everywhere (struct and spec), so the tree still generates.
    let header = tree.join("tpb/aws_neuron_isa_tpb_d3_rand.h");
    let text = fs::read_to_string(&header).unwrap();
    assert!(text.matches("min_src").count() >= 2);
    fs::write(&header, text.replace("min_src", "low_src")).unwrap();

    let generated =
        isa_codegen::generate(&tree, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    // The typed constructor's immediate convention (`<x>_src` paired with `<x>`) no longer
    // matches either: RAND2 gets no constructor, and the report says why.
    assert_eq!(
        generated.notes,
        [
            "RAND2 (0xe2) is not executable by rng-core: RAND2: no field `min_src`",
            "no typed constructor for RAND2: no `new`: the validator reads `min`, which no parameter convention covers"
        ]
    );
    let construct = &generated.files["src/generated/construct.rs"];
    // `Rand2::new` is there only as the name whose call fails with the reason.
    let rand2 = construct
        .split("impl crate::inst::Rand2 {")
        .nth(1)
        .and_then(|rest| rest.split("\n}\n").next())
        .expect("Rand2's impl block");
    assert!(rand2.contains("-> isa_core::generic::Absent"), "{rand2}");
    assert!(rand2.contains("NoRand2Uniform"), "{rand2}");
    assert!(construct.contains("impl crate::inst::Dropout {"));
    let text = generation_rs(&generated);
    assert!(!text.contains("crate::Rand2::from_bytes"));
    // The rest of the family and the checkpoint pair are still decoded.
    assert!(text.contains("crate::Dropout::from_bytes(word)"));
    assert!(text.contains("rng_core::InstructionError::NotRng"));
}
