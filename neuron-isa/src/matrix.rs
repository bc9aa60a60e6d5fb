//! `matrix`: the legal checkpoint arms of a generation, from the generated tables.

use isa_core::{Evidence, Isa};
use rng_core::{
    Algorithm, CheckpointArm, CheckpointKind, Engine, Generation, Generator, StateUpdate,
};
use serde::Serialize;

/// One legal arm, as the JSON form spells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    /// Generation, lower case (`mariana`).
    pub generation: String,
    /// `RAND_SET_STATE` or `RAND_GET_STATE`.
    pub instruction: &'static str,
    /// `POOL`, `DVE`, `ACT`.
    pub engine: &'static str,
    /// `rand_generator` member name.
    pub generator: &'static str,
    /// `rand_algorithm` member name.
    pub algorithm: &'static str,
    /// `update_state` member name; `None` (null) for RAND_GET_STATE.
    pub update_state: Option<&'static str>,
    /// State words per partition.
    pub words: u8,
    /// Whether the shipped firmware has a body for (instruction, engine, algorithm).
    pub firmware_wired: bool,
    /// How that is known, for a wired body or for its recorded absence (`observed`,
    /// `inferred`, `assumed`; `headers/PROVENANCE.md`); `None` (null) when the runtime data
    /// records neither.
    pub firmware_evidence: Option<&'static str>,
    /// How the arm itself is known, when the header notes it (`inferred` for CAYMAN's arms, whose
    /// number alone is documented; `headers/PROVENANCE.md` A27, C4); `None` (null) when the
    /// header states the arm as it is.
    pub arm_evidence: Option<&'static str>,
}

/// Whether generation `G`'s firmware ships a body for `kind` on `engine` with `algorithm`.
pub fn wired<G: Generation>(kind: CheckpointKind, engine: Engine, algorithm: Algorithm) -> bool {
    G::firmware(kind, engine, algorithm).is_wired() == Some(true)
}

/// The arms of `kind` in generation `G`.
pub fn arms<G: Generation>(kind: CheckpointKind) -> &'static [CheckpointArm] {
    match kind {
        CheckpointKind::Restore => G::SET_STATE_ARMS,
        CheckpointKind::Save => G::GET_STATE_ARMS,
    }
}

/// An arm as a command asks for it: instruction, engine, generator, algorithm and (restores) update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmKey {
    /// Save or restore.
    pub kind: CheckpointKind,
    /// Engine.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `update_state` (restores only).
    pub update: Option<StateUpdate>,
}

impl ArmKey {
    /// The legal arm of `G` it names, if any.
    pub fn find<G: Generation>(&self) -> Option<CheckpointArm> {
        arms::<G>(self.kind)
            .iter()
            .find(|a| {
                a.engine == self.engine
                    && a.generator == self.generator
                    && a.algorithm == self.algorithm
                    && a.update == self.update
            })
            .copied()
    }

    /// `RAND_SET_STATE POOL / RNG_XORWOW / XORWOW / SRC_TENSOR`.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} {} / {} / {}",
            self.kind.name(),
            self.engine.name(),
            self.generator.name(),
            self.algorithm.name()
        );
        if let Some(u) = self.update {
            s.push_str(" / ");
            s.push_str(u.name());
        }
        s
    }
}

/// Every legal arm of `G`: RAND_SET_STATE first, then RAND_GET_STATE, in table order.
pub fn rows<G: Isa + Generation>() -> Vec<Row> {
    let generation = G::INFO.name.to_ascii_lowercase();
    [CheckpointKind::Restore, CheckpointKind::Save]
        .into_iter()
        .flat_map(|kind| arms::<G>(kind).iter().map(move |arm| (kind, arm)))
        .map(|(kind, arm)| Row {
            generation: generation.clone(),
            instruction: kind.name(),
            engine: arm.engine.name(),
            generator: arm.generator.name(),
            algorithm: arm.algorithm.name(),
            update_state: match kind {
                CheckpointKind::Restore => arm.update.map(|u| u.name()),
                CheckpointKind::Save => None,
            },
            words: arm.words,
            firmware_wired: wired::<G>(kind, arm.engine, arm.algorithm),
            firmware_evidence: G::firmware(kind, arm.engine, arm.algorithm)
                .evidence()
                .map(Evidence::name),
            arm_evidence: arm.evidence.map(Evidence::name),
        })
        .collect()
}

/// The rows as a JSON array (one object a line) with a final newline.
pub fn json(rows: &[Row]) -> String {
    let mut s = String::from("[\n");
    for (k, row) in rows.iter().enumerate() {
        s.push_str("  ");
        s.push_str(&spaced(row));
        s.push_str(if k + 1 < rows.len() { ",\n" } else { "\n" });
    }
    s.push_str("]\n");
    s
}

/// The rows as an aligned text table.
pub fn table(rows: &[Row]) -> String {
    const HEAD: [&str; 10] = [
        "GENERATION",
        "INSTRUCTION",
        "ENGINE",
        "GENERATOR",
        "ALGORITHM",
        "UPDATE_STATE",
        "WORDS",
        "FIRMWARE_WIRED",
        "EVIDENCE",
        "ARM_EVIDENCE",
    ];
    let cells: Vec<[String; 10]> = rows
        .iter()
        .map(|r| {
            [
                r.generation.clone(),
                r.instruction.into(),
                r.engine.into(),
                r.generator.into(),
                r.algorithm.into(),
                r.update_state.unwrap_or("-").into(),
                r.words.to_string(),
                if r.firmware_wired { "yes" } else { "no" }.into(),
                r.firmware_evidence.unwrap_or("-").into(),
                r.arm_evidence.unwrap_or("-").into(),
            ]
        })
        .collect();
    let mut width = HEAD.map(str::len);
    for row in &cells {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let mut s = String::new();
    let mut line = |cols: &[&str]| {
        let mut l = String::new();
        for (k, c) in cols.iter().enumerate() {
            if k == 6 {
                // WORDS right-aligned.
                l.push_str(&format!("{c:>w$}  ", w = width[k]));
            } else if k + 1 == cols.len() {
                l.push_str(c);
            } else {
                l.push_str(&format!("{c:<w$}  ", w = width[k]));
            }
        }
        s.push_str(l.trim_end());
        s.push('\n');
    };
    line(&HEAD);
    for row in &cells {
        line(&row.each_ref().map(String::as_str));
    }
    s
}

/// One object on one line, spaced as the issue writes it: `{"a": 1, "b": null}`.
fn spaced(row: &Row) -> String {
    use serde_json::ser::{CompactFormatter, Formatter};
    use std::io;
    struct Spaced;
    impl Formatter for Spaced {
        fn begin_object_key<W: ?Sized + io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b": ")
        }
        fn begin_array_value<W: ?Sized + io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            CompactFormatter.begin_array_value(w, first)
        }
    }
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, Spaced);
    // Serializing plain strings, numbers and booleans into a Vec cannot fail.
    let _ = row.serialize(&mut ser);
    String::from_utf8(buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_rows_are_spelled_like_the_issue() {
        let row = Row {
            generation: "mariana".into(),
            instruction: "RAND_SET_STATE",
            engine: "POOL",
            generator: "RNG_XORWOW",
            algorithm: "XORWOW",
            update_state: Some("SRC_TENSOR"),
            words: 6,
            firmware_wired: true,
            firmware_evidence: Some("observed"),
            arm_evidence: None,
        };
        assert_eq!(
            spaced(&row),
            r#"{"generation": "mariana", "instruction": "RAND_SET_STATE", "engine": "POOL", "generator": "RNG_XORWOW", "algorithm": "XORWOW", "update_state": "SRC_TENSOR", "words": 6, "firmware_wired": true, "firmware_evidence": "observed", "arm_evidence": null}"#
        );
        let text = json(&[
            row.clone(),
            Row {
                update_state: None,
                ..row
            },
        ]);
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed[1]["update_state"], serde_json::Value::Null);
        assert!(text.ends_with("}\n]\n"));
    }
}
