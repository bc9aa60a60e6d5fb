//! `tests/agreement.rs` of a generated crate: for every tuple of every legality
//! domain, "the type-level layer accepts it" must equal "the runtime validator
//! accepts an instruction built from it". The two sides are derived separately
//! from the header spec — the trait impls from the partial evaluator, the
//! validator from the translation — so the test catches any drift between them.

use super::legality::{
    key_columns, marker_enums, marker_name, place, table_const, tensor_path, trait_name,
};
use super::{ident, lit};
use crate::model::legality::{ColumnSource, Table};
use crate::model::Model;
use proc_macro2::TokenStream;
use quote::quote;

/// Widths to probe: every arm width, 0, and one more than the widest.
fn widths(t: &Table) -> Vec<u32> {
    // Each arm's width is wrong for the other arms, so these cover too-short and too-long too.
    let max = t.arms.iter().map(|a| a.words).max().unwrap_or(0);
    let mut w: Vec<u32> = vec![0, max + 1];
    for a in &t.arms {
        if !w.contains(&a.words) {
            w.push(a.words);
        }
    }
    w.sort();
    w
}

fn table_test(model: &Model, t: &Table, clashes: &[String]) -> Option<TokenStream> {
    let o = &model.opcodes[t.opcode];
    let names = super::inst::instruction_names(model);
    let inst = ident(names[t.opcode].as_ref()?);
    let shape = &model.shapes[t.shape];
    let sid = ident(&shape.rust);
    let shape_record = shape.record;
    let key = key_columns(model, t);
    let trait_id = ident(&trait_name(model, t));
    let konst = ident(&table_const(model, t));
    let (tensor, rank, _) = tensor_path(model, t)?;
    let engine_col = key
        .iter()
        .copied()
        .find(|k| matches!(t.columns[*k].source, ColumnSource::Param(_)))?;
    let dtype_col = (0..t.columns.len()).find(|k| !key.contains(k))?;
    let dtype_enum = ident(&model.enums[t.columns[dtype_col].enum_id].rust);
    let ColumnSource::Field(dtype_path) = &t.columns[dtype_col].source else {
        return None;
    };
    let (dtype_place, _) = place(model, shape_record, dtype_path);
    let dtype_field = ident(&t.columns[dtype_col].name);
    // The check takes the tuple's values (not types), so it is compiled once.
    let params: Vec<(usize, proc_macro2::Ident, proc_macro2::Ident)> = key
        .iter()
        .map(|k| {
            let ty = ident(&model.enums[t.columns[*k].enum_id].rust);
            (*k, ident(&format!("v{k}")), ty)
        })
        .collect();
    let args: Vec<TokenStream> = params.iter().map(|(_, p, ty)| quote!(#p: #ty)).collect();
    let engine_param = &params.iter().find(|(k, _, _)| *k == engine_col)?.1;
    let sets: Vec<TokenStream> = params
        .iter()
        .filter(|(k, _, _)| *k != engine_col)
        .filter_map(|(k, p, _)| {
            let ColumnSource::Field(path) = &t.columns[*k].source else {
                return None;
            };
            let (pl, _) = place(model, shape_record, path);
            Some(quote!(#pl = #p;))
        })
        .collect();
    let marker_traits: Vec<proc_macro2::Ident> = key
        .iter()
        .map(|k| {
            ident(&format!(
                "{}Marker",
                model.enums[t.columns[*k].enum_id].rust
            ))
        })
        .collect();
    let ones: Vec<TokenStream> = (1..rank).map(|_| quote!(1)).collect();
    let header: Vec<TokenStream> = t
        .arms
        .first()?
        .pinned
        .iter()
        .filter(|(p, v)| {
            let n = p.name(model, shape_record);
            n.starts_with(&format!("{}.", model.discriminator.path[0]))
                && *v != 0
                && t.arms.iter().all(|a| a.pinned.contains(&(p.clone(), *v)))
        })
        .map(|(p, v)| {
            let (pl, _) = place(model, shape_record, p);
            let v = lit(*v);
            quote!(#pl = #v;)
        })
        .collect();
    let tensor_f = {
        let s = tensor.to_string().replacen("inst", "f", 1);
        s.parse::<TokenStream>().ok()?
    };
    let check = ident(&format!("check_{}", o.short.to_ascii_lowercase()));
    let engine_param_list: Vec<&proc_macro2::Ident> = params.iter().map(|(_, p, _)| p).collect();
    let _ = &marker_traits;
    let probe = ident(&format!("{}Probe", o.rust));
    let fallback = ident(&format!("{}Fallback", o.rust));
    // Every tuple of markers over the key columns, and every probed width.
    let mut cases = Vec::new();
    let mut combos: Vec<Vec<TokenStream>> = vec![Vec::new()];
    for k in &key {
        let e = t.columns[*k].enum_id;
        let mut next = Vec::new();
        for c in &combos {
            for (m, _) in model.enums[e]
                .members
                .iter()
                .enumerate()
                .filter(|(_, m)| m.alias_of.is_none())
            {
                let mut c2 = c.clone();
                let id = ident(&marker_name(model, e, m, clashes));
                c2.push(quote!(arm::#id));
                next.push(c2);
            }
        }
        combos = next;
    }
    for c in &combos {
        for n in widths(t) {
            let n = lit(n);
            cases.push(quote! { case!(#(#c),*; #n); });
        }
    }
    let count = lit(cases.len() as u64);
    let test_name = ident(&format!(
        "{}_type_level_agrees_with_validator",
        o.short.to_ascii_lowercase()
    ));
    let doc = format!(
        " Every ({}) tuple × width × element type of `{}`: `{trait_name}` is implemented (with that element type) exactly when `validate` accepts the instruction built from the tuple.",
        key.iter().map(|k| t.columns[*k].name.as_str()).collect::<Vec<_>>().join(", "),
        o.short,
        trait_name = trait_name(model, t)
    );
    Some(quote! {
        struct #probe<T, const N: usize>(core::marker::PhantomData<T>);
        trait #fallback {
            const ELEMENT: Option<#dtype_enum> = None;
        }
        impl<T, const N: usize> #fallback for #probe<T, N> {}
        impl<T: legality::#trait_id<N>, const N: usize> #probe<T, N> {
            const ELEMENT: Option<#dtype_enum> = Some(<T as legality::#trait_id<N>>::ARM.#dtype_field);
        }

        /// Checks one tuple: `type_level` is what the trait layer says (`Some(element type)` when legal).
        fn #check(type_level: Option<#dtype_enum>, #(#args,)* n: usize) -> bool {
            for &element in #dtype_enum::ALL {
                let mut f = inst::#sid::ZEROED;
                #(#header)*
                #(#sets)*
                #dtype_place = element;
                #tensor_f.num_elem = [n as u16 #(, #ones)*];
                #tensor_f.step_elem = [1 #(, #ones)*];
                f.num_active_channels = 1;
                let runtime = #inst(f).validate(#engine_param).is_ok();
                assert_eq!(
                    runtime,
                    type_level == Some(element),
                    "{}: tuple {:?} with {} words and {:?}: validator says {}, type level says {:?}",
                    stringify!(#inst),
                    (#(#engine_param_list),*),
                    n,
                    element,
                    runtime,
                    type_level
                );
            }
            type_level.is_some()
        }

        #[doc = #doc]
        #[test]
        fn #test_name() {
            let mut legal = 0usize;
            macro_rules! case {
                ($($m:path),*; $n:literal) => {
                    if #check(#probe::<($($m,)*), $n>::ELEMENT, $(<$m>::VALUE,)* $n) {
                        legal += 1;
                    }
                };
            }
            #(#cases)*
            // Every arm of the table was found among the tuples.
            assert_eq!(legal, legality::#konst.len(), "legal tuples found vs table arms ({} tuples probed)", #count);
        }
    })
}

/// The whole test file, or `None` when the crate has no legality table.
pub fn emit(model: &Model) -> Option<String> {
    let (_, clashes) = marker_enums(model);
    let tests: Vec<TokenStream> = model
        .tables
        .iter()
        .filter_map(|t| table_test(model, t, &clashes))
        .collect();
    if tests.is_empty() {
        return None;
    }
    let krate = ident(&format!("isa_{}", model.generation.to_ascii_lowercase()));
    let (marker_enums, _) = marker_enums(model);
    let marker_traits = marker_enums
        .iter()
        .map(|e| ident(&format!("{}Marker", model.enums[*e].rust)));
    let tokens = quote! {
        #![allow(clippy::all)]
        use #krate::arm::{#(#marker_traits),*};
        use #krate::*;
        #(#tests)*
    };
    Some(super::render(
        &format!(
            "// @generated by isa-codegen from headers/{}. Do not edit: the type-level/validator agreement test.\n\n",
            model.tree_name
        ),
        tokens,
    ))
}
