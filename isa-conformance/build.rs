//! Turns `headers/probe/expected_layout.txt` into layout probes of the generated `raw` modules:
//! for each generation, `OUT_DIR/layout_<gen>.rs` holds a `vec!` of one `Row` per data row whose
//! `raw_offset` and `raw_size` come from `core::mem::offset_of!` and `size_of` on
//! `isa::raw::NEURON_ISA_TPB_<STRUCT>` (unions: a member's offset is 0 by definition and its size
//! is that of the member accessor's type). Whether a name is a union is read from the C headers
//! (`typedef union NAME`), the same input the generator reads, never from generated code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const GENERATIONS: [&str; 4] = ["sunda", "cayman", "mariana", "maverick"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let headers = manifest.join("../headers");
    let data = headers.join("probe/expected_layout.txt");
    println!("cargo::rerun-if-changed={}", data.display());
    let text = std::fs::read_to_string(&data).unwrap_or_else(|e| panic!("{}: {e}", data.display()));
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    for gen in GENERATIONS {
        let tpb = headers.join(format!("neuron_{gen}_arch_isa/tpb"));
        println!("cargo::rerun-if-changed={}", tpb.display());
        let unions = unions_of(&tpb);
        let mut code = String::from("vec![\n");
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split_whitespace().collect();
            assert!(
                cols.len() == 4 || cols.len() == 5,
                "{}:{}: expected STRUCT FIELD OFFSET SIZE [GENS]",
                data.display(),
                k + 1
            );
            if cols.len() == 5 && !cols[4].split(',').any(|g| g == gen) {
                continue;
            }
            let (strukt, field, offset, size) = (cols[0], cols[1], cols[2], cols[3]);
            let ty = format!("isa::raw::NEURON_ISA_TPB_{strukt}");
            let (raw_offset, raw_size) = if field == "*" {
                ("0".to_string(), format!("core::mem::size_of::<{ty}>()"))
            } else if unions
                .iter()
                .any(|u| u == &format!("NEURON_ISA_TPB_{strukt}"))
            {
                (
                    "0".to_string(),
                    format!("size_of_ret(|u: {ty}| u.{field}())"),
                )
            } else {
                (
                    format!("core::mem::offset_of!({ty}, {field})"),
                    format!("size_of_ret(|s: {ty}| s.{field})"),
                )
            };
            let _ = writeln!(
                code,
                "    Row {{ line: {}, strukt: \"{strukt}\", field: \"{field}\", offset: {offset}, size: {size}, raw_offset: {raw_offset}, raw_size: {raw_size} }},",
                k + 1
            );
        }
        code.push_str("]\n");
        std::fs::write(out.join(format!("layout_{gen}.rs")), code).unwrap();
    }
}

/// `NAME` of every `typedef union NAME {` in the tree's headers.
fn unions_of(tpb: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(tpb).unwrap_or_else(|e| panic!("{}: {e}", tpb.display())) {
        let path = e.unwrap().path();
        if path.extension().and_then(|x| x.to_str()) != Some("h") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if let Some(rest) = line.trim_start().strip_prefix("typedef union ") {
                if let Some(name) = rest.split_whitespace().next() {
                    out.push(name.trim_end_matches('{').to_string());
                }
            }
        }
    }
    out
}
