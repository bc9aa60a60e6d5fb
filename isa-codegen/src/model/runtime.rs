//! The project's runtime data of a tree (`rng-runtime.json`), checked against the model:
//! every instruction, engine and algorithm it names must exist in the generation.

use super::Model;
use crate::diag::{Loc, Sink};
use crate::read::runtime::{Runtime, RUNTIME_FILE};

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
pub const RAND_ALGORITHM: &str = "NEURON_ISA_TPB_RAND_ALGORITHM";

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

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines()
        .position(|l| l.contains(needle))
        .map_or(0, |k| k as u32 + 1)
}

/// Resolves the file against the model.
pub fn resolve(model: &Model, runtime: &Runtime, text: &str, sink: &mut Sink) -> RuntimeModel {
    let mut wired = Vec::new();
    let engine_enum = model.engine_enum;
    let algo_enum = model.enum_named(RAND_ALGORITHM);
    for w in &runtime.firmware {
        let loc = Loc::new(RUNTIME_FILE, line_of(text, &format!("\"{}\"", w.source)));
        let Some(opcode) = model.opcode_named(&w.instruction) else {
            sink.push(
                loc,
                format!("`{}` is not an opcode of this tree", w.instruction),
            );
            continue;
        };
        let member = |e: Option<usize>, name: &str, what: &str| -> Result<usize, String> {
            let e = e.ok_or(format!("the tree has no {what} enum"))?;
            model.enums[e]
                .members
                .iter()
                .position(|m| m.short == name && m.alias_of.is_none())
                .ok_or(format!(
                    "`{name}` is not a member of {}",
                    model.enums[e].c_name
                ))
        };
        let evidence = isa_core::Evidence::from_name(&w.evidence).ok_or(format!(
            "evidence `{}` is not a level: one of observed, inferred, assumed (headers/PROVENANCE.md)",
            w.evidence
        ));
        match (
            member(engine_enum, &w.engine, "engine"),
            member(algo_enum, &w.algorithm, "algorithm"),
            evidence,
        ) {
            (Ok(engine), Ok(algorithm), Ok(evidence)) => wired.push(WiredBody {
                opcode,
                engine,
                algorithm,
                evidence,
                source: w.source.clone(),
            }),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => sink.push(loc, e),
        }
    }
    RuntimeModel {
        wired,
        note: runtime.firmware_note.clone(),
        overrides: runtime.model.clone(),
    }
}
