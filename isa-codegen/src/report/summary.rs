//! The ISA surface of one generation, as committed next to its crate
//! (`src/generated/isa.json`) so a later regeneration can say what changed.

use crate::model::{CType, Prim, RecordKind};
use crate::model::{Model, Status, Ty};
use serde::{Deserialize, Serialize};

/// One opcode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpcodeSummary {
    /// Name without prefix.
    pub name: String,
    /// Opcode byte.
    pub value: u8,
    /// `Y`, `n` or `n: <reason>`, or empty when unflagged.
    pub status: String,
    /// Pseudo opcode.
    pub pseudo: bool,
    /// Operand struct, when mapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operand_struct: Option<String>,
}

/// One field of a struct or union.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldSummary {
    /// Field name.
    pub name: String,
    /// Byte offset.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// C type as written (`uint8_t[7]`, `NEURON_ISA_TPB_TENSOR1D`); bit-fields add `:width@bit`.
    pub ty: String,
}

/// One struct or union.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSummary {
    /// C name.
    pub name: String,
    /// `struct` or `union`.
    pub kind: String,
    /// Size in bytes.
    pub size: u64,
    /// Fields in order.
    pub fields: Vec<FieldSummary>,
}

/// One enum member.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSummary {
    /// C name.
    pub name: String,
    /// Value.
    pub value: i64,
}

/// One enum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnumSummary {
    /// C name.
    pub name: String,
    /// Members in order.
    pub members: Vec<MemberSummary>,
}

/// The ISA surface of a generation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Generation name.
    pub generation: String,
    /// NeuronCore version.
    pub nc_version: u8,
    /// Tree fingerprint.
    pub fingerprint: String,
    /// Opcodes in header order.
    pub opcodes: Vec<OpcodeSummary>,
    /// Enums other than the opcode enum.
    pub enums: Vec<EnumSummary>,
    /// Structs and unions.
    pub records: Vec<RecordSummary>,
    /// Spec functions, by name.
    pub spec_functions: Vec<String>,
}

fn c_type_text(c: &CType) -> String {
    match c {
        CType::Prim(p) => match p {
            Prim::Bool => "bool".into(),
            Prim::U8 => "uint8_t".into(),
            Prim::I8 => "int8_t".into(),
            Prim::U16 => "uint16_t".into(),
            Prim::I16 => "int16_t".into(),
            Prim::U32 => "uint32_t".into(),
            Prim::I32 => "int32_t".into(),
            Prim::U64 => "uint64_t".into(),
            Prim::I64 => "int64_t".into(),
            Prim::F32 => "float".into(),
            Prim::F64 => "double".into(),
        },
        CType::Named(n) | CType::Enum(n) => n.clone(),
        CType::Array(inner, n) => format!("{}[{n}]", c_type_text(inner)),
        CType::BitfieldUnit(n) => format!("uint8_t[{n}]"),
        CType::Unsupported(t) => t.clone(),
    }
}

/// Status as written in the summary.
pub fn status_text(s: &Status) -> String {
    match s {
        Status::Maintained => "Y".into(),
        Status::Dormant(r) if r.is_empty() => "n".into(),
        Status::Dormant(r) => format!("n: {r}"),
        Status::Unflagged => String::new(),
    }
}

impl Summary {
    /// The summary of a model.
    pub fn of(model: &Model, spec_functions: Vec<String>) -> Summary {
        let opcodes = model
            .opcodes
            .iter()
            .map(|o| OpcodeSummary {
                name: o.short.clone(),
                value: o.value,
                status: status_text(&o.status),
                pseudo: o.pseudo,
                operand_struct: o
                    .shape
                    .map(|s| model.records[model.shapes[s].record].c_name.clone()),
            })
            .collect();
        let enums = model
            .enum_entries()
            .filter(|(k, _)| *k != model.opcode_enum)
            .map(|(_, e)| EnumSummary {
                name: e.c_name.clone(),
                members: e
                    .members
                    .iter()
                    .map(|m| MemberSummary {
                        name: m.c_name.clone(),
                        value: m.value as i64,
                    })
                    .collect(),
            })
            .collect();
        let records = model
            .records
            .iter()
            .map(|r| RecordSummary {
                name: r.c_name.clone(),
                kind: if r.kind == RecordKind::Union {
                    "union"
                } else {
                    "struct"
                }
                .into(),
                size: r.size,
                fields: r
                    .fields
                    .iter()
                    .map(|f| FieldSummary {
                        name: f.name.clone(),
                        offset: f.offset,
                        size: f.size,
                        ty: match f.bits {
                            Some(b) => {
                                format!("{}:{}@{}", c_type_text(&f.c_type), b.width, b.offset)
                            }
                            None => c_type_text(&f.c_type),
                        },
                    })
                    .collect(),
            })
            .collect();
        let _ = Ty::Prim(Prim::U8);
        Summary {
            generation: model.generation.clone(),
            nc_version: model.nc_version,
            fingerprint: model.fingerprint.tree_hex(),
            opcodes,
            enums,
            records,
            spec_functions,
        }
    }

    /// Pretty JSON with a trailing newline (the committed form).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a summary serialises");
        s.push('\n');
        s
    }

    /// Parses the committed form.
    pub fn from_json(text: &str) -> Result<Summary, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}
