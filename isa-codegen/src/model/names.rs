//! Naming rules shared by the model and the emitters.

use crate::vendor::VENDOR_PREFIX;

/// Name without the vendor prefix (`NEURON_ISA_TPB_RAND_ALGORITHM` → `RAND_ALGORITHM`).
pub fn short(c_name: &str) -> &str {
    c_name.strip_prefix(VENDOR_PREFIX).unwrap_or(c_name)
}

/// Upper camel case of an `UPPER_SNAKE` name: `RNG_XORWOW` → `RngXorwow`, `TENSOR1D` → `Tensor1d`.
pub fn camel(snake: &str) -> String {
    let mut out = String::new();
    for part in snake.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.extend(chars.flat_map(char::to_lowercase));
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'N');
    }
    if matches!(out.as_str(), "Self" | "Crate" | "Super") {
        out.push('_');
    }
    out
}

/// The key spec names are compared by: lower case, underscores removed.
pub fn spec_key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A field name usable as a Rust identifier.
pub fn rust_field(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
        "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do",
        "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
        "gen",
    ];
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// `UPPER_SNAKE` or `CamelCase` → `lower_snake`.
pub fn snake(name: &str) -> String {
    if name.contains('_') || name.chars().all(|c| !c.is_ascii_lowercase()) {
        return name.to_ascii_lowercase();
    }
    let mut out = String::new();
    for (k, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && k > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naming() {
        assert_eq!(camel("RNG_XORWOW"), "RngXorwow");
        assert_eq!(camel("TENSOR1D"), "Tensor1d");
        assert_eq!(camel("DTYPE_ALLOW_FP32R"), "DtypeAllowFp32r");
        assert_eq!(camel("16X16"), "N16x16");
        assert_eq!(camel("SELF"), "Self_");
        assert_eq!(spec_key("DtypeAllowFP32R"), spec_key("DTYPE_ALLOW_FP32R"));
        assert_eq!(spec_key("AllowedInPSUM"), "allowedinpsum");
        assert_eq!(short("NEURON_ISA_TPB_S1_RAND_STRUCT"), "S1_RAND_STRUCT");
        assert_eq!(rust_field("type"), "type_");
        assert_eq!(snake("RandSetState"), "rand_set_state");
        assert_eq!(snake("RAND_SET_STATE"), "rand_set_state");
    }
}
