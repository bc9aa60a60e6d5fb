//! Running clang and bindgen on one header: the clang arguments, libclang loaded once per
//! process, a silent pre-parse that turns clang's errors into diagnostics, and bindgen's Rust
//! text of the header's own declarations.

use crate::diag::{Diagnostic, Loc};
use crate::read::source::SourceFile;
use std::path::{Path, PathBuf};

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
            Loc::whole("(libclang)"),
            format!(
                "cannot load libclang, which reading C headers needs ({e}); install it with `apt-get install -y libclang-dev` or point LIBCLANG_PATH at it"
            ),
        )),
    }
}

pub(super) fn absolute(path: &Path) -> PathBuf {
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
fn silent_parse_errors(abs: &Path, args: &[String]) -> Result<Option<String>, String> {
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
/// [`silent_parse_errors`]): the header is parsed once without printing first, so that bindgen,
/// which prints clang's diagnostics, only sees a header that parses.
fn bindgen_text(
    root: &Path,
    header: &SourceFile,
    includes: &[PathBuf],
    werror: bool,
) -> Result<String, String> {
    let abs = absolute(&root.join(&header.rel));
    let args = clang_args(root, &abs, includes, werror);
    if let Some(errors) = silent_parse_errors(&abs, &args)? {
        return Err(errors);
    }
    builder_with_args(&abs, args)
        .generate()
        .map(|b| b.to_string())
        .map_err(|e| e.to_string())
}

/// bindgen's Rust text of one header and clang's warnings about it, or clang's errors: parsed with
/// `-Werror` first, so that a header with warnings fails there and parses again under `-w`.
pub(super) fn header_text(
    root: &Path,
    header: &SourceFile,
    includes: &[PathBuf],
) -> Result<(String, Vec<Diagnostic>), Vec<Diagnostic>> {
    match bindgen_text(root, header, includes, true) {
        Ok(text) => Ok((text, Vec::new())),
        Err(first) => {
            // With -Werror it failed: without it, either it parses (everything was a warning)
            // or it does not (a real error).
            match bindgen_text(root, header, includes, false) {
                Ok(text) => Ok((
                    text,
                    diagnostics_from_clang_text(root, header, &first, true),
                )),
                Err(e) => {
                    // One line: the first error, and how many more clang gave.
                    let mut errors = diagnostics_from_clang_text(root, header, &e, false);
                    let more = errors.len().saturating_sub(1);
                    errors.truncate(1);
                    if more > 0 {
                        errors[0].message.push_str(&format!(" (and {more} more)"));
                    }
                    Err(errors)
                }
            }
        }
    }
}

/// Clang's diagnostics in bindgen's error text as tree-relative `file:line` diagnostics: the
/// errors (`C error: ...`), or, for a parse that failed only under `-Werror`, the warnings.
fn diagnostics_from_clang_text(
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
        // Clang (or bindgen) failed without naming a place in the header: the header as a whole.
        let first = text
            .lines()
            .next()
            .unwrap_or(text)
            .replace(&root_prefix, "");
        out.push(Diagnostic::new(
            Loc::whole(header.rel.clone()),
            format!(
                "clang {}: {}",
                if warnings { "warned" } else { "failed" },
                first.trim()
            ),
        ));
    }
    out
}
