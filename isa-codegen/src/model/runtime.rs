//! The project's runtime data of a tree (`rng-runtime.json`), checked against the model and
//! turned into the vocabulary's values: every instruction, engine and algorithm it names must
//! exist in the generation and be one rng-core models, every model override a value rng-core
//! has. What is wrong is an error at the entry's or the key's line; what passes is typed, so
//! the emitter only writes it out.

use super::Model;
use crate::diag::{Loc, Sink};
use crate::model::OpcodeId;
use crate::read::runtime::{Choice, Runtime, RUNTIME_FILE};
use isa_core::vocab::{
    Algorithm, CheckpointKind, Engine, LaneInterleave, PhiloxOffset, SubGeneratorLayout,
    VendorNames, Vocabulary, ZeroGuard,
};

/// One wired body, resolved.
#[derive(Clone, Debug)]
pub struct WiredBody {
    /// Opcode index.
    pub opcode: OpcodeId,
    /// Member index in the engine enum.
    pub engine: usize,
    /// Member index in the algorithm enum.
    pub algorithm: usize,
    /// How it is known (`headers/PROVENANCE.md` defines the levels).
    pub evidence: isa_core::Evidence,
    /// Where.
    pub source: String,
    /// The opcode as the checkpoint instruction rng-core models.
    pub kind: CheckpointKind,
    /// The engine member as rng-core's engine.
    pub rng_engine: Engine,
    /// The algorithm member as rng-core's algorithm.
    pub rng_algorithm: Algorithm,
}

/// The model overrides of the file, as values of rng-core's model choices (each `None` when the
/// file keeps rng-core's reconstruction).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelOverrides {
    /// XORWOW power-on state, x..d.
    pub xorwow_default_seed: Option<[u32; 6]>,
    /// The restore zero-guard.
    pub zero_guard: Option<ZeroGuard>,
    /// How the DVE XORWOW words map to sub-generators.
    pub dve_xorwow_layout: Option<SubGeneratorLayout>,
    /// Which sub-generator draws which element.
    pub lane_interleave: Option<LaneInterleave>,
    /// What the Philox offset word means.
    pub philox_offset: Option<PhiloxOffset>,
    /// LFSR taps, width first.
    pub lfsr_taps: Option<[u8; 4]>,
    /// Which PCG32 word is the low half.
    pub pcg32_low_word: Option<u8>,
    /// The PCG32 increment.
    pub pcg32_increment: Option<u64>,
}

/// The runtime data, resolved.
#[derive(Clone, Debug)]
pub struct RuntimeModel {
    /// Wired bodies.
    pub wired: Vec<WiredBody>,
    /// Entries recorded as not wired (the same fields; the evidence is of the absence).
    pub not_wired: Vec<WiredBody>,
    /// The file's note on the set.
    pub note: String,
    /// Model overrides.
    pub overrides: ModelOverrides,
}

/// C name of the algorithm enum.
pub const RAND_ALGORITHM: &str = Algorithm::VENDOR_ENUM;

impl RuntimeModel {
    /// Whether `opcode` on engine member `engine` has a body for algorithm member `algorithm`,
    /// with the evidence level of the entry; `Unknown` when neither list records it.
    pub fn firmware(
        &self,
        opcode: OpcodeId,
        engine: usize,
        algorithm: usize,
    ) -> isa_core::Firmware {
        let entry = |list: &[WiredBody]| {
            list.iter()
                .find(|w| w.opcode == opcode && w.engine == engine && w.algorithm == algorithm)
                .map(|w| w.evidence)
        };
        match (entry(&self.wired), entry(&self.not_wired)) {
            (Some(e), _) => isa_core::Firmware::Wired(e),
            (None, Some(e)) => isa_core::Firmware::NotWired(e),
            (None, None) => isa_core::Firmware::Unknown,
        }
    }
}

/// The line of each entry (its `"instruction"` key) of the list under `key`, in file order: the
/// file is checked for duplicate keys, so each entry has exactly one (the scan may run on into a
/// later list; only the first entries are the list's).
fn entry_lines(text: &str, key: &str) -> Vec<u32> {
    let from = text.find(&format!("\"{key}\"")).unwrap_or(0);
    let mut lines = Vec::new();
    let mut at = from;
    while let Some(k) = text[at..].find("\"instruction\"") {
        at += k + "\"instruction\"".len();
        if text[at..].trim_start().starts_with(':') {
            lines.push(line_at(text, at));
        }
    }
    lines
}

/// The 1-based line of byte offset `at`.
fn line_at(text: &str, at: usize) -> u32 {
    text[..at].matches('\n').count() as u32 + 1
}

/// `name` as a member of the tree's enum of `V` that rng-core also models: its index and its
/// vocabulary value; otherwise a message naming what is allowed.
fn member<V: VendorNames>(model: &Model, name: &str, what: &str) -> Result<(usize, V), String> {
    let e = model
        .enum_named(V::VENDOR_ENUM)
        .ok_or(format!("the tree has no {what} enum"))?;
    let members = &model.enums[e].members;
    let modelled = |short: &str| V::from_name(short);
    members
        .iter()
        .position(|m| m.short == name && m.alias_of.is_none())
        .and_then(|k| Some((k, modelled(name)?)))
        .ok_or_else(|| {
            let allowed: Vec<&str> = members
                .iter()
                .filter(|m| m.alias_of.is_none() && modelled(&m.short).is_some())
                .map(|m| m.short.as_str())
                .collect();
            format!(
                "{what} `{name}` is not one with a firmware body: one of {} (members of {} that rng-core models)",
                allowed.join(", "),
                model.enums[e].c_name
            )
        })
}

/// The opcode `name` names, if it is one of the tree's and a checkpoint instruction.
fn checkpoint(model: &Model, name: &str) -> Result<(OpcodeId, CheckpointKind), String> {
    let kinds: Vec<&str> = CheckpointKind::names().collect();
    match (model.opcode_named(name), CheckpointKind::from_name(name)) {
        (Some(op), Some(kind)) => Ok((op, kind)),
        (Some(_), None) => Err(format!(
            "instruction `{name}` has no firmware body: one of {}",
            kinds.join(", ")
        )),
        (None, _) => Err(format!(
            "instruction `{name}` is not an opcode of this tree (one of {})",
            kinds.join(", ")
        )),
    }
}

/// Resolves the file against the model. Every name must be one the generated code can use: an
/// entry that named an engine rng-core does not model would be dropped from the rng-core data
/// but kept in the legality tables' firmware answers, so it is an error, never skipped.
pub fn resolve(model: &Model, runtime: &Runtime, sink: &mut Sink) -> RuntimeModel {
    let wired = entries(model, runtime, "firmware", &runtime.firmware, sink);
    let not_wired = entries(model, runtime, "not_wired", &runtime.not_wired, sink);
    let lines = entry_lines(&runtime.text, "not_wired");
    for (k, n) in not_wired.iter().enumerate() {
        if wired
            .iter()
            .any(|w| (w.opcode, w.engine, w.algorithm) == (n.opcode, n.engine, n.algorithm))
        {
            sink.push(
                Loc::new(RUNTIME_FILE, lines.get(k).copied().unwrap_or(0)),
                format!(
                    "{} on {} with {} is listed both as wired and as not wired",
                    n.kind.name(),
                    n.rng_engine.name(),
                    n.rng_algorithm.name()
                ),
            );
        }
    }
    let resolved = RuntimeModel {
        wired,
        not_wired,
        note: runtime.firmware_note.clone(),
        overrides: overrides(runtime, sink),
    };
    unrecorded_arms(model, &resolved, runtime, sink);
    resolved
}

/// Every legal checkpoint arm's (instruction, engine, algorithm) should be recorded, wired or
/// not: one in neither list answers `Unknown`, a warning at the file (an error under `--strict`).
fn unrecorded_arms(model: &Model, rt: &RuntimeModel, runtime: &Runtime, sink: &mut Sink) {
    let (Some(engine_enum), Some(algorithm_enum)) =
        (model.engine_enum, model.enum_named(RAND_ALGORITHM))
    else {
        return;
    };
    let line = runtime
        .text
        .find("\"not_wired\"")
        .or_else(|| runtime.text.find("\"firmware\""))
        .map_or(0, |at| line_at(&runtime.text, at));
    let mut seen = Vec::new();
    for t in &model.tables {
        let (Some(e), Some(a)) = (t.column_of(engine_enum), t.column_of(algorithm_enum)) else {
            continue;
        };
        for arm in &t.arms {
            let key = (t.opcode, arm.values[e], arm.values[a]);
            if seen.contains(&key)
                || rt.firmware(key.0, key.1, key.2) != isa_core::Firmware::Unknown
            {
                continue;
            }
            seen.push(key);
            sink.warn(
                Loc::new(RUNTIME_FILE, line),
                format!(
                    "{} on {} with {} is a legal arm that neither `firmware` nor `not_wired` records: its firmware answer is unknown",
                    model.opcodes[key.0].short,
                    model.enums[engine_enum].members[key.1].short,
                    model.enums[algorithm_enum].members[key.2].short
                ),
            );
        }
    }
}

/// The entries of the list under `key`, resolved; an entry naming what the generated code
/// cannot use is an error at its line.
fn entries(
    model: &Model,
    runtime: &Runtime,
    key: &str,
    list: &[crate::read::runtime::Wired],
    sink: &mut Sink,
) -> Vec<WiredBody> {
    let mut wired = Vec::new();
    let lines = entry_lines(&runtime.text, key);
    for (k, w) in list.iter().enumerate() {
        let loc = Loc::new(RUNTIME_FILE, lines.get(k).copied().unwrap_or(0));
        let evidence = isa_core::Evidence::from_name(&w.evidence).ok_or_else(|| {
            let levels: Vec<&str> = isa_core::Evidence::ALL.map(|e| e.name()).to_vec();
            format!(
                "evidence `{}` is not a level: one of {} (headers/PROVENANCE.md)",
                w.evidence,
                levels.join(", ")
            )
        });
        match (
            checkpoint(model, &w.instruction),
            member::<Engine>(model, &w.engine, "engine"),
            member::<Algorithm>(model, &w.algorithm, "algorithm"),
            evidence,
        ) {
            (
                Ok((opcode, kind)),
                Ok((engine, rng_engine)),
                Ok((algorithm, rng_algorithm)),
                Ok(evidence),
            ) => wired.push(WiredBody {
                opcode,
                engine,
                algorithm,
                evidence,
                source: w.source.clone(),
                kind,
                rng_engine,
                rng_algorithm,
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
    wired
}

/// The model overrides as rng-core's values. A string that names none (the crate would have no
/// `rng_core::Generation` impl) is an error at the key's line, and the override is dropped.
fn overrides(runtime: &Runtime, sink: &mut Sink) -> ModelOverrides {
    let m = &runtime.model;
    let mut named = Named { runtime, sink };
    ModelOverrides {
        xorwow_default_seed: value(&m.xorwow_default_seed),
        zero_guard: named.parse(
            "zero_guard",
            &m.zero_guard,
            ZeroGuard::from_name,
            &ZeroGuard::FORMS,
        ),
        dve_xorwow_layout: named.choice("dve_xorwow_layout", &m.dve_xorwow_layout),
        lane_interleave: named.choice("lane_interleave", &m.lane_interleave),
        philox_offset: named.choice("philox_offset", &m.philox_offset),
        lfsr_taps: value(&m.lfsr_taps),
        pcg32_low_word: value(&m.pcg32_low_word),
        pcg32_increment: value(&m.pcg32_increment),
    }
}

/// The value of a numeric override.
fn value<T: Copy>(choice: &Option<Choice<T>>) -> Option<T> {
    choice.as_ref().map(|c| c.value)
}

/// Parses the string-valued overrides, reporting each unknown one at its key's line.
struct Named<'a> {
    runtime: &'a Runtime,
    sink: &'a mut Sink,
}

impl Named<'_> {
    /// The override of `key` as a member of the vocabulary `V`.
    fn choice<V: Vocabulary>(&mut self, key: &str, choice: &Option<Choice<String>>) -> Option<V> {
        let allowed: Vec<&str> = V::names().collect();
        self.parse(key, choice, V::from_name, &allowed)
    }

    /// The override of `key` through `parse`; `allowed` lists the spellings for the message.
    fn parse<T>(
        &mut self,
        key: &str,
        choice: &Option<Choice<String>>,
        parse: impl Fn(&str) -> Option<T>,
        allowed: &[&str],
    ) -> Option<T> {
        let c = choice.as_ref()?;
        let parsed = parse(&c.value);
        if parsed.is_none() {
            let text = &self.runtime.text;
            let model = text.find("\"model\"").unwrap_or(0);
            let line = text[model..]
                .find(&format!("\"{key}\""))
                .map_or(0, |k| line_at(text, model + k));
            self.sink.push(
                Loc::new(RUNTIME_FILE, line),
                format!(
                    "model override `{key}` is `{}`: one of {}",
                    c.value,
                    allowed.join(", ")
                ),
            );
        }
        parsed
    }
}
