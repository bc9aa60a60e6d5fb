//! Translation of a tree's spec blocks: each block on its own ([`super::translate`]), then the
//! blocks that cannot be translated dropped, with every function that calls one, until the
//! instruction parameters' shapes ([`super::inst_kinds`]) settle without a conflict.

use super::inst_kinds::{common_field_conflicts, common_reads, infer_inst_kinds};
use super::translate::{declaration_index, Resolver, Scope};
use super::{callees, children_mut, DroppedSpec, Expr, ExprKind, SpecFn};
use crate::diag::{Diagnostic, Sink};
use crate::model::Model;
use crate::read::spec::{SpecBlock, Unparsed};
use std::collections::BTreeMap;

/// Resolves every spec block of a tree against `model`.
///
/// A block outside the language (an unknown name, a form the language lacks, a type that does
/// not fit, a block the read stage could not parse, an instruction read through two shapes) is
/// dropped with a warning at its line, and so is every function that calls a dropped one,
/// transitively, with a warning naming the cause. Returns the translated functions, in source
/// order, and the dropped ones. `--strict` makes each warning an error.
pub fn resolve(
    model: &Model,
    blocks: &[SpecBlock],
    unparsed: &[Unparsed],
    sink: &mut Sink,
) -> (Vec<SpecFn>, Vec<DroppedSpec>) {
    let names: BTreeMap<String, usize> = blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.name(), k))
        .collect();
    let decls = declaration_index(model);
    let unparsed_names: BTreeMap<String, &Unparsed> = unparsed
        .iter()
        .filter_map(|u| Some((u.name.clone()?, u)))
        .collect();
    let mut r = Resolver {
        model,
        names: &names,
        decls: &decls,
        unparsed: &unparsed_names,
        errors: Vec::new(),
        missing: Vec::new(),
        sigs: Vec::new(),
    };
    let n = blocks.len();
    // Why each block is dropped: its own problems (diagnostics) or a callee that is.
    let mut own: Vec<Vec<Diagnostic>> = vec![Vec::new(); n];
    let mut via: Vec<Option<String>> = vec![None; n];
    // Signatures first: calls are checked against them.
    for (k, b) in blocks.iter().enumerate() {
        let sig = r.signature(b);
        own[k] = std::mem::take(&mut r.errors);
        r.sigs.push(sig);
    }
    let mut bodies: Vec<Option<SpecFn>> = vec![None; n];
    for (k, b) in blocks.iter().enumerate() {
        let Some((params, ret)) = r.sigs[k].clone() else {
            continue;
        };
        let scope = Scope {
            block: b,
            params: &params,
        };
        let body = r.block_body(&scope, &b.item.block, &ret);
        let errors = std::mem::take(&mut r.errors);
        let missing = std::mem::take(&mut r.missing);
        match body {
            Some(body) => {
                bodies[k] = Some(SpecFn {
                    name: b.name(),
                    params,
                    ret,
                    body,
                    loc: b.loc.clone(),
                    source: b.text.clone(),
                    common_reads: Vec::new(),
                })
            }
            None if !errors.is_empty() => own[k] = errors,
            None => via[k] = missing.into_iter().next(),
        }
    }
    let mut dropped: Vec<DroppedSpec> = Vec::new();
    let mut is_dropped = vec![false; n];
    for (k, b) in blocks.iter().enumerate() {
        if !own[k].is_empty() {
            for d in &own[k] {
                sink.warn(
                    d.loc.clone(),
                    format!(
                        "spec function `{}` is not translated: {}",
                        b.name(),
                        d.message
                    ),
                );
            }
            let first = &own[k][0];
            dropped.push(DroppedSpec {
                name: b.name(),
                loc: b.loc.clone(),
                reason: format!("{} ({})", first.message, first.loc),
            });
            is_dropped[k] = true;
        } else if bodies[k].is_none() {
            let callee = via[k].clone().unwrap_or_default();
            let (at, why) = match (names.get(&callee), unparsed_names.get(&callee)) {
                (Some(&c), _) => (blocks[c].loc.clone(), "is not translated"),
                (None, Some(u)) => (u.loc.clone(), "does not parse"),
                (None, None) => (b.loc.clone(), "is not translated"),
            };
            let reason = format!("it calls `{callee}` ({at}), which {why}");
            sink.warn(
                b.loc.clone(),
                format!("spec function `{}` is not translated: {reason}", b.name()),
            );
            dropped.push(DroppedSpec {
                name: b.name(),
                loc: b.loc.clone(),
                reason,
            });
            is_dropped[k] = true;
        }
    }
    // Callers of dropped functions go too, transitively.
    let mut kept: Vec<(usize, SpecFn)> = bodies
        .into_iter()
        .enumerate()
        .filter_map(|(k, f)| Some((k, f?)))
        .collect();
    loop {
        let before = kept.len();
        drop_callers(&mut kept, &mut is_dropped, blocks, &mut dropped, sink);
        let mut fns = reindex(&kept);
        let mut conflicts = infer_inst_kinds(model, &mut fns);
        if conflicts.is_empty() {
            conflicts = common_field_conflicts(model, &fns);
        }
        if conflicts.is_empty() && kept.len() == before {
            let reads = common_reads(&fns);
            for (f, reads) in fns.iter_mut().zip(reads) {
                f.common_reads = reads;
            }
            return (fns, dropped);
        }
        for (j, loc, message) in conflicts {
            let k = kept[j].0;
            if is_dropped[k] {
                continue;
            }
            sink.warn(
                loc.clone(),
                format!(
                    "spec function `{}` is not translated: {message}",
                    blocks[k].name()
                ),
            );
            dropped.push(DroppedSpec {
                name: blocks[k].name(),
                loc: blocks[k].loc.clone(),
                reason: format!("{message} ({loc})"),
            });
            is_dropped[k] = true;
        }
        kept.retain(|(k, _)| !is_dropped[*k]);
    }
}

/// Drops every kept function that calls a dropped one (calls hold block indices), to a fixpoint.
fn drop_callers(
    kept: &mut Vec<(usize, SpecFn)>,
    is_dropped: &mut [bool],
    blocks: &[SpecBlock],
    dropped: &mut Vec<DroppedSpec>,
    sink: &mut Sink,
) {
    loop {
        let mut changed = false;
        for (k, f) in kept.iter() {
            if is_dropped[*k] {
                continue;
            }
            let mut called = Vec::new();
            callees(&f.body, &mut called);
            if let Some(&c) = called.iter().find(|c| is_dropped[**c]) {
                let reason = format!(
                    "it calls `{}` ({}), which is not translated",
                    blocks[c].name(),
                    blocks[c].loc
                );
                sink.warn(
                    f.loc.clone(),
                    format!("spec function `{}` is not translated: {reason}", f.name),
                );
                dropped.push(DroppedSpec {
                    name: f.name.clone(),
                    loc: f.loc.clone(),
                    reason,
                });
                is_dropped[*k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    kept.retain(|(k, _)| !is_dropped[*k]);
}

/// The kept functions with their calls renumbered from block indices to list indices.
fn reindex(kept: &[(usize, SpecFn)]) -> Vec<SpecFn> {
    fn walk(e: &mut Expr, map: &BTreeMap<usize, usize>) {
        if let ExprKind::Call(f, _) = &mut e.kind {
            *f = map[f];
        }
        for c in children_mut(e) {
            walk(c, map);
        }
    }
    let map: BTreeMap<usize, usize> = kept.iter().enumerate().map(|(j, (k, _))| (*k, j)).collect();
    kept.iter()
        .map(|(_, f)| {
            let mut f = f.clone();
            walk(&mut f.body, &map);
            f
        })
        .collect()
}
