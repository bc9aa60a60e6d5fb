//! A valid instance of an opcode, found from its validator: the field values of an
//! instruction the translated validator accepts, for the rustdoc example of typed
//! instructions without a typed constructor.
//!
//! A small depth-first search over the partial evaluator: evaluate the validator with the
//! fields assigned so far; a residual `true` is a solution (every field still unassigned may
//! keep its all-zero value), `false` a dead end; otherwise assign one field, taken from the
//! first residual conjunct that compares a field with a constant (the values that satisfy it
//! first), else the first field the residual reads, and go on. The search is bounded; a
//! validator it cannot satisfy gets no instance (the example then shows the verdict instead).

use super::eval::{compare, Evaluator, FieldPath, Formula, Inputs, Root, Step, Term, Value};
use super::spec::{BinOp, SpecTy};
use super::{Model, RecordId, Ty};
use crate::ctype::RecordKind;
use crate::model::OpcodeId;

/// Evaluations one search may spend. A search that succeeds takes few, far below this bound on
/// the shipped trees and the vendor-scale tree; one that fails spends all of them, and a tree
/// with many unsatisfiable validators (the vendor-scale tree's placeholder shapes) pays it once
/// per such search, so the bound is what keeps those searches cheap.
const BUDGET: usize = 500;

/// Field values (canonical paths) of an instruction the validator accepts, and the engine
/// member (index) it was evaluated for, when the validator takes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// The engine member the validator was run for (`None`: it takes no engine).
    pub engine: Option<usize>,
    /// Assigned fields; every other field is zero.
    pub fields: Vec<(FieldPath, i128)>,
}

/// A valid instance of opcode `op` (index), if its validator is one the search satisfies.
pub fn valid_instance(model: &Model, op: OpcodeId) -> Option<Instance> {
    let (_, v) = model.validators.iter().find(|(o, _)| *o == op)?;
    let f = &model.specs[v.func];
    let engine_param = model
        .engine_enum
        .and_then(|e| f.params.iter().position(|(_, t)| *t == SpecTy::Enum(e)));
    let engines: Vec<Option<usize>> = match (engine_param, model.engine_enum) {
        (Some(_), Some(e)) => model.enums[e]
            .members
            .iter()
            .enumerate()
            .filter(|(_, m)| m.alias_of.is_none())
            .map(|(k, _)| Some(k))
            .collect(),
        _ => vec![None],
    };
    for engine in engines {
        let fixed = Inputs {
            opcode: Some(i128::from(model.opcodes[op].value)),
            ..Inputs::default()
        };
        if let Some(fields) = search(model, op, &[engine], fixed) {
            return Some(Instance { engine, fields });
        }
    }
    None
}

/// Field values (canonical paths) of an instruction of opcode `op` that the validator accepts on
/// every engine of `engines` at once (`None`: the validator takes no engine), starting from the
/// fields (and opcode) of `fixed`; `None` when the bounded search finds none.
pub fn search(
    model: &Model,
    op: OpcodeId,
    engines: &[Option<usize>],
    fixed: Inputs,
) -> Option<Vec<(FieldPath, i128)>> {
    let (_, v) = model.validators.iter().find(|(o, _)| *o == op)?;
    let shape_record = model.shapes[model.opcodes[op].shape?].record;
    let args: Vec<Vec<Value>> = engines
        .iter()
        .map(|e| validator_args(model, v.func, *e))
        .collect();
    let mut search = Search {
        model,
        shape_record,
        func: v.func,
        args,
        budget: BUDGET,
    };
    search
        .run(fixed)
        .map(|env| env.fields.into_iter().collect())
}

/// The arguments of validator `func`: the instruction, the engine member `engine` for an engine
/// parameter (symbolic when `None`), the generation's own version for a version parameter.
pub fn validator_args(model: &Model, func: usize, engine: Option<usize>) -> Vec<Value> {
    let f = &model.specs[func];
    f.params
        .iter()
        .enumerate()
        .map(|(k, (_, t))| match t {
            SpecTy::Inst(_) => Value::Inst,
            SpecTy::Enum(e) if Some(*e) == model.engine_enum => match engine {
                Some(m) => Value::Num(Term::Int(model.enums[*e].members[m].value)),
                None => Value::Num(Term::Param(k)),
            },
            SpecTy::Enum(e) if model.enums[*e].c_name == crate::vendor::NEURON_CORE_VERSION => {
                Value::Num(Term::Int(i128::from(model.nc_version)))
            }
            _ => Value::Num(Term::Param(k)),
        })
        .collect()
}

struct Search<'a> {
    model: &'a Model,
    shape_record: RecordId,
    func: usize,
    /// One argument list per engine; the instance must satisfy all of them.
    args: Vec<Vec<Value>>,
    budget: usize,
}

impl Search<'_> {
    fn run(&mut self, env: Inputs) -> Option<Inputs> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let mut parts = Vec::new();
        for args in &self.args {
            let mut ev = Evaluator::new(self.model, &self.model.specs, self.shape_record);
            let Ok(Value::Bool(residual)) = ev.call(&env, self.func, args.clone()) else {
                return None;
            };
            parts.push(residual);
        }
        let residual = Formula::all(parts);
        match residual.known() {
            Some(true) => return Some(env),
            Some(false) => return None,
            None => {}
        }
        let (path, candidates) = self.choose(&residual, &env)?;
        for v in candidates {
            let mut next = env.clone();
            next.fields.insert(path.clone(), v);
            if let Some(found) = self.run(next) {
                return Some(found);
            }
        }
        None
    }

    /// The next field to assign and the values to try, in order.
    fn choose(&self, residual: &Formula, env: &Inputs) -> Option<(FieldPath, Vec<i128>)> {
        for c in residual.conjuncts() {
            if let Some(choice) = self.constraint(c, false, env) {
                return Some(choice);
            }
        }
        let mut reads = Vec::new();
        formula_reads(residual, &mut reads);
        let path = reads.into_iter().find(|p| self.assignable(p, env))?;
        let candidates = self.values(&path, |_| true, &[1, 0, 2]);
        Some((path, candidates))
    }

    /// A field compared with a constant somewhere in `f` (the first disjunct that has one).
    fn constraint(
        &self,
        f: &Formula,
        negated: bool,
        env: &Inputs,
    ) -> Option<(FieldPath, Vec<i128>)> {
        match f {
            Formula::Cmp(op, a, b) => {
                let (op, p, x) = match (a, b) {
                    (Term::Read(p), Term::Int(x)) => (*op, p, *x),
                    (Term::Int(x), Term::Read(p)) => (flip(*op), p, *x),
                    _ => return None,
                };
                if !self.assignable(p, env) {
                    return None;
                }
                let op = if negated { negate(op) } else { op };
                // Small values first; then 0 and 1 even if they fail this comparison (the
                // formula may hold through another disjunct).
                let mut candidates =
                    self.values(p, |v| compare(op, v, x), &[0, 1, x, x + 1, x - 1]);
                if candidates.is_empty() {
                    return None;
                }
                for v in self.values(p, |_| true, &[0, 1]) {
                    if !candidates.contains(&v) {
                        candidates.push(v);
                    }
                }
                Some((p.clone(), candidates))
            }
            Formula::Not(inner) => self.constraint(inner, !negated, env),
            Formula::And(parts) | Formula::Or(parts) => {
                parts.iter().find_map(|p| self.constraint(p, negated, env))
            }
            Formula::Const(_) => None,
        }
    }

    /// Values of the field's type that satisfy `ok`: `preferred` first, then (enums) every member.
    fn values(&self, p: &FieldPath, ok: impl Fn(i128) -> bool, preferred: &[i128]) -> Vec<i128> {
        let ty = p.ty(self.model, self.shape_record);
        let mut pool: Vec<i128> = Vec::new();
        match &ty {
            Ty::Enum(e) => {
                let members: Vec<i128> = self.model.enums[*e].distinct().map(|m| m.value).collect();
                pool.extend(preferred.iter().filter(|v| members.contains(v)));
                pool.extend(members);
            }
            Ty::Prim(prim) => pool.extend(preferred.iter().filter(|v| prim.holds(**v))),
            _ => {}
        }
        let mut out: Vec<i128> = Vec::new();
        for v in pool {
            if ok(v) && !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    /// A field not yet assigned, not the opcode, and, inside a union, a scalar member written
    /// whole (what the example can spell) and not a second member of a union another assigned
    /// path already writes through (the members share bytes).
    fn assignable(&self, p: &FieldPath, env: &Inputs) -> bool {
        if env.fields.contains_key(p) || p.root != Root::Shape {
            return false;
        }
        let through_union = p.steps.iter().enumerate().any(|(i, s)| {
            matches!(s, Step::Field(r, _) if self.model.records[*r].kind == RecordKind::Union)
                && i + 1 != p.steps.len()
        });
        if through_union
            || !matches!(
                p.ty(self.model, self.shape_record),
                Ty::Prim(_) | Ty::Enum(_)
            )
        {
            return false;
        }
        if let Some(Step::Field(r, k)) = p.steps.first() {
            if self.model.is_opcode_field(*r, *k) {
                return false;
            }
        }
        let mine = union_member(self.model, p);
        env.fields
            .keys()
            .all(|q| match (&mine, union_member(self.model, q)) {
                (Some((at, m)), Some((at2, m2))) => at != &at2 || *m == m2,
                _ => true,
            })
    }
}

/// The steps up to the first union on the path and the member taken there.
fn union_member(model: &Model, p: &FieldPath) -> Option<(Vec<Step>, usize)> {
    p.steps.iter().enumerate().find_map(|(i, s)| match s {
        Step::Field(r, k) if model.records[*r].kind == RecordKind::Union => {
            Some((p.steps[..i].to_vec(), *k))
        }
        _ => None,
    })
}

fn formula_reads(f: &Formula, out: &mut Vec<FieldPath>) {
    match f {
        Formula::Cmp(_, a, b) => {
            sym_reads(a, out);
            sym_reads(b, out);
        }
        Formula::And(parts) | Formula::Or(parts) => {
            parts.iter().for_each(|p| formula_reads(p, out))
        }
        Formula::Not(inner) => formula_reads(inner, out),
        Formula::Const(_) => {}
    }
}

fn sym_reads(s: &Term, out: &mut Vec<FieldPath>) {
    match s {
        Term::Read(p) if !out.contains(p) => out.push(p.clone()),
        Term::Bin(_, a, b) => {
            sym_reads(a, out);
            sym_reads(b, out);
        }
        Term::Neg(a) => sym_reads(a, out),
        Term::Ite(c, a, b) => {
            formula_reads(c, out);
            sym_reads(a, out);
            sym_reads(b, out);
        }
        _ => {}
    }
}

/// `x op y` as `y op' x`.
fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// `!(x op y)` as `x op' y`.
fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Eq => BinOp::Ne,
        BinOp::Ne => BinOp::Eq,
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        other => other,
    }
}
