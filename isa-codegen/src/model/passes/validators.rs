//! Pass: the validator of each mapped opcode.
//!
//! Input: the opcodes, shapes and translated spec functions, and the tree's debug switch. Output:
//! [`Model::validators`](crate::model::Model::validators) and
//! [`Model::unvalidated`](crate::model::Model::unvalidated) (the mapped opcodes without one, with
//! the reason), and the names of the validators that were not translated (the unused-specs pass
//! counts them as used).
//!
//! The names tried, in order: the function the tree's debug switch calls for the opcode
//! (`case NEURON_ISA_TPB_OPCODE_SORT: check = dbg_is_valid_s1d2_sort(i);` names
//! `is_valid_s1d2_sort`), when `aws_neuron_isa_tpb_debug_assert.h` has an arm for it; then
//! `is_valid_<opcode>`; then `is_valid_<shape>`. The first that names a spec function is the
//! validator; when it is one that was not translated, the opcode has none, and says why. When no
//! name matches, that is a warning naming the names tried; so is a validator whose parameters
//! are not the instruction, the engine and the core version, or that reads a common field the
//! opcode's struct lacks.

use crate::diag::Sink;
use crate::model::spec::{children, Expr, ExprKind, InstKind, SpecTy};
use crate::model::OpcodeId;
use crate::model::ShapeId;
use crate::model::{EnumId, Model, Opcode, Validator};
use crate::read::cfunc::DebugCase;
use crate::vendor::{INST_COMMON, VALIDATOR_PREFIX};
use std::collections::BTreeMap;

/// What [`find`] found.
pub(super) struct Found {
    /// Per mapped opcode its validator.
    pub validators: Vec<(OpcodeId, Validator)>,
    /// The mapped opcodes without one, with the reason.
    pub unvalidated: Vec<(OpcodeId, String)>,
    /// The names of the validators that were not translated.
    pub dropped: Vec<String>,
}

/// The validators of the mapped opcodes of `model`.
pub(super) fn find(model: &Model, debug: Option<&[DebugCase]>, sink: &mut Sink) -> Found {
    let by_debug = debug_choices(model, debug, sink);
    let mut found = Found {
        validators: Vec::new(),
        unvalidated: Vec::new(),
        dropped: Vec::new(),
    };
    for (k, o) in model.opcode_entries() {
        let Some(shape) = o.shape else { continue };
        let mut tried: Vec<String> = Vec::new();
        if let Some(v) = by_debug.get(o.c_name.as_str()) {
            tried.push(v.to_string());
        }
        tried.extend(conventional_names(model, o, shape));
        tried.dedup();
        let func = match lookup(model, &tried, &mut found.dropped) {
            Some(Ok(func)) => func,
            Some(Err(why)) => {
                found.unvalidated.push((k, why));
                continue;
            }
            None => {
                let names = tried
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                sink.warn(
                    model.shapes[shape].loc.clone(),
                    format!(
                        "opcode `{}` has no validator: no spec function is named {names}",
                        o.short
                    ),
                );
                found
                    .unvalidated
                    .push((k, format!("no spec function is named {names}")));
                continue;
            }
        };
        if let Err(why) = usable(model, o, shape, func) {
            sink.warn(model.specs[func].loc.clone(), why.clone());
            found.unvalidated.push((k, why));
            continue;
        }
        found.validators.push((
            k,
            Validator {
                func,
                implied_engine: implied_engine(model, func),
            },
        ));
    }
    found
}

/// The validator names every mapped opcode answers to by convention: `is_valid_<opcode>`, then
/// `is_valid_<shape>`.
pub(super) fn conventional_names(model: &Model, o: &Opcode, shape: ShapeId) -> [String; 2] {
    [
        format!("{VALIDATOR_PREFIX}{}", o.short.to_ascii_lowercase()),
        format!(
            "{VALIDATOR_PREFIX}{}",
            model.shapes[shape].code.to_ascii_lowercase()
        ),
    ]
}

/// The validator the debug switch names for each opcode; an arm naming an opcode the tree lacks
/// is a warning.
fn debug_choices<'a>(
    model: &Model,
    debug: Option<&'a [DebugCase]>,
    sink: &mut Sink,
) -> BTreeMap<&'a str, &'a str> {
    let mut by_debug: BTreeMap<&str, &str> = BTreeMap::new();
    for case in debug.unwrap_or(&[]) {
        for (op, loc) in &case.opcodes {
            if model.opcodes.iter().any(|o| o.c_name == *op) {
                by_debug.insert(op, &case.validator);
            } else {
                sink.warn(
                    loc.clone(),
                    format!("the debug switch names opcode `{op}`, which the OPCODE enum lacks"),
                );
            }
        }
    }
    by_debug
}

/// The first of `tried` that names a spec function: translated (its index) or not (why, and its
/// name joins `dropped`); `None` when none does.
fn lookup(
    model: &Model,
    tried: &[String],
    dropped: &mut Vec<String>,
) -> Option<Result<usize, String>> {
    for name in tried {
        if let Some(func) = model.specs.iter().position(|f| f.name == *name) {
            return Some(Ok(func));
        }
        if let Some(d) = model.spec_dropped.iter().find(|d| d.name == *name) {
            dropped.push(d.name.clone());
            return Some(Err(format!(
                "its validator `{}` ({}) is not translated: {}",
                d.name, d.loc, d.reason
            )));
        }
    }
    None
}

/// Whether spec function `func` can validate opcode `o` of shape `shape`, and why not.
fn usable(model: &Model, o: &Opcode, shape: ShapeId, func: usize) -> Result<(), String> {
    let f = &model.specs[func];
    for (name, t) in &f.params {
        let fine = match t {
            SpecTy::Inst(InstKind::Any) => true,
            SpecTy::Inst(InstKind::Shape(s)) => *s == shape,
            SpecTy::Enum(e) => Some(*e) == model.engine_enum || Some(*e) == model.version_enum,
            _ => false,
        };
        if !fine {
            return Err(format!(
                "validator `{}` of {}: parameter `{name}` is neither the instruction, the engine nor the core version",
                f.name, o.short
            ));
        }
    }
    if f.inst_param().is_none() {
        return Err(format!("validator `{}` takes no `Inst`", f.name));
    }
    // A shape-generic validator may read a common field this opcode's struct lacks.
    if let (Some(common), Some(j)) = (
        model.record_named(INST_COMMON),
        crate::model::spec::uncarried_common_field(model, shape, &f.common_reads),
    ) {
        return Err(format!(
            "validator `{}` of {} reads `i.common.{}`, which {} does not have",
            f.name,
            o.short,
            model.records[common].fields[j].name,
            model.records[model.shapes[shape].record].c_name
        ));
    }
    Ok(())
}

/// For a validator without an engine parameter, the one engine member it passes to the functions
/// it calls, if there is exactly one.
fn implied_engine(model: &Model, func: usize) -> Option<usize> {
    let f = &model.specs[func];
    let en = model.engine_enum?;
    if f.params.iter().any(|(_, t)| *t == SpecTy::Enum(en)) {
        return None;
    }
    let mut implied = Vec::new();
    collect_engine_args(&f.body, en, &mut implied);
    implied.sort();
    implied.dedup();
    match implied.as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

/// Engine members passed directly as call arguments in `e`.
fn collect_engine_args(e: &Expr, engine: EnumId, out: &mut Vec<usize>) {
    if let ExprKind::Call(_, args) = &e.kind {
        for a in args {
            if let ExprKind::Member(en, m) = a.kind {
                if en == engine {
                    out.push(m);
                }
            }
        }
    }
    for c in children(e) {
        collect_engine_args(c, engine, out);
    }
}
