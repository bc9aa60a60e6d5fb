//! `decode`: every field of each word by name, from the generated `FieldInfo` tables, or
//! (`--short`) one disassembly line per word.

use crate::fail::{Failure, Outcome};
use crate::out::Out;
use crate::words::Input;
use isa_core::{DecodeError, FieldInfo, FieldKind, Isa, VendorEnum, INST_NBYTES};
use std::fmt::Write as _;
use std::io::Write;

/// Decodes every word of `input` to `out`; words that do not decode are counted and fail with exit 1.
pub fn decode<G: Isa, W: Write>(input: &Input, json: bool, out: &mut Out<W>) -> Outcome {
    let mut bad = 0u64;
    let mut plans = Plans::<G>::new();
    if json {
        out.str("[");
    }
    let total = input.for_each(|index, word| {
        let w = Word {
            index,
            bytes: word,
            error: G::decode(word).err(),
        };
        let plan = plans.get(word[0]);
        if json {
            if index > 0 {
                out.str(",");
            }
            out.str("\n  ");
            word_json(plan, &w, out);
        } else {
            word_text(plan, &w, out);
        }
        bad += u64::from(w.error.is_some());
        out.maybe_flush()?;
        Ok(())
    });
    // Close the JSON array even when the input failed part-way, so the partial output still parses.
    if json {
        out.str(if matches!(total, Ok(n) if n > 0) {
            "\n]\n"
        } else {
            "]\n"
        });
    }
    let total = total?;
    out.flush()?;
    if bad > 0 {
        return Err(Failure::invalid(format!(
            "decode: {bad} of {total} words do not decode as {} instructions",
            G::INFO.name
        )));
    }
    Ok(())
}

/// Disassembly texts `--short` keeps for reuse.
const RECENT_WORDS: usize = 8;

/// `--short`: one line per word, `word N @ 0xOFF: ` and the instruction's `Display` (its
/// one-line disassembly), or `error: does not decode: ...`; words that do not decode are
/// counted and fail with exit 1.
pub fn decode_short<G: Isa, W: Write>(input: &Input, out: &mut Out<W>) -> Outcome {
    let mut bad = 0u64;
    // Recent words and their text: streams repeat words, and the text is a pure function of them.
    let mut recent: Vec<([u8; INST_NBYTES], bool, Vec<u8>)> = Vec::with_capacity(RECENT_WORDS);
    let mut next_slot = 0;
    let total = input.for_each(|index, word| {
        out.str("word ");
        out.dec(index);
        out.str(" @ ");
        out.hex(index * INST_NBYTES as u64, 0);
        out.str(": ");
        match recent.iter().find(|(w, _, _)| w == word) {
            Some((_, ok, text)) => {
                bad += u64::from(!ok);
                out.bytes(text);
            }
            None => {
                let mark = out.position();
                let ok = match G::decode(word) {
                    Ok(inst) => write!(out, "{inst}").is_ok(),
                    Err(e) => {
                        let _ = write!(out, "error: does not decode: {e}");
                        false
                    }
                };
                bad += u64::from(!ok);
                let entry = (*word, ok, out.since(mark).to_vec());
                if recent.len() < RECENT_WORDS {
                    recent.push(entry);
                } else {
                    recent[next_slot] = entry;
                    next_slot = (next_slot + 1) % RECENT_WORDS;
                }
            }
        }
        out.str("\n");
        out.maybe_flush()?;
        Ok(())
    })?;
    out.flush()?;
    if bad > 0 {
        return Err(Failure::invalid(format!(
            "decode: {bad} of {total} words do not decode as {} instructions",
            G::INFO.name
        )));
    }
    Ok(())
}

/// The opcode's member name, when the byte is an opcode of `G`.
fn opcode_name<G: Isa>(byte: u8) -> Option<(G::Opcode, &'static str)> {
    G::opcode(byte).map(|op| (op, op.vendor_name()))
}

/// What the text form prints for one opcode byte, built once per byte seen.
struct Plan {
    /// `": NAME (0xNN)\n"`.
    title: Vec<u8>,
    /// The operand struct's leaf fields (empty for an unknown or unmapped opcode).
    fields: &'static [FieldInfo],
    /// `"  path = "` per field.
    labels: Vec<Vec<u8>>,
    /// `, "opcode": N, "name": "NAME", "fields": [`.
    json_title: Vec<u8>,
    /// `{"name": "path", "offset": N, "value": ` per field.
    json_labels: Vec<Vec<u8>>,
    /// Per field, the last storage unit seen and the text line it rendered to (fields of
    /// at most 8 bytes render as a pure function of their unit, and streams repeat most
    /// field values from word to word).
    memo: Vec<Memo>,
    /// The same for the JSON form.
    json_memo: Vec<Memo>,
}

/// A field's last storage unit and what it rendered to.
type Memo = Option<(u64, Vec<u8>)>;

/// Appends what `render` appends for a field whose storage unit is `key`, reusing the
/// previous rendering when the unit is unchanged (`None`: a field wider than 8 bytes, never reused).
#[inline]
fn memoized<W: Write>(
    out: &mut Out<W>,
    memo: &mut Memo,
    key: Option<u64>,
    render: impl FnOnce(&mut Out<W>),
) {
    match (key, &*memo) {
        (Some(k), Some((last, text))) if *last == k => out.bytes(text),
        _ => {
            let mark = out.position();
            render(out);
            if let Some(k) = key {
                let slot = memo.get_or_insert_with(|| (k, Vec::new()));
                slot.0 = k;
                slot.1.clear();
                slot.1.extend_from_slice(out.since(mark));
            }
        }
    }
}

impl Plan {
    fn of<G: Isa>(byte: u8) -> Plan {
        let op = opcode_name::<G>(byte);
        let title = format!(": {} ({byte:#04x})\n", op.map_or("?", |(_, n)| n)).into_bytes();
        let fields = op.and_then(|(op, _)| G::fields_of(op)).unwrap_or(&[]);
        let labels = fields
            .iter()
            .map(|f| format!("  {} = ", f.path).into_bytes())
            .collect();
        let mut json_title = Out::new(Vec::new());
        json_title.str(", \"opcode\": ");
        json_title.dec(u64::from(byte));
        json_title.str(", \"name\": ");
        match op {
            Some((_, name)) => json_title.json_str(name),
            None => json_title.str("null"),
        }
        json_title.str(", \"fields\": [");
        let json_labels = fields
            .iter()
            .map(|f| {
                let mut l = Out::new(Vec::new());
                l.str("{\"name\": ");
                l.json_str(f.path);
                l.str(", \"offset\": ");
                l.dec(f.offset as u64);
                l.str(", \"value\": ");
                l.into_buffer()
            })
            .collect();
        Plan {
            title,
            fields,
            labels,
            json_title: json_title.into_buffer(),
            json_labels,
            memo: vec![None; fields.len()],
            json_memo: vec![None; fields.len()],
        }
    }
}

/// The text form's per-opcode plans.
struct Plans<G> {
    plans: Vec<Option<Plan>>,
    _g: core::marker::PhantomData<G>,
}

impl<G: Isa> Plans<G> {
    fn new() -> Self {
        Plans {
            plans: (0..256).map(|_| None).collect(),
            _g: core::marker::PhantomData,
        }
    }

    fn get(&mut self, byte: u8) -> &mut Plan {
        self.plans[usize::from(byte)].get_or_insert_with(|| Plan::of::<G>(byte))
    }
}

/// A field's storage unit (all its bytes, at most 8), little-endian; the common sizes read directly.
#[inline]
fn unit(f: &FieldInfo, word: &[u8; INST_NBYTES]) -> Option<u64> {
    let at = f.offset;
    match f.size {
        1 if at < INST_NBYTES => Some(u64::from(word[at])),
        2 if at + 2 <= INST_NBYTES => Some(u64::from(u16::from_le_bytes([word[at], word[at + 1]]))),
        4 if at + 4 <= INST_NBYTES => Some(u64::from(u32::from_le_bytes([
            word[at],
            word[at + 1],
            word[at + 2],
            word[at + 3],
        ]))),
        1..=8 if at + f.size <= INST_NBYTES => Some(isa_core::le::get_uint(f.bytes(word))),
        _ => None,
    }
}

/// A field's raw value, as [`FieldInfo::raw`] (whole-byte fields read directly).
#[inline]
fn raw(f: &FieldInfo, word: &[u8; INST_NBYTES]) -> u64 {
    match (f.bits, unit(f, word)) {
        (None, Some(u)) => u,
        _ => f.raw(word),
    }
}

/// One word of the input, with the typed decode's verdict.
struct Word<'a> {
    index: u64,
    bytes: &'a [u8; INST_NBYTES],
    error: Option<DecodeError>,
}

fn word_text<W: Write>(plan: &mut Plan, w: &Word<'_>, out: &mut Out<W>) {
    let (index, word) = (w.index, w.bytes);
    out.str("word ");
    out.dec(index);
    out.str(" @ ");
    out.hex(index * INST_NBYTES as u64, 0);
    out.bytes(&plan.title);
    for ((f, label), memo) in plan.fields.iter().zip(&plan.labels).zip(&mut plan.memo) {
        memoized(out, memo, unit(f, word), |out| {
            out.bytes(label);
            value_text(f, word, out);
            out.str("\n");
        });
    }
    if let Some(e) = &w.error {
        let _ = writeln!(out, "  error: does not decode: {e}");
    }
}

fn value_text<W: Write>(f: &FieldInfo, word: &[u8; INST_NBYTES], out: &mut Out<W>) {
    match f.kind {
        FieldKind::Unsigned if f.size <= 8 => out.dec(raw(f, word)),
        FieldKind::Signed if f.size <= 8 => out.signed(f.signed(word)),
        FieldKind::Float if f.size == 4 => {
            let _ = write!(out, "{}", Fp32(f32::from_bits(raw(f, word) as u32)));
        }
        FieldKind::Float if f.size == 8 => {
            let _ = write!(out, "{:?}", f64::from_bits(raw(f, word)));
        }
        FieldKind::Enum { name, member, .. } => {
            let value = raw(f, word);
            out.dec(value);
            out.str(" (");
            match member(value) {
                Some(m) => out.str(m),
                None => {
                    out.str("not a member of ");
                    out.str(name);
                }
            }
            out.str(")");
        }
        FieldKind::Union {
            shown: isa_core::Shown::Fp32,
            ..
        } if f.size == 4 && f.bits.is_none() => {
            let _ = write!(out, "{}", Fp32(f32::from_bits(raw(f, word) as u32)));
        }
        FieldKind::Union { .. } if f.size <= 8 && f.bits.is_none() => {
            out.hex(raw(f, word), 2 * f.size)
        }
        _ => {
            out.str("[");
            out.hex_bytes(f.bytes(word));
            out.str("]");
        }
    }
}

/// An fp32 value as the disassembly writes it: parses back to the same bits (`NaN(0x7fc00001)`).
struct Fp32(f32);

impl std::fmt::Display for Fp32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        isa_core::fp32(f, self.0)
    }
}

fn word_json<W: Write>(plan: &mut Plan, w: &Word<'_>, out: &mut Out<W>) {
    let (index, word) = (w.index, w.bytes);
    out.str("{\"index\": ");
    out.dec(index);
    out.str(", \"offset\": ");
    out.dec(index * INST_NBYTES as u64);
    out.bytes(&plan.json_title);
    for (k, ((f, label), memo)) in plan
        .fields
        .iter()
        .zip(&plan.json_labels)
        .zip(&mut plan.json_memo)
        .enumerate()
    {
        if k > 0 {
            out.str(", ");
        }
        memoized(out, memo, unit(f, word), |out| {
            out.bytes(label);
            value_json(f, word, out);
            out.str("}");
        });
    }
    out.str("], \"error\": ");
    match &w.error {
        None => out.str("null"),
        Some(e) => out.json_str(&e.to_string()),
    }
    out.str("}");
}

fn value_json<W: Write>(f: &FieldInfo, word: &[u8; INST_NBYTES], out: &mut Out<W>) {
    match f.kind {
        FieldKind::Unsigned if f.size <= 8 => out.dec(raw(f, word)),
        FieldKind::Signed if f.size <= 8 => out.signed(f.signed(word)),
        FieldKind::Float if f.size == 4 || f.size == 8 => {
            let v = if f.size == 4 {
                f64::from(f32::from_bits(f.raw(word) as u32))
            } else {
                f64::from_bits(f.raw(word))
            };
            if v.is_finite() {
                let _ = write!(out, "{v:?}");
            } else {
                out.json_str(&format!("{v}"));
            }
        }
        FieldKind::Enum { member, .. } => {
            let value = raw(f, word);
            out.dec(value);
            out.str(", \"member\": ");
            match member(value) {
                Some(m) => out.json_str(m),
                None => out.str("null"),
            }
        }
        FieldKind::Union { .. } if f.size <= 8 && f.bits.is_none() => out.dec(raw(f, word)),
        _ => {
            out.str("\"");
            out.hex_bytes(f.bytes(word));
            out.str("\"");
        }
    }
}
