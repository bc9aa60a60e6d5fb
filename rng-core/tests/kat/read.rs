//! Reading the known-answer files of this directory. One reader for every test and benchmark
//! that checks against them (in other crates too), each including this file with
//! `#[path = ".../rng-core/tests/kat/read.rs"] mod`.

// rng-core's own unit tests include it too, in a `no_std` crate.
extern crate std;

use std::path::Path;
use std::string::String;
use std::vec::Vec;

/// The lines of the known-answer file `name` of the directory `dir`, split into fields; blank
/// lines and `#` comments dropped. A file that cannot be read panics, naming it.
pub fn fields(dir: &Path, name: &str) -> Vec<Vec<String>> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("known-answer file {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}
