//! Stage 3, emit: Rust source for one generated crate, from the model only.
//!
//! A generated file goes through three steps, named the same throughout the generator:
//! * **emit**: the model becomes the file's [`Source`]: items as tokens built with `quote`
//!   ([`Source::items`]), or text as it is ([`emit`], one module per file below);
//! * **print**: a source becomes text, its items through `syn` and `prettyplease`
//!   ([`Source::print`], `print_items`);
//! * **format**: the printed `.rs` files go through the pinned rustfmt ([`format_sources`],
//!   which takes the committed file instead where its source is as recorded).
//!
//! The output is rustfmt-clean and byte-identical on every run: the model is ordered (vectors in
//! source order, no hash maps) and nothing depends on the machine (no paths, no time).
//!
mod agreement;
mod construct;
mod doc;
mod enums;
mod examples;
mod format;
mod generation;
mod inst;
pub(crate) mod legality;
mod lib_rs;
mod place;
mod raw;
mod records;
mod spec;
pub(crate) mod state_tensor;
mod traits;
mod ty;
mod validate;
mod vocab;

pub use doc::doc_text;
pub use format::{format_sources, rustfmt_all, FORMAT_LOCK};

// What the API listing (`report::api`) reads of the emitters' choices, so that it lists what they
// write: the records, fields and types they emit, the constructors they can write.
pub(crate) use construct::constructors::param_type as constructor_param_type;
pub(crate) use construct::emitted::{emitted_constructions, has_default};
pub(crate) use construct::generic::{absent_inherent_names, absent_trait_names};
pub(crate) use construct::operands::lacks_psum;
pub(crate) use enums::alias_const_name;
pub(crate) use generation::has_generation_impl;
pub(crate) use records::reachable as reachable_records;
pub(crate) use spec::{param_types as spec_param_types, prefix_trait_names};
pub(crate) use ty::{fallible, typed as typed_type, typed_fields};

use crate::model::Model;
use crate::model::ShapeId;
use proc_macro2::{Ident, Span, TokenStream};
use std::collections::BTreeMap;

/// Relative paths (inside the crate directory) and contents of every generated file.
pub type Files = BTreeMap<String, String>;

/// Directory (inside the crate) that holds the generated modules.
pub const GENERATED_DIR: &str = "src/generated";

/// A Rust identifier.
pub(crate) fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// `#[allow(non_snake_case)]` for a function named as the header spells it when that spelling
/// has capitals (`has_valid_LncSizefmt`): the vendor's name is kept, so it can be found as written.
pub(crate) fn allow_vendor_fn_case(name: &str) -> TokenStream {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        quote::quote!(#[allow(non_snake_case)])
    } else {
        TokenStream::new()
    }
}

/// `#[allow(non_upper_case_globals)]` for a constant named as the header spells it when that
/// spelling has lower-case letters (`DGE_COMPUTE_OP_n_ADD`): the vendor's name is kept.
pub(crate) fn allow_vendor_const_case(name: &str) -> TokenStream {
    if name.bytes().any(|b| b.is_ascii_lowercase()) {
        quote::quote!(#[allow(non_upper_case_globals)])
    } else {
        TokenStream::new()
    }
}

/// An unsuffixed integer literal.
pub(crate) fn lit(v: impl Into<i128>) -> TokenStream {
    let v: i128 = v.into();
    let lit = proc_macro2::Literal::i128_unsuffixed(v.abs());
    if v < 0 {
        quote::quote!(-#lit)
    } else {
        quote::quote!(#lit)
    }
}

/// `at + off`, leaving out what adds nothing (generated code stays lint-clean).
pub(crate) fn plus(at: &TokenStream, off: u64) -> TokenStream {
    let at_text = at.to_string();
    match (at_text.as_str(), off) {
        (_, 0) => at.clone(),
        ("0", _) => lit(off),
        _ => {
            let o = lit(off);
            quote::quote!(#at + #o)
        }
    }
}

/// The index variable of an array nested `depth` arrays deep (`k`, `k1`, `k2`, ...): a
/// multi-dimensional array gets one per dimension, so an inner loop never reuses an outer index.
pub(crate) fn index_var(depth: usize) -> Ident {
    if depth == 0 {
        ident("k")
    } else {
        ident(&format!("k{depth}"))
    }
}

/// The element variable of an array loop nested `depth` arrays deep (`item`, `item1`, ...).
pub(crate) fn item_var(depth: usize) -> Ident {
    if depth == 0 {
        ident("item")
    } else {
        ident(&format!("item{depth}"))
    }
}

/// `at + k * size` for element `k` of an array nested `depth` arrays deep ([`index_var`]).
pub(crate) fn plus_elem_at(at: &TokenStream, size: u64, depth: usize) -> TokenStream {
    let kv = index_var(depth);
    let k = if size == 1 {
        quote::quote!(#kv)
    } else {
        let s = lit(size);
        quote::quote!(#kv * #s)
    };
    if at.to_string() == "0" {
        k
    } else {
        quote::quote!(#at + #k)
    }
}

/// `&v`, or `item` when `v` is `*item` (an array loop's element, already a reference: clippy's
/// `borrow_deref_ref` rejects `&*item`).
pub(crate) fn borrow(v: &TokenStream) -> TokenStream {
    let mut tokens = v.clone().into_iter();
    match (tokens.next(), tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Punct(p)), Some(proc_macro2::TokenTree::Ident(i)), None)
            if p.as_char() == '*' =>
        {
            quote::quote!(#i)
        }
        _ => quote::quote!(&#v),
    }
}

/// A hexadecimal literal (for opcodes and byte codes).
pub(crate) fn hex(v: i128, width: usize) -> TokenStream {
    let text = if v < 0 {
        format!("-{:#0w$x}", -v, w = width + 2)
    } else {
        format!("{v:#0w$x}", w = width + 2)
    };
    text.parse().expect("a hex literal is a token")
}

/// The Cargo feature that compiles in the items of operand shape `shape` (index into
/// [`Model::shapes`]): its member name in `NEURON_ISA_TPB_INST_UNION` (`s1_rand`), or that name
/// with `_shape` appended when it would be one of the crate's other features.
pub fn shape_feature(model: &Model, shape: ShapeId) -> String {
    let member = &model.shapes[shape].member;
    if ["default", "full", "raw", "regenerate", "serde"].contains(&member.as_str()) {
        format!("{member}_shape")
    } else {
        member.clone()
    }
}

/// `#[cfg(feature = "<shape>")]`: the attribute of an item that belongs to one operand shape
/// (its typed struct and instructions, their validators, legality items and tests).
pub fn cfg_for_shape(model: &Model, shape: ShapeId) -> TokenStream {
    let one = shape_feature(model, shape);
    quote::quote!(#[cfg(feature = #one)])
}

/// The attribute of a helper item (an explain function, a frame, a field kind, a test macro)
/// that the operand shapes `shapes` use: with one user it is compiled with that shape's feature;
/// shared by several it stays compiled (it is small) and may go unused when their features are off.
pub fn cfg_for_users(model: &Model, shapes: &[ShapeId]) -> TokenStream {
    let mut names: Vec<String> = shapes.iter().map(|s| shape_feature(model, *s)).collect();
    names.sort();
    names.dedup();
    match names.as_slice() {
        [one] => quote::quote!(#[cfg(feature = #one)]),
        _ => quote::quote!(#[allow(dead_code, unused_macros)]),
    }
}

/// The attribute of an item that needs every one of the operand shapes `shapes`.
pub fn cfg_all_shapes(model: &Model, shapes: &[ShapeId]) -> TokenStream {
    let mut names: Vec<String> = shapes.iter().map(|s| shape_feature(model, *s)).collect();
    names.sort();
    names.dedup();
    match names.as_slice() {
        [one] => quote::quote!(#[cfg(feature = #one)]),
        many => quote::quote!(#[cfg(all(#(feature = #many),*))]),
    }
}

/// `items` with the attribute `cfg` (`#[cfg(...)]`, or nothing) on every one of them.
pub fn with_cfg(cfg: &TokenStream, items: TokenStream) -> TokenStream {
    if cfg.is_empty() {
        return items;
    }
    let file: syn::File = match syn::parse2(items.clone()) {
        Ok(f) => f,
        Err(e) => panic!("generator bug: emitted items do not parse: {e}\n{items}"),
    };
    let out = file.items.into_iter().map(|item| quote::quote!(#cfg #item));
    quote::quote!(#(#out)*)
}

/// Prints a file of items: `header`, then the items of `tokens` (syn, prettyplease).
pub(crate) fn print_items(header: &str, tokens: TokenStream) -> String {
    let file: syn::File = match syn::parse2(tokens.clone()) {
        Ok(f) => f,
        Err(e) => panic!("generator bug: emitted tokens do not parse: {e}\n{tokens}"),
    };
    let mut out = String::new();
    out.push_str(header);
    out.push_str(&prettyplease::unparse(&file));
    out
}

/// A generated file as emitted, before it is printed: its text, or a header and the items to
/// print after it. Printing and formatting are most of a regeneration's time, and the items'
/// token text identifies the printed file, so a file whose items are as the last time need not
/// be printed again ([`format_sources`]).
#[derive(Clone, Debug)]
pub enum Source {
    /// Text as it is.
    Text(String),
    /// `header`, then the items.
    Items { header: String, tokens: TokenStream },
}

impl Source {
    /// A file of `header`, then the items of `tokens`.
    pub fn items(header: &str, tokens: TokenStream) -> Source {
        Source::Items {
            header: header.to_string(),
            tokens,
        }
    }

    /// The file's text: the text as it is, or the items printed (`print_items`); not yet
    /// formatted.
    pub fn print(self) -> String {
        match self {
            Source::Text(text) => text,
            Source::Items { header, tokens } => print_items(&header, tokens),
        }
    }

    /// A digest of what the file is printed from: equal digests, equal printed files (with
    /// the same printers).
    pub fn digest(&self) -> u64 {
        use isa_core::fingerprint::{file_fingerprint, fnv1a};
        match self {
            Source::Text(text) => fnv1a(file_fingerprint(b"text\0"), text.as_bytes()),
            Source::Items { header, tokens } => {
                let h = fnv1a(file_fingerprint(b"items\0"), header.as_bytes());
                fnv1a(fnv1a(h, b"\0"), tokens.to_string().as_bytes())
            }
        }
    }
}

/// [`Source::items`] under its former name, for the emitter of `generation.rs`, its one caller
/// left.
pub(crate) fn unprinted(header: &str, tokens: TokenStream) -> Source {
    Source::items(header, tokens)
}

/// Every generated file of a crate, as emitted, by its path inside the crate.
pub type Sources = BTreeMap<String, Source>;

/// First line of every generated file.
pub(crate) fn banner(model: &Model, what: &str) -> String {
    format!(
        "// @generated by isa-codegen from headers/{} (fingerprint {}). Do not edit: {what}\n// Regenerate with `cargo run -p isa-codegen`.\n\n",
        model.tree_name,
        model.fingerprint.tree_hex(),
    )
}

/// Emits every file and prints it (not formatted by rustfmt), and says what could not be
/// emitted (by name, with the reason).
pub fn emit_printed(model: &Model) -> (Files, Vec<String>) {
    let (sources, notes) = emit(model);
    let files = sources
        .into_iter()
        .map(|(path, source)| (path, source.print()))
        .collect();
    (files, notes)
}

/// Emits every file of the crate for `model`, and says what could not be emitted (by name,
/// with the reason).
pub fn emit(model: &Model) -> (Sources, Vec<String>) {
    let mut notes = Vec::new();
    let mut files = Sources::new();
    let mut put = |name: &str, content: Source| {
        files.insert(format!("{GENERATED_DIR}/{name}"), content);
    };
    let firmware = |t: &crate::model::legality::Table, k: usize| -> isa_core::Firmware {
        let known = || {
            let rt = model.runtime.as_ref()?;
            let e = t.column_of(model.engine_enum?)?;
            let a = t.column_of(model.enum_named(crate::vendor::RAND_ALGORITHM)?)?;
            let arm = &t.arms[k];
            Some(rt.firmware(t.opcode, arm.values[e], arm.values[a]))
        };
        known().unwrap_or(isa_core::Firmware::Unknown)
    };
    put("raw.rs", raw::emit(model));
    put("types.rs", records::emit(model));
    put("opcode.rs", enums::emit_opcode(model));
    put("consts.rs", enums::emit_consts(model));
    put("inst.rs", inst::emit(model, &firmware));
    let (gen, gen_notes) = generation::emit(model);
    put("generation.rs", gen);
    notes.extend(gen_notes);
    put("spec.rs", spec::emit(model));
    put("validate.rs", validate::emit(model));
    let (legality, arm) = legality::emit(model, &firmware);
    put("legality.rs", legality);
    put("construct.rs", construct::emit(model));
    notes.extend(construct::notes(model));
    put("arm.rs", arm);
    put(
        "headers.lock",
        Source::Text(model.fingerprint.to_manifest()),
    );
    files.insert("src/lib.rs".into(), Source::Text(lib_rs::emit(model)));
    files.insert("Cargo.toml".into(), Source::Text(lib_rs::cargo_toml(model)));
    files.insert("build.rs".into(), Source::Text(lib_rs::build_rs()));
    if let Some(test) = agreement::emit(model) {
        files.insert("tests/agreement.rs".into(), Source::Text(test));
    }
    if let Some(test) = construct::test_file::test_file(model) {
        files.insert("tests/constructors.rs".into(), Source::Text(test));
    }
    if model.opcodes.iter().any(|o| o.shape.is_some()) {
        files.insert("tests/features.rs".into(), agreement::emit_features(model));
    }
    (files, notes)
}

/// The `isa_core::Shown` of a value written as `shown` says.
pub(crate) fn shown_tokens(shown: crate::model::shown::Shown) -> TokenStream {
    match shown {
        crate::model::shown::Shown::Decimal => quote::quote!(isa_core::Shown::Decimal),
        crate::model::shown::Shown::Hex => quote::quote!(isa_core::Shown::Hex),
        crate::model::shown::Shown::Fp32 => quote::quote!(isa_core::Shown::Fp32),
    }
}
