//! Pass: the opcodes.
//!
//! Input: the members of the OPCODE enum. Output: [`Model::opcodes`](crate::model::Model::opcodes),
//! in source order, each with its maintenance flag read from its comment and not yet bound to
//! an operand struct (the shapes pass binds them). Two opcodes of one value, or a value that does
//! not fit a byte, are errors.

use crate::diag::Sink;
use crate::model::{Enum, Opcode, Status};
use crate::vendor::PSEUDO_PREFIX;
use std::collections::BTreeMap;

/// The opcodes of the OPCODE enum `opcode_enum`.
pub(super) fn build(opcode_enum: &Enum, sink: &mut Sink) -> Vec<Opcode> {
    let mut opcodes = Vec::new();
    let mut by_value: BTreeMap<i128, &str> = BTreeMap::new();
    for m in &opcode_enum.members {
        if let Some(prev) = by_value.get(&m.value) {
            sink.push(
                m.loc.clone(),
                format!(
                    "`{}` has value {:#04x}, which `{prev}` already has",
                    m.c_name, m.value
                ),
            );
            continue;
        }
        by_value.insert(m.value, &m.c_name);
        let Ok(value) = u8::try_from(m.value) else {
            sink.push(
                m.loc.clone(),
                format!("opcode `{}` = {} does not fit a byte", m.c_name, m.value),
            );
            continue;
        };
        opcodes.push(Opcode {
            c_name: m.c_name.clone(),
            short: m.short.clone(),
            rust: m.rust.clone(),
            value,
            status: parse_status(m.comment.as_deref()),
            pseudo: m.short.starts_with(PSEUDO_PREFIX),
            comment: m.comment.clone(),
            shape: None,
            loc: m.loc.clone(),
        });
    }
    opcodes
}

/// `// Y`, `// n, reason`, or nothing: the flag is the last `//`-separated segment.
fn parse_status(comment: Option<&str>) -> Status {
    let Some(comment) = comment else {
        return Status::Unflagged;
    };
    let last = comment.rsplit("//").next().unwrap_or("").trim();
    let mut chars = last.chars();
    match chars.next() {
        Some('Y' | 'y') if chars.clone().next().is_none_or(|c| !c.is_alphanumeric()) => {
            Status::Maintained
        }
        Some('n') if chars.clone().next().is_none_or(|c| !c.is_alphanumeric()) => Status::Dormant(
            chars
                .as_str()
                .trim_start_matches([',', ' '])
                .trim()
                .to_string(),
        ),
        _ => Status::Unflagged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_flags() {
        assert_eq!(parse_status(Some(" Y")), Status::Maintained);
        assert_eq!(
            parse_status(Some(" n, ucode exists, not maintained/used")),
            Status::Dormant("ucode exists, not maintained/used".into())
        );
        assert_eq!(parse_status(Some(" n")), Status::Dormant(String::new()));
        assert_eq!(
            parse_status(Some(" 0x97 reserved for SortMerge (wip) // Y")),
            Status::Maintained
        );
        assert_eq!(parse_status(Some(" none of that")), Status::Unflagged);
        assert_eq!(parse_status(None), Status::Unflagged);
    }
}
