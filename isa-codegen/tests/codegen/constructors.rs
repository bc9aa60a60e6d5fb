//! The typed constructors the model derives from the validators (`model/construct.rs`), for the
//! real trees against facts read off their headers, and how an edit of a header's validator
//! moves a field between fixed, choice and parameter (nothing about the constructors is written
//! down anywhere but in the validators and the documented conventions).

use crate::common;

use common::{copy_tree, edit, real_tree, Scratch};
use isa_codegen::model::construct::{Construction, Ctor, ParamKind};
use isa_codegen::model::Model;

fn model(tree: &std::path::Path) -> Model {
    isa_codegen::generate(tree, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .model
}

fn real(gen: &str) -> Model {
    model(&real_tree(gen))
}

fn construction<'a>(m: &'a Model, short: &str) -> Option<&'a Construction> {
    let op = m.opcode_named(short)?;
    m.constructions.of(op)
}

/// `name(param: kind, ...)`, kinds spelled `tensor3`, `lanes`, `dtype`, `imm`, `enum`, `fp32`.
fn signature(c: &Ctor) -> String {
    let params: Vec<String> = c
        .params
        .iter()
        .map(|p| {
            let kind = match &p.kind {
                ParamKind::Tensor { rank, .. } => format!("tensor{rank}"),
                ParamKind::Lanes { .. } => "lanes".into(),
                ParamKind::Dtype { .. } => "dtype".into(),
                ParamKind::Immediate { .. } => "imm".into(),
                ParamKind::Enum { .. } => "enum".into(),
                ParamKind::Fp32 { .. } => "fp32".into(),
            };
            format!("{}: {kind}", p.name)
        })
        .collect();
    format!("{}({})", c.name, params.join(", "))
}

fn signatures(m: &Model, short: &str) -> Vec<String> {
    construction(m, short)
        .map(|c| c.ctors.iter().map(signature).collect())
        .unwrap_or_default()
}

/// The non-zero fields a constructor writes, as `name=value`.
fn pins(m: &Model, short: &str, ctor: &str) -> Vec<String> {
    let op = m.opcode_named(short).unwrap();
    let record = m.shapes[m.opcodes[op].shape.unwrap()].record;
    let c = construction(m, short).unwrap();
    let k = c.ctors.iter().find(|k| k.name == ctor).unwrap();
    k.pins
        .iter()
        .filter(|(_, v)| *v != 0)
        .map(|(p, v)| format!("{}={v}", p.name(m, record)))
        .collect()
}

#[test]
fn mariana_constructors_follow_its_validators() {
    let m = real("mariana");
    // d3_rand.h: XORWOW and UNIFORM_IN_RANGE are pinned, min/max are immediates.
    assert_eq!(
        signatures(&m, "RAND2"),
        ["new(dst: tensor3, num_active_channels: lanes, dtype: dtype, min: imm, max: imm)"]
    );
    assert_eq!(
        pins(&m, "RAND2", "new"),
        [
            "header.inst_word_len=16",
            "rand_algorithm=3",
            "post_process=1"
        ]
    );
    // d4_rand.h: PHILOX pinned, then rand_num_steps == 1 follows; post_process is a choice of
    // RAW_U32 and UNIFORM_IN_RANGE (NORMAL rejected), and only the latter takes the params bounds.
    assert_eq!(
        signatures(&m, "RAND"),
        [
            "raw_u32(dst: tensor4, num_active_channels: lanes, dtype: dtype)",
            "uniform_in_range(dst: tensor4, num_active_channels: lanes, dtype: dtype, min: fp32, max: fp32)"
        ]
    );
    let rand = construction(&m, "RAND").unwrap();
    let choice = &rand.choices[0];
    let members = |ms: &[usize]| -> Vec<String> {
        ms.iter()
            .map(|k| m.enums[choice.enum_id].members[*k].short.clone())
            .collect()
    };
    assert_eq!(members(&choice.legal), ["RAW_U32", "UNIFORM_IN_RANGE"]);
    assert_eq!(members(&choice.illegal), ["NORMAL"]);
    assert_eq!(
        pins(&m, "RAND", "raw_u32"),
        [
            "header.inst_word_len=16",
            "rand_algorithm=2",
            "rand_num_steps=1"
        ]
    );
    // s2s1d2_pe_seed.h: mode is a choice; SAVE_SEED pins the whole destination tensor.
    assert_eq!(
        signatures(&m, "PE_MANAGE_SEED"),
        [
            "load_seed(src_seed: tensor2, identity_dtype: dtype)",
            "save_seed(identity_dtype: dtype)"
        ]
    );
    let save = pins(&m, "PE_MANAGE_SEED", "save_seed");
    for want in [
        "dst_seed_mem_pattern.start_addr.addr_immediate=33554432",
        "dst_seed_mem_pattern.num_elem[0]=2",
        "dst_seed_mem_pattern.num_elem[1]=8",
        "dst_seed_mem_pattern.step_elem[1]=512",
        "num_active_rows=16",
        "num_active_cols=128",
    ] {
        assert!(save.contains(&want.to_string()), "{want} in {save:?}");
    }
    // d4_mr.h: dst_element_count is computed from the tensor; s3d3_dropout.h: out_dtype copies
    // in_dtype; threshold_type is a parameter although only is_valid_enum looks at it.
    assert_eq!(
        signatures(&m, "RNG"),
        ["new(dst: tensor4, num_active_channels: lanes, dtype: dtype)"]
    );
    let record = m.shapes[m.opcodes[m.opcode_named("RNG").unwrap()].shape.unwrap()].record;
    let rng = &construction(&m, "RNG").unwrap().ctors[0];
    assert_eq!(rng.computed.len(), 1);
    assert_eq!(rng.computed[0].0.name(&m, record), "dst_element_count");
    assert_eq!(
        signatures(&m, "DROPOUT"),
        ["new(src: tensor3, dst: tensor3, num_active_channels: lanes, in_dtype: dtype, threshold_dtype: dtype, threshold: imm, threshold_type: enum)"]
    );
    assert_eq!(signatures(&m, "PSEUDO_SET_RNG_SEED"), ["new(seed: imm)"]);
    // The checkpoint pair keeps its arm constructors; unplaced D4_MR members get none.
    for short in ["RAND_SET_STATE", "RAND_GET_STATE", "MEMSET", "REG_STORE"] {
        assert!(construction(&m, short).is_none(), "{short}");
    }
    // Every constructor found valid arguments on the engines that run its opcode.
    let placement = m.placement.as_ref().unwrap();
    for c in &m.constructions.list {
        for k in &c.ctors {
            assert_eq!(k.example.engines, placement.engines[c.opcode], "{}", k.name);
        }
    }
    assert!(m.constructions.missing.is_empty());
}

#[test]
fn maverick_has_no_save_seed_and_sunda_no_rand2() {
    let m = real("maverick");
    assert_eq!(
        signatures(&m, "PE_MANAGE_SEED"),
        ["load_seed(src_seed: tensor2, identity_dtype: dtype)"]
    );
    let pe = construction(&m, "PE_MANAGE_SEED").unwrap();
    assert_eq!(pe.notes.len(), 1);
    assert!(
        pe.notes[0].starts_with("no `save_seed`: the validator pins")
            && pe.notes[0].ends_with("which share bytes: no instruction satisfies it"),
        "{:?}",
        pe.notes
    );
    // NC-v5's channel rule pins header.inst_flags to 0 (zero, so not written but pinned).
    let rng = &construction(&m, "RNG").unwrap().ctors[0];
    let record = m.shapes[m.opcodes[m.opcode_named("RNG").unwrap()].shape.unwrap()].record;
    assert!(rng
        .pins
        .iter()
        .any(|(p, v)| p.name(&m, record) == "header.inst_flags" && *v == 0));

    let s = real("sunda");
    assert!(s.opcode_named("RAND2").is_none());
    assert!(construction(&s, "PE_MANAGE_SEED").is_none());
    // SUNDA runs RNG on DVE only.
    let rng = &construction(&s, "RNG").unwrap().ctors[0];
    let dve = s.enums[s.engine_enum.unwrap()]
        .members
        .iter()
        .position(|m| m.short == "DVE")
        .unwrap();
    assert_eq!(rng.example.engines, [dve]);
}

#[test]
fn a_validator_edit_moves_a_field_between_fixed_and_parameter() {
    let scratch = Scratch::new("constructors-edit");
    let tree = copy_tree(
        &real_tree("mariana"),
        scratch.path(),
        "neuron_mariana_arch_isa",
    );
    // Without restrict_rand2_algorithm, no predicate reads RAND2's algorithm any more: it is
    // neither pinned nor a parameter, and the constructor leaves it zero (and says so).
    edit(
        &tree.join("tpb/aws_neuron_isa_tpb_d3_rand.h"),
        "//    && restrict_rand2_algorithm(i)\n",
        "",
    );
    // Admitting NORMAL in has_valid_rand_post_processing alone changes nothing: the dtype rule
    // still rejects it, and the choice is read off the whole validator.
    edit(
        &tree.join("tpb/aws_neuron_isa_tpb_d4_rand.h"),
        "//    || (i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE)\n// }",
        "//    || (i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE)\n//    || (i.d4_rand.post_process == RandPostProc::NORMAL)\n// }",
    );
    let m = model(&tree);
    assert_eq!(
        signatures(&m, "RAND"),
        [
            "raw_u32(dst: tensor4, num_active_channels: lanes, dtype: dtype)",
            "uniform_in_range(dst: tensor4, num_active_channels: lanes, dtype: dtype, min: fp32, max: fp32)"
        ]
    );
    // With NORMAL admitted by the dtype rule too, post_process is no choice any more but a
    // parameter (and the params convention, tied to the UNIFORM_IN_RANGE choice, no longer applies).
    edit(
        &tree.join("tpb/aws_neuron_isa_tpb_d4_rand.h"),
        "//    || ((i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE) && is_fp_dtype(i.d4_rand.dtype))\n",
        "//    || ((i.d4_rand.post_process == RandPostProc::UNIFORM_IN_RANGE) && is_fp_dtype(i.d4_rand.dtype))\n//    || (i.d4_rand.post_process == RandPostProc::NORMAL)\n",
    );
    let m = model(&tree);
    assert_eq!(
        signatures(&m, "RAND2"),
        ["new(dst: tensor3, num_active_channels: lanes, dtype: dtype, min: imm, max: imm)"]
    );
    assert_eq!(
        pins(&m, "RAND2", "new"),
        ["header.inst_word_len=16", "post_process=1"]
    );
    let record = m.shapes[m.opcodes[m.opcode_named("RAND2").unwrap()].shape.unwrap()].record;
    let rand2 = &construction(&m, "RAND2").unwrap().ctors[0];
    let unread: Vec<&str> = rand2
        .unread
        .iter()
        .map(|k| m.records[record].fields[*k].name.as_str())
        .collect();
    assert_eq!(unread, ["rand_algorithm"]);
    assert_eq!(
        signatures(&m, "RAND"),
        ["new(dst: tensor4, num_active_channels: lanes, dtype: dtype, post_process: enum)"]
    );
}
