//! Which shape each function's instruction parameter is bound to, and which fields of the common
//! prefix (`i.common`) each function reads, itself or through the functions it passes the
//! instruction to; the conflicts make a function untranslatable.

use super::{children, children_mut, Expr, ExprKind, InstKind, InstRoot, SpecFn, SpecTy};
use crate::diag::Loc;
use crate::model::Model;
use crate::model::ShapeId;

/// Settles which shape each function's `Inst` parameter is bound to: the shape it reads
/// directly, or the shape of a shape-bound function it passes the instruction to.
/// Returns the conflicts, as (function index, where, what): that function cannot be translated.
pub(super) fn infer_inst_kinds(model: &Model, fns: &mut [SpecFn]) -> Vec<(usize, Loc, String)> {
    let mut conflicts = Vec::new();
    fn direct(e: &Expr, out: &mut Vec<(ShapeId, u32)>) {
        if let ExprKind::Inst(_, InstRoot::Shape(s)) = e.kind {
            out.push((s, e.line));
        }
        for c in children(e) {
            direct(c, out);
        }
    }
    let at = |f: &SpecFn, line: u32| {
        Loc::new(
            f.loc.file.clone(),
            if line == 0 { f.loc.line } else { line },
        )
    };
    let n = fns.len();
    let mut kind: Vec<Option<ShapeId>> = vec![None; n];
    for (k, f) in fns.iter().enumerate() {
        let mut reads = Vec::new();
        direct(&f.body, &mut reads);
        // The first shape read binds the function; a read of another shape is reported where it is.
        if let Some(&(first, _)) = reads.first() {
            if let Some(&(other, line)) = reads.iter().find(|(s, _)| *s != first) {
                conflicts.push((
                    k,
                    at(f, line),
                    format!(
                        "`{}` reads through several shapes (`{}` and `{}`)",
                        f.name, model.shapes[first].member, model.shapes[other].member
                    ),
                ));
            }
        }
        kind[k] = reads.first().map(|(s, _)| *s);
    }
    // Propagate through calls until nothing changes.
    loop {
        let mut changed = false;
        for k in 0..n {
            for (c, line) in inst_calls(&fns[k].body) {
                if let Some(s) = kind[c] {
                    match kind[k] {
                        None => {
                            kind[k] = Some(s);
                            changed = true;
                        }
                        Some(t) if t != s => {
                            conflicts.push((
                                k,
                                at(&fns[k], line),
                                format!(
                                    "`{}` passes an instruction of shape `{}` to `{}`, which reads shape `{}`",
                                    fns[k].name, model.shapes[t].member, fns[c].name, model.shapes[s].member
                                ),
                            ));
                            kind[c] = None;
                        }
                        _ => {}
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for (k, f) in fns.iter_mut().enumerate() {
        let ik = kind[k].map_or(InstKind::Any, InstKind::Shape);
        for (_, t) in &mut f.params {
            if let SpecTy::Inst(_) = t {
                *t = SpecTy::Inst(ik);
            }
        }
    }
    retag_inst_args(fns);
    conflicts
}

/// For each function, the fields of `NEURON_ISA_TPB_INST_COMMON` it reads as `i.common.<field>`,
/// itself or in a function it passes the instruction to (indices into that record's fields,
/// ascending, without repeats).
pub(super) fn common_reads(fns: &[SpecFn]) -> Vec<Vec<usize>> {
    let mut reads: Vec<Vec<usize>> = fns
        .iter()
        .map(|f| {
            let mut at = Vec::new();
            direct_common_reads(&f.body, &mut at);
            at.into_iter().map(|(j, _)| j).collect()
        })
        .collect();
    // Through calls, until nothing changes (a call cycle settles too).
    loop {
        let mut changed = false;
        for k in 0..fns.len() {
            for (c, _) in inst_calls(&fns[k].body) {
                for j in reads[c].clone() {
                    if !reads[k].contains(&j) {
                        reads[k].push(j);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for r in &mut reads {
        r.sort_unstable();
        r.dedup();
    }
    reads
}

/// The fields of `i.common` that `e` reads directly: (field index, line), in reading order.
fn direct_common_reads(e: &Expr, out: &mut Vec<(usize, u32)>) {
    if let ExprKind::Field(base, _, k) = &e.kind {
        if matches!(base.kind, ExprKind::Inst(_, InstRoot::Common)) {
            out.push((*k, e.line));
        }
    }
    for c in children(e) {
        direct_common_reads(c, out);
    }
}

/// The calls in `e` that pass an instruction: (callee, line).
fn inst_calls(e: &Expr) -> Vec<(usize, u32)> {
    fn walk(e: &Expr, out: &mut Vec<(usize, u32)>) {
        if let ExprKind::Call(f, args) = &e.kind {
            if args.iter().any(|a| matches!(a.ty, SpecTy::Inst(_))) {
                out.push((*f, e.line));
            }
        }
        for c in children(e) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// The first field of `reads` (of `NEURON_ISA_TPB_INST_COMMON`) that shape `shape` does not
/// carry ([`Model::shape_carries_common`]).
pub fn uncarried_common_field(model: &Model, shape: ShapeId, reads: &[usize]) -> Option<usize> {
    let common = model.record_named(crate::vendor::INST_COMMON)?;
    reads
        .iter()
        .copied()
        .find(|&j| !model.shape_carries_common(shape, common, j))
}

/// Functions whose `i.common.<field>` reads no operand struct can serve: a shape-bound function
/// reading (itself or through a callee) a common field its shape does not carry, and a
/// shape-generic one reading a common field no shape carries. In C the read reinterprets other
/// bytes of the union; the generated code reads fields by name, so such a function is not
/// translated. Returns (function index, where, what), as [`infer_inst_kinds`] does.
pub(super) fn common_field_conflicts(model: &Model, fns: &[SpecFn]) -> Vec<(usize, Loc, String)> {
    let Some(common) = model.record_named(crate::vendor::INST_COMMON) else {
        return Vec::new();
    };
    let reads = common_reads(fns);
    let field = |j: usize| {
        let f = &model.records[common].fields[j];
        format!("`{}` at {}", f.name, f.offset)
    };
    let at = |f: &SpecFn, line: u32| {
        Loc::new(
            f.loc.file.clone(),
            if line == 0 { f.loc.line } else { line },
        )
    };
    let mut conflicts = Vec::new();
    for (k, f) in fns.iter().enumerate() {
        let mut direct = Vec::new();
        direct_common_reads(&f.body, &mut direct);
        match f.inst_kind() {
            Some(InstKind::Shape(s)) => {
                let member = &model.shapes[s].member;
                let record = &model.records[model.shapes[s].record].c_name;
                let missing = direct
                    .iter()
                    .find(|(j, _)| !model.shape_carries_common(s, common, *j))
                    .map(|&(j, line)| {
                        (
                            line,
                            format!(
                                "`{}` reads `i.common` field {} through shape `{member}`, and {record} has no such field",
                                f.name,
                                field(j)
                            ),
                        )
                    })
                    .or_else(|| {
                        inst_calls(&f.body).into_iter().find_map(|(c, line)| {
                            let j = uncarried_common_field(model, s, &reads[c])?;
                            Some((
                                line,
                                format!(
                                    "`{}` passes an instruction of shape `{member}` to `{}`, which reads `i.common` field {}, and {record} has no such field",
                                    f.name,
                                    fns[c].name,
                                    field(j)
                                ),
                            ))
                        })
                    });
                if let Some((line, why)) = missing {
                    conflicts.push((k, at(f, line), why));
                }
            }
            Some(InstKind::Any) => {
                let nowhere = direct.iter().find(|(j, _)| {
                    !ShapeId::all(model.shapes.len())
                        .any(|s| model.shape_carries_common(s, common, *j))
                });
                if let Some(&(j, line)) = nowhere {
                    conflicts.push((
                        k,
                        at(f, line),
                        format!(
                            "`{}` reads `i.common` field {}, which no operand struct has",
                            f.name,
                            field(j)
                        ),
                    ));
                }
            }
            None => {}
        }
    }
    conflicts
}

/// Argument and parameter expressions of type `Inst` carry the kind of their function.
fn retag_inst_args(fns: &mut [SpecFn]) {
    fn walk(e: &mut Expr, kind: Option<InstKind>) {
        if let (ExprKind::Param(_), SpecTy::Inst(_), Some(k)) = (&e.kind, &e.ty, kind) {
            e.ty = SpecTy::Inst(k);
        }
        for c in children_mut(e) {
            walk(c, kind);
        }
    }
    for f in fns.iter_mut() {
        let k = f.inst_kind();
        walk(&mut f.body, k);
    }
}
