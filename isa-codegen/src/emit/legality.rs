//! The `legality` and `arm` modules: the derived legality tables as public data,
//! and the type-level layer generated from the same tables — marker types, a
//! sealed trait implemented only for legal arms (with the state width as a const
//! generic), and typed constructors that accept only legal arms.
//!
//! What the constructors write comes from the model: the arm's enum values, the
//! fields the opcode's validator pins under that arm (header length, reserved
//! bytes, ...), and the state tensor the element-count clause constrains. The
//! only names assumed here are the RNG checkpoint conventions the headers
//! document: the `num_active_channels` field, the `imm_state` inline words, the
//! `SRC_TENSOR` / `IMM_SINGLE` update modes, and the tensor descriptor fields
//! `start_addr` / `step_elem` / `num_elem`; a tree without them gets the tables
//! but no constructors.

use super::place::{assign, place, place_from};
use super::state_tensor::{
    sbuf_only_trait, state_space_bound, state_tensor, state_tensor_helpers, tensor_binding,
    TensorBinding,
};
use super::{banner, doc, ident, lit, Source};
use crate::model::eval::{FieldPath, Term};
use crate::model::legality::{ColumnSource, Table};
use crate::model::{EnumId, RecordId};
use crate::model::{Model, Ty};
use isa_core::vocab::{Algorithm, Engine, Generator, StateUpdate, VendorNames};
use isa_core::Firmware;
use proc_macro2::TokenStream;
use quote::quote;

/// Name of the `const` slice of a table (`RAND_SET_STATE_ARMS`).
pub fn table_const(model: &Model, t: &Table) -> String {
    format!("{}_ARMS", model.opcodes[t.opcode].short)
}

/// Name of the row struct of a table (`RandSetStateArm`).
pub fn row_struct(model: &Model, t: &Table) -> String {
    format!("{}Arm", model.opcodes[t.opcode].rust)
}

/// Name of the legality trait of a table (`LegalRandSetState`).
pub fn trait_name(model: &Model, t: &Table) -> String {
    format!("Legal{}", model.opcodes[t.opcode].rust)
}

/// Columns chosen by type (the arm key): every column but the state element type, which
/// each arm fixes.
pub fn key_columns(model: &Model, t: &Table) -> Vec<usize> {
    let dtype = model.enum_named(crate::vendor::DTYPE);
    (0..t.columns.len())
        .filter(|k| Some(t.columns[*k].enum_id) != dtype)
        .collect()
}

/// Marker type name of an enum member in the `arm` module.
pub fn marker_name(model: &Model, enum_id: EnumId, member: usize, clashes: &[String]) -> String {
    let e = &model.enums[enum_id];
    let m = &e.members[member];
    if clashes.contains(&m.rust) {
        format!("{}{}", e.rust, m.rust)
    } else {
        m.rust.clone()
    }
}

/// The marker types (`arm::X`) of arm `a`'s values in the key columns `key` of table `t`.
pub(crate) fn marker_types(
    model: &Model,
    t: &Table,
    key: &[usize],
    a: &crate::model::legality::Arm,
    clashes: &[String],
) -> Vec<TokenStream> {
    key.iter()
        .map(|c| {
            let n = ident(&marker_name(
                model,
                t.columns[*c].enum_id,
                a.values[*c],
                clashes,
            ));
            quote!(arm::#n)
        })
        .collect()
}

/// Enums whose members get markers, and marker names that two of them would share.
pub(crate) fn marker_enums(model: &Model) -> (Vec<EnumId>, Vec<String>) {
    let mut enums = Vec::new();
    for t in &model.tables {
        for k in key_columns(model, t) {
            let e = t.columns[k].enum_id;
            if !enums.contains(&e) {
                enums.push(e);
            }
        }
    }
    let mut seen: Vec<String> = Vec::new();
    let mut clashes = Vec::new();
    for &e in &enums {
        for m in model.enums[e].distinct() {
            if seen.contains(&m.rust) {
                clashes.push(m.rust.clone());
            }
            seen.push(m.rust.clone());
        }
    }
    (enums, clashes)
}

/// The name of `isa_core::arm`'s marker for a member, when the vocabulary has one: the
/// member's variant in the vocabulary enum that mirrors the member's C enum.
pub(crate) fn shared_marker(model: &Model, enum_id: EnumId, member: usize) -> Option<String> {
    fn find<V: VendorNames>(c_enum: &str, short: &str) -> Option<String> {
        (c_enum == V::VENDOR_ENUM)
            .then(|| V::from_name(short))
            .flatten()
            .map(|v| v.rust_name().to_string())
    }
    let e = &model.enums[enum_id];
    let short = &e.members[member].short;
    find::<Engine>(&e.c_name, short)
        .or_else(|| find::<Generator>(&e.c_name, short))
        .or_else(|| find::<Algorithm>(&e.c_name, short))
        .or_else(|| find::<StateUpdate>(&e.c_name, short))
}

fn member_of(model: &Model, enum_id: EnumId, member: usize) -> TokenStream {
    let e = &model.enums[enum_id];
    let t = ident(&e.rust);
    let v = ident(&e.members[member].rust);
    quote!(crate::#t::#v)
}

/// Markdown table of the arms (for rustdoc).
pub fn markdown(model: &Model, t: &Table, firmware: &dyn Fn(&Table, usize) -> Firmware) -> String {
    let mut out = String::new();
    let mut header: Vec<String> = t.columns.iter().map(|c| c.name.clone()).collect();
    header.push("words".into());
    let show_fw = t
        .arms
        .iter()
        .enumerate()
        .any(|(k, _)| firmware(t, k) != Firmware::Unknown);
    if show_fw {
        header.push("firmware".into());
    }
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for (k, arm) in t.arms.iter().enumerate() {
        let mut cells: Vec<String> = t
            .columns
            .iter()
            .zip(&arm.values)
            .map(|(c, m)| format!("`{}`", model.enums[c.enum_id].members[*m].short))
            .collect();
        cells.push(arm.words.to_string());
        if show_fw {
            cells.push(match firmware(t, k) {
                Firmware::Unknown => "?".into(),
                known => known.to_string(),
            });
        }
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// The state tensor of a table as a place on `inst`, its rank, and the Rust type of its start address.
pub fn tensor_path(model: &Model, t: &Table) -> Option<(TokenStream, usize, proc_macro2::Ident)> {
    let b = tensor_binding(model, t)?;
    let shape_record = model.shapes[t.shape].record;
    let (place, _) = place_from(model, shape_record, &b.tensor, quote!(inst));
    let Ty::Record(r) = b.tensor.ty(model, shape_record) else {
        return None;
    };
    let start = model.records[r]
        .fields
        .iter()
        .find(|f| f.name == crate::vendor::START_ADDR)?;
    let Ty::Record(a) = start.ty else { return None };
    Some((place, b.rank as usize, ident(&model.records[a].rust)))
}

/// The `Firmware` answer of `(engine, algorithm)` for opcode `t.opcode`, as a `match` over
/// `scrutinee` (a `(NeuronEngine, RandAlgorithm)` tuple expression): the wired and not-wired
/// entries of the tree's `rng-runtime.json` with their evidence level, anything else `Unknown`,
/// as is everything when the tree has no such data or the table no engine / algorithm column.
fn firmware_match(model: &Model, t: &Table, scrutinee: TokenStream) -> TokenStream {
    let (Some(rt), Some(engine), Some(algo)) = (
        &model.runtime,
        model.engine_enum.and_then(|e| t.column_of(e)),
        model
            .enum_named(crate::vendor::RAND_ALGORITHM)
            .and_then(|a| t.column_of(a)),
    ) else {
        return quote!({
            let _ = #scrutinee;
            isa_core::Firmware::Unknown
        });
    };
    let (ec, ac) = (&t.columns[engine], &t.columns[algo]);
    let entry = |w: &crate::model::runtime::WiredBody, answer: TokenStream| {
        let e = member_of(model, ec.enum_id, w.engine);
        let a = member_of(model, ac.enum_id, w.algorithm);
        let level = ident(isa_core::vocab::Vocabulary::rust_name(w.evidence));
        quote!((#e, #a) => isa_core::Firmware::#answer(isa_core::Evidence::#level),)
    };
    // A pair in both lists is an error of the runtime data, so the patterns never overlap.
    let arms: Vec<TokenStream> = (rt.wired.iter().map(|w| (w, quote!(Wired))))
        .chain(rt.not_wired.iter().map(|w| (w, quote!(NotWired))))
        .filter(|(w, _)| w.opcode == t.opcode)
        .map(|(w, answer)| entry(w, answer))
        .collect();
    if arms.is_empty() {
        return quote!({
            let _ = #scrutinee;
            isa_core::Firmware::Unknown
        });
    }
    quote! {
        match #scrutinee {
            #(#arms)*
            _ => isa_core::Firmware::Unknown,
        }
    }
}

/// Which `firmware` answers [`firmware_fn`] writes for table `t`: the row's, and the
/// instruction's (by engine).
pub(crate) fn firmware_fns(model: &Model, t: &Table) -> (bool, bool) {
    let engine = model.engine_enum.and_then(|e| t.column_of(e));
    let algorithm = model
        .enum_named(crate::vendor::RAND_ALGORITHM)
        .and_then(|a| t.column_of(a));
    match (&model.instruction_names[t.opcode], engine, algorithm) {
        (Some(_), Some(_), Some(a)) => match &t.columns[a].source {
            ColumnSource::Field(_) => (true, true),
            ColumnSource::Param(_) => (false, false),
        },
        _ => (true, false),
    }
}

/// `firmware()` on a row and `firmware(engine)` on the typed instruction: whether the firmware
/// ships a body for the (engine, algorithm), with the evidence level, from the tree's
/// `rng-runtime.json`.
fn firmware_fn(model: &Model, t: &Table) -> TokenStream {
    let row = ident(&row_struct(model, t));
    let source = if model.runtime.is_some() {
        format!("`headers/{}/rng-runtime.json`", model.tree_name)
    } else {
        "nothing: this tree has no `rng-runtime.json`, so every answer is `Unknown`".to_string()
    };
    let columns = (
        model.engine_enum.and_then(|e| t.column_of(e)),
        model
            .enum_named(crate::vendor::RAND_ALGORITHM)
            .and_then(|a| t.column_of(a)),
    );
    let row_scrutinee = match columns {
        (Some(e), Some(a)) => {
            let (en, an) = (ident(&t.columns[e].name), ident(&t.columns[a].name));
            quote!((self.#en, self.#an))
        }
        _ => quote!(()),
    };
    let row_body = firmware_match(model, t, row_scrutinee);
    let row_doc = format!(
        " Whether the firmware ships a body for this arm's (engine, algorithm), and how strongly that is known (the runtime-wired set, distinct from validator legality), from {source}."
    );
    let names = &model.instruction_names;
    let shape_record = model.shapes[t.shape].record;
    let inst_fn = match (&names[t.opcode], columns, model.engine_enum) {
        (Some(name), (Some(_), Some(a)), Some(engine_enum)) => {
            let ColumnSource::Field(path) = &t.columns[a].source else {
                return quote!();
            };
            let inst = ident(name);
            let et = ident(&model.enums[engine_enum].rust);
            let (algo, _) = place_from(model, shape_record, path, quote!(self.0));
            let body = firmware_match(model, t, quote!((engine, #algo)));
            let d = format!(
                " Whether the firmware ships a body for this instruction's `{}` on `engine`, and how strongly that is known, from {source}. Independent of validity: see `validate` for that.",
                t.columns[a].name
            );
            quote! {
                impl crate::inst::#inst {
                    #[doc = #d]
                    pub const fn firmware(&self, engine: crate::#et) -> isa_core::Firmware { #body }
                }
            }
        }
        _ => quote!(),
    };
    quote! {
        impl #row {
            #[doc = #row_doc]
            pub const fn firmware(&self) -> isa_core::Firmware { #row_body }
        }
        #inst_fn
    }
}

/// The `legality` module (tables, traits, constructors) and the `arm` module (markers).
pub fn emit(model: &Model, firmware: &dyn Fn(&Table, usize) -> Firmware) -> (Source, Source) {
    let (marker_enums, clashes) = marker_enums(model);
    let mut items = vec![state_tensor(model)];
    // A tuple of markers two tables share is sealed once.
    let mut sealed_tuples: Vec<String> = Vec::new();
    for t in &model.tables {
        // Everything of a table but the (shared) sealing of its marker tuples is compiled with
        // the table's operand shape.
        let cfg = super::cfg_for_shape(model, t.shape);
        items.push(super::with_cfg(&cfg, arm_table(model, t, firmware)));
        items.extend(legal_trait(model, t, &clashes, &mut sealed_tuples));
        items.extend(sbuf_only_trait(model, t).map(|(_, item)| item));
        let key = key_columns(model, t);
        items.push(super::with_cfg(
            &cfg,
            constructors(model, t, &key, &clashes),
        ));
        items.push(super::construct::generic::arms(model, t, &key));
    }
    let legality = Source::items(
        &banner(model, "derived legality tables and the type-level layer."),
        quote!(#(#items)*),
    );
    let arm = Source::items(
        &banner(model, "marker types of the type-level legality layer."),
        arm_module(model, &marker_enums, &clashes),
    );
    (legality, arm)
}

/// The `arm` module: the sealing trait, and per enum of an arm key a marker trait and one
/// marker type per member.
fn arm_module(model: &Model, marker_enums: &[EnumId], clashes: &[String]) -> TokenStream {
    let gen = &model.generation;
    let mut marker_items = Vec::new();
    for &e in marker_enums {
        let en = &model.enums[e];
        let tr = ident(&format!("{}Marker", en.rust));
        let et = ident(&en.rust);
        let d = format!(" A type standing for a member of `{}` ({gen}).", en.c_name);
        marker_items.push(quote! {
            #[doc = #d]
            pub trait #tr: sealed::Sealed {
                /// The member this type stands for.
                const VALUE: crate::#et;
            }
        });
        for (k, m) in en
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.alias_of.is_none())
        {
            let marker = marker_name(model, e, k, clashes);
            let name = ident(&marker);
            let v = member_of(model, e, k);
            // A member the vocabulary names is its shared marker, so generic code names it once
            // for every generation; any other member gets a marker of this crate.
            let declare = if shared_marker(model, e, k).as_deref() == Some(marker.as_str()) {
                quote!(pub use isa_core::arm::#name;)
            } else {
                let d = format!(" Marker for `{}` ({gen}).", m.c_name);
                quote! {
                    #[doc = #d]
                    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                    pub struct #name;
                }
            };
            marker_items.push(quote! {
                #declare
                impl sealed::Sealed for #name {}
                impl #tr for #name { const VALUE: crate::#et = #v; }
            });
        }
    }
    if let Some(engine) = model.engine_enum {
        marker_items.push(super::vocab::conversions::<Engine>(model, engine));
    }
    // Without a legality table nothing is sealed; keep the module so paths stay stable.
    let unused = if model.tables.is_empty() {
        quote!(#[allow(dead_code)])
    } else {
        quote!()
    };
    quote! {
        pub(crate) mod sealed {
            /// Seals the legality traits: only this crate implements them.
            #unused
            pub trait Sealed {}
        }
        #(#marker_items)*
    }
}

/// The table of `t` as public data: its row struct, the `const` slice of its arms, and the
/// firmware answer of a row and of the instruction.
fn arm_table(
    model: &Model,
    t: &Table,
    firmware: &dyn Fn(&Table, usize) -> Firmware,
) -> TokenStream {
    let gen = &model.generation;
    let o = &model.opcodes[t.opcode];
    let shape_record = model.shapes[t.shape].record;
    let row = ident(&row_struct(model, t));
    let konst = ident(&table_const(model, t));
    let fname = &model.specs[t.func].name;
    let floc = &model.specs[t.func].loc;
    let fields = t.columns.iter().map(|c| {
        let name = ident(&c.name);
        let ty = ident(&model.enums[c.enum_id].rust);
        let d = match &c.source {
            ColumnSource::Param(_) => " The executing engine.".to_string(),
            ColumnSource::Field(p) => format!(" Field `{}`.", p.name(model, shape_record)),
        };
        quote! { #[doc = #d] pub #name: crate::#ty, }
    });
    // Rows are `Row::new(values.., words)` with the column enums' variants in scope; a
    // variant two of them share is written in full.
    let mut col_enums: Vec<EnumId> = t.columns.iter().map(|c| c.enum_id).collect();
    col_enums.sort();
    col_enums.dedup();
    let shared = |name: &str| {
        col_enums
            .iter()
            .filter(|e| model.enums[**e].members.iter().any(|m| m.rust == name))
            .count()
            > 1
    };
    let globs = col_enums.iter().map(|e| {
        let t = ident(&model.enums[*e].rust);
        quote!(use crate::#t::*;)
    });
    let rows = t.arms.iter().map(|a| {
        let vals = t.columns.iter().zip(&a.values).map(|(c, m)| {
            let member = &model.enums[c.enum_id].members[*m];
            if shared(&member.rust) {
                member_of(model, c.enum_id, *m)
            } else {
                let v = ident(&member.rust);
                quote!(#v)
            }
        });
        let words = lit(a.words);
        quote! { #row::new(#(#vals,)* #words) }
    });
    let params = t.columns.iter().map(|c| {
        let name = ident(&c.name);
        let ty = ident(&model.enums[c.enum_id].rust);
        quote!(#name: crate::#ty)
    });
    let names = t.columns.iter().map(|c| ident(&c.name));
    let table_md = markdown(model, t, firmware);
    let row_doc = format!(
        " One legal arm of `{}` on {gen}: the inputs of `{fname}` and the state width in u32 words (`{}`).",
        o.short, t.count_text
    );
    let names_inst = &model.instruction_names;
    let konst_doc = match &names_inst[t.opcode] {
        // The table is shown once, on the instruction.
        Some(inst) => format!(
            "The legal arms of `{}` on {gen} (shown on [`crate::{inst}`]), derived by evaluating `{fname}` ({floc}) over every value of its enum inputs; `words` solves its element-count clause `{} == N`.",
            o.short, t.count_text
        ),
        None => format!(
            "The legal arms of `{}` on {gen}, derived by evaluating `{fname}` ({floc}) over every value of its enum inputs; `words` solves its element-count clause `{} == N`.\n\n{table_md}",
            o.short, t.count_text
        ),
    };
    let konst_docs = doc::attrs(&konst_doc);
    let wired = firmware_fn(model, t);
    quote! {
        #[doc = #row_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct #row { #(#fields)* /// State words per partition.
            pub words: u32, }
        impl #row {
            /// The row with these column values and width.
            #[allow(clippy::too_many_arguments)]
            pub const fn new(#(#params,)* words: u32) -> Self {
                Self { #(#names,)* words }
            }
        }
        #konst_docs
        pub const #konst: &[#row] = {
            #(#globs)*
            &[#(#rows),*]
        };
        #wired
    }
}

/// What every arm of a table pins the same way: its columns (from the row), its width into the
/// element count when that is one field, and the fields every arm pins to one value.
struct CommonPins<'a> {
    /// The paths of the columns read from a field.
    column_paths: Vec<&'a FieldPath>,
    /// The fields every arm pins to the same value (not a column, not the count).
    common: Vec<(FieldPath, i128)>,
    /// The count field and its statement, when every arm pins it to its width.
    count_pin: Option<(FieldPath, TokenStream)>,
    /// The statements writing the columns, the count and the common fields.
    statements: Vec<TokenStream>,
}

fn common_pins<'a>(model: &Model, t: &'a Table) -> CommonPins<'a> {
    let shape_record = model.shapes[t.shape].record;
    let column_paths: Vec<&FieldPath> = t
        .columns
        .iter()
        .filter_map(|c| match &c.source {
            ColumnSource::Field(p) => Some(p),
            ColumnSource::Param(_) => None,
        })
        .collect();
    let count_path = |a: &crate::model::legality::Arm| match &a.count {
        Term::Read(p) => Some(p.canonical(model, shape_record)),
        _ => None,
    };
    let common: Vec<(FieldPath, i128)> = t
        .arms
        .first()
        .map(|a0| {
            a0.pinned
                .iter()
                .filter(|(p, v)| {
                    !column_paths.contains(&p)
                        && t.arms.iter().all(|a| a.pinned.contains(&(p.clone(), *v)))
                        && t.arms.iter().all(|a| count_path(a).as_ref() != Some(p))
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let mut statements: Vec<TokenStream> = t
        .columns
        .iter()
        .filter_map(|c| {
            let ColumnSource::Field(p) = &c.source else {
                return None;
            };
            let (place, union) = place(model, shape_record, &p.canonical(model, shape_record));
            let name = ident(&c.name);
            union.is_none().then(|| quote!(#place = r.#name;))
        })
        .collect();
    let count_pin = t.arms.first().and_then(count_path).and_then(|p| {
        let Ty::Prim(prim) = p.ty(model, shape_record) else {
            return None;
        };
        let all = t.arms.iter().all(|a| {
            count_path(a).as_ref() == Some(&p)
                && a.pinned.contains(&(p.clone(), i128::from(a.words)))
        });
        let (place, union) = place(model, shape_record, &p);
        let ty = super::ty::prim(prim);
        (all && union.is_none()).then(|| (p.clone(), quote!(#place = r.words as #ty;)))
    });
    if let Some((_, pin)) = &count_pin {
        statements.push(pin.clone());
    }
    // Constructors start from the all-zero encoding: only non-zero values need writing.
    statements.extend(
        common
            .iter()
            .filter(|(_, v)| *v != 0)
            .filter_map(|(p, v)| assign(model, shape_record, p, *v)),
    );
    CommonPins {
        column_paths,
        common,
        count_pin,
        statements,
    }
}

/// The sealed legality trait of table `t`, its pin function, and one impl per arm (sealing the
/// arm's marker tuple unless `sealed_tuples` says another table did).
fn legal_trait(
    model: &Model,
    t: &Table,
    clashes: &[String],
    sealed_tuples: &mut Vec<String>,
) -> Vec<TokenStream> {
    let gen = &model.generation;
    let cfg = super::cfg_for_shape(model, t.shape);
    let o = &model.opcodes[t.opcode];
    let shape = &model.shapes[t.shape];
    let row = ident(&row_struct(model, t));
    let key = key_columns(model, t);
    let trait_id = ident(&trait_name(model, t));
    let arm_list: Vec<String> = t
        .arms
        .iter()
        .map(|a| {
            let names: Vec<String> = key
                .iter()
                .map(|k| marker_name(model, t.columns[*k].enum_id, a.values[*k], clashes))
                .collect();
            format!("({}) -> {}", names.join(", "), a.words)
        })
        .collect();
    let key_names: Vec<&str> = key.iter().map(|k| t.columns[*k].name.as_str()).collect();
    let message = format!(
        "`{{Self}}` is not a legal {} arm on {gen} (state width {{N}})",
        o.short
    );
    let label = format!(
        "not a legal ({}) arm of {} on {gen}",
        key_names.join(", "),
        o.short
    );
    let note = format!(
        "legal {} arms on {gen} (arm -> words): {}",
        o.short,
        arm_list.join("; ")
    );
    let trait_doc = format!(
        " Implemented exactly for the legal ({}) arms of `{}` on {gen}, with the arm's state width `N`: a constructor bounded by it accepts nothing else, at compile time. Sealed.",
        key_names.join(", "),
        o.short
    );
    let sid = ident(&shape.rust);
    let pins = common_pins(model, t);
    let row_pins = &pins.statements;
    let pin_fn = ident(&format!("pin_{}", o.short.to_ascii_lowercase()));
    let mut items = vec![quote! {
        #cfg
        /// Writes what every arm pins the same way: its columns, its width, the fixed fields.
        fn #pin_fn(f: &mut crate::inst::#sid, r: &#row) { #(#row_pins)* }
        #cfg
        #[doc = #trait_doc]
        #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
        pub trait #trait_id<const N: usize>: crate::arm::sealed::Sealed {
            /// The arm's row of the table.
            const ARM: #row;
            /// Writes the fields the validator pins under this arm.
            fn pin(f: &mut crate::inst::#sid) { #pin_fn(f, &Self::ARM) }
        }
    }];
    for k in 0..t.arms.len() {
        items.push(arm_impl(model, t, k, &key, clashes, &pins, sealed_tuples));
    }
    items
}

/// The impl of table `t`'s legality trait for arm `k` (its marker tuple and width), writing what
/// the arm pins beyond the common pins.
fn arm_impl(
    model: &Model,
    t: &Table,
    k: usize,
    key: &[usize],
    clashes: &[String],
    pins: &CommonPins,
    sealed_tuples: &mut Vec<String>,
) -> TokenStream {
    let cfg = super::cfg_for_shape(model, t.shape);
    let o = &model.opcodes[t.opcode];
    let shape = &model.shapes[t.shape];
    let shape_record = shape.record;
    let sid = ident(&shape.rust);
    let row = ident(&row_struct(model, t));
    let konst = ident(&table_const(model, t));
    let trait_id = ident(&trait_name(model, t));
    let pin_fn = ident(&format!("pin_{}", o.short.to_ascii_lowercase()));
    let a = &t.arms[k];
    let tys = marker_types(model, t, key, a, clashes);
    let tuple = quote!((#(#tys,)*));
    let n = lit(a.words);
    let kk = lit(k as u64);
    // What this arm pins beyond the common pins (constructors start from the all-zero
    // encoding: only non-zero values need writing).
    let extra: Vec<TokenStream> = a
        .pinned
        .iter()
        .filter(|(p, v)| {
            *v != 0
                && !pins.column_paths.contains(&p)
                && !pins.common.iter().any(|(q, _)| q == p)
                && pins.count_pin.as_ref().map(|(q, _)| q) != Some(p)
        })
        .filter_map(|(p, v)| assign(model, shape_record, p, *v))
        .collect();
    let pin = if extra.is_empty() {
        quote!()
    } else {
        quote! {
            fn pin(f: &mut crate::inst::#sid) {
                #pin_fn(f, &Self::ARM);
                #(#extra)*
            }
        }
    };
    let sealed = if sealed_tuples.contains(&tuple.to_string()) {
        quote!()
    } else {
        sealed_tuples.push(tuple.to_string());
        quote! { impl crate::arm::sealed::Sealed for #tuple {} }
    };
    quote! {
        #sealed
        // Keeps rustc from listing every other arm's impl under a legality error:
        // the on_unimplemented note already lists them.
        #cfg
        #[diagnostic::do_not_recommend]
        impl #trait_id<#n> for #tuple {
            const ARM: #row = #konst[#kk];
            #pin
        }
    }
}

/// A typed constructor of the instruction of a legality table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctor {
    /// `save(dst, num_active_channels)` (a table without an update column).
    Save,
    /// `restore(src, num_active_channels)` (`SRC_TENSOR` arms).
    Restore,
    /// `seed_immediate(state, num_active_channels)` (`IMM_SINGLE` arms).
    SeedImmediate,
}

/// The update column of a table's arm key, if any.
pub(crate) fn update_column(model: &Model, t: &Table, key: &[usize]) -> Option<usize> {
    key.iter()
        .copied()
        .find(|k| model.enums[t.columns[*k].enum_id].c_name == crate::vendor::RAND_STATE_UPDATE)
}

/// The member of the update column's enum named `short`, when some arm of the table uses it.
pub(crate) fn update_member(model: &Model, t: &Table, uc: usize, short: &str) -> Option<usize> {
    let m = model.enums[t.columns[uc].enum_id]
        .members
        .iter()
        .position(|m| m.short == short)?;
    t.arms.iter().any(|a| a.values[uc] == m).then_some(m)
}

/// The `imm_state` field (`u32` words) of a shape, if it has one.
fn imm_state_field(model: &Model, shape_record: RecordId) -> Option<&crate::model::Field> {
    model.records[shape_record].fields.iter().find(|f| {
        f.name == crate::vendor::IMM_STATE
            && matches!(&f.ty, Ty::Array(inner, _) if **inner == Ty::Prim(crate::model::Prim::U32))
    })
}

/// The typed constructors [`constructors`] emits for table `t` (the doc examples use them too).
pub(crate) fn ctors(model: &Model, t: &Table) -> Vec<Ctor> {
    let shape_record = model.shapes[t.shape].record;
    let has_channels = model.records[shape_record]
        .fields
        .iter()
        .any(|f| f.name == crate::vendor::LANES && f.ty == Ty::Prim(crate::model::Prim::U8));
    if model.instruction_names[t.opcode].is_none()
        || tensor_binding(model, t).is_none()
        || !has_channels
        || !super::ty::zero_decodable(model, &Ty::Record(shape_record))
    {
        return Vec::new();
    }
    match update_column(model, t, &key_columns(model, t)) {
        None => vec![Ctor::Save],
        Some(uc) => {
            let mut out = Vec::new();
            if update_member(model, t, uc, crate::vendor::SRC_TENSOR).is_some() {
                out.push(Ctor::Restore);
            }
            // `seed_immediate` points the (unused) tensor at address 0 through `StateTensor::at`.
            if update_member(model, t, uc, crate::vendor::IMM_SINGLE).is_some()
                && imm_state_field(model, shape_record).is_some()
                && state_tensor_helpers(model).0
            {
                out.push(Ctor::SeedImmediate);
            }
            out
        }
    }
}

/// A type parameter of the typed constructors for key column `k`, with its marker bound:
/// `rand_generator` → `Generator: crate::arm::RandSrcMarker` (the column's last word names it).
pub(crate) fn type_param(model: &Model, t: &Table, k: usize) -> (proc_macro2::Ident, TokenStream) {
    let name = &t.columns[k].name;
    let last = name.rsplit('_').next().unwrap_or(name);
    let id = ident(&crate::model::names::camel(last));
    let marker = ident(&format!("{}Marker", model.enums[t.columns[k].enum_id].rust));
    let bound = quote!(#id: crate::arm::#marker);
    (id, bound)
}

/// The statements writing the constructor's `src: StateTensor<N>` into the tensor field the
/// arm's element count binds: its start address and step, `N` elements, 1 in the other ranks.
fn fill_state_tensor(
    model: &Model,
    shape_record: RecordId,
    binding: &TensorBinding,
) -> TokenStream {
    let (tensor_place, _) = place(model, shape_record, &binding.tensor);
    let ones: Vec<TokenStream> = (1..binding.rank as usize).map(|_| quote!(1)).collect();
    quote! {
        #tensor_place.start_addr = src.start_addr;
        #tensor_place.step_elem = [src.step #(, #ones)*];
        #tensor_place.num_elem = [N as u16 #(, #ones)*];
    }
}

/// The engine parameter among a checkpoint constructor's type parameters `params`, when the arm
/// has one, and what it makes of the constructor: its return type, the expression wrapping the
/// built word `f`, and the sentence its rustdoc adds (the word comes tagged with its engine).
fn engine_tag(
    model: &Model,
    t: &Table,
    params: &[(usize, proc_macro2::Ident)],
) -> (
    Option<proc_macro2::Ident>,
    TokenStream,
    TokenStream,
    &'static str,
) {
    let engine_param = params
        .iter()
        .find(|(k, _)| Some(t.columns[*k].enum_id) == model.engine_enum)
        .map(|(_, id)| id.clone());
    match &engine_param {
        Some(e) => {
            let (ret, wrap) = (
                quote!(isa_core::OnEngine<Self, #e>),
                quote!(isa_core::OnEngine::new(Self(f))),
            );
            (
                engine_param.clone(),
                ret,
                wrap,
                " The word comes tagged with its engine (`isa_core::OnEngine`): `validate()` runs the validator on that engine, `into_inner()` gives the engine-free word.",
            )
        }
        None => (None, quote!(Self), quote!(Self(f)), ""),
    }
}

/// The arm tuple of a constructor: per key column its type parameter from `params`, the update
/// column (if any) replaced by the marker `fixed` the constructor pins.
fn arm_tuple(
    key: &[usize],
    update_col: Option<usize>,
    params: &[(usize, proc_macro2::Ident)],
    fixed: Option<TokenStream>,
) -> TokenStream {
    let parts = key.iter().map(|k| {
        if Some(*k) == update_col {
            fixed.clone().expect("update column fixed")
        } else {
            let id = &params.iter().find(|(c, _)| c == k).expect("param").1;
            quote!(#id)
        }
    });
    quote!((#(#parts,)*))
}

/// The typed constructors of table `t`'s instruction ([`ctors`]), with `LEGAL_ARMS`.
fn constructors(model: &Model, t: &Table, key: &[usize], clashes: &[String]) -> TokenStream {
    let kinds = ctors(model, t);
    let o = &model.opcodes[t.opcode];
    let shape = &model.shapes[t.shape];
    let shape_record = shape.record;
    let names = &model.instruction_names;
    let (Some(inst_name), Some(binding)) = (&names[t.opcode], tensor_binding(model, t)) else {
        return quote!();
    };
    if kinds.is_empty() {
        return quote!();
    }
    let inst = ident(inst_name);
    let sid = ident(&shape.rust);
    let trait_id = ident(&trait_name(model, t));
    let fill_tensor = fill_state_tensor(model, shape_record, &binding);
    // Type parameters: one per key column, bounded by its marker trait (so the signature says
    // what each accepts); the update column (if any) is fixed per constructor.
    let update_col = update_column(model, t, key);
    let params: Vec<(usize, proc_macro2::Ident)> = key
        .iter()
        .filter(|k| Some(**k) != update_col)
        .map(|k| (*k, type_param(model, t, *k).0))
        .collect();
    let generic_names: Vec<TokenStream> = params
        .iter()
        .map(|(k, _)| type_param(model, t, *k).1)
        .collect();
    let tuple_for = |fixed: Option<TokenStream>| arm_tuple(key, update_col, &params, fixed);
    let (engine_param, ret, wrap, tag_note) = engine_tag(model, t, &params);
    let gen = &model.generation;
    let (space_bound, space_note) = state_space_bound(model, t);
    let arm_note = format!(
        "\n\n The arm is the type parameters ({}); an illegal arm or a wrong `N` does not compile.{tag_note}",
        params
            .iter()
            .map(|(k, _)| t.columns[*k].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    // One constructor: its name, its state argument, what it does (the doc's first sentence),
    // the marker of the update column it fixes, and the statements before and after the common
    // writes (the tensor, the partition count).
    let ctor_fn = |name: &str,
                   arg: TokenStream,
                   what: String,
                   fixed: Option<TokenStream>,
                   before: TokenStream,
                   after: TokenStream| {
        let fname = ident(name);
        let tuple = tuple_for(fixed);
        let d = format!(" A legal `{}` on {gen}{what}{arm_note}", o.short);
        let d = if name == "seed_immediate" {
            d
        } else {
            format!("{d}{space_note}")
        };
        quote! {
            #[doc = #d]
            pub fn #fname<#(#generic_names,)* const N: usize>(#arg, num_active_channels: u8) -> #ret
            where #tuple: crate::legality::#trait_id<N>
            {
                #before
                #fill_tensor
                f.num_active_channels = num_active_channels;
                #after
                <#tuple as crate::legality::#trait_id<N>>::pin(&mut f);
                #wrap
            }
        }
    };
    let zeroed = quote!(let mut f = crate::inst::#sid::ZEROED;);
    let mut fns = Vec::new();
    match update_col {
        None => fns.push(ctor_fn(
            "save",
            quote!(dst: crate::StateTensor<N, impl #space_bound>),
            ": saves the arm's `N` state words per partition into `dst` for `num_active_channels` partitions.".into(),
            None,
            quote!(let src = dst; #zeroed),
            quote!(),
        )),
        Some(uc) => {
            let en = t.columns[uc].enum_id;
            let marker = |m: usize| {
                let marker = ident(&marker_name(model, en, m, clashes));
                Some(quote!(crate::arm::#marker))
            };
            if let Some(m) = update_member(model, t, uc, crate::vendor::SRC_TENSOR) {
                if kinds.contains(&Ctor::Restore) {
                    fns.push(ctor_fn(
                        "restore",
                        quote!(src: crate::StateTensor<N, impl #space_bound>),
                        " restoring from a tensor (`SRC_TENSOR`): the arm's `N` state words per partition read from `src` for `num_active_channels` partitions.".into(),
                        marker(m),
                        zeroed.clone(),
                        quote!(),
                    ));
                }
            }
            let imm = imm_state_field(model, shape_record);
            if let (Some(m), Some(imm)) =
                (update_member(model, t, uc, crate::vendor::IMM_SINGLE), imm)
            {
                if kinds.contains(&Ctor::SeedImmediate) {
                    let cap = match &imm.ty {
                        Ty::Array(_, n) => lit(*n),
                        _ => lit(0),
                    };
                    fns.push(ctor_fn(
                        "seed_immediate",
                        quote!(state: [u32; N]),
                        " loading one inline state for every lane (`IMM_SINGLE`): `state` goes into `imm_state[0..N]`.".into(),
                        marker(m),
                        quote!(#zeroed let src = crate::StateTensor::<N, isa_core::space::AnySpace>::at(0);),
                        quote! {
                            for (slot, word) in f.imm_state.iter_mut().zip(state).take(#cap) {
                                *slot = word;
                            }
                        },
                    ));
                }
            }
        }
    }
    let konst = ident(&table_const(model, t));
    let row = ident(&row_struct(model, t));
    let tagged = if engine_param.is_some() {
        engine_tagged(model, &inst)
    } else {
        quote!()
    };
    quote! {
        impl crate::inst::#inst {
            /// The legal arms of this instruction on this generation (derived from the header spec).
            pub const LEGAL_ARMS: &'static [#row] = #konst;
            #(#fns)*
        }
        #tagged
    }
}

/// What the engine-tagged word of a checked constructor needs of instruction `inst`: its
/// validator on the tagged engine, and the conversions and comparison with the plain word.
fn engine_tagged(model: &Model, inst: &proc_macro2::Ident) -> TokenStream {
    let Some(engine) = model.engine_enum else {
        return quote!();
    };
    let marker = ident(&format!("{}Marker", model.enums[engine].rust));
    quote! {
        impl<E: crate::arm::#marker> isa_core::ValidateOnEngine<E> for crate::inst::#inst {
            fn validate_on_engine(&self) -> Result<(), isa_core::Violation> { self.validate(E::VALUE) }
        }
        impl<E> From<isa_core::OnEngine<crate::inst::#inst, E>> for crate::inst::#inst {
            /// The engine-free word.
            fn from(w: isa_core::OnEngine<crate::inst::#inst, E>) -> Self { w.into_inner() }
        }
        impl<E> From<isa_core::OnEngine<crate::inst::#inst, E>> for crate::Instruction {
            /// The engine-free word.
            fn from(w: isa_core::OnEngine<crate::inst::#inst, E>) -> Self { Self::from(w.into_inner()) }
        }
        impl<E> PartialEq<isa_core::OnEngine<crate::inst::#inst, E>> for crate::inst::#inst {
            fn eq(&self, other: &isa_core::OnEngine<crate::inst::#inst, E>) -> bool { self == other.word() }
        }
    }
}
