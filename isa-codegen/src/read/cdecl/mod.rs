//! C declarations, read with bindgen and walked with syn.
//!
//! bindgen (libclang) parses each header of `tpb/` with only that header's own
//! declarations allow-listed, so every declaration is attributed to the file
//! that declares it. Its Rust output is parsed back with `syn`: enums arrive as
//! modules of constants, records with their layout assertions, bit-fields as
//! accessor methods over storage units, comments as `#[doc]` attributes.
//!
//! `clang` runs clang and bindgen on one header, `walk` turns bindgen's items into the
//! declarations of `decl` (reading bindgen's spelling through `syntax`), and `anon` names the
//! anonymous records once every header is read.

mod anon;
mod clang;
mod decl;
mod syntax;
mod walk;

pub use clang::{bindgen_builder, ensure_libclang};
pub use decl::{CBitfield, CDecl, CEnum, CEnumMember, CField, CRecord, FileDecls};
pub use syntax::{path_idents, path_last};

use crate::diag::{Diagnostic, Loc};
use crate::read::source::SourceFile;
use std::path::{Path, PathBuf};

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
        .map(|(h, _)| clang::absolute(&root.join(&h.rel)))
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
        anon::name_anonymous_records(&mut decls);
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

/// One header: its declarations and its clang warnings, or its errors.
fn read_one(root: &Path, header: &SourceFile, includes: &[PathBuf]) -> Parsed {
    let (text, warnings) = clang::header_text(root, header, includes)?;
    // bindgen's text is not the header's: no line of the header to name.
    let file = syn::parse_file(&text).map_err(|e| {
        vec![Diagnostic::new(
            Loc::whole(header.rel.clone()),
            format!("bindgen output does not parse as Rust: {e}"),
        )]
    })?;
    Ok((walk::walk(&header.rel, &file), warnings))
}
