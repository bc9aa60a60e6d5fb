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

/// The comment text of a whole-line `//` comment, or `None` for any other line.
fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

/// Brace balance of the code part of a spec line (a nested `// ...` is a comment).
fn brace_delta(text: &str) -> i64 {
    let code = text.find("//").map_or(text, |k| &text[..k]);
    code.matches('{').count() as i64 - code.matches('}').count() as i64
}

/// Extracts and parses the blocks of one file.
pub fn extract(file: &SourceFile) -> (Vec<SpecBlock>, Vec<Diagnostic>) {
    let lines: Vec<&str> = file.text.lines().collect();
    let mut blocks = Vec::new();
    let mut problems = Vec::new();
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
        if !closed || depth != 0 {
            problems.push(Diagnostic::new(
                loc,
                "spec block is not closed: its braces do not balance before the comment ends",
            ));
            continue;
        }
        match syn::parse_str::<syn::ItemFn>(&text) {
            Ok(item) => blocks.push(SpecBlock { loc, item, text }),
            Err(e) => {
                let line = e.span().start().line as u32;
                problems.push(Diagnostic::new(
                    Loc::new(file.rel.clone(), start as u32 + line.max(1)),
                    format!("spec block does not parse: {e}"),
                ));
            }
        }
    }
    (blocks, problems)
}

/// Extracts every block of every header; duplicate names are errors.
pub fn extract_all(files: &[SourceFile]) -> Result<Vec<SpecBlock>, Vec<Diagnostic>> {
    let mut all = Vec::new();
    let mut problems = Vec::new();
    for f in files {
        let (mut b, mut p) = extract(f);
        all.append(&mut b);
        problems.append(&mut p);
    }
    let mut first: BTreeMap<String, Loc> = BTreeMap::new();
    for b in &all {
        if let Some(prev) = first.get(&b.name()) {
            problems.push(Diagnostic::new(
                b.loc.clone(),
                format!("spec function `{}` is already defined at {prev}", b.name()),
            ));
        } else {
            first.insert(b.name(), b.loc.clone());
        }
    }
    if problems.is_empty() {
        Ok(all)
    } else {
        Err(problems)
    }
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
    fn finds_blocks_with_nested_comments() {
        let f = file(
            "int x;\n// prose\n// fn a(i: Inst) -> bool {\n//       (i.s.f == 1)   // note {\n//    && b(i)\n// }\nint y;\n//fn b(i: Inst) -> bool { true }\n",
        );
        let (blocks, problems) = extract(&f);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].name(), "a");
        assert_eq!(blocks[0].loc.line, 3);
        assert_eq!(blocks[1].loc.line, 8);
    }

    #[test]
    fn unbalanced_and_unparsable_blocks_name_their_line() {
        let f = file("// fn a(i: Inst) -> bool {\n//   (i.x == 1)\nint y;\n\n// fn b(i: Inst) -> bool {\n//   (i.x == )\n// }\n");
        let (blocks, problems) = extract(&f);
        assert!(blocks.is_empty());
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].loc.line, 1);
        assert!(problems[0].message.contains("not closed"));
        assert_eq!(problems[1].loc.line, 6, "{}", problems[1].message);
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
