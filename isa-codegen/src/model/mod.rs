//! Stage 2, model: the generator's own description of one generation.
//!
//! Built from the read stage only ([`build`], a driver over named passes); the emitters and the
//! report read only this. Items refer to each other by index.

pub mod address;
pub mod construct;
pub mod eval;
pub mod ids;
pub mod instance;
pub mod legality;
pub mod names;
pub mod passes;
pub mod place;
pub mod placement;
pub mod runtime;
pub mod shown;
pub mod spec;

pub use passes::build;

pub use crate::ctype::{CType, Prim, RecordKind};
use crate::diag::{Diagnostic, Loc};
use isa_core::fingerprint::TreeFingerprint;

pub use ids::{EnumId, IdVec, OpcodeId, RecordId, ShapeId};

/// A field or array element type, typedefs resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A scalar.
    Prim(Prim),
    /// A C enum.
    Enum(EnumId),
    /// A struct or union.
    Record(RecordId),
    /// `T[n]`.
    Array(Box<Ty>, u64),
}

/// One enum member.
#[derive(Clone, Debug)]
pub struct Member {
    /// Full C name.
    pub c_name: String,
    /// Name after the enum's prefix (`XORWOW`).
    pub short: String,
    /// Rust variant name (`Xorwow`).
    pub rust: String,
    /// Value.
    pub value: i128,
    /// Trailing comment.
    pub comment: Option<String>,
    /// Declaration line.
    pub loc: Loc,
    /// For a member whose value an earlier member already has: that member's index.
    pub alias_of: Option<usize>,
}

/// A C enum.
#[derive(Clone, Debug)]
pub struct Enum {
    /// C name.
    pub c_name: String,
    /// Rust type name.
    pub rust: String,
    /// Underlying integer type.
    pub repr: Prim,
    /// Members in source order.
    pub members: Vec<Member>,
    /// Comment above the enum.
    pub doc: Option<String>,
    /// Declaration line.
    pub loc: Loc,
}

impl Enum {
    /// Members that are not aliases of an earlier member.
    pub fn distinct(&self) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(|m| m.alias_of.is_none())
    }

    /// The member with `value`, if any (the first, for aliased values).
    pub fn by_value(&self, value: i128) -> Option<&Member> {
        self.distinct().find(|m| m.value == value)
    }
}

/// Bit position of a bit-field inside its storage unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// First bit (LSB = 0) of the little-endian unit.
    pub offset: u32,
    /// Width in bits.
    pub width: u32,
}

/// One field of a record.
#[derive(Clone, Debug)]
pub struct Field {
    /// Field name.
    pub name: String,
    /// Byte offset in the record (the storage unit's offset for a bit-field).
    pub offset: u64,
    /// Size in bytes (the storage unit's size for a bit-field).
    pub size: u64,
    /// Resolved type.
    pub ty: Ty,
    /// The C type as written (typedef names kept), for the raw layer.
    pub c_type: CType,
    /// Set for a bit-field.
    pub bits: Option<Bits>,
    /// Trailing comment (`// 1 (12     )`) or doc.
    pub doc: Option<String>,
    /// Declaration line.
    pub loc: Loc,
    /// An anonymous member (`union { ... };` in C): `name` is the generator's `anon<k>`, its type
    /// is the anonymous record `<PARENT>_anon<k>`, and the spec reads its members as members of
    /// the enclosing record (`i.s.imm_ptr`).
    pub anonymous: bool,
}

/// A struct or union.
#[derive(Clone, Debug)]
pub struct Record {
    /// C name.
    pub c_name: String,
    /// Rust name of its typed form.
    pub rust: String,
    /// Struct or union.
    pub kind: RecordKind,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// `NEURON_ISA_PACKED`.
    pub packed: bool,
    /// Fields (bit-fields expanded, one per bit-field).
    pub fields: Vec<Field>,
    /// Comment above the record.
    pub doc: Option<String>,
    /// Declaration line.
    pub loc: Loc,
}

/// A `typedef` of a scalar, enum or record under another name.
#[derive(Clone, Debug)]
pub struct Typedef {
    /// C name.
    pub c_name: String,
    /// Aliased type.
    pub target: Ty,
    /// The aliased C type as written.
    pub c_type: CType,
    /// Comment.
    pub doc: Option<String>,
    /// Declaration line.
    pub loc: Loc,
}

/// A `static const` or numeric `#define`.
#[derive(Clone, Debug)]
pub struct Constant {
    /// C name.
    pub c_name: String,
    /// Name without the vendor prefix (the spec language's name).
    pub short: String,
    /// Type.
    pub ty: Prim,
    /// Value.
    pub value: i128,
    /// Comment.
    pub doc: Option<String>,
    /// Declaration line.
    pub loc: Loc,
}

/// Maintenance flag of an opcode.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Status {
    /// `// Y`.
    Maintained,
    /// `// n, <reason>`.
    Dormant(String),
    /// No flag.
    Unflagged,
}

/// One opcode of the generation.
#[derive(Clone, Debug)]
pub struct Opcode {
    /// Full enumerator name.
    pub c_name: String,
    /// Name without `NEURON_ISA_TPB_OPCODE_`.
    pub short: String,
    /// Rust variant / typed instruction name (`RandSetState`).
    pub rust: String,
    /// Opcode byte.
    pub value: u8,
    /// Flag.
    pub status: Status,
    /// Pseudo opcode (compiler-generated, lowered by the runtime).
    pub pseudo: bool,
    /// Full trailing comment.
    pub comment: Option<String>,
    /// Operand struct bound by the mapping.
    pub shape: Option<ShapeId>,
    /// Declaration line.
    pub loc: Loc,
}

/// A mapped operand struct and the opcodes that use it.
#[derive(Clone, Debug)]
pub struct Shape {
    /// The record.
    pub record: RecordId,
    /// Shape code (`S1_RAND`).
    pub code: String,
    /// Member of `NEURON_ISA_TPB_INST_UNION` holding it (`s1_rand`).
    pub member: String,
    /// Rust name of its typed field set (`S1Rand`).
    pub rust: String,
    /// Opcodes (indices into [`Model::opcodes`]), in mapping order.
    pub opcodes: Vec<OpcodeId>,
    /// Listed under `struct2pseudo_opcode`.
    pub pseudo_section: bool,
    /// Mapping line.
    pub loc: Loc,
}

/// Where the opcode byte sits in every operand struct: `header.opcode` at byte 0.
#[derive(Clone, Debug, Default)]
pub struct OpcodeField {
    /// Record holding the opcode field (`NEURON_ISA_TPB_HEADER`).
    pub record: RecordId,
    /// Index of the opcode field in it.
    pub field: usize,
    /// Field path from an operand struct (`["header", "opcode"]`).
    pub path: Vec<String>,
}

/// The spec function that validates one opcode's typed instruction.
#[derive(Clone, Debug)]
pub struct Validator {
    /// Index into [`Model::specs`].
    pub func: usize,
    /// For a validator without an engine parameter that passes one fixed engine to the
    /// functions it calls (SUNDA/CAYMAN pass `NeuronEngine::Pool`): that member's index.
    pub implied_engine: Option<usize>,
}

/// A generation, modelled.
///
/// [`build`] fills it in phases: the declaration passes (`passes::*`) every field up to
/// `untranslated`; then, when they found no error, the fields each marked with the pass that
/// fills it, in this order: instruction names, address forms, spec, validators, unused specs,
/// placement, legality, runtime, constructions. A field of a later phase is empty (its `Default`) in a model whose build
/// stopped before it, which only an error returns.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Directory name of the tree.
    pub tree_name: String,
    /// Generation name (`MARIANA`).
    pub generation: String,
    /// NeuronCore version from the banner.
    pub nc_version: u8,
    /// Fingerprints of the tree's files.
    pub fingerprint: TreeFingerprint,
    /// Header files (tree-relative), sorted.
    pub headers: Vec<String>,
    /// Every enum, OPCODE included, in file then source order (pass `enums`).
    pub enums: Vec<Enum>,
    /// Every struct and union, laid out (pass `records`).
    pub records: Vec<Record>,
    /// Scalar/enum/record typedefs under other names (pass `typedefs`).
    pub typedefs: Vec<Typedef>,
    /// Constants (pass `constants`).
    pub constants: Vec<Constant>,
    /// The OPCODE enum's index in [`Model::enums`].
    pub opcode_enum: EnumId,
    /// Opcodes in source order (pass `opcodes`; their shapes from pass `shapes`).
    pub opcodes: Vec<Opcode>,
    /// Mapped operand structs (pass `shapes`).
    pub shapes: Vec<Shape>,
    /// Per opcode (index into [`Model::opcodes`]) the Rust name of its typed instruction, `None`
    /// when it is unmapped (pass `instruction_names`, right after the declarations).
    pub instruction_names: IdVec<OpcodeId, Option<String>>,
    /// The opcode field (pass `opcode_field`).
    pub opcode_field: OpcodeField,
    /// Size every operand struct has (`NEURON_ISA_TPB_INST_NBYTES`).
    pub inst_nbytes: u64,
    /// `NEURON_ISA_TPB_INST_UNION`, when the tree has util.h.
    pub inst_union: Option<RecordId>,
    /// Items the generator cannot represent; reported, never dropped silently (passes `decls`
    /// and `typedefs`).
    pub untranslated: Vec<Diagnostic>,
    /// Problems the generator worked around, each at its `file:line`, sorted by place: a clang
    /// warning, a header that parses only after the others, a stale mapping entry skipped or an
    /// alias resolved, a spec block it could not translate (dropped, with every function that
    /// calls it), a mapped opcode without a validator, an unused spec function. The report lists
    /// them; `--strict` ([`crate::Options`]) makes each one (and each `untranslated` item) an error.
    /// Filled last, from the read stage's and every pass's warnings.
    pub warnings: Vec<Diagnostic>,
    /// The spec functions, resolved (same order as the blocks were read; [`spec::resolve`]).
    pub specs: Vec<spec::SpecFn>,
    /// Spec functions left out because they could not be translated (each reported as a
    /// warning), and the functions that call them ([`spec::resolve`]).
    pub spec_dropped: Vec<spec::DroppedSpec>,
    /// Mapped opcodes (index into [`Model::opcodes`]) without a validator, and why: no spec
    /// function of the names tried, or one that is not translated. Their typed instructions have
    /// no `validate`, and `Instruction::validate` returns a violation carrying the reason (pass
    /// `validators`).
    pub unvalidated: Vec<(OpcodeId, String)>,
    /// Which engines run each opcode, interpreted from the tree's generated C function
    /// `neuron_isa_check_opcode_on_engine` (`aws_neuron_isa_tpb_instr_assert.h`); `None` when the
    /// tree has no such function or it could not be interpreted (a warning says why;
    /// [`placement::derive`]).
    pub placement: Option<placement::Placement>,
    /// Facts the report prints that are neither errors nor warnings (an unused shared helper of
    /// `common.h`), each at its `file:line` (pass `unused_specs`).
    pub notes: Vec<Diagnostic>,
    /// Per mapped opcode (index into [`Model::opcodes`]) its validator (pass `validators`).
    pub validators: Vec<(OpcodeId, Validator)>,
    /// Derived legality tables ([`legality::derive`]).
    pub tables: Vec<legality::Table>,
    /// `NEURON_ISA_TPB_NEURON_ENGINE`, when the tree has it.
    pub engine_enum: Option<EnumId>,
    /// `NEURON_ISA_TPB_NEURON_CORE_VERSION`, when the tree has it.
    pub version_enum: Option<EnumId>,
    /// The project's runtime data (`rng-runtime.json`), when the tree has it ([`runtime::resolve`]).
    pub runtime: Option<runtime::RuntimeModel>,
    /// The typed constructors derived from the validators ([`construct`]).
    pub constructions: construct::Constructions,
    /// What the generated `TensorAddress` can build, when the tree's tensor records have an
    /// `ADDR4` start address ([`address::derive`], right after the declarations).
    pub address_forms: Option<address::AddressForms>,
    /// The memories each tensor operand may use, read off the validators' own
    /// `AllowedInSBUF` / `AllowedInPSUM` arguments ([`address::operand_spaces`], after the
    /// validators).
    pub operand_spaces: Vec<address::OperandSpace>,
}

impl Model {
    /// Every enum with its id, in table order.
    pub fn enum_entries(&self) -> impl Iterator<Item = (EnumId, &Enum)> {
        ids::entries(&self.enums)
    }

    /// Every record with its id, in table order.
    pub fn record_entries(&self) -> impl Iterator<Item = (RecordId, &Record)> {
        ids::entries(&self.records)
    }

    /// The enum named `c_name`.
    pub fn enum_named(&self, c_name: &str) -> Option<EnumId> {
        self.enums
            .iter()
            .position(|e| e.c_name == c_name)
            .map(EnumId::new)
    }

    /// The record named `c_name`.
    pub fn record_named(&self, c_name: &str) -> Option<RecordId> {
        self.records
            .iter()
            .position(|r| r.c_name == c_name)
            .map(RecordId::new)
    }

    /// The value of the `u32` constant named `NEURON_ISA_TPB_<short>` (or exactly `short`).
    pub fn u32_constant(&self, short: &str) -> Option<i128> {
        self.constant(short)
            .filter(|c| c.ty == Prim::U32)
            .map(|c| c.value)
    }

    /// The constant named `NEURON_ISA_TPB_<short>` (or exactly `short`).
    pub fn constant(&self, short: &str) -> Option<&Constant> {
        self.constants
            .iter()
            .find(|c| c.short == short || c.c_name == short)
    }

    /// The opcode with enumerator suffix `short`.
    pub fn opcode_named(&self, short: &str) -> Option<OpcodeId> {
        self.opcodes
            .iter()
            .position(|o| o.short == short)
            .map(OpcodeId::new)
    }

    /// Every opcode with its id, in source order.
    pub fn opcode_entries(&self) -> impl Iterator<Item = (OpcodeId, &Opcode)> {
        ids::entries(&self.opcodes)
    }

    /// Every mapped operand struct with its id, in mapping order.
    pub fn shape_entries(&self) -> impl Iterator<Item = (ShapeId, &Shape)> {
        ids::entries(&self.shapes)
    }

    /// Size in bytes of a type.
    pub fn size_of(&self, ty: &Ty) -> u64 {
        match ty {
            Ty::Prim(p) => p.size(),
            Ty::Enum(e) => self.enums[*e].repr.size(),
            Ty::Record(r) => self.records[*r].size,
            Ty::Array(t, n) => self.size_of(t) * n,
        }
    }

    /// Alignment in bytes of a type.
    pub fn align_of(&self, ty: &Ty) -> u64 {
        match ty {
            Ty::Prim(p) => p.size(),
            Ty::Enum(e) => self.enums[*e].repr.size(),
            Ty::Record(r) => self.records[*r].align,
            Ty::Array(t, _) => self.align_of(t),
        }
    }

    /// The validator of opcode `op` (index), if any.
    pub fn validator(&self, op: OpcodeId) -> Option<&Validator> {
        self.validators
            .iter()
            .find(|(o, _)| *o == op)
            .map(|(_, v)| v)
    }

    /// The legality table of opcode `op` (index), if any.
    pub fn table(&self, op: OpcodeId) -> Option<&legality::Table> {
        self.tables.iter().find(|t| t.opcode == op)
    }

    /// True when `(record, field)` is the opcode field, which typed structs leave out.
    pub fn is_opcode_field(&self, record: RecordId, field: usize) -> bool {
        self.opcode_field.record == record && self.opcode_field.field == field
    }

    /// True when operand shape `shape` (index into [`Model::shapes`]) has field `field` of
    /// `NEURON_ISA_TPB_INST_COMMON` (`common`) as its own: same name, offset, type and bits. A
    /// vendor struct may put something else there (DMA_COPY2D has `wait_sema_value` where
    /// `events` starts), so `i.common.events` is not readable through every shape.
    pub fn shape_carries_common(&self, shape: ShapeId, common: RecordId, field: usize) -> bool {
        let c = &self.records[common].fields[field];
        self.records[self.shapes[shape].record]
            .fields
            .iter()
            .any(|f| f.name == c.name && f.offset == c.offset && f.ty == c.ty && f.bits == c.bits)
    }
}
