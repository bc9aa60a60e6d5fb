//! The semver verdict of header drops: each test makes one change to a copy of MARIANA's tree
//! and compares the API listing of its model with that of the unchanged tree, as the report does
//! (`report::semver`), then checks the bump and the item it names. One test runs the whole
//! report through `workspace::plan` on a drop into a scratch workspace.

use crate::common::{copy_tree, edit, real_tree, Scratch};
use isa_codegen::report::api::Listing;
use isa_codegen::report::semver::{api_diff, ApiChange, Bump, Verdict};
use std::path::Path;
use std::sync::OnceLock;

const TREE: &str = "neuron_mariana_arch_isa";
const S1_RAND: &str = "tpb/aws_neuron_isa_tpb_s1_rand.h";
const COMMON: &str = "tpb/aws_neuron_isa_tpb_common.h";

/// The Act arm of RAND_SET_STATE as MARIANA's legality function writes it.
const ACT_ARM: &str = "//    || (   (e == NeuronEngine::Act)
//        && (i.s1_rand.rand_generator == RandSrc::OUTPUT_CVT_LFSR)
//        && (i.s1_rand.rand_algorithm == RandAlgorithm::LFSR)
//        && (i.s1_rand.update_state == RandStateUpdate::SRC_TENSOR)
//        && (i.s1_rand.in_dtype == Dtype::UINT32)
//        && rand_set_state_elem_cnt(i, 2))
";

fn listing_of(tree: &Path) -> Listing {
    let input = isa_codegen::read::read_tree(tree).expect("the tree reads");
    let model = isa_codegen::model::build(&input).expect("the tree models");
    Listing::of(&model)
}

/// The listing of `tree`'s model, computed on the generator's stack (its spec walks recurse),
/// as `generate` does.
fn listing_on_generator_stack(tree: std::path::PathBuf) -> Listing {
    std::thread::Builder::new()
        .stack_size(isa_codegen::STACK_BYTES)
        .spawn(move || listing_of(&tree))
        .unwrap()
        .join()
        .unwrap()
}

/// The listing of the unchanged tree, computed once.
fn original() -> &'static Listing {
    static ORIGINAL: OnceLock<Listing> = OnceLock::new();
    ORIGINAL.get_or_init(|| listing_on_generator_stack(real_tree("mariana")))
}

/// The changes and verdict of a drop: `change` edits a copy of the tree.
fn drop_with(tag: &str, change: impl FnOnce(&Path)) -> (Vec<ApiChange>, Verdict) {
    let scratch = Scratch::new(&format!("semver-{tag}"));
    let tree = copy_tree(&real_tree("mariana"), scratch.path(), TREE);
    change(&tree);
    let new = listing_on_generator_stack(tree);
    let changes = api_diff(original(), &new);
    let verdict = Verdict::of(original(), &changes);
    (changes, verdict)
}

fn text(changes: &[ApiChange]) -> Vec<String> {
    changes.iter().map(ApiChange::to_string).collect()
}

/// The verdict's bump and the line of the item it names.
fn named(v: &Verdict) -> (Bump, String) {
    let item = v.reason.as_ref().map(|(c, _)| c.to_string());
    (v.bump, item.unwrap_or_default())
}

#[test]
fn a_drop_removing_an_arm_is_major_and_names_the_arm() {
    let (changes, v) = drop_with("arm-removed", |t| edit(&t.join(S1_RAND), ACT_ARM, ""));
    let arm = "- LegalRandSetState<(arm::Act,arm::OutputCvtLfsr,arm::Lfsr,arm::SrcTensor)> impl N = 2 [feature s1_rand]";
    assert_eq!(text(&changes), [arm]);
    assert_eq!(named(&v), (Bump::Major, arm.to_string()));
    assert!(v.to_string().contains("item-remove"), "{v}");
}

#[test]
fn a_drop_adding_an_arm_is_minor() {
    let xorwow_on_act = ACT_ARM
        .replace("OUTPUT_CVT_LFSR", "RNG_XORWOW")
        .replace("RandAlgorithm::LFSR", "RandAlgorithm::XORWOW")
        .replace("elem_cnt(i, 2)", "elem_cnt(i, 6)");
    let (changes, v) = drop_with("arm-added", |t| {
        edit(
            &t.join(S1_RAND),
            ACT_ARM,
            &format!("{ACT_ARM}{xorwow_on_act}"),
        )
    });
    let arm = "+ LegalRandSetState<(arm::Act,arm::RngXorwow,arm::Xorwow,arm::SrcTensor)> impl N = 6 [feature s1_rand]";
    assert_eq!(text(&changes), [arm]);
    assert_eq!(named(&v), (Bump::Minor, arm.to_string()));
}

#[test]
fn a_drop_removing_an_opcode_is_major_and_names_it() {
    let (changes, v) = drop_with("opcode-removed", |t| {
        edit(
            &t.join(COMMON),
            "    NEURON_ISA_TPB_OPCODE_WEIGHT_MASK                       = 0x04, // n, tonga stuff, deprecated\n",
            "",
        )
    });
    let variant = "- Opcode::WeightMask variant = 0x04";
    assert_eq!(text(&changes), [variant]);
    assert_eq!(named(&v), (Bump::Major, variant.to_string()));
}

/// The generated enums are exhaustive (README, "Versioning"): a new opcode is a new variant of
/// `Opcode`, which Cargo's guide makes a major change.
#[test]
fn a_drop_adding_an_opcode_is_major_for_the_exhaustive_opcode_enum() {
    let (changes, v) = drop_with("opcode-added", |t| {
        edit(
            &t.join(COMMON),
            "    NEURON_ISA_TPB_OPCODE_RAND                              = 0x76,",
            "    NEURON_ISA_TPB_OPCODE_RAND_SKIP                         = 0x75, // n\n    NEURON_ISA_TPB_OPCODE_RAND                              = 0x76,",
        )
    });
    let variant = "+ Opcode::RandSkip variant = 0x75";
    assert_eq!(text(&changes), [variant]);
    assert_eq!(named(&v), (Bump::Major, variant.to_string()));
    assert!(v.to_string().contains("enum-variant-new"), "{v}");
}

#[test]
fn a_comment_only_drop_is_a_patch() {
    let (changes, v) = drop_with("comment", |t| {
        edit(
            &t.join(S1_RAND),
            "// The validator takes the executing engine as a parameter.",
            "// The validator takes the executing engine as its second parameter.",
        )
    });
    assert!(changes.is_empty(), "{:?}", text(&changes));
    assert_eq!(named(&v), (Bump::Patch, String::new()));
}

#[test]
fn a_drop_retyping_a_field_is_major_and_names_it() {
    let (changes, v) = drop_with("retyped", |t| {
        edit(
            &t.join(S1_RAND),
            "    uint8_t                          reserved[7];",
            "    int8_t                           reserved[7];",
        )
    });
    let field =
        "~ S1Rand.reserved field: [i8; 7] [feature s1_rand] (was: [u8; 7] [feature s1_rand])";
    assert!(
        text(&changes).contains(&field.to_string()),
        "{:?}",
        text(&changes)
    );
    assert_eq!(named(&v), (Bump::Major, field.to_string()));
}

#[test]
fn a_drop_removing_an_operand_shape_removes_its_feature_and_is_major() {
    let (changes, v) = drop_with("shape-removed", |t| {
        edit(
            &t.join("tpb/instruction_mapping.json"),
            r#",
        "NEURON_ISA_TPB_S3D3_DROPOUT_STRUCT": [
            "NEURON_ISA_TPB_OPCODE_DROPOUT"
        ]"#,
            "",
        )
    });
    let lines = text(&changes);
    for gone in [
        "- s3d3_dropout feature",
        "- Dropout struct (pub S3d3Dropout) opcode 0x7f [feature s3d3_dropout]",
        "- Instruction::Dropout variant (Dropout) [feature s3d3_dropout]",
    ] {
        assert!(lines.contains(&gone.to_string()), "{gone} not in {lines:?}");
    }
    assert!(
        lines.contains(&"~ full feature = [d3_rand, d4_mr, d4_rand, pseudo_set_rng_seed, s1_rand, s2s1d2_pe_seed] (was = [d3_rand, d4_mr, d4_rand, pseudo_set_rng_seed, s1_rand, s2s1d2_pe_seed, s3d3_dropout])".to_string()),
        "{lines:?}"
    );
    // The one addition: the trait saying MARIANA now lacks the generic DROPOUT constructor.
    assert!(
        lines.contains(&"+ NoDropoutMask trait".to_string()),
        "{lines:?}"
    );
    assert!(changes.iter().all(|c| match c {
        ApiChange::Added(item) => item.path == "NoDropoutMask",
        ApiChange::Removed(_) | ApiChange::Changed { .. } => true,
    }));
    assert_eq!(v.bump, Bump::Major);
}

/// The report of a drop, as `cargo run -p isa-codegen` prints it: the API changes, the verdict
/// naming the removed arm, and the version the workspace moves to.
#[test]
fn the_report_of_a_drop_gives_the_verdict_and_the_version() {
    let scratch = Scratch::new("semver-report");
    let root = scratch.path();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nmembers = []\n[workspace.package]\nversion = \"0.1.3\"\n",
    )
    .unwrap();
    let krate = root.join("isa-mariana");
    std::fs::create_dir_all(krate.join("src/generated")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"isa-mariana\"\n",
    )
    .unwrap();
    let committed = crate::common::workspace_root().join("isa-mariana");
    for f in [
        isa_codegen::report::api::API_FILE,
        isa_codegen::SUMMARY_FILE,
    ] {
        std::fs::copy(committed.join(f), krate.join(f)).unwrap();
    }
    let tree = copy_tree(&real_tree("mariana"), &root.join("headers"), TREE);
    edit(&tree.join(S1_RAND), ACT_ARM, "");
    let run = isa_codegen::workspace::plan(
        root,
        &root.join("headers"),
        &[],
        &isa_codegen::Options::default(),
    )
    .expect("the dropped tree plans");
    let report = run.plans[0].report(true);
    for line in [
        "    API changes (1):\n      - LegalRandSetState<(arm::Act,arm::OutputCvtLfsr,arm::Lfsr,arm::SrcTensor)> impl N = 2 [feature s1_rand]\n",
        "    semver: major (0.1.3 -> 0.2.0): `- LegalRandSetState<(arm::Act,arm::OutputCvtLfsr,arm::Lfsr,arm::SrcTensor)> impl N = 2 [feature s1_rand]`: removing a public item is major (item-remove)\n",
    ] {
        assert!(report.contains(line), "`{line}` not in the report:\n{report}");
    }
    assert_eq!(
        isa_codegen::workspace::release_line(&run.plans).as_deref(),
        Some("semver of the generated crates (one shared version): major: 0.1.3 -> 0.2.0\n")
    );
}
