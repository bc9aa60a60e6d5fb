//! The project's runtime data of a tree (`rng-runtime.json`), checked against the model:
//! every instruction, engine and algorithm it names must exist in the generation.

use super::Model;
use crate::diag::{Loc, Sink};
use crate::read::runtime::{Runtime, RUNTIME_FILE};
use isa_core::vocab::{Algorithm, CheckpointKind, Engine, VendorNames, Vocabulary};

/// One wired body, resolved.
#[derive(Clone, Debug)]
pub struct WiredBody {
    /// Opcode index.
    pub opcode: usize,
    /// Member index in the engine enum.
    pub engine: usize,
    /// Member index in the algorithm enum.
    pub algorithm: usize,
    /// How it is known (`headers/PROVENANCE.md` defines the levels).
    pub evidence: isa_core::Evidence,
    /// Where.
    pub source: String,
}

/// The runtime data, resolved.
#[derive(Clone, Debug)]
pub struct RuntimeModel {
    /// Wired bodies.
    pub wired: Vec<WiredBody>,
    /// The file's note on the set.
    pub note: String,
    /// Model overrides as read (values checked when emitted).
    pub overrides: crate::read::runtime::ModelOverrides,
}

/// C name of the algorithm enum.
pub const RAND_ALGORITHM: &str = Algorithm::VENDOR_ENUM;

impl RuntimeModel {
    /// Whether `opcode` on engine member `engine` has a body for algorithm member `algorithm`,
    /// with the evidence level of the entry.
    pub fn firmware(&self, opcode: usize, engine: usize, algorithm: usize) -> isa_core::Firmware {
        self.wired
            .iter()
            .find(|w| w.opcode == opcode && w.engine == engine && w.algorithm == algorithm)
            .map_or(isa_core::Firmware::NotWired, |w| {
                isa_core::Firmware::Wired(w.evidence)
            })
    }
}

/// The line of each firmware entry (its `"instruction"` key), in file order: the file is
/// checked for duplicate keys, so each entry has exactly one.
fn entry_lines(text: &str) -> Vec<u32> {
    let from = text.find("\"firmware\"").unwrap_or(0);
    let mut lines = Vec::new();
    let mut at = from;
    while let Some(k) = text[at..].find("\"instruction\"") {
        at += k + "\"instruction\"".len();
        if text[at..].trim_start().starts_with(':') {
            lines.push(text[..at].matches('\n').count() as u32 + 1);
        }
    }
    lines
}

/// `name` as a member of enum `e` that rng-core also models (`known` is rng-core's list of
/// names); otherwise a message naming what is allowed.
fn member(
    model: &Model,
    e: Option<usize>,
    name: &str,
    what: &str,
    known: &[&str],
) -> Result<usize, String> {
    let e = e.ok_or(format!("the tree has no {what} enum"))?;
    let members = &model.enums[e].members;
    let allowed: Vec<&str> = members
        .iter()
        .filter(|m| m.alias_of.is_none() && known.contains(&m.short.as_str()))
        .map(|m| m.short.as_str())
        .collect();
    members
        .iter()
        .position(|m| m.short == name && m.alias_of.is_none() && known.contains(&name))
        .ok_or(format!(
            "{what} `{name}` is not one with a firmware body: one of {} (members of {} that rng-core models)",
            allowed.join(", "),
            model.enums[e].c_name
        ))
}

/// Resolves the file against the model. Every name must be one the generated code can use: an
/// entry that named an engine rng-core does not model would be dropped from the rng-core data
/// but kept in the legality tables' firmware answers, so it is an error, never skipped.
pub fn resolve(model: &Model, runtime: &Runtime, sink: &mut Sink) -> RuntimeModel {
    let mut wired = Vec::new();
    let engine_enum = model.engine_enum;
    let algo_enum = model.enum_named(RAND_ALGORITHM);
    let lines = entry_lines(&runtime.text);
    let engines: Vec<&str> = Engine::names().collect();
    let algorithms: Vec<&str> = Algorithm::names().collect();
    let kinds: Vec<&str> = CheckpointKind::names().collect();
    for (k, w) in runtime.firmware.iter().enumerate() {
        let loc = Loc::new(RUNTIME_FILE, lines.get(k).copied().unwrap_or(0));
        let opcode = match model.opcode_named(&w.instruction) {
            Some(op) if kinds.contains(&w.instruction.as_str()) => Ok(op),
            Some(_) => Err(format!(
                "instruction `{}` has no firmware body: one of {}",
                w.instruction,
                kinds.join(", ")
            )),
            None => Err(format!(
                "instruction `{}` is not an opcode of this tree (one of {})",
                w.instruction,
                kinds.join(", ")
            )),
        };
        let evidence = isa_core::Evidence::from_name(&w.evidence).ok_or(format!(
            "evidence `{}` is not a level: one of observed, inferred, assumed (headers/PROVENANCE.md)",
            w.evidence
        ));
        match (
            opcode,
            member(model, engine_enum, &w.engine, "engine", &engines),
            member(model, algo_enum, &w.algorithm, "algorithm", &algorithms),
            evidence,
        ) {
            (Ok(opcode), Ok(engine), Ok(algorithm), Ok(evidence)) => wired.push(WiredBody {
                opcode,
                engine,
                algorithm,
                evidence,
                source: w.source.clone(),
            }),
            (opcode, engine, algorithm, evidence) => {
                for e in [opcode.err(), engine.err(), algorithm.err(), evidence.err()]
                    .into_iter()
                    .flatten()
                {
                    sink.push(loc.clone(), e);
                }
            }
        }
    }
    check_overrides(runtime, sink);
    RuntimeModel {
        wired,
        note: runtime.firmware_note.clone(),
        overrides: runtime.model.clone(),
    }
}

/// The string-valued model overrides must be names rng-core has (otherwise the crate would be
/// generated without its `rng_core::Generation` impl, with a note): an error at the key's line.
fn check_overrides(runtime: &Runtime, sink: &mut Sink) {
    use crate::read::runtime::{zero_guard, DVE_XORWOW_LAYOUTS, LANE_INTERLEAVES, PHILOX_OFFSETS};
    let m = &runtime.model;
    let guard = ["disabled", "force_word_to_one:<0..4>"];
    for (key, choice, allowed) in [
        (
            "dve_xorwow_layout",
            &m.dve_xorwow_layout,
            &DVE_XORWOW_LAYOUTS[..],
        ),
        ("lane_interleave", &m.lane_interleave, &LANE_INTERLEAVES[..]),
        ("philox_offset", &m.philox_offset, &PHILOX_OFFSETS[..]),
        ("zero_guard", &m.zero_guard, &guard[..]),
    ] {
        let Some(c) = choice else { continue };
        let known = if key == "zero_guard" {
            zero_guard(&c.value).is_some()
        } else {
            allowed.contains(&c.value.as_str())
        };
        if !known {
            let quoted = format!("\"{key}\"");
            let line = runtime
                .text
                .find(&quoted)
                .map_or(0, |k| runtime.text[..k].matches('\n').count() as u32 + 1);
            sink.push(
                Loc::new(RUNTIME_FILE, line),
                format!(
                    "model override `{key}` is `{}`: one of {}",
                    c.value,
                    allowed.join(", ")
                ),
            );
        }
    }
}
