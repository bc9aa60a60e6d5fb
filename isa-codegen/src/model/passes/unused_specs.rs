//! Pass: the spec functions no instruction uses.
//!
//! Input: the parsed spec blocks, the translated functions, the validators (and the names of
//! those not translated) and the debug switch. Output: a warning per translated spec function
//! that is not a validator (any name a mapped opcode's validator is looked up by counts), not a
//! `<opcode>_legal_combinations` table, and not called (directly or through other functions,
//! translated or not) by one; calls are followed by name through the parsed blocks, so a helper
//! of a dropped validator is not reported as unused. An unused function of
//! `aws_neuron_isa_tpb_common.h`, the family's shared helper library (a generation without the
//! operand formats a helper serves leaves it unused by design), is a note instead
//! ([`Model::notes`](crate::model::Model::notes)).

use super::validators::conventional_names;
use crate::diag::{Diagnostic, Sink};
use crate::model::Model;
use crate::read::TreeInput;
use crate::vendor::{COMMON_HEADER, LEGALITY_SUFFIX};
use std::collections::{BTreeMap, BTreeSet};

/// Warns about the unused spec functions of `model`; returns the notes.
pub(super) fn check(
    model: &Model,
    input: &TreeInput,
    dropped_validators: &[String],
    sink: &mut Sink,
) -> Vec<Diagnostic> {
    let calls = calls_by_name(input);
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<String> = model
        .validators
        .iter()
        .map(|(_, v)| model.specs[v.func].name.clone())
        .chain(dropped_validators.iter().cloned())
        .chain(
            model
                .opcodes
                .iter()
                .filter_map(|o| Some(conventional_names(model, o, o.shape?)))
                .flatten(),
        )
        .chain(
            input
                .debug_switch
                .iter()
                .flatten()
                .map(|c| c.validator.clone()),
        )
        .chain(
            input
                .specs
                .iter()
                .map(|b| b.name())
                .filter(|n| n.ends_with(LEGALITY_SUFFIX)),
        )
        .collect();
    while let Some(name) = todo.pop() {
        if used.insert(name.clone()) {
            todo.extend(calls.get(&name).into_iter().flatten().cloned());
        }
    }
    let mut notes = Vec::new();
    for f in &model.specs {
        if used.contains(&f.name) {
            continue;
        }
        let what = format!(
            "spec function `{}` ({}) is not used by any instruction",
            f.name, f.loc
        );
        if f.loc.file == COMMON_HEADER {
            notes.push(Diagnostic::new(
                f.loc.clone(),
                format!("{what} (a shared helper of common.h)"),
            ));
        } else {
            sink.warn(f.loc.clone(), what);
        }
    }
    notes
}

/// The names every parsed spec block calls, by block name.
fn calls_by_name(input: &TreeInput) -> BTreeMap<String, Vec<String>> {
    struct Calls(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let syn::Expr::Path(p) = &*c.func {
                self.0.push(crate::read::cdecl::path_last(&p.path));
            }
            syn::visit::visit_expr_call(self, c);
        }
    }
    input
        .specs
        .iter()
        .map(|b| {
            let mut c = Calls(Vec::new());
            syn::visit::Visit::visit_block(&mut c, &b.item.block);
            (b.name(), c.0)
        })
        .collect()
}
