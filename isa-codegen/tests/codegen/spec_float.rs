//! Floating-point comparisons in the spec language (docs/spec-language.md, "Types and
//! semantics"): a `float` field read through its union member compares with another one as an
//! IEEE value, in the model's evaluator and in the emitted Rust alike. MARIANA's RAND2 bound
//! check `i.d3_rand.min.imm_arith_fp32 < i.d3_rand.max.imm_arith_fp32` is the case.

use crate::common;

use common::real_tree;
use isa_codegen::model::eval::{Evaluator, FieldPath, Formula, Inputs, Root, Step, Value};
use isa_codegen::model::spec::{disjuncts, BinOp, ExprKind, SpecTy};
use isa_codegen::model::{Model, Prim, RecordId};

const MIN_MAX: &str = "has_valid_rand2_min_max";

fn mariana() -> Model {
    let input = isa_codegen::read::read_tree(&real_tree("mariana")).unwrap();
    isa_codegen::model::build(&input).unwrap()
}

/// `<field>.<member>` of the D3_RAND operand struct, as a canonical path.
fn path(model: &Model, shape_record: RecordId, field: &str, member: &str) -> FieldPath {
    let rec = &model.records[shape_record];
    let k = rec.fields.iter().position(|f| f.name == field).unwrap();
    let isa_codegen::model::Ty::Record(u) = rec.fields[k].ty else {
        panic!("{field} is a union")
    };
    let m = model.records[u]
        .fields
        .iter()
        .position(|f| f.name == member)
        .unwrap();
    FieldPath {
        root: Root::Shape,
        steps: vec![Step::Field(shape_record, k), Step::Field(u, m)],
    }
}

/// The check's verdict for immediate bounds `min`, `max`, or its residual when one is open.
fn verdict(model: &Model, min: Option<f32>, max: Option<f32>) -> Formula {
    let op = model.opcode_named("RAND2").unwrap();
    let shape_record = model.shapes[model.opcodes[op].shape.unwrap()].record;
    let f = model.specs.iter().position(|s| s.name == MIN_MAX).unwrap();
    let mut env = Inputs::default();
    for (name, v) in [("min", min), ("max", max)] {
        // `*_src` = INSTRUCTION_IMMEDIATE (0): the bounds are read from the word.
        let src = &model.records[shape_record];
        let k = src
            .fields
            .iter()
            .position(|f| f.name == format!("{name}_src"))
            .unwrap();
        env.fields.insert(
            FieldPath {
                root: Root::Shape,
                steps: vec![Step::Field(shape_record, k)],
            },
            0,
        );
        if let Some(v) = v {
            env.fields.insert(
                path(model, shape_record, name, "imm_arith_fp32"),
                i128::from(v.to_bits()),
            );
        }
    }
    let mut ev = Evaluator::new(model, &model.specs, shape_record);
    match ev.call(&env, f, vec![Value::Inst]).unwrap() {
        Value::Bool(f) => f,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_float_member_resolves_to_a_float_comparison() {
    let model = mariana();
    let f = model.specs.iter().find(|s| s.name == MIN_MAX).unwrap();
    let last = *disjuncts(&f.body).last().unwrap();
    let inner = match &last.kind {
        ExprKind::Binary(..) => last,
        _ => panic!("{}", last.text),
    };
    let ExprKind::Binary(BinOp::Lt, l, r) = &inner.kind else {
        panic!("{}", inner.text)
    };
    assert_eq!(l.ty, SpecTy::Float(Prim::F32));
    assert_eq!(r.ty, SpecTy::Float(Prim::F32));
    assert_eq!(inner.ty, SpecTy::Bool);
}

/// The evaluator compares the values, not the encodings: -1.0 < -0.5 though its bits are larger,
/// -0.0 is not below 0.0, and a NaN bound fails; with a bound open the residual keeps the float
/// comparison apart from integer ones.
#[test]
fn the_evaluator_compares_fp32_values_and_a_nan_compares_false() {
    let model = mariana();
    let known = |min: f32, max: f32| verdict(&model, Some(min), Some(max)).known();
    assert_eq!(known(-1.0, 1.0), Some(true));
    assert_eq!(known(-1.0, -0.5), Some(true));
    assert_eq!(known(1.0, -1.0), Some(false));
    assert_eq!(known(-0.5, -1.0), Some(false));
    assert_eq!(known(1.0, 1.0), Some(false));
    assert_eq!(known(-0.0, 0.0), Some(false));
    assert_eq!(known(f32::NAN, 1.0), Some(false));
    assert_eq!(known(1.0, f32::NAN), Some(false));
    assert_eq!(known(f32::NEG_INFINITY, f32::INFINITY), Some(true));
    match verdict(&model, Some(0.5), None) {
        Formula::FloatCmp(BinOp::Lt, Prim::F32, _, _) => {}
        other => panic!("{other:?}"),
    }
}

/// The emitted validator compares the two accessors' `f32` values with Rust's operator, in the
/// spec's order.
#[test]
fn the_emitted_validator_compares_the_f32_accessors() {
    let model = mariana();
    let (files, _) = isa_codegen::emit::emit_printed(&model);
    let spec = &files["src/generated/spec.rs"];
    let at = spec
        .find(&format!("pub fn {MIN_MAX}("))
        .unwrap_or_else(|| panic!("no {MIN_MAX} in spec.rs"));
    let body = &spec[at..at + spec[at..].find("\n}").unwrap()];
    assert!(
        body.contains("(i.min.imm_arith_fp32() < i.max.imm_arith_fp32())"),
        "{body}"
    );
    assert!(!body.contains("i128::from"), "{body}");
}
