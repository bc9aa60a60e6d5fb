//! The semantic difference between two ISA summaries.

use super::summary::{EnumSummary, FieldSummary, OpcodeSummary, RecordSummary, Summary};
use std::collections::BTreeMap;
use std::fmt;

/// One change of the ISA surface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new opcode.
    OpcodeAdded { name: String, value: u8 },
    /// An opcode no longer present.
    OpcodeRemoved { name: String, value: u8 },
    /// Same name, new value.
    OpcodeRenumbered { name: String, from: u8, to: u8 },
    /// Same name, new maintenance flag.
    OpcodeReflagged {
        name: String,
        from: String,
        to: String,
    },
    /// Same name, bound to another operand struct (or to none).
    OpcodeRebound {
        name: String,
        from: Option<String>,
        to: Option<String>,
    },
    /// A new struct or union.
    RecordAdded { name: String, size: u64 },
    /// A struct or union no longer present.
    RecordRemoved { name: String },
    /// A struct's size changed.
    RecordResized { name: String, from: u64, to: u64 },
    /// A new field.
    FieldAdded { record: String, field: FieldSummary },
    /// A field no longer present.
    FieldRemoved { record: String, field: FieldSummary },
    /// A field at another offset.
    FieldMoved {
        record: String,
        name: String,
        from: u64,
        to: u64,
    },
    /// A field of another type or size.
    FieldRetyped {
        record: String,
        name: String,
        from: String,
        to: String,
    },
    /// A new enum.
    EnumAdded { name: String, members: usize },
    /// An enum no longer present.
    EnumRemoved { name: String },
    /// A new enum member.
    MemberAdded {
        enum_name: String,
        name: String,
        value: i64,
    },
    /// An enum member no longer present.
    MemberRemoved {
        enum_name: String,
        name: String,
        value: i64,
    },
    /// A member with a new value.
    MemberRevalued {
        enum_name: String,
        name: String,
        from: i64,
        to: i64,
    },
    /// A new spec function.
    SpecAdded { name: String },
    /// A spec function no longer present.
    SpecRemoved { name: String },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::OpcodeAdded { name, value } => write!(f, "+ opcode {name} = {value:#04x}"),
            Change::OpcodeRemoved { name, value } => write!(f, "- opcode {name} = {value:#04x}"),
            Change::OpcodeRenumbered { name, from, to } => {
                write!(f, "~ opcode {name}: {from:#04x} -> {to:#04x}")
            }
            Change::OpcodeReflagged { name, from, to } => {
                write!(f, "~ opcode {name}: flag `{from}` -> `{to}`")
            }
            Change::OpcodeRebound { name, from, to } => write!(
                f,
                "~ opcode {name}: operand struct {} -> {}",
                from.as_deref().unwrap_or("(none)"),
                to.as_deref().unwrap_or("(none)")
            ),
            Change::RecordAdded { name, size } => write!(f, "+ struct {name} ({size} bytes)"),
            Change::RecordRemoved { name } => write!(f, "- struct {name}"),
            Change::RecordResized { name, from, to } => {
                write!(f, "~ struct {name}: {from} -> {to} bytes")
            }
            Change::FieldAdded { record, field } => write!(
                f,
                "+ field {record}.{} ({}, bytes {}..{})",
                field.name,
                field.ty,
                field.offset,
                field.offset + field.size
            ),
            Change::FieldRemoved { record, field } => {
                write!(f, "- field {record}.{} ({})", field.name, field.ty)
            }
            Change::FieldMoved {
                record,
                name,
                from,
                to,
            } => {
                write!(f, "~ field {record}.{name}: byte {from} -> {to}")
            }
            Change::FieldRetyped {
                record,
                name,
                from,
                to,
            } => {
                write!(f, "~ field {record}.{name}: {from} -> {to}")
            }
            Change::EnumAdded { name, members } => write!(f, "+ enum {name} ({members} members)"),
            Change::EnumRemoved { name } => write!(f, "- enum {name}"),
            Change::MemberAdded {
                enum_name,
                name,
                value,
            } => write!(f, "+ member {enum_name}::{name} = {value}"),
            Change::MemberRemoved {
                enum_name,
                name,
                value,
            } => write!(f, "- member {enum_name}::{name} = {value}"),
            Change::MemberRevalued {
                enum_name,
                name,
                from,
                to,
            } => {
                write!(f, "~ member {enum_name}::{name}: {from} -> {to}")
            }
            Change::SpecAdded { name } => write!(f, "+ spec fn {name}"),
            Change::SpecRemoved { name } => write!(f, "- spec fn {name}"),
        }
    }
}

/// An item of two lists matched by name.
enum ByName<'a, T> {
    /// Only in the new list.
    Added(&'a T),
    /// In both: the old item and the new one.
    Both(&'a T, &'a T),
    /// Only in the old list.
    Removed(&'a T),
}

/// The items of `old` and `new` matched by `name`: the new items in their order (added, or
/// both), then the old items the new list lacks, in theirs.
fn by_name<'a, T>(old: &'a [T], new: &'a [T], name: impl Fn(&T) -> &str) -> Vec<ByName<'a, T>> {
    let old_by: BTreeMap<&str, &T> = old.iter().map(|x| (name(x), x)).collect();
    let new_by: BTreeMap<&str, &T> = new.iter().map(|x| (name(x), x)).collect();
    let mut out: Vec<ByName<'a, T>> = new
        .iter()
        .map(|x| match old_by.get(name(x)) {
            Some(&was) => ByName::Both(was, x),
            None => ByName::Added(x),
        })
        .collect();
    out.extend(
        old.iter()
            .filter(|x| !new_by.contains_key(name(x)))
            .map(ByName::Removed),
    );
    out
}

/// What changed from `old` to `new`, grouped: opcodes, records, enums, spec functions.
pub fn diff(old: &Summary, new: &Summary) -> Vec<Change> {
    let mut out = Vec::new();
    for o in by_name(&old.opcodes, &new.opcodes, |o| &o.name) {
        match o {
            ByName::Added(o) => out.push(Change::OpcodeAdded {
                name: o.name.clone(),
                value: o.value,
            }),
            ByName::Both(p, o) => opcode_changes(p, o, &mut out),
            ByName::Removed(o) => out.push(Change::OpcodeRemoved {
                name: o.name.clone(),
                value: o.value,
            }),
        }
    }
    for r in by_name(&old.records, &new.records, |r| &r.name) {
        match r {
            ByName::Added(r) => out.push(Change::RecordAdded {
                name: r.name.clone(),
                size: r.size,
            }),
            ByName::Both(p, r) => record_changes(p, r, &mut out),
            ByName::Removed(r) => out.push(Change::RecordRemoved {
                name: r.name.clone(),
            }),
        }
    }
    for e in by_name(&old.enums, &new.enums, |e| &e.name) {
        match e {
            ByName::Added(e) => out.push(Change::EnumAdded {
                name: e.name.clone(),
                members: e.members.len(),
            }),
            ByName::Both(p, e) => enum_changes(p, e, &mut out),
            ByName::Removed(e) => out.push(Change::EnumRemoved {
                name: e.name.clone(),
            }),
        }
    }
    for s in by_name(&old.spec_functions, &new.spec_functions, |s| s) {
        match s {
            ByName::Added(s) => out.push(Change::SpecAdded { name: s.clone() }),
            ByName::Both(..) => {}
            ByName::Removed(s) => out.push(Change::SpecRemoved { name: s.clone() }),
        }
    }
    out
}

/// What changed of an opcode present in both summaries: its value, flag, operand struct.
fn opcode_changes(p: &OpcodeSummary, o: &OpcodeSummary, out: &mut Vec<Change>) {
    if p.value != o.value {
        out.push(Change::OpcodeRenumbered {
            name: o.name.clone(),
            from: p.value,
            to: o.value,
        });
    }
    if p.status != o.status {
        out.push(Change::OpcodeReflagged {
            name: o.name.clone(),
            from: p.status.clone(),
            to: o.status.clone(),
        });
    }
    if p.operand_struct != o.operand_struct {
        out.push(Change::OpcodeRebound {
            name: o.name.clone(),
            from: p.operand_struct.clone(),
            to: o.operand_struct.clone(),
        });
    }
}

/// What changed of a record present in both summaries: its size, then its fields.
fn record_changes(p: &RecordSummary, r: &RecordSummary, out: &mut Vec<Change>) {
    if p.size != r.size {
        out.push(Change::RecordResized {
            name: r.name.clone(),
            from: p.size,
            to: r.size,
        });
    }
    for f in by_name(&p.fields, &r.fields, |f| &f.name) {
        match f {
            ByName::Added(f) => out.push(Change::FieldAdded {
                record: r.name.clone(),
                field: f.clone(),
            }),
            ByName::Both(pf, f) => {
                if pf.offset != f.offset {
                    out.push(Change::FieldMoved {
                        record: r.name.clone(),
                        name: f.name.clone(),
                        from: pf.offset,
                        to: f.offset,
                    });
                }
                if pf.ty != f.ty || pf.size != f.size {
                    out.push(Change::FieldRetyped {
                        record: r.name.clone(),
                        name: f.name.clone(),
                        from: pf.ty.clone(),
                        to: f.ty.clone(),
                    });
                }
            }
            ByName::Removed(f) => out.push(Change::FieldRemoved {
                record: r.name.clone(),
                field: f.clone(),
            }),
        }
    }
}

/// What changed of an enum present in both summaries: its members.
fn enum_changes(p: &EnumSummary, e: &EnumSummary, out: &mut Vec<Change>) {
    for m in by_name(&p.members, &e.members, |m| &m.name) {
        match m {
            ByName::Added(m) => out.push(Change::MemberAdded {
                enum_name: e.name.clone(),
                name: m.name.clone(),
                value: m.value,
            }),
            ByName::Both(was, m) if was.value != m.value => out.push(Change::MemberRevalued {
                enum_name: e.name.clone(),
                name: m.name.clone(),
                from: was.value,
                to: m.value,
            }),
            ByName::Both(..) => {}
            ByName::Removed(m) => out.push(Change::MemberRemoved {
                enum_name: e.name.clone(),
                name: m.name.clone(),
                value: m.value,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{diff, Change};
    use crate::report::Summary;

    /// A summary from its JSON form (the committed `isa.json`).
    fn summary(json: &str) -> Summary {
        serde_json::from_str(json).expect("a summary")
    }

    /// Every kind of change, in the documented order: opcodes, records (fields inside),
    /// enums (members inside), spec functions; within each, the new side's order, then what
    /// the old side had alone.
    #[test]
    fn every_kind_of_change_is_listed_in_order() {
        let old = summary(
            r#"{"generation":"G","nc_version":1,"fingerprint":"0",
            "opcodes":[{"name":"KEEP","value":1,"status":"Y","pseudo":false,"operand_struct":"S"},
                       {"name":"GONE","value":2,"status":"","pseudo":false}],
            "enums":[{"name":"E","members":[{"name":"A","value":0},{"name":"B","value":1}]},
                     {"name":"OLD_E","members":[]}],
            "records":[{"name":"S","kind":"struct","size":8,"fields":[
                         {"name":"x","offset":0,"size":4,"ty":"uint32_t"},
                         {"name":"y","offset":4,"size":4,"ty":"uint32_t"},
                         {"name":"z","offset":4,"size":2,"ty":"uint16_t"}]},
                       {"name":"OLD_S","kind":"struct","size":1,"fields":[]}],
            "spec_functions":["f","g"]}"#,
        );
        let new = summary(
            r#"{"generation":"G","nc_version":1,"fingerprint":"1",
            "opcodes":[{"name":"NEW","value":3,"status":"","pseudo":false},
                       {"name":"KEEP","value":5,"status":"n","pseudo":false,"operand_struct":"T"}],
            "enums":[{"name":"E","members":[{"name":"C","value":2},{"name":"A","value":7}]},
                     {"name":"NEW_E","members":[{"name":"Q","value":0}]}],
            "records":[{"name":"NEW_S","kind":"struct","size":2,"fields":[]},
                       {"name":"S","kind":"struct","size":16,"fields":[
                         {"name":"w","offset":8,"size":1,"ty":"uint8_t"},
                         {"name":"x","offset":4,"size":4,"ty":"int32_t"},
                         {"name":"z","offset":4,"size":2,"ty":"uint16_t"}]}],
            "spec_functions":["h","f"]}"#,
        );
        let text: Vec<String> = diff(&old, &new).iter().map(Change::to_string).collect();
        assert_eq!(
            text,
            [
                "+ opcode NEW = 0x03",
                "~ opcode KEEP: 0x01 -> 0x05",
                "~ opcode KEEP: flag `Y` -> `n`",
                "~ opcode KEEP: operand struct S -> T",
                "- opcode GONE = 0x02",
                "+ struct NEW_S (2 bytes)",
                "~ struct S: 8 -> 16 bytes",
                "+ field S.w (uint8_t, bytes 8..9)",
                "~ field S.x: byte 0 -> 4",
                "~ field S.x: uint32_t -> int32_t",
                "- field S.y (uint32_t)",
                "- struct OLD_S",
                "+ member E::C = 2",
                "~ member E::A: 0 -> 7",
                "- member E::B = 1",
                "+ enum NEW_E (1 members)",
                "- enum OLD_E",
                "+ spec fn h",
                "- spec fn g",
            ]
        );
        assert!(diff(&new, &new).is_empty());
    }
}
