//! `// fn` spec blocks: found in the comment text of every header, parsed with syn.

use super::source::SourceFile;
use crate::diag::{Diagnostic, Loc};
use std::collections::BTreeMap;

/// One parsed spec block.
#[derive(Clone, Debug)]
pub struct SpecBlock {
    /// Where the `// fn` line is.
    pub loc: Loc,
    /// The function, as syn parsed it.
    pub item: syn::ItemFn,
    /// The block text with the `//` prefixes removed (line k of the text is file line `loc.line + k`).
    pub text: String,
}

impl SpecBlock {
    /// The function name.
    pub fn name(&self) -> String {
        self.item.sig.ident.to_string()
    }

    /// File location of a span inside this block.
    pub fn loc_of(&self, span: proc_macro2::Span) -> Loc {
        let line = span.start().line as u32;
        Loc::new(
            self.loc.file.clone(),
            self.loc.line + line.saturating_sub(1),
        )
    }
}

/// A block that does not parse (or whose braces do not close): its name when the `fn` line
/// gives one. The model drops it and every function calling it, with warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unparsed {
    /// The function's name, if the block's first line names it.
    pub name: Option<String>,
    /// Where the problem is (the parser's line, or the block's first line).
    pub loc: Loc,
    /// What is wrong.
    pub reason: String,
}

/// The name a `fn NAME(` line gives, read lexically.
fn name_of_fn_line(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix("fn")?.trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The comment text of a whole-line `//` comment, or `None` for any other line.
fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// Brace balance of the code part of a spec line (a nested `// ...` is a comment).
fn brace_delta(text: &str) -> i64 {
    let code = text.find("//").map_or(text, |k| &text[..k]);
    code.matches('{').count() as i64 - code.matches('}').count() as i64
}

/// Rust keywords a C field may be named (`type`, `in`, `ref`, ...): after a `.` they do not parse
/// as Rust, so a member access `.type` is read as the raw identifier `.r#type` (the model
/// strips `r#` again). `self`, `Self`, `super` and `crate` have no raw form and are left alone.
const KEYWORD_MEMBERS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// `text` with every member access to a keyword-named field (`i.s.type`) written as a raw
/// identifier (`i.s.r#type`). Line structure is kept, so spans still give file lines.
pub fn raw_keyword_members(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    for (dot, _) in text.match_indices('.') {
        // A member access: a `.` that is not part of `..`, after an identifier, `)` or `]`.
        let after_operand = dot
            .checked_sub(1)
            .map(|p| bytes[p])
            .is_some_and(|p| p.is_ascii_alphanumeric() || p == b'_' || p == b')' || p == b']');
        let range = bytes.get(dot + 1) == Some(&b'.') || (dot > 0 && bytes[dot - 1] == b'.');
        if !after_operand || range {
            continue;
        }
        let start = dot + 1 + text[dot + 1..].len() - text[dot + 1..].trim_start().len();
        let end = start
            + text[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - start);
        if KEYWORD_MEMBERS.contains(&&text[start..end]) {
            out.push_str(&text[copied..start]);
            out.push_str("r#");
            copied = start;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// How deep a spec expression may nest, counted through the functions it calls (see
/// [`nesting_bound`] and docs/spec-language.md, "Limits"). Every walk over spec expressions is
/// recursive — syn's parser, the name resolution, the partial evaluator, the legality and
/// instance searches, the emitters, prettyplease — so this bound, checked before any of them
/// runs, and the generator's own stack ([`crate::STACK_BYTES`]) keep them all within the stack.
pub const MAX_SPEC_DEPTH: usize = 1000;

/// An upper bound, read lexically, on how deep the syntax tree of a spec block nests: the
/// operators, keywords and brackets that enclose a token, summed over its enclosing bracket
/// levels (`a && b && c` is 3 deep as syn builds it, `((a))` 3). Identifiers and literals are
/// leaves. Computed without recursion, before the block is handed to syn.
pub fn nesting_bound(text: &str) -> usize {
    const KEYWORDS: &[&str] = &[
        "if", "else", "as", "let", "match", "return", "fn", "loop", "while", "for", "in",
    ];
    const PAIRS: &[&str] = &[
        "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "::", "->", "=>", "..",
    ];
    let b = text.as_bytes();
    let mut levels: Vec<usize> = vec![1];
    let mut best = 1;
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        if c.is_ascii_whitespace() {
            k += 1;
            continue;
        }
        if text[k..].starts_with("//") {
            k = text[k..].find('\n').map_or(b.len(), |n| k + n);
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let end = text[k..]
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '#'))
                .map_or(b.len(), |n| k + n);
            if KEYWORDS.contains(&&text[k..end]) {
                *levels.last_mut().expect("a level") += 1;
            }
            k = end;
        } else {
            match c {
                b'(' | b'[' | b'{' => {
                    *levels.last_mut().expect("a level") += 1;
                    levels.push(0);
                }
                b')' | b']' | b'}' => {
                    if levels.len() > 1 {
                        levels.pop();
                    }
                }
                _ => *levels.last_mut().expect("a level") += 1,
            }
            k += if PAIRS.iter().any(|p| text[k..].starts_with(p)) {
                2
            } else {
                text[k..].chars().next().map_or(1, char::len_utf8)
            };
        }
        best = best.max(levels.iter().sum());
    }
    best
}

/// Extracts and parses the blocks of one file: the blocks, those that do not parse (warnings:
/// the model drops them) and errors (a block nesting deeper than [`MAX_SPEC_DEPTH`]).
pub fn extract(file: &SourceFile) -> (Vec<SpecBlock>, Vec<Unparsed>, Vec<Diagnostic>) {
    let lines: Vec<&str> = file.text.lines().collect();
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
    let mut errors = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let starts = comment_text(lines[k]).is_some_and(|t| t.trim_start().starts_with("fn "));
        if !starts {
            k += 1;
            continue;
        }
        let start = k;
        let mut text = String::new();
        let mut depth = 0i64;
        let mut opened = false;
        let mut closed = false;
        while k < lines.len() {
            let Some(t) = comment_text(lines[k]) else {
                break;
            };
            text.push_str(t);
            text.push('\n');
            let delta = brace_delta(t);
            if delta > 0 || t.contains('{') {
                opened = true;
            }
            depth += delta;
            k += 1;
            if opened && depth <= 0 {
                closed = true;
                break;
            }
        }
        let loc = Loc::new(file.rel.clone(), start as u32 + 1);
        let name = name_of_fn_line(comment_text(lines[start]).unwrap_or(""));
        if !closed || depth != 0 {
            problems.push(Unparsed {
                name,
                loc,
                reason:
                    "spec block is not closed: its braces do not balance before the comment ends"
                        .into(),
            });
            continue;
        }
        let depth = nesting_bound(&text);
        if depth > MAX_SPEC_DEPTH {
            errors.push(Diagnostic::new(
                loc,
                format!(
                    "spec function `{}` nests {depth} levels deep (operators, brackets and keywords enclosing one another); the limit is {MAX_SPEC_DEPTH} (docs/spec-language.md, \"Limits\")",
                    name.as_deref().unwrap_or("?")
                ),
            ));
            continue;
        }
        match syn::parse_str::<syn::ItemFn>(&raw_keyword_members(&text)) {
            Ok(item) => blocks.push(SpecBlock { loc, item, text }),
            Err(e) => {
                let line = e.span().start().line as u32;
                problems.push(Unparsed {
                    name,
                    loc: Loc::new(file.rel.clone(), start as u32 + line.max(1)),
                    reason: format!("spec block does not parse: {e}"),
                });
            }
        }
    }
    (blocks, problems, errors)
}

/// Extracts every block of every header: the parsed blocks and those that do not parse (each
/// dropped with a warning by the model). Two blocks of one name are an error.
pub fn extract_all(
    files: &[SourceFile],
) -> Result<(Vec<SpecBlock>, Vec<Unparsed>), Vec<Diagnostic>> {
    let mut all = Vec::new();
    let mut unparsed = Vec::new();
    let mut problems = Vec::new();
    for f in files {
        let (mut b, mut p, mut e) = extract(f);
        all.append(&mut b);
        unparsed.append(&mut p);
        problems.append(&mut e);
    }
    let mut first: BTreeMap<String, Loc> = BTreeMap::new();
    let named = all.iter().map(|b| (b.name(), b.loc.clone())).chain(
        unparsed
            .iter()
            .filter_map(|u| Some((u.name.clone()?, u.loc.clone()))),
    );
    let mut named: Vec<(String, Loc)> = named.collect();
    named.sort_by(|a, b| a.1.cmp(&b.1));
    for (name, loc) in named {
        if let Some(prev) = first.get(&name) {
            problems.push(Diagnostic::new(
                loc,
                format!("spec function `{name}` is already defined at {prev}"),
            ));
        } else {
            first.insert(name, loc);
        }
    }
    if problems.is_empty() {
        Ok((all, unparsed))
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("tpb/x.h", text)
    }

    #[test]
    fn finds_blocks_with_nested_comments() {
        let f = file(
            "int x;\n// prose\n// fn a(i: Inst) -> bool {\n//       (i.s.f == 1)   // note {\n//    && b(i)\n// }\nint y;\n//fn b(i: Inst) -> bool { true }\n",
        );
        let (blocks, problems, _) = extract(&f);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].name(), "a");
        assert_eq!(blocks[0].loc.line, 3);
        assert_eq!(blocks[1].loc.line, 8);
    }

    #[test]
    fn unbalanced_and_unparsable_blocks_name_their_line() {
        let f = file("// fn a(i: Inst) -> bool {\n//   (i.x == 1)\nint y;\n\n// fn b(i: Inst) -> bool {\n//   (i.x == )\n// }\n");
        let (blocks, problems, _) = extract(&f);
        assert!(blocks.is_empty());
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].loc.line, 1);
        assert_eq!(problems[0].name.as_deref(), Some("a"));
        assert!(problems[0].reason.contains("not closed"));
        assert_eq!(problems[1].loc.line, 6, "{}", problems[1].reason);
        assert_eq!(problems[1].name.as_deref(), Some("b"));
    }

    #[test]
    fn keyword_members_become_raw_identifiers() {
        assert_eq!(
            raw_keyword_members(
                "(i.s.type == 1) && (t.in[0] > x.typed) && f(a).ref .. b // § é.in"
            ),
            "(i.s.r#type == 1) && (t.r#in[0] > x.typed) && f(a).r#ref .. b // § é.in"
        );
        let f =
            file("// fn a(i: Inst) -> bool {\n//     (i.s.type == 1) && (i.s.gen != 0)\n// }\n");
        let (blocks, problems, _) = extract(&f);
        assert!(problems.is_empty(), "{problems:?}");
        // The text kept for display is the header's own.
        assert!(blocks[0].text.contains("i.s.type =="));
    }

    #[test]
    fn nesting_bounds_cover_syn_depth() {
        assert_eq!(nesting_bound("a"), 1);
        assert_eq!(nesting_bound("a && b && c"), 3);
        assert_eq!(nesting_bound("((a))"), 3);
        assert_eq!(nesting_bound("f(a) // (((((\n"), 2);
        let chain = vec!["(i.x == 1)"; 600].join(" && ");
        let f = file(&format!(
            "// fn a(i: Inst) -> bool {{\n//  {chain}\n// }}\n"
        ));
        let (blocks, problems, errors) = extract(&f);
        assert!(blocks.is_empty() && problems.is_empty());
        assert_eq!(errors[0].loc.line, 1);
        assert!(
            errors[0].message.contains("the limit is 1000"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn duplicate_names_are_rejected() {
        let a = file("// fn a() -> bool { true }\n");
        let mut b = a.clone();
        b.rel = "tpb/y.h".into();
        let err = extract_all(&[a, b]).unwrap_err();
        assert!(err[0].message.contains("already defined at tpb/x.h:1"));
    }
}
