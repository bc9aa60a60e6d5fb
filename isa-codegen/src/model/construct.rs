//! Typed constructors, derived from each instruction's own validator.
//!
//! For an opcode the tree places on an engine (`instr_assert.h`, [`super::placement`]) that has a
//! validator and no legality table (the checkpoint pair has its arm constructors), the validator
//! is evaluated with the opcode fixed and every field symbolic ([`super::eval`]):
//!
//! * **pinned**: a top-level conjunct `field == constant` of the residual. The value is assigned
//!   and the validator evaluated again, until nothing new is pinned (RAND pins
//!   `rand_algorithm == PHILOX`, and then `rand_num_steps == 1` follows from
//!   `rand_algorithm == LFSR || rand_num_steps == 1`). A pin through a union that another pin
//!   already writes through a different member is checked byte by byte: equal bytes are implied,
//!   different bytes make the validator unsatisfiable (MAVERICK's PE_MANAGE_SEED `SAVE_SEED` pins
//!   its destination to `PSUM_BUF_OFFSET` and then, PSUM being sized out, to a register address).
//! * **choices**: an enum field (not a dtype, not an immediate's source) that the validator
//!   restricts, when only it is assigned, to two or more of its members but not all (RAND's
//!   `post_process` ∈ {RAW_U32, UNIFORM_IN_RANGE}, PE_MANAGE_SEED's `mode` ∈ {LOAD_SEED,
//!   SAVE_SEED}). Each legal member gets a constructor of its own, named after it, with its own
//!   pins; a member the validator rejects statically has none, so it cannot be expressed.
//! * **computed**: a top-level conjunct `field == <expression over other fields>` whose left or
//!   right side is a lone top-level scalar field (RNG's `dst_element_count ==
//!   t4d_element_count(dst_mem_pattern)`, DROPOUT's `out_dtype == in_dtype`): the constructor
//!   computes it from its parameters.
//! * **parameters**: every other field the residual reads, by documented convention only:
//!   `num_active_channels` (u8) is the lane count; a field whose record has `start_addr`,
//!   `step_elem`, `num_elem` is a tensor (`<x>_mem_pattern` → parameter `x`); a `DTYPE` field is a
//!   typed `Dtype`; an `IMM_SRC` field `<x>_src` with an `IMM_VAL_INST_FIELD` field `<x>` is one
//!   `isa_core::Immediate` `x`; any other enum field is its typed enum. The common prefix
//!   (`header`, `events`) is never a parameter: what the validator pins there is written, the
//!   rest (the semaphore handshake) stays zero, which every validator of these trees accepts.
//!   A field read that no convention covers, or a tensor only partly pinned, leaves the
//!   instruction without that constructor, and the report says why.
//! * **unread** fields are left zero, except one convention: a `params` array of a union with an
//!   `f32` member, in a shape whose choice is `UNIFORM_IN_RANGE`, takes the bounds `min`, `max`
//!   in `params[0]`, `params[1]` (d4_rand.h documents them there; the validator does not read
//!   them).
//!
//! Each constructor also gets generator-chosen valid arguments: a bounded search
//! ([`super::instance::search`]) for an instruction the validator accepts on every engine that
//! runs the opcode, trying readable values first (tensors at SBUF partition 0, four elements,
//! all 128 lanes, FP32, immediates 0.5 and 1.0). They make the rustdoc examples and the
//! generated `tests/constructors.rs`.

use super::eval::{Evaluator, FieldPath, Formula, Inputs, Root, Step, Term, Value};
use super::names::rust_field;
use super::spec::{BinOp, SpecTy};
use super::{EnumId, Model, RecordId, Ty};
use crate::ctype::{Prim, RecordKind};
use crate::model::OpcodeId;
use crate::vendor::{
    ADDR_IMMEDIATE, DTYPE, EXAMPLE_DTYPES, IMM_PTR, IMM_REG, IMM_SRC, IMM_SRC_SUFFIX, IMM_VAL,
    IMM_WORD, INSTRUCTION_IMMEDIATE, LANES, NUM_ELEM, NUM_PARTITIONS, PARAMS, POINTER_IMMEDIATE,
    REGNUM, REG_PTR_IMMEDIATE, START_ADDR, STATE_BUF_OFFSET, STEP_ELEM, TENSOR_SUFFIX,
    UNIFORM_IN_RANGE,
};

/// The constructors of one instruction.
#[derive(Clone, Debug)]
pub struct Construction {
    /// Opcode index.
    pub opcode: OpcodeId,
    /// The choice fields (top-level field index, enum, legal members, members the validator
    /// rejects statically).
    pub choices: Vec<Choice>,
    /// One constructor per legal choice (or one, `new`, without choices).
    pub ctors: Vec<Ctor>,
    /// Why a choice has no constructor.
    pub notes: Vec<String>,
}

/// An enum field the validator restricts to a static subset of two or more members.
#[derive(Clone, Debug)]
pub struct Choice {
    /// Top-level field index in the operand struct.
    pub field: usize,
    /// Its enum.
    pub enum_id: EnumId,
    /// Members the validator admits (indices into the enum's members).
    pub legal: Vec<usize>,
    /// Members it rejects whatever the other fields hold.
    pub illegal: Vec<usize>,
}

/// One typed constructor.
#[derive(Clone, Debug)]
pub struct Ctor {
    /// Function name (`new`, `raw_u32`, `load_seed`).
    pub name: String,
    /// The choice members it fixes: (top-level field, member index).
    pub chosen: Vec<(usize, usize)>,
    /// Every field value it writes (the pins, the choice included), canonical paths, sorted.
    pub pins: Vec<(FieldPath, i128)>,
    /// Fields computed from the parameters: (top-level scalar field, expression).
    pub computed: Vec<(FieldPath, Term)>,
    /// Parameters, in order.
    pub params: Vec<Param>,
    /// Top-level fields left zero because the validator does not read them.
    pub unread: Vec<usize>,
    /// Top-level fields of the common prefix the validator reads but the constructor leaves
    /// zero (the semaphore handshake).
    pub prefix_zero: Vec<usize>,
    /// Generator-chosen valid arguments.
    pub example: Example,
}

/// One parameter of a constructor.
#[derive(Clone, Debug)]
pub struct Param {
    /// Rust name.
    pub name: String,
    /// What it is.
    pub kind: ParamKind,
}

/// The convention a parameter follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A tensor field (its record has `start_addr`, `step_elem`, `num_elem`).
    Tensor {
        /// Top-level field.
        field: usize,
        /// The tensor record.
        record: RecordId,
        /// Dimensions.
        rank: u64,
    },
    /// `num_active_channels`.
    Lanes {
        /// Top-level field.
        field: usize,
    },
    /// A `DTYPE` field.
    Dtype {
        /// Top-level field.
        field: usize,
        /// The enum.
        enum_id: EnumId,
    },
    /// An `IMM_SRC` field and its `IMM_VAL_INST_FIELD` value.
    Immediate {
        /// The source field.
        src: usize,
        /// The value field.
        value: usize,
    },
    /// Another enum field.
    Enum {
        /// Top-level field.
        field: usize,
        /// The enum.
        enum_id: EnumId,
    },
    /// Element `index` of the `params` array, through its `f32` union member.
    Fp32 {
        /// Top-level field (the array).
        field: usize,
        /// Element.
        index: u64,
        /// The union record and its `f32` member.
        union: (RecordId, usize),
    },
}

/// Valid arguments for a constructor, found by the search.
#[derive(Clone, Debug)]
pub struct Example {
    /// The engines it was checked for (members of the engine enum; empty when the validator
    /// takes no engine and the tree places the opcode on none).
    pub engines: Vec<usize>,
    /// Field values of the instance (canonical paths); every other field zero.
    pub fields: Vec<(FieldPath, i128)>,
}

impl Example {
    /// The instance's value of `path` (0 when unassigned).
    pub fn value(&self, path: &FieldPath) -> i128 {
        self.fields
            .iter()
            .find(|(p, _)| p == path)
            .map_or(0, |(_, v)| *v)
    }
}

/// Every construction of the model, and the instructions of the family that got none, with why.
#[derive(Clone, Debug, Default)]
pub struct Constructions {
    /// The constructions.
    pub list: Vec<Construction>,
    /// (opcode, why) for a placed instruction without any constructor.
    pub missing: Vec<(OpcodeId, String)>,
    /// Per validated opcode, the fields its validator pins whatever the other fields hold (the
    /// typed instruction's `Default`).
    pub defaults: Vec<(OpcodeId, Vec<(FieldPath, i128)>)>,
}

impl Constructions {
    /// The construction of opcode `op`.
    pub fn of(&self, op: OpcodeId) -> Option<&Construction> {
        self.list.iter().find(|c| c.opcode == op)
    }

    /// The `Default` pins of opcode `op`.
    pub fn default_pins(&self, op: OpcodeId) -> Option<&[(FieldPath, i128)]> {
        self.defaults
            .iter()
            .find(|(o, _)| *o == op)
            .map(|(_, p)| p.as_slice())
    }
}

/// Derives the constructions of `model`.
pub fn derive(model: &Model) -> Constructions {
    let mut out = Constructions::default();
    for (op, v) in &model.validators {
        let Some(shape) = model.opcodes[*op].shape else {
            continue;
        };
        let d = Deriver {
            model,
            op: *op,
            shape_record: model.shapes[shape].record,
            func: v.func,
        };
        let mut env = d.start();
        if d.settle(&mut env).is_ok() {
            out.defaults.push((*op, env.fields.into_iter().collect()));
        }
        let placed = model
            .placement
            .as_ref()
            .map(|p| p.engines[*op].clone())
            .unwrap_or_default();
        if placed.is_empty() || model.table(*op).is_some() {
            continue;
        }
        match d.construction(&placed) {
            Ok(c) if !c.ctors.is_empty() => out.list.push(c),
            Ok(c) => out.missing.push((*op, c.notes.join("; "))),
            Err(why) => out.missing.push((*op, why)),
        }
    }
    out.defaults.sort_by_key(|(op, _)| *op);
    out.list.sort_by_key(|c| c.opcode);
    out.missing.sort();
    out
}

struct Deriver<'a> {
    model: &'a Model,
    op: OpcodeId,
    shape_record: RecordId,
    func: usize,
}

/// What a constructor does with the fields it neither pins nor computes.
struct CtorFields {
    /// Its parameters, in order.
    params: Vec<Param>,
    /// Fields left zero because the validator does not read them.
    unread: Vec<usize>,
    /// Fields of the common prefix the validator reads but the constructor leaves zero.
    prefix_zero: Vec<usize>,
}

/// Where a parameter of each kind stands in a constructor's parameter list.
fn param_order(kind: &ParamKind) -> u8 {
    match kind {
        ParamKind::Tensor { .. } => 0,
        ParamKind::Lanes { .. } => 1,
        ParamKind::Dtype { .. } => 2,
        ParamKind::Immediate { .. } => 3,
        ParamKind::Enum { .. } => 4,
        ParamKind::Fp32 { .. } => 5,
    }
}

/// A top-level field of the operand struct as a path.
fn top(shape_record: RecordId, k: usize) -> FieldPath {
    FieldPath {
        root: Root::Shape,
        steps: vec![Step::Field(shape_record, k)],
    }
}

/// The top-level field a path starts with.
fn head(p: &FieldPath) -> Option<usize> {
    match p.steps.first() {
        Some(Step::Field(_, k)) => Some(*k),
        _ => None,
    }
}

impl Deriver<'_> {
    fn fields(&self) -> &[super::Field] {
        &self.model.records[self.shape_record].fields
    }

    fn start(&self) -> Inputs {
        Inputs {
            opcode: Some(i128::from(self.model.opcodes[self.op].value)),
            ..Inputs::default()
        }
    }

    /// The validator's residual under `env`, the engine symbolic.
    fn residual(&self, env: &Inputs) -> Result<Formula, String> {
        self.evaluate(env).map(|(f, _)| f)
    }

    /// The residual and every field the evaluation touched.
    fn evaluate(&self, env: &Inputs) -> Result<(Formula, Vec<FieldPath>), String> {
        let args = super::instance::validator_args(self.model, self.func, None);
        let mut ev = Evaluator::new(self.model, &self.model.specs, self.shape_record);
        match ev.call(env, self.func, args) {
            Ok(Value::Bool(f)) => Ok((f, ev.touched)),
            Ok(_) => Err("the validator does not return a boolean".into()),
            Err(e) => Err(e.0),
        }
    }

    fn name(&self, p: &FieldPath) -> String {
        p.name(self.model, self.shape_record)
    }

    /// Assigns the pins of the residual until none is new; the final residual.
    fn settle(&self, env: &mut Inputs) -> Result<Formula, String> {
        let mut implied: Vec<FieldPath> = Vec::new();
        loop {
            let r = self.residual(env)?;
            if r == Formula::Const(false) {
                return Err("the validator rejects it whatever the other fields hold".into());
            }
            let mut new: Vec<(FieldPath, i128)> = Vec::new();
            for c in r.conjuncts() {
                if let Formula::Cmp(BinOp::Eq, a, b) = c {
                    let (p, x) = match (a, b) {
                        (Term::Read(p), Term::Int(x)) | (Term::Int(x), Term::Read(p)) => (p, *x),
                        _ => continue,
                    };
                    if !env.fields.contains_key(p)
                        && !implied.contains(p)
                        && !new.iter().any(|(q, _)| q == p)
                    {
                        new.push((p.clone(), x));
                    }
                }
            }
            if new.is_empty() {
                return Ok(r);
            }
            for (p, x) in new {
                self.representable(&p, x)?;
                if self.union_check(env, &p, x)? {
                    env.fields.insert(p, x);
                } else {
                    implied.push(p);
                }
            }
        }
    }

    /// The pinned value fits the field's type.
    fn representable(&self, p: &FieldPath, x: i128) -> Result<(), String> {
        let ok = match p.ty(self.model, self.shape_record) {
            Ty::Enum(e) => self.model.enums[e].by_value(x).is_some(),
            Ty::Prim(prim) => prim.holds(x),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "the validator pins `{}` to {x}, which its type cannot hold",
                self.name(p)
            ))
        }
    }

    /// The union step of a path: (steps up to the union value, member index, byte range of the
    /// path inside the union).
    fn union_view(&self, p: &FieldPath) -> Option<(Vec<Step>, usize, u64, u64)> {
        let j = p.steps.iter().position(|s| match s {
            Step::Field(r, _) => self.model.records[*r].kind == RecordKind::Union,
            _ => false,
        })?;
        let Step::Field(u, m) = p.steps[j] else {
            return None;
        };
        let mut ty = self.model.records[u].fields[m].ty.clone();
        let mut offset = self.model.records[u].fields[m].offset;
        for s in &p.steps[j + 1..] {
            match (s, &ty) {
                (Step::Field(r, k), _) => {
                    offset += self.model.records[*r].fields[*k].offset;
                    ty = self.model.records[*r].fields[*k].ty.clone();
                }
                (Step::Index(i), Ty::Array(inner, _)) => {
                    offset += i * self.model.size_of(inner);
                    ty = inner.as_ref().clone();
                }
                _ => return None,
            }
        }
        Some((p.steps[..j].to_vec(), m, offset, self.model.size_of(&ty)))
    }

    /// Whether pin `p = x` must be written (`true`), is implied by a pin through another
    /// member of the same union (`false`), or contradicts one (an error).
    fn union_check(&self, env: &Inputs, p: &FieldPath, x: i128) -> Result<bool, String> {
        let Some((at, member, off, size)) = self.union_view(p) else {
            return Ok(true);
        };
        for (q, y) in &env.fields {
            let Some((at2, member2, off2, size2)) = self.union_view(q) else {
                continue;
            };
            if at2 != at || member2 == member {
                continue;
            }
            let bytes = |v: i128, o: u64, n: u64| -> Vec<(u64, u8)> {
                (0..n).map(|k| (o + k, (v >> (8 * k)) as u8)).collect()
            };
            let mine = bytes(x, off, size);
            let theirs = bytes(*y, off2, size2);
            let clash = mine
                .iter()
                .any(|(o, b)| theirs.iter().any(|(o2, b2)| o == o2 && b != b2));
            if clash {
                return Err(format!(
                    "the validator pins `{}` to {x:#x} and `{}` to {y:#x}, which share bytes: no instruction satisfies it",
                    self.name(p),
                    self.name(q)
                ));
            }
            let covered = off >= off2 && off + size <= off2 + size2;
            if covered {
                return Ok(false);
            }
            return Err(format!(
                "the validator pins `{}` and `{}`, two members of one union that only partly overlap",
                self.name(p),
                self.name(q)
            ));
        }
        Ok(true)
    }

    fn is_prefix(&self, k: usize) -> bool {
        let f = &self.fields()[k];
        let common = self
            .model
            .record_named(crate::vendor::INST_COMMON)
            .map(|r| {
                self.model.records[r]
                    .fields
                    .iter()
                    .any(|c| c.name == f.name)
            });
        let header = self
            .model
            .record_named(crate::vendor::HEADER)
            .is_some_and(|h| f.ty == Ty::Record(h));
        header || common == Some(true)
    }

    fn enum_named(&self, ty: &Ty, c_name: &str) -> bool {
        matches!(ty, Ty::Enum(e) if self.model.enums[*e].c_name == c_name)
    }

    /// The value field `<x>` of an immediate source field `<x>_src`.
    fn immediate_value(&self, src: usize) -> Option<usize> {
        let f = &self.fields()[src];
        if !self.enum_named(&f.ty, IMM_SRC) {
            return None;
        }
        let base = f.name.strip_suffix(IMM_SRC_SUFFIX)?;
        let forms = immediate_forms(self.model)?;
        if f.ty != Ty::Enum(forms.src_enum) {
            return None;
        }
        let imm = forms.union;
        self.fields()
            .iter()
            .position(|g| g.name == base && g.ty == Ty::Record(imm))
    }

    /// The source field `<x>_src` of an immediate value field `<x>`.
    fn immediate_source(&self, value: usize) -> Option<usize> {
        (0..self.fields().len()).find(|k| self.immediate_value(*k) == Some(value))
    }

    fn tensor_rank(&self, ty: &Ty) -> Option<(RecordId, u64)> {
        tensor_record(self.model, ty)
    }

    /// A choice field: an enum field the validator restricts, when only it is assigned, to a
    /// strict subset of two or more members.
    fn choice(&self, base: &Inputs, k: usize) -> Result<Option<Choice>, String> {
        let f = &self.fields()[k];
        let Ty::Enum(e) = f.ty else { return Ok(None) };
        if self.enum_named(&f.ty, DTYPE) || self.immediate_value(k).is_some() {
            return Ok(None);
        }
        let mut legal = Vec::new();
        let mut illegal = Vec::new();
        for (m, member) in self.model.enums[e].members.iter().enumerate() {
            if member.alias_of.is_some() {
                continue;
            }
            let mut env = base.clone();
            env.fields.insert(top(self.shape_record, k), member.value);
            if self.residual(&env)? == Formula::Const(false) {
                illegal.push(m);
            } else {
                legal.push(m);
            }
        }
        if illegal.is_empty() {
            return Ok(None);
        }
        Ok(Some(Choice {
            field: k,
            enum_id: e,
            legal,
            illegal,
        }))
    }

    fn construction(&self, placed: &[usize]) -> Result<Construction, String> {
        let mut base = self.start();
        self.settle(&mut base)?;
        // Choices; a field restricted to one member is a pin.
        let mut choices: Vec<Choice> = Vec::new();
        let mut k = 0;
        while k < self.fields().len() {
            let pinned = base.fields.keys().any(|p| head(p) == Some(k));
            if pinned || self.is_prefix(k) {
                k += 1;
                continue;
            }
            match self.choice(&base, k)? {
                Some(c) if c.legal.is_empty() => {
                    return Err(format!(
                        "the validator admits no member of `{}`",
                        self.fields()[k].name
                    ))
                }
                Some(c) if c.legal.len() == 1 => {
                    let v = self.model.enums[c.enum_id].members[c.legal[0]].value;
                    base.fields.insert(top(self.shape_record, k), v);
                    self.settle(&mut base)?;
                    // Start over: the new pin may restrict earlier fields.
                    choices.clear();
                    k = 0;
                    continue;
                }
                Some(c) => choices.push(c),
                None => {}
            }
            k += 1;
        }
        // Every combination of the choices' legal members.
        let mut combos: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
        for c in &choices {
            combos = combos
                .into_iter()
                .flat_map(|prefix| {
                    c.legal.iter().map(move |m| {
                        let mut v = prefix.clone();
                        v.push((c.field, *m));
                        v
                    })
                })
                .collect();
        }
        let mut ctors = Vec::new();
        let mut notes = Vec::new();
        for chosen in combos {
            let name = if chosen.is_empty() {
                "new".to_string()
            } else {
                chosen
                    .iter()
                    .filter_map(|(k, m)| match self.fields()[*k].ty {
                        Ty::Enum(e) => {
                            Some(self.model.enums[e].members[*m].short.to_ascii_lowercase())
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("_")
            };
            match self.ctor(&base, &chosen, name.clone(), placed) {
                Ok(c) => ctors.push(c),
                Err(why) => notes.push(format!("no `{name}`: {why}")),
            }
        }
        Ok(Construction {
            opcode: self.op,
            choices,
            ctors,
            notes,
        })
    }

    /// The constructor of the choice members `chosen`, named `name`, from the construction's
    /// settled fields `base`, with example arguments valid on the engines `placed`.
    fn ctor(
        &self,
        base: &Inputs,
        chosen: &[(usize, usize)],
        name: String,
        placed: &[usize],
    ) -> Result<Ctor, String> {
        let mut env = base.clone();
        for (k, m) in chosen {
            let Ty::Enum(e) = self.fields()[*k].ty else {
                return Err("a choice is not an enum".into());
            };
            env.fields.insert(
                top(self.shape_record, *k),
                self.model.enums[e].members[*m].value,
            );
        }
        let residual = self.settle(&mut env)?;
        let computed = self.computed(&env, &residual)?;
        let computed_heads: Vec<usize> = computed.iter().filter_map(|(p, _)| head(p)).collect();
        // What the validator looks at under the choice (the computed fields' inputs included):
        // every field its evaluation reaches, `is_valid_enum` checks too.
        let (_, touched) = self.evaluate(&env)?;
        let read_heads: Vec<usize> = touched
            .iter()
            .filter(|p| !env.fields.contains_key(*p))
            .filter_map(head)
            .filter(|h| !computed_heads.contains(h))
            .collect();
        let post_uniform = chosen.iter().any(|(k, m)| {
            matches!(self.fields()[*k].ty, Ty::Enum(e)
                if self.model.enums[e].members[*m].short == UNIFORM_IN_RANGE)
        });
        let fields = self.parameters(&env, post_uniform, &computed_heads, &read_heads)?;
        let example = self.example(&env, &fields.params, placed, &read_heads)?;
        Ok(Ctor {
            name,
            chosen: chosen.to_vec(),
            pins: env.fields.into_iter().collect(),
            computed,
            params: fields.params,
            unread: fields.unread,
            prefix_zero: fields.prefix_zero,
            example,
        })
    }

    /// The computed fields of a residual: `field == expr` with a lone top-level scalar field on
    /// one side, not pinned under `env`; a computed field may not feed another.
    fn computed(&self, env: &Inputs, residual: &Formula) -> Result<Vec<(FieldPath, Term)>, String> {
        let mut computed: Vec<(FieldPath, Term)> = Vec::new();
        for c in residual.conjuncts() {
            let Formula::Cmp(BinOp::Eq, a, b) = c else {
                continue;
            };
            for (lhs, rhs) in [(a, b), (b, a)] {
                let Term::Read(p) = lhs else { continue };
                if p.steps.len() != 1 || env.fields.contains_key(p) {
                    continue;
                }
                if computed.iter().any(|(q, _)| q == p) {
                    break;
                }
                let mut reads = Vec::new();
                if !computable(rhs, &mut reads) || reads.is_empty() || reads.contains(p) {
                    continue;
                }
                let target = p.ty(self.model, self.shape_record);
                let fits = match (&target, rhs) {
                    (Ty::Prim(prim), _) => !matches!(prim, Prim::F32 | Prim::F64 | Prim::Bool),
                    (Ty::Enum(_), Term::Read(q)) => q.ty(self.model, self.shape_record) == target,
                    _ => false,
                };
                if fits {
                    computed.push((p.clone(), rhs.clone()));
                    break;
                }
            }
        }
        let computed_heads: Vec<usize> = computed.iter().filter_map(|(p, _)| head(p)).collect();
        for (_, e) in &computed {
            let mut reads = Vec::new();
            computable(e, &mut reads);
            if reads
                .iter()
                .any(|p| head(p).is_some_and(|h| computed_heads.contains(&h)))
            {
                return Err("a computed field depends on another computed field".into());
            }
        }
        Ok(computed)
    }

    /// What becomes of every top-level field neither pinned nor computed under `env`: a
    /// parameter by its convention, left zero as unread, or (in the common prefix) left zero
    /// though read. `read_heads` are the fields the validator reads.
    fn parameters(
        &self,
        env: &Inputs,
        post_uniform: bool,
        computed_heads: &[usize],
        read_heads: &[usize],
    ) -> Result<CtorFields, String> {
        let pinned_heads: Vec<usize> = env.fields.keys().filter_map(head).collect();
        let mut out = CtorFields {
            params: Vec::new(),
            unread: Vec::new(),
            prefix_zero: Vec::new(),
        };
        for (k, f) in self.fields().iter().enumerate() {
            if self.model.is_opcode_field(self.shape_record, k) || computed_heads.contains(&k) {
                continue;
            }
            let read = read_heads.contains(&k);
            if self.is_prefix(k) {
                if read {
                    out.prefix_zero.push(k);
                }
                continue;
            }
            let tensor = self.tensor_rank(&f.ty);
            let fully_pinned = match tensor {
                Some((r, rank)) => self.tensor_pinned(env, k, r, rank),
                None => false,
            };
            if fully_pinned || (pinned_heads.contains(&k) && !read) {
                continue;
            }
            if !read {
                match self.params_convention(k, post_uniform) {
                    Some(params) => out.params.extend(params),
                    None => out.unread.push(k),
                }
                continue;
            }
            if tensor.is_some() && pinned_heads.contains(&k) {
                return Err(format!(
                    "the validator pins part of the tensor `{}`, which no constructor parameter can leave free",
                    f.name
                ));
            }
            let param = self.read_param(k)?;
            // An immediate's two fields make one parameter.
            if !out.params.iter().any(|p| p.kind == param.kind) {
                out.params.push(param);
            }
        }
        // Tensors, lanes, data types, immediates, other enums, then the `params` bounds.
        out.params.sort_by_key(|p| param_order(&p.kind));
        // Immediates keep both fields out of the unread list.
        out.unread.retain(|k| {
            !out.params.iter().any(|p| match p.kind {
                ParamKind::Immediate { src, value } => src == *k || value == *k,
                _ => false,
            })
        });
        Ok(out)
    }

    /// The parameter of read field `k`, by the first convention that covers it.
    fn read_param(&self, k: usize) -> Result<Param, String> {
        let fields = self.fields();
        let f = &fields[k];
        let param = |name: String, kind: ParamKind| Ok(Param { name, kind });
        if let Some((record, rank)) = self.tensor_rank(&f.ty) {
            let name = f.name.strip_suffix(TENSOR_SUFFIX).unwrap_or(&f.name);
            param(
                rust_field(name),
                ParamKind::Tensor {
                    field: k,
                    record,
                    rank,
                },
            )
        } else if f.name == LANES && f.ty == Ty::Prim(Prim::U8) {
            param(f.name.clone(), ParamKind::Lanes { field: k })
        } else if let (Ty::Enum(e), true) = (&f.ty, self.enum_named(&f.ty, DTYPE)) {
            param(
                rust_field(&f.name),
                ParamKind::Dtype {
                    field: k,
                    enum_id: *e,
                },
            )
        } else if let Some(value) = self.immediate_value(k) {
            param(
                rust_field(&fields[value].name),
                ParamKind::Immediate { src: k, value },
            )
        } else if let Some(src) = self.immediate_source(k) {
            param(rust_field(&f.name), ParamKind::Immediate { src, value: k })
        } else if let Ty::Enum(e) = f.ty {
            param(
                rust_field(&f.name),
                ParamKind::Enum {
                    field: k,
                    enum_id: e,
                },
            )
        } else {
            Err(format!(
                "the validator reads `{}`, which no parameter convention covers",
                f.name
            ))
        }
    }

    /// Every leaf of tensor field `k` is pinned (its start address through any member that
    /// covers the union).
    fn tensor_pinned(&self, env: &Inputs, k: usize, record: RecordId, rank: u64) -> bool {
        let rec = &self.model.records[record];
        let sub = |name: &str| rec.fields.iter().position(|f| f.name == name);
        let (Some(start), Some(step), Some(num)) = (sub(START_ADDR), sub(STEP_ELEM), sub(NUM_ELEM))
        else {
            return false;
        };
        let leaf = |j: usize, index: Option<u64>| {
            let mut steps = vec![Step::Field(self.shape_record, k), Step::Field(record, j)];
            if let Some(i) = index {
                steps.push(Step::Index(i));
            }
            FieldPath {
                root: Root::Shape,
                steps,
            }
        };
        let start_pinned = env.fields.keys().any(|p| {
            p.steps.len() >= 3
                && p.steps[..2] == leaf(start, None).steps[..]
                && self
                    .union_view(p)
                    .is_some_and(|(_, _, off, size)| off == 0 && size == 4)
        });
        start_pinned
            && (0..rank).all(|i| {
                env.fields.contains_key(&leaf(step, Some(i)))
                    && env.fields.contains_key(&leaf(num, Some(i)))
            })
    }

    /// The `params` convention: under `UNIFORM_IN_RANGE`, an unread array `params` of at least two
    /// elements of a union with an `f32` member takes `min` and `max` in elements 0 and 1.
    fn params_convention(&self, k: usize, uniform: bool) -> Option<Vec<Param>> {
        let f = &self.fields()[k];
        if !uniform || f.name != PARAMS {
            return None;
        }
        let Ty::Array(inner, n) = &f.ty else {
            return None;
        };
        let Ty::Record(u) = **inner else { return None };
        if *n < 2 || self.model.records[u].kind != RecordKind::Union {
            return None;
        }
        let member = self.model.records[u]
            .fields
            .iter()
            .position(|m| m.ty == Ty::Prim(Prim::F32))?;
        Some(
            ["min", "max"]
                .iter()
                .enumerate()
                .map(|(i, name)| Param {
                    name: name.to_string(),
                    kind: ParamKind::Fp32 {
                        field: k,
                        index: i as u64,
                        union: (u, member),
                    },
                })
                .collect(),
        )
    }

    /// Valid arguments: the search, from the constructor's fixed fields, with readable values
    /// tried first (each kept only when a valid instance still exists with it).
    fn example(
        &self,
        fixed: &Inputs,
        params: &[Param],
        placed: &[usize],
        read: &[usize],
    ) -> Result<Example, String> {
        let engine_param = self.model.engine_enum.is_some_and(|e| {
            self.model.specs[self.func]
                .params
                .iter()
                .any(|(_, t)| *t == SpecTy::Enum(e))
        });
        let engines: Vec<Option<usize>> = if engine_param {
            placed.iter().map(|e| Some(*e)).collect()
        } else {
            vec![None]
        };
        let preferences = self.preferences(params, read);
        // Every first choice at once; when that has no valid instance, one field at a time.
        let mut all = fixed.clone();
        for (path, candidates) in &preferences {
            if let Some(c) = candidates.first() {
                all.fields.entry(path.clone()).or_insert(*c);
            }
        }
        if let Some(fields) = super::instance::search(self.model, self.op, &engines, all) {
            return Ok(Example {
                engines: placed.to_vec(),
                fields,
            });
        }
        let mut env = fixed.clone();
        for (path, candidates) in preferences {
            if env.fields.contains_key(&path) {
                continue;
            }
            for c in candidates {
                let mut trial = env.clone();
                trial.fields.insert(path.clone(), c);
                if super::instance::search(self.model, self.op, &engines, trial.clone()).is_some() {
                    env = trial;
                    break;
                }
            }
        }
        let fields = super::instance::search(self.model, self.op, &engines, env)
            .ok_or("the generator found no valid instance to show it with")?;
        Ok(Example {
            engines: placed.to_vec(),
            fields,
        })
    }

    fn member_value(&self, enum_id: EnumId, short: &str) -> Option<i128> {
        self.model.enums[enum_id]
            .distinct()
            .find(|m| m.short == short)
            .map(|m| m.value)
    }

    /// Readable values to try first, per field (an immediate's value only when the validator
    /// reads it: a seed is no fp32 number).
    fn preferences(&self, params: &[Param], read: &[usize]) -> Vec<(FieldPath, Vec<i128>)> {
        let mut out = Vec::new();
        let sbuf = self.model.constant(STATE_BUF_OFFSET).map_or(0, |c| c.value);
        let field = |k: usize, rest: &[Step]| {
            let mut steps = vec![Step::Field(self.shape_record, k)];
            steps.extend_from_slice(rest);
            FieldPath {
                root: Root::Shape,
                steps,
            }
        };
        let mut nth_tensor = 0;
        for p in params {
            match &p.kind {
                ParamKind::Tensor {
                    field: k,
                    record,
                    rank,
                } => {
                    nth_tensor += 1;
                    let rec = &self.model.records[*record];
                    let sub = |n: &str| rec.fields.iter().position(|f| f.name == n);
                    if let Some(start) = sub(START_ADDR) {
                        if let Ty::Record(a) = rec.fields[start].ty {
                            if let Some(m) = self.model.records[a]
                                .fields
                                .iter()
                                .position(|f| f.name == ADDR_IMMEDIATE)
                            {
                                out.push((
                                    field(*k, &[Step::Field(*record, start), Step::Field(a, m)]),
                                    vec![sbuf + 0x100 * nth_tensor],
                                ));
                            }
                        }
                    }
                    if let Some(num) = sub(NUM_ELEM) {
                        for i in 0..*rank {
                            let n = if i == 0 { 4 } else { 1 };
                            out.push((
                                field(*k, &[Step::Field(*record, num), Step::Index(i)]),
                                vec![n, 1],
                            ));
                        }
                    }
                }
                ParamKind::Lanes { field: k } => {
                    let lanes = self.model.constant(NUM_PARTITIONS).map_or(128, |c| c.value);
                    out.push((field(*k, &[]), vec![lanes, 1]));
                }
                ParamKind::Dtype { field: k, enum_id } => {
                    let values = EXAMPLE_DTYPES
                        .iter()
                        .filter_map(|n| self.member_value(*enum_id, n))
                        .collect();
                    out.push((field(*k, &[]), values));
                }
                ParamKind::Immediate { src, value } => {
                    if let Ty::Enum(e) = self.fields()[*src].ty {
                        if let Some(v) = self.member_value(e, INSTRUCTION_IMMEDIATE) {
                            out.push((field(*src, &[]), vec![v]));
                        }
                    }
                    if let (Ty::Record(u), true) = (&self.fields()[*value].ty, read.contains(value))
                    {
                        let u = *u;
                        if let Some(m) = self.model.records[u]
                            .fields
                            .iter()
                            .position(|f| f.name == IMM_WORD && f.ty == Ty::Prim(Prim::U32))
                        {
                            out.push((
                                field(*value, &[Step::Field(u, m)]),
                                vec![i128::from(0.5f32.to_bits()), i128::from(1.0f32.to_bits())],
                            ));
                        }
                    }
                }
                ParamKind::Enum { .. } | ParamKind::Fp32 { .. } => {}
            }
        }
        out
    }
}

/// A tensor record: `start_addr` (a 4-byte union), `step_elem: [i16; n]` and `num_elem:
/// [u16; n]`; the record and `n`.
pub fn tensor_record(model: &Model, ty: &Ty) -> Option<(RecordId, u64)> {
    let Ty::Record(r) = ty else { return None };
    let rec = &model.records[*r];
    let field = |n: &str| rec.fields.iter().find(|f| f.name == n);
    let start = field(START_ADDR)?;
    let Ty::Record(a) = start.ty else { return None };
    if model.records[a].kind != RecordKind::Union || model.records[a].size != 4 {
        return None;
    }
    match (&field(STEP_ELEM)?.ty, &field(NUM_ELEM)?.ty) {
        (Ty::Array(s, a), Ty::Array(n, b))
            if a == b && **s == Ty::Prim(Prim::I16) && **n == Ty::Prim(Prim::U16) =>
        {
            Some((*r, *a))
        }
        _ => None,
    }
}

/// What an `isa_core::Immediate` is written as: the `IMM_SRC` members of its three forms and the
/// 4-byte `IMM_VAL_INST_FIELD` union (a value or a pointer as its bytes; a register as `regnum`
/// of the `imm_reg` member).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImmediateForms {
    /// The `IMM_SRC` enum.
    pub src_enum: EnumId,
    /// Its `INSTRUCTION_IMMEDIATE`, `POINTER_IMMEDIATE` and `REG_PTR_IMMEDIATE` members.
    pub members: [usize; 3],
    /// The `IMM_VAL_INST_FIELD` union.
    pub union: RecordId,
    /// Byte offset of `imm_reg.regnum` in the union.
    pub regnum_offset: u64,
}

/// The immediate forms of the tree, when it has them all (the convention's names, checked).
pub fn immediate_forms(model: &Model) -> Option<ImmediateForms> {
    let src_enum = model.enum_named(IMM_SRC)?;
    let member = |short: &str| {
        model.enums[src_enum]
            .members
            .iter()
            .position(|m| m.short == short && m.alias_of.is_none())
    };
    let members = [
        member(INSTRUCTION_IMMEDIATE)?,
        member(POINTER_IMMEDIATE)?,
        member(REG_PTR_IMMEDIATE)?,
    ];
    let union = model.record_named(IMM_VAL)?;
    let u = &model.records[union];
    if u.kind != RecordKind::Union || u.size != 4 {
        return None;
    }
    let word = |name: &str| {
        u.fields
            .iter()
            .any(|f| f.name == name && f.ty == Ty::Prim(Prim::U32))
    };
    if !word(IMM_PTR) || !word(IMM_WORD) {
        return None;
    }
    let reg = u.fields.iter().find(|f| f.name == IMM_REG)?;
    let Ty::Record(r) = reg.ty else { return None };
    let regnum = model.records[r]
        .fields
        .iter()
        .find(|f| f.name == REGNUM && f.ty == Ty::Prim(Prim::U8))?;
    Some(ImmediateForms {
        src_enum,
        members,
        union,
        regnum_offset: reg.offset + regnum.offset,
    })
}

/// Whether a symbolic integer is plain arithmetic over fields (what a constructor can compute),
/// collecting the fields it reads.
pub fn computable(s: &Term, reads: &mut Vec<FieldPath>) -> bool {
    match s {
        Term::Int(_) => true,
        Term::Read(p) => {
            reads.push(p.clone());
            true
        }
        Term::Bin(op, a, b) => {
            matches!(
                op,
                BinOp::Add
                    | BinOp::Sub
                    | BinOp::Mul
                    | BinOp::Div
                    | BinOp::Rem
                    | BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::BitXor
                    | BinOp::Shl
                    | BinOp::Shr
            ) && computable(a, reads)
                && computable(b, reads)
        }
        Term::Neg(a) => computable(a, reads),
        Term::Opcode | Term::Param(_) | Term::Ite(..) => false,
    }
}
