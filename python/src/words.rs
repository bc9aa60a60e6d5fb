//! What Python asks of one instruction word or a stream of them, for any generation: decoding,
//! the disassembly line, the fields by name, validation, engine placement and legality.
//!
//! A word is kept as its 64 bytes (it decoded once, so it decodes again); every operation
//! decodes it with the generation's own `Instruction::decode`, so Python sees the Rust behaviour.

use crate::for_gen;
use crate::gens::{Gen, Target};
use crate::names;
use isa_core::{FieldInfo, FieldKind, Isa, VendorEnum, Violation, INST_NBYTES};
use rng_core::{CheckpointKind, Generation};

/// A field value as Python shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer (unsigned fields, unions of at most 8 bytes, array elements).
    Int(i128),
    /// A float field.
    Float(f64),
    /// An enum field: the vendor member name.
    Member(&'static str),
    /// A byte array (reserved space), or a union wider than 8 bytes.
    Bytes(Vec<u8>),
    /// An array field, element by element.
    List(Vec<Value>),
    /// A record: its fields in order.
    Record(Vec<(String, Value)>),
}

/// Why a word is refused, in one line.
pub type Refusal = String;

/// The word as generation `gen`'s instruction, or why it is none (the decode error, one line).
pub fn check(gen: Gen, word: &[u8; INST_NBYTES]) -> Result<(), Refusal> {
    for_gen!(gen, G => G::decode(word).map(|_| ()).map_err(|e| e.to_string()))
}

/// The `Display` line of a word that decodes.
pub fn display(gen: Gen, word: &[u8; INST_NBYTES]) -> String {
    for_gen!(gen, G => match G::decode(word) {
        Ok(inst) => inst.to_string(),
        Err(e) => format!("<does not decode: {e}>"),
    })
}

/// The opcode's vendor name (`RAND2`), or `opcode 0x..` for a byte the generation lacks.
pub fn opcode_name(gen: Gen, byte: u8) -> String {
    for_gen!(gen, G => match G::opcode(byte) {
        Some(op) => op.vendor_name().to_string(),
        None => format!("opcode {byte:#04x}"),
    })
}

fn leaf(f: &FieldInfo, word: &[u8; INST_NBYTES]) -> Value {
    match f.kind {
        FieldKind::Unsigned if f.size <= 8 => Value::Int(i128::from(f.raw(word))),
        FieldKind::Signed if f.size <= 8 => Value::Int(i128::from(f.signed(word))),
        FieldKind::Float if f.size == 4 => {
            Value::Float(f64::from(f32::from_bits(f.raw(word) as u32)))
        }
        FieldKind::Float if f.size == 8 => Value::Float(f64::from_bits(f.raw(word))),
        FieldKind::Enum { member, .. } => {
            let raw = f.raw(word);
            member(raw).map_or(Value::Int(i128::from(raw)), Value::Member)
        }
        FieldKind::Union { .. } if f.size <= 8 && f.bits.is_none() => {
            Value::Int(i128::from(f.raw(word)))
        }
        _ => Value::Bytes(f.bytes(word).to_vec()),
    }
}

/// Puts `value` at `path` (`a.b[2].c`) into `record`, creating records and lists on the way.
fn insert(record: &mut Vec<(String, Value)>, path: &str, value: Value) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let (name, index) = match head.split_once('[') {
        Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()),
        None => (head, None),
    };
    let slot = match record.iter().position(|(n, _)| n == name) {
        Some(k) => &mut record[k].1,
        None => {
            let empty = match (index, rest) {
                (Some(_), _) => Value::List(Vec::new()),
                (None, Some(_)) => Value::Record(Vec::new()),
                (None, None) => Value::Int(0),
            };
            record.push((name.to_string(), empty));
            &mut record.last_mut().expect("just pushed").1
        }
    };
    let slot = match (index, slot) {
        (Some(i), Value::List(items)) => {
            while items.len() <= i {
                items.push(match rest {
                    Some(_) => Value::Record(Vec::new()),
                    None => Value::Int(0),
                });
            }
            &mut items[i]
        }
        (_, slot) => slot,
    };
    match (rest, slot) {
        (Some(rest), Value::Record(inner)) => insert(inner, rest, value),
        (_, slot) => *slot = value,
    }
}

/// Every field of the word by name, as nested records (the generated `FIELDS` table, in order).
pub fn fields(gen: Gen, word: &[u8; INST_NBYTES]) -> Vec<(String, Value)> {
    let table: &[FieldInfo] =
        for_gen!(gen, G => G::opcode(word[0]).and_then(G::fields_of).unwrap_or(&[]));
    let mut record = Vec::new();
    for f in table {
        insert(&mut record, f.path, leaf(f, word));
    }
    record
}

/// A failed validation, as Python's `Violation` carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The predicate chain, top-level validator first.
    pub path: Vec<&'static str>,
    /// The predicate that failed.
    pub predicate: &'static str,
    /// The fields it read: name, value, member name for an enum.
    pub values: Vec<(&'static str, i64, Option<&'static str>)>,
    /// Rust's `Display` of the violation.
    pub text: String,
}

impl Failure {
    fn of(v: &Violation) -> Failure {
        Failure {
            path: v.path().to_vec(),
            predicate: v.predicate(),
            values: v.fields().map(|f| (f.name, f.value, f.member)).collect(),
            text: v.to_string(),
        }
    }
}

/// Why `validate` did not run or did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// Not an engine of the generation (a usage error), with the message.
    Engine(String),
    /// The word does not decode (cannot happen for a word that decoded once), with the message.
    Decode(String),
    /// The validator's verdict.
    Violation(Failure),
}

fn engine_of<G: Isa>(text: &str) -> Result<G::Engine, Invalid> {
    names::lookup(G::Engine::all(), G::Engine::vendor_name, text).ok_or_else(|| {
        Invalid::Engine(format!(
            "{} has no engine `{text}` (its engines: {})",
            G::INFO.name,
            names::choices(G::Engine::all(), G::Engine::vendor_name)
        ))
    })
}

/// Runs the generation's validator over the word as executed by `engine` (a `NeuronEngine`
/// member: `dve`, `POOL`, ...).
pub fn validate(gen: Gen, word: &[u8; INST_NBYTES], engine: &str) -> Result<(), Invalid> {
    for_gen!(gen, G => {
        let e = engine_of::<G>(engine)?;
        let inst = G::decode(word).map_err(|e| Invalid::Decode(e.to_string()))?;
        G::validate(&inst, e).map_err(|v| Invalid::Violation(Failure::of(&v)))
    })
}

/// Decodes and validates every word of `stream` on `engine`: `out[k]` is 1 when word `k`
/// decodes and is valid, else 0. `stream` holds whole words and `out` one byte per word.
pub fn validate_stream(
    gen: Gen,
    stream: &[u8],
    engine: &str,
    out: &mut [u8],
) -> Result<(), Invalid> {
    fn run<G: Target>(stream: &[u8], e: G::Engine, out: &mut [u8]) {
        for (word, ok) in stream.chunks_exact(INST_NBYTES).zip(out.iter_mut()) {
            let word: &[u8; INST_NBYTES] = word.try_into().expect("whole words");
            *ok = u8::from(G::decode(word).is_ok_and(|inst| G::validate(&inst, e).is_ok()));
        }
    }
    for_gen!(gen, G => {
        let e = engine_of::<G>(engine)?;
        run::<G>(stream, e, out);
        Ok(())
    })
}

/// Why a byte stream does not split into words: its length, or where it has a partial word.
pub fn whole_words(stream: &[u8]) -> Result<usize, Refusal> {
    let tail = stream.len() % INST_NBYTES;
    if tail != 0 {
        return Err(format!(
            "a stream of {} bytes ends in a partial word: {tail} bytes at offset {:#x} where an instruction word is {INST_NBYTES} bytes",
            stream.len(),
            stream.len() - tail
        ));
    }
    Ok(stream.len() / INST_NBYTES)
}

/// The generation's opcode named `name` (vendor name), or why there is none.
fn opcode<G: Isa>(name: &str) -> Result<G::Opcode, Refusal> {
    G::opcodes()
        .iter()
        .copied()
        .find(|o| o.vendor_name() == name)
        .ok_or_else(|| format!("{} has no instruction `{name}`", G::INFO.name))
}

/// The engines that run `opcode` (vendor names), as the tree's engine placement says.
pub fn engines(gen: Gen, name: &str) -> Result<Vec<&'static str>, Refusal> {
    for_gen!(gen, G => {
        let op = opcode::<G>(name)?;
        Ok(G::engines(op).iter().map(|e| e.vendor_name()).collect())
    })
}

/// The engines of the generation (`NeuronEngine` members).
pub fn engine_names(gen: Gen) -> Vec<&'static str> {
    for_gen!(gen, G => <G as Isa>::Engine::all().iter().map(|e| e.vendor_name()).collect())
}

/// One legal arm of a checkpoint instruction: its columns, as `neuron-isa matrix` spells them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    /// `(column, value)` in the table's order; `words` and the firmware columns are apart.
    pub columns: Vec<(&'static str, &'static str)>,
    /// State words per partition.
    pub words: u8,
    /// Whether the shipped firmware has a body for the arm.
    pub firmware: bool,
    /// How that is known (`observed`, `inferred`, `assumed`), when it is wired.
    pub evidence: Option<&'static str>,
}

/// The legality table of `instruction` (RAND_SET_STATE or RAND_GET_STATE).
pub fn legality(gen: Gen, instruction: &str) -> Result<Vec<Arm>, Refusal> {
    for_gen!(gen, G => {
        opcode::<G>(instruction)?;
        let kind = match instruction {
            "RAND_SET_STATE" => CheckpointKind::Restore,
            "RAND_GET_STATE" => CheckpointKind::Save,
            _ => {
                return Err(format!(
                    "{} has legality tables for RAND_SET_STATE and RAND_GET_STATE, not {instruction}",
                    G::INFO.name
                ))
            }
        };
        // `Generation::UINT32_DTYPE`: the only state type.
        let dtype = "UINT32";
        let arms = match kind {
            CheckpointKind::Restore => G::SET_STATE_ARMS,
            CheckpointKind::Save => G::GET_STATE_ARMS,
        };
        Ok(arms
            .iter()
            .map(|a| {
                let mut columns = vec![
                    ("engine", a.engine.name()),
                    ("rand_generator", a.generator.name()),
                    ("rand_algorithm", a.algorithm.name()),
                ];
                match a.update {
                    Some(u) => {
                        columns.push(("update_state", u.name()));
                        columns.push(("in_dtype", dtype));
                    }
                    None => columns.push(("dtype", dtype)),
                }
                let firmware = G::firmware(kind, a.engine, a.algorithm);
                Arm {
                    columns,
                    words: a.words,
                    firmware: firmware.is_wired() == Some(true),
                    evidence: firmware.evidence().map(isa_core::Evidence::name),
                }
            })
            .collect())
    })
}

/// The [`Gen`] of a marker type.
pub fn gen_of<G: Isa>() -> Gen {
    Gen::from_name(G::INFO.name).expect("a generation this crate serves")
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_mariana::{Instruction, Mariana, NeuronEngine, RandSetState, StateTensor};

    fn restore() -> [u8; 64] {
        use isa_mariana::arm::{Pool, RngXorwow, Xorwow};
        RandSetState::restore::<Pool, RngXorwow, Xorwow, 6>(StateTensor::sbuf(0, 0x100), 128)
            .to_bytes()
    }

    #[test]
    fn fields_nest_by_path() {
        let word = restore();
        let f = fields(Gen::Mariana, &word);
        let get = |name: &str| f.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        assert_eq!(get("rand_algorithm"), Some(Value::Member("XORWOW")));
        assert_eq!(get("num_active_channels"), Some(Value::Int(128)));
        let Some(Value::Record(src)) = get("src_mem_pattern") else {
            panic!("src_mem_pattern is a record: {f:?}")
        };
        assert!(src.contains(&("start_addr".into(), Value::Int(0x100))));
        assert!(src.contains(&("num_elem".into(), Value::List(vec![Value::Int(6)]))));
        let Some(Value::List(imm)) = get("imm_state") else {
            panic!("imm_state is a list")
        };
        assert_eq!(imm.len(), 8);
        assert!(matches!(get("reserved"), Some(Value::Bytes(b)) if b == [0; 7]));
    }

    #[test]
    fn validation_reports_rusts_violation() {
        let word = restore();
        assert_eq!(validate(Gen::Mariana, &word, "pool"), Ok(()));
        let typed = Instruction::decode(&word).unwrap();
        let rust = typed.validate(NeuronEngine::Dve).unwrap_err();
        let Err(Invalid::Violation(v)) = validate(Gen::Mariana, &word, "DVE") else {
            panic!("invalid on DVE")
        };
        assert_eq!(v.text, rust.to_string());
        assert_eq!(v.path, rust.path().to_vec());
        assert_eq!(v.predicate, "rand_set_state_legal_combinations");
        assert!(v.values.contains(&("engine", 3, Some("DVE"))));
        assert!(matches!(
            validate(Gen::Mariana, &word, "gpu"),
            Err(Invalid::Engine(m)) if m.contains("MARIANA has no engine `gpu`") && m.contains("dve")
        ));
    }

    #[test]
    fn streams_are_validated_word_by_word() {
        let mut stream = restore().repeat(3);
        stream[64] = 0xff; // word 1: an opcode MARIANA lacks
        let mut out = [7u8; 3];
        validate_stream(Gen::Mariana, &stream, "pool", &mut out).unwrap();
        assert_eq!(out, [1, 0, 1]);
        assert_eq!(whole_words(&stream), Ok(3));
        assert!(whole_words(&stream[..100])
            .unwrap_err()
            .contains("36 bytes at offset 0x40"));
    }

    #[test]
    fn legality_follows_the_generated_tables() {
        let arms = legality(Gen::Mariana, "RAND_SET_STATE").unwrap();
        assert_eq!(arms.len(), <Mariana as Generation>::SET_STATE_ARMS.len());
        assert_eq!(arms.len(), isa_mariana::legality::RAND_SET_STATE_ARMS.len());
        let pool_xorwow = arms
            .iter()
            .find(|a| a.columns[0].1 == "POOL" && a.columns[2].1 == "XORWOW")
            .unwrap();
        assert_eq!(pool_xorwow.words, 6);
        assert_eq!(
            (pool_xorwow.firmware, pool_xorwow.evidence),
            (true, Some("observed"))
        );
        assert_eq!(pool_xorwow.columns[3], ("update_state", "SRC_TENSOR"));
        let save = legality(Gen::Mariana, "RAND_GET_STATE").unwrap();
        assert_eq!(save[0].columns[3], ("dtype", "UINT32"));
        assert!(legality(Gen::Mariana, "RAND2")
            .unwrap_err()
            .contains("not RAND2"));
        assert!(legality(Gen::Sunda, "RAND3")
            .unwrap_err()
            .contains("SUNDA has no instruction"));
        assert_eq!(engines(Gen::Mariana, "RAND2"), Ok(vec!["DVE"]));
    }
}
