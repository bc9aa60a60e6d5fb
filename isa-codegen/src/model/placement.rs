//! Engine placement: which engines run each opcode, interpreted from the vendor's generated C
//! function `neuron_isa_check_opcode_on_engine(opcode, engine)`
//! (`aws_neuron_isa_tpb_instr_assert.h`), evaluated for every opcode × engine member.
//!
//! The interpreter covers the C the vendor generates for these functions, parsed as a Rust block
//! ([`crate::read::cfunc`]): `if (c) { ... } [else ...]`, `return(expr);`, `return false;`,
//! `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `!`, parentheses, integer literals, enumerator
//! and constant names (full C names), parameter names, and calls to other such functions of the
//! tree (`is_pseudo_op(opcode)`). Anything else, or a name that resolves to nothing, is a
//! warning at its `file:line`, and the model has no placement.
//!
//! Each placed (opcode, engine) keeps its evidence: the interpreter follows which comparison
//! made the function return true (the disjunct of the `||` chain, say), and that line's trailing
//! note ([`crate::read::note`]) gives the level and the `headers/PROVENANCE.md` entries. A
//! malformed note is an error at its line; a placement line without a note is documented.

use super::Model;
use crate::diag::{Diagnostic, Loc, Sink};
use crate::model::IdVec;
use crate::model::OpcodeId;
use crate::read::cfunc::CFunction;
use crate::vendor::{NEURON_ENGINE, OPCODE_ENUM, PLACEMENT_FN};
use std::collections::BTreeMap;

/// Which engines run which opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Per opcode (index into [`Model::opcodes`]), the engine members (indices into the members
    /// of [`Model::engine_enum`], aliases left out) that run it, in member order.
    pub engines: IdVec<OpcodeId, Vec<usize>>,
    /// Per opcode, how each of its [`Placement::engines`] is known (same order).
    pub evidence: IdVec<OpcodeId, Vec<PlacementEvidence>>,
    /// Where `neuron_isa_check_opcode_on_engine` is defined.
    pub loc: Loc,
}

impl Placement {
    /// The number of opcodes some engine runs.
    pub fn placed(&self) -> usize {
        self.engines.iter().filter(|e| !e.is_empty()).count()
    }

    /// How the placement of `op` on engine member `engine` is known; `None` when not placed.
    pub fn evidence_of(&self, op: OpcodeId, engine: usize) -> Option<&PlacementEvidence> {
        let k = self.engines.get(op)?.iter().position(|&e| e == engine)?;
        self.evidence.get(op)?.get(k)
    }

    /// True when engine member `engine` runs opcode `op`.
    pub fn runs(&self, op: OpcodeId, engine: usize) -> bool {
        self.engines.get(op).is_some_and(|e| e.contains(&engine))
    }
}

/// How one placement is known: the note of the line that placed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementEvidence {
    /// The level ([`crate::read::note::EvidenceNote::evidence`]).
    pub evidence: isa_core::Evidence,
    /// The `headers/PROVENANCE.md` entries the note names.
    pub references: Vec<isa_core::Reference>,
    /// The line that placed it.
    pub loc: Loc,
}

/// Interprets `neuron_isa_check_opcode_on_engine` when the tree defines it; a problem with the
/// C is a warning and gives `None`, a malformed evidence note is an error at its line.
pub fn derive(model: &Model, functions: &[CFunction], sink: &mut Sink) -> Option<Placement> {
    let f = functions.iter().find(|f| f.name == PLACEMENT_FN)?;
    match placement(model, functions, f) {
        Ok((p, bad_notes)) => {
            for d in bad_notes {
                sink.push(d.loc, d.message);
            }
            Some(p)
        }
        Err(d) => {
            sink.warn(
                d.loc,
                format!(
                    "engine placement not derived (`{PLACEMENT_FN}` is not interpreted): {}",
                    d.message
                ),
            );
            None
        }
    }
}

fn placement(
    model: &Model,
    functions: &[CFunction],
    f: &CFunction,
) -> Result<(Placement, Vec<Diagnostic>), Diagnostic> {
    let Some(engine_enum) = model.engine_enum else {
        return Err(Diagnostic::new(
            f.loc.clone(),
            format!("the tree has no {NEURON_ENGINE}"),
        ));
    };
    let role = |t: &str| match t {
        OPCODE_ENUM => Some(true),
        NEURON_ENGINE => Some(false),
        _ => None,
    };
    let roles: Vec<Option<bool>> = f.params.iter().map(|(t, _)| role(t)).collect();
    if roles != [Some(true), Some(false)] && roles != [Some(false), Some(true)] {
        return Err(Diagnostic::new(
            f.loc.clone(),
            format!("its parameters are not ({OPCODE_ENUM}, {NEURON_ENGINE})"),
        ));
    }
    let mut names: BTreeMap<&str, i128> = BTreeMap::new();
    for e in &model.enums {
        for m in &e.members {
            names.insert(&m.c_name, m.value);
        }
    }
    for c in &model.constants {
        names.insert(&c.c_name, c.value);
    }
    let interp = Interp {
        functions: functions.iter().map(|f| (f.name.as_str(), f)).collect(),
        names,
        parsed: std::cell::RefCell::new(BTreeMap::new()),
    };
    let members: Vec<(usize, i128)> = model.enums[engine_enum]
        .members
        .iter()
        .enumerate()
        .filter(|(_, m)| m.alias_of.is_none())
        .map(|(k, m)| (k, m.value))
        .collect();
    let mut engines = Vec::with_capacity(model.opcodes.len());
    let mut evidence = Vec::with_capacity(model.opcodes.len());
    let mut bad_notes = Vec::new();
    for op in &model.opcodes {
        let mut on = Vec::new();
        let mut known = Vec::new();
        for &(k, value) in &members {
            let args: Vec<i128> = roles
                .iter()
                .map(|r| {
                    if *r == Some(true) {
                        i128::from(op.value)
                    } else {
                        value
                    }
                })
                .collect();
            let v = interp.call(f, &args, 0)?;
            if v.0 != 0 {
                on.push(k);
                let loc = v.1.unwrap_or_else(|| f.loc.clone());
                match interp.evidence_at(&loc) {
                    Ok(e) => known.push(e),
                    Err(d) => bad_notes.push(d),
                }
            }
        }
        engines.push(on);
        evidence.push(known);
    }
    bad_notes.sort();
    bad_notes.dedup();
    let p = Placement {
        engines: engines.into_iter().collect(),
        evidence: evidence.into_iter().collect(),
        loc: f.loc.clone(),
    };
    Ok((p, bad_notes))
}

/// A value of the interpreted C: every scalar is an integer; `bool` is 0 or 1. A true value
/// carries the line of the comparison that made it true (its witness), when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Val(i128, Option<Loc>);

struct Interp<'a> {
    functions: BTreeMap<&'a str, &'a CFunction>,
    names: BTreeMap<&'a str, i128>,
    parsed: std::cell::RefCell<BTreeMap<String, syn::Block>>,
}

/// How a statement list ends: a `return` with its value, or by falling through.
enum Flow {
    Return(Val),
    Next,
}

type Env<'e> = [(&'e str, Val)];

impl Interp<'_> {
    /// The evidence of a placement decided at `loc`, from that line's note.
    fn evidence_at(&self, loc: &Loc) -> Result<PlacementEvidence, Diagnostic> {
        let note = self
            .functions
            .values()
            .filter(|g| g.loc.file == loc.file)
            .find_map(|g| g.note_at(loc.line));
        let parsed = match note {
            Some(text) => crate::read::note::parse(text).map_err(|e| {
                Diagnostic::new(
                    loc.clone(),
                    format!("the evidence note of this `{PLACEMENT_FN}` line: {e}"),
                )
            })?,
            None => crate::read::note::EvidenceNote::default(),
        };
        Ok(PlacementEvidence {
            evidence: parsed.evidence(),
            references: parsed.references,
            loc: loc.clone(),
        })
    }

    fn call(&self, f: &CFunction, args: &[i128], depth: usize) -> Result<Val, Diagnostic> {
        if depth > 32 {
            return Err(Diagnostic::new(
                f.loc.clone(),
                format!("calls nest deeper than 32 at `{}`", f.name),
            ));
        }
        let block = {
            let mut cache = self.parsed.borrow_mut();
            match cache.get(&f.name) {
                Some(b) => b.clone(),
                None => {
                    let b = f.parse_body()?;
                    self.check_names(f, &b)?;
                    cache.insert(f.name.clone(), b.clone());
                    b
                }
            }
        };
        let env: Vec<(&str, Val)> = f
            .params
            .iter()
            .zip(args)
            .map(|((_, n), v)| (n.as_str(), Val(*v, None)))
            .collect();
        match self.block(f, &block, &env, depth)? {
            Flow::Return(v) => Ok(v),
            Flow::Next => Err(Diagnostic::new(
                f.loc.clone(),
                format!("C function `{}` can end without `return`", f.name),
            )),
        }
    }

    /// Every name of the body resolves (a parameter, an enumerator, a constant, a function),
    /// including names on paths no input reaches.
    fn check_names(&self, f: &CFunction, block: &syn::Block) -> Result<(), Diagnostic> {
        struct Names<'n> {
            found: Vec<(String, proc_macro2::Span, bool)>,
            _p: std::marker::PhantomData<&'n ()>,
        }
        impl<'ast> syn::visit::Visit<'ast> for Names<'_> {
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let syn::Expr::Path(p) = &*c.func {
                    let name = crate::read::cdecl::path_last(&p.path);
                    self.found
                        .push((name, syn::spanned::Spanned::span(&p.path), true));
                    for a in &c.args {
                        self.visit_expr(a);
                    }
                    return;
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                let name = crate::read::cdecl::path_last(&p.path);
                self.found
                    .push((name, syn::spanned::Spanned::span(&p.path), false));
            }
        }
        let mut v = Names {
            found: Vec::new(),
            _p: std::marker::PhantomData,
        };
        syn::visit::Visit::visit_block(&mut v, block);
        for (name, span, called) in v.found {
            let known = if called {
                self.functions.contains_key(name.as_str())
            } else {
                f.params.iter().any(|(_, n)| *n == name) || self.names.contains_key(name.as_str())
            };
            if !known {
                return Err(Diagnostic::new(
                    f.loc_of(span),
                    if called {
                        format!(
                            "C function `{}` calls `{name}`, which is no `STATIC inline bool` function of the tree",
                            f.name
                        )
                    } else {
                        format!(
                            "C function `{}`: `{name}` is neither a parameter, an enumerator nor a constant of the tree",
                            f.name
                        )
                    },
                ));
            }
        }
        Ok(())
    }

    fn outside(&self, f: &CFunction, span: proc_macro2::Span, what: &str) -> Diagnostic {
        Diagnostic::new(
            f.loc_of(span),
            format!(
                "C function `{}`: {what} is outside the C subset the generator interprets",
                f.name
            ),
        )
    }

    fn block(
        &self,
        f: &CFunction,
        block: &syn::Block,
        env: &Env<'_>,
        depth: usize,
    ) -> Result<Flow, Diagnostic> {
        use syn::spanned::Spanned;
        for stmt in &block.stmts {
            let flow = match stmt {
                syn::Stmt::Expr(syn::Expr::If(i), _) => self.if_stmt(f, i, env, depth)?,
                syn::Stmt::Expr(syn::Expr::Return(r), _) => match &r.expr {
                    Some(e) => {
                        let Val(v, witness) = self.expr(f, e, env, depth)?;
                        let here = (v != 0).then(|| f.loc_of(r.span()));
                        Flow::Return(Val(v, witness.or(here)))
                    }
                    None => return Err(self.outside(f, r.span(), "`return` without a value")),
                },
                syn::Stmt::Expr(syn::Expr::Block(b), None) => {
                    self.block(f, &b.block, env, depth)?
                }
                other => return Err(self.outside(f, other.span(), "this statement")),
            };
            if let Flow::Return(v) = flow {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn if_stmt(
        &self,
        f: &CFunction,
        i: &syn::ExprIf,
        env: &Env<'_>,
        depth: usize,
    ) -> Result<Flow, Diagnostic> {
        if self.expr(f, &i.cond, env, depth)?.0 != 0 {
            return self.block(f, &i.then_branch, env, depth);
        }
        match &i.else_branch {
            None => Ok(Flow::Next),
            Some((_, e)) => match &**e {
                syn::Expr::If(inner) => self.if_stmt(f, inner, env, depth),
                syn::Expr::Block(b) => self.block(f, &b.block, env, depth),
                other => Err(self.outside(f, syn::spanned::Spanned::span(other), "this `else`")),
            },
        }
    }

    fn expr(
        &self,
        f: &CFunction,
        e: &syn::Expr,
        env: &Env<'_>,
        depth: usize,
    ) -> Result<Val, Diagnostic> {
        use syn::spanned::Spanned;
        match e {
            syn::Expr::Paren(p) => self.expr(f, &p.expr, env, depth),
            syn::Expr::Group(g) => self.expr(f, &g.expr, env, depth),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => {
                let suffix_ok = i
                    .suffix()
                    .chars()
                    .all(|c| matches!(c, 'u' | 'U' | 'l' | 'L'));
                match i.base10_parse::<i128>() {
                    Ok(v) if suffix_ok => Ok(Val(v, None)),
                    _ => Err(self.outside(f, i.span(), &format!("the literal `{i}`"))),
                }
            }
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => Ok(Val(i128::from(b.value), None)),
            syn::Expr::Path(p) if p.path.segments.len() == 1 && p.qself.is_none() => {
                let name = p.path.segments[0].ident.to_string();
                if let Some((_, v)) = env.iter().find(|(n, _)| *n == name) {
                    return Ok(v.clone());
                }
                if let Some(v) = self.names.get(name.as_str()) {
                    return Ok(Val(*v, None));
                }
                Err(Diagnostic::new(
                    f.loc_of(p.span()),
                    format!(
                        "C function `{}`: `{name}` is neither a parameter, an enumerator nor a constant of the tree",
                        f.name
                    ),
                ))
            }
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => Ok(Val(
                i128::from(self.expr(f, &u.expr, env, depth)?.0 == 0),
                None,
            )),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                Ok(Val(-self.expr(f, &u.expr, env, depth)?.0, None))
            }
            syn::Expr::Binary(b) => {
                let Val(l, left_witness) = self.expr(f, &b.left, env, depth)?;
                // `&&` and `||` short-circuit, as in C; a true `||` is witnessed by its true
                // side, a true `&&` by its last conjunct.
                match b.op {
                    syn::BinOp::And(_) if l == 0 => return Ok(Val(0, None)),
                    syn::BinOp::Or(_) if l != 0 => return Ok(Val(1, left_witness)),
                    _ => {}
                }
                let Val(r, right_witness) = self.expr(f, &b.right, env, depth)?;
                if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) {
                    let witness = right_witness.or(left_witness).filter(|_| r != 0);
                    return Ok(Val(i128::from(r != 0), witness));
                }
                let v = match b.op {
                    syn::BinOp::Eq(_) => l == r,
                    syn::BinOp::Ne(_) => l != r,
                    syn::BinOp::Lt(_) => l < r,
                    syn::BinOp::Le(_) => l <= r,
                    syn::BinOp::Gt(_) => l > r,
                    syn::BinOp::Ge(_) => l >= r,
                    _ => return Err(self.outside(f, b.op.span(), "this operator")),
                };
                Ok(Val(i128::from(v), v.then(|| f.loc_of(b.span()))))
            }
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    return Err(self.outside(f, c.span(), "this call"));
                };
                let name = crate::read::cdecl::path_last(&p.path);
                let Some(callee) = self.functions.get(name.as_str()) else {
                    return Err(Diagnostic::new(
                        f.loc_of(c.span()),
                        format!(
                            "C function `{}` calls `{name}`, which is no `STATIC inline bool` function of the tree",
                            f.name
                        ),
                    ));
                };
                if callee.params.len() != c.args.len() {
                    return Err(Diagnostic::new(
                        f.loc_of(c.span()),
                        format!(
                            "C function `{}` calls `{name}` with {} arguments; it takes {}",
                            f.name,
                            c.args.len(),
                            callee.params.len()
                        ),
                    ));
                }
                let mut args = Vec::new();
                for a in &c.args {
                    args.push(self.expr(f, a, env, depth)?.0);
                }
                self.call(callee, &args, depth + 1)
            }
            other => Err(self.outside(f, other.span(), "this expression")),
        }
    }
}
