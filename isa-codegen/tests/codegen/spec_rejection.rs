//! Spec blocks the generator must reject (issue 4, "Tests"; docs/spec-language.md): a name that
//! resolves to nothing, a call that does not fit its function, an access the shape rules forbid,
//! a form outside the language, a legality function that gives no table. Each test copies a good
//! tree (the tiny fixture, or `headers/neuron_mariana_arch_isa` where the case needs two operand
//! shapes), breaks one spec block and checks that `isa_codegen::generate` fails, without
//! panicking, with a diagnostic at the broken line of that header naming the problem.

use crate::common;

use common::{copy_tree, edit, line_of, real_tree, tiny_tree, Scratch};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

const FILL: &str = "tpb/aws_neuron_isa_tpb_s1_fill.h";
const S1_RAND: &str = "tpb/aws_neuron_isa_tpb_s1_rand.h";

/// A scratch copy of a good tree, to break.
struct Tree {
    _scratch: Scratch,
    root: PathBuf,
}

impl Tree {
    fn tiny(tag: &str) -> Tree {
        Tree::copy(tag, &tiny_tree(), "neuron_tiny_arch_isa")
    }

    fn mariana(tag: &str) -> Tree {
        Tree::copy(tag, &real_tree("mariana"), "neuron_mariana_arch_isa")
    }

    fn copy(tag: &str, from: &Path, name: &str) -> Tree {
        let scratch = Scratch::new(&format!("spec-{tag}"));
        let root = copy_tree(from, scratch.path(), name);
        Tree {
            _scratch: scratch,
            root,
        }
    }

    fn file(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Replaces `old` (once in `rel`) with `new`; returns the line of the first line of `new`
    /// that contains `marker`.
    fn break_at(&self, rel: &str, old: &str, new: &str, marker: &str) -> u32 {
        let f = self.file(rel);
        edit(&f, old, new);
        line_of(&f, marker)
    }

    /// `generate` fails, without panicking, with a diagnostic at `rel:line` whose message
    /// contains every one of `words`; the printed error shows that place.
    #[track_caller]
    fn rejects(&self, rel: &str, line: u32, words: &[&str]) {
        self.rejects_at_one_of(rel, &[line], words);
    }

    /// As [`Tree::rejects`], with the diagnostic at any one of `lines`.
    #[track_caller]
    fn rejects_at_one_of(&self, rel: &str, lines: &[u32], words: &[&str]) {
        let result = catch_unwind(AssertUnwindSafe(|| {
            isa_codegen::generate(&self.root, &isa_codegen::Options::STRICT)
        }));
        let err = match result {
            Err(_) => panic!("generate panicked"),
            Ok(Ok(_)) => panic!("generate accepted the broken spec of {rel}:{lines:?}"),
            Ok(Err(e)) => e,
        };
        let hit = err.diagnostics.iter().find(|d| {
            d.loc.file == rel
                && lines.contains(&d.loc.line)
                && words.iter().all(|w| d.message.contains(w))
        });
        let Some(hit) = hit else {
            panic!("no diagnostic at {rel}:{lines:?} mentioning {words:?}; got:\n{err}");
        };
        let tree = self.root.file_name().unwrap().to_string_lossy();
        let place = format!("{tree}/{rel}:{}: ", hit.loc.line);
        assert!(err.to_string().contains(&place), "`{place}` not in:\n{err}");
    }
}

#[test]
fn the_pristine_trees_generate() {
    isa_codegen::generate(&Tree::tiny("pristine").root, &isa_codegen::Options::STRICT)
        .expect("the tiny fixture generates");
}

#[test]
fn unknown_field() {
    let t = Tree::tiny("field");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.nope >= 1)",
        "nope",
    );
    t.rejects(
        FILL,
        line,
        &["NEURON_ISA_TPB_S1_FILL_STRUCT has no field `nope`"],
    );
}

/// A float meets only another float of its width: the language has no float literals, and an
/// integer compared with an IEEE value would need a conversion the language does not state.
#[test]
fn a_float_compared_with_an_integer() {
    let t = Tree::tiny("float-int");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.scale >= 1)",
        "(i.s1_fill.scale",
    );
    t.rejects(FILL, line, &["cannot compare `i.s1_fill.scale` (f32)"]);
}

/// Floats are compared, never computed with.
#[test]
fn arithmetic_on_a_float() {
    let t = Tree::tiny("float-arith");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.scale + i.s1_fill.scale < i.s1_fill.scale)",
        "(i.s1_fill.scale",
    );
    t.rejects(FILL, line, &["`+` needs two integers"]);
}

#[test]
fn unknown_field_of_a_nested_record() {
    let t = Tree::tiny("nested-field");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.pair.mid == Color::RED)",
        "mid",
    );
    t.rejects(FILL, line, &["NEURON_ISA_TPB_PAIR has no field `mid`"]);
}

#[test]
fn unknown_enum_member() {
    let t = Tree::tiny("member");
    let line = t.break_at(
        FILL,
        "(e == NeuronEngine::Pool)",
        "(e == NeuronEngine::Nope)",
        "Nope",
    );
    t.rejects(
        FILL,
        line,
        &["`Nope` is not a member of NEURON_ISA_TPB_NEURON_ENGINE"],
    );
}

#[test]
fn unknown_enum() {
    let t = Tree::tiny("enum");
    let line = t.break_at(
        FILL,
        "(e == NeuronEngine::Pool)",
        "(e == Engine::Pool)",
        "Engine::Pool",
    );
    t.rejects(FILL, line, &["`Engine` names no enum"]);
}

#[test]
fn unknown_constant() {
    let t = Tree::tiny("constant");
    let line = t.break_at(FILL, "(n <= MAX_LANES)", "(n <= MAX_LANEZ)", "MAX_LANEZ");
    t.rejects(
        FILL,
        line,
        &["`MAX_LANEZ` is neither a parameter nor a constant"],
    );
}

#[test]
fn unknown_helper_function() {
    let t = Tree::tiny("helper");
    let line = t.break_at(
        FILL,
        "fill_lanes_ok(i.s1_fill.lanes, e)",
        "fill_lanes_okay(i.s1_fill.lanes, e)",
        "okay",
    );
    t.rejects(FILL, line, &["`fill_lanes_okay`", "not a spec function"]);
}

#[test]
fn wrong_argument_count() {
    let t = Tree::tiny("arity");
    let line = t.break_at(
        FILL,
        "fill_lanes_ok(i.s1_fill.lanes, e)",
        "fill_lanes_ok(i.s1_fill.lanes)",
        "fill_lanes_ok(i",
    );
    t.rejects(FILL, line, &["`fill_lanes_ok` takes 2 arguments, given 1"]);
}

#[test]
fn wrong_argument_type() {
    let t = Tree::tiny("arg-type");
    let line = t.break_at(
        FILL,
        "fill_lanes_ok(i.s1_fill.lanes, e)",
        "fill_lanes_ok(e, i.s1_fill.lanes)",
        "fill_lanes_ok(e",
    );
    t.rejects(
        FILL,
        line,
        &["argument `n` of `fill_lanes_ok` is u8, given `e`"],
    );
}

#[test]
fn an_inst_argument_must_be_the_inst_parameter() {
    let t = Tree::tiny("inst-arg");
    let line = t.break_at(
        FILL,
        "      has_valid_header(i)",
        "      has_valid_header(e)",
        "has_valid_header(e)",
    );
    t.rejects(
        FILL,
        line,
        &["argument `i` of `has_valid_header` is Inst, given `e`"],
    );
}

#[test]
fn a_body_of_the_wrong_type() {
    let t = Tree::tiny("ret");
    let line = t.break_at(
        FILL,
        "(e == NeuronEngine::Pool) && (n <= MAX_LANES)",
        "n + MAX_LANES",
        "n + MAX_LANES",
    );
    t.rejects(FILL, line, &["the body has type", "returns bool"]);
}

#[test]
fn array_index_out_of_bounds() {
    let t = Tree::tiny("oob");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.steps[4] >= 1)",
        "i.s1_fill.steps[4]",
    );
    t.rejects(
        FILL,
        line,
        &["index 4 is out of bounds of `i.s1_fill.steps` (4 elements)"],
    );
}

#[test]
fn non_literal_array_index() {
    let t = Tree::tiny("index");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.steps[i.s1_fill.lanes] >= 1)",
        "steps[i.",
    );
    t.rejects(FILL, line, &["an array index must be an integer literal"]);
}

#[test]
fn indexing_a_scalar() {
    let t = Tree::tiny("scalar-index");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.count[0] >= 1)",
        "count[0]",
    );
    t.rejects(FILL, line, &["is not an array"]);
}

#[test]
fn integer_suffix() {
    let t = Tree::tiny("suffix");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.count >= 1U)",
        "1U",
    );
    t.rejects(FILL, line, &["`1U`", "no suffix"]);
}

#[test]
fn method_call() {
    let t = Tree::tiny("method");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(i.s1_fill.count.max(1) >= 1)",
        ".max(",
    );
    t.rejects(
        FILL,
        line,
        &["the spec language has no method calls: `i.s1_fill.count.max(1)`"],
    );
}

#[test]
fn an_expression_form_the_language_lacks_is_named_by_its_text() {
    let t = Tree::tiny("array-literal");
    let line = t.break_at(FILL, "(i.s1_fill.count >= 1)", "([1, 2][0] >= 1)", "[1, 2]");
    t.rejects(
        FILL,
        line,
        &["the spec language has no expression of the form `[1, 2]` (docs/spec-language.md"],
    );
}

#[test]
fn cast() {
    let t = Tree::tiny("cast");
    let line = t.break_at(
        FILL,
        "(n <= MAX_LANES)",
        "((n as u32) <= MAX_LANES)",
        " as u32",
    );
    t.rejects(FILL, line, &["casts", "the spec language has no"]);
}

#[test]
fn let_statement() {
    let t = Tree::tiny("let");
    let line = t.break_at(
        FILL,
        "//     (e == NeuronEngine::Pool) && (n <= MAX_LANES)\n",
        "//     let m = MAX_LANES;\n//     (e == NeuronEngine::Pool) && (n <= m)\n",
        "fn fill_lanes_ok",
    );
    // The body is the block from the signature's `{` on: the diagnostic names its first line.
    t.rejects(FILL, line, &["no `let`"]);
}

#[test]
fn match_expression() {
    let t = Tree::tiny("match");
    let line = t.break_at(
        FILL,
        "//     (e == NeuronEngine::Pool) && (n <= MAX_LANES)\n",
        "//     match e { NeuronEngine::Pool => n <= MAX_LANES, _ => false }\n",
        "match e",
    );
    t.rejects(FILL, line, &["`match`", "the spec language has no"]);
}

#[test]
fn enum_list_outside_is_valid_enum() {
    let t = Tree::tiny("enum-list");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "(EnumList::Color == 1)",
        "EnumList",
    );
    t.rejects(
        FILL,
        line,
        &[
            "`EnumList::",
            "only as the first argument of `is_valid_enum`",
        ],
    );
}

#[test]
fn is_valid_enum_is_accepted_with_its_enum_list() {
    // The control of the case above: inside `is_valid_enum` the same list is the language.
    let t = Tree::tiny("enum-list-ok");
    edit(
        &t.file(FILL),
        "(i.s1_fill.count >= 1)",
        "is_valid_enum(EnumList::Color, i.s1_fill.color)",
    );
    isa_codegen::generate(&t.root, &isa_codegen::Options::STRICT)
        .expect("is_valid_enum(EnumList::Color, ...) is the language");
}

#[test]
fn is_valid_enum_takes_the_vendor_form_with_a_bare_enum_name() {
    // `is_valid_enum(DataSrc, x)`, as a vendor page quotes it, is `is_valid_enum(EnumList::DataSrc, x)`.
    let t = Tree::tiny("enum-bare");
    edit(
        &t.file(FILL),
        "(i.s1_fill.count >= 1)",
        "is_valid_enum(Color, i.s1_fill.count)",
    );
    let g = isa_codegen::generate(&t.root, &isa_codegen::Options::STRICT)
        .expect("is_valid_enum(Color, ...) is the language");
    assert!(g.files["src/generated/spec.rs"].contains("Color::from_value("));
    let t = Tree::tiny("enum-bare-unknown");
    let line = t.break_at(
        FILL,
        "(i.s1_fill.count >= 1)",
        "is_valid_enum(Colour, i.s1_fill.count)",
        "Colour",
    );
    t.rejects(FILL, line, &["first argument of `is_valid_enum`"]);
}

/// The tiny tree with a `fill_legal_combinations` block of `body` (one `//` line) after
/// `fill_lanes_ok`; returns the tree and the line of the block's `fn`.
fn with_legality(tag: &str, body: &str) -> (Tree, u32) {
    let t = Tree::tiny(tag);
    let block = format!(
        "(n <= MAX_LANES)\n// }}\n\n// fn fill_legal_combinations(i: Inst, e: NeuronEngine) -> bool {{\n//     {body}\n// }}\n"
    );
    let line = t.break_at(
        FILL,
        "(n <= MAX_LANES)\n// }\n",
        &block,
        "fn fill_legal_combinations",
    );
    (t, line)
}

#[test]
fn a_legality_function_of_element_count_equations_generates() {
    // The control of the cases below: one `<count> == N` per arm is a table.
    let (t, _) = with_legality(
        "legal-ok",
        "((e == NeuronEngine::Pool) && (i.s1_fill.count == 7)) || ((e == NeuronEngine::DVE) && (i.s1_fill.count == 24))",
    );
    isa_codegen::generate(&t.root, &isa_codegen::Options::STRICT)
        .expect("a two-arm legality table");
}

#[test]
fn legality_without_an_element_count_clause() {
    let (t, line) = with_legality("legal-true", "(e == NeuronEngine::Pool)");
    t.rejects(
        FILL,
        line,
        &["fill_legal_combinations", "no element-count clause"],
    );
}

#[test]
fn legality_with_an_inequality() {
    let (t, line) = with_legality(
        "legal-ge",
        "(e == NeuronEngine::Pool) && (i.s1_fill.count >= 7)",
    );
    t.rejects(
        FILL,
        line,
        &["fill_legal_combinations", "not one `<element count> == N`"],
    );
}

#[test]
fn legality_with_two_equations_in_one_arm() {
    let (t, line) = with_legality(
        "legal-two",
        "(e == NeuronEngine::Pool) && (i.s1_fill.count == 7) && (i.s1_fill.lanes == 4)",
    );
    t.rejects(
        FILL,
        line,
        &["fill_legal_combinations", "not one `<element count> == N`"],
    );
}

#[test]
fn legality_arms_counting_different_fields() {
    let (t, line) = with_legality(
        "legal-mixed",
        "((e == NeuronEngine::Pool) && (i.s1_fill.count == 7)) || ((e == NeuronEngine::DVE) && (i.s1_fill.lanes == 4))",
    );
    t.rejects(
        FILL,
        line,
        &["fill_legal_combinations", "arms count different things"],
    );
}

#[test]
fn legality_naming_no_opcode() {
    let t = Tree::tiny("legal-opcode");
    let block = "(n <= MAX_LANES)\n// }\n\n// fn spill_legal_combinations(i: Inst) -> bool {\n//     (i.s1_fill.count == 7)\n// }\n";
    let line = t.break_at(
        FILL,
        "(n <= MAX_LANES)\n// }\n",
        block,
        "fn spill_legal_combinations",
    );
    t.rejects(FILL, line, &["spill_legal_combinations", "SPILL"]);
}

/// `rand_set_state_valid_dtype` (mariana s1_rand.h) made to read `i.d4_rand` as well as `i.s1_rand`;
/// returns the tree, the line of its `fn` and the line of the `i.d4_rand` access.
fn reading_two_shapes(tag: &str) -> (Tree, u32, u32) {
    let t = Tree::mariana(tag);
    let access = t.break_at(
        S1_RAND,
        "//     i.s1_rand.in_dtype == Dtype::UINT32\n",
        "//     (i.s1_rand.in_dtype == Dtype::UINT32) && (i.d4_rand.dtype == Dtype::UINT32)\n",
        "(i.d4_rand.dtype",
    );
    let block = line_of(&t.file(S1_RAND), "fn rand_set_state_valid_dtype");
    (t, block, access)
}

/// `rand_set_state_valid_dtype` made to read D4_RAND only, while `is_valid_s1_rand` (S1_RAND)
/// still calls it; returns the tree, the line of the caller's `fn` and the line of the call.
fn applied_to_another_shape(tag: &str) -> (Tree, u32, u32) {
    let t = Tree::mariana(tag);
    edit(
        &t.file(S1_RAND),
        "//     i.s1_rand.in_dtype == Dtype::UINT32\n",
        "//     i.d4_rand.dtype == Dtype::UINT32\n",
    );
    let block = line_of(&t.file(S1_RAND), "fn is_valid_s1_rand");
    let call = line_of(&t.file(S1_RAND), "&& rand_set_state_valid_dtype(i)");
    (t, block, call)
}

#[test]
fn one_function_reading_two_shapes() {
    let (t, block, access) = reading_two_shapes("two-shapes");
    t.rejects_at_one_of(
        S1_RAND,
        &[block, access],
        &["`rand_set_state_valid_dtype` reads through several shapes (`s1_rand` and `d4_rand`)"],
    );
}

#[test]
fn a_shape_bound_function_applied_to_another_shape() {
    let (t, block, call) = applied_to_another_shape("other-shape");
    t.rejects_at_one_of(
        S1_RAND,
        &[block, call],
        &[
            "`is_valid_s1_rand` passes an instruction of shape `s1_rand` to \
             `rand_set_state_valid_dtype`, which reads shape `d4_rand`",
        ],
    );
}

// The two shape checks run after resolution (`infer_inst_kinds` in model/spec.rs) on expressions
// that carry no location, so they name the `fn` line of the block rather than the line of the
// offending access or call, unlike every other resolution error. The two tests below pin the
// precise line; they fail until the generator records where shape accesses and calls are.

#[test]
fn two_shapes_are_reported_at_the_second_shape_access() {
    let (t, _, access) = reading_two_shapes("two-shapes-line");
    t.rejects(S1_RAND, access, &["reads through several shapes"]);
}

#[test]
fn a_shape_mismatch_is_reported_at_the_call() {
    let (t, _, call) = applied_to_another_shape("other-shape-line");
    t.rejects(S1_RAND, call, &["passes an instruction of shape `s1_rand`"]);
}
