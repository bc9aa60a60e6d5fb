//! The address forms of the tensor operands: what the generated `TensorAddress` can build for a
//! tree, from its address map and its `ADDR4` union, each convention checked against the model
//! (an address form whose facts are missing is left out).

use super::construct::tensor_record;
use super::{Model, RecordId, Ty};
use crate::ctype::Prim;
use crate::vendor::{
    ADDR4_MARKER_ADDR_REG, ADDR_IMMEDIATE, ADDR_REG, MARKER, NUM_ADDR_REGISTERS, NUM_PARTITIONS,
    PSUM_BUF_OFFSET, PSUM_BUF_PARTITION_SIZE, REGNUM, START_ADDR, STATE_BUF_OFFSET,
    STATE_BUF_PARTITION_SIZE,
};

/// The `ADDR4` union of the tensor records and what `TensorAddress` can do with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressForms {
    /// The union.
    pub union: RecordId,
    /// SBUF helpers (`sbuf`): the constants exist.
    pub sbuf: bool,
    /// PSUM helpers (`psum`).
    pub psum: bool,
    /// The register form: (byte of `regnum`, byte of `marker`) when `register` exists.
    pub register: Option<(u64, u64)>,
}

/// The address forms, when the tensor records' start address is a 4-byte union with a u32
/// `addr_immediate` member ([`Model::address_forms`]).
pub fn derive(model: &Model) -> Option<AddressForms> {
    let union = model.record_entries().find_map(|(r, _)| {
        let (rec, _) = tensor_record(model, &Ty::Record(r))?;
        let start = model.records[rec]
            .fields
            .iter()
            .find(|f| f.name == START_ADDR)?;
        match start.ty {
            Ty::Record(a) => Some(a),
            _ => None,
        }
    })?;
    let u = &model.records[union];
    if !u
        .fields
        .iter()
        .any(|f| f.name == ADDR_IMMEDIATE && f.ty == Ty::Prim(Prim::U32) && f.offset == 0)
    {
        return None;
    }
    let has = |names: &[&str]| names.iter().all(|n| model.u32_constant(n).is_some());
    let sbuf = has(&[STATE_BUF_OFFSET, STATE_BUF_PARTITION_SIZE, NUM_PARTITIONS]);
    // A generation that sizes PSUM out (partition size 0) has no `psum`.
    let psum = has(&[PSUM_BUF_OFFSET, PSUM_BUF_PARTITION_SIZE, NUM_PARTITIONS])
        && model.u32_constant(PSUM_BUF_PARTITION_SIZE) != Some(0);
    let register = u
        .fields
        .iter()
        .find(|f| f.name == ADDR_REG)
        .and_then(|f| match f.ty {
            Ty::Record(r) => Some((f.offset, r)),
            _ => None,
        })
        .and_then(|(base, r)| {
            let byte = |n: &str| {
                model.records[r]
                    .fields
                    .iter()
                    .find(|f| f.name == n && f.ty == Ty::Prim(Prim::U8))
                    .map(|f| base + f.offset)
            };
            Some((byte(REGNUM)?, byte(MARKER)?))
        })
        .filter(|_| has(&[ADDR4_MARKER_ADDR_REG, NUM_ADDR_REGISTERS]));
    Some(AddressForms {
        union,
        sbuf,
        psum,
        register,
    })
}
