//! Where a field path lands in a typed operand struct, and what writing a value there means.
//!
//! The typed structs keep the vendor's field names (keyword-escaped) and arrays, and hold a
//! union as a value of its own typed record: a path stops at the first union it enters, and a
//! write through a union member is a whole-union write of a scalar member. The emitters turn
//! these into Rust places and statements.

use super::eval::{FieldPath, Step};
use super::names::rust_field;
use super::{EnumId, Model, RecordId, Ty};
use crate::ctype::{Prim, RecordKind};

/// One step of a place below the typed struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceStep {
    /// A field, by its Rust name.
    Field(String),
    /// An array element.
    Index(u64),
}

/// The Rust place of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The steps from the typed struct, up to the first union the path enters.
    pub steps: Vec<PlaceStep>,
    /// The union member the path takes there: (union record, member index).
    pub union_member: Option<(RecordId, usize)>,
}

/// The Rust place of `p` (its steps as they are: header and common roots are not resolved).
pub fn place(model: &Model, p: &FieldPath) -> Place {
    let mut steps = Vec::new();
    let mut union_member = None;
    for s in &p.steps {
        match s {
            Step::Field(r, k) => {
                if model.records[*r].kind == RecordKind::Union {
                    union_member = Some((*r, *k));
                    break;
                }
                steps.push(PlaceStep::Field(rust_field(
                    &model.records[*r].fields[*k].name,
                )));
            }
            Step::Index(i) => steps.push(PlaceStep::Index(*i)),
        }
    }
    Place {
        steps,
        union_member,
    }
}

/// The value a write stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// Member `member` of enum `enum_id`.
    Enum {
        /// The enum.
        enum_id: EnumId,
        /// The member (index into its members).
        member: usize,
    },
    /// A boolean.
    Bool(bool),
    /// An integer of the field's type.
    Int(i128),
    /// The whole union, from scalar member `member` holding `value` of type `prim`.
    Union {
        /// The union record.
        union: RecordId,
        /// The member written.
        member: usize,
        /// Its integer type.
        prim: Prim,
        /// The value, which `prim` holds.
        value: i128,
    },
}

/// Writing one value into a typed struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// Where.
    pub place: Place,
    /// What.
    pub value: Written,
}

/// Writing `value` at `p` (any root) in the typed struct of `shape_record`; `None` for the
/// opcode field (the instruction type supplies it), a value the field's type cannot spell (no
/// enum member of that value, an integer a union's scalar member does not hold) and a write
/// into a record, array or non-scalar union member.
pub fn assignment(
    model: &Model,
    shape_record: RecordId,
    p: &FieldPath,
    value: i128,
) -> Option<Assignment> {
    let canonical = p.canonical(model, shape_record);
    if let Some(Step::Field(r, k)) = canonical.steps.get(1) {
        if model.is_opcode_field(*r, *k) {
            return None;
        }
    }
    let place = place(model, &canonical);
    let written = if let Some((union, member)) = place.union_member {
        // Only a whole-union write through a scalar member is supported.
        match model.records[union].fields[member].ty {
            Ty::Prim(prim) if prim.is_int() && prim.holds(value) => Written::Union {
                union,
                member,
                prim,
                value,
            },
            _ => return None,
        }
    } else {
        match canonical.ty(model, shape_record) {
            Ty::Enum(e) => {
                // The first member of that value, as `Enum::by_value` finds it.
                let member = model.enums[e]
                    .members
                    .iter()
                    .position(|m| m.alias_of.is_none() && m.value == value)?;
                Written::Enum { enum_id: e, member }
            }
            Ty::Prim(Prim::Bool) => Written::Bool(value != 0),
            Ty::Prim(_) => Written::Int(value),
            _ => return None,
        }
    };
    Some(Assignment {
        place,
        value: written,
    })
}
