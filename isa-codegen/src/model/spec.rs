//! The spec language, resolved: every `// fn` block becomes a typed function whose
//! names all point into the model (fields, enum members, constants, other spec
//! functions). A name that resolves to nothing is an error with `file:line`.
//! See `docs/spec-language.md` for the language.

use super::names::spec_key;
use super::{EnumId, Model, RecordId, Ty};
use crate::ctype::{Prim, RecordKind};
use crate::diag::{Diagnostic, Loc, Sink};
use crate::read::cdecl::{path_idents, path_last};
use crate::read::spec::{SpecBlock, Unparsed};
use std::collections::BTreeMap;

/// What an `Inst` parameter may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// Only the common prefix (`header`, `common`) is read: any shape.
    Any,
    /// Fields of one shape (index into [`Model::shapes`]) are read.
    Shape(usize),
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
    Shape(usize),
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
    /// A constant (index into [`Model::constants`]).
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

/// Resolves every spec block of a tree against `model`.
///
/// A block outside the language (an unknown name, a form the language lacks, a type that does
/// not fit, a block the read stage could not parse, an instruction read through two shapes) is
/// dropped with a warning at its line, and so is every function that calls a dropped one,
/// transitively, with a warning naming the cause. Returns the translated functions, in source
/// order, and the dropped ones. `--strict` makes each warning an error.
pub fn resolve(
    model: &Model,
    blocks: &[SpecBlock],
    unparsed: &[Unparsed],
    sink: &mut Sink,
) -> (Vec<SpecFn>, Vec<DroppedSpec>) {
    let names: BTreeMap<String, usize> = blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (b.name(), k))
        .collect();
    let decls = declaration_index(model);
    let unparsed_names: BTreeMap<String, &Unparsed> = unparsed
        .iter()
        .filter_map(|u| Some((u.name.clone()?, u)))
        .collect();
    let mut r = Resolver {
        model,
        names: &names,
        decls: &decls,
        unparsed: &unparsed_names,
        errors: Vec::new(),
        missing: Vec::new(),
        sigs: Vec::new(),
    };
    let n = blocks.len();
    // Why each block is dropped: its own problems (diagnostics) or a callee that is.
    let mut own: Vec<Vec<Diagnostic>> = vec![Vec::new(); n];
    let mut via: Vec<Option<String>> = vec![None; n];
    // Signatures first: calls are checked against them.
    for (k, b) in blocks.iter().enumerate() {
        let sig = r.signature(b);
        own[k] = std::mem::take(&mut r.errors);
        r.sigs.push(sig);
    }
    let mut bodies: Vec<Option<SpecFn>> = vec![None; n];
    for (k, b) in blocks.iter().enumerate() {
        let Some((params, ret)) = r.sigs[k].clone() else {
            continue;
        };
        let scope = Scope {
            block: b,
            params: &params,
        };
        let body = r.block_body(&scope, &b.item.block, &ret);
        let errors = std::mem::take(&mut r.errors);
        let missing = std::mem::take(&mut r.missing);
        match body {
            Some(body) => {
                bodies[k] = Some(SpecFn {
                    name: b.name(),
                    params,
                    ret,
                    body,
                    loc: b.loc.clone(),
                    source: b.text.clone(),
                    common_reads: Vec::new(),
                })
            }
            None if !errors.is_empty() => own[k] = errors,
            None => via[k] = missing.into_iter().next(),
        }
    }
    let mut dropped: Vec<DroppedSpec> = Vec::new();
    let mut is_dropped = vec![false; n];
    for (k, b) in blocks.iter().enumerate() {
        if !own[k].is_empty() {
            for d in &own[k] {
                sink.warn(
                    d.loc.clone(),
                    format!(
                        "spec function `{}` is not translated: {}",
                        b.name(),
                        d.message
                    ),
                );
            }
            let first = &own[k][0];
            dropped.push(DroppedSpec {
                name: b.name(),
                loc: b.loc.clone(),
                reason: format!("{} ({})", first.message, first.loc),
            });
            is_dropped[k] = true;
        } else if bodies[k].is_none() {
            let callee = via[k].clone().unwrap_or_default();
            let (at, why) = match (names.get(&callee), unparsed_names.get(&callee)) {
                (Some(&c), _) => (blocks[c].loc.clone(), "is not translated"),
                (None, Some(u)) => (u.loc.clone(), "does not parse"),
                (None, None) => (b.loc.clone(), "is not translated"),
            };
            let reason = format!("it calls `{callee}` ({at}), which {why}");
            sink.warn(
                b.loc.clone(),
                format!("spec function `{}` is not translated: {reason}", b.name()),
            );
            dropped.push(DroppedSpec {
                name: b.name(),
                loc: b.loc.clone(),
                reason,
            });
            is_dropped[k] = true;
        }
    }
    // Callers of dropped functions go too, transitively.
    let mut kept: Vec<(usize, SpecFn)> = bodies
        .into_iter()
        .enumerate()
        .filter_map(|(k, f)| Some((k, f?)))
        .collect();
    loop {
        let before = kept.len();
        drop_callers(&mut kept, &mut is_dropped, blocks, &mut dropped, sink);
        let mut fns = reindex(&kept);
        let mut conflicts = infer_inst_kinds(model, &mut fns);
        if conflicts.is_empty() {
            conflicts = common_field_conflicts(model, &fns);
        }
        if conflicts.is_empty() && kept.len() == before {
            let reads = common_reads(&fns);
            for (f, reads) in fns.iter_mut().zip(reads) {
                f.common_reads = reads;
            }
            return (fns, dropped);
        }
        for (j, loc, message) in conflicts {
            let k = kept[j].0;
            if is_dropped[k] {
                continue;
            }
            sink.warn(
                loc.clone(),
                format!(
                    "spec function `{}` is not translated: {message}",
                    blocks[k].name()
                ),
            );
            dropped.push(DroppedSpec {
                name: blocks[k].name(),
                loc: blocks[k].loc.clone(),
                reason: format!("{message} ({loc})"),
            });
            is_dropped[k] = true;
        }
        kept.retain(|(k, _)| !is_dropped[*k]);
    }
}

/// Drops every kept function that calls a dropped one (calls hold block indices), to a fixpoint.
fn drop_callers(
    kept: &mut Vec<(usize, SpecFn)>,
    is_dropped: &mut [bool],
    blocks: &[SpecBlock],
    dropped: &mut Vec<DroppedSpec>,
    sink: &mut Sink,
) {
    fn callees(e: &Expr, out: &mut Vec<usize>) {
        if let ExprKind::Call(f, _) = &e.kind {
            out.push(*f);
        }
        for c in children(e) {
            callees(c, out);
        }
    }
    loop {
        let mut changed = false;
        for (k, f) in kept.iter() {
            if is_dropped[*k] {
                continue;
            }
            let mut called = Vec::new();
            callees(&f.body, &mut called);
            if let Some(&c) = called.iter().find(|c| is_dropped[**c]) {
                let reason = format!(
                    "it calls `{}` ({}), which is not translated",
                    blocks[c].name(),
                    blocks[c].loc
                );
                sink.warn(
                    f.loc.clone(),
                    format!("spec function `{}` is not translated: {reason}", f.name),
                );
                dropped.push(DroppedSpec {
                    name: f.name.clone(),
                    loc: f.loc.clone(),
                    reason,
                });
                is_dropped[*k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    kept.retain(|(k, _)| !is_dropped[*k]);
}

/// The kept functions with their calls renumbered from block indices to list indices.
fn reindex(kept: &[(usize, SpecFn)]) -> Vec<SpecFn> {
    fn walk(e: &mut Expr, map: &BTreeMap<usize, usize>) {
        if let ExprKind::Call(f, _) = &mut e.kind {
            *f = map[f];
        }
        for c in children_mut(e) {
            walk(c, map);
        }
    }
    let map: BTreeMap<usize, usize> = kept.iter().enumerate().map(|(j, (k, _))| (*k, j)).collect();
    kept.iter()
        .map(|(_, f)| {
            let mut f = f.clone();
            walk(&mut f.body, &map);
            f
        })
        .collect()
}

type Sig = Option<(Vec<(String, SpecTy)>, SpecTy)>;

struct Resolver<'a> {
    model: &'a Model,
    names: &'a BTreeMap<String, usize>,
    /// Enums, records and typedefs by the key of their spec name ([`declaration_index`]).
    decls: &'a BTreeMap<String, Vec<(String, Decl)>>,
    /// Blocks the read stage could not parse, by name.
    unparsed: &'a BTreeMap<String, &'a Unparsed>,
    /// Problems of the block being resolved.
    errors: Vec<Diagnostic>,
    /// Callees of the block being resolved that have no translation (its body fails on them).
    missing: Vec<String>,
    sigs: Vec<Sig>,
}

struct Scope<'a> {
    block: &'a SpecBlock,
    params: &'a [(String, SpecTy)],
}

impl Scope<'_> {
    fn loc(&self, span: proc_macro2::Span) -> Loc {
        self.block.loc_of(span)
    }
}

fn span_of<T: syn::spanned::Spanned>(t: &T) -> proc_macro2::Span {
    t.span()
}

impl Resolver<'_> {
    fn err(&mut self, loc: Loc, msg: impl Into<String>) {
        self.errors.push(Diagnostic::new(loc, msg));
    }

    /// A spec type name: a scalar, `Inst`, or a declaration of the tree.
    fn type_named(&mut self, block: &SpecBlock, ty: &syn::Type) -> Option<SpecTy> {
        let loc = block.loc_of(span_of(ty));
        let syn::Type::Path(p) = ty else {
            self.err(loc, "a spec parameter type must be a name");
            return None;
        };
        let name = path_last(&p.path);
        let scalar = match name.as_str() {
            "bool" => Some(SpecTy::Bool),
            "u8" => Some(SpecTy::Int(Prim::U8)),
            "u16" => Some(SpecTy::Int(Prim::U16)),
            "u32" => Some(SpecTy::Int(Prim::U32)),
            "u64" => Some(SpecTy::Int(Prim::U64)),
            "i8" => Some(SpecTy::Int(Prim::I8)),
            "i16" => Some(SpecTy::Int(Prim::I16)),
            "i32" => Some(SpecTy::Int(Prim::I32)),
            "i64" => Some(SpecTy::Int(Prim::I64)),
            "Inst" => Some(SpecTy::Inst(InstKind::Any)),
            _ => None,
        };
        if scalar.is_some() {
            return scalar;
        }
        match self.declaration(&name) {
            Ok(Decl::Enum(e)) => Some(SpecTy::Enum(e)),
            Ok(Decl::Record(r)) => Some(SpecTy::Record(r)),
            Ok(Decl::Alias(t)) => Some(SpecTy::of(&t)),
            Err(msg) => {
                self.err(loc, msg);
                None
            }
        }
    }

    /// Resolves a spec name to an enum, record or typedef of the tree.
    fn declaration(&self, spec_name: &str) -> Result<Decl, String> {
        let hits: &[(String, Decl)] = self
            .decls
            .get(&spec_key(spec_name))
            .map_or(&[], Vec::as_slice);
        match hits.len() {
            0 => Err(format!(
                "`{spec_name}` names no enum, struct, union or typedef of this tree"
            )),
            1 => Ok(hits[0].1.clone()),
            _ => Err(format!(
                "`{spec_name}` is ambiguous: it names {}",
                hits.iter()
                    .map(|h| h.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn signature(&mut self, b: &SpecBlock) -> Sig {
        let sig = &b.item.sig;
        let mut ok = true;
        if !sig.generics.params.is_empty() || sig.asyncness.is_some() || sig.unsafety.is_some() {
            self.err(
                b.loc.clone(),
                "a spec function has no generics or qualifiers",
            );
            ok = false;
        }
        let mut params = Vec::new();
        for input in &sig.inputs {
            let syn::FnArg::Typed(pt) = input else {
                self.err(b.loc.clone(), "a spec function takes no `self`");
                ok = false;
                continue;
            };
            let syn::Pat::Ident(name) = &*pt.pat else {
                self.err(
                    b.loc_of(span_of(&pt.pat)),
                    "a spec parameter must be a plain name",
                );
                ok = false;
                continue;
            };
            match self.type_named(b, &pt.ty) {
                Some(t) => params.push((name.ident.to_string(), t)),
                None => ok = false,
            }
        }
        let ret = match &sig.output {
            syn::ReturnType::Default => {
                self.err(
                    b.loc.clone(),
                    "a spec function must declare `-> bool` or an integer return type",
                );
                None
            }
            syn::ReturnType::Type(_, t) => match self.type_named(b, t) {
                Some(r @ (SpecTy::Bool | SpecTy::Int(_))) => Some(r),
                Some(_) => {
                    self.err(
                        b.loc_of(span_of(t)),
                        "a spec function returns `bool` or an integer",
                    );
                    None
                }
                None => None,
            },
        };
        if params
            .iter()
            .filter(|(_, t)| matches!(t, SpecTy::Inst(_)))
            .count()
            > 1
        {
            self.err(b.loc.clone(), "a spec function takes at most one `Inst`");
            ok = false;
        }
        match (ok, ret) {
            (true, Some(ret)) => Some((params, ret)),
            _ => None,
        }
    }

    fn block_body(&mut self, scope: &Scope<'_>, block: &syn::Block, ret: &SpecTy) -> Option<Expr> {
        let loc = scope.loc(span_of(block));
        let [syn::Stmt::Expr(e, None)] = block.stmts.as_slice() else {
            self.err(
                loc,
                "a spec body is exactly one expression (no `let`, no `;`)",
            );
            return None;
        };
        let body = self.expr(scope, e)?;
        let fits = match (ret, &body.ty) {
            (SpecTy::Bool, SpecTy::Bool) => true,
            (SpecTy::Int(_), t) => t.is_int(),
            _ => false,
        };
        if !fits {
            self.err(
                scope.loc(span_of(e)),
                format!(
                    "the body has type {}, the function returns {}",
                    self.ty_name(&body.ty),
                    self.ty_name(ret)
                ),
            );
            return None;
        }
        Some(body)
    }

    fn ty_name(&self, t: &SpecTy) -> String {
        match t {
            SpecTy::Bool => "bool".into(),
            SpecTy::Int(p) => p.rust().into(),
            SpecTy::Wide => "integer".into(),
            SpecTy::Enum(e) => self.model.enums[*e].c_name.clone(),
            SpecTy::Record(r) => self.model.records[*r].c_name.clone(),
            SpecTy::Array(t, n) => format!("[{}; {n}]", self.ty_name(t)),
            SpecTy::Inst(_) => "Inst".into(),
        }
    }

    fn expr(&mut self, scope: &Scope<'_>, e: &syn::Expr) -> Option<Expr> {
        let line = scope.loc(span_of(e)).line;
        let mut out = self.expr_at(scope, e)?;
        out.line = line;
        Some(out)
    }

    fn expr_at(&mut self, scope: &Scope<'_>, e: &syn::Expr) -> Option<Expr> {
        let loc = scope.loc(span_of(e));
        match e {
            syn::Expr::Paren(p) => {
                let inner = self.expr(scope, &p.expr)?;
                Some(Expr {
                    line: 0,
                    text: format!("({})", inner.text),
                    ..inner
                })
            }
            syn::Expr::Group(g) => self.expr(scope, &g.expr),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => {
                    if !i.suffix().is_empty() {
                        self.err(
                            loc,
                            format!("integer literal `{i}`: no suffix in the spec language"),
                        );
                        return None;
                    }
                    match i.base10_parse::<i128>() {
                        Ok(v) => Some(Expr {
                            line: 0,
                            kind: ExprKind::Int(v),
                            ty: SpecTy::Wide,
                            text: i.to_string(),
                        }),
                        Err(_) => {
                            self.err(loc, format!("integer literal `{i}` is out of range"));
                            None
                        }
                    }
                }
                syn::Lit::Bool(b) => Some(Expr {
                    line: 0,
                    kind: ExprKind::Bool(b.value),
                    ty: SpecTy::Bool,
                    text: b.value.to_string(),
                }),
                _ => {
                    self.err(
                        loc,
                        "only integer and boolean literals exist in the spec language",
                    );
                    None
                }
            },
            syn::Expr::Path(p) => self.path(scope, &p.path, loc),
            syn::Expr::Field(f) => self.field(scope, f, loc),
            syn::Expr::Index(ix) => {
                let base = self.expr(scope, &ix.expr)?;
                let SpecTy::Array(elem, len) = base.ty.clone() else {
                    self.err(loc, format!("`{}` is not an array", base.text));
                    return None;
                };
                let index = match &*ix.index {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(i),
                        ..
                    }) => i.base10_parse::<u64>().ok(),
                    _ => None,
                };
                let Some(index) = index else {
                    self.err(loc, "an array index must be an integer literal");
                    return None;
                };
                if index >= len {
                    self.err(
                        loc,
                        format!(
                            "index {index} is out of bounds of `{}` ({len} elements)",
                            base.text
                        ),
                    );
                    return None;
                }
                let text = format!("{}[{index}]", base.text);
                Some(Expr {
                    line: 0,
                    kind: ExprKind::Index(Box::new(base), index),
                    ty: *elem,
                    text,
                })
            }
            syn::Expr::Call(c) => self.call(scope, c, loc),
            syn::Expr::Unary(u) => {
                let arg = self.expr(scope, &u.expr)?;
                match u.op {
                    syn::UnOp::Not(_) if arg.ty == SpecTy::Bool => Some(Expr {
                        line: 0,
                        text: format!("!{}", arg.text),
                        kind: ExprKind::Not(Box::new(arg)),
                        ty: SpecTy::Bool,
                    }),
                    // `-7` is the literal -7 (its translation stays a typed-free literal).
                    syn::UnOp::Neg(_) if matches!(arg.kind, ExprKind::Int(_)) => {
                        let ExprKind::Int(v) = arg.kind else {
                            unreachable!("matched above")
                        };
                        Some(Expr {
                            line: 0,
                            text: format!("-{}", arg.text),
                            kind: ExprKind::Int(-v),
                            ty: SpecTy::Wide,
                        })
                    }
                    syn::UnOp::Neg(_) if arg.ty.is_int() => Some(Expr {
                        line: 0,
                        text: format!("-{}", arg.text),
                        kind: ExprKind::Neg(Box::new(arg)),
                        ty: SpecTy::Wide,
                    }),
                    _ => {
                        self.err(loc, format!("operator not applicable to `{}`", arg.text));
                        None
                    }
                }
            }
            syn::Expr::Binary(b) => self.binary(scope, b, loc),
            syn::Expr::If(i) => self.if_expr(scope, i, loc),
            syn::Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(inner, None) => self.expr(scope, inner),
                _ => {
                    self.err(loc, "a block holds exactly one expression");
                    None
                }
            },
            other => {
                let what = match other {
                    syn::Expr::MethodCall(_) => "method calls",
                    syn::Expr::Cast(_) => "casts",
                    syn::Expr::Match(_) => "`match`",
                    syn::Expr::Closure(_) => "closures",
                    syn::Expr::Let(_) => "`let`",
                    syn::Expr::ForLoop(_) | syn::Expr::While(_) | syn::Expr::Loop(_) => "loops",
                    _ => "this expression form",
                };
                self.err(loc, format!("the spec language has no {what}"));
                None
            }
        }
    }

    fn path(&mut self, scope: &Scope<'_>, path: &syn::Path, loc: Loc) -> Option<Expr> {
        let segs = path_idents(path);
        match segs.as_slice() {
            [name] => {
                if let Some(k) = scope.params.iter().position(|(p, _)| p == name) {
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Param(k),
                        ty: scope.params[k].1.clone(),
                        text: name.clone(),
                    });
                }
                match self
                    .model
                    .constants
                    .iter()
                    .position(|c| c.short == *name || c.c_name == *name)
                {
                    Some(k) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Const(k),
                        ty: SpecTy::Int(self.model.constants[k].ty),
                        text: name.clone(),
                    }),
                    None => {
                        self.err(
                            loc,
                            format!(
                                "`{name}` is neither a parameter nor a constant ({}{name})",
                                crate::vendor::VENDOR_PREFIX
                            ),
                        );
                        None
                    }
                }
            }
            [ty, member] => {
                if ty == "EnumList" {
                    self.err(
                        loc,
                        "`EnumList::…` appears only as the first argument of `is_valid_enum`",
                    );
                    return None;
                }
                let e = match self.enum_named(ty) {
                    Ok(e) => e,
                    Err(msg) => {
                        self.err(loc, msg);
                        return None;
                    }
                };
                match self.member(e, member) {
                    Ok(m) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Member(e, m),
                        ty: SpecTy::Enum(e),
                        text: format!("{ty}::{member}"),
                    }),
                    Err(msg) => {
                        self.err(loc, msg);
                        None
                    }
                }
            }
            _ => {
                self.err(
                    loc,
                    format!("`{}` is not a name of the spec language", segs.join("::")),
                );
                None
            }
        }
    }

    /// The enum a spec name names: an enum, or a typedef of one (`typedef X Y;`).
    fn enum_named(&self, spec_name: &str) -> Result<EnumId, String> {
        match self.declaration(spec_name)? {
            Decl::Enum(e) | Decl::Alias(Ty::Enum(e)) => Ok(e),
            _ => Err(format!("`{spec_name}` is not an enum")),
        }
    }

    fn member(&self, e: EnumId, name: &str) -> Result<usize, String> {
        let en = &self.model.enums[e];
        let key = spec_key(name);
        let hits: Vec<usize> = en
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| spec_key(&m.short) == key)
            .map(|(k, _)| k)
            .collect();
        match hits.as_slice() {
            [k] => Ok(en.members[*k].alias_of.unwrap_or(*k)),
            [] => Err(format!("`{name}` is not a member of {}", en.c_name)),
            _ => Err(format!("`{name}` matches several members of {}", en.c_name)),
        }
    }

    fn field(&mut self, scope: &Scope<'_>, f: &syn::ExprField, loc: Loc) -> Option<Expr> {
        let syn::Member::Named(name) = &f.member else {
            self.err(loc, "tuple fields are not part of the spec language");
            return None;
        };
        // A keyword-named C field arrives as a raw identifier (`r#type`, see read::spec).
        let name = syn::ext::IdentExt::unraw(name).to_string();
        let base = self.expr(scope, &f.base)?;
        match &base.ty {
            SpecTy::Inst(_) => {
                let ExprKind::Param(param) = base.kind else {
                    self.err(loc, "an instruction is read through its parameter");
                    return None;
                };
                let text = format!("{}.{name}", base.text);
                if name == crate::vendor::HEADER_MEMBER {
                    let Some(r) = self.model.record_named(crate::vendor::HEADER) else {
                        self.err(loc, format!("`i.header` needs {}", crate::vendor::HEADER));
                        return None;
                    };
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Header),
                        ty: SpecTy::Record(r),
                        text,
                    });
                }
                if name == crate::vendor::COMMON_MEMBER {
                    let Some(r) = self.model.record_named(crate::vendor::INST_COMMON) else {
                        self.err(
                            loc,
                            format!("`i.common` needs {} in util.h", crate::vendor::INST_COMMON),
                        );
                        return None;
                    };
                    return Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Common),
                        ty: SpecTy::Record(r),
                        text,
                    });
                }
                match self.model.shapes.iter().position(|s| s.member == name) {
                    Some(s) => Some(Expr {
                        line: 0,
                        kind: ExprKind::Inst(param, InstRoot::Shape(s)),
                        ty: SpecTy::Record(self.model.shapes[s].record),
                        text,
                    }),
                    None => {
                        self.err(
                            loc,
                            format!(
                                "`{name}` is not a member of {} bound to an operand struct",
                                crate::vendor::INST_UNION
                            ),
                        );
                        None
                    }
                }
            }
            SpecTy::Record(r) => {
                let r = *r;
                let rec = &self.model.records[r];
                let Some(k) = rec.fields.iter().position(|fl| fl.name == name) else {
                    // A member of an anonymous member is read as a member of this record.
                    if let Some(path) = self.through_anonymous(r, &name) {
                        let text = format!("{}.{name}", base.text);
                        let mut e = base;
                        for (rr, kk) in path {
                            let ty = SpecTy::of(&self.model.records[rr].fields[kk].ty);
                            e = Expr {
                                line: 0,
                                kind: ExprKind::Field(Box::new(e), rr, kk),
                                ty,
                                text: text.clone(),
                            };
                        }
                        return Some(e);
                    }
                    let what = if rec.kind == RecordKind::Union {
                        "member"
                    } else {
                        "field"
                    };
                    self.err(loc, format!("{} has no {what} `{name}`", rec.c_name));
                    return None;
                };
                // `i.header.opcode` is the instruction's opcode.
                if let ExprKind::Inst(param, InstRoot::Header | InstRoot::Common) = base.kind {
                    if self.model.is_discriminator(r, k) {
                        return Some(Expr {
                            line: 0,
                            kind: ExprKind::Opcode(param),
                            ty: SpecTy::Enum(self.model.opcode_enum),
                            text: format!("{}.{name}", base.text),
                        });
                    }
                }
                let ty = SpecTy::of(&rec.fields[k].ty);
                let text = format!("{}.{name}", base.text);
                Some(Expr {
                    line: 0,
                    kind: ExprKind::Field(Box::new(base), r, k),
                    ty,
                    text,
                })
            }
            _ => {
                self.err(loc, format!("`{}` has no fields", base.text));
                None
            }
        }
    }

    /// The field chain from record `r` through its anonymous members to a field `name` of one
    /// of them: `[(r, anon k), (anonymous record, name)]`, when exactly one such chain exists.
    fn through_anonymous(&self, r: RecordId, name: &str) -> Option<Vec<(RecordId, usize)>> {
        let mut found = Vec::new();
        let mut todo = vec![(r, Vec::new())];
        while let Some((rec, path)) = todo.pop() {
            for (k, f) in self.model.records[rec].fields.iter().enumerate() {
                let (true, Ty::Record(inner)) = (f.anonymous, &f.ty) else {
                    continue;
                };
                let mut here: Vec<(RecordId, usize)> = path.clone();
                here.push((rec, k));
                let inner_rec = &self.model.records[*inner];
                match inner_rec.fields.iter().position(|g| g.name == name) {
                    Some(j) => {
                        here.push((*inner, j));
                        found.push(here);
                    }
                    None if here.len() < 8 => todo.push((*inner, here)),
                    None => {}
                }
            }
        }
        (found.len() == 1).then(|| found.pop().expect("one chain"))
    }

    fn call(&mut self, scope: &Scope<'_>, c: &syn::ExprCall, loc: Loc) -> Option<Expr> {
        let syn::Expr::Path(p) = &*c.func else {
            self.err(loc, "only named functions can be called");
            return None;
        };
        let name = path_idents(&p.path).join("::");
        if name == "is_valid_enum" {
            return self.is_valid_enum(scope, c, loc);
        }
        let Some(&k) = self.names.get(&name) else {
            if self.unparsed.contains_key(&name) {
                self.missing.push(name);
                return None; // the block does not parse: reported by the read stage
            }
            self.err(
                loc,
                format!("`{name}` is not a spec function of this tree (nor a builtin)"),
            );
            return None;
        };
        let Some((params, ret)) = self.sigs[k].clone() else {
            self.missing.push(name);
            return None; // its signature was already reported
        };
        if params.len() != c.args.len() {
            self.err(
                loc,
                format!(
                    "`{name}` takes {} arguments, given {}",
                    params.len(),
                    c.args.len()
                ),
            );
            return None;
        }
        let mut args = Vec::new();
        let mut ok = true;
        for (arg, (pname, pty)) in c.args.iter().zip(&params) {
            let aloc = scope.loc(span_of(arg));
            let Some(a) = self.expr(scope, arg) else {
                ok = false;
                continue;
            };
            let fits = match (pty, &a.ty) {
                (SpecTy::Inst(_), SpecTy::Inst(_)) => matches!(a.kind, ExprKind::Param(_)),
                (SpecTy::Int(_), t) => t.is_int(),
                (p, t) => p == t,
            };
            if !fits {
                self.err(
                    aloc,
                    format!(
                        "argument `{pname}` of `{name}` is {}, given `{}` of type {}",
                        self.ty_name(pty),
                        a.text,
                        self.ty_name(&a.ty)
                    ),
                );
                ok = false;
            }
            args.push(a);
        }
        if !ok {
            return None;
        }
        let text = format!(
            "{name}({})",
            args.iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        Some(Expr {
            line: 0,
            kind: ExprKind::Call(k, args),
            ty: ret,
            text,
        })
    }

    fn is_valid_enum(&mut self, scope: &Scope<'_>, c: &syn::ExprCall, loc: Loc) -> Option<Expr> {
        if c.args.len() != 2 {
            self.err(loc, "`is_valid_enum` takes `EnumList::<Enum>` and a value");
            return None;
        }
        // `EnumList::DataSrc`, or the vendor's shorter `DataSrc` (an enum name alone).
        let list = match &c.args[0] {
            syn::Expr::Path(p) => {
                let segs = path_idents(&p.path);
                match segs.as_slice() {
                    [l, e] if l == "EnumList" => Some((e.clone(), true)),
                    [e] if !scope.params.iter().any(|(n, _)| n == e)
                        && self.enum_named(e).is_ok() =>
                    {
                        Some((e.clone(), false))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((list, _)) = list else {
            self.err(
                loc,
                "the first argument of `is_valid_enum` is `EnumList::<Enum>` (or an enum name)",
            );
            return None;
        };
        let e = match self.enum_named(&list) {
            Ok(e) => e,
            Err(msg) => {
                self.err(loc, format!("`EnumList::{list}`: {msg}"));
                return None;
            }
        };
        let arg = self.expr(scope, &c.args[1])?;
        if !(arg.ty == SpecTy::Enum(e) || arg.ty.is_int()) {
            self.err(
                loc,
                format!(
                    "`is_valid_enum(EnumList::{list}, …)` needs a {} or an integer",
                    self.model.enums[e].c_name
                ),
            );
            return None;
        }
        let text = format!("is_valid_enum(EnumList::{list}, {})", arg.text);
        Some(Expr {
            line: 0,
            kind: ExprKind::IsValidEnum(e, Box::new(arg)),
            ty: SpecTy::Bool,
            text,
        })
    }

    fn binary(&mut self, scope: &Scope<'_>, b: &syn::ExprBinary, loc: Loc) -> Option<Expr> {
        let op = match b.op {
            syn::BinOp::And(_) => BinOp::And,
            syn::BinOp::Or(_) => BinOp::Or,
            syn::BinOp::Eq(_) => BinOp::Eq,
            syn::BinOp::Ne(_) => BinOp::Ne,
            syn::BinOp::Lt(_) => BinOp::Lt,
            syn::BinOp::Le(_) => BinOp::Le,
            syn::BinOp::Gt(_) => BinOp::Gt,
            syn::BinOp::Ge(_) => BinOp::Ge,
            syn::BinOp::Add(_) => BinOp::Add,
            syn::BinOp::Sub(_) => BinOp::Sub,
            syn::BinOp::Mul(_) => BinOp::Mul,
            syn::BinOp::Div(_) => BinOp::Div,
            syn::BinOp::Rem(_) => BinOp::Rem,
            syn::BinOp::BitAnd(_) => BinOp::BitAnd,
            syn::BinOp::BitOr(_) => BinOp::BitOr,
            syn::BinOp::BitXor(_) => BinOp::BitXor,
            syn::BinOp::Shl(_) => BinOp::Shl,
            syn::BinOp::Shr(_) => BinOp::Shr,
            _ => {
                self.err(loc, "compound assignment is not part of the spec language");
                return None;
            }
        };
        let l = self.expr(scope, &b.left);
        let r = self.expr(scope, &b.right);
        let (l, r) = (l?, r?);
        let ty = match op {
            BinOp::And | BinOp::Or => {
                if l.ty != SpecTy::Bool || r.ty != SpecTy::Bool {
                    self.err(loc, format!("`{}` needs two booleans", op.symbol()));
                    return None;
                }
                SpecTy::Bool
            }
            op if op.is_comparison() => {
                let ok = match (&l.ty, &r.ty) {
                    (a, b) if a.is_int() && b.is_int() => true,
                    (SpecTy::Enum(a), SpecTy::Enum(b)) => a == b,
                    (SpecTy::Enum(_), b) | (b, SpecTy::Enum(_)) => b.is_int(),
                    (SpecTy::Bool, SpecTy::Bool) => matches!(op, BinOp::Eq | BinOp::Ne),
                    _ => false,
                };
                if !ok {
                    self.err(
                        loc,
                        format!(
                            "cannot compare `{}` ({}) with `{}` ({})",
                            l.text,
                            self.ty_name(&l.ty),
                            r.text,
                            self.ty_name(&r.ty)
                        ),
                    );
                    return None;
                }
                SpecTy::Bool
            }
            _ => {
                if !l.ty.is_int() || !r.ty.is_int() {
                    self.err(loc, format!("`{}` needs two integers", op.symbol()));
                    return None;
                }
                SpecTy::Wide
            }
        };
        let text = format!("{} {} {}", l.text, op.symbol(), r.text);
        Some(Expr {
            line: 0,
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            ty,
            text,
        })
    }

    fn if_expr(&mut self, scope: &Scope<'_>, i: &syn::ExprIf, loc: Loc) -> Option<Expr> {
        let cond = self.expr(scope, &i.cond)?;
        if cond.ty != SpecTy::Bool {
            self.err(loc, "an `if` condition is a boolean");
            return None;
        }
        let then = self.block_expr(scope, &i.then_branch)?;
        let Some((_, els)) = &i.else_branch else {
            self.err(loc, "an `if` needs an `else` (it is an expression)");
            return None;
        };
        let els = self.expr(scope, els)?;
        let ty = match (&then.ty, &els.ty) {
            (SpecTy::Bool, SpecTy::Bool) => SpecTy::Bool,
            (a, b) if a.is_int() && b.is_int() => {
                if a == b {
                    a.clone()
                } else {
                    SpecTy::Wide
                }
            }
            _ => {
                self.err(loc, "both arms of an `if` have the same type");
                return None;
            }
        };
        let text = format!(
            "if {} {{ {} }} else {{ {} }}",
            cond.text, then.text, els.text
        );
        Some(Expr {
            line: 0,
            kind: ExprKind::If(Box::new(cond), Box::new(then), Box::new(els)),
            ty,
            text,
        })
    }

    fn block_expr(&mut self, scope: &Scope<'_>, block: &syn::Block) -> Option<Expr> {
        match block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => self.expr(scope, e),
            _ => {
                self.err(
                    scope.loc(span_of(block)),
                    "a block holds exactly one expression",
                );
                None
            }
        }
    }
}

#[derive(Clone)]
enum Decl {
    Enum(EnumId),
    Record(RecordId),
    Alias(Ty),
}

/// Every enum, record and typedef under the key of each spec name it answers to (enums, then
/// records, then typedefs, each in model order), so resolving a name does not scan the model.
fn declaration_index(model: &Model) -> BTreeMap<String, Vec<(String, Decl)>> {
    let mut index: BTreeMap<String, Vec<(String, Decl)>> = BTreeMap::new();
    for (k, e) in model.enums.iter().enumerate() {
        index
            .entry(spec_key(super::names::short(&e.c_name)))
            .or_default()
            .push((e.c_name.clone(), Decl::Enum(k)));
    }
    for (k, r) in model.records.iter().enumerate() {
        let s = super::names::short(&r.c_name);
        let (full, bare) = (
            spec_key(s),
            spec_key(s.strip_suffix(crate::vendor::STRUCT_SUFFIX).unwrap_or(s)),
        );
        index
            .entry(full.clone())
            .or_default()
            .push((r.c_name.clone(), Decl::Record(k)));
        if bare != full {
            index
                .entry(bare)
                .or_default()
                .push((r.c_name.clone(), Decl::Record(k)));
        }
    }
    for t in &model.typedefs {
        index
            .entry(spec_key(super::names::short(&t.c_name)))
            .or_default()
            .push((t.c_name.clone(), Decl::Alias(t.target.clone())));
    }
    index
}

/// Settles which shape each function's `Inst` parameter is bound to: the shape it reads
/// directly, or the shape of a shape-bound function it passes the instruction to.
/// Returns the conflicts, as (function index, where, what): that function cannot be translated.
fn infer_inst_kinds(model: &Model, fns: &mut [SpecFn]) -> Vec<(usize, Loc, String)> {
    let mut conflicts = Vec::new();
    fn direct(e: &Expr, out: &mut Vec<(usize, u32)>) {
        if let ExprKind::Inst(_, InstRoot::Shape(s)) = e.kind {
            out.push((s, e.line));
        }
        for c in children(e) {
            direct(c, out);
        }
    }
    let at = |f: &SpecFn, line: u32| {
        Loc::new(
            f.loc.file.clone(),
            if line == 0 { f.loc.line } else { line },
        )
    };
    let n = fns.len();
    let mut kind: Vec<Option<usize>> = vec![None; n];
    for (k, f) in fns.iter().enumerate() {
        let mut reads = Vec::new();
        direct(&f.body, &mut reads);
        // The first shape read binds the function; a read of another shape is reported where it is.
        if let Some(&(first, _)) = reads.first() {
            if let Some(&(other, line)) = reads.iter().find(|(s, _)| *s != first) {
                conflicts.push((
                    k,
                    at(f, line),
                    format!(
                        "`{}` reads through several shapes (`{}` and `{}`)",
                        f.name, model.shapes[first].member, model.shapes[other].member
                    ),
                ));
            }
        }
        kind[k] = reads.first().map(|(s, _)| *s);
    }
    // Propagate through calls until nothing changes.
    loop {
        let mut changed = false;
        for k in 0..n {
            for (c, line) in inst_calls(&fns[k].body) {
                if let Some(s) = kind[c] {
                    match kind[k] {
                        None => {
                            kind[k] = Some(s);
                            changed = true;
                        }
                        Some(t) if t != s => {
                            conflicts.push((
                                k,
                                at(&fns[k], line),
                                format!(
                                    "`{}` passes an instruction of shape `{}` to `{}`, which reads shape `{}`",
                                    fns[k].name, model.shapes[t].member, fns[c].name, model.shapes[s].member
                                ),
                            ));
                            kind[c] = None;
                        }
                        _ => {}
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for (k, f) in fns.iter_mut().enumerate() {
        let ik = kind[k].map_or(InstKind::Any, InstKind::Shape);
        for (_, t) in &mut f.params {
            if let SpecTy::Inst(_) = t {
                *t = SpecTy::Inst(ik);
            }
        }
    }
    retag_inst_args(fns);
    conflicts
}

/// For each function, the fields of `NEURON_ISA_TPB_INST_COMMON` it reads as `i.common.<field>`,
/// itself or in a function it passes the instruction to (indices into that record's fields,
/// ascending, without repeats).
fn common_reads(fns: &[SpecFn]) -> Vec<Vec<usize>> {
    let mut reads: Vec<Vec<usize>> = fns
        .iter()
        .map(|f| {
            let mut at = Vec::new();
            direct_common_reads(&f.body, &mut at);
            at.into_iter().map(|(j, _)| j).collect()
        })
        .collect();
    // Through calls, until nothing changes (a call cycle settles too).
    loop {
        let mut changed = false;
        for k in 0..fns.len() {
            for (c, _) in inst_calls(&fns[k].body) {
                for j in reads[c].clone() {
                    if !reads[k].contains(&j) {
                        reads[k].push(j);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for r in &mut reads {
        r.sort_unstable();
        r.dedup();
    }
    reads
}

/// The fields of `i.common` that `e` reads directly: (field index, line), in reading order.
fn direct_common_reads(e: &Expr, out: &mut Vec<(usize, u32)>) {
    if let ExprKind::Field(base, _, k) = &e.kind {
        if matches!(base.kind, ExprKind::Inst(_, InstRoot::Common)) {
            out.push((*k, e.line));
        }
    }
    for c in children(e) {
        direct_common_reads(c, out);
    }
}

/// The calls in `e` that pass an instruction: (callee, line).
fn inst_calls(e: &Expr) -> Vec<(usize, u32)> {
    fn walk(e: &Expr, out: &mut Vec<(usize, u32)>) {
        if let ExprKind::Call(f, args) = &e.kind {
            if args.iter().any(|a| matches!(a.ty, SpecTy::Inst(_))) {
                out.push((*f, e.line));
            }
        }
        for c in children(e) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// The first field of `reads` (of `NEURON_ISA_TPB_INST_COMMON`) that shape `shape` does not
/// carry ([`Model::shape_carries_common`]).
pub fn uncarried_common_field(model: &Model, shape: usize, reads: &[usize]) -> Option<usize> {
    let common = model.record_named(crate::vendor::INST_COMMON)?;
    reads
        .iter()
        .copied()
        .find(|&j| !model.shape_carries_common(shape, common, j))
}

/// Functions whose `i.common.<field>` reads no operand struct can serve: a shape-bound function
/// reading (itself or through a callee) a common field its shape does not carry, and a
/// shape-generic one reading a common field no shape carries. In C the read reinterprets other
/// bytes of the union; the generated code reads fields by name, so such a function is not
/// translated. Returns (function index, where, what), as [`infer_inst_kinds`] does.
fn common_field_conflicts(model: &Model, fns: &[SpecFn]) -> Vec<(usize, Loc, String)> {
    let Some(common) = model.record_named(crate::vendor::INST_COMMON) else {
        return Vec::new();
    };
    let reads = common_reads(fns);
    let field = |j: usize| {
        let f = &model.records[common].fields[j];
        format!("`{}` at {}", f.name, f.offset)
    };
    let at = |f: &SpecFn, line: u32| {
        Loc::new(
            f.loc.file.clone(),
            if line == 0 { f.loc.line } else { line },
        )
    };
    let mut conflicts = Vec::new();
    for (k, f) in fns.iter().enumerate() {
        let mut direct = Vec::new();
        direct_common_reads(&f.body, &mut direct);
        match f.inst_kind() {
            Some(InstKind::Shape(s)) => {
                let member = &model.shapes[s].member;
                let record = &model.records[model.shapes[s].record].c_name;
                let missing = direct
                    .iter()
                    .find(|(j, _)| !model.shape_carries_common(s, common, *j))
                    .map(|&(j, line)| {
                        (
                            line,
                            format!(
                                "`{}` reads `i.common` field {} through shape `{member}`, and {record} has no such field",
                                f.name,
                                field(j)
                            ),
                        )
                    })
                    .or_else(|| {
                        inst_calls(&f.body).into_iter().find_map(|(c, line)| {
                            let j = uncarried_common_field(model, s, &reads[c])?;
                            Some((
                                line,
                                format!(
                                    "`{}` passes an instruction of shape `{member}` to `{}`, which reads `i.common` field {}, and {record} has no such field",
                                    f.name,
                                    fns[c].name,
                                    field(j)
                                ),
                            ))
                        })
                    });
                if let Some((line, why)) = missing {
                    conflicts.push((k, at(f, line), why));
                }
            }
            Some(InstKind::Any) => {
                let nowhere = direct.iter().find(|(j, _)| {
                    !(0..model.shapes.len()).any(|s| model.shape_carries_common(s, common, *j))
                });
                if let Some(&(j, line)) = nowhere {
                    conflicts.push((
                        k,
                        at(f, line),
                        format!(
                            "`{}` reads `i.common` field {}, which no operand struct has",
                            f.name,
                            field(j)
                        ),
                    ));
                }
            }
            None => {}
        }
    }
    conflicts
}

/// Argument and parameter expressions of type `Inst` carry the kind of their function.
fn retag_inst_args(fns: &mut [SpecFn]) {
    fn walk(e: &mut Expr, kind: Option<InstKind>) {
        if let (ExprKind::Param(_), SpecTy::Inst(_), Some(k)) = (&e.kind, &e.ty, kind) {
            e.ty = SpecTy::Inst(k);
        }
        for c in children_mut(e) {
            walk(c, kind);
        }
    }
    for f in fns.iter_mut() {
        let k = f.inst_kind();
        walk(&mut f.body, k);
    }
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

fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
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

/// Checks that no function nests deeper than [`crate::read::spec::MAX_SPEC_DEPTH`] with the
/// bodies of the functions it calls inlined (the partial evaluator and the instance search
/// recurse through calls), and that no function calls itself, directly or not (the language has
/// no recursion). Each violation is an error at the function's line. Runs before any evaluation;
/// the walks here recurse at most as deep as one body, which the read stage bounded.
pub fn check_depth(fns: &[SpecFn], sink: &mut Sink) {
    use crate::read::spec::MAX_SPEC_DEPTH;
    /// Depth of `e` with calls inlined, given the inlined depths of the functions called.
    fn depth(e: &Expr, inlined: &[Option<usize>]) -> usize {
        let own = match &e.kind {
            ExprKind::Call(f, _) => inlined[*f].unwrap_or(0),
            _ => 0,
        };
        1 + children(e)
            .into_iter()
            .map(|c| depth(c, inlined))
            .max()
            .unwrap_or(0)
            .max(own)
    }
    fn callees(e: &Expr, out: &mut Vec<usize>) {
        if let ExprKind::Call(f, _) = &e.kind {
            out.push(*f);
        }
        for c in children(e) {
            callees(c, out);
        }
    }
    let calls: Vec<Vec<usize>> = fns
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            callees(&f.body, &mut out);
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    // Callees first (an explicit stack, not recursion: call chains may be long); a function on
    // the current path again is a cycle.
    let mut inlined: Vec<Option<usize>> = vec![None; fns.len()];
    let mut state = vec![0u8; fns.len()]; // 0 new, 1 on the path, 2 done
    let mut cyclic = vec![false; fns.len()];
    for root in 0..fns.len() {
        if state[root] == 2 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            state[f] = 1;
            if let Some(&g) = calls[f].get(*next) {
                *next += 1;
                match state[g] {
                    0 => stack.push((g, 0)),
                    1 if !cyclic[f] => {
                        cyclic[f] = true;
                        let path: Vec<&str> = stack
                            .iter()
                            .skip_while(|(h, _)| *h != g)
                            .map(|(h, _)| fns[*h].name.as_str())
                            .chain([fns[g].name.as_str()])
                            .collect();
                        sink.push(
                                fns[f].loc.clone(),
                                format!(
                                    "spec function `{}` calls itself ({}); the spec language has no recursion",
                                    fns[f].name,
                                    path.join(" -> ")
                                ),
                            );
                    }
                    _ => {}
                }
                continue;
            }
            stack.pop();
            state[f] = 2;
            let d = depth(&fns[f].body, &inlined);
            inlined[f] = Some(d);
            if d > MAX_SPEC_DEPTH {
                sink.push(
                    fns[f].loc.clone(),
                    format!(
                        "spec function `{}` nests {d} levels deep with the functions it calls inlined; the limit is {MAX_SPEC_DEPTH} (docs/spec-language.md, \"Limits\")",
                        fns[f].name
                    ),
                );
            }
        }
    }
}
