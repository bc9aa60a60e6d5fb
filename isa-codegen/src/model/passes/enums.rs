//! Pass: the enums.
//!
//! Input: bindgen's enums, in file then source order. Output: [`Model::enums`](crate::model::Model::enums),
//! each member with its short and Rust names and, for a value an earlier member already has, the
//! member it aliases. Two members that would become one Rust variant are an error.

use super::locate::Locator;
use crate::diag::{Loc, Sink};
use crate::model::names::{camel, short};
use crate::model::{Enum, Member};
use crate::read::cdecl::{CDecl, CEnum};
use crate::read::TreeInput;
use crate::vendor::VENDOR_PREFIX;
use std::collections::BTreeMap;

/// Every enum of the tree.
pub(super) fn build(input: &TreeInput, locator: &Locator<'_>, sink: &mut Sink) -> Vec<Enum> {
    let mut enums = Vec::new();
    for file in &input.decls {
        for decl in &file.decls {
            let CDecl::Enum(e) = decl else { continue };
            let loc = locator.decl(&file.file, &e.name);
            enums.push(Enum {
                c_name: e.name.clone(),
                rust: camel(short(&e.name)),
                repr: e.underlying,
                members: members(e, &file.file, &loc, locator, sink),
                doc: e.doc.clone(),
                loc,
            });
        }
    }
    enums
}

/// The members of `e`, declared in `file` at `loc`.
fn members(
    e: &CEnum,
    file: &str,
    loc: &Loc,
    locator: &Locator<'_>,
    sink: &mut Sink,
) -> Vec<Member> {
    let prefix = format!("{}_", e.name);
    let mut members: Vec<Member> = Vec::new();
    let mut rust_seen: BTreeMap<String, String> = BTreeMap::new();
    for m in &e.members {
        let short_name = m
            .name
            .strip_prefix(&prefix)
            .or_else(|| m.name.strip_prefix(VENDOR_PREFIX))
            .unwrap_or(&m.name)
            .to_string();
        let rust = camel(&short_name);
        let mloc = locator.member(file, loc, &m.name);
        if let Some(other) = rust_seen.insert(rust.clone(), m.name.clone()) {
            sink.push(
                mloc.clone(),
                format!(
                    "`{}` and `{other}` both become the Rust variant `{rust}`",
                    m.name
                ),
            );
        }
        let alias_of = members
            .iter()
            .position(|x| x.value == m.value && x.alias_of.is_none());
        members.push(Member {
            c_name: m.name.clone(),
            short: short_name,
            rust,
            value: m.value,
            comment: m.doc.clone(),
            loc: mloc,
            alias_of,
        });
    }
    members
}
