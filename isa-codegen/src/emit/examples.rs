//! The runnable example on every typed instruction's rustdoc page (a doctest, so it is
//! compiled and run with the crate's tests): build one, validate it, encode it into a buffer,
//! decode it back, show its disassembly.
//!
//! How it is built, from the model:
//! * with its first typed constructor of the `construct` module (`Rand2::new`, `Rand::raw_u32`,
//!   ...), with the arguments the generator found valid on an engine that runs the opcode;
//! * with its typed constructor where the legality layer has one (`restore`, `seed_immediate`,
//!   `save`), for the table's first arm of that constructor;
//! * else field by field from the all-zero operand fields, with the values of a valid instance
//!   the generator finds from the validator ([`crate::model::instance`]);
//! * else (a validator that search cannot satisfy) decoded from the all-zero word of the
//!   opcode, and the example shows the validator's verdict instead of asserting it.

use super::legality::{self, Ctor};
use crate::model::OpcodeId;
use crate::model::{Model, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The `# Example` section (markdown) of the typed instruction of opcode `op` named `name`;
/// empty when none can be built (an operand struct that does not decode from zeros, with
/// neither a constructor nor a valid instance).
pub fn instruction_example(model: &Model, op: OpcodeId, name: &str) -> String {
    let krate = format!("isa_{}", model.generation.to_ascii_lowercase());
    let o = &model.opcodes[op];
    let Some(shape) = o.shape.map(|s| &model.shapes[s]) else {
        return String::new();
    };
    let has_validator = model.validators.iter().any(|(k, _)| *k == op);
    let mut uses: Vec<String> = vec!["Instruction".into(), name.into()];
    let mut arm_uses: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let mut engine: Option<usize> = None;
    let mut checked = has_validator;
    // The example decodes the all-zero word (no valid instance or constructor to show).
    let mut from_zero_word = false;

    let zeroed = super::ty::zero_decodable(model, &Ty::Record(shape.record));
    // A valid instance's non-zero fields as assignments to `f` (all of them, or no instance).
    let filled = || -> Option<(Vec<TokenStream>, Option<usize>)> {
        if !has_validator || !zeroed {
            return None;
        }
        let found = crate::model::instance::valid_instance(model, op)?;
        let root: TokenStream = krate.parse().ok()?;
        let stmts = found
            .fields
            .iter()
            .filter(|(_, v)| *v != 0)
            .map(|(p, v)| super::place::assign_in(model, shape.record, p, *v, &root))
            .collect::<Option<Vec<_>>>()?;
        Some((stmts, found.engine))
    };
    let typed = model.constructions.of(op).and_then(|c| {
        let ctor = *super::construct::emitted::emitted(model, c).first()?;
        Some((c, ctor))
    });
    if let Some((c, ctor)) = typed {
        let (call, names, _) = super::construct::example::example_call(model, c, ctor, "inst");
        lines.push(format!(
            "// By the typed constructor `{name}::{}`: what the validator fixes is written for you.",
            ctor.name
        ));
        lines.extend(call);
        uses.extend(names);
        engine = ctor.example.engines.first().copied();
    } else if let Some(c) = constructed(model, op, name) {
        lines.extend(c.lines);
        engine = c.engine;
        arm_uses = c.markers;
        if c.tensor {
            uses.push("StateTensor".into());
        }
    } else if let Some((stmts, found_engine)) = filled() {
        lines.push(
            "// Field by field from the all-zero operand fields: these are values the header's validator requires."
                .into(),
        );
        lines.push(format!("let mut f = {}::ZEROED;", shape.rust));
        lines.extend(statements(&stmts));
        lines.push(format!("let inst = {name}::from_fields(f);"));
        uses.push(shape.rust.clone());
        engine = found_engine;
    } else if zeroed {
        lines.push(format!(
            "// Decoded from a word: the opcode byte {:#04x}, every operand field zero.",
            o.value
        ));
        lines.push("let mut word = [0u8; 64];".into());
        lines.push(format!("word[0] = {:#04x};", o.value));
        lines.push(format!("let inst = {name}::from_bytes(&word)?;"));
        checked = false;
        from_zero_word = true;
    } else {
        return String::new();
    }

    let engine_arg = engine_arg(model, op, engine, &mut uses);
    if has_validator && checked {
        lines.push("// The header's validator, translated: this instruction is legal.".into());
        lines.push(format!("inst.validate({engine_arg})?;"));
    } else if has_validator {
        lines.push(
            "// The header's validator, translated: legal, or which check fails and why.".into(),
        );
        lines.push(format!("match inst.validate({engine_arg}) {{"));
        lines.push("    Ok(()) => println!(\"legal: {inst}\"),".into());
        lines.push("    Err(violation) => println!(\"{violation}\"),".into());
        lines.push("}".into());
    }
    lines.push(
        "// Encoded into a caller's buffer, decoded back as this type and as any instruction."
            .into(),
    );
    lines.push("let mut buf = [0u8; 64];".into());
    lines.push("inst.encode_into(&mut buf)?;".into());
    lines.push(format!("assert_eq!({name}::from_slice(&buf)?, inst);"));
    lines.push(format!(
        "assert_eq!(Instruction::decode_slice(&buf)?, Instruction::{name}(inst));"
    ));
    lines.push(
        "// The one-line disassembly: the opcode name, then the fields that are not zero.".into(),
    );
    if !from_zero_word {
        lines.push(format!(
            "assert!(inst.to_string().starts_with(\"{} \"));",
            o.short
        ));
    } else {
        // An all-zero word may show nothing after the name (no enum field, nothing non-zero).
        lines.push(format!(
            "assert_eq!(inst.to_string().split(' ').next(), Some(\"{}\"));",
            o.short
        ));
    }
    lines.push("# Ok::<(), Box<dyn std::error::Error>>(())".into());

    uses.sort();
    uses.dedup();
    let mut out = String::from("\n\n# Example\n\n```rust\n");
    if !arm_uses.is_empty() {
        out.push_str(&format!("use {krate}::arm::{{{}}};\n", arm_uses.join(", ")));
    }
    out.push_str(&format!("use {krate}::{{{}}};\n\n", uses.join(", ")));
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str("```");
    out
}

/// An instruction built by its typed constructor, in an example.
struct Constructed {
    /// The example's lines.
    lines: Vec<String>,
    /// The arm's engine member, when the table has an engine column.
    engine: Option<usize>,
    /// The marker types the call names.
    markers: Vec<String>,
    /// Whether the call names `StateTensor`.
    tensor: bool,
}

/// The constructor call of the instruction's legality table (`restore` before `save` before
/// `seed_immediate`, the table's first arm for it).
fn constructed(model: &Model, op: OpcodeId, name: &str) -> Option<Constructed> {
    let t = model.table(op)?;
    let kinds = legality::ctors(model, t);
    let kind = [Ctor::Restore, Ctor::Save, Ctor::SeedImmediate]
        .into_iter()
        .find(|k| kinds.contains(k))?;
    let key = legality::key_columns(model, t);
    let update = legality::update_column(model, t, &key);
    let wanted = match kind {
        Ctor::Restore => Some(crate::vendor::SRC_TENSOR),
        Ctor::SeedImmediate => Some(crate::vendor::IMM_SINGLE),
        Ctor::Save => None,
    };
    let member = match (update, wanted) {
        (Some(uc), Some(w)) => Some((uc, legality::update_member(model, t, uc, w)?)),
        _ => None,
    };
    let arm = t
        .arms
        .iter()
        .find(|a| member.is_none_or(|(uc, m)| a.values[uc] == m))?;
    let (_, clashes) = legality::marker_enums(model);
    let markers: Vec<String> = key
        .iter()
        .filter(|k| Some(**k) != update)
        .map(|k| legality::marker_name(model, t.columns[*k].enum_id, arm.values[*k], &clashes))
        .collect();
    let n = arm.words;
    let (has_at, has_sbuf) = crate::emit::state_tensor::state_tensor_helpers(model);
    // Without a helper the operand takes, no state tensor can be written (its space marker is
    // private): the instruction gets the field-by-field example instead.
    let sbuf_only = crate::emit::state_tensor::sbuf_only_trait(model, t).is_some();
    let tensor = if has_sbuf {
        Some("StateTensor::sbuf(0, 0x100)?".to_string())
    } else if has_at && !sbuf_only {
        Some("StateTensor::at(0x100)".to_string())
    } else {
        None
    };
    let tensor = match kind {
        Ctor::SeedImmediate => String::new(),
        _ => tensor?,
    };
    let args = markers.join(", ");
    let (call, what) = match kind {
        Ctor::Restore => (
            format!("{name}::restore::<{args}, {n}>({tensor}, 128)"),
            format!("restores {n} state words per partition from a tensor"),
        ),
        Ctor::Save => (
            format!("{name}::save::<{args}, {n}>({tensor}, 128)"),
            format!("saves {n} state words per partition into a tensor"),
        ),
        Ctor::SeedImmediate => (
            format!(
                "{name}::seed_immediate::<{args}, {n}>([{}], 128)",
                (1..=n)
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!("loads {n} inline state words into every lane"),
        ),
    };
    let engine = t
        .columns
        .iter()
        .position(|c| matches!(c.source, crate::model::legality::ColumnSource::Param(_)))
        .map(|c| arm.values[c]);
    let mut lines = vec![format!(
        "// By the typed constructor: the arm ({args}) {what}; an illegal arm or width does not compile."
    )];
    if engine.is_some() {
        // The constructor tags the word with the arm's engine (`isa_core::OnEngine`).
        lines.extend([
            format!("let tagged = {call};"),
            "// Tagged with its engine: `validate()` runs the validator on that engine.".into(),
            "tagged.validate()?;".into(),
            "let inst = tagged.into_inner();".into(),
        ]);
    } else {
        lines.push(format!("let inst = {call};"));
    }
    Some(Constructed {
        lines,
        engine,
        markers,
        tensor: kind != Ctor::SeedImmediate,
    })
}

/// The `engine` argument of `validate`: the member chosen, else the engine the validator
/// implies, else the first engine (a validator that ignores it); `()` without an engine enum.
fn engine_arg(
    model: &Model,
    op: OpcodeId,
    chosen: Option<usize>,
    uses: &mut Vec<String>,
) -> String {
    let Some(e) = model.engine_enum else {
        return "()".into();
    };
    let implied = model
        .validators
        .iter()
        .find(|(k, _)| *k == op)
        .and_then(|(_, v)| v.implied_engine);
    let en = &model.enums[e];
    let m = chosen.or(implied).unwrap_or_else(|| {
        en.members
            .iter()
            .position(|m| m.alias_of.is_none())
            .unwrap_or(0)
    });
    uses.push(en.rust.clone());
    format!("{}::{}", en.rust, en.members[m].rust)
}

/// Statements as printed lines ([`print_items`](super::print_items), as every generated file).
fn statements(stmts: &[TokenStream]) -> Vec<String> {
    if stmts.is_empty() {
        return Vec::new();
    }
    let text = super::print_items("", quote!(fn f() { #(#stmts)* }));
    let body: Vec<&str> = text.lines().collect();
    body[1..body.len().saturating_sub(1)]
        .iter()
        .map(|l| l.strip_prefix("    ").unwrap_or(l).to_string())
        .collect()
}
