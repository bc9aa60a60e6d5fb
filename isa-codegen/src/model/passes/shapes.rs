//! Pass: the operand structs, bound to their opcodes by the mapping.
//!
//! Input: `instruction_mapping.json`, the records, the opcodes and the enums. Output:
//! [`Model::shapes`](crate::model::Model::shapes), in mapping order, and each mapped opcode's
//! [`Opcode::shape`](crate::model::Opcode::shape). A mapping token naming no enumerator is
//! an alias when exactly one enumerator equals it ignoring underscores and case, otherwise a
//! stale entry skipped (both warnings); a struct no header declares, a struct of the wrong size,
//! an opcode listed twice or bound to two structs are errors.

use super::types::TypeResolver;
use crate::diag::{Loc, Sink};
use crate::model::names::{camel, short, spec_key};
use crate::model::OpcodeId;
use crate::model::ShapeId;
use crate::model::{Enum, Opcode, Record, RecordId, Shape, Ty};
use crate::read::mapping::{Mapping, MappingEntry};
use crate::vendor::{INST_UNION, MAPPING_FILE, OPCODE_PREFIX, STRUCT_SUFFIX};
use std::collections::BTreeMap;

/// Suffix of a shape's typed field set whose code an opcode or enum already has as Rust name.
const FIELDS_SUFFIX: &str = "Fields";

/// What the shapes are bound against.
pub(super) struct Binding<'a> {
    /// The records.
    pub records: &'a [Record],
    /// The tree's types, by C name.
    pub types: &'a TypeResolver<'a>,
    /// The enums (their Rust names may not be taken by a shape).
    pub enums: &'a [Enum],
    /// The size every operand struct must have.
    pub inst_nbytes: u64,
}

/// The shapes of `mapping`; binds each mapped opcode of `opcodes` to its shape.
pub(super) fn bind(
    mapping: &Mapping,
    with: &Binding<'_>,
    opcodes: &mut [Opcode],
    sink: &mut Sink,
) -> Vec<Shape> {
    let inst_union = with.types.record_id(INST_UNION);
    let mut shapes: Vec<Shape> = Vec::new();
    for entry in &mapping.entries {
        if let Some(shape) = bind_entry(entry, with, inst_union, &shapes, opcodes, sink) {
            for &k in &shape.opcodes {
                opcodes[k].shape = Some(ShapeId::new(shapes.len()));
            }
            shapes.push(shape);
        }
    }
    // A shape's typed field set is named after its code unless an opcode or enum already has
    // that Rust name (PSEUDO_SET_RNG_SEED is both), then it is `<Code>Fields`.
    for shape in &mut shapes {
        let clash = opcodes.iter().any(|o| o.rust == shape.rust)
            || with.enums.iter().any(|e| e.rust == shape.rust);
        if clash {
            shape.rust.push_str(FIELDS_SUFFIX);
        }
    }
    shapes
}

/// The shape of one mapping entry (`None` when its struct does not exist); `shapes` are the
/// entries before it.
fn bind_entry(
    entry: &MappingEntry,
    with: &Binding<'_>,
    inst_union: Option<RecordId>,
    shapes: &[Shape],
    opcodes: &[Opcode],
    sink: &mut Sink,
) -> Option<Shape> {
    let loc = Loc::new(MAPPING_FILE, entry.line);
    let Some(rec) = with.types.record_id(&entry.struct_name) else {
        sink.push(
            loc,
            format!(
                "mapping names struct `{}`, which no header declares",
                entry.struct_name
            ),
        );
        return None;
    };
    let record = &with.records[rec];
    if record.size != with.inst_nbytes {
        sink.push(
            record.loc.clone(),
            format!(
                "`{}` is {} bytes; every operand struct must be {}",
                record.c_name, record.size, with.inst_nbytes
            ),
        );
    }
    let code = short(&entry.struct_name)
        .strip_suffix(STRUCT_SUFFIX)
        .unwrap_or(short(&entry.struct_name))
        .to_string();
    let mut ops = Vec::new();
    // Line of each opcode already bound by this entry: a repeat is named with both lines.
    let mut listed: BTreeMap<OpcodeId, u32> = BTreeMap::new();
    for (name, &op_line) in entry.opcodes.iter().zip(&entry.opcode_lines) {
        let op_loc = Loc::new(MAPPING_FILE, op_line);
        let Some(k) = opcode_of_token(entry, name, &op_loc, opcodes, sink) else {
            continue;
        };
        if let Some(&first) = listed.get(&k) {
            sink.push(
                op_loc,
                format!(
                    "opcode `{}` is listed twice in `{}` (first at {MAPPING_FILE}:{first})",
                    opcodes[k].c_name, entry.struct_name
                ),
            );
            continue;
        }
        listed.insert(k, op_line);
        if let Some(prev) = opcodes[k].shape {
            let suffix = name.strip_prefix(OPCODE_PREFIX).unwrap_or(name);
            sink.push(
                loc.clone(),
                format!(
                    "opcode `{suffix}` is bound to `{}` and again to `{}`",
                    shapes[prev].code, code
                ),
            );
        }
        ops.push(k);
    }
    let member = inst_union
        .and_then(|u| {
            with.records[u]
                .fields
                .iter()
                .find(|f| f.ty == Ty::Record(rec))
                .map(|f| f.name.clone())
        })
        .unwrap_or_else(|| code.to_ascii_lowercase());
    Some(Shape {
        record: rec,
        member,
        rust: camel(&code),
        code,
        opcodes: ops,
        pseudo_section: entry.pseudo_section,
        loc,
    })
}

/// The opcode a mapping token of `entry` names, exactly or as an alias (a warning); `None` for a
/// stale token (a warning).
fn opcode_of_token(
    entry: &MappingEntry,
    name: &str,
    op_loc: &Loc,
    opcodes: &[Opcode],
    sink: &mut Sink,
) -> Option<OpcodeId> {
    match resolve_opcode_token(opcodes, name) {
        Token::Exact(k) => Some(k),
        Token::Alias(k) => {
            sink.warn(
                op_loc.clone(),
                format!(
                    "alias resolved: mapping entry `{}` names opcode `{name}`, which the OPCODE enum lacks; read as `{}`, the one enumerator equal to it ignoring underscores and case",
                    entry.struct_name, opcodes[k].c_name
                ),
            );
            Some(k)
        }
        Token::Stale(near) => {
            let why = if near.is_empty() {
                String::new()
            } else {
                format!(
                    " (ignoring underscores and case it matches {}: ambiguous)",
                    near.iter()
                        .map(|&k| format!("`{}`", opcodes[k].c_name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            sink.warn(
                op_loc.clone(),
                format!(
                    "stale entry skipped: mapping entry `{}` names opcode `{name}`, which the OPCODE enum lacks{why}",
                    entry.struct_name
                ),
            );
            None
        }
    }
}

/// How a mapping's opcode token names an enumerator.
enum Token {
    /// By its exact C name.
    Exact(OpcodeId),
    /// Not exactly, but exactly one enumerator is equal to it ignoring underscores and case
    /// (`NEURON_ISA_TPB_OPCODE_DMA_MEMCPY` for `NEURON_ISA_TPB_OPCODE_DMAMEMCPY`).
    Alias(OpcodeId),
    /// Not at all (a stale superset entry), or ambiguously: the enumerators it matches loosely.
    Stale(Vec<OpcodeId>),
}

fn resolve_opcode_token(opcodes: &[Opcode], token: &str) -> Token {
    if let Some(k) = opcodes.iter().position(|o| o.c_name == token) {
        return Token::Exact(OpcodeId::new(k));
    }
    let key = spec_key(token);
    let near: Vec<OpcodeId> = OpcodeId::all(opcodes.len())
        .filter(|&k| spec_key(&opcodes[k].c_name) == key)
        .collect();
    match near.as_slice() {
        [k] => Token::Alias(*k),
        _ => Token::Stale(near),
    }
}
