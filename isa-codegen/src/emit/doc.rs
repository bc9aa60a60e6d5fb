//! Doc-comment text: header comments made safe for rustdoc, and model facts.

use proc_macro2::TokenStream;
use quote::quote;

/// Escapes header prose so rustdoc neither links, tags, nor runs it: brackets and angle
/// brackets are escaped, lines are trimmed (an indented line would become a doctest).
pub fn doc_text(text: &str) -> String {
    let mut out = String::new();
    for (k, line) in text.lines().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let line = line.trim();
        let line = line.trim_start_matches('`');
        for c in line.chars() {
            match c {
                '[' | ']' | '<' | '>' | '*' | '_' | '#' | '|' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
    }
    out
}

/// Drops the vendor's `<size> (<first> - <last>)` field annotation (the generated docs state
/// the layout), keeping any prose after it.
pub fn strip_layout_note(comment: &str) -> &str {
    let t = comment.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return comment;
    }
    let rest = t[digits..].trim_start();
    match rest
        .strip_prefix('(')
        .and_then(|r| r.find(')').map(|k| (r, k)))
    {
        Some((r, k))
            if r[..k]
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == ' ') =>
        {
            r[k + 1..].trim()
        }
        _ => comment,
    }
}

/// `#[doc = ...]` attributes, one per line, for already-safe markdown.
pub fn attrs(markdown: &str) -> TokenStream {
    let lines = markdown.lines().map(|l| format!(" {l}"));
    quote! { #( #[doc = #lines] )* }
}

/// Doc attributes from a header comment, followed by model facts (already markdown).
pub fn with_comment(comment: Option<&str>, facts: &str) -> TokenStream {
    let mut text = String::new();
    if let Some(c) = comment {
        let c = doc_text(strip_layout_note(c));
        if !c.trim().is_empty() {
            text.push_str(&c);
            text.push_str("\n\n");
        }
    }
    text.push_str(facts);
    attrs(text.trim_end())
}

/// One doc line for a field: the model facts, then the header's comment when it is one line
/// (`Bytes 12..13 (`rand_algorithm`): generator algorithm.`); a longer comment keeps its own
/// paragraph above the facts.
pub fn field(comment: Option<&str>, facts: &str) -> TokenStream {
    let c = comment
        .map(|c| doc_text(strip_layout_note(c)))
        .unwrap_or_default();
    let c = c.trim();
    if c.is_empty() {
        return attrs(&format!("{facts}."));
    }
    if c.lines().count() == 1 {
        let end = if c.ends_with('.') { "" } else { "." };
        return attrs(&format!("{facts}: {c}{end}"));
    }
    with_comment(comment, &format!("{facts}."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_rustdoc_would_interpret() {
        assert_eq!(
            doc_text("    reserved[7] <reason>"),
            "reserved\\[7\\] \\<reason\\>"
        );
        assert_eq!(doc_text("a\n   b"), "a\nb");
        assert_eq!(
            strip_layout_note(" 4 ( 0 -  3)  opcode here"),
            "opcode here"
        );
        assert_eq!(strip_layout_note(" 1 (12     )"), "");
        assert_eq!(strip_layout_note(" 128 lanes"), " 128 lanes");
    }
}
