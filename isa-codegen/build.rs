//! Records what prints the generated files (`emit/format.rs`, `printers`): the workspace's
//! pinned toolchain, whose rustfmt formats them, and the versions of the crates that turn items
//! into text, as this build resolved them. Outside the workspace (a packaged copy, without its
//! `rust-toolchain.toml` and `Cargo.lock`) the record says so, and nothing recorded under
//! another record is reused.

use std::path::Path;

fn main() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pin = workspace.join("rust-toolchain.toml");
    let lock = workspace.join("Cargo.lock");
    // A packaged copy has neither file, and a missing path would make cargo rerun this script, and
    // rebuild the crate, on every build.
    println!("cargo::rerun-if-changed=build.rs");
    for file in [&pin, &lock].into_iter().filter(|file| file.exists()) {
        println!("cargo::rerun-if-changed={}", file.display());
    }
    let channel = std::fs::read_to_string(&pin)
        .ok()
        .and_then(|text| {
            text.lines()
                .filter_map(|line| line.trim().strip_prefix("channel"))
                .filter_map(|rest| rest.trim_start().strip_prefix('='))
                .map(|value| value.trim().trim_matches('"').to_string())
                .next()
        })
        .unwrap_or_else(|| "unpinned".to_string());
    let lock = std::fs::read_to_string(&lock).unwrap_or_default();
    let mut printers = format!("rustfmt {channel}");
    for krate in ["proc-macro2", "syn", "prettyplease"] {
        // Every version the lock holds (syn has two).
        let name = format!("name = \"{krate}\"");
        let versions: Vec<&str> = lock
            .split("[[package]]")
            .filter(|p| p.lines().any(|l| l == name))
            .filter_map(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
            .map(|v| v.trim_matches('"'))
            .collect();
        let versions = if versions.is_empty() {
            "unknown".to_string()
        } else {
            versions.join("/")
        };
        printers.push_str(&format!(", {krate} {versions}"));
    }
    println!("cargo::rustc-env=ISA_CODEGEN_PRINTERS={printers}");
}
