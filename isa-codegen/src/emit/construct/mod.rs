//! The `construct` module of a generated crate: the typed constructors of the instructions the
//! tree places on an engine (derived in [`crate::model::construct`]), their operands
//! (`TensorAddress`, `Tensor<n>d::contiguous` / `with_steps`, the `Immediate` conversion), the
//! `Default` of every typed instruction (what its validator pins whatever the other fields
//! hold), and the generation's `isa_core::construct::Construct` dispatch.
//!
//! Names the emitter assumes, each checked against the model (an item whose facts are missing
//! is left out): the address-map constants `STATE_BUF_OFFSET`, `STATE_BUF_PARTITION_SIZE`,
//! `PSUM_BUF_OFFSET`, `PSUM_BUF_PARTITION_SIZE`, `NUM_PARTITIONS`, `NUM_ADDR_REGISTERS` and
//! `ADDR4_MARKER_ADDR_REG`; the `ADDR4` union's `addr_immediate` (u32) and `addr_reg` (`regnum`,
//! `marker`) members; the parameter conventions of the model.
//!
//! One submodule per part: [`operands`] (`TensorAddress`, the tensor helpers, the immediate
//! conversion), [`constructors`] (the typed constructors and `Default`), [`dispatch`] (the
//! `Construct` impl), [`example`] (a constructor called with valid arguments), [`test_file`]
//! (`tests/constructors.rs`), all over [`emitted`] (what the emitter writes).

pub(crate) mod constructors;
pub(crate) mod dispatch;
pub(crate) mod emitted;
pub(crate) mod example;
pub(crate) mod generic;
pub(crate) mod operands;
pub(crate) mod test_file;

use crate::emit::{ident, Source};
use crate::model::construct::{immediate_forms, ParamKind};
use crate::model::Model;
use crate::model::ShapeId;
use constructors::{constructor_fn, default_impl};
use dispatch::dispatch;
use emitted::{cfg_of_opcode, emitted_constructions, names, writable};
use operands::{immediate_fn, tensor_address, tensor_helpers};
use quote::quote;

/// Why instructions of the family have no constructor (or lack one), for the report.
pub fn notes(model: &Model) -> Vec<String> {
    let mut out = Vec::new();
    for (op, why) in &model.constructions.missing {
        out.push(format!(
            "no typed constructor for {}: {why}",
            model.opcodes[*op].short
        ));
    }
    for c in &model.constructions.list {
        for why in &c.notes {
            out.push(format!("{}: {why}", model.opcodes[c.opcode].short));
        }
        for k in &c.ctors {
            if let Err(why) = writable(model, c, k) {
                out.push(format!(
                    "{}: no `{}`: {why}",
                    model.opcodes[c.opcode].short, k.name
                ));
            }
        }
    }
    if model.placement.is_none() {
        out.push("no typed constructors for the draw family: the tree has no engine placement (`neuron_isa_check_opcode_on_engine`) to say which instructions it models".into());
    }
    out
}

/// The `construct.rs` file.
pub fn emit(model: &Model) -> Source {
    let forms = &model.address_forms;
    let address = forms
        .as_ref()
        .map(|a| tensor_address(model, a))
        .unwrap_or_default();
    let helpers = if forms.is_some() {
        tensor_helpers(model)
    } else {
        quote!()
    };
    let emitted = emitted_constructions(model);
    // The operand shapes whose constructors take an immediate.
    let immediate_users: Vec<ShapeId> = emitted
        .iter()
        .filter(|(_, k)| {
            k.iter()
                .flat_map(|k| k.params.iter())
                .any(|p| matches!(p.kind, ParamKind::Immediate { .. }))
        })
        .filter_map(|(c, _)| model.opcodes[c.opcode].shape)
        .collect();
    let imm = match immediate_forms(model) {
        Some(f) if !immediate_users.is_empty() => immediate_fn(
            model,
            &f,
            &crate::emit::cfg_for_users(model, &immediate_users),
        ),
        _ => quote!(),
    };
    let defaults = model
        .validators
        .iter()
        .map(|(op, _)| *op)
        .chain(model.unvalidated.iter().map(|(op, _)| *op))
        .map(|op| crate::emit::with_cfg(&cfg_of_opcode(model, op), default_impl(model, op)));
    let ctors = emitted.iter().map(|(c, ks)| {
        let Some((name, _, _)) = names(model, c.opcode) else {
            return quote!();
        };
        let inst = ident(&name);
        let fns = ks.iter().map(|k| constructor_fn(model, c, k));
        let cfg = cfg_of_opcode(model, c.opcode);
        quote! {
            #cfg
            impl crate::inst::#inst {
                #(#fns)*
            }
        }
    });
    let dispatch = dispatch(model, &emitted);
    let generic = generic::emit(model, &emitted);
    Source::items(
        &crate::emit::banner(model, "typed constructors, their operands, and Default."),
        quote! {
            pub use isa_core::{AddressError, Immediate, TensorError};
            #address
            #helpers
            #imm
            #(#defaults)*
            #(#ctors)*
            #dispatch
            #generic
        },
    )
}
