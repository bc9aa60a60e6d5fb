//! The spec language, resolved: every `// fn` block becomes a typed function whose
//! names all point into the model (fields, enum members, constants, other spec
//! functions). A name that resolves to nothing is an error with `file:line`.
//! See `docs/spec-language.md` for the language.
//!
//! This module holds the resolved language (types, expressions, functions) and its tree
//! walks; [`resolve`] translates a tree's blocks (`translate` one block, `inst_kinds` the shape
//! each instruction parameter is bound to and the common fields read), and [`check_depth`]
//! bounds what the evaluator will recurse through.

mod depth;
mod inst_kinds;
mod resolve;
mod translate;

pub use depth::check_depth;
pub use inst_kinds::uncarried_common_field;
pub use resolve::resolve;

use super::{EnumId, RecordId, Ty};
use crate::ctype::Prim;
use crate::diag::Loc;
use crate::model::ShapeId;

/// What an `Inst` parameter may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// Only the common prefix (`header`, `common`) is read: any shape.
    Any,
    /// Fields of one shape (index into [`Model::shapes`](crate::model::Model::shapes)) are read.
    Shape(ShapeId),
}

/// The type of a spec value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpecTy {
    /// `bool`.
    Bool,
    /// An integer of a declared width (fields, parameters, constants, returns).
    Int(Prim),
    /// An integer literal or the result of arithmetic: a mathematical integer.
    Wide,
    /// A C enum.
    Enum(EnumId),
    /// A struct or union value.
    Record(RecordId),
    /// An array.
    Array(Box<SpecTy>, u64),
    /// An instruction.
    Inst(InstKind),
}

impl SpecTy {
    fn of(ty: &Ty) -> SpecTy {
        match ty {
            Ty::Prim(Prim::Bool) => SpecTy::Bool,
            Ty::Prim(p) => SpecTy::Int(*p),
            Ty::Enum(e) => SpecTy::Enum(*e),
            Ty::Record(r) => SpecTy::Record(*r),
            Ty::Array(t, n) => SpecTy::Array(Box::new(SpecTy::of(t)), *n),
        }
    }

    /// True for integer types (declared or wide).
    pub fn is_int(&self) -> bool {
        matches!(self, SpecTy::Int(_) | SpecTy::Wide)
    }
}

/// Where an instruction access starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstRoot {
    /// `i.<shape>`.
    Shape(ShapeId),
    /// `i.header`.
    Header,
    /// `i.common`.
    Common,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    /// The spec-language spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }

    /// True for comparisons.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A resolved expression node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i128),
    /// The `k`-th parameter.
    Param(usize),
    /// A constant (index into [`Model::constants`](crate::model::Model::constants)).
    Const(usize),
    /// An enum member: (enum, member index).
    Member(EnumId, usize),
    /// The opcode of an instruction parameter (`i.header.opcode`).
    Opcode(usize),
    /// The start of an instruction access (`i.s1_rand`, `i.header`, `i.common`) on parameter `param`.
    Inst(usize, InstRoot),
    /// Field `field` (index) of a record value (a union member for a union).
    Field(Box<Expr>, RecordId, usize),
    /// Element `index` of an array value.
    Index(Box<Expr>, u64),
    /// A call of spec function `func` (index into the resolved list).
    Call(usize, Vec<Expr>),
    /// `is_valid_enum(EnumList::E, v)`.
    IsValidEnum(EnumId, Box<Expr>),
    /// `!x`.
    Not(Box<Expr>),
    /// `-x`.
    Neg(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c { a } else { b }`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
}

/// A typed expression with its spec-language text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its type.
    pub ty: SpecTy,
    /// Its text, as the spec writes it (normalised spacing).
    pub text: String,
    /// The file line it starts on (0 for expressions made by the generator).
    pub line: u32,
}

/// A resolved spec function.
#[derive(Clone, Debug)]
pub struct SpecFn {
    /// Name.
    pub name: String,
    /// Parameters: name and type.
    pub params: Vec<(String, SpecTy)>,
    /// Return type (`Bool` or `Int`).
    pub ret: SpecTy,
    /// Body.
    pub body: Expr,
    /// The `// fn` line.
    pub loc: Loc,
    /// The block text.
    pub source: String,
    /// The fields of `NEURON_ISA_TPB_INST_COMMON` read as `i.common.<field>`, here or in a
    /// function the instruction is passed to (indices into that record's fields, ascending).
    pub common_reads: Vec<usize>,
}

impl SpecFn {
    /// Index of the first parameter of type `Inst`, if any.
    pub fn inst_param(&self) -> Option<usize> {
        self.params
            .iter()
            .position(|(_, t)| matches!(t, SpecTy::Inst(_)))
    }

    /// The kind of the instruction parameter (shape-bound or any).
    pub fn inst_kind(&self) -> Option<InstKind> {
        self.params.iter().find_map(|(_, t)| match t {
            SpecTy::Inst(k) => Some(*k),
            _ => None,
        })
    }
}

/// A spec block the generator could not translate: left out of the crate, reported as a warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedSpec {
    /// The function's name.
    pub name: String,
    /// Its `// fn` line.
    pub loc: Loc,
    /// Why, in one phrase (`NEURON_ISA_TPB_X has no field `y` (tpb/x.h:12)`, `it calls `g`, ...`).
    pub reason: String,
}

/// The direct sub-expressions of `e`.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Field(b, _, _) | ExprKind::Index(b, _) | ExprKind::Not(b) | ExprKind::Neg(b) => {
            vec![b]
        }
        ExprKind::IsValidEnum(_, b) => vec![b],
        ExprKind::Call(_, args) => args.iter().collect(),
        ExprKind::Binary(_, l, r) => vec![l, r],
        ExprKind::If(c, a, b) => vec![c, a, b],
        _ => Vec::new(),
    }
}

pub(super) fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Field(b, _, _) | ExprKind::Index(b, _) | ExprKind::Not(b) | ExprKind::Neg(b) => {
            vec![b]
        }
        ExprKind::IsValidEnum(_, b) => vec![b],
        ExprKind::Call(_, args) => args.iter_mut().collect(),
        ExprKind::Binary(_, l, r) => vec![l, r],
        ExprKind::If(c, a, b) => vec![c, a, b],
        _ => Vec::new(),
    }
}

/// The operands of a top-level conjunction (`a && b && c` → `[a, b, c]`), parentheses looked through.
pub fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary(BinOp::And, l, r) => {
            let mut out = conjuncts(l);
            out.extend(conjuncts(r));
            out
        }
        _ => vec![e],
    }
}

/// The operands of a top-level disjunction.
pub fn disjuncts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary(BinOp::Or, l, r) => {
            let mut out = disjuncts(l);
            out.extend(disjuncts(r));
            out
        }
        _ => vec![e],
    }
}

/// Every spec function `e` calls (indices of the list its calls refer to), in call order.
pub(super) fn callees(e: &Expr, out: &mut Vec<usize>) {
    if let ExprKind::Call(f, _) = &e.kind {
        out.push(*f);
    }
    for c in children(e) {
        callees(c, out);
    }
}
