//! A typed constructor called with the arguments the generator found valid: the Rust text of
//! each argument, the call, and the `# Example` of the constructor's rustdoc. The doc examples
//! of the typed instructions and `tests/constructors.rs` call the constructors the same way.

use super::emitted::names;
use super::operands::address_text;
use crate::ctype::Prim;
use crate::model::construct::{immediate_forms, Construction, Ctor, ParamKind};
use crate::model::eval::{FieldPath, Step};
use crate::model::{EnumId, RecordId};
use crate::model::{Model, Ty};

/// A Rust literal of a float as an example shows it (`1.0`, `-0.5`).
fn float_text(v: f32) -> String {
    format!("{v:?}")
}

/// The example's value of the 4 bytes of union field `k` (every member path under it).
fn union_bytes(model: &Model, shape_record: RecordId, ctor: &Ctor, prefix: &[Step]) -> u32 {
    let mut bytes = [0u8; 4];
    for (p, v) in &ctor.example.fields {
        if p.steps.len() <= prefix.len() || p.steps[..prefix.len()] != *prefix {
            continue;
        }
        let mut off = 0u64;
        let mut ty = p.steps[..prefix.len()]
            .last()
            .map(|s| match s {
                Step::Field(r, k) => model.records[*r].fields[*k].ty.clone(),
                Step::Index(_) => Ty::Prim(Prim::U8),
            })
            .unwrap_or(Ty::Record(shape_record));
        for s in &p.steps[prefix.len()..] {
            match (s, &ty) {
                (Step::Field(r, k), _) => {
                    off += model.records[*r].fields[*k].offset;
                    ty = model.records[*r].fields[*k].ty.clone();
                }
                (Step::Index(i), Ty::Array(inner, _)) => {
                    off += i * model.size_of(inner);
                    ty = inner.as_ref().clone();
                }
                _ => {}
            }
        }
        let size = model.size_of(&ty);
        for k in 0..size {
            if let Some(b) = bytes.get_mut((off + k) as usize) {
                *b = (*v >> (8 * k)) as u8;
            }
        }
    }
    u32::from_le_bytes(bytes)
}

/// One rendered argument: the Rust expression, the names it uses, and the
/// generation-independent `isa_core::construct::Arg` expression for the dispatch check.
struct ArgText {
    rust: String,
    uses: Vec<String>,
    arg: String,
}

/// Argument `k` of `ctor`: one writer per kind of parameter.
fn arg_text(model: &Model, c: &Construction, ctor: &Ctor, k: usize) -> ArgText {
    let shape_record = model.shapes[model.opcodes[c.opcode].shape.unwrap_or_default()].record;
    // The example's value of a field of the operand struct.
    let value_of = |field: usize| {
        ctor.example
            .value(&shape_path(vec![Step::Field(shape_record, field)]))
    };
    match &ctor.params[k].kind {
        ParamKind::Tensor {
            field,
            record,
            rank,
        } => tensor_arg(model, shape_record, ctor, *field, *record, *rank),
        ParamKind::Lanes { field } => {
            let v = value_of(*field);
            ArgText {
                rust: v.to_string(),
                uses: vec![],
                arg: format!("Arg::Lanes({v})"),
            }
        }
        ParamKind::Dtype { field, enum_id } | ParamKind::Enum { field, enum_id } => {
            member_arg(model, *enum_id, value_of(*field))
        }
        ParamKind::Immediate { src, value } => {
            immediate_arg(model, shape_record, ctor, value_of(*src), *value)
        }
        ParamKind::Fp32 { index, .. } => {
            let v = if *index == 0 { "0.0" } else { "1.0" };
            ArgText {
                rust: v.into(),
                uses: vec![],
                arg: format!("Arg::Fp32({v})"),
            }
        }
    }
}

/// A path from the operand struct.
fn shape_path(steps: Vec<Step>) -> FieldPath {
    FieldPath {
        root: crate::model::eval::Root::Shape,
        steps,
    }
}

/// A tensor argument (operand field `field`, a `record` of rank `rank`): `contiguous` when the
/// example's strides are the contiguous ones, else `with_steps`.
fn tensor_arg(
    model: &Model,
    shape_record: RecordId,
    ctor: &Ctor,
    field: usize,
    record: RecordId,
    rank: u64,
) -> ArgText {
    let rec = &model.records[record];
    let sub = |n: &str| rec.fields.iter().position(|f| f.name == n).unwrap_or(0);
    let (start, step, num) = (
        sub(crate::vendor::START_ADDR),
        sub(crate::vendor::STEP_ELEM),
        sub(crate::vendor::NUM_ELEM),
    );
    let raw = union_bytes(
        model,
        shape_record,
        ctor,
        &[Step::Field(shape_record, field), Step::Field(record, start)],
    );
    let leaf = |j: usize, i: u64| {
        ctor.example.value(&shape_path(vec![
            Step::Field(shape_record, field),
            Step::Field(record, j),
            Step::Index(i),
        ]))
    };
    let nums: Vec<i128> = (0..rank).map(|i| leaf(num, i)).collect();
    let steps: Vec<i128> = (0..rank).map(|i| leaf(step, i)).collect();
    let step_given = ctor.example.fields.iter().any(|(q, _)| {
        q.steps.len() == 3
            && q.steps[..2] == [Step::Field(shape_record, field), Step::Field(record, step)]
    });
    let forms = &model.address_forms;
    let addr = address_text(model, forms.as_ref(), raw);
    let list = |v: &[i128]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let t = &rec.rust;
    let contiguous = !step_given && nums.iter().all(|n| *n > 0);
    let rust = if contiguous {
        format!("{t}::contiguous({addr}, [{}])?", list(&nums))
    } else {
        format!(
            "{t}::with_steps({addr}, [{}], [{}])",
            list(&steps),
            list(&nums)
        )
    };
    let pad = |v: &[i128], fill: i128| {
        let mut v = v.to_vec();
        v.resize(4, fill);
        list(&v)
    };
    let arg = if contiguous {
        format!(
            "Arg::Tensor(TensorArg::contiguous({raw:#x}, [{}])?)",
            pad(&nums, 1)
        )
    } else {
        format!(
            "Arg::Tensor(TensorArg {{ start_addr: {raw:#x}, step_elem: [{}], num_elem: [{}] }})",
            pad(&steps, 1),
            pad(&nums, 1)
        )
    };
    ArgText {
        rust,
        uses: vec![t.clone(), "TensorAddress".into()],
        arg,
    }
}

/// An enum argument: the member with the example's value `v` (or the first).
fn member_arg(model: &Model, enum_id: EnumId, v: i128) -> ArgText {
    let e = &model.enums[enum_id];
    let m = e.by_value(v).or_else(|| e.distinct().next());
    let (rust, short) = m.map_or((String::new(), String::new()), |m| {
        (m.rust.clone(), m.short.clone())
    });
    ArgText {
        rust: format!("{}::{rust}", e.rust),
        uses: vec![e.rust.clone()],
        arg: format!("Arg::Member(\"{short}\")"),
    }
}

/// An immediate argument (`src` the example's value of its source field, `value` the operand
/// field of its 4 bytes): a pointer, a register, an fp32 that prints short, or the bits.
fn immediate_arg(
    model: &Model,
    shape_record: RecordId,
    ctor: &Ctor,
    s: i128,
    value: usize,
) -> ArgText {
    let bits = union_bytes(
        model,
        shape_record,
        ctor,
        &[Step::Field(shape_record, value)],
    );
    let forms = immediate_forms(model);
    let form = forms.as_ref().and_then(|f| {
        f.members
            .iter()
            .position(|m| model.enums[f.src_enum].members[*m].value == s)
    });
    let text = match form {
        Some(1) => format!("Immediate::Pointer({bits:#x})"),
        Some(2) => format!(
            "Immediate::Register({})",
            bits.to_le_bytes()[forms.as_ref().map_or(0, |f| f.regnum_offset as usize)]
        ),
        _ => {
            let f = f32::from_bits(bits);
            if bits != 0 && f.is_finite() && float_text(f).len() <= 8 {
                format!("Immediate::fp32({})", float_text(f))
            } else {
                format!("Immediate::Value({bits})")
            }
        }
    };
    ArgText {
        rust: text.clone(),
        uses: vec!["Immediate".into()],
        arg: format!("Arg::Immediate({text})"),
    }
}

/// A call of the constructor with its example arguments: the lines of `let inst = ...;`, the
/// names to import, and the named `Arg`s of the dispatch call.
pub(crate) fn example_call(
    model: &Model,
    c: &Construction,
    ctor: &Ctor,
    var: &str,
) -> (Vec<String>, Vec<String>, Vec<String>) {
    let Some((name, _, _)) = names(model, c.opcode) else {
        return (Vec::new(), Vec::new(), Vec::new());
    };
    let mut uses = vec![name.clone()];
    let args: Vec<ArgText> = (0..ctor.params.len())
        .map(|k| arg_text(model, c, ctor, k))
        .collect();
    let mut lines = Vec::new();
    let one_line = format!(
        "let {var} = {name}::{}({});",
        ctor.name,
        args.iter()
            .map(|a| a.rust.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if one_line.len() <= 90 {
        lines.push(one_line);
    } else {
        lines.push(format!("let {var} = {name}::{}(", ctor.name));
        for a in &args {
            lines.push(format!("    {},", a.rust));
        }
        lines.push(");".into());
    }
    for a in &args {
        uses.extend(a.uses.iter().cloned());
    }
    uses.sort();
    uses.dedup();
    let named = ctor
        .params
        .iter()
        .zip(&args)
        .map(|(p, a)| format!("(\"{}\", {})", p.name, a.arg))
        .collect();
    (lines, uses, named)
}

/// The engine members the example was checked for, as `NeuronEngine::X` texts.
pub(crate) fn engine_texts(model: &Model, ctor: &Ctor) -> Vec<String> {
    let Some(e) = model.engine_enum else {
        return Vec::new();
    };
    let en = &model.enums[e];
    ctor.example
        .engines
        .iter()
        .map(|m| format!("{}::{}", en.rust, en.members[*m].rust))
        .collect()
}

pub(crate) fn ctor_example(model: &Model, c: &Construction, ctor: &Ctor) -> String {
    let krate = format!("isa_{}", model.generation.to_ascii_lowercase());
    let Some((name, _, _)) = names(model, c.opcode) else {
        return String::new();
    };
    let (lines, mut uses, _) = example_call(model, c, ctor, "inst");
    let engines = engine_texts(model, ctor);
    if let Some(e) = model.engine_enum {
        uses.push(model.enums[e].rust.clone());
    }
    uses.sort();
    uses.dedup();
    let mut out = format!(
        "\n\n# Example\n\n```rust\nuse {krate}::{{{}}};\n\n",
        uses.join(", ")
    );
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    let engine = engines
        .first()
        .cloned()
        .unwrap_or_else(|| "Default::default()".into());
    out.push_str(&format!(
        "// Legal as the header's validator says, on {} (an engine that runs `{}`).\ninst.validate({engine})?;\nassert_eq!({name}::from_bytes(&inst.to_bytes())?, inst);\n# Ok::<(), Box<dyn std::error::Error>>(())\n```",
        engine.rsplit("::").next().unwrap_or_default().to_ascii_uppercase(),
        model.opcodes[c.opcode].short
    ));
    out
}
