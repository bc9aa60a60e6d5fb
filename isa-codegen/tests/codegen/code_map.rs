//! ARCHITECTURE.md's code map names every module of the generator, so that a newcomer can find
//! from it alone where a fact is computed or a file written.

use std::path::{Path, PathBuf};

/// The generator's source files, relative to `src/`, `/`-separated.
fn source_files(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            source_files(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".rs") {
            out.push(format!("{prefix}{name}"));
        }
    }
}

/// How the code map may name a file: a directory module by its directory (`model/passes/`), a
/// file by its name with or without `.rs` (`emit/place.rs`, `` `decls` `` inside its directory's
/// row).
fn spellings(file: &str) -> Vec<String> {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    if name == "mod.rs" {
        return vec![format!("{dir}/"), format!("{dir}/mod.rs")];
    }
    let stem = name.trim_end_matches(".rs");
    vec![
        format!("`{file}`"),
        format!("`{name}`"),
        format!("`{stem}`"),
    ]
}

#[test]
fn code_map_names_every_generator_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = doc
        .find("### `isa-codegen/src`")
        .expect("the code map has an isa-codegen section");
    let end = doc[start..].find("\n## ").map_or(doc.len(), |k| start + k);
    let map = &doc[start..end];
    let mut files = Vec::new();
    source_files(&root.join("src"), "", &mut files);
    assert!(files.len() > 40, "found only {files:?}");
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !spellings(f).iter().any(|s| map.contains(s.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's isa-codegen code map does not name: {missing:?}"
    );
}
