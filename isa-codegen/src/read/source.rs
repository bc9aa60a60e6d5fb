//! Header text: the files of `tpb/`, where each declaration sits, and the banner.

use crate::diag::{Diagnostic, Loc};
use std::path::Path;

/// Relative path of the master header every tree has.
pub const COMMON_HEADER: &str = "tpb/aws_neuron_isa_tpb_common.h";

/// One header file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the tree root, `/`-separated.
    pub rel: String,
    /// Full text.
    pub text: String,
}

/// Reads every `*.h` directly under `tpb/`, sorted by name.
pub fn read_headers(root: &Path, tpb: &Path) -> Result<Vec<SourceFile>, Vec<Diagnostic>> {
    let entries = std::fs::read_dir(tpb).map_err(|e| {
        vec![Diagnostic::new(
            Loc::new("tpb", 0),
            format!("cannot list: {e}"),
        )]
    })?;
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("h") || !path.is_file() {
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        match std::fs::read(&path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => files.push(SourceFile { rel, text }),
                Err(e) => problems.push(Diagnostic::new(
                    Loc::new(rel, 0),
                    format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                )),
            },
            Err(e) => problems.push(Diagnostic::new(
                Loc::new(rel, 0),
                format!("cannot read: {e}"),
            )),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
}

/// The code part of a line: everything before a `//` comment (block comments are rare in
/// these headers and only span banners; they are blanked by [`code_lines`]).
fn strip_line_comment(line: &str) -> &str {
    line.find("//").map_or(line, |k| &line[..k])
}

/// The lines of `text` with comments blanked out, so identifier searches do not match prose.
pub fn code_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let mut code = String::new();
        let mut rest = line;
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(k) => {
                        in_block = false;
                        rest = &rest[k + 2..];
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block = rest.find("/*");
                match (line_comment, block) {
                    (Some(l), Some(b)) if b < l => {
                        code.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    (None, Some(b)) => {
                        code.push_str(&rest[..b]);
                        in_block = true;
                        rest = &rest[b + 2..];
                    }
                    _ => {
                        code.push_str(strip_line_comment(rest));
                        break;
                    }
                }
            }
        }
        out.push(code);
    }
    out
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// True when `code` contains `ident` as a whole identifier.
pub fn has_ident(code: &str, ident: &str) -> bool {
    ident_position(code, ident).is_some()
}

fn ident_position(code: &str, ident: &str) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(k) = code[from..].find(ident) {
        let start = from + k;
        let end = start + ident.len();
        let before = start == 0 || !is_ident_byte(bytes[start - 1]);
        let after = end == bytes.len() || !is_ident_byte(bytes[end]);
        if before && after {
            return Some(start);
        }
        from = end;
    }
    None
}

/// Where the declarations of one file sit, found lexically (bindgen gives semantics, not lines).
#[derive(Clone, Debug)]
pub struct LineIndex {
    rel: String,
    code: Vec<String>,
}

impl LineIndex {
    /// Indexes `file`.
    pub fn new(file: &SourceFile) -> Self {
        LineIndex {
            rel: file.rel.clone(),
            code: code_lines(&file.text),
        }
    }

    /// The file this index covers.
    pub fn file(&self) -> &str {
        &self.rel
    }

    /// Location of a line number.
    pub fn loc(&self, line: u32) -> Loc {
        Loc::new(self.rel.clone(), line)
    }

    /// Line of the declaration of a top-level name: a typedef, tag, constant, macro or
    /// enumerator. Prefers lines that define it (`NAME =`, `} ... NAME;`, `struct NAME {`).
    pub fn decl_line(&self, name: &str) -> Option<u32> {
        let defining = |code: &str| {
            let Some(at) = ident_position(code, name) else {
                return false;
            };
            let after = code[at + name.len()..].trim_start();
            let before = code[..at].trim_end();
            after.starts_with('=')
                || after.starts_with('{')
                || (after.starts_with(';') && (before.ends_with('}') || before.contains("typedef")))
                || before.ends_with("#define")
                || (before.starts_with("static const") && !before.contains('('))
                || before.ends_with("NEURON_ISA_PACKED")
        };
        self.code
            .iter()
            .position(|c| defining(c))
            .or_else(|| self.code.iter().position(|c| has_ident(c, name)))
            .map(|k| k as u32 + 1)
    }

    /// Line of `member` (an enumerator or a field) at or after `from` (1-based).
    pub fn member_line(&self, from: u32, member: &str) -> Option<u32> {
        let start = from.saturating_sub(1) as usize;
        self.code
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, c)| has_ident(c, member))
            .map(|(k, _)| k as u32 + 1)
    }
}

/// The NeuronCore version of a tree, from line 3 of its banner: `ISA header for NC-vN`.
pub fn banner_nc_version(common: &SourceFile) -> Result<u8, Diagnostic> {
    let line3 = common.text.lines().nth(2).unwrap_or("");
    let loc = Loc::new(common.rel.clone(), 3);
    let Some(k) = line3.find("ISA header for NC-v") else {
        return Err(Diagnostic::new(
            loc,
            "banner line 3 must read `ISA header for NC-vN` (the vendor convention)",
        ));
    };
    let digits: String = line3[k + "ISA header for NC-v".len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse::<u8>().map_err(|_| {
        Diagnostic::new(
            loc,
            "banner line 3: `NC-v` is not followed by a version number",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile {
            rel: "tpb/x.h".into(),
            text: text.into(),
        }
    }

    #[test]
    fn comments_do_not_hide_or_fake_declarations() {
        let f = file(
            "/* NEURON_ISA_TPB_X is\n documented here */\n// NEURON_ISA_TPB_X = 3\ntypedef enum NEURON_ISA_TPB_X {\n    NEURON_ISA_TPB_X_A = 0, // A\n} NEURON_ISA_PACKED NEURON_ISA_TPB_X;\n",
        );
        let idx = LineIndex::new(&f);
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_X"), Some(4));
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_X_A"), Some(5));
        assert_eq!(idx.member_line(4, "NEURON_ISA_TPB_X_A"), Some(5));
        assert_eq!(idx.decl_line("MISSING"), None);
    }

    #[test]
    fn banner_version() {
        assert_eq!(
            banner_nc_version(&file("/*\n * x\n * ISA header for NC-v4\n */\n")),
            Ok(4)
        );
        let err = banner_nc_version(&file("/*\n * x\n * something else\n */\n")).unwrap_err();
        assert_eq!(err.loc.line, 3);
    }
}
