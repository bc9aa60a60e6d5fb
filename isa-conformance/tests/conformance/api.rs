//! The conveniences of the typed layer, for every typed instruction of every generation:
//! `Eq`/`Hash`, the `Display` disassembly, the slice and stream codecs, and the `serde`
//! feature (JSON through serde_json). Written once (`api!`), instantiated per generation.
//!
//! Words are random valid words of each mapped opcode built from its `FIELDS` table (the
//! independent description of the layout), so every expectation about the JSON is checked
//! against the bytes: each leaf field's value sits in the JSON at its path, enums by name.

use crate::support;

use isa_core::{FieldInfo, FieldKind};
use serde_json::Value;
use support::*;

/// The JSON value at a `FieldInfo` path (`src_mem_pattern.num_elem[0]`).
fn at_path<'v>(root: &'v Value, path: &str) -> &'v Value {
    let mut v = root;
    for segment in path.split('.') {
        let mut parts = segment.split('[');
        let key = parts.next().unwrap();
        v = &v[key];
        for index in parts {
            let k: usize = index.trim_end_matches(']').parse().unwrap();
            v = &v[k];
        }
    }
    v
}

/// Checks that `json` (a typed instruction's fields) holds every leaf of `word` at its path.
fn json_matches_word(json: &Value, fields: &[FieldInfo], word: &[u8; 64]) -> Result<(), String> {
    for f in fields.iter().filter(|f| !is_opcode_field(f)) {
        let v = at_path(json, f.path);
        let expected: Value = match f.kind {
            FieldKind::Enum { member, .. } => member(f.raw(word)).unwrap().into(),
            FieldKind::Signed => f.signed(word).into(),
            FieldKind::Unsigned => f.raw(word).into(),
            FieldKind::Union { .. } => serde_json::json!({ "bytes": f.bytes(word) }),
            FieldKind::Bytes => f.bytes(word).to_vec().into(),
            FieldKind::Float => continue,
        };
        if *v != expected {
            return Err(format!("{}: JSON {v}, word {expected}", f.path));
        }
    }
    Ok(())
}

fn hash_of<T: std::hash::Hash>(v: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(v)
}

macro_rules! api {
    ($m:ident: $krate:ident :: $marker:ident) => {
        mod $m {
            use super::*;
            use isa_core::{DecodeError, DecodeErrorKind, EncodeError};
            use proptest::prelude::*;
            use $krate::{inst::fields_of, Instruction, Opcode};

            /// Every mapped opcode with its leaf fields.
            fn mapped() -> Vec<(Opcode, &'static [FieldInfo])> {
                Opcode::ALL
                    .iter()
                    .filter_map(|op| fields_of(*op).map(|f| (*op, f)))
                    .collect()
            }

            proptest! {
                #![proptest_config(proptest_config())]

                /// JSON: tagged by the opcode name, every leaf at its path (enums by member
                /// name), and back to the same instruction; `Eq`/`Hash` agree with the bytes.
                #[test]
                fn every_typed_instruction_round_trips_through_json(
                    raw in any::<[u8; 64]>(),
                    picks in any::<[u8; 64]>(),
                ) {
                    for (op, fields) in mapped() {
                        let word = build_word(fields, op.value(), &raw, &picks);
                        let inst = Instruction::decode(&word).unwrap();
                        let text = serde_json::to_string(&inst).unwrap();
                        let json: Value = serde_json::from_str(&text).unwrap();
                        let object = json.as_object().unwrap();
                        prop_assert_eq!(object.len(), 1);
                        let body = &json[op.name()];
                        prop_assert!(body.is_object(), "{} not tagged by {}", text, op.name());
                        json_matches_word(body, fields, &word).map_err(TestCaseError::fail)?;
                        let back: Instruction = serde_json::from_str(&text).unwrap();
                        prop_assert_eq!(back, inst);
                        prop_assert_eq!(back.to_bytes(), word);
                        prop_assert_eq!(hash_of(&back), hash_of(&inst));
                    }
                }

                /// The disassembly starts with the opcode name and determines the word: two
                /// words of one opcode print alike exactly when they are equal.
                #[test]
                fn the_disassembly_names_the_opcode_and_determines_the_word(
                    raw in any::<[u8; 64]>(),
                    picks in any::<[u8; 64]>(),
                    other in any::<[u8; 64]>(),
                ) {
                    for (op, fields) in mapped() {
                        let a = Instruction::decode(&build_word(fields, op.value(), &raw, &picks)).unwrap();
                        let b = Instruction::decode(&build_word(fields, op.value(), &other, &picks)).unwrap();
                        let (ta, tb) = (a.to_string(), b.to_string());
                        prop_assert!(ta == op.name() || ta.starts_with(&format!("{} ", op.name())), "{}", ta);
                        prop_assert!(!ta.contains('\n') && !ta.contains("  "), "{}", ta);
                        prop_assert_eq!(ta == tb, a == b, "{} / {}", ta, tb);
                        if a == b {
                            prop_assert_eq!(hash_of(&a), hash_of(&b));
                        }
                    }
                }
            }

            #[test]
            fn enum_fields_always_show_and_zero_fields_never_do() {
                for (op, fields) in mapped() {
                    let word = min_word(fields, op.value());
                    let text = Instruction::decode(&word).unwrap().to_string();
                    for f in fields.iter().filter(|f| !is_opcode_field(f)) {
                        let name = f.path.rsplit('.').next().unwrap();
                        let name = name.split('[').next().unwrap();
                        match f.kind {
                            // An enum at the top level always shows, by member name.
                            FieldKind::Enum { member, .. } if !f.path.contains('.') => {
                                let shown = format!(" {name}={}", member(f.raw(&word)).unwrap());
                                assert!(text.contains(&shown), "{text}: {shown}");
                            }
                            FieldKind::Enum { .. } => {}
                            // Everything else is zero here, so left out.
                            _ => assert!(!text.contains(&format!(" {name}=")), "{text}: {name}"),
                        }
                    }
                }
            }

            #[test]
            fn serde_rejects_what_is_not_an_instruction() {
                let (op, fields) = mapped()[0];
                let inst = Instruction::decode(&min_word(fields, op.value())).unwrap();
                let json: Value = serde_json::to_value(inst).unwrap();
                let enum_field = fields
                    .iter()
                    .find(|f| matches!(f.kind, FieldKind::Enum { .. }) && !is_opcode_field(f) && !f.path.contains(['.', '[']))
                    .expect("an enum field at the top level");
                let FieldKind::Enum { name, .. } = enum_field.kind else { unreachable!() };

                let mut bad = json.clone();
                bad[op.name()][enum_field.path] = "NOT_A_MEMBER".into();
                let e = serde_json::from_value::<Instruction>(bad).unwrap_err().to_string();
                assert!(e.contains("NOT_A_MEMBER") && e.contains(name), "{e}");

                let mut extra = json.clone();
                extra[op.name()]["no_such_field"] = 1.into();
                let e = serde_json::from_value::<Instruction>(extra).unwrap_err().to_string();
                assert!(e.contains("no_such_field"), "{e}");

                let mut missing = json.clone();
                missing[op.name()].as_object_mut().unwrap().remove(enum_field.path);
                let e = serde_json::from_value::<Instruction>(missing).unwrap_err().to_string();
                assert!(e.contains(enum_field.path), "{e}");

                let tagged = serde_json::json!({ "NO_SUCH_OPCODE": json[op.name()].clone() });
                let e = serde_json::from_value::<Instruction>(tagged).unwrap_err().to_string();
                assert!(e.contains("NO_SUCH_OPCODE"), "{e}");

                // An array field with one element too many names the expected length.
                let array = fields.iter().find(|f| f.path.contains('[')).expect("an array field");
                let key = array.path.split('[').next().unwrap();
                let mut long = json.clone();
                let target = at_path(&json[op.name()], key).as_array().unwrap().len();
                let mut path = long[op.name()].clone();
                let mut node = &mut path;
                for seg in key.split('.') {
                    node = &mut node[seg];
                }
                node.as_array_mut().unwrap().push(0.into());
                long[op.name()] = path;
                let e = serde_json::from_value::<Instruction>(long).unwrap_err().to_string();
                assert!(e.contains(&format!("expected an array of {target} elements")), "{e}");
            }

            #[test]
            fn words_go_into_and_come_out_of_callers_slices() {
                let mut stream = Vec::new();
                let mut insts = Vec::new();
                for (op, fields) in mapped() {
                    let inst = Instruction::decode(&min_word(fields, op.value())).unwrap();
                    let mut buf = [0xaau8; 70];
                    inst.encode_into(&mut buf).unwrap();
                    assert_eq!(buf[..64], inst.to_bytes());
                    assert_eq!(buf[64..], [0xaa; 6]);
                    assert_eq!(
                        inst.encode_into(&mut buf[..63]),
                        Err(EncodeError { needed: 64, available: 63 })
                    );
                    assert_eq!(Instruction::decode_slice(&buf[..64]), Ok(inst));
                    assert_eq!(Instruction::try_from(&buf[..64]), Ok(inst));
                    assert_eq!(Instruction::decode_slice(&buf), Err(DecodeError::wrong_length(70)));
                    stream.extend_from_slice(&buf[..64]);
                    insts.push(inst);
                }
                stream.extend_from_slice(&[0x01, 0x02, 0x03]);
                let items: Vec<_> = Instruction::iter_words(&stream).collect();
                assert_eq!(items.len(), insts.len() + 1);
                for (k, inst) in insts.iter().enumerate() {
                    assert_eq!(items[k], (64 * k, Ok(*inst)));
                }
                let (offset, last) = items[insts.len()];
                assert_eq!(offset, 64 * insts.len());
                let e = last.unwrap_err();
                assert_eq!((e.kind, e.value), (DecodeErrorKind::WrongLength, 3));
                // The same through the generation-generic trait.
                let via_isa: Vec<_> =
                    <$krate::$marker as isa_core::Isa>::decode_words(&stream).collect();
                assert_eq!(via_isa, items);
            }
        }
    };
}

api!(sunda: isa_sunda::Sunda);
api!(cayman: isa_cayman::Cayman);
api!(mariana: isa_mariana::Mariana);
api!(maverick: isa_maverick::Maverick);

/// A misspelt argument of a `Construct` call names itself and lists the constructor's
/// parameters (every generation with a constructor that has a `dtype` parameter).
#[test]
fn a_misspelt_construct_argument_is_named_with_the_parameters() {
    use isa_core::construct::{Arg, Construct};
    fn check<G: Construct>(generation: &str) -> usize {
        let mut checked = 0;
        for c in G::CONSTRUCTORS {
            let Some(k) = c.params.iter().position(|p| p.name == "dtype") else {
                continue;
            };
            let mut args: Vec<(&str, Arg<'_>)> =
                c.params.iter().map(|p| (p.name, Arg::Lanes(1))).collect();
            args[k] = ("dtyp", Arg::Member("FP32"));
            let e = G::construct(c.instruction, c.function, &args).unwrap_err();
            let text = e.to_string();
            assert!(
                text.starts_with(&format!(
                    "argument {k} (`dtyp`) names no parameter of the constructor; its parameters: "
                )),
                "{generation} {}::{}: {text}",
                c.instruction,
                c.function
            );
            for p in c.params {
                assert!(text.contains(&format!("`{}`", p.name)), "{text}");
            }
            checked += 1;
        }
        checked
    }
    let checked = check::<isa_sunda::Sunda>("SUNDA")
        + check::<isa_cayman::Cayman>("CAYMAN")
        + check::<isa_mariana::Mariana>("MARIANA")
        + check::<isa_maverick::Maverick>("MAVERICK");
    assert!(checked >= 4, "{checked} constructors with a dtype");
}
