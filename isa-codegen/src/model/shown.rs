//! How a value is written for people, in the disassembly (`Display`), in a violation and by
//! `neuron-isa decode`: which values are addresses (hexadecimal) and which are fp32 immediates
//! (floats). Every other number (counts, sizes, strides, indices, register numbers outside an
//! address) is decimal. The rule reads the model's types and the address convention
//! [`super::address`] already checks, never a list of field names:
//!
//! * **An address** is the tensor records' start-address union (`ADDR4`,
//!   [`Model::address_forms`]) and everything read inside it (`start_addr.addr_immediate`,
//!   `start_addr.addr_reg.marker`), or a value declared with the C type of that union's
//!   `addr_immediate` member when the header names it by a typedef (`PARTITION_OFFSET`, so an
//!   `imm_ptr` pointer is an address too).
//! * **An fp32 immediate** is an `f32` value, a union with an `f32` member as wide as the union
//!   (`IMM_VAL_INST_FIELD`, `RAND_PARAM`), or a whole-width integer view of such a union (the
//!   spec compares two immediates' encodings through `imm_bitvec_uint32`): written as the float
//!   its bits are, which parses back to the same bits.
//! * Any other union is written as its bits in hexadecimal, as before.

use super::{Model, RecordId, Ty};
use crate::ctype::{CType, Prim, RecordKind};
use crate::vendor::ADDR_IMMEDIATE;

/// How a value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Decimal.
    Decimal,
    /// Hexadecimal: an address, or the bits of a union of no numeric kind.
    Hex,
    /// The float its 32 bits are.
    Fp32,
}

/// True for the tensor records' start-address union.
pub fn is_address_union(model: &Model, r: RecordId) -> bool {
    model.address_forms.as_ref().is_some_and(|f| f.union == r)
}

/// The typedef the address union declares its `addr_immediate` member with, if any.
fn address_typedef(model: &Model) -> Option<&str> {
    let forms = model.address_forms.as_ref()?;
    let member = model.records[forms.union]
        .fields
        .iter()
        .find(|f| f.name == ADDR_IMMEDIATE)?;
    match &member.c_type {
        CType::Named(name) => Some(name.as_str()),
        _ => None,
    }
}

/// True for a union with an `f32` member as wide as itself.
pub fn is_fp32_union(model: &Model, r: RecordId) -> bool {
    let rec = &model.records[r];
    rec.kind == RecordKind::Union
        && rec
            .fields
            .iter()
            .any(|f| f.ty == Ty::Prim(Prim::F32) && f.offset == 0 && f.size == rec.size)
}

/// How a union value read whole is written.
pub fn of_union(model: &Model, r: RecordId) -> Shown {
    if is_fp32_union(model, r) && !is_address_union(model, r) {
        Shown::Fp32
    } else {
        Shown::Hex
    }
}

/// How the value at the end of `path` is written: `path` lists each record passed through with
/// the index of the field taken in it, outermost first; `ty` is the type read.
pub fn of_path(model: &Model, path: &[(RecordId, usize)], ty: &Ty) -> Shown {
    if path.iter().any(|(r, _)| is_address_union(model, *r)) {
        return Shown::Hex;
    }
    if let Some(&(r, k)) = path.last() {
        let field = &model.records[r].fields[k];
        let typedef = address_typedef(model);
        if typedef.is_some_and(|t| matches!(&field.c_type, CType::Named(n) if n == t)) {
            return Shown::Hex;
        }
        let whole_width = field.offset == 0 && field.size == model.records[r].size;
        if whole_width && is_fp32_union(model, r) && matches!(ty, Ty::Prim(p) if p.is_int()) {
            return Shown::Fp32;
        }
    }
    match ty {
        Ty::Prim(Prim::F32) => Shown::Fp32,
        Ty::Record(r) if model.records[*r].kind == RecordKind::Union => of_union(model, *r),
        _ => Shown::Decimal,
    }
}
