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

impl Model {
    /// The address map as (SBUF start, SBUF size, PSUM start, PSUM size), from the tree's
    /// `STATE_BUF_*` and `PSUM_BUF_*` constants, when it has all four.
    pub fn memory_map(&self) -> Option<[&super::Constant; 4]> {
        use crate::vendor::{PSUM_BUF_SZ, STATE_BUF_SZ};
        let c = |n: &str| {
            self.constant(n)
                .filter(|c| self.u32_constant(n).is_some() && c.ty == Prim::U32)
        };
        Some([
            c(STATE_BUF_OFFSET)?,
            c(STATE_BUF_SZ)?,
            c(PSUM_BUF_OFFSET)?,
            c(PSUM_BUF_SZ)?,
        ])
    }
}

/// The memories one tensor operand of one instruction may use, as its validator passes them:
/// the `AllowedInSBUF` / `AllowedInPSUM` arguments of the start-address checks it reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OperandSpace {
    /// The instruction.
    pub opcode: super::OpcodeId,
    /// The tensor operand: a top-level field of the operand struct.
    pub field: usize,
    /// What the checks allow (a memory only when every check reached allows it).
    pub spaces: isa_core::Spaces,
}

/// The memories of every tensor operand of every validated instruction
/// ([`Model::operand_spaces`]): each validator evaluated with its opcode fixed and every field
/// and the engine symbolic, so that every start-address check is reached whatever the
/// instruction's other fields choose. Empty when the tree's address union or its
/// `AllowedInSBUF` / `AllowedInPSUM` enums are missing.
pub fn operand_spaces(model: &Model) -> Vec<OperandSpace> {
    let Some(watch) = space_watch(model) else {
        return Vec::new();
    };
    let mut out: Vec<OperandSpace> = Vec::new();
    for (op, v) in &model.validators {
        let Some(shape) = model.opcodes[*op].shape else {
            continue;
        };
        let shape_record = model.shapes[shape].record;
        let env = super::eval::Inputs {
            opcode: Some(i128::from(model.opcodes[*op].value)),
            ..Default::default()
        };
        let args = super::instance::validator_args(model, v.func, None);
        let mut ev = super::eval::Evaluator::new(model, &model.specs, shape_record)
            .watching_spaces(watch.clone());
        if ev.call(&env, v.func, args).is_err() {
            continue;
        }
        let seen = ev.spaces.map(|w| w.seen).unwrap_or_default();
        for (path, sbuf, psum) in seen {
            let Some(&super::eval::Step::Field(_, field)) = path.steps.first() else {
                continue;
            };
            match out.iter_mut().find(|s| s.opcode == *op && s.field == field) {
                Some(s) => {
                    s.spaces.sbuf &= sbuf;
                    s.spaces.psum &= psum;
                }
                None => out.push(OperandSpace {
                    opcode: *op,
                    field,
                    spaces: isa_core::Spaces { sbuf, psum },
                }),
            }
        }
    }
    out.sort_by_key(|s| (s.opcode, s.field));
    out
}

/// What the evaluator watches for: the address union and the two enums with their `TRUE`.
fn space_watch(model: &Model) -> Option<super::eval::SpaceWatch> {
    let union = model.address_forms.as_ref()?.union;
    let allowed = |c_name: &str| {
        let e = model.enum_named(c_name)?;
        let yes = model.enums[e]
            .members
            .iter()
            .find(|m| m.short == crate::vendor::ALLOWED_TRUE)?;
        Some((e, yes.value))
    };
    Some(super::eval::SpaceWatch {
        union,
        sbuf: allowed(crate::vendor::ALLOWED_IN_SBUF)?,
        psum: allowed(crate::vendor::ALLOWED_IN_PSUM)?,
        seen: Vec::new(),
    })
}

impl Model {
    /// The memories tensor operand `field` of `op` may use, when its validator checks them.
    pub fn operand_space(&self, op: super::OpcodeId, field: usize) -> Option<isa_core::Spaces> {
        self.operand_spaces
            .iter()
            .find(|s| s.opcode == op && s.field == field)
            .map(|s| s.spaces)
    }
}
