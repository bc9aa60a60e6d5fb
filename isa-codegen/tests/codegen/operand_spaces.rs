//! The memories each tensor operand may use (`model/address.rs`, `Model::operand_spaces`), read
//! off the validators' own `AllowedInSBUF` / `AllowedInPSUM` arguments: the real trees against
//! the arguments their headers pass, and an edit of one argument moving the fact.

use crate::common;

use common::{copy_tree, edit, real_tree, Scratch};
use isa_codegen::model::Model;

fn model(tree: &std::path::Path) -> Model {
    isa_codegen::generate(tree, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .model
}

/// Every fact of `m` as `OPCODE.field: spaces`, in the model's order.
fn facts(m: &Model) -> Vec<String> {
    m.operand_spaces
        .iter()
        .map(|s| {
            let op = &m.opcodes[s.opcode];
            let record = m.shapes[op.shape.unwrap()].record;
            let field = &m.records[record].fields[s.field].name;
            format!("{}.{field}: {}", op.short, s.spaces)
        })
        .collect()
}

fn fact(m: &Model, opcode: &str, field: &str) -> String {
    let wanted = format!("{opcode}.{field}: ");
    facts(m)
        .into_iter()
        .find(|f| f.starts_with(&wanted))
        .unwrap_or_else(|| panic!("no fact for {opcode}.{field} in {:?}", facts(m)))
}

#[test]
fn the_checkpoint_pair_and_the_seed_operands_as_the_headers_pass_them() {
    for gen in ["sunda", "cayman", "mariana", "maverick"] {
        let m = model(&real_tree(gen));
        // s1_rand.h passes `AllowedInPSUM::False, AllowedInSBUF::True` for the source;
        // d4_rand.h lets the destination be either (its POOL conjunct is not an argument).
        assert_eq!(
            fact(&m, "RAND_SET_STATE", "src_mem_pattern"),
            "RAND_SET_STATE.src_mem_pattern: SBUF only",
            "{gen}"
        );
        assert_eq!(
            fact(&m, "RAND_GET_STATE", "dst_mem_pattern"),
            "RAND_GET_STATE.dst_mem_pattern: SBUF or PSUM",
            "{gen}"
        );
        assert_eq!(
            fact(&m, "DROPOUT", "dst_mem_pattern"),
            "DROPOUT.dst_mem_pattern: SBUF or PSUM",
            "{gen}"
        );
    }
    for gen in ["mariana", "maverick"] {
        let m = model(&real_tree(gen));
        // s2s1d2_pe_seed.h: LOAD_SEED reads SBUF only, SAVE_SEED writes PSUM only.
        assert_eq!(
            fact(&m, "PE_MANAGE_SEED", "src_seed_mem_pattern"),
            "PE_MANAGE_SEED.src_seed_mem_pattern: SBUF only"
        );
        assert_eq!(
            fact(&m, "PE_MANAGE_SEED", "dst_seed_mem_pattern"),
            "PE_MANAGE_SEED.dst_seed_mem_pattern: PSUM only"
        );
    }
}

#[test]
fn an_argument_of_the_validator_moves_the_fact() {
    let scratch = Scratch::new("operand-spaces");
    let tree = copy_tree(&real_tree("mariana"), &scratch.0, "neuron_mariana_arch_isa");
    edit(
        &tree.join("tpb/aws_neuron_isa_tpb_s1_rand.h"),
        "AllowedInPSUM::False, AllowedInSBUF::True",
        "AllowedInPSUM::True, AllowedInSBUF::True",
    );
    let m = model(&tree);
    assert_eq!(
        fact(&m, "RAND_SET_STATE", "src_mem_pattern"),
        "RAND_SET_STATE.src_mem_pattern: SBUF or PSUM"
    );
}
