//! Pass: the opcode field.
//!
//! Input: the records and the shapes. Output:
//! [`Model::opcode_field`](crate::model::Model::opcode_field): the field of type OPCODE at
//! byte 0 of every operand struct, reached through its offset-0 fields (`header.opcode`). A
//! struct without one, or with it elsewhere than the others, is an error.

use crate::diag::Sink;
use crate::model::{EnumId, OpcodeField, Record, RecordId, Shape, Ty};
use crate::vendor::OPCODE_ENUM;

/// How deep the opcode field may sit below an operand struct.
const MAX_DEPTH: usize = 8;

/// The opcode field every shape shares.
pub(super) fn find(
    records: &[Record],
    shapes: &[Shape],
    opcode_enum: EnumId,
    sink: &mut Sink,
) -> OpcodeField {
    let mut found: Option<OpcodeField> = None;
    for shape in shapes {
        let hit = at_byte_zero(records, shape.record, opcode_enum);
        let record = &records[shape.record];
        match (hit, &found) {
            (None, _) => sink.push(
                record.loc.clone(),
                format!(
                    "`{}` has no opcode field of type {OPCODE_ENUM} at byte 0",
                    record.c_name
                ),
            ),
            (Some(h), Some(f)) if h.record != f.record || h.field != f.field => sink.push(
                record.loc.clone(),
                format!(
                    "`{}` keeps its opcode at `{}`, other structs at `{}`",
                    record.c_name,
                    h.path.join("."),
                    f.path.join(".")
                ),
            ),
            (Some(h), None) => found = Some(h),
            _ => {}
        }
    }
    found.unwrap_or(OpcodeField {
        record: RecordId::default(),
        field: 0,
        path: Vec::new(),
    })
}

/// The field of type `opcode_enum` reached from `record` through offset-0 fields.
fn at_byte_zero(records: &[Record], record: RecordId, opcode_enum: EnumId) -> Option<OpcodeField> {
    let mut rec = record;
    let mut path = Vec::new();
    for _ in 0..MAX_DEPTH {
        let (k, f) = records[rec]
            .fields
            .iter()
            .enumerate()
            .find(|(_, f)| f.offset == 0)?;
        path.push(f.name.clone());
        match &f.ty {
            Ty::Enum(e) if *e == opcode_enum => {
                return Some(OpcodeField {
                    record: rec,
                    field: k,
                    path,
                })
            }
            Ty::Record(r) => rec = *r,
            _ => return None,
        }
    }
    None
}
