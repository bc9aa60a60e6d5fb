//! `tests/agreement.rs` of a generated crate: the type-level layer and the legality tables
//! against the runtime validator. The two sides are derived separately from the header spec —
//! the trait impls and tables from the partial evaluator, the validator from the translation —
//! so the test catches drift between them, in lines proportional to the legal arms:
//!
//! * per arm, `legal::<(markers), N>()` compiles only when the arm's `Legal*` impl exists with
//!   width `N` (a missing impl or a wrong width does not compile); it returns the impl's row,
//!   after checking that the instruction its `pin` builds passes `validate`. The rows, in order,
//!   must be the table;
//! * the data, in one loop (lines per column, not per tuple): every tuple of column values, at
//!   every width the legality function mentions or the table has, 0 and one past the widest, is
//!   accepted by the validator exactly when it is a row of the table (an arm the validator
//!   rejects, a wrong width, or a tuple it accepts that the table lacks, fails). The tuples are
//!   the ones the derivation enumerated (at most a million), each validated at run time.
//!
//! Tables with the same layout (columns, operand-struct places) share one `macro_rules!` that
//! holds the test body; each table is one invocation listing its arms.

use super::legality::{key_columns, marker_types, table_const, tensor_path, trait_name};
use super::place::place;
use super::{ident, lit};
use crate::model::legality::{ColumnSource, Table};
use crate::model::Model;
use crate::model::ShapeId;
use crate::model::{IdVec, OpcodeId};
use proc_macro2::TokenStream;
use quote::quote;

/// The test of one table: the layout-dependent body (shared by tables with the same one) and the
/// invocation.
struct TableTest {
    layout: TokenStream,
    invocation: (proc_macro2::Ident, Vec<TokenStream>, Vec<TokenStream>),
}

/// The test of table `t`; `None` for a table without a typed instruction, a state tensor, an
/// engine column or an arm.
fn table_test(
    model: &Model,
    names: &IdVec<OpcodeId, Option<String>>,
    t: &Table,
    clashes: &[String],
) -> Option<TableTest> {
    let o = &model.opcodes[t.opcode];
    let inst = ident(names[t.opcode].as_ref()?);
    let shape = &model.shapes[t.shape];
    let sid = ident(&shape.rust);
    let key = key_columns(model, t);
    let trait_id = ident(&trait_name(model, t));
    let konst = ident(&table_const(model, t));
    let row = ident(&super::legality::row_struct(model, t));
    let (tensor, rank, _) = tensor_path(model, t)?;
    let engine_col = key
        .iter()
        .copied()
        .find(|k| matches!(t.columns[*k].source, ColumnSource::Param(_)))?;
    let engine_field = ident(&t.columns[engine_col].name);
    let (sets, header) = row_writes(model, t)?;
    let ones: Vec<TokenStream> = (1..rank).map(|_| quote!(1)).collect();
    let tensor_f: TokenStream = tensor.to_string().replacen("inst", "f", 1).parse().ok()?;
    let product = tuple_loops(model, t);
    // The integer literals of the legality function (`rand_set_state_elem_cnt(i, 7)`): the widths
    // to probe, independent of what the derivation made of them.
    let mut mentioned: Vec<u32> = vec![0];
    literals(&model.specs[t.func].body, &mut mentioned);
    mentioned.sort();
    mentioned.dedup();
    let mentioned = mentioned.iter().map(|w| lit(*w));
    let key_names = key
        .iter()
        .map(|k| t.columns[*k].name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let doc = format!(
        " The arms of a legality table against the validator: each `({key_names})` arm's impl exists with its width, its row is the table's and the instruction its pins build is valid; and every tuple of column values, at every width, is accepted exactly when it is a row."
    );
    let layout = quote! {
        #[doc = #doc]
        #[test]
        fn __m_test() {
            /// The instruction of a row: its values, its width, one partition.
            fn build(r: &legality::__m_row) -> __m_inst {
                let mut f = inst::__m_shape::ZEROED;
                #(#header)*
                #(#sets)*
                #tensor_f.num_elem = [r.words as u16 #(, #ones)*];
                #tensor_f.step_elem = [1 #(, #ones)*];
                f.num_active_channels = 1;
                __m_inst(f)
            }
            fn accepted(r: &legality::__m_row) -> bool {
                build(r).validate(r.#engine_field).is_ok()
            }
            /// Compiles only for a legal arm of width `N`: its row, once its pins build a valid instruction.
            fn legal<T: legality::__m_legal<N>, const N: usize>() -> legality::__m_row {
                let mut f = inst::__m_shape::ZEROED;
                <T as legality::__m_legal<N>>::pin(&mut f);
                #tensor_f.num_elem = [N as u16 #(, #ones)*];
                #tensor_f.step_elem = [1 #(, #ones)*];
                f.num_active_channels = 1;
                let r = <T as legality::__m_legal<N>>::ARM;
                assert!(__m_inst(f).validate(r.#engine_field).is_ok(), "{r:?}: its pins build an invalid instruction");
                r
            }
            let typed = [__m_arm_list];
            assert_eq!(typed[..], legality::__m_arms[..], "the Legal impls, in order, are the table");
            // Every width the legality function mentions or the table has, 0, and one past the widest.
            let mut widths: Vec<u32> = [#(#mentioned),*].into();
            widths.extend(legality::__m_arms.iter().map(|a| a.words));
            widths.push(widths.iter().max().map_or(0, |w| w + 1));
            // Every tuple of column values, at every width: accepted exactly when it is a row.
            let mut tuples = 0usize;
            #product
            assert!(tuples > 0);
        }
    };
    let arms = arm_calls(model, t, &key, clashes);
    let test_name = ident(&format!(
        "{}_agrees_with_validator",
        o.short.to_ascii_lowercase()
    ));
    let args = vec![
        quote!(#test_name),
        quote!(#inst),
        quote!(#sid),
        quote!(#row),
        quote!(#konst),
        quote!(#trait_id),
    ];
    Some(TableTest {
        layout,
        invocation: (test_name, args, arms),
    })
}

/// What a row writes into the operand struct: its column fields (`f.x = r.x;`), and the header
/// fields every arm pins (the instruction length), written as the constructors do.
fn row_writes(model: &Model, t: &Table) -> Option<(Vec<TokenStream>, Vec<TokenStream>)> {
    let shape_record = model.shapes[t.shape].record;
    // The fields of the row, written into the operand struct.
    let sets: Vec<TokenStream> = t
        .columns
        .iter()
        .filter_map(|c| {
            let ColumnSource::Field(path) = &c.source else {
                return None;
            };
            let (pl, _) = place(model, shape_record, path);
            let name = ident(&c.name);
            Some(quote!(#pl = r.#name;))
        })
        .collect();
    // Header fields every arm pins (the instruction length), written as the constructors do.
    let header: Vec<TokenStream> = t
        .arms
        .first()?
        .pinned
        .iter()
        .filter(|(p, v)| {
            let n = p.name(model, shape_record);
            n.starts_with(&format!("{}.", model.opcode_field.path[0]))
                && *v != 0
                && t.arms.iter().all(|a| a.pinned.contains(&(p.clone(), *v)))
        })
        .map(|(p, v)| {
            let (pl, _) = place(model, shape_record, p);
            let v = lit(*v);
            quote!(#pl = #v;)
        })
        .collect();
    Some((sets, header))
}

/// Nested loops over every column's values of table `t`, then the widths, innermost: each
/// tuple is accepted by the validator exactly when it is a row.
fn tuple_loops(model: &Model, t: &Table) -> TokenStream {
    let fields: Vec<proc_macro2::Ident> = t.columns.iter().map(|c| ident(&c.name)).collect();
    let vars: Vec<proc_macro2::Ident> = (0..t.columns.len())
        .map(|k| ident(&format!("c{k}")))
        .collect();
    let mut product = quote! {
        for &words in &widths {
            let m = legality::__m_row { #(#fields: #vars,)* words };
            tuples += 1;
            // Outside the assertion, whose arguments are printed as plain tokens.
            let (validator, table) = (accepted(&m), legality::__m_arms.contains(&m));
            assert_eq!(validator, table, "{m:?}: validator (left) against the table (right)");
        }
    };
    for (c, v) in t.columns.iter().zip(&vars).rev() {
        let en = ident(&model.enums[c.enum_id].rust);
        product = quote! {
            for &#v in #en::ALL {
                #product
            }
        };
    }
    product
}

/// Per arm of table `t`, the call `legal::<(markers), N>()` that compiles only for a legal arm.
fn arm_calls(model: &Model, t: &Table, key: &[usize], clashes: &[String]) -> Vec<TokenStream> {
    t.arms
        .iter()
        .map(|a| {
            let tys = marker_types(model, t, key, a, clashes);
            let n = lit(a.words);
            quote!(legal::<(#(#tys,)*), #n>())
        })
        .collect()
}

fn literals(e: &crate::model::spec::Expr, out: &mut Vec<u32>) {
    if let crate::model::spec::ExprKind::Int(v) = e.kind {
        if let Ok(w) = u32::try_from(v) {
            out.push(w);
        }
    }
    for c in crate::model::spec::children(e) {
        literals(c, out);
    }
}

/// The whole test file, or `None` when the crate has no legality table.
pub fn emit(model: &Model) -> Option<String> {
    let (_, clashes) = super::legality::marker_enums(model);
    let names = &model.instruction_names;
    let mut layouts: Vec<(String, Vec<ShapeId>)> = Vec::new();
    let mut macros = Vec::new();
    let mut calls = Vec::new();
    for t in &model.tables {
        let Some(test) = table_test(model, names, t, &clashes) else {
            continue;
        };
        let text = test.layout.to_string();
        let k = match layouts.iter().position(|(l, _)| *l == text) {
            Some(k) => {
                layouts[k].1.push(t.shape);
                k
            }
            None => {
                layouts.push((text, vec![t.shape]));
                macros.push(test.layout);
                layouts.len() - 1
            }
        };
        let id = ident(&format!("agreement_{k}"));
        let (_, args, arms) = test.invocation;
        let cfg = super::cfg_for_shape(model, t.shape);
        calls.push(quote! {
            #cfg
            #id!(#(#args,)* [#(#arms),*]);
        });
    }
    if calls.is_empty() {
        return None;
    }
    // Each macro body is printed as a function: rustfmt leaves macro bodies as they are.
    let bodies: Vec<String> = macros
        .into_iter()
        .map(|test| super::print_items("", test))
        .collect();
    // A macro is compiled when one of the tables that use it is.
    let macros: Vec<String> = bodies
        .iter()
        .zip(&layouts)
        .enumerate()
        .map(|(k, (body, (_, users)))| macro_text(k, &super::cfg_for_users(model, users), body))
        .collect();
    let krate = ident(&format!("isa_{}", model.generation.to_ascii_lowercase()));
    let head = quote! {
        #![allow(clippy::all, unused_imports)]
        use #krate::*;
    };
    let mut out = super::print_items(
        &format!(
            "// @generated by isa-codegen from headers/{}. Do not edit: the type-level/validator agreement test.\n\n",
            model.tree_name
        ),
        head,
    );
    for m in macros {
        out.push_str(&m);
    }
    out.push_str(&super::print_items("", quote!(#(#calls)*)));
    Some(out)
}

/// `macro_rules! agreement_<k>` whose body is the formatted test function `function`, its
/// placeholder names turned into the macro's parameters.
fn macro_text(k: usize, cfg: &TokenStream, function: &str) -> String {
    let body = function
        .replace("__m_arm_list", "$($arm),*")
        .replace("__m_", "$");
    // The attribute, printed the way the rest of the file prints it.
    let attr = super::print_items("", quote!(#cfg struct S;));
    let attr = attr.trim_end().trim_end_matches("struct S;").trim_end();
    let mut out = format!(
        "/// The agreement test of one table layout: `(test, instruction, operand struct, row, table, trait, [arms])`.\n{attr}\nmacro_rules! agreement_{k} {{\n    ($test:ident, $inst:ident, $shape:ident, $row:ident, $arms:ident, $legal:ident, [$($arm:expr),* $(,)?]) => {{\n"
    );
    for line in body.lines() {
        out.push_str("        ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("    };\n}\n");
    out
}

/// `tests/features.rs`: per mapped opcode, its word decodes exactly when its operand shape's
/// feature is on, and otherwise says which feature is missing. Run with the default features it
/// checks the first half; `isa-codegen`'s `features` test runs it with a subset.
pub fn emit_features(model: &Model) -> super::Source {
    let names = &model.instruction_names;
    let krate = ident(&format!("isa_{}", model.generation.to_ascii_lowercase()));
    let rows: Vec<TokenStream> = model
        .opcodes
        .iter()
        .zip(names.iter())
        .filter_map(|(o, n)| {
            n.as_ref()?;
            let feature = super::shape_feature(model, o.shape?);
            let op = ident(&o.rust);
            Some(quote!((Opcode::#op, #feature, cfg!(feature = #feature))))
        })
        .collect();
    let tokens = quote! {
        use #krate::*;
        use isa_core::{DecodeError, DecodeErrorKind};

        /// The feature a decode error says is missing, if that is the error.
        fn missing(op: Opcode) -> Option<&'static str> {
            let mut word = [0u8; 64];
            word[0] = op.value();
            match Instruction::decode(&word) {
                Err(DecodeError { kind: DecodeErrorKind::ShapeNotCompiled { feature }, .. }) => Some(feature),
                _ => None,
            }
        }

        /// Every mapped opcode: `(opcode, its shape's feature, whether this build has it)`.
        #[test]
        fn an_opcode_decodes_exactly_when_its_shape_is_compiled_in() {
            let opcodes: &[(Opcode, &str, bool)] = &[#(#rows),*];
            for &(op, feature, on) in opcodes {
                assert_eq!(missing(op), (!on).then_some(feature), "{op:?}");
                assert_eq!(fields_of(op).is_some(), on, "{op:?}");
            }
        }
    };
    super::Source::items(
        &format!(
            "// @generated by isa-codegen from headers/{}. Do not edit: the operand-shape features test.\n\n",
            model.tree_name
        ),
        tokens,
    )
}
