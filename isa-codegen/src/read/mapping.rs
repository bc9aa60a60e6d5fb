//! `tpb/instruction_mapping.json`: which operand struct each opcode uses.

use crate::diag::{Diagnostic, Loc};
use std::path::Path;

/// Relative path of the mapping file.
pub const MAPPING_FILE: &str = "tpb/instruction_mapping.json";

/// One `"STRUCT": ["OPCODE", ...]` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappingEntry {
    /// Full struct name (`NEURON_ISA_TPB_S1_RAND_STRUCT`).
    pub struct_name: String,
    /// Full opcode enumerator names, in file order.
    pub opcodes: Vec<String>,
    /// True when the entry is under `struct2pseudo_opcode`.
    pub pseudo_section: bool,
    /// Line of the key in the file.
    pub line: u32,
    /// Line of each opcode string (parallel to `opcodes`).
    pub opcode_lines: Vec<u32>,
}

/// The parsed mapping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mapping {
    /// Entries of both sections, in file order.
    pub entries: Vec<MappingEntry>,
}

fn key_line(text: &str, key: &str) -> u32 {
    let quoted = format!("\"{key}\"");
    text.lines()
        .position(|l| l.contains(&quoted))
        .map_or(0, |k| k as u32 + 1)
}

/// Byte offset of the start of 1-based `line` (0 for line 0 or 1).
fn line_start(text: &str, line: u32) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line as usize - 2)
        .map_or(text.len(), |(k, _)| k + 1)
}

/// 1-based line of byte offset `at`.
fn line_at(text: &str, at: usize) -> u32 {
    text[..at].matches('\n').count() as u32 + 1
}

/// Reads and checks the shape of the mapping file.
pub fn read(root: &Path) -> Result<Mapping, Diagnostic> {
    let text = super::source::read_text(&root.join(MAPPING_FILE), MAPPING_FILE)?;
    parse(&text)
}

/// Parses mapping text.
pub fn parse(text: &str) -> Result<Mapping, Diagnostic> {
    // serde_json keeps the last of two equal keys: a repeated struct would lose its first list.
    super::json::reject_duplicate_keys(text, MAPPING_FILE)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Diagnostic::new(
            Loc::new(MAPPING_FILE, e.line() as u32),
            format!("not valid JSON: {e}"),
        )
    })?;
    let shape =
        |line: u32, msg: &str| Diagnostic::new(Loc::new(MAPPING_FILE, line), msg.to_string());
    let top = value
        .as_object()
        .ok_or_else(|| shape(1, "the top level must be an object"))?;
    for key in top.keys() {
        if key != "struct2opcode" && key != "struct2pseudo_opcode" {
            return Err(shape(
                key_line(text, key),
                &format!("unknown section `{key}` (expected struct2opcode, struct2pseudo_opcode)"),
            ));
        }
    }
    let mut entries = Vec::new();
    for (section, pseudo) in [("struct2opcode", false), ("struct2pseudo_opcode", true)] {
        let Some(sec) = top.get(section) else {
            if pseudo {
                continue;
            }
            return Err(shape(1, "missing section `struct2opcode`"));
        };
        let sec = sec.as_object().ok_or_else(|| {
            shape(
                key_line(text, section),
                &format!("`{section}` must be an object"),
            )
        })?;
        for (struct_name, list) in sec {
            let line = key_line(text, struct_name);
            let list = list.as_array().ok_or_else(|| {
                shape(
                    line,
                    &format!("`{struct_name}` must map to an array of opcode names"),
                )
            })?;
            let mut opcodes = Vec::new();
            for v in list {
                let name = v.as_str().ok_or_else(|| {
                    shape(
                        line,
                        &format!("`{struct_name}`: every opcode must be a string"),
                    )
                })?;
                opcodes.push(name.to_string());
            }
            // Each string is looked for after the previous one, so a repeated name gets the line
            // of its own occurrence.
            let mut from = line_start(text, line);
            let opcode_lines = opcodes
                .iter()
                .map(|op| {
                    let quoted = format!("\"{op}\"");
                    match text[from..].find(&quoted) {
                        Some(k) => {
                            from += k + quoted.len();
                            line_at(text, from)
                        }
                        None => line,
                    }
                })
                .collect();
            entries.push(MappingEntry {
                struct_name: struct_name.clone(),
                opcodes,
                pseudo_section: pseudo,
                line,
                opcode_lines,
            });
        }
    }
    entries.sort_by_key(|e| e.line);
    Ok(Mapping { entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_sections_with_lines() {
        let text = "{\n    \"struct2opcode\": {\n        \"A_STRUCT\": [\n            \"OP_X\",\n            \"OP_Y\"\n        ]\n    },\n    \"struct2pseudo_opcode\": {}\n}\n";
        let m = parse(text).unwrap();
        assert_eq!(m.entries.len(), 1);
        assert_eq!(m.entries[0].line, 3);
        assert_eq!(m.entries[0].opcodes, vec!["OP_X", "OP_Y"]);
    }

    #[test]
    fn bad_shapes_are_errors_with_lines() {
        assert_eq!(parse("{ \"struct2opcode\": [] }").unwrap_err().loc.line, 1);
        let e = parse("{\n \"struct2opcode\": {\n  \"A\": [1]\n }\n}").unwrap_err();
        assert_eq!(e.loc.line, 3);
        let e = parse("{\n \"struct2opcode\": {},\n \"extra\": {}\n}").unwrap_err();
        assert!(e.message.contains("unknown section"));
        assert!(parse("{ not json").is_err());
    }
}
