//! The semantic difference between two ISA summaries.

use super::summary::{FieldSummary, Summary};
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

/// What changed from `old` to `new`, grouped: opcodes, records, enums, spec functions.
pub fn diff(old: &Summary, new: &Summary) -> Vec<Change> {
    let mut out = Vec::new();
    let old_ops: BTreeMap<&str, _> = old.opcodes.iter().map(|o| (o.name.as_str(), o)).collect();
    let new_ops: BTreeMap<&str, _> = new.opcodes.iter().map(|o| (o.name.as_str(), o)).collect();
    for o in &new.opcodes {
        match old_ops.get(o.name.as_str()) {
            None => out.push(Change::OpcodeAdded {
                name: o.name.clone(),
                value: o.value,
            }),
            Some(p) => {
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
        }
    }
    for o in &old.opcodes {
        if !new_ops.contains_key(o.name.as_str()) {
            out.push(Change::OpcodeRemoved {
                name: o.name.clone(),
                value: o.value,
            });
        }
    }
    let old_recs: BTreeMap<&str, _> = old.records.iter().map(|r| (r.name.as_str(), r)).collect();
    let new_recs: BTreeMap<&str, _> = new.records.iter().map(|r| (r.name.as_str(), r)).collect();
    for r in &new.records {
        let Some(p) = old_recs.get(r.name.as_str()) else {
            out.push(Change::RecordAdded {
                name: r.name.clone(),
                size: r.size,
            });
            continue;
        };
        if p.size != r.size {
            out.push(Change::RecordResized {
                name: r.name.clone(),
                from: p.size,
                to: r.size,
            });
        }
        let old_f: BTreeMap<&str, &FieldSummary> =
            p.fields.iter().map(|f| (f.name.as_str(), f)).collect();
        let new_f: BTreeMap<&str, &FieldSummary> =
            r.fields.iter().map(|f| (f.name.as_str(), f)).collect();
        for f in &r.fields {
            match old_f.get(f.name.as_str()) {
                None => out.push(Change::FieldAdded {
                    record: r.name.clone(),
                    field: f.clone(),
                }),
                Some(pf) => {
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
            }
        }
        for f in &p.fields {
            if !new_f.contains_key(f.name.as_str()) {
                out.push(Change::FieldRemoved {
                    record: r.name.clone(),
                    field: f.clone(),
                });
            }
        }
    }
    for r in &old.records {
        if !new_recs.contains_key(r.name.as_str()) {
            out.push(Change::RecordRemoved {
                name: r.name.clone(),
            });
        }
    }
    let old_enums: BTreeMap<&str, _> = old.enums.iter().map(|e| (e.name.as_str(), e)).collect();
    let new_enums: BTreeMap<&str, _> = new.enums.iter().map(|e| (e.name.as_str(), e)).collect();
    for e in &new.enums {
        let Some(p) = old_enums.get(e.name.as_str()) else {
            out.push(Change::EnumAdded {
                name: e.name.clone(),
                members: e.members.len(),
            });
            continue;
        };
        let old_m: BTreeMap<&str, i64> = p
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.value))
            .collect();
        let new_m: BTreeMap<&str, i64> = e
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.value))
            .collect();
        for m in &e.members {
            match old_m.get(m.name.as_str()) {
                None => out.push(Change::MemberAdded {
                    enum_name: e.name.clone(),
                    name: m.name.clone(),
                    value: m.value,
                }),
                Some(&v) if v != m.value => out.push(Change::MemberRevalued {
                    enum_name: e.name.clone(),
                    name: m.name.clone(),
                    from: v,
                    to: m.value,
                }),
                Some(_) => {}
            }
        }
        for m in &p.members {
            if !new_m.contains_key(m.name.as_str()) {
                out.push(Change::MemberRemoved {
                    enum_name: e.name.clone(),
                    name: m.name.clone(),
                    value: m.value,
                });
            }
        }
    }
    for e in &old.enums {
        if !new_enums.contains_key(e.name.as_str()) {
            out.push(Change::EnumRemoved {
                name: e.name.clone(),
            });
        }
    }
    for s in &new.spec_functions {
        if !old.spec_functions.contains(s) {
            out.push(Change::SpecAdded { name: s.clone() });
        }
    }
    for s in &old.spec_functions {
        if !new.spec_functions.contains(s) {
            out.push(Change::SpecRemoved { name: s.clone() });
        }
    }
    out
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
