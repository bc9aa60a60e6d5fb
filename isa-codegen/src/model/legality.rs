//! Legality tables, derived: each `<opcode>_legal_combinations` spec function is
//! evaluated over every value of its enum inputs; an input tuple is a legal arm
//! when the function reduces to exactly one element-count equation `count == N`.
//! For every arm the opcode's validator is then evaluated under the arm to find
//! the field values it pins (`inst_word_len == 16`, `imm_state[7] == 0`, ...),
//! which the typed constructors write.

use super::eval::{formula_text, term_text, Evaluator, FieldPath, Formula, Inputs, Term, Value};
use super::spec::{disjuncts, BinOp, SpecFn, SpecTy};
use super::{EnumId, Model, RecordId};
use crate::diag::Sink;
use crate::model::{OpcodeId, ShapeId};

/// Where a column's value goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnSource {
    /// A parameter of the legality function (the engine).
    Param(usize),
    /// A field of the instruction.
    Field(FieldPath),
}

/// One input of a legality table.
#[derive(Clone, Debug)]
pub struct Column {
    /// Column name: `engine` for the engine parameter, else the field path with `_` for `.`.
    pub name: String,
    /// Its enum.
    pub enum_id: EnumId,
    /// Where it comes from.
    pub source: ColumnSource,
}

/// One legal arm.
#[derive(Clone, Debug)]
pub struct Arm {
    /// Member index (into the column's enum) per column.
    pub values: Vec<usize>,
    /// State words (the `N` of `count == N`).
    pub words: u32,
    /// The element-count expression of this arm.
    pub count: Term,
    /// Index of the disjunct of the legality function that admits it.
    pub disjunct: usize,
    /// Field values the opcode's validator pins under this arm (canonical paths).
    pub pinned: Vec<(FieldPath, i128)>,
    /// How the arm's contents are known, when the header notes it on the disjunct's first line
    /// (`(   (e == NeuronEngine::Pool)  // inferred (A27, C4)`); `None`: as the header states it.
    pub evidence: Option<isa_core::Evidence>,
}

/// The legality table of one opcode.
#[derive(Clone, Debug)]
pub struct Table {
    /// Opcode index.
    pub opcode: OpcodeId,
    /// Shape index.
    pub shape: ShapeId,
    /// The legality spec function.
    pub func: usize,
    /// Inputs.
    pub columns: Vec<Column>,
    /// Legal arms, in the order the function lists them.
    pub arms: Vec<Arm>,
    /// The element-count expression, as text (the same for every arm).
    pub count_text: String,
}

impl Table {
    /// The column for an enum (the first), if any.
    pub fn column_of(&self, enum_id: EnumId) -> Option<usize> {
        self.columns.iter().position(|c| c.enum_id == enum_id)
    }
}

fn column_name(model: &Model, shape_record: RecordId, c: &ColumnSource, fns: &SpecFn) -> String {
    match c {
        ColumnSource::Param(k) => {
            let (name, ty) = &fns.params[*k];
            match ty {
                SpecTy::Enum(e) if model.enums[*e].c_name == crate::vendor::NEURON_ENGINE => {
                    "engine".into()
                }
                _ => name.clone(),
            }
        }
        ColumnSource::Field(p) => p
            .name(model, shape_record)
            .replace(['.', '['], "_")
            .replace(']', ""),
    }
}

/// Derives the tables of every `<opcode>_legal_combinations` function.
pub fn derive(
    model: &Model,
    fns: &[SpecFn],
    validators: &[(OpcodeId, super::Validator)],
    sink: &mut Sink,
) -> Vec<Table> {
    let mut tables = Vec::new();
    for (fk, f) in fns.iter().enumerate() {
        let Some(prefix) = f.name.strip_suffix(crate::vendor::LEGALITY_SUFFIX) else {
            continue;
        };
        let Some(op) = model
            .opcode_entries()
            .find_map(|(k, o)| o.short.eq_ignore_ascii_case(prefix).then_some(k))
        else {
            sink.push(
                f.loc.clone(),
                format!(
                    "`{}` names no opcode: `{}` is not an opcode of this tree",
                    f.name,
                    prefix.to_ascii_uppercase()
                ),
            );
            continue;
        };
        let Some(shape) = model.opcodes[op].shape else {
            sink.push(
                f.loc.clone(),
                format!(
                    "`{}`: opcode {} has no operand struct",
                    f.name, model.opcodes[op].short
                ),
            );
            continue;
        };
        if let (Some(common), Some(j)) = (
            model.record_named(crate::vendor::INST_COMMON),
            super::spec::uncarried_common_field(model, shape, &f.common_reads),
        ) {
            sink.push(
                f.loc.clone(),
                format!(
                    "`{}` reads `i.common.{}`, which {} does not have",
                    f.name,
                    model.records[common].fields[j].name,
                    model.records[model.shapes[shape].record].c_name
                ),
            );
            continue;
        }
        let mut line = 0;
        match table(model, fns, fk, op, shape, validators, &mut line) {
            Ok(t) => tables.push(t),
            Err(msg) if line > 0 => sink.push(crate::diag::Loc::new(f.loc.file.clone(), line), msg),
            Err(msg) => sink.push(f.loc.clone(), msg),
        }
    }
    tables
}

fn initial_args(f: &SpecFn) -> Vec<Value> {
    f.params
        .iter()
        .enumerate()
        .map(|(k, (_, t))| match t {
            SpecTy::Inst(_) => Value::Inst,
            _ => Value::Num(Term::Param(k)),
        })
        .collect()
}

/// The legality table of opcode `op` (shape `shape`) from legality function `fns[fk]`.
fn table(
    model: &Model,
    fns: &[SpecFn],
    fk: usize,
    op: OpcodeId,
    shape: ShapeId,
    validators: &[(OpcodeId, super::Validator)],
    // Set to the spec line of the disjunct an error concerns, when it concerns one.
    line: &mut u32,
) -> Result<Table, String> {
    let f = &fns[fk];
    let shape_record = model.shapes[shape].record;
    let columns = columns(model, fns, fk, shape_record)?;
    let domains = domains(model, f, &columns)?;
    let body_disjuncts: Vec<&super::spec::Expr> = disjuncts(&f.body);
    let mut arms = Vec::new();
    let mut count_text: Option<String> = None;
    for values in candidates(model, fns, fk, shape_record, &columns, &domains)? {
        let Some(arm) = arm(
            model,
            fns,
            fk,
            shape_record,
            &columns,
            values,
            &body_disjuncts,
            line,
        )?
        else {
            continue;
        };
        let text = term_text(model, shape_record, &arm.count);
        match &count_text {
            None => count_text = Some(text),
            Some(t) if *t != text => {
                return Err(format!(
                    "`{}`: arms count different things (`{t}` and `{text}` at {})",
                    f.name,
                    describe(model, &columns, &arm.values)
                ))
            }
            Some(_) => {}
        }
        arms.push(arm);
    }
    arms.sort_by_key(|a| a.disjunct);
    distinct_keys(model, f, &columns, &arms)?;
    // Pinned fields: the validator of the opcode, evaluated under each arm.
    if let Some((_, v)) = validators.iter().find(|(o, _)| *o == op) {
        for arm in &mut arms {
            arm.pinned = pinned(model, fns, v, shape_record, &columns, arm, op);
        }
    }
    Ok(Table {
        opcode: op,
        shape,
        func: fk,
        columns,
        arms,
        count_text: count_text.unwrap_or_default(),
    })
}

/// The inputs of legality function `fns[fk]`: its enum parameters, then the enum fields it reads.
fn columns(
    model: &Model,
    fns: &[SpecFn],
    fk: usize,
    shape_record: RecordId,
) -> Result<Vec<Column>, String> {
    let f = &fns[fk];
    let mut sources: Vec<(ColumnSource, EnumId)> = Vec::new();
    for (k, (name, t)) in f.params.iter().enumerate() {
        match t {
            SpecTy::Inst(_) => {}
            SpecTy::Enum(e) => sources.push((ColumnSource::Param(k), *e)),
            _ => {
                return Err(format!(
                    "`{}`: parameter `{name}` is not an enum, so the table cannot be enumerated",
                    f.name
                ))
            }
        }
    }
    let mut discover = Evaluator::new(model, fns, shape_record);
    discover
        .call(&Inputs::default(), fk, initial_args(f))
        .map_err(|e| e.0)?;
    for (path, e) in &discover.unassigned_enum_reads {
        sources.push((ColumnSource::Field(path.clone()), *e));
    }
    Ok(sources
        .iter()
        .map(|(s, e)| Column {
            name: column_name(model, shape_record, s, f),
            enum_id: *e,
            source: s.clone(),
        })
        .collect())
}

/// Input tuples beyond this many are not enumerated.
const MAX_TUPLES: usize = 1_000_000;

/// The members (aliases left out) each column ranges over.
fn domains(model: &Model, f: &SpecFn, columns: &[Column]) -> Result<Vec<Vec<usize>>, String> {
    let domains: Vec<Vec<usize>> = columns
        .iter()
        .map(|c| {
            let en = &model.enums[c.enum_id];
            en.members
                .iter()
                .enumerate()
                .filter(|(_, m)| m.alias_of.is_none())
                .map(|(k, _)| k)
                .collect()
        })
        .collect();
    let total: usize = domains.iter().map(Vec::len).product();
    if total > MAX_TUPLES {
        return Err(format!(
            "`{}`: {total} input tuples is too many to enumerate",
            f.name
        ));
    }
    Ok(domains)
}

/// The legal arm of input tuple `values`, if it is one: the function reduces to `count == N`
/// (`None` when it is false), and the first of `body_disjuncts` that admits it.
#[allow(clippy::too_many_arguments)]
fn arm(
    model: &Model,
    fns: &[SpecFn],
    fk: usize,
    shape_record: RecordId,
    columns: &[Column],
    values: Vec<usize>,
    body_disjuncts: &[&super::spec::Expr],
    line: &mut u32,
) -> Result<Option<Arm>, String> {
    let f = &fns[fk];
    let (env, args) = bind(model, f, columns, &values);
    let mut ev = Evaluator::new(model, fns, shape_record);
    let result = match ev.call(&env, fk, args.clone()).map_err(|e| e.0)? {
        Value::Bool(r) => r,
        _ => return Err(format!("`{}` does not return a boolean", f.name)),
    };
    let tuple = || describe(model, columns, &values);
    let (count, n) = match &result {
        Formula::Const(false) => return Ok(None),
        Formula::Cmp(BinOp::Eq, a, b) => match (a, b) {
            (c, Term::Int(n)) | (Term::Int(n), c) => (c.clone(), *n),
            _ => {
                return Err(format!(
                    "`{}` at {}: reduces to `{}`, not `<element count> == N`",
                    f.name,
                    tuple(),
                    formula_text(model, shape_record, &result)
                ))
            }
        },
        Formula::Const(true) => {
            return Err(format!(
                "`{}` at {}: no element-count clause (always true)",
                f.name,
                tuple()
            ));
        }
        other => {
            return Err(format!(
                "`{}` at {}: reduces to `{}`, not one `<element count> == N`",
                f.name,
                tuple(),
                formula_text(model, shape_record, other)
            ))
        }
    };
    // Which disjunct admits it: the first whose own evaluation is not false.
    let mut disjunct = 0;
    for (k, d) in body_disjuncts.iter().enumerate() {
        let mut pev = Evaluator::new(model, fns, shape_record);
        if let Ok(Value::Bool(r)) = pev.call_with_body(&env, fk, d, args.clone()) {
            if r != Formula::Const(false) {
                disjunct = k;
                break;
            }
        }
    }
    // A width of 0 would be a legal arm with no state at all (the spec language
    // defines `x / 0 = 0`, so a divisor of zero gets here silently).
    let words = u32::try_from(n).ok().filter(|&w| w > 0).ok_or_else(|| {
        *line = body_disjuncts.get(disjunct).map_or(0, |d| d.line);
        format!(
            "`{}` at {}: width {n} is not a word count (`{} == {n}`; a state has at least one word, and `x / 0` is 0 in the spec language)",
            f.name,
            tuple(),
            term_text(model, shape_record, &count)
        )
    })?;
    let evidence = match body_disjuncts.get(disjunct) {
        Some(d) => evidence_note(f, d.line).map_err(|e| {
            *line = d.line;
            format!(
                "`{}` at {}: the evidence note of this arm: {e}",
                f.name,
                tuple()
            )
        })?,
        None => None,
    };
    Ok(Some(Arm {
        values,
        words,
        count,
        disjunct,
        pinned: Vec::new(),
        evidence,
    }))
}

/// The evidence level a block line notes after its code: a nested comment whose first word is a
/// level (`// inferred (A27, C4)`, read by [`crate::read::note`], as placement notes are). A
/// comment without a level is prose; a malformed reference group is an error.
fn evidence_note(f: &SpecFn, line: u32) -> Result<Option<isa_core::Evidence>, String> {
    let text = line
        .checked_sub(f.loc.line)
        .and_then(|k| f.source.lines().nth(usize::try_from(k).ok()?));
    let Some(note) = text.and_then(|t| Some(&t[t.find("//")? + 2..])) else {
        return Ok(None);
    };
    Ok(crate::read::note::parse(note)?.level)
}

/// The type-level layer keys arms by every input but the state element type; two arms
/// with one key and one width would be the same trait impl.
fn distinct_keys(
    model: &Model,
    f: &SpecFn,
    columns: &[Column],
    arms: &[Arm],
) -> Result<(), String> {
    let dtype = model.enum_named(crate::vendor::DTYPE);
    for (k, a) in arms.iter().enumerate() {
        for b in &arms[..k] {
            let same_key = columns
                .iter()
                .enumerate()
                .all(|(c, col)| Some(col.enum_id) == dtype || a.values[c] == b.values[c]);
            if same_key && a.words == b.words {
                return Err(format!(
                    "`{}`: arms {} and {} differ only in the element type, which the arm must fix",
                    f.name,
                    describe(model, columns, &a.values),
                    describe(model, columns, &b.values)
                ));
            }
        }
    }
    Ok(())
}

/// The input tuples worth evaluating, in odometer order (last column fastest): every tuple but
/// those under a prefix of column values that already makes the function `false` whatever the
/// remaining columns hold (the other columns stay symbolic, so such a prefix decides them all).
fn candidates(
    model: &Model,
    fns: &[SpecFn],
    fk: usize,
    shape_record: RecordId,
    columns: &[Column],
    domains: &[Vec<usize>],
) -> Result<Vec<Vec<usize>>, String> {
    let mut out = Vec::new();
    // Depth-first over the columns: `stack` holds the prefixes still to expand, last first.
    let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        if prefix.len() == columns.len() {
            out.push(prefix);
            continue;
        }
        if !prefix.is_empty() {
            let (env, args) = bind(model, &fns[fk], &columns[..prefix.len()], &prefix);
            let mut ev = Evaluator::new(model, fns, shape_record);
            if ev.call(&env, fk, args).map_err(|e| e.0)? == Value::Bool(Formula::Const(false)) {
                continue;
            }
        }
        for v in domains[prefix.len()].iter().rev() {
            let mut next = prefix.clone();
            next.push(*v);
            stack.push(next);
        }
    }
    Ok(out)
}

fn bind(model: &Model, f: &SpecFn, columns: &[Column], values: &[usize]) -> (Inputs, Vec<Value>) {
    let mut env = Inputs::default();
    let mut args = initial_args(f);
    for (c, m) in columns.iter().zip(values) {
        let v = model.enums[c.enum_id].members[*m].value;
        match &c.source {
            ColumnSource::Param(k) => args[*k] = Value::Num(Term::Int(v)),
            ColumnSource::Field(p) => {
                env.fields.insert(p.clone(), v);
            }
        }
    }
    (env, args)
}

fn describe(model: &Model, columns: &[Column], values: &[usize]) -> String {
    let parts: Vec<String> = columns
        .iter()
        .zip(values)
        .map(|(c, m)| format!("{}={}", c.name, model.enums[c.enum_id].members[*m].short))
        .collect();
    format!("({})", parts.join(", "))
}

/// Equalities `field == value` among the top-level conjuncts of the validator's residual.
fn pinned(
    model: &Model,
    fns: &[SpecFn],
    v: &super::Validator,
    shape_record: RecordId,
    columns: &[Column],
    arm: &Arm,
    op: OpcodeId,
) -> Vec<(FieldPath, i128)> {
    let f = &fns[v.func];
    let mut env = Inputs {
        opcode: Some(i128::from(model.opcodes[op].value)),
        ..Inputs::default()
    };
    let mut args = initial_args(f);
    for (c, m) in columns.iter().zip(&arm.values) {
        let value = model.enums[c.enum_id].members[*m].value;
        match &c.source {
            ColumnSource::Field(p) => {
                env.fields.insert(p.clone(), value);
            }
            ColumnSource::Param(_) => {
                // The engine: bind the validator's own engine parameter, if it has one.
                for (k, (_, t)) in f.params.iter().enumerate() {
                    if *t == SpecTy::Enum(c.enum_id) {
                        args[k] = Value::Num(Term::Int(value));
                    }
                }
            }
        }
    }
    for (k, (_, t)) in f.params.iter().enumerate() {
        if let SpecTy::Enum(e) = t {
            if model.enums[*e].c_name == crate::vendor::NEURON_CORE_VERSION {
                args[k] = Value::Num(Term::Int(i128::from(model.nc_version)));
            }
        }
    }
    let mut ev = Evaluator::new(model, fns, shape_record);
    let Ok(Value::Bool(residual)) = ev.call(&env, v.func, args) else {
        return Vec::new();
    };
    let mut out: Vec<(FieldPath, i128)> = env.fields.iter().map(|(p, v)| (p.clone(), *v)).collect();
    for c in residual.conjuncts() {
        if let Formula::Cmp(BinOp::Eq, a, b) = c {
            match (a, b) {
                (Term::Read(p), Term::Int(x)) | (Term::Int(x), Term::Read(p))
                    if !out.iter().any(|(q, _)| q == p) =>
                {
                    out.push((p.clone(), *x));
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}
