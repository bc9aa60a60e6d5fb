//! A partial evaluator for resolved spec functions.
//!
//! Instruction fields may be *assigned* (the enum inputs of a legality table, say)
//! or left *symbolic*; evaluation then yields a residual [`Formula`] over the
//! symbolic fields. The legality table is the set of assignments whose residual
//! is one element-count equation; the typed constructors use the equalities a
//! validator's residual pins.

use super::spec::{BinOp, ExprKind, InstRoot, SpecFn, SpecTy};
use super::{EnumId, Model, RecordId, Ty};
use std::collections::BTreeMap;

/// One step of a field path below an instruction root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Field (or union member) `field` of `record`.
    Field(RecordId, usize),
    /// Array element.
    Index(u64),
}

/// A field of an instruction, as the steps to it from a root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldPath {
    /// Where the access starts.
    pub root: Root,
    /// The steps.
    pub steps: Vec<Step>,
}

/// The start of a path (shape member or the common prefix; both name the same bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Root {
    /// The operand struct.
    Shape,
    /// `i.header`.
    Header,
    /// `i.common`.
    Common,
}

impl FieldPath {
    /// Dotted name relative to the operand struct (`src_mem_pattern.num_elem[0]`).
    pub fn name(&self, model: &Model, shape_record: RecordId) -> String {
        let mut out = String::new();
        match self.root {
            Root::Shape => {}
            Root::Header => {
                if let Some(f) = model.records[shape_record].fields.first() {
                    out.push_str(&f.name);
                }
            }
            Root::Common => {}
        }
        for s in &self.steps {
            match s {
                Step::Field(r, k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&model.records[*r].fields[*k].name);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    /// The model type at the end of the path, given the record the root stands for.
    pub fn ty(&self, model: &Model, root_record: RecordId) -> Ty {
        let mut ty = Ty::Record(root_record);
        for s in &self.steps {
            ty = match (s, &ty) {
                (Step::Field(r, k), _) => model.records[*r].fields[*k].ty.clone(),
                (Step::Index(_), Ty::Array(inner, _)) => inner.as_ref().clone(),
                (_, other) => other.clone(),
            };
        }
        ty
    }

    /// The same field, spelled from the operand struct (header and common prefix resolved).
    pub fn canonical(&self, model: &Model, shape_record: RecordId) -> FieldPath {
        match self.root {
            Root::Shape => self.clone(),
            Root::Header => {
                let mut steps = vec![Step::Field(shape_record, 0)];
                steps.extend(self.steps.iter().cloned());
                FieldPath {
                    root: Root::Shape,
                    steps,
                }
            }
            Root::Common => {
                let mut steps = self.steps.clone();
                if let Some(Step::Field(r, k)) = steps.first().cloned() {
                    let name = &model.records[r].fields[k].name;
                    if let Some(j) = model.records[shape_record]
                        .fields
                        .iter()
                        .position(|f| &f.name == name)
                    {
                        steps[0] = Step::Field(shape_record, j);
                    }
                }
                FieldPath {
                    root: Root::Shape,
                    steps,
                }
            }
        }
    }
}

/// A symbolic integer: a term, as a [`Formula`] is a symbolic boolean.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A known value.
    Int(i128),
    /// An unassigned field.
    Read(FieldPath),
    /// The opcode byte, when not known.
    Opcode,
    /// An enum parameter whose value is not fixed.
    Param(usize),
    /// Arithmetic.
    Bin(BinOp, Box<Term>, Box<Term>),
    /// Negation.
    Neg(Box<Term>),
    /// `if c { a } else { b }`.
    Ite(Box<Formula>, Box<Term>, Box<Term>),
}

/// A symbolic boolean.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    /// Known.
    Const(bool),
    /// A comparison of symbolic integers.
    Cmp(BinOp, Term, Term),
    /// A comparison of two floating-point values of width `Prim` (`F32`, `F64`), each a term
    /// holding the value's bit pattern. Kept apart from [`Formula::Cmp`] because IEEE
    /// comparison is not integer comparison: a NaN makes every ordering and `==` false, so
    /// `!(a < b)` is not `a >= b`.
    FloatCmp(BinOp, crate::ctype::Prim, Term, Term),
    /// All of.
    And(Vec<Formula>),
    /// Any of.
    Or(Vec<Formula>),
    /// Not.
    Not(Box<Formula>),
}

impl Formula {
    /// The value when known.
    pub fn known(&self) -> Option<bool> {
        match self {
            Formula::Const(b) => Some(*b),
            _ => None,
        }
    }

    /// The conjunction of `parts`, simplified as evaluation does.
    pub fn all(parts: Vec<Formula>) -> Formula {
        Formula::and(parts)
    }

    fn and(parts: Vec<Formula>) -> Formula {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Formula::Const(true) => {}
                Formula::Const(false) => return Formula::Const(false),
                Formula::And(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        match out.len() {
            0 => Formula::Const(true),
            1 => out.pop().expect("one"),
            _ => Formula::And(out),
        }
    }

    fn or(parts: Vec<Formula>) -> Formula {
        let mut out: Vec<Formula> = Vec::new();
        for p in parts {
            match p {
                Formula::Const(false) => {}
                Formula::Const(true) => return Formula::Const(true),
                Formula::Or(inner) => out.extend(inner),
                other => {
                    if !out.contains(&other) {
                        out.push(other)
                    }
                }
            }
        }
        match out.len() {
            0 => Formula::Const(false),
            1 => out.pop().expect("one"),
            _ => Formula::Or(out),
        }
    }

    fn not(f: Formula) -> Formula {
        match f {
            Formula::Const(b) => Formula::Const(!b),
            Formula::Not(inner) => *inner,
            other => Formula::Not(Box::new(other)),
        }
    }

    /// The top-level conjuncts.
    pub fn conjuncts(&self) -> Vec<&Formula> {
        match self {
            Formula::And(parts) => parts.iter().collect(),
            Formula::Const(true) => Vec::new(),
            other => vec![other],
        }
    }
}

/// A value during evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A boolean.
    Bool(Formula),
    /// An integer or enum value.
    Num(Term),
    /// A struct, union or array inside the instruction.
    Ref(FieldPath),
    /// The instruction itself.
    Inst,
}

/// The inputs of one evaluation: the fields assigned and the opcode, when known.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Fixed field values (paths in canonical, shape-rooted form).
    pub fields: BTreeMap<FieldPath, i128>,
    /// The opcode byte, when known.
    pub opcode: Option<i128>,
}

/// Evaluation failed (a recursion, which the spec language does not allow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(pub String);

/// Evaluates spec functions of one model for instructions of one shape.
pub struct Evaluator<'a> {
    model: &'a Model,
    fns: &'a [SpecFn],
    shape_record: RecordId,
    /// Enum-typed fields read while unassigned, with their enum, in first-read order (the domain finder uses these).
    pub unassigned_enum_reads: Vec<(FieldPath, EnumId)>,
    /// Every scalar field the evaluation reached, assigned or not (canonical paths, first-touch
    /// order), including an enum field checked by `is_valid_enum` (which is true without reading
    /// its value): what the validator looks at under the assignment (the typed constructors use it).
    pub touched: Vec<FieldPath>,
    /// When set, the memory-space arguments of every call the evaluation reaches
    /// ([`Evaluator::watching_spaces`]).
    pub spaces: Option<SpaceWatch>,
}

/// What [`Evaluator::watching_spaces`] looks for and what it saw: each call of a function
/// taking the tensor start-address union and the `AllowedInSBUF` / `AllowedInPSUM` enums, with
/// the address a field of the instruction and both enums known.
#[derive(Clone, Debug)]
pub struct SpaceWatch {
    /// The start-address union.
    pub union: RecordId,
    /// `AllowedInSBUF` and the value of its `TRUE` member.
    pub sbuf: (EnumId, i128),
    /// `AllowedInPSUM` and the value of its `TRUE` member.
    pub psum: (EnumId, i128),
    /// (canonical path of the start address, allowed in SBUF, allowed in PSUM), in call order.
    pub seen: Vec<(FieldPath, bool, bool)>,
}

fn term_bin(op: BinOp, a: Term, b: Term) -> Term {
    if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
        if let Some(v) = arith(op, *x, *y) {
            return Term::Int(v);
        }
    }
    Term::Bin(op, Box::new(a), Box::new(b))
}

/// Spec-language integer arithmetic: the same functions the generated validators call.
pub fn arith(op: BinOp, a: i128, b: i128) -> Option<i128> {
    use isa_core::spec;
    Some(match op {
        BinOp::Add => a.saturating_add(b),
        BinOp::Sub => a.saturating_sub(b),
        BinOp::Mul => a.saturating_mul(b),
        BinOp::Div => spec::div(a, b),
        BinOp::Rem => spec::rem(a, b),
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Shl => spec::shl(a, b),
        BinOp::Shr => spec::shr(a, b),
        _ => return None,
    })
}

/// A spec-language comparison of two known floating-point values, given as the bit patterns
/// of their width (`F32`: a `u32`, `F64`: a `u64`), with the IEEE 754 semantics of Rust's
/// `f32`/`f64` operators, which the generated validators use: a NaN compares false except
/// under `!=`. A pattern that does not fit its width (no field holds one) compares false.
pub fn compare_float(op: BinOp, width: crate::ctype::Prim, a: i128, b: i128) -> bool {
    match width {
        crate::ctype::Prim::F32 => match (u32::try_from(a), u32::try_from(b)) {
            (Ok(x), Ok(y)) => ordered(op, f32::from_bits(x), f32::from_bits(y)),
            _ => false,
        },
        crate::ctype::Prim::F64 => match (u64::try_from(a), u64::try_from(b)) {
            (Ok(x), Ok(y)) => ordered(op, f64::from_bits(x), f64::from_bits(y)),
            _ => false,
        },
        _ => false,
    }
}

/// The value of comparison `op` between `a` and `b`, the operands' values (`ty` the left one's
/// type): floats by IEEE rules (NaN compares false), integers as integers, booleans as equal or
/// not.
fn compared(op: BinOp, ty: &SpecTy, a: Value, b: Value) -> Value {
    if let SpecTy::Float(width) = *ty {
        return Value::Bool(match (a, b) {
            (Value::Num(Term::Int(x)), Value::Num(Term::Int(y))) => {
                Formula::Const(compare_float(op, width, x, y))
            }
            (Value::Num(x), Value::Num(y)) => Formula::FloatCmp(op, width, x, y),
            _ => Formula::Const(false),
        });
    }
    match (a, b) {
        (Value::Num(Term::Int(x)), Value::Num(Term::Int(y))) => {
            Value::Bool(Formula::Const(compare(op, x, y)))
        }
        (Value::Num(x), Value::Num(y)) => Value::Bool(Formula::Cmp(op, x, y)),
        (Value::Bool(x), Value::Bool(y)) => {
            let same = match (x.known(), y.known()) {
                (Some(p), Some(q)) => Formula::Const(p == q),
                _ => Formula::or(vec![
                    Formula::and(vec![x.clone(), y.clone()]),
                    Formula::and(vec![Formula::not(x), Formula::not(y)]),
                ]),
            };
            Value::Bool(if op == BinOp::Ne {
                Formula::not(same)
            } else {
                same
            })
        }
        _ => Value::Bool(Formula::Const(false)),
    }
}

/// A spec-language comparison of two known integers.
pub fn compare(op: BinOp, a: i128, b: i128) -> bool {
    ordered(op, a, b)
}

/// `a op b` with Rust's operators of `T` (for floats, IEEE 754's).
fn ordered<T: PartialOrd>(op: BinOp, a: T, b: T) -> bool {
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        _ => false,
    }
}

impl<'a> Evaluator<'a> {
    /// An evaluator for instructions whose operand struct is `shape_record`.
    pub fn new(model: &'a Model, fns: &'a [SpecFn], shape_record: RecordId) -> Self {
        Evaluator {
            model,
            fns,
            shape_record,
            unassigned_enum_reads: Vec::new(),
            touched: Vec::new(),
            spaces: None,
        }
    }

    /// The same evaluator, recording the memory-space arguments of the calls it reaches.
    pub fn watching_spaces(mut self, watch: SpaceWatch) -> Self {
        self.spaces = Some(watch);
        self
    }

    /// Records a call of `fns[f]` with `args` when it is a memory-space check.
    fn note_space(&mut self, f: usize, args: &[Value]) {
        let Some(watch) = &self.spaces else {
            return;
        };
        let params = &self.fns[f].params;
        let arg_of = |ty: SpecTy| {
            params
                .iter()
                .position(|(_, t)| *t == ty)
                .and_then(|k| args.get(k))
        };
        let allowed = |(e, yes): (EnumId, i128)| match arg_of(SpecTy::Enum(e)) {
            Some(Value::Num(Term::Int(v))) => Some(*v == yes),
            _ => None,
        };
        let (Some(Value::Ref(address)), Some(sbuf), Some(psum)) = (
            arg_of(SpecTy::Record(watch.union)),
            allowed(watch.sbuf),
            allowed(watch.psum),
        ) else {
            return;
        };
        let path = address.canonical(self.model, self.shape_record);
        if let Some(watch) = &mut self.spaces {
            watch.seen.push((path, sbuf, psum));
        }
    }

    /// Evaluates `fns[f]` applied to `args`.
    pub fn call(&mut self, env: &Inputs, f: usize, args: Vec<Value>) -> Result<Value, EvalError> {
        self.call_depth(env, f, args, 0)
    }

    fn call_depth(
        &mut self,
        env: &Inputs,
        f: usize,
        args: Vec<Value>,
        depth: usize,
    ) -> Result<Value, EvalError> {
        let fns: &'a [SpecFn] = self.fns;
        self.call_body(env, f, &fns[f].body, args, depth)
    }

    /// Evaluates `body` as if it were the body of `fns[f]`, applied to `args`: the legality
    /// derivation evaluates one disjunct of a function this way, without copying the function list.
    pub fn call_with_body(
        &mut self,
        env: &Inputs,
        f: usize,
        body: &super::spec::Expr,
        args: Vec<Value>,
    ) -> Result<Value, EvalError> {
        self.call_body(env, f, body, args, 0)
    }

    fn call_body(
        &mut self,
        env: &Inputs,
        f: usize,
        body: &super::spec::Expr,
        args: Vec<Value>,
        depth: usize,
    ) -> Result<Value, EvalError> {
        let fns: &'a [SpecFn] = self.fns;
        if depth > 64 {
            return Err(EvalError(format!("`{}` calls itself", fns[f].name)));
        }
        let v = self.eval(env, &args, body, depth + 1)?;
        // A function returning an integer narrows its result (saturation) when it is known.
        Ok(match (&fns[f].ret, v) {
            (SpecTy::Int(p), Value::Num(Term::Int(x))) => Value::Num(Term::Int(saturate(*p, x))),
            (_, v) => v,
        })
    }

    /// The value of `e` when it reads no instruction field and no parameter (a constant
    /// after inlining); `None` otherwise.
    pub fn constant_bool(&mut self, e: &super::spec::Expr) -> Option<bool> {
        fn pure(e: &super::spec::Expr) -> bool {
            !matches!(
                e.kind,
                ExprKind::Param(_) | ExprKind::Inst(..) | ExprKind::Opcode(_) | ExprKind::Field(..)
            ) && super::spec::children(e).into_iter().all(pure)
        }
        if !pure(e) {
            return None;
        }
        match self.eval(&Inputs::default(), &[], e, 0) {
            Ok(Value::Bool(Formula::Const(b))) => Some(b),
            _ => None,
        }
    }

    fn read(&mut self, env: &Inputs, path: FieldPath) -> Value {
        let canonical = path.canonical(self.model, self.shape_record);
        let ty = canonical.ty(self.model, self.shape_record);
        if !matches!(ty, Ty::Record(_) | Ty::Array(..)) && !self.touched.contains(&canonical) {
            self.touched.push(canonical.clone());
        }
        match ty {
            Ty::Record(_) | Ty::Array(..) => Value::Ref(path),
            Ty::Prim(crate::ctype::Prim::Bool) => match env.fields.get(&canonical) {
                Some(v) => Value::Bool(Formula::Const(*v != 0)),
                None => Value::Bool(Formula::Cmp(BinOp::Ne, Term::Read(canonical), Term::Int(0))),
            },
            Ty::Enum(e) => match env.fields.get(&canonical) {
                Some(v) => Value::Num(Term::Int(*v)),
                None => {
                    if !self
                        .unassigned_enum_reads
                        .iter()
                        .any(|(p, _)| *p == canonical)
                    {
                        self.unassigned_enum_reads.push((canonical.clone(), e));
                    }
                    Value::Num(Term::Read(canonical))
                }
            },
            Ty::Prim(_) => match env.fields.get(&canonical) {
                Some(v) => Value::Num(Term::Int(*v)),
                None => Value::Num(Term::Read(canonical)),
            },
        }
    }

    fn eval(
        &mut self,
        env: &Inputs,
        args: &[Value],
        e: &super::spec::Expr,
        depth: usize,
    ) -> Result<Value, EvalError> {
        Ok(match &e.kind {
            ExprKind::Bool(b) => Value::Bool(Formula::Const(*b)),
            ExprKind::Int(v) => Value::Num(Term::Int(*v)),
            ExprKind::Param(k) => args.get(*k).cloned().unwrap_or(Value::Num(Term::Int(0))),
            ExprKind::Const(k) => Value::Num(Term::Int(self.model.constants[*k].value)),
            ExprKind::Member(en, m) => {
                Value::Num(Term::Int(self.model.enums[*en].members[*m].value))
            }
            ExprKind::Opcode(_) => Value::Num(env.opcode.map_or(Term::Opcode, Term::Int)),
            ExprKind::Inst(_, root) => Value::Ref(FieldPath {
                root: match root {
                    InstRoot::Shape(_) => Root::Shape,
                    InstRoot::Header => Root::Header,
                    InstRoot::Common => Root::Common,
                },
                steps: Vec::new(),
            }),
            ExprKind::Field(base, r, k) => match self.eval(env, args, base, depth)? {
                Value::Ref(mut p) => {
                    p.steps.push(Step::Field(*r, *k));
                    self.read(env, p)
                }
                other => other,
            },
            ExprKind::Index(base, i) => match self.eval(env, args, base, depth)? {
                Value::Ref(mut p) => {
                    p.steps.push(Step::Index(*i));
                    self.read(env, p)
                }
                other => other,
            },
            ExprKind::Call(f, call_args) => {
                let mut vals = Vec::new();
                for a in call_args {
                    vals.push(self.eval(env, args, a, depth)?);
                }
                self.note_space(*f, &vals);
                self.call_depth(env, *f, vals, depth)?
            }
            ExprKind::IsValidEnum(en, arg) => {
                if arg.ty == SpecTy::Enum(*en) {
                    // A decoded enum field always holds a member; the field still counts as
                    // touched (not as an unassigned read).
                    let unassigned = self.unassigned_enum_reads.len();
                    self.eval(env, args, arg, depth)?;
                    self.unassigned_enum_reads.truncate(unassigned);
                    Value::Bool(Formula::Const(true))
                } else {
                    match self.eval(env, args, arg, depth)? {
                        Value::Num(Term::Int(v)) => {
                            Value::Bool(Formula::Const(self.model.enums[*en].by_value(v).is_some()))
                        }
                        Value::Num(s) => Value::Bool(Formula::or(
                            self.model.enums[*en]
                                .distinct()
                                .map(|m| Formula::Cmp(BinOp::Eq, s.clone(), Term::Int(m.value)))
                                .collect(),
                        )),
                        _ => Value::Bool(Formula::Const(false)),
                    }
                }
            }
            ExprKind::Not(a) => match self.eval(env, args, a, depth)? {
                Value::Bool(f) => Value::Bool(Formula::not(f)),
                other => other,
            },
            ExprKind::Neg(a) => match self.eval(env, args, a, depth)? {
                Value::Num(Term::Int(v)) => Value::Num(Term::Int(v.saturating_neg())),
                Value::Num(s) => Value::Num(Term::Neg(Box::new(s))),
                other => other,
            },
            ExprKind::Binary(op, l, r) => match op {
                BinOp::And => {
                    let a = self.bool(env, args, l, depth)?;
                    if a == Formula::Const(false) {
                        return Ok(Value::Bool(a));
                    }
                    let b = self.bool(env, args, r, depth)?;
                    Value::Bool(Formula::and(vec![a, b]))
                }
                BinOp::Or => {
                    let a = self.bool(env, args, l, depth)?;
                    if a == Formula::Const(true) {
                        return Ok(Value::Bool(a));
                    }
                    let b = self.bool(env, args, r, depth)?;
                    Value::Bool(Formula::or(vec![a, b]))
                }
                op if op.is_comparison() => {
                    let a = self.eval(env, args, l, depth)?;
                    let b = self.eval(env, args, r, depth)?;
                    compared(*op, &l.ty, a, b)
                }
                op => {
                    let a = self.num(env, args, l, depth)?;
                    let b = self.num(env, args, r, depth)?;
                    Value::Num(term_bin(*op, a, b))
                }
            },
            ExprKind::If(c, a, b) => {
                let cond = self.bool(env, args, c, depth)?;
                match cond.known() {
                    Some(true) => self.eval(env, args, a, depth)?,
                    Some(false) => self.eval(env, args, b, depth)?,
                    None => match (
                        self.eval(env, args, a, depth)?,
                        self.eval(env, args, b, depth)?,
                    ) {
                        (Value::Bool(x), Value::Bool(y)) => Value::Bool(Formula::or(vec![
                            Formula::and(vec![cond.clone(), x]),
                            Formula::and(vec![Formula::not(cond), y]),
                        ])),
                        (Value::Num(x), Value::Num(y)) => {
                            Value::Num(Term::Ite(Box::new(cond), Box::new(x), Box::new(y)))
                        }
                        (x, _) => x,
                    },
                }
            }
        })
    }

    fn bool(
        &mut self,
        env: &Inputs,
        args: &[Value],
        e: &super::spec::Expr,
        depth: usize,
    ) -> Result<Formula, EvalError> {
        Ok(match self.eval(env, args, e, depth)? {
            Value::Bool(f) => f,
            _ => Formula::Const(false),
        })
    }

    fn num(
        &mut self,
        env: &Inputs,
        args: &[Value],
        e: &super::spec::Expr,
        depth: usize,
    ) -> Result<Term, EvalError> {
        Ok(match self.eval(env, args, e, depth)? {
            Value::Num(s) => s,
            _ => Term::Int(0),
        })
    }
}

/// A function's integer result narrowed to its declared type (saturating, as translated).
fn saturate(p: crate::ctype::Prim, v: i128) -> i128 {
    use crate::ctype::Prim::*;
    use isa_core::spec;
    match p {
        U8 => spec::to_u8(v).into(),
        U16 => spec::to_u16(v).into(),
        U32 => spec::to_u32(v).into(),
        U64 => spec::to_u64(v).into(),
        I8 => spec::to_i8(v).into(),
        I16 => spec::to_i16(v).into(),
        I32 => spec::to_i32(v).into(),
        I64 => spec::to_i64(v).into(),
        Bool => v.clamp(0, 1),
        F32 | F64 => v,
    }
}

/// Renders a symbolic integer with field names relative to the operand struct.
pub fn term_text(model: &Model, shape_record: RecordId, s: &Term) -> String {
    match s {
        Term::Int(v) => v.to_string(),
        Term::Read(p) => p.name(model, shape_record),
        Term::Opcode => "opcode".into(),
        Term::Param(k) => format!("param{k}"),
        Term::Bin(op, a, b) => format!(
            "{} {} {}",
            term_text(model, shape_record, a),
            op.symbol(),
            term_text(model, shape_record, b)
        ),
        Term::Neg(a) => format!("-{}", term_text(model, shape_record, a)),
        Term::Ite(c, a, b) => format!(
            "if {} {{ {} }} else {{ {} }}",
            formula_text(model, shape_record, c),
            term_text(model, shape_record, a),
            term_text(model, shape_record, b)
        ),
    }
}

/// Renders a formula.
pub fn formula_text(model: &Model, shape_record: RecordId, f: &Formula) -> String {
    match f {
        Formula::Const(b) => b.to_string(),
        Formula::Cmp(op, a, b) | Formula::FloatCmp(op, _, a, b) => format!(
            "{} {} {}",
            term_text(model, shape_record, a),
            op.symbol(),
            term_text(model, shape_record, b)
        ),
        Formula::And(p) => p
            .iter()
            .map(|x| format!("({})", formula_text(model, shape_record, x)))
            .collect::<Vec<_>>()
            .join(" && "),
        Formula::Or(p) => p
            .iter()
            .map(|x| format!("({})", formula_text(model, shape_record, x)))
            .collect::<Vec<_>>()
            .join(" || "),
        Formula::Not(x) => format!("!({})", formula_text(model, shape_record, x)),
    }
}
