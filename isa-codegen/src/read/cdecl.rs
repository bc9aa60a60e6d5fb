//! C declarations, read with bindgen and walked with syn.
//!
//! bindgen (libclang) parses each header of `tpb/` with only that header's own
//! declarations allow-listed, so every declaration is attributed to the file
//! that declares it. Its Rust output is parsed back with `syn`: enums arrive as
//! modules of constants, records with their layout assertions, bit-fields as
//! accessor methods over storage units, comments as `#[doc]` attributes.

use super::source::SourceFile;
use crate::diag::{Diagnostic, Loc};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::ctype::{CType, Prim, RecordKind};

/// The scalar bindgen spells with the last path segment `last` (`u32`, `c_uint`, ...).
fn prim_from_path(last: &str) -> Option<Prim> {
    Some(match last {
        "bool" => Prim::Bool,
        "u8" | "c_uchar" => Prim::U8,
        "i8" | "c_char" | "c_schar" => Prim::I8,
        "u16" | "c_ushort" => Prim::U16,
        "i16" | "c_short" => Prim::I16,
        "u32" | "c_uint" => Prim::U32,
        "i32" | "c_int" => Prim::I32,
        "u64" | "c_ulong" | "c_ulonglong" => Prim::U64,
        "i64" | "c_long" | "c_longlong" => Prim::I64,
        "f32" | "c_float" => Prim::F32,
        "f64" | "c_double" => Prim::F64,
        _ => return None,
    })
}

/// One enumerator.
#[derive(Clone, Debug)]
pub struct CEnumMember {
    /// Full C name.
    pub name: String,
    /// Value.
    pub value: i128,
    /// Comment clang attached (the trailing `// ...`).
    pub doc: Option<String>,
}

/// A C enum.
#[derive(Clone, Debug)]
pub struct CEnum {
    /// C name of the typedef / tag.
    pub name: String,
    /// Underlying integer type clang chose (`unsigned char` for packed enums).
    pub underlying: Prim,
    /// Members in declaration order.
    pub members: Vec<CEnumMember>,
    /// Comment above the enum.
    pub doc: Option<String>,
}

/// One field of a record, as bindgen emits it (bit-field units included).
#[derive(Clone, Debug)]
pub struct CField {
    /// Field name as C spells it (`_bitfield_1` for a bit-field unit; `anon<k>` for the k-th
    /// anonymous member, see [`CField::anonymous`]). bindgen's keyword escapes (`type_`) are undone.
    pub name: String,
    /// Its type.
    pub ty: CType,
    /// Trailing or leading comment.
    pub doc: Option<String>,
    /// An anonymous member (`union { ... };` inside a record): C has no name for it, so its
    /// members are read as members of the enclosing record; `name` is the generator's `anon<k>`.
    pub anonymous: bool,
}

/// One bit-field inside a storage unit.
#[derive(Clone, Debug)]
pub struct CBitfield {
    /// Name of the storage unit field (`_bitfield_1`).
    pub unit: String,
    /// Bit-field name.
    pub name: String,
    /// First bit inside the unit (LSB = 0).
    pub bit_offset: u32,
    /// Width in bits.
    pub width: u32,
    /// Declared type.
    pub ty: CType,
}

/// A struct or union with the layout clang computed.
#[derive(Clone, Debug)]
pub struct CRecord {
    /// C name.
    pub name: String,
    /// Struct or union.
    pub kind: RecordKind,
    /// `#[repr(C, packed)]`.
    pub packed: bool,
    /// Fields in order.
    pub fields: Vec<CField>,
    /// Bit-fields, from bindgen's accessors.
    pub bitfields: Vec<CBitfield>,
    /// Size from the layout test.
    pub size: Option<u64>,
    /// Alignment from the layout test.
    pub align: Option<u64>,
    /// Field offsets from the layout test (bit-field units have none).
    pub offsets: BTreeMap<String, u64>,
    /// Comment above the record.
    pub doc: Option<String>,
    /// For an anonymous struct or union (bindgen's `PARENT__bindgen_ty_N`, renamed): the record
    /// it sits in and the C name of the field it types (`None` for an anonymous member).
    pub anonymous_in: Option<(String, Option<String>)>,
}

/// A declaration of one header.
#[derive(Clone, Debug)]
pub enum CDecl {
    /// An enum.
    Enum(CEnum),
    /// A struct or union.
    Record(CRecord),
    /// `typedef <type> NAME;` of a non-record type.
    Typedef {
        /// C name.
        name: String,
        /// Aliased type.
        ty: CType,
        /// Comment.
        doc: Option<String>,
    },
    /// A `static const` or numeric `#define`.
    Const {
        /// C name.
        name: String,
        /// Type.
        ty: Prim,
        /// Value.
        value: i128,
        /// Comment.
        doc: Option<String>,
    },
}

impl CDecl {
    /// The declared name.
    pub fn name(&self) -> &str {
        match self {
            CDecl::Enum(e) => &e.name,
            CDecl::Record(r) => &r.name,
            CDecl::Typedef { name, .. } | CDecl::Const { name, .. } => name,
        }
    }
}

/// The declarations of one header, and what could not be translated.
#[derive(Clone, Debug)]
pub struct FileDecls {
    /// Tree-relative path.
    pub file: String,
    /// Declarations in bindgen's order.
    pub decls: Vec<CDecl>,
    /// Items bindgen produced that the generator cannot represent: (name, why).
    pub untranslatable: Vec<(String, String)>,
}

fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Target triple the headers are laid out for: the TPB is a 64-bit little-endian
/// target with natural alignment, which x86_64 Linux reproduces exactly; fixing it
/// makes the layout independent of the machine running the generator.
const LAYOUT_TARGET: &str = "--target=x86_64-unknown-linux-gnu";

/// Loads libclang for this thread (bindgen would panic without it).
pub fn ensure_libclang() -> Result<(), Diagnostic> {
    // clang-sys keeps the loaded library per thread, and finding it searches the file system
    // (a tenth of a regeneration's time when every tree's thread did it): found once per
    // process, then handed to each thread.
    static LIBRARY: std::sync::OnceLock<Result<std::sync::Arc<clang_sys::SharedLibrary>, String>> =
        std::sync::OnceLock::new();
    if clang_sys::is_loaded() {
        return Ok(());
    }
    let library = LIBRARY.get_or_init(|| {
        clang_sys::load()?;
        clang_sys::get_library().ok_or_else(|| "loaded, then not found".to_string())
    });
    match library {
        Ok(library) => {
            clang_sys::set_library(Some(library.clone()));
            Ok(())
        }
        Err(e) => Err(Diagnostic::new(
            Loc::new("(libclang)", 0),
            format!(
                "cannot load libclang, which reading C headers needs ({e}); install it with `apt-get install -y libclang-dev` or point LIBCLANG_PATH at it"
            ),
        )),
    }
}

/// Runs bindgen on every header; returns the declarations and the warnings.
///
/// Each header is parsed alone first, with only its own declarations allow-listed (so every
/// declaration is attributed to its file). A header that fails alone (an include-order
/// constraint: the vendor's `extended_utils.h` uses a type of `extended.h` without including it)
/// is parsed again after the headers that parsed alone (`-include` of each, in path order); when
/// that works it is a warning naming the first error, otherwise the first error is the error.
/// Clang's warnings (the default-on ones) are warnings at their `file:line`.
pub fn read_all(
    root: &Path,
    headers: &[SourceFile],
) -> Result<(Vec<FileDecls>, Vec<Diagnostic>), Vec<Diagnostic>> {
    ensure_libclang().map_err(|d| vec![d])?;
    let mut out: Vec<Option<FileDecls>> = vec![None; headers.len()];
    let mut warnings = Vec::new();
    let mut failed = Vec::new();
    for (k, parsed) in parse_alone(root, headers).into_iter().enumerate() {
        match parsed {
            Ok((decls, mut w)) => {
                out[k] = Some(decls);
                warnings.append(&mut w);
            }
            Err(errors) => failed.push((k, errors)),
        }
    }
    let alone: Vec<PathBuf> = headers
        .iter()
        .zip(&out)
        .filter(|(_, d)| d.is_some())
        .map(|(h, _)| absolute(&root.join(&h.rel)))
        .collect();
    let mut problems = Vec::new();
    for (k, errors) in failed {
        let header = &headers[k];
        let first = errors.first().cloned();
        let retried = if alone.is_empty() {
            None
        } else {
            read_one(root, header, &alone).ok()
        };
        match (retried, first) {
            (Some((decls, w)), Some(first)) => {
                out[k] = Some(decls);
                // Only its own warnings: the others' are reported by their own parses.
                warnings.extend(w.into_iter().filter(|d| d.loc.file == header.rel));
                warnings.push(Diagnostic::new(
                    first.loc.clone(),
                    format!(
                        "`{}` does not compile alone ({}); it parses after the tree's other headers (an include-order constraint)",
                        header.rel, first.message
                    ),
                ));
            }
            _ => problems.extend(errors),
        }
    }
    if problems.is_empty() {
        let mut decls: Vec<FileDecls> = out.into_iter().flatten().collect();
        name_anonymous_records(&mut decls);
        Ok((decls, warnings))
    } else {
        // A broken header that others include is reported once, not once per includer.
        problems.sort();
        problems.dedup();
        Err(problems)
    }
}

/// [`read_one`] of every header alone, in `headers`' order. The parses are independent (each
/// has its own libclang index), so they are spread over the machine's cores: a vendor tree's
/// hundred-odd headers were most of a one-tree regeneration's time, one after the other.
fn parse_alone(root: &Path, headers: &[SourceFile]) -> Vec<Parsed> {
    crate::parallel_map(headers, |header| {
        // clang-sys keeps the library per thread; the calling thread loaded it already.
        ensure_libclang().map_err(|d| vec![d])?;
        read_one(root, header, &[])
    })
}

/// What [`read_one`] gives for one header.
type Parsed = Result<(FileDecls, Vec<Diagnostic>), Vec<Diagnostic>>;

fn absolute(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// The clang arguments of one header's parse: the layout target, C11, every comment, no error
/// limit, `-Werror` or `-w`, the tree's include directories, `-include` of `includes` (but the
/// header itself), and the system include directories of a `clang` binary when there is one
/// (what bindgen would detect itself; it is told not to, so both parses below see one list).
fn clang_args(root: &Path, abs: &Path, includes: &[PathBuf], werror: bool) -> Vec<String> {
    static SYSTEM: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let base = [
        LAYOUT_TARGET,
        "-std=c11",
        "-fparse-all-comments",
        "-ferror-limit=0",
    ];
    let mut args: Vec<String> = base.iter().map(|a| a.to_string()).collect();
    args.push(if werror { "-Werror" } else { "-w" }.into());
    let root_abs = absolute(root);
    for dir in ["", "tpb", "common"] {
        args.push(format!("-I{}", root_abs.join(dir).display()));
    }
    for inc in includes.iter().filter(|p| **p != abs) {
        args.push("-include".into());
        args.push(inc.display().to_string());
    }
    args.extend(
        SYSTEM
            .get_or_init(|| {
                let base: Vec<String> = base.iter().map(|a| a.to_string()).collect();
                clang_sys::support::Clang::find(None, &base)
                    .and_then(|c| c.c_search_paths)
                    .unwrap_or_default()
                    .into_iter()
                    .flat_map(|p| ["-isystem".to_string(), p.display().to_string()])
                    .collect()
            })
            .iter()
            .cloned(),
    );
    args
}

/// Clang's errors of parsing `abs` with `args`, formatted as bindgen formats them (one
/// `file:line:col: error: text` per line), or `None` when there are none.
///
/// libclang prints every diagnostic to stderr when its index is created with display on, as
/// bindgen creates it; so each header is parsed here first, with display off, and bindgen only
/// gets a header whose parse has no error (under `-Werror`: no diagnostic at all). Nothing of
/// clang's reaches stderr; its diagnostics go into ours.
fn clang_errors(abs: &Path, args: &[String]) -> Result<Option<String>, String> {
    use clang_sys::*;
    use std::ffi::{CStr, CString};
    let cstr = |s: &str| CString::new(s).map_err(|_| format!("a NUL byte in `{s}`"));
    let header = cstr(&abs.to_string_lossy())?;
    let args: Vec<CString> = args.iter().map(|a| cstr(a)).collect::<Result<_, _>>()?;
    let argv: Vec<*const std::os::raw::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    // SAFETY: libclang is loaded on this thread (`ensure_libclang`); every pointer passed lives
    // until the call returns, every object created is disposed of once, after its last use.
    unsafe {
        let text = |s: CXString| {
            let p = clang_getCString(s);
            let out = if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            };
            clang_disposeString(s);
            out
        };
        let index = clang_createIndex(0, 0);
        let tu = clang_parseTranslationUnit(
            index,
            header.as_ptr(),
            argv.as_ptr(),
            argv.len() as std::os::raw::c_int,
            std::ptr::null_mut(),
            0,
            CXTranslationUnit_None,
        );
        if tu.is_null() {
            clang_disposeIndex(index);
            return Err(format!("libclang could not parse {}", abs.display()));
        }
        let mut errors = Vec::new();
        for k in 0..clang_getNumDiagnostics(tu) {
            let d = clang_getDiagnostic(tu, k);
            if clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error {
                errors.push(text(clang_formatDiagnostic(
                    d,
                    clang_defaultDiagnosticDisplayOptions(),
                )));
            }
            clang_disposeDiagnostic(d);
        }
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
        Ok((!errors.is_empty()).then(|| errors.join("\n")))
    }
}

/// The bindgen builder the reader runs on one header (`header`, relative to the tree `root`):
/// its own declarations allow-listed, with `-include` of `includes` first and the clang
/// arguments of `clang_args`. `werror` promotes clang's warnings to errors (to see them:
/// bindgen only prints them); otherwise they are silenced. Public so that a benchmark can time
/// bindgen alone with exactly the reader's options.
pub fn bindgen_builder(
    root: &Path,
    header: &str,
    includes: &[PathBuf],
    werror: bool,
) -> bindgen::Builder {
    let abs = absolute(&root.join(header));
    builder_with_args(&abs, clang_args(root, &abs, includes, werror))
}

/// [`bindgen_builder`] of the header at `abs` with clang arguments `args`.
fn builder_with_args(abs: &Path, args: Vec<String>) -> bindgen::Builder {
    bindgen::Builder::default()
        .header(abs.to_string_lossy())
        .allowlist_file(regex_escape(&abs.to_string_lossy()))
        .default_enum_style(bindgen::EnumVariation::ModuleConsts)
        .prepend_enum_name(false)
        .use_core()
        .layout_tests(true)
        .generate_comments(true)
        .derive_debug(false)
        .derive_copy(true)
        .allowlist_recursively(false)
        .derive_default(false)
        .merge_extern_blocks(true)
        // The text is parsed with syn, never read by people: formatting it would cost a
        // rustfmt process per header.
        .formatter(bindgen::Formatter::None)
        .detect_include_paths(false)
        .clang_args(args)
}

/// bindgen's Rust text of one header ([`bindgen_builder`]). The error is clang's text (see
/// [`clang_errors`]): the header is parsed once without printing first, so that bindgen, which
/// prints clang's diagnostics, only sees a header that parses.
fn bindgen_text(
    root: &Path,
    header: &SourceFile,
    includes: &[PathBuf],
    werror: bool,
) -> Result<String, String> {
    let abs = absolute(&root.join(&header.rel));
    let args = clang_args(root, &abs, includes, werror);
    if let Some(errors) = clang_errors(&abs, &args)? {
        return Err(errors);
    }
    builder_with_args(&abs, args)
        .generate()
        .map(|b| b.to_string())
        .map_err(|e| e.to_string())
}

/// One header: its declarations and its clang warnings, or its errors.
fn read_one(
    root: &Path,
    header: &SourceFile,
    includes: &[PathBuf],
) -> Result<(FileDecls, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (text, warnings) = match bindgen_text(root, header, includes, true) {
        Ok(text) => (text, Vec::new()),
        Err(first) => {
            // With -Werror it failed: without it, either it parses (everything was a warning)
            // or it does not (a real error).
            match bindgen_text(root, header, includes, false) {
                Ok(text) => (text, clang_diagnostics(root, header, &first, true)),
                Err(e) => {
                    // One line: the first error, and how many more clang gave.
                    let mut errors = clang_diagnostics(root, header, &e, false);
                    let more = errors.len().saturating_sub(1);
                    errors.truncate(1);
                    if more > 0 {
                        errors[0].message.push_str(&format!(" (and {more} more)"));
                    }
                    return Err(errors);
                }
            }
        }
    };
    let file = syn::parse_file(&text).map_err(|e| {
        vec![Diagnostic::new(
            Loc::new(header.rel.clone(), 0),
            format!("bindgen output does not parse as Rust: {e}"),
        )]
    })?;
    Ok((walk(&header.rel, &file), warnings))
}

/// Clang's diagnostics in bindgen's error text as tree-relative `file:line` diagnostics: the
/// errors (`C error: ...`), or, for a parse that failed only under `-Werror`, the warnings.
fn clang_diagnostics(
    root: &Path,
    header: &SourceFile,
    message: &str,
    warnings: bool,
) -> Vec<Diagnostic> {
    let root_prefix = format!("{}/", absolute(root).display());
    let text = message
        .strip_prefix("clang diagnosed error: ")
        .unwrap_or(message);
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.replace(&root_prefix, "");
        // clang prints `path:line:col: error: text`.
        let mut parts = line.splitn(4, ':');
        if let (Some(file), Some(num), Some(_col), Some(rest)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        {
            if let Ok(num) = num.trim().parse::<u32>() {
                let rest = rest.trim();
                let Some(what) = rest
                    .strip_prefix("error:")
                    .or_else(|| rest.strip_prefix("fatal error:"))
                else {
                    continue;
                };
                let kind = if warnings { "C warning" } else { "C error" };
                out.push(Diagnostic::new(
                    Loc::new(file.trim(), num),
                    format!("{kind}: {}", what.trim()),
                ));
            }
        }
    }
    if out.is_empty() {
        let first = text
            .lines()
            .next()
            .unwrap_or(text)
            .replace(&root_prefix, "");
        out.push(Diagnostic::new(
            Loc::new(header.rel.clone(), 0),
            format!(
                "clang {}: {}",
                if warnings { "warned" } else { "failed" },
                first.trim()
            ),
        ));
    }
    out
}

fn doc_of(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                lines.push(s.value());
            }
        }
    }
    let joined = lines.join("\n");
    let cleaned = clean_comment(&joined);
    (!cleaned.is_empty()).then_some(cleaned)
}

/// Drops `fn` spec blocks (they are read separately) and trims comment text.
pub fn clean_comment(raw: &str) -> String {
    let mut kept = Vec::new();
    let mut depth: i64 = 0;
    let mut in_spec = false;
    for line in raw.lines() {
        let t = line.trim();
        if !in_spec && t.starts_with("fn ") {
            in_spec = true;
            depth = 0;
        }
        if in_spec {
            let code = t.find("//").map_or(t, |k| &t[..k]);
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if depth <= 0 && code.contains('}') {
                in_spec = false;
            }
            continue;
        }
        kept.push(t.trim_start_matches(['*', '/']).trim().to_string());
    }
    while kept.first().is_some_and(|l| l.is_empty()) {
        kept.remove(0);
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// The identifiers of a path, outermost first (`a::b::C` gives `[a, b, C]`).
pub fn path_idents(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The last identifier of a path (empty for an empty path).
pub fn path_last(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

fn lit_u64(expr: &syn::Expr) -> Option<u64> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<u64>().ok(),
        syn::Expr::Paren(p) => lit_u64(&p.expr),
        _ => None,
    }
}

fn lit_i128(expr: &syn::Expr) -> Option<i128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<i128>().ok(),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Some(i128::from(b.value)),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => lit_i128(&u.expr).map(|v| -v),
        syn::Expr::Paren(p) => lit_i128(&p.expr),
        syn::Expr::Cast(c) => lit_i128(&c.expr),
        _ => None,
    }
}

/// Maps bindgen's spelling of a type to [`CType`].
pub fn ctype(ty: &syn::Type) -> CType {
    match ty {
        syn::Type::Path(p) => {
            let segs = path_idents(&p.path);
            let last = segs.last().cloned().unwrap_or_default();
            if last == "__BindgenUnionField" {
                // bindgen's stand-in for a union member whose type it cannot prove `Copy`.
                if let Some(syn::PathSegment {
                    arguments: syn::PathArguments::AngleBracketed(args),
                    ..
                }) = p.path.segments.last()
                {
                    if let Some(syn::GenericArgument::Type(inner)) = args.args.first() {
                        return ctype(inner);
                    }
                }
            }
            if last == "__BindgenBitfieldUnit" {
                if let Some(syn::PathSegment {
                    arguments: syn::PathArguments::AngleBracketed(args),
                    ..
                }) = p.path.segments.last()
                {
                    if let Some(syn::GenericArgument::Type(syn::Type::Array(a))) = args.args.first()
                    {
                        if let Some(n) = lit_u64(&a.len) {
                            return CType::BitfieldUnit(n);
                        }
                    }
                }
                return CType::Unsupported(quote::quote!(#ty).to_string());
            }
            if last == "Type" && segs.len() >= 2 {
                return CType::Enum(segs[segs.len() - 2].clone());
            }
            if let Some(prim) = prim_from_path(&last) {
                return CType::Prim(prim);
            }
            if segs.len() == 1 {
                return CType::Named(last);
            }
            CType::Unsupported(quote::quote!(#ty).to_string())
        }
        syn::Type::Array(a) => match lit_u64(&a.len) {
            Some(n) => CType::Array(Box::new(ctype(&a.elem)), n),
            None => CType::Unsupported(quote::quote!(#ty).to_string()),
        },
        other => CType::Unsupported(quote::quote!(#other).to_string()),
    }
}

fn is_bindgen_helper(name: &str) -> bool {
    name.starts_with("__Bindgen")
        || name.starts_with("__IncompleteArray")
        || name == "__BindgenUnionField"
}

fn walk(rel: &str, file: &syn::File) -> FileDecls {
    let mut decls: Vec<CDecl> = Vec::new();
    let mut untranslatable = Vec::new();
    let mut layouts: Vec<(String, u64)> = Vec::new();
    let mut bitfields: BTreeMap<String, Vec<CBitfield>> = BTreeMap::new();
    for item in &file.items {
        match item {
            syn::Item::Mod(m) => {
                let name = m.ident.to_string();
                let Some((_, items)) = &m.content else {
                    continue;
                };
                let mut underlying = None;
                let mut members = Vec::new();
                for inner in items {
                    match inner {
                        syn::Item::Type(t) if t.ident == "Type" => {
                            if let CType::Prim(p) = ctype(&t.ty) {
                                underlying = Some(p);
                            }
                        }
                        syn::Item::Const(c) => match lit_i128(&c.expr) {
                            Some(value) => members.push(CEnumMember {
                                name: c.ident.to_string(),
                                value,
                                doc: doc_of(&c.attrs),
                            }),
                            None => untranslatable.push((
                                c.ident.to_string(),
                                "enumerator value is not a literal".to_string(),
                            )),
                        },
                        _ => {}
                    }
                }
                match underlying {
                    Some(underlying) => decls.push(CDecl::Enum(CEnum {
                        doc: doc_of(&m.attrs).or_else(|| {
                            items.iter().find_map(|i| match i {
                                syn::Item::Type(t) => doc_of(&t.attrs),
                                _ => None,
                            })
                        }),
                        name,
                        underlying,
                        members,
                    })),
                    None => untranslatable.push((name, "enum without an integer type".into())),
                }
            }
            syn::Item::Struct(s) => {
                let name = s.ident.to_string();
                if is_bindgen_helper(&name) {
                    continue;
                }
                // A union bindgen could not emit natively arrives as a struct of
                // `__BindgenUnionField`s plus a `bindgen_union_field` storage array.
                let emulated_union = matches!(&s.fields, syn::Fields::Named(f)
                    if f.named.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == "bindgen_union_field")));
                let fields = match &s.fields {
                    syn::Fields::Named(f) => f
                        .named
                        .iter()
                        .filter(|f| f.ident.as_ref().is_none_or(|i| i != "bindgen_union_field"))
                        .map(|f| CField {
                            name: c_name_of(
                                &f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default(),
                            ),
                            ty: ctype(&f.ty),
                            doc: doc_of(&f.attrs),
                            anonymous: false,
                        })
                        .collect(),
                    syn::Fields::Unit => Vec::new(),
                    syn::Fields::Unnamed(_) => {
                        untranslatable.push((name, "tuple struct from bindgen".into()));
                        continue;
                    }
                };
                decls.push(CDecl::Record(CRecord {
                    packed: repr_has(&s.attrs, "packed"),
                    kind: if emulated_union {
                        RecordKind::Union
                    } else {
                        RecordKind::Struct
                    },
                    doc: doc_of(&s.attrs),
                    name,
                    fields,
                    bitfields: Vec::new(),
                    size: None,
                    align: None,
                    offsets: BTreeMap::new(),
                    anonymous_in: None,
                }));
            }
            syn::Item::Union(u) => {
                let name = u.ident.to_string();
                let fields = u
                    .fields
                    .named
                    .iter()
                    .map(|f| CField {
                        name: c_name_of(
                            &f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default(),
                        ),
                        ty: ctype(&f.ty),
                        doc: doc_of(&f.attrs),
                        anonymous: false,
                    })
                    .collect();
                decls.push(CDecl::Record(CRecord {
                    packed: repr_has(&u.attrs, "packed"),
                    kind: RecordKind::Union,
                    doc: doc_of(&u.attrs),
                    name,
                    fields,
                    bitfields: Vec::new(),
                    size: None,
                    align: None,
                    offsets: BTreeMap::new(),
                    anonymous_in: None,
                }));
            }
            syn::Item::Type(t) => decls.push(CDecl::Typedef {
                name: t.ident.to_string(),
                ty: ctype(&t.ty),
                doc: doc_of(&t.attrs),
            }),
            syn::Item::Const(c) if c.ident == "_" => collect_layout(&c.expr, &mut layouts),
            syn::Item::Const(c) => {
                let ty = match ctype(&c.ty) {
                    CType::Prim(p) => p,
                    other => {
                        untranslatable
                            .push((c.ident.to_string(), format!("constant of type {other:?}")));
                        continue;
                    }
                };
                match lit_i128(&c.expr) {
                    Some(value) => decls.push(CDecl::Const {
                        name: c.ident.to_string(),
                        ty,
                        value,
                        doc: doc_of(&c.attrs),
                    }),
                    None => untranslatable.push((
                        c.ident.to_string(),
                        "constant initializer is not an integer literal".into(),
                    )),
                }
            }
            syn::Item::Impl(imp) => {
                if let syn::Type::Path(p) = &*imp.self_ty {
                    let owner = path_last(&p.path);
                    if is_bindgen_helper(&owner) {
                        continue;
                    }
                    for bf in bitfield_accessors(imp) {
                        bitfields.entry(owner.clone()).or_default().push(bf);
                    }
                }
            }
            syn::Item::ForeignMod(f) => {
                for it in &f.items {
                    let name = match it {
                        syn::ForeignItem::Fn(func) => func.sig.ident.to_string(),
                        syn::ForeignItem::Static(s) => s.ident.to_string(),
                        _ => "extern item".to_string(),
                    };
                    untranslatable.push((
                        name,
                        "functions and extern variables are not part of the ISA model".into(),
                    ));
                }
            }
            syn::Item::Use(u) => match enum_typedef(&u.tree) {
                // `typedef NEURON_ISA_TPB_X NEURON_ISA_TPB_Y;` of an enum X.
                Some((name, enum_name)) => decls.push(CDecl::Typedef {
                    name,
                    ty: CType::Enum(enum_name),
                    doc: doc_of(&u.attrs),
                }),
                None => untranslatable.push((
                    quote::quote!(#u).to_string().chars().take(60).collect(),
                    "`use` item not understood".into(),
                )),
            },
            other => untranslatable.push((
                quote::quote!(#other).to_string().chars().take(60).collect(),
                "item kind not understood".into(),
            )),
        }
    }
    for decl in &mut decls {
        if let CDecl::Record(r) = decl {
            if let Some(bfs) = bitfields.remove(&r.name) {
                r.bitfields = bfs;
            }
            for (label, value) in &layouts {
                if let Some(rest) = label.strip_prefix("Size of ") {
                    if rest == r.name {
                        r.size = Some(*value);
                    }
                } else if let Some(rest) = label.strip_prefix("Alignment of ") {
                    if rest == r.name {
                        r.align = Some(*value);
                    }
                } else if let Some(rest) = label.strip_prefix("Offset of field: ") {
                    if let Some((owner, field)) = rest.split_once("::") {
                        if owner == r.name {
                            r.offsets.insert(c_name_of(field), *value);
                        }
                    }
                }
            }
        }
    }
    FileDecls {
        file: rel.to_string(),
        decls,
        untranslatable,
    }
}

/// `use self::NEURON_ISA_TPB_X::Type as NEURON_ISA_TPB_Y;`, bindgen's form of a typedef of an
/// enum (enums are modules of constants): `(Y, X)`.
fn enum_typedef(tree: &syn::UseTree) -> Option<(String, String)> {
    let syn::UseTree::Path(s) = tree else {
        return None;
    };
    if s.ident != "self" {
        return None;
    }
    let syn::UseTree::Path(e) = &*s.tree else {
        return None;
    };
    let syn::UseTree::Rename(r) = &*e.tree else {
        return None;
    };
    (r.ident == "Type").then(|| (r.rename.to_string(), e.ident.to_string()))
}

/// The names bindgen escapes with a trailing `_` because they are Rust keywords or type names
/// (bindgen's `rust_mangle`).
const BINDGEN_ESCAPED: &[&str] = &[
    "abstract", "alignof", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "offsetof", "override",
    "priv", "proc", "pub", "pure", "ref", "return", "Self", "self", "sizeof", "static", "struct",
    "super", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual",
    "where", "while", "yield", "str", "bool", "f32", "f64", "usize", "isize", "u128", "i128",
    "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8",
];

/// The C name of a field bindgen spelled `name` (`type_` is C's `type`).
pub fn c_name_of(name: &str) -> String {
    match name.strip_suffix('_') {
        Some(c) if BINDGEN_ESCAPED.contains(&c) => c.to_string(),
        _ => name.to_string(),
    }
}

/// Marker of bindgen's names for anonymous records (`PARENT__bindgen_ty_N`).
const BINDGEN_ANON_TYPE: &str = "__bindgen_ty_";
/// Marker of bindgen's names for anonymous members (`__bindgen_anon_N`).
const BINDGEN_ANON_MEMBER: &str = "__bindgen_anon_";

/// Gives bindgen's anonymous records stable names derived from where they sit: the type of a
/// named field `f` of record `P` becomes `P_f`; the k-th anonymous member of `P` becomes field
/// `anon<k>` of type `P_anon<k>` (a name already taken gets `_2`, `_3`, ...). Nested anonymous
/// records are named from their renamed parent. Nothing named `__bindgen_*` survives.
fn name_anonymous_records(files: &mut [FileDecls]) {
    let mut taken: std::collections::BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.decls.iter().map(|d| d.name().to_string()))
        .collect();
    let fresh = |base: String, taken: &mut std::collections::BTreeSet<String>| {
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        taken.insert(name.clone());
        name
    };
    // (original name, new name, parent's new name, field C name) of each anonymous record.
    let mut renames: BTreeMap<String, (String, String, Option<String>)> = BTreeMap::new();
    // Parents to visit: (original name, new name), named records first.
    let mut queue: Vec<(String, String)> = files
        .iter()
        .flat_map(|f| f.decls.iter())
        .filter_map(|d| match d {
            CDecl::Record(r) if !r.name.contains(BINDGEN_ANON_TYPE) => {
                Some((r.name.clone(), r.name.clone()))
            }
            _ => None,
        })
        .collect();
    let mut field_renames: BTreeMap<(String, String), String> = BTreeMap::new();
    while let Some((orig, new)) = queue.pop() {
        let Some(rec) = files
            .iter()
            .flat_map(|f| f.decls.iter())
            .find_map(|d| match d {
                CDecl::Record(r) if r.name == orig => Some(r),
                _ => None,
            })
        else {
            continue;
        };
        let prefix = format!("{orig}{BINDGEN_ANON_TYPE}");
        let mut k = 0;
        let mut field_names: Vec<String> = rec.fields.iter().map(|f| f.name.clone()).collect();
        for f in &rec.fields {
            let Some(child) = named_in(&f.ty).filter(|n| n.starts_with(&prefix)) else {
                continue;
            };
            if renames.contains_key(child) {
                continue;
            }
            let (child_new, field) = if f.name.starts_with(BINDGEN_ANON_MEMBER) {
                k += 1;
                let mut fname = format!("anon{k}");
                while field_names.contains(&fname) {
                    fname.push('_');
                }
                field_names.push(fname.clone());
                field_renames.insert((orig.clone(), f.name.clone()), fname.clone());
                (fresh(format!("{new}_{fname}"), &mut taken), None)
            } else {
                (
                    fresh(format!("{new}_{}", f.name), &mut taken),
                    Some(f.name.clone()),
                )
            };
            renames.insert(child.to_string(), (child_new.clone(), new.clone(), field));
            queue.push((child.to_string(), child_new));
        }
    }
    for file in files.iter_mut() {
        for decl in &mut file.decls {
            match decl {
                CDecl::Record(r) => {
                    let orig = r.name.clone();
                    for f in &mut r.fields {
                        if let Some(n) = field_renames.get(&(orig.clone(), f.name.clone())) {
                            f.name = n.clone();
                            f.anonymous = true;
                        }
                        rename_type(&mut f.ty, &renames);
                    }
                    for bf in &mut r.bitfields {
                        rename_type(&mut bf.ty, &renames);
                    }
                    if let Some((new, parent, field)) = renames.get(&orig) {
                        r.name = new.clone();
                        r.anonymous_in = Some((parent.clone(), field.clone()));
                    }
                }
                CDecl::Typedef { ty, .. } => rename_type(ty, &renames),
                _ => {}
            }
        }
    }
}

/// The record or typedef name a type names (through arrays).
fn named_in(ty: &CType) -> Option<&str> {
    match ty {
        CType::Named(n) => Some(n),
        CType::Array(inner, _) => named_in(inner),
        _ => None,
    }
}

fn rename_type(ty: &mut CType, renames: &BTreeMap<String, (String, String, Option<String>)>) {
    match ty {
        CType::Named(n) => {
            if let Some((new, _, _)) = renames.get(n.as_str()) {
                *n = new.clone();
            }
        }
        CType::Array(inner, _) => rename_type(inner, renames),
        _ => {}
    }
}

fn repr_has(attrs: &[syn::Attribute], what: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("repr") && {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                if m.path.is_ident(what) {
                    found = true;
                }
                if m.input.peek(syn::token::Paren) {
                    let _content;
                    syn::parenthesized!(_content in m.input);
                }
                Ok(())
            });
            found
        }
    })
}

/// `["label"][<expr> - 64usize];` statements of bindgen's layout tests.
fn collect_layout(expr: &syn::Expr, out: &mut Vec<(String, u64)>) {
    let syn::Expr::Block(block) = expr else {
        return;
    };
    for stmt in &block.block.stmts {
        let syn::Stmt::Expr(syn::Expr::Index(index), _) = stmt else {
            continue;
        };
        let syn::Expr::Array(label) = &*index.expr else {
            continue;
        };
        let Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(label),
            ..
        })) = label.elems.first()
        else {
            continue;
        };
        if let syn::Expr::Binary(b) = &*index.index {
            if let Some(v) = lit_u64(&b.right) {
                out.push((label.value(), v));
            }
        }
    }
}

/// Bit-field getters: `pub fn name(&self) -> T { ... self._bitfield_1.get(OFF, W) ... }`.
fn bitfield_accessors(imp: &syn::ItemImpl) -> Vec<CBitfield> {
    struct Finder {
        found: Option<(String, u32, u32)>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            if call.method == "get" && call.args.len() == 2 {
                if let syn::Expr::Field(f) = &*call.receiver {
                    if let syn::Member::Named(unit) = &f.member {
                        let unit = unit.to_string();
                        if unit.starts_with("_bitfield_") {
                            if let (Some(off), Some(w)) =
                                (lit_u64(&call.args[0]), lit_u64(&call.args[1]))
                            {
                                self.found = Some((unit, off as u32, w as u32));
                            }
                        }
                    }
                }
            }
            syn::visit::visit_expr_method_call(self, call);
        }
    }
    let mut out = Vec::new();
    for item in &imp.items {
        let syn::ImplItem::Fn(f) = item else { continue };
        let name = f.sig.ident.to_string();
        let is_getter = f.sig.inputs.len() == 1
            && matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(r)) if r.mutability.is_none())
            && f.sig.unsafety.is_none();
        if !is_getter || name.starts_with("set_") {
            continue;
        }
        let syn::ReturnType::Type(_, ret) = &f.sig.output else {
            continue;
        };
        let mut finder = Finder { found: None };
        syn::visit::Visit::visit_block(&mut finder, &f.block);
        if let Some((unit, bit_offset, width)) = finder.found {
            out.push(CBitfield {
                unit,
                name: c_name_of(&name),
                bit_offset,
                width,
                ty: ctype(ret),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_cleaning_drops_spec_blocks() {
        let raw = " Neuron format\n Use for: X\n\n fn a(i: Inst) -> bool {\n   (i.x == 1) // note {\n }\n tail";
        assert_eq!(clean_comment(raw), "Neuron format\nUse for: X\n\ntail");
    }

    #[test]
    fn types_map_from_bindgen_spelling() {
        let t: syn::Type = syn::parse_str("[u32; 8usize]").unwrap();
        assert_eq!(ctype(&t), CType::Array(Box::new(CType::Prim(Prim::U32)), 8));
        let t: syn::Type = syn::parse_str("NEURON_ISA_TPB_DTYPE::Type").unwrap();
        assert_eq!(ctype(&t), CType::Enum("NEURON_ISA_TPB_DTYPE".into()));
        let t: syn::Type = syn::parse_str("::core::ffi::c_uchar").unwrap();
        assert_eq!(ctype(&t), CType::Prim(Prim::U8));
        let t: syn::Type = syn::parse_str("*mut u8").unwrap();
        assert!(matches!(ctype(&t), CType::Unsupported(_)));
    }
}
