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

impl SourceFile {
    /// The header at `rel` (tree-relative, `/`-separated) with `text`.
    pub fn new(rel: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            rel: rel.into(),
            text: text.into(),
        }
    }
}

/// Directories of a tree whose `*.h` files are read, in this order: the vendor's `tpb/` and,
/// when the tree has it, `common/` (types some `tpb/` headers use).
pub const HEADER_DIRS: [&str; 2] = ["common", "tpb"];

/// Reads every `*.h` directly under `tpb/` and `common/` (when present), sorted by path.
pub fn read_headers(root: &Path) -> Result<Vec<SourceFile>, Vec<Diagnostic>> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for dir in HEADER_DIRS {
        let path = root.join(dir);
        if dir != "tpb" && !path.is_dir() {
            continue;
        }
        read_dir_headers(root, &path, dir, &mut files, &mut problems);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(files)
}

fn read_dir_headers(
    root: &Path,
    dir: &Path,
    rel_dir: &str,
    files: &mut Vec<SourceFile>,
    problems: &mut Vec<Diagnostic>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            problems.push(Diagnostic::new(
                Loc::whole(rel_dir),
                format!("cannot list: {e}"),
            ));
            return;
        }
    };
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(e) => {
                problems.push(Diagnostic::new(
                    Loc::whole(rel_dir),
                    format!("cannot list: {e}"),
                ));
                continue;
            }
        };
        if path.extension().and_then(|e| e.to_str()) != Some("h") || !path.is_file() {
            continue;
        }
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        match read_text(&path, &rel) {
            Ok(text) => files.push(SourceFile::new(rel, text)),
            Err(d) => problems.push(d),
        }
    }
}

/// Reads the file at `path` (`rel` in the tree) as UTF-8 text: an unreadable file is a
/// diagnostic naming it, text that is not UTF-8 one at the line and column of the first bad byte.
pub fn read_text(path: &Path, rel: &str) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::new(Loc::whole(rel), format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line_start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |k| k + 1);
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        // Columns count characters; the valid prefix of the line is UTF-8 by construction.
        let column = String::from_utf8_lossy(&bytes[line_start..at])
            .chars()
            .count()
            + 1;
        Diagnostic::new(
            Loc::new(rel, line),
            format!(
                "not UTF-8 text: byte 0x{:02x} at column {column}",
                bytes[at]
            ),
        )
    })
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

/// A C function definition found lexically: its head (the text from the end of the previous
/// top-level declaration to its `{`) and where its body's braces are (0-based line, byte column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnDefinition {
    /// The head, white space collapsed (`STATIC inline bool f(NEURON_ISA_TPB_OPCODE op)`).
    pub head: String,
    /// 1-based line of the head's first character.
    pub head_line: u32,
    /// The opening brace of the body.
    pub open: (usize, usize),
    /// The closing brace of the body.
    pub close: (usize, usize),
}

/// True for a line the preprocessor owns (a directive, or the continuation of one).
fn preprocessor_lines(code: &[String]) -> Vec<bool> {
    let mut out = Vec::with_capacity(code.len());
    let mut continued = false;
    for line in code {
        let is = continued || line.trim_start().starts_with('#');
        continued = is && line.trim_end().ends_with('\\');
        out.push(is);
    }
    out
}

/// The function definitions of comment-free `code` (see [`code_lines`]): a top-level `{` whose
/// head has a parameter list and is not an initializer or a `struct`/`union`/`enum` body.
/// String and character literals are skipped; preprocessor lines are not code here.
pub fn function_definitions(code: &[String]) -> Vec<FnDefinition> {
    let pre = preprocessor_lines(code);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut head = String::new();
    let mut head_line: Option<u32> = None;
    let mut current: Option<FnDefinition> = None;
    for (ln, line) in code.iter().enumerate() {
        if pre[ln] {
            continue;
        }
        let bytes = line.as_bytes();
        let mut col = 0;
        while col < bytes.len() {
            let c = bytes[col];
            if c == b'"' || c == b'\'' {
                // Skip the literal (to its closing quote on this line).
                let mut end = col + 1;
                while end < bytes.len() && bytes[end] != c {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                if depth == 0 {
                    head.push_str(&line[col..end.min(bytes.len())]);
                }
                col = end + 1;
                continue;
            }
            match c {
                b'{' => {
                    if depth == 0 {
                        let is_fn = head.contains('(')
                            && head.contains(')')
                            && !head.contains('=')
                            && !["struct", "union", "enum"]
                                .iter()
                                .any(|k| has_ident(&head, k));
                        if is_fn {
                            current = Some(FnDefinition {
                                head: head.split_whitespace().collect::<Vec<_>>().join(" "),
                                head_line: head_line.unwrap_or(ln as u32 + 1),
                                open: (ln, col),
                                close: (ln, col),
                            });
                        }
                        head.clear();
                        head_line = None;
                    }
                    depth += 1;
                }
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if let Some(mut f) = current.take() {
                            f.close = (ln, col);
                            out.push(f);
                        }
                        head.clear();
                        head_line = None;
                    }
                }
                b';' if depth == 0 => {
                    head.clear();
                    head_line = None;
                }
                _ if depth == 0 => {
                    if head_line.is_none() && !c.is_ascii_whitespace() {
                        head_line = Some(ln as u32 + 1);
                    }
                    head.push(c as char);
                }
                _ => {}
            }
            col += 1;
        }
        if depth == 0 {
            head.push(' ');
        }
    }
    out
}

/// [`code_lines`] with the bodies of C function definitions blanked as well: the declarations
/// of a header, and nothing a function body mentions.
pub fn decl_lines(text: &str) -> Vec<String> {
    let mut code = code_lines(text);
    for f in function_definitions(&code) {
        for (ln, line) in code
            .iter_mut()
            .enumerate()
            .take(f.close.0 + 1)
            .skip(f.open.0)
        {
            let from = if ln == f.open.0 { f.open.1 + 1 } else { 0 };
            let to = if ln == f.close.0 {
                f.close.1
            } else {
                line.len()
            };
            if from < to {
                let blank = " ".repeat(to - from);
                line.replace_range(from..to, &blank);
            }
        }
    }
    code
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
/// Comments and the bodies of C functions are not searched: a name a function body mentions is
/// never taken for its declaration.
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
            code: decl_lines(&file.text),
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

    /// Where what the file lacks is reported: its last line (line 1 of an empty file), as rustc
    /// points at the end of a file that lacks `main`.
    pub fn end_loc(&self) -> Loc {
        self.loc((self.code.len() as u32).max(1))
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
        SourceFile::new("tpb/x.h", text)
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
    fn what_a_file_lacks_is_placed_at_its_last_line() {
        assert_eq!(
            LineIndex::new(&file("a\nb\nc\n")).end_loc(),
            Loc::new("tpb/x.h", 3)
        );
        assert_eq!(
            LineIndex::new(&file("a\nb")).end_loc(),
            Loc::new("tpb/x.h", 2)
        );
        assert_eq!(LineIndex::new(&file("")).end_loc(), Loc::new("tpb/x.h", 1));
    }

    #[test]
    fn function_bodies_are_not_declarations() {
        let f = file(concat!(
            "typedef enum NEURON_ISA_TPB_E { NEURON_ISA_TPB_E_A = 0 } NEURON_ISA_TPB_E;\n",
            "#define STATIC static\n",
            "STATIC inline bool is_a(NEURON_ISA_TPB_E e,\n",
            "                        NEURON_ISA_TPB_OPCODE op) {\n",
            "    if (op == NEURON_ISA_TPB_OPCODE_X) { return false; } // {\n",
            "    NEURON_ISA_TPB_OPCODE_Y == op;\n",
            "    return(e == NEURON_ISA_TPB_E_A) && (\"}\" != 0);\n",
            "}\n",
            "typedef struct NEURON_ISA_TPB_S { uint8_t x; } NEURON_ISA_TPB_S;\n",
            "static const uint8_t T[2] = { 1, 2 };\n",
        ));
        let code = code_lines(&f.text);
        let defs = function_definitions(&code);
        assert_eq!(defs.len(), 1, "{defs:?}");
        assert_eq!(
            defs[0].head,
            "STATIC inline bool is_a(NEURON_ISA_TPB_E e, NEURON_ISA_TPB_OPCODE op)"
        );
        assert_eq!(
            (defs[0].head_line, defs[0].open.0, defs[0].close.0),
            (3, 3, 7)
        );
        let idx = LineIndex::new(&f);
        // `NEURON_ISA_TPB_OPCODE_Y == op` would read as a definition (`NAME =`) in a body.
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_OPCODE_Y"), None);
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_OPCODE_X"), None);
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_E_A"), Some(1));
        assert_eq!(idx.decl_line("NEURON_ISA_TPB_S"), Some(9));
        assert_eq!(idx.member_line(4, "x"), Some(9));
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
