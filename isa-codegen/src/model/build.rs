//! Builds a [`Model`] from a [`TreeInput`]: resolves types, computes and checks
//! layouts, reads opcode flags, binds the mapping. Every problem is collected
//! with its location; nothing is written when any is found.

use super::names::{camel, short};
use super::*;
use crate::diag::Sink;
use crate::read::cdecl::{CBitfield, CDecl, CEnum, CField, CRecord};
use crate::read::source::{banner_nc_version, LineIndex};
use crate::read::TreeInput;
use crate::vendor::{
    COMMON_HEADER, INST_COMMON, INST_NBYTES, INST_UNION, LEGALITY_SUFFIX, MAPPING_FILE,
    NEURON_CORE_VERSION, NEURON_ENGINE, OPCODE_ENUM, OPCODE_PREFIX, PSEUDO_PREFIX, STRUCT_SUFFIX,
    VALIDATOR_PREFIX,
};
use std::collections::BTreeMap;

struct Decls<'a> {
    enums: BTreeMap<&'a str, (&'a CEnum, &'a str)>,
    records: BTreeMap<&'a str, (&'a CRecord, &'a str)>,
    typedefs: BTreeMap<&'a str, (&'a CType, &'a Option<String>, &'a str)>,
}

/// Builds the model; all problems are reported together.
pub fn build(input: &TreeInput) -> Result<Model, crate::diag::Error> {
    let mut sink = Sink::default();
    let indexes: BTreeMap<&str, LineIndex> = input
        .headers
        .iter()
        .map(|h| (h.rel.as_str(), LineIndex::new(h)))
        .collect();
    let locate = |file: &str, name: &str| -> Loc {
        indexes
            .get(file)
            .map(|ix| ix.loc(ix.decl_line(name).unwrap_or(0)))
            .unwrap_or_else(|| Loc::new(file, 0))
    };
    let locate_member = |file: &str, anchor: &Loc, name: &str| -> Loc {
        indexes
            .get(file)
            .map(|ix| ix.loc(ix.member_line(anchor.line, name).unwrap_or(anchor.line)))
            .unwrap_or_else(|| anchor.clone())
    };

    // Name tables; a name declared twice is an error.
    let mut decls = Decls {
        enums: BTreeMap::new(),
        records: BTreeMap::new(),
        typedefs: BTreeMap::new(),
    };
    let mut seen: BTreeMap<String, Loc> = BTreeMap::new();
    let mut untranslated = Vec::new();
    for file in &input.decls {
        for (name, why) in &file.untranslatable {
            untranslated.push(Diagnostic::new(
                locate(&file.file, name),
                format!("`{name}` is not translated: {why}"),
            ));
        }
        for decl in &file.decls {
            let loc = locate(&file.file, decl.name());
            if let Some(prev) = seen.get(decl.name()) {
                sink.push(
                    loc,
                    format!("`{}` is declared again (first at {prev})", decl.name()),
                );
                continue;
            }
            seen.insert(decl.name().to_string(), loc);
            match decl {
                CDecl::Enum(e) => {
                    decls.enums.insert(&e.name, (e, &file.file));
                }
                CDecl::Record(r) => {
                    decls.records.insert(&r.name, (r, &file.file));
                }
                CDecl::Typedef { name, ty, doc } => {
                    decls.typedefs.insert(name, (ty, doc, &file.file));
                }
                CDecl::Const { .. } => {}
            }
        }
    }

    // Enums, in file order.
    let mut enums = Vec::new();
    for file in &input.decls {
        for decl in &file.decls {
            let CDecl::Enum(e) = decl else { continue };
            let loc = locate(&file.file, &e.name);
            let prefix = format!("{}_", e.name);
            let mut members: Vec<Member> = Vec::new();
            let mut rust_seen: BTreeMap<String, String> = BTreeMap::new();
            for m in &e.members {
                let short_name = m
                    .name
                    .strip_prefix(&prefix)
                    .or_else(|| m.name.strip_prefix(crate::vendor::VENDOR_PREFIX))
                    .unwrap_or(&m.name)
                    .to_string();
                let rust = camel(&short_name);
                let mloc = locate_member(&file.file, &loc, &m.name);
                if let Some(other) = rust_seen.insert(rust.clone(), m.name.clone()) {
                    sink.push(
                        mloc.clone(),
                        format!(
                            "`{}` and `{other}` both become the Rust variant `{rust}`",
                            m.name
                        ),
                    );
                }
                let alias_of = members
                    .iter()
                    .position(|x| x.value == m.value && x.alias_of.is_none());
                members.push(Member {
                    c_name: m.name.clone(),
                    short: short_name,
                    rust,
                    value: m.value,
                    comment: m.doc.clone(),
                    loc: mloc,
                    alias_of,
                });
            }
            enums.push(Enum {
                c_name: e.name.clone(),
                rust: camel(short(&e.name)),
                repr: e.underlying,
                members,
                doc: e.doc.clone(),
                loc,
            });
        }
    }
    let enum_ix: BTreeMap<String, EnumId> = enums
        .iter()
        .enumerate()
        .map(|(k, e)| (e.c_name.clone(), k))
        .collect();

    // Records: resolve in dependency order (a record's size is needed by its users).
    let record_names: Vec<(&CRecord, &str)> = input
        .decls
        .iter()
        .flat_map(|f| {
            f.decls.iter().filter_map(move |d| match d {
                CDecl::Record(r) => Some((r, f.file.as_str())),
                _ => None,
            })
        })
        .collect();
    let record_ix: BTreeMap<String, RecordId> = record_names
        .iter()
        .enumerate()
        .map(|(k, (r, _))| (r.name.clone(), k))
        .collect();
    // Where each record is declared; an anonymous one sits at its field of the enclosing record.
    let mut record_locs: Vec<Loc> = Vec::with_capacity(record_names.len());
    for (r, file) in &record_names {
        let loc = match &r.anonymous_in {
            Some((parent, field)) => {
                let parent_loc = record_ix
                    .get(parent)
                    .and_then(|&p| record_locs.get(p).cloned())
                    .unwrap_or_else(|| locate(file, parent));
                match field {
                    Some(f) => locate_member(file, &parent_loc, f),
                    None => parent_loc,
                }
            }
            None => locate(file, &r.name),
        };
        record_locs.push(loc);
    }
    let mut records: Vec<Option<Record>> = vec![None; record_names.len()];
    let mut state = vec![0u8; record_names.len()]; // 0 todo, 1 in progress, 2 done
    let mut ctx = Resolver {
        decls: &decls,
        enum_ix: &enum_ix,
        record_ix: &record_ix,
        enums: &enums,
    };
    for k in 0..record_names.len() {
        resolve_record(
            k,
            &record_names,
            &record_locs,
            &mut records,
            &mut state,
            &mut ctx,
            &mut sink,
            &locate,
            &locate_member,
        );
    }
    let records: Vec<Record> = records
        .into_iter()
        .enumerate()
        .map(|(k, r)| r.unwrap_or_else(|| placeholder(record_names[k].0, &record_locs[k])))
        .collect();

    // Typedefs of non-record types under another name.
    let mut typedefs = Vec::new();
    for (name, (ty, doc, file)) in &decls.typedefs {
        let loc = locate(file, name);
        match ctx.resolve(ty, &records) {
            Ok(target) => typedefs.push(Typedef {
                c_name: name.to_string(),
                target,
                c_type: (*ty).clone(),
                doc: (*doc).clone(),
                loc,
            }),
            Err(why) => untranslated.push(Diagnostic::new(
                loc,
                format!("typedef `{name}` is not translated: {why}"),
            )),
        }
    }
    typedefs.sort_by(|a, b| a.loc.cmp(&b.loc));

    // Constants.
    let mut constants = Vec::new();
    for file in &input.decls {
        for decl in &file.decls {
            if let CDecl::Const {
                name,
                ty,
                value,
                doc,
            } = decl
            {
                constants.push(Constant {
                    c_name: name.clone(),
                    short: short(name).to_string(),
                    ty: *ty,
                    value: *value,
                    doc: doc.clone(),
                    loc: locate(&file.file, name),
                });
            }
        }
    }

    // Banner and instruction size.
    let nc_version = match input.headers.iter().find(|h| h.rel == COMMON_HEADER) {
        Some(common) => match banner_nc_version(common) {
            Ok(v) => v,
            Err(d) => {
                sink.push(d.loc, d.message);
                0
            }
        },
        None => 0,
    };
    let inst_nbytes = match constants.iter().find(|c| c.c_name == INST_NBYTES) {
        Some(c) => c.value as u64,
        None => {
            sink.push(
                Loc::new(COMMON_HEADER, 0),
                format!("missing constant {INST_NBYTES} (the instruction size)"),
            );
            64
        }
    };

    // Opcodes.
    let opcode_enum = match enum_ix.get(OPCODE_ENUM) {
        Some(k) => *k,
        None => {
            sink.push(
                Loc::new(COMMON_HEADER, 0),
                format!("missing enum {OPCODE_ENUM}"),
            );
            return sink.finish(&input.tree_name, unreachable_model());
        }
    };
    let mut opcodes = Vec::new();
    let mut by_value: BTreeMap<i128, String> = BTreeMap::new();
    for m in &enums[opcode_enum].members {
        if let Some(prev) = by_value.get(&m.value) {
            sink.push(
                m.loc.clone(),
                format!(
                    "`{}` has value {:#04x}, which `{prev}` already has",
                    m.c_name, m.value
                ),
            );
            continue;
        }
        by_value.insert(m.value, m.c_name.clone());
        let Ok(value) = u8::try_from(m.value) else {
            sink.push(
                m.loc.clone(),
                format!("opcode `{}` = {} does not fit a byte", m.c_name, m.value),
            );
            continue;
        };
        opcodes.push(Opcode {
            c_name: m.c_name.clone(),
            short: m.short.clone(),
            rust: m.rust.clone(),
            value,
            status: parse_status(m.comment.as_deref()),
            pseudo: m.short.starts_with(PSEUDO_PREFIX),
            comment: m.comment.clone(),
            shape: None,
            loc: m.loc.clone(),
        });
    }

    // Union members: which member of the instruction union holds each struct.
    let inst_union = record_ix.get(INST_UNION).copied();
    let union_member = |rec: RecordId| -> Option<String> {
        let u = &records[inst_union?];
        u.fields
            .iter()
            .find(|f| f.ty == Ty::Record(rec))
            .map(|f| f.name.clone())
    };

    // Mapping → shapes.
    let mut shapes: Vec<Shape> = Vec::new();
    for entry in &input.mapping.entries {
        let loc = Loc::new(MAPPING_FILE, entry.line);
        let Some(&rec) = record_ix.get(entry.struct_name.as_str()) else {
            sink.push(
                loc,
                format!(
                    "mapping names struct `{}`, which no header declares",
                    entry.struct_name
                ),
            );
            continue;
        };
        let record = &records[rec];
        if record.size != inst_nbytes {
            sink.push(
                record.loc.clone(),
                format!(
                    "`{}` is {} bytes; every operand struct must be {inst_nbytes}",
                    record.c_name, record.size
                ),
            );
        }
        let code = short(&entry.struct_name)
            .strip_suffix(STRUCT_SUFFIX)
            .unwrap_or(short(&entry.struct_name))
            .to_string();
        let mut ops = Vec::new();
        // Line of each opcode already bound by this entry: a repeat is named with both lines.
        let mut listed: BTreeMap<usize, u32> = BTreeMap::new();
        for (name, &op_line) in entry.opcodes.iter().zip(&entry.opcode_lines) {
            let op_loc = || Loc::new(MAPPING_FILE, op_line);
            let suffix = name.strip_prefix(OPCODE_PREFIX).unwrap_or(name);
            let k = match resolve_opcode_token(&opcodes, name) {
                Token::Exact(k) => k,
                Token::Alias(k) => {
                    sink.warn(
                        op_loc(),
                        format!(
                            "alias resolved: mapping entry `{}` names opcode `{name}`, which the OPCODE enum lacks; read as `{}`, the one enumerator equal to it ignoring underscores and case",
                            entry.struct_name, opcodes[k].c_name
                        ),
                    );
                    k
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
                        op_loc(),
                        format!(
                            "stale entry skipped: mapping entry `{}` names opcode `{name}`, which the OPCODE enum lacks{why}",
                            entry.struct_name
                        ),
                    );
                    continue;
                }
            };
            if let Some(&first) = listed.get(&k) {
                sink.push(
                    op_loc(),
                    format!(
                        "opcode `{}` is listed twice in `{}` (first at {MAPPING_FILE}:{first})",
                        opcodes[k].c_name, entry.struct_name
                    ),
                );
                continue;
            }
            listed.insert(k, op_line);
            if let Some(prev) = opcodes[k].shape {
                sink.push(
                    loc.clone(),
                    format!(
                        "opcode `{suffix}` is bound to `{}` and again to `{}`",
                        shapes[prev].code, code
                    ),
                );
            }
            opcodes[k].shape = Some(shapes.len());
            ops.push(k);
        }
        shapes.push(Shape {
            record: rec,
            member: union_member(rec).unwrap_or_else(|| code.to_ascii_lowercase()),
            rust: camel(&code),
            code,
            opcodes: ops,
            pseudo_section: entry.pseudo_section,
            loc,
        });
    }

    // A shape's typed field set is named after its code unless an opcode or enum already has
    // that Rust name (PSEUDO_SET_RNG_SEED is both), then it is `<Code>Fields`.
    for shape in &mut shapes {
        let clash = opcodes.iter().any(|o| o.rust == shape.rust)
            || enums.iter().any(|e| e.rust == shape.rust);
        if clash {
            shape.rust.push_str("Fields");
        }
    }

    // The opcode field: the field of type OPCODE at offset 0, reached through offset-0 fields.
    let discriminator = find_discriminator(&records, &shapes, opcode_enum, &mut sink);

    let engine_enum = enum_ix.get(NEURON_ENGINE).copied();
    let version_enum = enum_ix.get(NEURON_CORE_VERSION).copied();
    let mut model = Model {
        tree_name: input.tree_name.clone(),
        generation: input.generation.clone(),
        nc_version,
        fingerprint: input.fingerprint.clone(),
        headers: input.headers.iter().map(|h| h.rel.clone()).collect(),
        enums,
        records,
        typedefs,
        constants,
        opcode_enum,
        opcodes,
        shapes,
        discriminator,
        inst_nbytes,
        inst_union,
        untranslated,
        warnings: Vec::new(),
        specs: Vec::new(),
        spec_dropped: Vec::new(),
        unvalidated: Vec::new(),
        placement: None,
        notes: Vec::new(),
        validators: Vec::new(),
        tables: Vec::new(),
        engine_enum,
        version_enum,
        runtime: None,
        constructions: Default::default(),
    };
    if !sink.is_empty() {
        return sink.finish(&input.tree_name, model);
    }
    let (specs, dropped) =
        super::spec::resolve(&model, &input.specs, &input.spec_unparsed, &mut sink);
    super::spec::check_depth(&specs, &mut sink);
    model.specs = specs;
    model.spec_dropped = dropped;
    if !sink.is_empty() {
        return sink.finish(&input.tree_name, model);
    }
    let (validators, unvalidated, dropped_validators) =
        find_validators(&model, input.debug_switch.as_deref(), &mut sink);
    model.validators = validators;
    model.unvalidated = unvalidated;
    model.notes = warn_unused_specs(&model, input, &dropped_validators, &mut sink);
    model.placement = super::placement::derive(&model, &input.c_functions, &mut sink);
    model.tables = super::legality::derive(&model, &model.specs, &model.validators, &mut sink);
    if let Some(rt) = &input.runtime {
        model.runtime = Some(super::runtime::resolve(&model, rt, &mut sink));
    }
    model.constructions = super::construct::derive(&model);
    model.warnings = input.warnings.clone();
    model.warnings.append(&mut sink.take_warnings());
    crate::diag::normalize(&mut model.warnings);
    sink.finish(&input.tree_name, model)
}

/// What [`find_validators`] found: per mapped opcode its validator; the mapped opcodes without
/// one, with the reason; the names of the validators that were dropped.
type FoundValidators = (Vec<(usize, Validator)>, Vec<(usize, String)>, Vec<String>);

/// The validator of each mapped opcode, and the mapped opcodes without one (with the reason).
///
/// The names tried, in order: the function the tree's debug switch calls for the opcode
/// (`case NEURON_ISA_TPB_OPCODE_SORT: check = dbg_is_valid_s1d2_sort(i);` names
/// `is_valid_s1d2_sort`), when `aws_neuron_isa_tpb_debug_assert.h` has an arm for it; then
/// `is_valid_<opcode>`; then `is_valid_<shape>`. The first that names a spec function is the
/// validator; when it is one that was not translated, the opcode has none, and says why. When no
/// name matches, that is a warning naming the names tried.
fn find_validators(
    model: &Model,
    debug: Option<&[crate::read::cfunc::DebugCase]>,
    sink: &mut Sink,
) -> FoundValidators {
    use super::spec::{ExprKind, InstKind, SpecTy};
    let mut dropped_validators = Vec::new();
    let mut by_debug: BTreeMap<&str, &str> = BTreeMap::new();
    for case in debug.unwrap_or(&[]) {
        for (op, loc) in &case.opcodes {
            if model.opcodes.iter().any(|o| o.c_name == *op) {
                by_debug.insert(op, &case.validator);
            } else {
                sink.warn(
                    loc.clone(),
                    format!("the debug switch names opcode `{op}`, which the OPCODE enum lacks"),
                );
            }
        }
    }
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for (k, o) in model.opcodes.iter().enumerate() {
        let Some(shape) = o.shape else { continue };
        let mut tried: Vec<String> = Vec::new();
        if let Some(v) = by_debug.get(o.c_name.as_str()) {
            tried.push(v.to_string());
        }
        tried.push(format!(
            "{VALIDATOR_PREFIX}{}",
            o.short.to_ascii_lowercase()
        ));
        tried.push(format!(
            "{VALIDATOR_PREFIX}{}",
            model.shapes[shape].code.to_ascii_lowercase()
        ));
        tried.dedup();
        let mut found = None;
        for name in &tried {
            if let Some(func) = model.specs.iter().position(|f| f.name == *name) {
                found = Some(Ok(func));
                break;
            }
            if let Some(d) = model.spec_dropped.iter().find(|d| d.name == *name) {
                dropped_validators.push(d.name.clone());
                found = Some(Err(format!(
                    "its validator `{}` ({}) is not translated: {}",
                    d.name, d.loc, d.reason
                )));
                break;
            }
        }
        let func = match found {
            Some(Ok(func)) => func,
            Some(Err(why)) => {
                missing.push((k, why));
                continue;
            }
            None => {
                let names = tried
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                sink.warn(
                    model.shapes[shape].loc.clone(),
                    format!(
                        "opcode `{}` has no validator: no spec function is named {names}",
                        o.short
                    ),
                );
                missing.push((k, format!("no spec function is named {names}")));
                continue;
            }
        };
        let f = &model.specs[func];
        let mut ok = true;
        for (name, t) in &f.params {
            let fine = match t {
                SpecTy::Inst(InstKind::Any) => true,
                SpecTy::Inst(InstKind::Shape(s)) => *s == shape,
                SpecTy::Enum(e) => Some(*e) == model.engine_enum || Some(*e) == model.version_enum,
                _ => false,
            };
            if !fine {
                let why = format!(
                    "validator `{}` of {}: parameter `{name}` is neither the instruction, the engine nor the core version",
                    f.name, o.short
                );
                sink.warn(f.loc.clone(), why.clone());
                missing.push((k, why));
                ok = false;
                break;
            }
        }
        if ok && f.inst_param().is_none() {
            let why = format!("validator `{}` takes no `Inst`", f.name);
            sink.warn(f.loc.clone(), why.clone());
            missing.push((k, why));
            ok = false;
        }
        // A shape-generic validator may read a common field this opcode's struct lacks.
        if let (true, Some(common), Some(j)) = (
            ok,
            model.record_named(INST_COMMON),
            super::spec::uncarried_common_field(model, shape, &model.specs[func].common_reads),
        ) {
            let why = format!(
                "validator `{}` of {} reads `i.common.{}`, which {} does not have",
                f.name,
                o.short,
                model.records[common].fields[j].name,
                model.records[model.shapes[shape].record].c_name
            );
            sink.warn(f.loc.clone(), why.clone());
            missing.push((k, why));
            ok = false;
        }
        if !ok {
            continue;
        }
        let has_engine = f
            .params
            .iter()
            .any(|(_, t)| Some(t) == model.engine_enum.map(SpecTy::Enum).as_ref());
        let mut implied = Vec::new();
        if !has_engine {
            if let Some(en) = model.engine_enum {
                collect_engine_args(&f.body, en, &mut implied);
            }
        }
        implied.sort();
        implied.dedup();
        let implied_engine = match implied.as_slice() {
            [m] => Some(*m),
            _ => None,
        };
        let _ = ExprKind::Bool(true);
        out.push((
            k,
            Validator {
                func,
                implied_engine,
            },
        ));
    }
    (out, missing, dropped_validators)
}

/// Warns about every translated spec function that no instruction uses: not a validator (any
/// name a mapped opcode's validator is looked up by counts), not a `<opcode>_legal_combinations`
/// table, and not called (directly or through other functions, translated or not) by one. Calls
/// are followed by name through the parsed blocks, so a helper of a dropped validator is not
/// reported as unused. An unused function of `aws_neuron_isa_tpb_common.h`, the family's shared
/// helper library (a generation without the operand formats a helper serves leaves it unused by
/// design), is a note instead of a warning; the notes are returned.
fn warn_unused_specs(
    model: &Model,
    input: &TreeInput,
    dropped_validators: &[String],
    sink: &mut Sink,
) -> Vec<Diagnostic> {
    struct Calls(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let syn::Expr::Path(p) = &*c.func {
                self.0.push(crate::read::cdecl::path_last(&p.path));
            }
            syn::visit::visit_expr_call(self, c);
        }
    }
    let calls: BTreeMap<String, Vec<String>> = input
        .specs
        .iter()
        .map(|b| {
            let mut c = Calls(Vec::new());
            syn::visit::Visit::visit_block(&mut c, &b.item.block);
            (b.name(), c.0)
        })
        .collect();
    let mut used: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut todo: Vec<String> = model
        .validators
        .iter()
        .map(|(_, v)| model.specs[v.func].name.clone())
        .chain(dropped_validators.iter().cloned())
        .chain(
            model
                .opcodes
                .iter()
                .filter_map(|o| {
                    let shape = &model.shapes[o.shape?];
                    Some([
                        format!("{VALIDATOR_PREFIX}{}", o.short.to_ascii_lowercase()),
                        format!("{VALIDATOR_PREFIX}{}", shape.code.to_ascii_lowercase()),
                    ])
                })
                .flatten(),
        )
        .chain(
            input
                .debug_switch
                .iter()
                .flatten()
                .map(|c| c.validator.clone()),
        )
        .chain(
            input
                .specs
                .iter()
                .map(|b| b.name())
                .filter(|n| n.ends_with(LEGALITY_SUFFIX)),
        )
        .collect();
    while let Some(name) = todo.pop() {
        if used.insert(name.clone()) {
            todo.extend(calls.get(&name).into_iter().flatten().cloned());
        }
    }
    let mut notes = Vec::new();
    for f in &model.specs {
        if used.contains(&f.name) {
            continue;
        }
        let what = format!(
            "spec function `{}` ({}) is not used by any instruction",
            f.name, f.loc
        );
        if f.loc.file == COMMON_HEADER {
            notes.push(Diagnostic::new(
                f.loc.clone(),
                format!("{what} (a shared helper of common.h)"),
            ));
        } else {
            sink.warn(f.loc.clone(), what);
        }
    }
    notes
}

/// Engine members passed directly as call arguments in `e`.
fn collect_engine_args(e: &super::spec::Expr, engine: EnumId, out: &mut Vec<usize>) {
    use super::spec::ExprKind;
    if let ExprKind::Call(_, args) = &e.kind {
        for a in args {
            if let ExprKind::Member(en, m) = a.kind {
                if en == engine {
                    out.push(m);
                }
            }
        }
    }
    for c in super::spec::children(e) {
        collect_engine_args(c, engine, out);
    }
}

fn unreachable_model() -> Model {
    Model {
        tree_name: String::new(),
        generation: String::new(),
        nc_version: 0,
        fingerprint: TreeFingerprint::default(),
        headers: Vec::new(),
        enums: Vec::new(),
        records: Vec::new(),
        typedefs: Vec::new(),
        constants: Vec::new(),
        opcode_enum: 0,
        opcodes: Vec::new(),
        shapes: Vec::new(),
        discriminator: Discriminator {
            record: 0,
            field: 0,
            path: Vec::new(),
        },
        inst_nbytes: 64,
        inst_union: None,
        untranslated: Vec::new(),
        warnings: Vec::new(),
        specs: Vec::new(),
        spec_dropped: Vec::new(),
        unvalidated: Vec::new(),
        placement: None,
        notes: Vec::new(),
        validators: Vec::new(),
        tables: Vec::new(),
        engine_enum: None,
        version_enum: None,
        runtime: None,
        constructions: Default::default(),
    }
}

/// `// Y`, `// n, reason`, or nothing: the flag is the last `//`-separated segment.
pub fn parse_status(comment: Option<&str>) -> Status {
    let Some(comment) = comment else {
        return Status::Unflagged;
    };
    let last = comment.rsplit("//").next().unwrap_or("").trim();
    let mut chars = last.chars();
    match chars.next() {
        Some('Y' | 'y') if chars.clone().next().is_none_or(|c| !c.is_alphanumeric()) => {
            Status::Maintained
        }
        Some('n') if chars.clone().next().is_none_or(|c| !c.is_alphanumeric()) => Status::Dormant(
            chars
                .as_str()
                .trim_start_matches([',', ' '])
                .trim()
                .to_string(),
        ),
        _ => Status::Unflagged,
    }
}

struct Resolver<'a> {
    decls: &'a Decls<'a>,
    enum_ix: &'a BTreeMap<String, EnumId>,
    record_ix: &'a BTreeMap<String, RecordId>,
    enums: &'a [Enum],
}

impl Resolver<'_> {
    /// Resolves a C type to a model type. Records must already be built (the caller
    /// orders them); `records` supplies the ones that are.
    fn resolve(&self, ty: &CType, records: &[Record]) -> Result<Ty, String> {
        let _ = records;
        self.resolve_with(ty, 0)
    }

    fn resolve_with(&self, ty: &CType, depth: usize) -> Result<Ty, String> {
        if depth > 32 {
            return Err("typedef chain too deep".into());
        }
        Ok(match ty {
            CType::Prim(p) => Ty::Prim(*p),
            CType::Enum(name) => Ty::Enum(
                *self
                    .enum_ix
                    .get(name)
                    .ok_or(format!("unknown enum `{name}`"))?,
            ),
            CType::Named(name) => {
                if let Some(&r) = self.record_ix.get(name) {
                    Ty::Record(r)
                } else if let Some(&e) = self.enum_ix.get(name) {
                    Ty::Enum(e)
                } else if let Some((inner, _, _)) = self.decls.typedefs.get(name.as_str()) {
                    self.resolve_with(inner, depth + 1)?
                } else {
                    return Err(format!("unknown type `{name}`"));
                }
            }
            CType::Array(inner, n) => Ty::Array(Box::new(self.resolve_with(inner, depth + 1)?), *n),
            CType::BitfieldUnit(n) => Ty::Array(Box::new(Ty::Prim(Prim::U8)), *n),
            CType::Unsupported(text) => return Err(format!("C type `{text}` has no ISA meaning")),
        })
    }

    /// Records a type depends on (whose layout must be known first).
    fn deps(&self, ty: &CType, out: &mut Vec<RecordId>) {
        if let Ok(t) = self.resolve_with(ty, 0) {
            collect_records(&t, out);
        }
    }
}

fn collect_records(ty: &Ty, out: &mut Vec<RecordId>) {
    match ty {
        Ty::Record(r) => out.push(*r),
        Ty::Array(t, _) => collect_records(t, out),
        _ => {}
    }
}

fn placeholder(r: &CRecord, loc: &Loc) -> Record {
    Record {
        c_name: r.name.clone(),
        rust: camel(short(&r.name)),
        kind: r.kind,
        size: r.size.unwrap_or(0),
        align: r.align.unwrap_or(1),
        packed: r.packed,
        fields: Vec::new(),
        doc: r.doc.clone(),
        loc: loc.clone(),
    }
}

fn record_rust_name(c_name: &str) -> String {
    let s = short(c_name);
    camel(s.strip_suffix(STRUCT_SUFFIX).unwrap_or(s))
}

fn size_align(ty: &Ty, enums: &[Enum], records: &[Option<Record>]) -> (u64, u64) {
    match ty {
        Ty::Prim(p) => (p.size(), p.size()),
        Ty::Enum(e) => (enums[*e].repr.size(), enums[*e].repr.size()),
        Ty::Record(r) => records[*r].as_ref().map_or((0, 1), |r| (r.size, r.align)),
        Ty::Array(t, n) => {
            let (s, a) = size_align(t, enums, records);
            (s * n, a)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn resolve_record(
    k: RecordId,
    names: &[(&CRecord, &str)],
    locs: &[Loc],
    records: &mut Vec<Option<Record>>,
    state: &mut Vec<u8>,
    ctx: &mut Resolver<'_>,
    sink: &mut Sink,
    locate: &dyn Fn(&str, &str) -> Loc,
    locate_member: &dyn Fn(&str, &Loc, &str) -> Loc,
) {
    if state[k] != 0 {
        if state[k] == 1 {
            let (r, file) = names[k];
            sink.push(
                locate(file, &r.name),
                format!("`{}` contains itself", r.name),
            );
        }
        return;
    }
    state[k] = 1;
    let (raw, file) = names[k];
    let mut deps = Vec::new();
    for f in &raw.fields {
        ctx.deps(&f.ty, &mut deps);
    }
    for bf in &raw.bitfields {
        ctx.deps(&bf.ty, &mut deps);
    }
    for d in deps {
        resolve_record(
            d,
            names,
            locs,
            records,
            state,
            ctx,
            sink,
            locate,
            locate_member,
        );
    }
    let loc = locs[k].clone();
    let mut fields = Vec::new();
    let mut cursor = 0u64;
    let mut pending_align = 1u64;
    let mut ok = true;
    for f in &raw.fields {
        let floc = locate_member(file, &loc, &f.name);
        if f.name.starts_with("_bitfield_align_") {
            if let Ok(Ty::Array(inner, 0)) = ctx.resolve_with(&f.ty, 0) {
                pending_align = size_align(&inner, ctx.enums, records).1;
            }
            continue;
        }
        let ty = match ctx.resolve_with(&f.ty, 0) {
            Ok(t) => t,
            Err(why) => {
                sink.push(floc, format!("field `{}::{}`: {why}", raw.name, f.name));
                ok = false;
                continue;
            }
        };
        let (size, natural) = size_align(&ty, ctx.enums, records);
        let align = if raw.packed {
            1
        } else if matches!(f.ty, CType::BitfieldUnit(_)) {
            std::mem::replace(&mut pending_align, 1)
        } else {
            natural
        };
        let offset = match raw.kind {
            RecordKind::Union => 0,
            RecordKind::Struct => cursor.div_ceil(align) * align,
        };
        if let Some(&clang) = raw.offsets.get(&f.name) {
            if clang != offset {
                sink.push(
                    floc.clone(),
                    format!(
                        "layout of `{}::{}`: clang places it at byte {clang}, the model at {offset}",
                        raw.name, f.name
                    ),
                );
                ok = false;
            }
        }
        cursor = cursor.max(offset + size);
        if matches!(f.ty, CType::BitfieldUnit(_)) {
            expand_bitfields(
                raw,
                f,
                offset,
                size,
                ctx,
                file,
                &loc,
                locate_member,
                sink,
                &mut fields,
                &mut ok,
            );
        } else {
            fields.push(Field {
                name: f.name.clone(),
                offset,
                size,
                ty,
                c_type: f.ty.clone(),
                bits: None,
                doc: f.doc.clone(),
                loc: floc,
                anonymous: f.anonymous,
            });
        }
    }
    let computed_align = if raw.packed {
        1
    } else {
        fields
            .iter()
            .map(|f| size_align(&f.ty, ctx.enums, records).1)
            .max()
            .unwrap_or(1)
    };
    let align = raw.align.unwrap_or(computed_align);
    let size = raw.size.unwrap_or_else(|| cursor.div_ceil(align) * align);
    if size < cursor {
        sink.push(
            loc.clone(),
            format!(
                "`{}`: clang size {size} is smaller than its fields ({cursor})",
                raw.name
            ),
        );
        ok = false;
    }
    let _ = ok;
    records[k] = Some(Record {
        c_name: raw.name.clone(),
        rust: record_rust_name(&raw.name),
        kind: raw.kind,
        size,
        align,
        packed: raw.packed,
        fields,
        doc: raw.doc.clone(),
        loc,
    });
    state[k] = 2;
}

#[allow(clippy::too_many_arguments)]
fn expand_bitfields(
    raw: &CRecord,
    unit: &CField,
    offset: u64,
    size: u64,
    ctx: &Resolver<'_>,
    file: &str,
    loc: &Loc,
    locate_member: &dyn Fn(&str, &Loc, &str) -> Loc,
    sink: &mut Sink,
    fields: &mut Vec<Field>,
    ok: &mut bool,
) {
    let members: Vec<&CBitfield> = raw
        .bitfields
        .iter()
        .filter(|b| b.unit == unit.name)
        .collect();
    if members.is_empty() {
        sink.push(
            loc.clone(),
            format!(
                "`{}`: bit-field unit `{}` has no readable bit-fields",
                raw.name, unit.name
            ),
        );
        *ok = false;
    }
    for bf in members {
        let floc = locate_member(file, loc, &bf.name);
        match ctx.resolve_with(&bf.ty, 0) {
            Ok(ty)
                if matches!(ty, Ty::Prim(p) if p.is_int())
                    || matches!(ty, Ty::Enum(_) | Ty::Prim(Prim::Bool)) =>
            {
                if u64::from(bf.bit_offset + bf.width) > size * 8 || bf.width == 0 || bf.width > 64
                {
                    sink.push(
                        floc,
                        format!(
                            "bit-field `{}::{}` does not fit its unit",
                            raw.name, bf.name
                        ),
                    );
                    *ok = false;
                    continue;
                }
                fields.push(Field {
                    name: bf.name.clone(),
                    offset,
                    size,
                    ty,
                    c_type: bf.ty.clone(),
                    bits: Some(Bits {
                        offset: bf.bit_offset,
                        width: bf.width,
                    }),
                    doc: unit.doc.clone(),
                    loc: floc,
                    anonymous: false,
                });
            }
            Ok(_) => {
                sink.push(
                    floc,
                    format!(
                        "bit-field `{}::{}` is not of integer or enum type",
                        raw.name, bf.name
                    ),
                );
                *ok = false;
            }
            Err(why) => {
                sink.push(
                    floc,
                    format!("bit-field `{}::{}`: {why}", raw.name, bf.name),
                );
                *ok = false;
            }
        }
    }
}

/// How a mapping's opcode token names an enumerator.
enum Token {
    /// By its exact C name.
    Exact(usize),
    /// Not exactly, but exactly one enumerator is equal to it ignoring underscores and case
    /// (`NEURON_ISA_TPB_OPCODE_DMA_MEMCPY` for `NEURON_ISA_TPB_OPCODE_DMAMEMCPY`).
    Alias(usize),
    /// Not at all (a stale superset entry), or ambiguously: the enumerators it matches loosely.
    Stale(Vec<usize>),
}

fn resolve_opcode_token(opcodes: &[Opcode], token: &str) -> Token {
    if let Some(k) = opcodes.iter().position(|o| o.c_name == token) {
        return Token::Exact(k);
    }
    let key = super::names::spec_key(token);
    let near: Vec<usize> = opcodes
        .iter()
        .enumerate()
        .filter(|(_, o)| super::names::spec_key(&o.c_name) == key)
        .map(|(k, _)| k)
        .collect();
    match near.as_slice() {
        [k] => Token::Alias(*k),
        _ => Token::Stale(near),
    }
}

fn find_discriminator(
    records: &[Record],
    shapes: &[Shape],
    opcode_enum: EnumId,
    sink: &mut Sink,
) -> Discriminator {
    let mut found: Option<Discriminator> = None;
    for shape in shapes {
        let mut rec = shape.record;
        let mut path = Vec::new();
        let mut hit = None;
        for _ in 0..8 {
            let Some((k, f)) = records[rec]
                .fields
                .iter()
                .enumerate()
                .find(|(_, f)| f.offset == 0)
            else {
                break;
            };
            path.push(f.name.clone());
            match &f.ty {
                Ty::Enum(e) if *e == opcode_enum => {
                    hit = Some(Discriminator {
                        record: rec,
                        field: k,
                        path: path.clone(),
                    });
                    break;
                }
                Ty::Record(r) => rec = *r,
                _ => break,
            }
        }
        match (hit, &found) {
            (None, _) => sink.push(
                records[shape.record].loc.clone(),
                format!(
                    "`{}` has no opcode field of type {OPCODE_ENUM} at byte 0",
                    records[shape.record].c_name
                ),
            ),
            (Some(h), Some(f)) if h.record != f.record || h.field != f.field => sink.push(
                records[shape.record].loc.clone(),
                format!(
                    "`{}` keeps its opcode at `{}`, other structs at `{}`",
                    records[shape.record].c_name,
                    h.path.join("."),
                    f.path.join(".")
                ),
            ),
            (Some(h), None) => found = Some(h),
            _ => {}
        }
    }
    found.unwrap_or(Discriminator {
        record: 0,
        field: 0,
        path: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_flags() {
        assert_eq!(parse_status(Some(" Y")), Status::Maintained);
        assert_eq!(
            parse_status(Some(" n, ucode exists, not maintained/used")),
            Status::Dormant("ucode exists, not maintained/used".into())
        );
        assert_eq!(parse_status(Some(" n")), Status::Dormant(String::new()));
        assert_eq!(
            parse_status(Some(" 0x97 reserved for SortMerge (wip) // Y")),
            Status::Maintained
        );
        assert_eq!(parse_status(Some(" none of that")), Status::Unflagged);
        assert_eq!(parse_status(None), Status::Unflagged);
    }
}
