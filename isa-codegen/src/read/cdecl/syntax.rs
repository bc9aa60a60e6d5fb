//! bindgen's spelling, read back: its types as [`CType`], literals, `#[doc]` comments, `repr`
//! attributes, and the names it escapes or invents.

use crate::ctype::{CType, Prim};

/// The scalar bindgen spells with the last path segment `last` (`u32`, `c_uint`, ...).
fn prim_from_path(last: &str) -> Option<Prim> {
    Some(match last {
        "bool" => Prim::Bool,
        "u8" | "c_uchar" => Prim::U8,
        "i8" | "c_char" | "c_schar" => Prim::I8,
        "u16" | "c_ushort" => Prim::U16,
        "i16" | "c_short" => Prim::I16,
        "u32" | "c_uint" => Prim::U32,
        "i32" | "c_int" => Prim::I32,
        "u64" | "c_ulong" | "c_ulonglong" => Prim::U64,
        "i64" | "c_long" | "c_longlong" => Prim::I64,
        "f32" | "c_float" => Prim::F32,
        "f64" | "c_double" => Prim::F64,
        _ => return None,
    })
}

/// The text of `#[doc]` attributes (clang's comments), spec blocks dropped, `None` when empty.
pub(super) fn doc_of(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                lines.push(s.value());
            }
        }
    }
    let joined = lines.join("\n");
    let cleaned = clean_comment(&joined);
    (!cleaned.is_empty()).then_some(cleaned)
}

/// Drops `fn` spec blocks (they are read separately) and trims comment text.
fn clean_comment(raw: &str) -> String {
    let mut kept = Vec::new();
    let mut depth: i64 = 0;
    let mut in_spec = false;
    for line in raw.lines() {
        let t = line.trim();
        if !in_spec && t.starts_with("fn ") {
            in_spec = true;
            depth = 0;
        }
        if in_spec {
            let code = t.find("//").map_or(t, |k| &t[..k]);
            depth += code.matches('{').count() as i64 - code.matches('}').count() as i64;
            if depth <= 0 && code.contains('}') {
                in_spec = false;
            }
            continue;
        }
        kept.push(t.trim_start_matches(['*', '/']).trim().to_string());
    }
    while kept.first().is_some_and(|l| l.is_empty()) {
        kept.remove(0);
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

/// The identifiers of a path, outermost first (`a::b::C` gives `[a, b, C]`).
pub fn path_idents(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The last identifier of a path (empty for an empty path).
pub fn path_last(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// An unsigned integer literal (in parentheses or not).
pub(super) fn lit_u64(expr: &syn::Expr) -> Option<u64> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<u64>().ok(),
        syn::Expr::Paren(p) => lit_u64(&p.expr),
        _ => None,
    }
}

/// An integer or `bool` literal, negated, parenthesised or cast any number of times.
pub(super) fn lit_i128(expr: &syn::Expr) -> Option<i128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<i128>().ok(),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Some(i128::from(b.value)),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => lit_i128(&u.expr).map(|v| -v),
        syn::Expr::Paren(p) => lit_i128(&p.expr),
        syn::Expr::Cast(c) => lit_i128(&c.expr),
        _ => None,
    }
}

/// Maps bindgen's spelling of a type to [`CType`].
pub(super) fn ctype(ty: &syn::Type) -> CType {
    match ty {
        syn::Type::Path(p) => {
            let segs = path_idents(&p.path);
            let last = segs.last().cloned().unwrap_or_default();
            if last == "__BindgenUnionField" {
                // bindgen's stand-in for a union member whose type it cannot prove `Copy`.
                if let Some(syn::PathSegment {
                    arguments: syn::PathArguments::AngleBracketed(args),
                    ..
                }) = p.path.segments.last()
                {
                    if let Some(syn::GenericArgument::Type(inner)) = args.args.first() {
                        return ctype(inner);
                    }
                }
            }
            if last == "__BindgenBitfieldUnit" {
                if let Some(syn::PathSegment {
                    arguments: syn::PathArguments::AngleBracketed(args),
                    ..
                }) = p.path.segments.last()
                {
                    if let Some(syn::GenericArgument::Type(syn::Type::Array(a))) = args.args.first()
                    {
                        if let Some(n) = lit_u64(&a.len) {
                            return CType::BitfieldUnit(n);
                        }
                    }
                }
                return CType::Unsupported(quote::quote!(#ty).to_string());
            }
            if last == "Type" && segs.len() >= 2 {
                return CType::Enum(segs[segs.len() - 2].clone());
            }
            if let Some(prim) = prim_from_path(&last) {
                return CType::Prim(prim);
            }
            if segs.len() == 1 {
                return CType::Named(last);
            }
            CType::Unsupported(quote::quote!(#ty).to_string())
        }
        syn::Type::Array(a) => match lit_u64(&a.len) {
            Some(n) => CType::Array(Box::new(ctype(&a.elem)), n),
            None => CType::Unsupported(quote::quote!(#ty).to_string()),
        },
        other => CType::Unsupported(quote::quote!(#other).to_string()),
    }
}

/// A type bindgen defines for its own use (bit-field units, union fields, flexible arrays).
pub(super) fn is_bindgen_helper(name: &str) -> bool {
    name.starts_with("__Bindgen")
        || name.starts_with("__IncompleteArray")
        || name == "__BindgenUnionField"
}

/// The names bindgen escapes with a trailing `_` because they are Rust keywords or type names
/// (bindgen's `rust_mangle`).
const BINDGEN_ESCAPED: &[&str] = &[
    "abstract", "alignof", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "offsetof", "override",
    "priv", "proc", "pub", "pure", "ref", "return", "Self", "self", "sizeof", "static", "struct",
    "super", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use", "virtual",
    "where", "while", "yield", "str", "bool", "f32", "f64", "usize", "isize", "u128", "i128",
    "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8",
];

/// The C name of a field bindgen spelled `name` (`type_` is C's `type`).
pub(super) fn c_name_of(name: &str) -> String {
    match name.strip_suffix('_') {
        Some(c) if BINDGEN_ESCAPED.contains(&c) => c.to_string(),
        _ => name.to_string(),
    }
}

/// True when `#[repr(..)]` among `attrs` lists `what` (`packed`).
pub(super) fn repr_has(attrs: &[syn::Attribute], what: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("repr") && {
            let mut found = false;
            let _ = a.parse_nested_meta(|m| {
                if m.path.is_ident(what) {
                    found = true;
                }
                if m.input.peek(syn::token::Paren) {
                    let _content;
                    syn::parenthesized!(_content in m.input);
                }
                Ok(())
            });
            found
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_cleaning_drops_spec_blocks() {
        let raw = " Neuron format\n Use for: X\n\n fn a(i: Inst) -> bool {\n   (i.x == 1) // note {\n }\n tail";
        assert_eq!(clean_comment(raw), "Neuron format\nUse for: X\n\ntail");
    }

    #[test]
    fn types_map_from_bindgen_spelling() {
        let t: syn::Type = syn::parse_str("[u32; 8usize]").unwrap();
        assert_eq!(ctype(&t), CType::Array(Box::new(CType::Prim(Prim::U32)), 8));
        let t: syn::Type = syn::parse_str("NEURON_ISA_TPB_DTYPE::Type").unwrap();
        assert_eq!(ctype(&t), CType::Enum("NEURON_ISA_TPB_DTYPE".into()));
        let t: syn::Type = syn::parse_str("::core::ffi::c_uchar").unwrap();
        assert_eq!(ctype(&t), CType::Prim(Prim::U8));
        let t: syn::Type = syn::parse_str("*mut u8").unwrap();
        assert!(matches!(ctype(&t), CType::Unsupported(_)));
    }
}
