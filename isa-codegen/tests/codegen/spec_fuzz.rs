//! Structure-aware fuzzing of the spec language (issue 12): random well-formed and
//! near-well-formed `// fn` blocks — deep nesting, long chains, division by zero, unknown names,
//! huge literals, overflowing arithmetic, broken syntax — put into the tiny fixture's validator
//! and a legality function, then read (the lexical bound, syn), modelled (resolution, the depth
//! check, the legality derivation, the typed constructors), evaluated (every function, with
//! every parameter symbolic) and emitted. Never a panic and never a stack overflow: either the
//! tree builds, or every diagnostic is typed and names a line.
//!
//! Deterministic: a fixed ChaCha seed and case count; bindgen runs once (the C declarations do not
//! change between cases, only the comment blocks).

use crate::common;

use isa_codegen::model::eval::{Evaluator, Inputs, Term, Value};
use isa_codegen::model::spec::SpecTy;
use isa_codegen::read::spec::MAX_SPEC_DEPTH;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const FILL: &str = "tpb/aws_neuron_isa_tpb_s1_fill.h";
const CASES: u32 = 96;

/// Integer-valued expressions over the fixture's names, and some that are not names at all.
fn int_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("i.s1_fill.count".to_string()),
        Just("i.s1_fill.lanes".to_string()),
        (0u8..6).prop_map(|k| format!("i.s1_fill.steps[{k}]")),
        Just("MAX_LANES".to_string()),
        any::<u8>().prop_map(|v| v.to_string()),
        Just("0".to_string()),
        Just("340282366920938463463374607431768211455".to_string()),
        Just("99999999999999999999999999999999999999999999".to_string()),
        Just("nope".to_string()),
        Just("i.s1_fill.nope".to_string()),
    ];
    leaf.prop_recursive(6, 48, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("({a} / 0)")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(if {a} > {b} {{ {a} }} else {{ {b} }})")),
        ]
    })
}

/// A repeat count: up to 160 (within the limit), or 480 to 1400 (past it, or just under for
/// parentheses, which count one level each).
fn long() -> impl Strategy<Value = usize> {
    prop_oneof![1usize..160, 480usize..1400]
}

/// Boolean expressions, with chains and nestings within and past the limit.
fn bool_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (
            int_expr(),
            prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]),
            int_expr()
        )
            .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        Just("fill_lanes_ok(i.s1_fill.lanes, e)".to_string()),
        Just("(e == NeuronEngine::Pool)".to_string()),
        Just("has_valid_header(i)".to_string()),
        Just("true".to_string()),
        Just("unknown_fn(i)".to_string()),
    ];
    let tree = leaf.prop_recursive(5, 32, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} && {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} || {b})")),
            inner.clone().prop_map(|a| format!("!{a}")),
        ]
    });
    prop_oneof![
        4 => tree.clone(),
        // Long chains and deep nestings, within and past the limit (a block right at the limit
        // is `bad_input.rs`'s: the model's text of each subexpression makes such a block take
        // seconds, too long for a hundred cases).
        1 => (long(), tree.clone()).prop_map(|(n, t)| vec![t; n].join(" && ")),
        1 => (long(), tree.clone())
            .prop_map(|(n, t)| format!("{}{t}{}", "(".repeat(2 * n), ")".repeat(2 * n))),
        1 => (long(), int_expr())
            .prop_map(|(n, a)| format!("({}{a}{} == 1)", "-(".repeat(n), ")".repeat(n))),
    ]
}

/// A case: the validator's body, the legality function's count, and a syntax mutation.
fn case() -> impl Strategy<Value = (String, String, Option<(usize, char)>)> {
    (
        bool_expr(),
        int_expr(),
        prop::option::weighted(
            0.2,
            (
                any::<usize>(),
                prop::sample::select(vec!['(', ')', '&', '{', '}', '.', ' ']),
            ),
        ),
    )
}

/// The fixture's spec blocks replaced by `validator` and `count`, each block on one line (the C
/// declarations above them keep their lines); `mutation` puts a character into the validator.
fn blocks(validator: &str, count: &str, mutation: Option<(usize, char)>) -> String {
    let mut v = validator.to_string();
    if let Some((at, c)) = mutation {
        let at = at % (v.len() + 1);
        let at = (0..=at).rev().find(|&k| v.is_char_boundary(k)).unwrap_or(0);
        v.insert(at, c);
    }
    format!(
        "// fn is_valid_s1_fill(i: Inst, e: NeuronEngine) -> bool {{ {v} }}\n\
         // fn fill_lanes_ok(n: u8, e: NeuronEngine) -> bool {{ (e == NeuronEngine::Pool) && (n <= MAX_LANES) }}\n\
         // fn fill_legal_combinations(i: Inst, e: NeuronEngine) -> bool {{ (e == NeuronEngine::Pool) && (i.s1_fill.count == {count}) }}\n"
    )
}

#[test]
fn spec_parser_and_evaluator_never_panic() {
    // The generator's own stack: the walks are bounded by the limit, not by this test's thread.
    std::thread::Builder::new()
        .stack_size(isa_codegen::STACK_BYTES)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

fn run() {
    let input = isa_codegen::read::read_tree(&common::tiny_tree()).expect("the fixture reads");
    let k = input.headers.iter().position(|h| h.rel == FILL).unwrap();
    let original = input.headers[k].text.clone();
    let start = original.find("// fn is_valid_s1_fill").unwrap();
    let end = original.find("#endif").unwrap();
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: CASES,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[12; 32]),
    );
    // The runner takes an `Fn`: the tree and the counts live in cells.
    let input = std::cell::RefCell::new(input);
    let outcomes: [std::cell::Cell<usize>; 3] = Default::default(); // built, rejected at read, by the model
    let count = |k: usize| outcomes[k].set(outcomes[k].get() + 1);
    runner
        .run(&case(), |(validator, count_expr, mutation)| {
            let text = format!(
                "{}{}{}",
                &original[..start],
                blocks(&validator, &count_expr, mutation),
                &original[end..]
            );
            let mut input = input.borrow_mut();
            input.headers[k].text = text;
            let line_ok =
                |d: &isa_codegen::diag::Diagnostic| d.loc.line > 0 && !d.message.is_empty();
            match isa_codegen::read::spec::extract_all(&input.headers) {
                Err(diags) => {
                    prop_assert!(diags.iter().all(line_ok), "{diags:?}");
                    count(1);
                    return Ok(());
                }
                Ok((specs, unparsed)) => {
                    input.specs = specs;
                    input.spec_unparsed = unparsed;
                }
            }
            let built = isa_codegen::model::build(&input);
            match built {
                Err(e) => {
                    prop_assert!(e.diagnostics.iter().all(line_ok), "{e}");
                    count(2);
                }
                Ok(model) => {
                    prop_assert!(model.warnings.iter().all(line_ok), "{:?}", model.warnings);
                    for (f, spec) in model.specs.iter().enumerate() {
                        let args = spec
                            .params
                            .iter()
                            .enumerate()
                            .map(|(p, (_, t))| match t {
                                SpecTy::Inst(_) => Value::Inst,
                                _ => Value::Num(Term::Param(p)),
                            })
                            .collect();
                        let shape = model.shapes[0].record;
                        // Ok or a typed EvalError; a panic fails the case.
                        let _ = Evaluator::new(&model, &model.specs, shape).call(
                            &Inputs::default(),
                            f,
                            args,
                        );
                    }
                    let (files, _) = isa_codegen::emit::emit_printed(&model);
                    prop_assert!(files.contains_key("src/generated/spec.rs"));
                    count(0);
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // The generator exercised every path: some cases built, some were rejected by each stage.
    let outcomes = outcomes.map(|c| c.get());
    eprintln!(
        "built {}, rejected at read {}, by the model {} (limit {MAX_SPEC_DEPTH})",
        outcomes[0], outcomes[1], outcomes[2]
    );
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}
