//! `vendor-tree`: writes `fixtures/vendor-scale/neuron_maverick_arch_isa/`, a vendor-scale header
//! tree for NC-v5 with the documented quirks of the real trees, generated from the facts in
//! `data/` and the project's C text in `templates/`. See `fixtures/vendor-scale/README.md`.
//!
//! The output depends on nothing but the embedded data: files are kept in a `BTreeMap`, every list
//! is in data or name order, and nothing reads the clock or the environment.

pub mod data;
pub mod layout;
pub mod shape;
pub mod spec;
pub mod spine;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use data::{LayoutKind, Shape};
use layout::{Offsets, Types};

/// The tree directory inside the include root.
pub const TREE: &str = "neuron_maverick_arch_isa";

/// The project's RNG-family headers, copied byte for byte.
pub const COPIED: &[(&str, &str)] = &[
    (
        "s1_rand",
        include_str!("../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_s1_rand.h"),
    ),
    (
        "d4_rand",
        include_str!("../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_d4_rand.h"),
    ),
    (
        "d3_rand",
        include_str!("../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_d3_rand.h"),
    ),
    (
        "s3d3_dropout",
        include_str!(
            "../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_s3d3_dropout.h"
        ),
    ),
    (
        "s2s1d2_pe_seed",
        include_str!(
            "../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_s2s1d2_pe_seed.h"
        ),
    ),
    (
        "pseudo_set_rng_seed",
        include_str!(
            "../../../headers/neuron_maverick_arch_isa/tpb/aws_neuron_isa_tpb_pseudo_set_rng_seed.h"
        ),
    ),
];

/// Default output: the include root `fixtures/vendor-scale` of the workspace.
pub fn default_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
        .join("fixtures")
        .join("vendor-scale")
}

/// Everything the program produces, plus what the tests and the report need.
pub struct Output {
    /// Path relative to the include root -> text.
    pub files: BTreeMap<String, String>,
    /// Operand shapes (lower case), with their layout kind; `extended` is not among them.
    pub shapes: Vec<(String, LayoutKind)>,
    /// Top-level field offsets of the built operand structs: (struct, field, offset, size).
    pub offsets: Vec<(String, Offsets)>,
    /// Spec blocks without a C twin: (function, file:line, reason).
    pub untranslated: Vec<(String, String, String)>,
    /// Spec functions no other function calls and no opcode is bound to.
    pub unused: Vec<String>,
    /// opcode -> top-level validator, for every opcode with a C-translated validator.
    pub bound: Vec<(String, String)>,
    /// Shapes whose header carries spec blocks.
    pub with_spec: Vec<String>,
}

fn tpb(file: &str) -> String {
    format!("{TREE}/tpb/{file}")
}

pub fn generate() -> Result<Output, String> {
    let opcodes = data::opcodes()?;
    let shapes: Vec<Shape> = data::shapes()?;
    let mut files = BTreeMap::new();

    for (name, text) in spine::common_dir() {
        files.insert(format!("{TREE}/common/{name}"), text);
    }
    let common = spine::common_h(&opcodes);
    let extended = spine::extended_h();
    let extended_utils = spine::extended_utils_h();

    // enums and typedefs the operand structs may use
    let mut decl_texts: Vec<&str> = vec![&common, &extended];
    decl_texts.extend(files.values().map(String::as_str));
    for s in &shapes {
        if let Some(p) = &s.pre {
            decl_texts.push(p);
        }
    }
    let decl = spec::Registry::scan(decl_texts.iter().copied())?;
    let enum_names: Vec<String> = decl
        .enums
        .keys()
        .chain(decl.enum_aliases.keys())
        .map(|e| format!("NEURON_ISA_TPB_{e}"))
        .collect();
    let types = Types::new(enum_names.iter().map(String::as_str));

    // spec names defined outside the generated helpers
    let mut elsewhere = BTreeSet::new();
    let mut base_texts: Vec<(String, &str)> = vec![
        ("aws_neuron_isa_tpb_common.h".into(), common.as_str()),
        (
            "aws_neuron_isa_tpb_extended_utils.h".into(),
            extended_utils.as_str(),
        ),
    ];
    for (n, t) in COPIED {
        base_texts.push((format!("aws_neuron_isa_tpb_{n}.h"), t));
    }
    for (f, t) in &base_texts {
        for b in spec::blocks(f, t)? {
            elsewhere.insert(b.name);
        }
    }
    for s in &shapes {
        elsewhere.extend(shape::hand_names(s));
    }

    let mut kinds = Vec::new();
    let mut offsets = Vec::new();
    let ctx = shape::Ctx {
        opcodes: &opcodes,
        types: &types,
        defined_elsewhere: &elsewhere,
    };
    for s in &shapes {
        let file = format!("aws_neuron_isa_tpb_{}.h", s.name);
        if s.layout == LayoutKind::Copied {
            let text = COPIED
                .iter()
                .find(|(n, _)| *n == s.name)
                .ok_or_else(|| format!("{}: no copied header", s.name))?
                .1;
            files.insert(tpb(&file), text.to_string());
        } else {
            let built = shape::build(s, &ctx)?;
            offsets.push((
                format!("NEURON_ISA_TPB_{}_STRUCT", s.name.to_ascii_uppercase()),
                built.offsets,
            ));
            files.insert(tpb(&built.file), built.text);
        }
        kinds.push((s.name.clone(), s.layout));
    }
    let mut shape_names: Vec<String> = shapes.iter().map(|s| s.name.clone()).collect();
    shape_names.sort();

    files.insert(tpb("aws_neuron_isa_tpb_common.h"), common);
    files.insert(tpb("aws_neuron_isa_tpb_extended.h"), extended);
    files.insert(tpb("aws_neuron_isa_tpb_extended_utils.h"), extended_utils);
    files.insert(
        tpb("aws_neuron_isa_tpb_util.h"),
        spine::util_h(&shape_names),
    );

    // instruction_mapping.json
    let mut s2o = BTreeMap::new();
    let mut s2p = BTreeMap::new();
    for s in shapes.iter().filter(|s| !s.opcodes.is_empty()) {
        let key = format!("NEURON_ISA_TPB_{}_STRUCT", s.name.to_ascii_uppercase());
        let list: Vec<String> = s
            .opcodes
            .iter()
            .map(|o| format!("NEURON_ISA_TPB_OPCODE_{o}"))
            .collect();
        if s.pseudo_mapping {
            s2p.insert(key, list);
        } else {
            s2o.insert(key, list);
        }
    }
    s2o.insert(
        "NEURON_ISA_TPB_EXTENDED_STRUCT".into(),
        vec!["NEURON_ISA_TPB_OPCODE_EXTENDED_INST".into()],
    );
    files.insert(
        tpb("instruction_mapping.json"),
        spine::mapping_json(&s2o, &s2p)?,
    );

    // every spec block of the tree, translated
    let reg = spec::Registry::scan(
        files
            .iter()
            .filter(|(p, _)| p.ends_with(".h"))
            .map(|(_, t)| t.as_str()),
    )?;
    let mut sections_src: Vec<(String, String)> = vec![(
        "common".into(),
        files[&tpb("aws_neuron_isa_tpb_common.h")].clone(),
    )];
    for n in &shape_names {
        sections_src.push((
            n.clone(),
            files[&tpb(&format!("aws_neuron_isa_tpb_{n}.h"))].clone(),
        ));
    }
    sections_src.push((
        "extended_utils".into(),
        files[&tpb("aws_neuron_isa_tpb_extended_utils.h")].clone(),
    ));
    let mut all_blocks = Vec::new();
    let mut with_spec = Vec::new();
    for (marker, text) in &sections_src {
        let file = format!("aws_neuron_isa_tpb_{marker}.h");
        let b = spec::blocks(&file, text)?;
        if !b.is_empty() && shape_names.contains(marker) {
            with_spec.push(marker.clone());
        }
        all_blocks.extend(b);
    }
    let translated = spec::translate_all(&reg, &all_blocks)?;
    let by_name: BTreeMap<&str, &spec::Translated> = translated
        .iter()
        .map(|t| (t.block.name.as_str(), t))
        .collect();

    // opcode -> validator
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut cases: Vec<(String, &spec::Translated)> = Vec::new();
    let mut bound_fns = BTreeSet::new();
    for o in &opcodes {
        let Some(s) = shapes.iter().find(|s| {
            s.opcodes
                .iter()
                .any(|t| shape::resolve_token(&opcodes, t).is_some_and(|r| r.name == o.name))
        }) else {
            continue;
        };
        let explicit = s
            .bind
            .iter()
            .find(|[op, _]| *op == o.name)
            .map(|b| b[1].clone());
        let by_op = format!("is_valid_{}", o.name.to_ascii_lowercase());
        let by_shape = format!("is_valid_{}", s.name);
        let f = explicit.or_else(|| {
            [by_op, by_shape]
                .into_iter()
                .find(|f| by_name.contains_key(f.as_str()))
        });
        let Some(f) = f else { continue };
        let t = by_name
            .get(f.as_str())
            .ok_or_else(|| format!("{}: bound validator `{f}` is not defined", o.name))?;
        bound_fns.insert(f.clone());
        if t.c.is_ok() {
            if spine::call_args(t).is_none() {
                return Err(format!(
                    "{f}: a parameter the dispatch switch cannot supply"
                ));
            }
            cases.push((o.name.clone(), t));
            bound.push((o.name.clone(), f));
        }
    }
    let dbg: Vec<&spec::Translated> = cases.iter().map(|(_, t)| *t).collect();
    let sections: Vec<spine::Section> = sections_src
        .iter()
        .map(|(marker, _)| {
            let file = format!("aws_neuron_isa_tpb_{marker}.h");
            spine::Section {
                marker: marker.clone(),
                fns: translated.iter().filter(|t| t.block.file == file).collect(),
            }
        })
        .collect();
    files.insert(tpb("aws_neuron_isa_tpb_enums.h"), spine::enums_h(&reg));
    files.insert(
        tpb("aws_neuron_isa_tpb_assert.h"),
        spine::assert_h(&sections, &dbg),
    );
    files.insert(
        tpb("aws_neuron_isa_tpb_debug_assert.h"),
        spine::debug_assert_h(&cases),
    );
    files.insert(
        tpb("aws_neuron_isa_tpb_instr_assert.h"),
        spine::instr_assert_h(&opcodes),
    );

    let untranslated = translated
        .iter()
        .filter_map(|t| {
            t.c.as_ref().err().map(|why| {
                (
                    t.block.name.clone(),
                    format!("{}:{}", t.block.file, t.block.line),
                    why.clone(),
                )
            })
        })
        .collect();
    let called: BTreeSet<&str> = translated
        .iter()
        .flat_map(|t| t.calls.iter().map(String::as_str))
        .collect();
    let unused = translated
        .iter()
        .map(|t| t.block.name.clone())
        .filter(|n| !called.contains(n.as_str()) && !bound_fns.contains(n))
        .collect();

    Ok(Output {
        files,
        shapes: kinds,
        offsets,
        untranslated,
        unused,
        bound,
        with_spec,
    })
}

/// Writes the tree under `root` (the include root), replacing the tree directory.
pub fn write(out: &Output, root: &Path) -> Result<(), String> {
    let tree = root.join(TREE);
    if tree.exists() {
        fs::remove_dir_all(&tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    }
    for (rel, text) in &out.files {
        let p = root.join(rel);
        if let Some(d) = p.parent() {
            fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// Files under `root/TREE` that differ from the output, are missing, or are extra.
pub fn check(out: &Output, root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut on_disk = BTreeSet::new();
    let mut stack = vec![root.join(TREE)];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(root) {
                on_disk.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    for (rel, text) in &out.files {
        match fs::read_to_string(root.join(rel)) {
            Ok(t) if &t == text => {}
            Ok(_) => problems.push(format!("differs: {rel}")),
            Err(_) => problems.push(format!("missing: {rel}")),
        }
    }
    for rel in on_disk {
        if !out.files.contains_key(&rel) {
            problems.push(format!("extra: {rel}"));
        }
    }
    problems.sort();
    problems
}

/// The summary the binary prints.
pub fn report(out: &Output) -> String {
    let count = |k: LayoutKind| out.shapes.iter().filter(|(_, l)| *l == k).count();
    let tpb_h = out
        .files
        .keys()
        .filter(|p| p.contains("/tpb/") && p.ends_with(".h"))
        .count();
    let common_h = out.files.keys().filter(|p| p.contains("/common/")).count();
    let mut s = format!(
        "{TREE}: {tpb_h} tpb/*.h ({} operand headers: {} documented, {} partial, {} placeholder, {} copied), {common_h} common/*.h\n",
        out.shapes.len(),
        count(LayoutKind::Documented),
        count(LayoutKind::Partial),
        count(LayoutKind::Placeholder),
        count(LayoutKind::Copied),
    );
    s.push_str(&format!(
        "spec blocks in {} of {} operand headers; {} opcodes bound to a validator\n",
        out.with_spec.len(),
        out.shapes.len(),
        out.bound.len()
    ));
    s.push_str("spec blocks without a C twin:\n");
    for (f, at, why) in &out.untranslated {
        s.push_str(&format!("  {f} ({at}): {why}\n"));
    }
    s.push_str(&format!(
        "spec functions nothing calls or binds ({}): {}\n",
        out.unused.len(),
        out.unused.join(", ")
    ));
    s
}
