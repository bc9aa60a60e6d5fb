//! `cargo run --release -p bindgen-alone [-- HEADERS_DIR]`: the bindgen-alone side of
//! the regeneration row of issue 11. Runs bindgen, with isa-codegen's own options
//! (`isa_codegen::read::cdecl::bindgen_builder`), on every header isa-codegen reads in each tree of
//! `headers/`, the way its reader does: each header alone, and a header that fails alone again
//! after the others (`-include`). Prints what it did; exit 1 on a failure.

use isa_codegen::read::cdecl::{bindgen_builder, ensure_libclang};
use isa_codegen::read::source::read_headers;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Bytes of Rust bindgen produced for the tree at `root`, and the headers read.
fn tree(root: &Path) -> Result<(usize, usize), String> {
    let headers = read_headers(root).map_err(|d| format!("{}: {d:?}", root.display()))?;
    let generate = |rel: &str, includes: &[PathBuf], werror: bool| {
        bindgen_builder(root, rel, includes, werror)
            .generate()
            .map(|b| b.to_string().len())
    };
    let mut bytes = 0;
    let mut failed = Vec::new();
    let mut alone = Vec::new();
    for h in &headers {
        // As the reader: with -Werror first; a failure is tried again without it.
        match generate(&h.rel, &[], true).or_else(|_| generate(&h.rel, &[], false)) {
            Ok(n) => {
                bytes += n;
                alone.push(
                    root.join(&h.rel)
                        .canonicalize()
                        .map_err(|e| e.to_string())?,
                );
            }
            Err(_) => failed.push(&h.rel),
        }
    }
    for rel in failed {
        bytes +=
            generate(rel, &alone, false).map_err(|e| format!("{}/{rel}: {e}", root.display()))?;
    }
    Ok((bytes, headers.len()))
}

fn main() -> ExitCode {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            [env!("CARGO_MANIFEST_DIR"), "..", "..", "headers"]
                .iter()
                .collect()
        });
    if let Err(d) = ensure_libclang() {
        eprintln!("bindgen-alone: {}", d.message);
        return ExitCode::FAILURE;
    }
    let mut trees: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("tpb").is_dir())
            .collect(),
        Err(e) => {
            eprintln!("bindgen-alone: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    trees.sort();
    let (mut headers, mut bytes) = (0, 0);
    for root in &trees {
        match tree(root) {
            Ok((b, h)) => {
                bytes += b;
                headers += h;
            }
            Err(e) => {
                eprintln!("bindgen-alone: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "bindgen alone: {} trees, {headers} headers, {bytes} bytes of Rust",
        trees.len()
    );
    ExitCode::SUCCESS
}
