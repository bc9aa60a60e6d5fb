//! Stage 3, emit: Rust source for one generated crate, from the model only.
//!
//! Every file is built as tokens with `quote` and printed with `prettyplease`,
//! so the output is rustfmt-clean and byte-identical on every run: the model is
//! ordered (vectors in source order, no hash maps) and nothing depends on the
//! machine (no paths, no time).

mod agreement;
mod api;
mod construct;
mod doc;
mod enums;
mod examples;
mod generation;
mod inst;
mod legality;
mod lib_rs;
mod raw;
mod records;
mod spec;
mod ty;
mod validate;

pub use doc::doc_text;

use crate::model::Model;
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
pub fn shape_feature(model: &Model, shape: usize) -> String {
    let member = &model.shapes[shape].member;
    if ["default", "full", "regenerate"].contains(&member.as_str()) {
        format!("{member}_shape")
    } else {
        member.clone()
    }
}

/// `#[cfg(feature = "<shape>")]`: the attribute of an item that belongs to one operand shape
/// (its typed struct and instructions, their validators, legality items and tests).
pub fn cfg_for_shape(model: &Model, shape: usize) -> TokenStream {
    let one = shape_feature(model, shape);
    quote::quote!(#[cfg(feature = #one)])
}

/// The attribute of a helper item (an explain function, a frame, a field kind, a test macro)
/// that the operand shapes `shapes` use: with one user it is compiled with that shape's feature;
/// shared by several it stays compiled (it is small) and may go unused when their features are off.
pub fn cfg_for_users(model: &Model, shapes: &[usize]) -> TokenStream {
    let mut names: Vec<String> = shapes.iter().map(|s| shape_feature(model, *s)).collect();
    names.sort();
    names.dedup();
    match names.as_slice() {
        [one] => quote::quote!(#[cfg(feature = #one)]),
        _ => quote::quote!(#[allow(dead_code, unused_macros)]),
    }
}

/// The attribute of an item that needs every one of the operand shapes `shapes`.
pub fn cfg_all_shapes(model: &Model, shapes: &[usize]) -> TokenStream {
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

/// Pretty-prints a file of items.
pub(crate) fn render(header: &str, tokens: TokenStream) -> String {
    let file: syn::File = match syn::parse2(tokens.clone()) {
        Ok(f) => f,
        Err(e) => panic!("generator bug: emitted tokens do not parse: {e}\n{tokens}"),
    };
    let mut out = String::new();
    out.push_str(header);
    out.push_str(&prettyplease::unparse(&file));
    out
}

/// First line of every generated file.
pub(crate) fn banner(model: &Model, what: &str) -> String {
    format!(
        "// @generated by isa-codegen from headers/{} (fingerprint {}). Do not edit: {what}\n// Regenerate with `cargo run -p isa-codegen`.\n\n",
        model.tree_name,
        model.fingerprint.tree_hex(),
    )
}

/// Emits every file of the crate for `model`.
pub fn emit(model: &Model) -> Files {
    emit_with_notes(model).0
}

/// Emits every file, and says what could not be emitted (by name, with the reason).
pub fn emit_with_notes(model: &Model) -> (Files, Vec<String>) {
    let mut notes = Vec::new();
    let mut files = Files::new();
    let mut put = |name: &str, content: String| {
        files.insert(format!("{GENERATED_DIR}/{name}"), content);
    };
    let firmware = |t: &crate::model::legality::Table, k: usize| -> isa_core::Firmware {
        let known = || {
            let rt = model.runtime.as_ref()?;
            let e = t.column_of(model.engine_enum?)?;
            let a = t.column_of(model.enum_named(crate::model::runtime::RAND_ALGORITHM)?)?;
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
    put("headers.lock", model.fingerprint.to_manifest());
    files.insert("src/lib.rs".into(), lib_rs::emit(model));
    files.insert("Cargo.toml".into(), lib_rs::cargo_toml(model));
    files.insert("build.rs".into(), lib_rs::build_rs());
    if let Some(test) = agreement::emit(model) {
        files.insert("tests/agreement.rs".into(), test);
    }
    if let Some(test) = construct::test_file(model) {
        files.insert("tests/constructors.rs".into(), test);
    }
    if model.opcodes.iter().any(|o| o.shape.is_some()) {
        files.insert("tests/features.rs".into(), agreement::emit_features(model));
    }
    (files, notes)
}

/// Formats every `.rs` file of `files` with the toolchain's `rustfmt` (edition 2021), so the
/// committed files are exactly what `cargo fmt` would leave; one rustfmt process for all of them.
pub fn format_all(files: &mut Files) -> Result<(), String> {
    rustfmt_all(
        files
            .iter_mut()
            .filter(|(path, _)| path.ends_with(".rs"))
            .map(|(path, text)| (path.as_str(), text)),
    )
}

/// Formats each `(name, text)` in place with one rustfmt process (`$RUSTFMT` overrides the
/// binary): a process, and the toolchain proxy in front of it, per file was half of a
/// regeneration's CPU. The sources go through a scratch directory holding a `rustfmt.toml` of
/// the defaults, so no configuration around them applies; rustfmt still runs in the caller's
/// directory, where the toolchain proxy finds the pinned toolchain. An error names the source
/// by `name`.
pub fn rustfmt_all<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a mut String)>,
) -> Result<(), String> {
    let mut sources: Vec<(&str, &mut String)> = sources.into_iter().collect();
    if sources.is_empty() {
        return Ok(());
    }
    let scratch =
        Scratch::new().map_err(|e| format!("rustfmt: cannot make a scratch directory: {e}"))?;
    let dir = scratch.0.as_path();
    let io =
        |what: &str, e: std::io::Error| format!("rustfmt: cannot {what} in {}: {e}", dir.display());
    std::fs::write(dir.join("rustfmt.toml"), "edition = \"2021\"\n")
        .map_err(|e| io("write rustfmt.toml", e))?;
    let file_of = |k: usize| dir.join(format!("f{k}.rs"));
    for (k, (_, text)) in sources.iter().enumerate() {
        std::fs::write(file_of(k), text.as_bytes()).map_err(|e| io("write a source", e))?;
    }
    let binary = std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".to_string());
    let output = std::process::Command::new(&binary)
        .args(["--edition", "2021", "--quiet"])
        .args((0..sources.len()).map(file_of))
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            format!("cannot run `{binary}` ({e}); install it with `rustup component add rustfmt`")
        })?;
    if !output.status.success() {
        // rustfmt names the scratch files: put the sources' own names back.
        let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        for k in (0..sources.len()).rev() {
            message = message.replace(&file_of(k).display().to_string(), sources[k].0);
        }
        return Err(format!("rustfmt failed: {message}"));
    }
    for (k, (name, text)) in sources.iter_mut().enumerate() {
        **text = std::fs::read_to_string(file_of(k))
            .map_err(|e| format!("{name}: rustfmt output: {e}"))?;
    }
    Ok(())
}

/// A fresh directory under the system's temporary directory, removed on drop.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Scratch> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "isa-codegen-rustfmt-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // A leftover of a killed run with the same pid would hold stale files.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::rustfmt_all;

    #[test]
    fn one_rustfmt_run_formats_every_source() {
        let mut first = "fn a(){let x=1;}".to_string();
        let mut second = "pub   struct   S;".to_string();
        rustfmt_all([("a.rs", &mut first), ("b.rs", &mut second)]).unwrap();
        assert_eq!(first, "fn a() {\n    let x = 1;\n}\n");
        assert_eq!(second, "pub struct S;\n");
    }

    #[test]
    fn a_rustfmt_error_names_the_source_and_changes_nothing() {
        let mut good = "fn a(){}".to_string();
        let mut bad = "fn b( {".to_string();
        let error =
            rustfmt_all([("src/good.rs", &mut good), ("src/bad.rs", &mut bad)]).unwrap_err();
        assert!(error.contains("src/bad.rs"), "{error}");
        assert!(!error.contains("f1.rs"), "{error}");
        assert_eq!((good.as_str(), bad.as_str()), ("fn a(){}", "fn b( {"));
    }
}
