//! Stage 1, read: find a tree's files and turn them into raw declarations
//! (bindgen), spec blocks (syn) and the struct ↔ opcode mapping (serde_json).
//! Nothing here interprets what the declarations mean; that is the model's job.

pub mod cdecl;
pub mod cfunc;
pub mod json;
pub mod mapping;
pub mod note;
pub mod runtime;
pub mod source;
pub mod spec;

use crate::diag::{Diagnostic, Error, Loc};
use isa_core::fingerprint::TreeFingerprint;
use std::path::{Path, PathBuf};

/// Everything read from one header tree.
#[derive(Debug)]
pub struct TreeInput {
    /// Directory name (`neuron_mariana_arch_isa`).
    pub tree_name: String,
    /// Upper-case generation name taken from the directory name (`MARIANA`).
    pub generation: String,
    /// The tree directory.
    pub root: PathBuf,
    /// Fingerprints of every file of the tree.
    pub fingerprint: TreeFingerprint,
    /// The headers under `tpb/` and `common/`, with their text, sorted by path.
    pub headers: Vec<source::SourceFile>,
    /// Declarations bindgen found, per header.
    pub decls: Vec<cdecl::FileDecls>,
    /// `// fn` blocks, parsed.
    pub specs: Vec<spec::SpecBlock>,
    /// `// fn` blocks that do not parse (each a warning; the model drops their callers).
    pub spec_unparsed: Vec<spec::Unparsed>,
    /// `tpb/instruction_mapping.json`.
    pub mapping: mapping::Mapping,
    /// `rng-runtime.json`, when the tree has it.
    pub runtime: Option<runtime::Runtime>,
    /// The `STATIC inline bool` C functions of every header (read lexically; bodies unparsed).
    pub c_functions: Vec<cfunc::CFunction>,
    /// The opcode → debug-validator switch of `aws_neuron_isa_tpb_debug_assert.h`, when the tree
    /// has that file.
    pub debug_switch: Option<Vec<cfunc::DebugCase>>,
    /// Problems the read stage worked around (the model adds its own and carries them all).
    pub warnings: Vec<Diagnostic>,
}

/// Splits `neuron_<gen>_arch_isa` into its generation name.
pub fn generation_of(tree_name: &str) -> Option<String> {
    let gen = tree_name
        .strip_prefix("neuron_")?
        .strip_suffix("_arch_isa")?;
    (!gen.is_empty()
        && gen
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
    .then(|| gen.to_ascii_uppercase())
}

/// Reads the tree at `root` (a `neuron_<gen>_arch_isa` directory).
pub fn read_tree(root: &Path) -> Result<TreeInput, Error> {
    let tree_name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fail = |loc: Loc, msg: String| Error::single(tree_name.clone(), loc, msg);
    if !root.is_dir() {
        return Err(Error::single(
            "",
            Loc::whole(root.display().to_string()),
            "header tree not found (expected a neuron_<gen>_arch_isa directory)",
        ));
    }
    let generation = generation_of(&tree_name).ok_or_else(|| {
        fail(
            Loc::whole("."),
            format!("directory name `{tree_name}` is not of the form neuron_<gen>_arch_isa"),
        )
    })?;
    let fingerprint = TreeFingerprint::of_dir(root)
        .map_err(|e| fail(Loc::whole("."), format!("cannot read the tree: {e}")))?;
    let tpb = root.join("tpb");
    if !tpb.is_dir() {
        return Err(fail(
            Loc::whole("tpb"),
            "the tree has no tpb/ directory".into(),
        ));
    }
    let headers = source::read_headers(root).map_err(|d| Error {
        tree: tree_name.clone(),
        diagnostics: d,
    })?;
    if !headers.iter().any(|h| h.rel == source::COMMON_HEADER) {
        return Err(fail(
            Loc::whole(source::COMMON_HEADER),
            "missing: every tree has aws_neuron_isa_tpb_common.h".into(),
        ));
    }
    let (decls, mut warnings) = cdecl::read_all(root, &headers).map_err(|d| Error {
        tree: tree_name.clone(),
        diagnostics: d,
    })?;
    let (specs, spec_unparsed) = spec::extract_all(&headers).map_err(|d| Error {
        tree: tree_name.clone(),
        diagnostics: d,
    })?;
    for u in &spec_unparsed {
        warnings.push(Diagnostic::new(
            u.loc.clone(),
            match &u.name {
                Some(name) => format!("spec function `{name}` is not translated: {}", u.reason),
                None => format!("a spec block is not translated: {}", u.reason),
            },
        ));
    }
    let c_functions = headers.iter().flat_map(cfunc::bool_functions).collect();
    let debug_switch = headers
        .iter()
        .find(|h| h.rel == cfunc::DEBUG_ASSERT)
        .map(cfunc::debug_switch);
    let mapping = mapping::read(root).map_err(|d| Error {
        tree: tree_name.clone(),
        diagnostics: vec![d],
    })?;
    let runtime = runtime::read(root).map_err(|d| Error {
        tree: tree_name.clone(),
        diagnostics: vec![d],
    })?;
    Ok(TreeInput {
        runtime,
        tree_name,
        generation,
        root: root.to_path_buf(),
        fingerprint,
        headers,
        decls,
        specs,
        spec_unparsed,
        c_functions,
        debug_switch,
        mapping,
        warnings: {
            crate::diag::normalize(&mut warnings);
            warnings
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_names_come_from_the_directory() {
        assert_eq!(
            generation_of("neuron_mariana_arch_isa").as_deref(),
            Some("MARIANA")
        );
        assert_eq!(generation_of("neuron__arch_isa"), None);
        assert_eq!(generation_of("arch-isa"), None);
    }
}
