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

/// A hexadecimal field (`0x` optional) as a `u32`; a malformed or wider one panics, naming it.
#[allow(dead_code)]
pub fn hex(s: &str) -> u32 {
    u32::try_from(hex64(s)).unwrap_or_else(|e| panic!("known-answer field {s:?}: {e}"))
}

/// A hexadecimal field (`0x` optional) as a `u64`; a malformed one panics, naming it.
#[allow(dead_code)]
pub fn hex64(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16)
        .unwrap_or_else(|e| panic!("known-answer field {s:?}: {e}"))
}

/// rand2_xorwow.txt: the state record of case `case` (`pool`, `dve`), the words of its `state`
/// rows (decimal, from the fourth field on) in file order.
#[allow(dead_code)]
pub fn rand2_state_record(rows: &[Vec<String>], case: &str) -> Vec<u32> {
    rows.iter()
        .filter(|r| r[0] == "state" && r[1] == case)
        .flat_map(|r| r[3..].iter())
        .map(|w| {
            w.parse::<u32>()
                .unwrap_or_else(|e| panic!("rand2_xorwow.txt state {case}: {w}: {e}"))
        })
        .collect()
}

/// rand2_xorwow.txt: the bounds `(min, max)` of a `range` row, whose third and fourth fields
/// are the f32 bit patterns in hexadecimal.
#[allow(dead_code)]
pub fn rand2_range(row: &[String]) -> (f32, f32) {
    (f32::from_bits(hex(&row[2])), f32::from_bits(hex(&row[3])))
}
