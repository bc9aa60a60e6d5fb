//! The typed constructors of the instructions the tree places on an engine, with their docs (what
//! the validator fixes, the parameters by convention), and the `Default` of every typed
//! instruction (what its validator pins whatever the other fields hold).

use super::emitted::{computed_stmt, has_default, names};
use super::example::ctor_example;
use crate::emit::{ident, lit};
use crate::model::construct::{Construction, Ctor, ParamKind};
use crate::model::eval::{FieldPath, Step};
use crate::model::OpcodeId;
use crate::model::RecordId;
use crate::model::{Model, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The Rust type of a parameter.
pub(crate) fn param_type(model: &Model, kind: &ParamKind) -> TokenStream {
    match kind {
        ParamKind::Tensor { record, .. } => {
            let t = ident(&model.records[*record].rust);
            quote!(crate::#t)
        }
        ParamKind::Lanes { .. } => quote!(u8),
        ParamKind::Dtype { enum_id, .. } | ParamKind::Enum { enum_id, .. } => {
            let t = ident(&model.enums[*enum_id].rust);
            quote!(crate::#t)
        }
        ParamKind::Immediate { .. } => quote!(isa_core::Immediate),
        ParamKind::Fp32 { .. } => quote!(f32),
    }
}

fn field_place(model: &Model, shape_record: RecordId, k: usize) -> TokenStream {
    let f = ident(&crate::model::names::rust_field(
        &model.records[shape_record].fields[k].name,
    ));
    quote!(f.#f)
}

fn field_list(model: &Model, shape_record: RecordId, fields: &[usize]) -> String {
    fields
        .iter()
        .map(|k| format!("`{}`", model.records[shape_record].fields[*k].name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn value_text(model: &Model, shape_record: RecordId, p: &FieldPath, v: i128) -> String {
    match p.ty(model, shape_record) {
        Ty::Enum(e) => model.enums[e]
            .by_value(v)
            .map_or(v.to_string(), |m| m.short.clone()),
        _ if v >= 0x100 => format!("{v:#x}"),
        _ => v.to_string(),
    }
}

fn ctor_doc(model: &Model, c: &Construction, ctor: &Ctor) -> String {
    let o = &model.opcodes[c.opcode];
    let shape_record = model.shapes[o.shape.unwrap_or_default()].record;
    let gen = &model.generation;
    let (vname, vloc) = model
        .validator(c.opcode)
        .map(|v| {
            (
                model.specs[v.func].name.clone(),
                model.specs[v.func].loc.to_string(),
            )
        })
        .unwrap_or_default();
    let fields = &model.records[shape_record].fields;
    let mut d = match ctor.chosen.as_slice() {
        [] => format!("A legal `{}` on {gen}.", o.short),
        chosen => format!(
            "A legal `{}` on {gen} with {}.",
            o.short,
            chosen
                .iter()
                .filter_map(|(k, m)| match fields[*k].ty {
                    Ty::Enum(e) => Some(format!(
                        "`{} = {}`",
                        fields[*k].name, model.enums[e].members[*m].short
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if let Some(choice) = c.choices.first() {
        let e = &model.enums[choice.enum_id];
        let names = |ms: &[usize]| {
            ms.iter()
                .map(|m| format!("`{}`", e.members[*m].short))
                .collect::<Vec<_>>()
                .join(", ")
        };
        d.push_str(&format!(
            " The validator admits {} for `{}` and rejects {} whatever the other fields hold, so only the admitted members have a constructor.",
            names(&choice.legal),
            fields[choice.field].name,
            names(&choice.illegal)
        ));
    }
    let pins: Vec<String> = ctor
        .pins
        .iter()
        .filter(|(p, v)| {
            *v != 0 && !matches!(p.steps.first(), Some(Step::Field(_, k)) if ctor.chosen.iter().any(|(c, _)| c == k))
        })
        .map(|(p, v)| format!("`{} = {}`", p.name(model, shape_record), value_text(model, shape_record, p, *v)))
        .collect();
    d.push_str(&format!(
        "\n\nFixed by the header's validator `{vname}` ({vloc}), found by evaluating it with the opcode fixed and the other fields open: {}; every reserved byte it checks is zero.",
        if pins.is_empty() { "nothing but zeros".to_string() } else { pins.join(", ") }
    ));
    if !ctor.computed.is_empty() {
        d.push_str(&format!(
            " Computed from the parameters, as the validator requires: {}.",
            ctor.computed
                .iter()
                .map(|(p, e)| format!(
                    "`{} = {}`",
                    p.name(model, shape_record),
                    crate::model::eval::term_text(model, shape_record, e)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    d.push_str("\n\nParameters, by convention (`ARCHITECTURE.md`):");
    // A field with the header's comment on it: `name` (comment).
    let named = |k: usize| {
        let f = &fields[k];
        let comment = f
            .doc
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(|c| crate::emit::doc::strip_layout_note(c).trim());
        match comment {
            Some(c) if !c.is_empty() => format!("`{}` ({})", f.name, crate::emit::doc::doc_text(c)),
            _ => format!("`{}`", f.name),
        }
    };
    for p in &ctor.params {
        let what = match &p.kind {
            ParamKind::Tensor { field, rank, .. } => format!(
                "{}, a {rank}-D access pattern (`Tensor{rank}d::contiguous`, `with_steps`)",
                named(*field)
            ),
            ParamKind::Lanes { field } => named(*field),
            ParamKind::Dtype { field, .. } => named(*field),
            ParamKind::Immediate { src, value } => format!(
                "{} with its source `{}`: a value in the instruction, a pointer or a register",
                named(*value),
                fields[*src].name
            ),
            ParamKind::Enum { field, .. } => named(*field),
            ParamKind::Fp32 { field, index, .. } => format!(
                "`{}[{index}]` as fp32: the header documents the bounds of `UNIFORM_IN_RANGE` there, though the validator does not read them",
                fields[*field].name
            ),
        };
        d.push_str(&format!("\n* `{}`: {what}.", p.name));
    }
    if !ctor.unread.is_empty() {
        d.push_str(&format!(
            "\n\nLeft zero, because the validator does not read them under this choice: {}.",
            field_list(model, shape_record, &ctor.unread)
        ));
    }
    if !ctor.prefix_zero.is_empty() {
        d.push_str(if ctor.unread.is_empty() { "\n\n" } else { " " });
        d.push_str(&format!(
            "Left zero though the validator reads them: {} (no semaphore wait or update); set them on the result.",
            field_list(model, shape_record, &ctor.prefix_zero)
        ));
    }
    d.push_str("\n\nWhat the validator asks of the parameters' values (lane counts, addresses, element types and counts, distinct bounds, the executing engine) is checked by `validate`, not by the types.");
    d
}

pub(crate) fn constructor_fn(model: &Model, c: &Construction, ctor: &Ctor) -> TokenStream {
    let Some((_, shape_record, shape_rust)) = names(model, c.opcode) else {
        return quote!();
    };
    let sid = ident(&shape_rust);
    let fname = ident(&ctor.name);
    let params: Vec<TokenStream> = ctor
        .params
        .iter()
        .map(|p| {
            let n = ident(&p.name);
            let t = param_type(model, &p.kind);
            quote!(#n: #t)
        })
        .collect();
    let sets: Vec<TokenStream> = ctor
        .params
        .iter()
        .map(|p| {
            let n = ident(&p.name);
            match &p.kind {
                ParamKind::Tensor { field, .. }
                | ParamKind::Lanes { field }
                | ParamKind::Dtype { field, .. }
                | ParamKind::Enum { field, .. } => {
                    let place = field_place(model, shape_record, *field);
                    quote!(#place = #n;)
                }
                ParamKind::Immediate { src, value } => {
                    let (s, v) = (
                        field_place(model, shape_record, *src),
                        field_place(model, shape_record, *value),
                    );
                    quote!((#s, #v) = immediate(#n);)
                }
                ParamKind::Fp32 {
                    field,
                    index,
                    union,
                } => {
                    let place = field_place(model, shape_record, *field);
                    let i = lit(*index);
                    let ut = ident(&model.records[union.0].rust);
                    let ctor = ident(&format!(
                        "from_{}",
                        model.records[union.0].fields[union.1].name
                    ));
                    quote!(#place[#i] = crate::#ut::#ctor(#n);)
                }
            }
        })
        .collect();
    let pins: Vec<TokenStream> = ctor
        .pins
        .iter()
        .filter(|(_, v)| *v != 0)
        .filter_map(|(p, v)| {
            crate::emit::place::assign_in(model, shape_record, p, *v, &quote!(crate))
        })
        .collect();
    let computed: Vec<TokenStream> = ctor
        .computed
        .iter()
        .filter_map(|(p, e)| computed_stmt(model, shape_record, p, e))
        .collect();
    let doc = ctor_doc(model, c, ctor) + &ctor_example(model, c, ctor);
    let docs = crate::emit::doc::attrs(&doc);
    let many = if ctor.params.len() > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        quote!()
    };
    let body_mut = if sets.is_empty() && pins.is_empty() && computed.is_empty() {
        quote!(let f = crate::inst::#sid::ZEROED;)
    } else {
        quote!(let mut f = crate::inst::#sid::ZEROED;)
    };
    quote! {
        #docs
        #many
        pub fn #fname(#(#params),*) -> Self {
            #body_mut
            #(#sets)*
            #(#pins)*
            #(#computed)*
            Self(f)
        }
    }
}

pub(crate) fn default_impl(model: &Model, op: OpcodeId) -> TokenStream {
    let Some((name, shape_record, shape_rust)) = names(model, op) else {
        return quote!();
    };
    if !has_default(model, shape_record) {
        return quote!();
    }
    let inst = ident(&name);
    let sid = ident(&shape_rust);
    let o = &model.opcodes[op];
    let pins = model.constructions.default_pins(op);
    let stmts: Option<Vec<TokenStream>> = pins.map(|pins| {
        pins.iter()
            .filter(|(_, v)| *v != 0)
            .filter_map(|(p, v)| {
                crate::emit::place::assign_in(model, shape_record, p, *v, &quote!(crate))
            })
            .collect()
    });
    let complete = pins.is_some_and(|p| {
        p.iter().filter(|(_, v)| *v != 0).count() == stmts.as_ref().map_or(0, Vec::len)
    });
    let (doc, stmts) = match (pins, stmts, complete) {
        (Some(p), Some(stmts), true) => {
            let listed: Vec<String> = p
                .iter()
                .filter(|(_, v)| *v != 0)
                .map(|(q, v)| {
                    format!(
                        "`{} = {}`",
                        q.name(model, shape_record),
                        value_text(model, shape_record, q, *v)
                    )
                })
                .collect();
            (
                format!(
                    " What the validator of `{}` pins whatever the other fields hold ({}), every other field zero: not a valid instruction by itself (its operands are empty). The typed constructors build valid ones; this is the base for building one field by field.",
                    o.short,
                    if listed.is_empty() { "nothing but zeros".to_string() } else { listed.join(", ") }
                ),
                stmts,
            )
        }
        _ => (
            format!(
                " Every field zero: `{}` has no validator whose pins the generator could derive.",
                o.short
            ),
            Vec::new(),
        ),
    };
    let binding = if stmts.is_empty() {
        quote!(let f = crate::inst::#sid::ZEROED;)
    } else {
        quote!(let mut f = crate::inst::#sid::ZEROED;)
    };
    quote! {
        impl Default for crate::inst::#inst {
            #[doc = #doc]
            fn default() -> Self {
                #binding
                #(#stmts)*
                Self(f)
            }
        }
    }
}
