//! Cross-generation conformance of the generated crates, written once (`conformance!`) and
//! instantiated per generation at the bottom of this file.
//!
//! The expected facts come from the reference data, never from the code under test:
//! `headers/probe/expected_layout.txt` (layouts), `tests/data/opcodes.tsv` (a copy of
//! `shared/reference/opcodes.tsv`: every opcode value, name, flag and class per generation) and
//! numbers typed in from `shared/reference/rng-facts.md`, each with the section it comes from.

use crate::support;

use support::*;

macro_rules! conformance {
    (
        $m:ident: $krate:ident {
            gen: $gen:literal,
            name: $name:literal,
            nc_version: $nc:literal,
            opcode_count: $count:literal,
            xorwow: $xorwow:literal,
            mapped: [$(($op:literal, $struct:literal)),* $(,)?],
            typed: [$($t:ident),* $(,)?] $(,)?
        }
    ) => {
        mod $m {
            use super::*;
            use $krate as isa;
            use isa::{Instruction, Opcode};
            use isa_core::{DecodeError, DecodeErrorKind, FieldInfo, Instruction64};
            use proptest::prelude::*;

            /// The reference bindings (opcode value, operand struct) of this generation.
            const MAPPED: &[(u8, &str)] = &[$(($op, $struct)),*];

            fn opcode_error(byte: u8, kind: DecodeErrorKind) -> DecodeError {
                DecodeError { field: "header.opcode", offset: 0, value: u64::from(byte), kind }
            }

            /// Round trip of one random word of `T` through `T` and through `Instruction`.
            fn round_trip<T: Instruction64 + core::fmt::Debug>(
                fields: &'static [FieldInfo],
                raw: &[u8; 64],
                picks: &[u8; 64],
            ) -> Result<(), TestCaseError> {
                let word = build_word(fields, T::OPCODE, raw, picks);
                let typed = T::from_bytes(&word)
                    .map_err(|e| TestCaseError::fail(format!("{}: {e}", T::NAME)))?;
                prop_assert_eq!(typed.to_bytes(), word, "{} typed round trip", T::NAME);
                let any = Instruction::decode(&word)
                    .map_err(|e| TestCaseError::fail(format!("{} via Instruction: {e}", T::NAME)))?;
                prop_assert_eq!(any.opcode() as u8, T::OPCODE);
                prop_assert_eq!(any.to_bytes(), word, "{} Instruction round trip", T::NAME);
                prop_assert_eq!(layout_of(any.fields()), layout_of(fields));
                Ok(())
            }

            proptest! {
                #![proptest_config(proptest_config())]

                /// Every typed instruction: random valid words survive from_bytes/to_bytes exactly.
                #[test]
                fn every_typed_instruction_round_trips_exactly(
                    raw in any::<[u8; 64]>(),
                    picks in any::<[u8; 64]>(),
                ) {
                    $( round_trip::<isa::$t>(isa::$t::FIELDS, &raw, &picks)?; )*
                }
            }

            #[test]
            fn the_typed_instructions_are_the_reference_bindings() {
                let mut typed: Vec<u8> = vec![$(<isa::$t as Instruction64>::OPCODE),*];
                typed.sort();
                let mut expected: Vec<u8> = MAPPED.iter().map(|(v, _)| *v).collect();
                expected.sort();
                assert_eq!(typed, expected);
                $(
                    assert_eq!(isa::$t::OPCODE as u8, <isa::$t as Instruction64>::OPCODE);
                    assert_eq!(isa::$t::OPCODE.name(), <isa::$t as Instruction64>::NAME);
                    assert_eq!(
                        isa::inst::fields_of(isa::$t::OPCODE).map(layout_of),
                        Some(layout_of(isa::$t::FIELDS))
                    );
                )*
                // Every opcode of the generation: bound exactly when the reference binds it.
                for op in Opcode::ALL {
                    let bound = MAPPED.iter().find(|(v, _)| *v == op.value());
                    let expected = bound.map(|(_, s)| format!("NEURON_ISA_TPB_{s}"));
                    assert_eq!(op.operand_struct().map(str::to_string), expected, "{op:?}");
                    assert_eq!(isa::inst::fields_of(*op).is_some(), bound.is_some(), "{op:?}");
                }
            }

            #[test]
            fn every_opcode_byte_decodes_or_is_rejected_as_documented() {
                let reference = reference_opcodes($gen);
                for byte in 0..=255u8 {
                    let mut zero = [0u8; 64];
                    zero[0] = byte;
                    let mut noisy = [0xa5u8; 64];
                    noisy[0] = byte;
                    let Some(r) = reference.iter().find(|r| r.value == byte) else {
                        // Absent from this generation: not an opcode, never a panic.
                        assert_eq!(Opcode::from_value(byte), None, "{byte:#04x}");
                        assert!(Opcode::try_from(byte).is_err(), "{byte:#04x}");
                        for word in [zero, noisy] {
                            assert_eq!(
                                Instruction::decode(&word),
                                Err(opcode_error(byte, DecodeErrorKind::UnknownOpcode))
                            );
                        }
                        continue;
                    };
                    let op = Opcode::from_value(byte)
                        .unwrap_or_else(|| panic!("{byte:#04x} {} is missing", r.name));
                    assert_eq!(Opcode::try_from(byte), Ok(op));
                    assert_eq!((op.value(), op.name()), (byte, r.name.as_str()));
                    match isa::inst::fields_of(op) {
                        None => {
                            for word in [zero, noisy] {
                                assert_eq!(
                                    Instruction::decode(&word),
                                    Err(opcode_error(byte, DecodeErrorKind::UnmappedOpcode)),
                                    "{}", r.name
                                );
                            }
                        }
                        Some(fields) => {
                            let word = min_word(fields, byte);
                            let decoded = Instruction::decode(&word)
                                .unwrap_or_else(|e| panic!("{}: {e}", r.name));
                            assert_eq!(decoded.opcode(), op);
                            assert_eq!(decoded.to_bytes(), word);
                        }
                    }
                }
            }

            #[test]
            fn opcode_facts() {
                // rng-facts §1.1: "Opcode-enum line counts per header: 145/150/159/165".
                assert_eq!(Opcode::ALL.len(), $count);
                assert_eq!(Opcode::COUNT, $count);
                // rng-facts §0 "Generation names": SUNDA = NC-v2, CAYMAN = v3, MARIANA = v4, MAVERICK = v5.
                assert_eq!((isa::GENERATION.name, isa::GENERATION.nc_version), ($name, $nc));
                assert_eq!(isa::GENERATION.fingerprint.len(), 16);
                // rng-facts §1.1 table: values, flags, pseudo.
                assert_eq!(Opcode::RandSetState as u8, 0x78);
                assert_eq!(Opcode::RandGetState as u8, 0x77);
                assert_eq!(Opcode::Rand as u8, 0x76);
                assert_eq!(Opcode::Dropout as u8, 0x7f);
                assert_eq!(Opcode::PseudoSetRngSeed as u8, 0xd0);
                assert_eq!(Opcode::Rng as u8, 0x4d);
                assert_eq!(
                    Opcode::Rand.status(),
                    isa_core::OpcodeStatus::Dormant { reason: "ucode exists, not maintained/used" }
                );
                assert_eq!(Opcode::RandSetState.status(), isa_core::OpcodeStatus::Maintained);
                assert_eq!(Opcode::RandGetState.status(), isa_core::OpcodeStatus::Maintained);
                assert_eq!(Opcode::Dropout.status(), isa_core::OpcodeStatus::Maintained);
                assert_eq!(Opcode::PseudoSetRngSeed.status(), isa_core::OpcodeStatus::Unflagged);
                assert!(Opcode::PseudoSetRngSeed.is_pseudo());
                assert!(!Opcode::RandSetState.is_pseudo());
                assert_eq!(
                    Opcode::RandSetState.operand_struct(),
                    Some("NEURON_ISA_TPB_S1_RAND_STRUCT")
                );
                assert_eq!(Opcode::Rand.operand_struct(), Some("NEURON_ISA_TPB_D4_RAND_STRUCT"));
                // instruction-mapping.md §3 (D4_MR_STRUCT: MEMSET, REG_STORE, RNG), opcodes.tsv 0x4d;
                // the choice among the pages is PROVENANCE.md conflict C1.
                assert_eq!(Opcode::Rng.operand_struct(), Some("NEURON_ISA_TPB_D4_MR_STRUCT"));
                // opcodes.tsv: every flag and class of the generation.
                let reference = reference_opcodes($gen);
                assert_eq!(reference.len(), $count);
                for r in &reference {
                    let op = Opcode::from_value(r.value).unwrap();
                    let flag = match op.status() {
                        isa_core::OpcodeStatus::Maintained => 'Y',
                        isa_core::OpcodeStatus::Dormant { .. } => 'n',
                        isa_core::OpcodeStatus::Unflagged => '.',
                    };
                    assert_eq!(flag, r.flag, "{}", r.name);
                    assert_eq!(op.is_pseudo(), r.pseudo, "{}", r.name);
                    assert_eq!(Opcode::from_name(&r.name), Some(op), "{}", r.name);
                }
                let mut values: Vec<u8> = Opcode::ALL.iter().map(|o| o.value()).collect();
                values.sort();
                values.dedup();
                assert_eq!(values.len(), $count, "ALL lists each opcode once");
            }

            #[test]
            fn generation_specific_members() {
                let fields = isa::RandSetState::FIELDS;
                let algo = fields.iter().find(|f| f.path == "rand_algorithm").unwrap();
                let src = fields.iter().find(|f| f.path == "rand_generator").unwrap();
                // rng-facts §2.2: S1_RAND rand_algorithm @12, rand_generator @24.
                assert_eq!((algo.offset, src.offset), (12, 24));
                let with = |f: &FieldInfo, v: u64| {
                    let mut w = min_word(fields, 0x78);
                    put(&mut w, f, v);
                    (w, isa::RandSetState::from_bytes(&w))
                };
                let invalid = |f: &FieldInfo, v: u64, enum_name: &'static str| DecodeError {
                    field: f.path,
                    offset: f.offset,
                    value: v,
                    kind: DecodeErrorKind::InvalidEnumValue { enum_name },
                };
                // rng-facts §1.2: LFSR = 0, PCG32 = 1, PHILOX = 2 everywhere; XORWOW = 3 absent on SUNDA.
                for v in 0..=2 {
                    assert!(with(algo, v).1.is_ok(), "algorithm {v}");
                }
                let (w3, r3) = with(algo, 3);
                if $xorwow {
                    assert_eq!(r3.map(|i| i.to_bytes()), Ok(w3));
                    assert!(isa::RandAlgorithm::try_from(3u8).is_ok());
                } else {
                    assert_eq!(r3, Err(invalid(algo, 3, "NEURON_ISA_TPB_RAND_ALGORITHM")));
                    assert_eq!(Instruction::decode(&w3), Err(invalid(algo, 3, "NEURON_ISA_TPB_RAND_ALGORITHM")));
                    assert!(isa::RandAlgorithm::try_from(3u8).is_err());
                    // rng-facts §1.3: SUNDA RAND_SRC has only RNG_LFSR = 0 and RNG_PHILOX = 2.
                    assert!(with(src, 0).1.is_ok() && with(src, 2).1.is_ok());
                    for v in [1, 3] {
                        assert_eq!(with(src, v).1, Err(invalid(src, v, "NEURON_ISA_TPB_RAND_SRC")));
                    }
                }
                assert_eq!(with(algo, 4).1, Err(invalid(algo, 4, "NEURON_ISA_TPB_RAND_ALGORITHM")));
                // rng-facts §1.1: PE_MANAGE_SEED (0x08) and RAND2 (0xe2) exist from MARIANA on.
                let v4 = MAPPED.iter().any(|(v, _)| *v == 0xe2);
                assert_eq!(Opcode::from_value(0xe2).is_some(), v4);
                assert_eq!(Opcode::from_value(0x08).is_some(), v4);
            }

            #[test]
            fn a_bad_enum_byte_names_the_field_offset_and_value() {
                let mut checked = 0;
                $(
                    for f in isa::$t::FIELDS.iter().filter(|f| !is_opcode_field(f)) {
                        let isa_core::FieldKind::Enum { name, .. } = f.kind else { continue };
                        let Some(bad) = first_non_member(f) else { continue };
                        let mut word = min_word(isa::$t::FIELDS, isa::$t::OPCODE as u8);
                        put(&mut word, f, bad);
                        let expected = DecodeError {
                            field: f.path,
                            offset: f.offset,
                            value: bad,
                            kind: DecodeErrorKind::InvalidEnumValue { enum_name: name },
                        };
                        assert_eq!(isa::$t::from_bytes(&word), Err(expected), "{}", stringify!($t));
                        assert_eq!(Instruction::decode(&word).map(|i| i.opcode()), Err(expected));
                        let shown = expected.to_string();
                        assert!(shown.contains(f.path) && shown.contains(&format!("byte {}", f.offset)), "{shown}");
                        checked += 1;
                    }
                )*
                assert!(checked >= 5, "only {checked} enum fields checked");
            }

            #[test]
            fn padding_bytes_must_be_zero() {
                // No RNG operand struct of the reference layouts has padding (expected_layout.txt:
                // the fields of every *_STRUCT tile its 64 bytes), so FIELDS covers every bit; the
                // generator's padding check is exercised on the tiny fixture (isa-codegen/tests/codegen/padding.rs).
                $(
                    let used = coverage(isa::$t::FIELDS);
                    for (k, mask) in used.iter().enumerate() {
                        let free = !mask;
                        if free == 0 {
                            continue;
                        }
                        let mut word = min_word(isa::$t::FIELDS, isa::$t::OPCODE as u8);
                        word[k] |= free;
                        let err = isa::$t::from_bytes(&word).expect_err("nonzero padding accepted");
                        assert_eq!((err.offset, err.kind), (k, DecodeErrorKind::NonZeroPadding));
                    }
                    assert!(used.iter().all(|m| *m == 0xff), "{} has padding", stringify!($t));
                )*
            }

            #[test]
            fn a_foreign_opcode_is_unexpected() {
                $(
                    let own = <isa::$t as Instruction64>::OPCODE;
                    let word = min_word(isa::$t::FIELDS, own);
                    for byte in (0..=255u8).filter(|b| *b != own) {
                        let mut w = word;
                        w[0] = byte;
                        assert_eq!(
                            isa::$t::from_bytes(&w),
                            Err(opcode_error(byte, DecodeErrorKind::UnexpectedOpcode { expected: own })),
                            "{} with {byte:#04x}", stringify!($t)
                        );
                    }
                )*
            }

            /// The generated layout probes of `build.rs` for this generation.
            fn rows() -> Vec<Row> {
                include!(concat!(env!("OUT_DIR"), "/layout_", $gen, ".rs"))
            }

            #[test]
            fn layout_matches_expected_layout_txt() {
                let rows = rows();
                assert_eq!(rows.len(), layout_rows_for($gen), "build.rs covers every row");
                for r in &rows {
                    assert_eq!(
                        (r.raw_offset, r.raw_size),
                        (r.offset, r.size),
                        "raw {}.{} (expected_layout.txt:{})",
                        r.strukt, r.field, r.line
                    );
                }
                // The FIELDS table of every operand struct agrees with the rows of that struct.
                for (value, strukt) in MAPPED {
                    let op = Opcode::from_value(*value).unwrap();
                    let fields = isa::inst::fields_of(op).unwrap();
                    let of: Vec<&Row> = rows.iter().filter(|r| r.strukt == *strukt).collect();
                    assert!(of.iter().any(|r| r.field == "*" && r.size == 64), "{strukt} row");
                    let mut tops: Vec<&str> = Vec::new();
                    for f in fields {
                        let top = f.path.split(['.', '[']).next().unwrap();
                        if !tops.contains(&top) {
                            tops.push(top);
                        }
                    }
                    for top in &tops {
                        let row = of
                            .iter()
                            .find(|r| r.field == *top)
                            .unwrap_or_else(|| panic!("{strukt}.{top} has no expected_layout.txt row"));
                        let leaves: Vec<&FieldInfo> = fields
                            .iter()
                            .filter(|f| f.path.split(['.', '[']).next() == Some(*top))
                            .collect();
                        let start = leaves.iter().map(|f| f.offset).min().unwrap();
                        let end = leaves.iter().map(|f| f.offset + f.size).max().unwrap();
                        assert_eq!(
                            (start, end - start),
                            (row.offset, row.size),
                            "FIELDS of {strukt}.{top} (expected_layout.txt:{})",
                            row.line
                        );
                    }
                    let listed = of.iter().filter(|r| r.field != "*").count();
                    assert_eq!(tops.len(), listed, "{strukt}: FIELDS and the rows name the same fields");
                }
            }

            /// Issue 3 names the PSEUDO_SET_RNG_SEED instruction `PseudoSetRngSeed` (its operand
            /// fields are then `PseudoSetRngSeedFields`).
            #[test]
            fn pseudo_set_rng_seed_instruction_is_named_after_its_opcode() {
                let fields = isa::inst::fields_of(Opcode::PseudoSetRngSeed).unwrap();
                let decoded = Instruction::decode(&min_word(fields, 0xd0)).unwrap();
                let shown = format!("{decoded:?}");
                assert!(shown.starts_with("PseudoSetRngSeed("), "{shown}");
            }
        }
    };
}

// rng-facts §1.1 (values, structs, SU·CA·MA·MV presence: PE_MANAGE_SEED and RAND2 `--YY`, the
// project following MTX/R2 for RAND2) and §2.9 (struct <-> opcode bindings); §1.2 (XORWOW);
// instruction-mapping.md §3 (D4_MR_STRUCT: MEMSET, REG_STORE, RNG, and DVE_READ_INDICES from CAYMAN on).
conformance!(sunda: isa_sunda {
    gen: "sunda",
    name: "SUNDA",
    nc_version: 2,
    opcode_count: 145,
    xorwow: false,
    mapped: [
        (0x49, "D4_MR_STRUCT"),
        (0x4b, "D4_MR_STRUCT"),
        (0x4d, "D4_MR_STRUCT"),
        (0x76, "D4_RAND_STRUCT"),
        (0x77, "D4_RAND_STRUCT"),
        (0x78, "S1_RAND_STRUCT"),
        (0x7f, "S3D3_DROPOUT_STRUCT"),
        (0xd0, "PSEUDO_SET_RNG_SEED_STRUCT"),
    ],
    typed: [Memset, RegStore, Rng, Rand, RandGetState, RandSetState, Dropout, PseudoSetRngSeed],
});

conformance!(cayman: isa_cayman {
    gen: "cayman",
    name: "CAYMAN",
    nc_version: 3,
    opcode_count: 150,
    xorwow: true,
    mapped: [
        (0x49, "D4_MR_STRUCT"),
        (0x4b, "D4_MR_STRUCT"),
        (0x4d, "D4_MR_STRUCT"),
        (0x76, "D4_RAND_STRUCT"),
        (0x77, "D4_RAND_STRUCT"),
        (0x78, "S1_RAND_STRUCT"),
        (0x7f, "S3D3_DROPOUT_STRUCT"),
        (0xd0, "PSEUDO_SET_RNG_SEED_STRUCT"),
        (0xe9, "D4_MR_STRUCT"),
    ],
    typed: [Memset, RegStore, Rng, Rand, RandGetState, RandSetState, Dropout, PseudoSetRngSeed, DveReadIndices],
});

conformance!(mariana: isa_mariana {
    gen: "mariana",
    name: "MARIANA",
    nc_version: 4,
    opcode_count: 159,
    xorwow: true,
    mapped: [
        (0x08, "S2S1D2_PE_SEED_STRUCT"),
        (0x49, "D4_MR_STRUCT"),
        (0x4b, "D4_MR_STRUCT"),
        (0x4d, "D4_MR_STRUCT"),
        (0x76, "D4_RAND_STRUCT"),
        (0x77, "D4_RAND_STRUCT"),
        (0x78, "S1_RAND_STRUCT"),
        (0x7f, "S3D3_DROPOUT_STRUCT"),
        (0xd0, "PSEUDO_SET_RNG_SEED_STRUCT"),
        (0xe2, "D3_RAND_STRUCT"),
        (0xe9, "D4_MR_STRUCT"),
    ],
    typed: [
        PeManageSeed, Memset, RegStore, Rng, Rand, RandGetState, RandSetState, Dropout, PseudoSetRngSeed,
        Rand2, DveReadIndices,
    ],
});

conformance!(maverick: isa_maverick {
    gen: "maverick",
    name: "MAVERICK",
    nc_version: 5,
    opcode_count: 165,
    xorwow: true,
    mapped: [
        (0x08, "S2S1D2_PE_SEED_STRUCT"),
        (0x49, "D4_MR_STRUCT"),
        (0x4b, "D4_MR_STRUCT"),
        (0x4d, "D4_MR_STRUCT"),
        (0x76, "D4_RAND_STRUCT"),
        (0x77, "D4_RAND_STRUCT"),
        (0x78, "S1_RAND_STRUCT"),
        (0x7f, "S3D3_DROPOUT_STRUCT"),
        (0xd0, "PSEUDO_SET_RNG_SEED_STRUCT"),
        (0xe2, "D3_RAND_STRUCT"),
        (0xe9, "D4_MR_STRUCT"),
    ],
    typed: [
        PeManageSeed, Memset, RegStore, Rng, Rand, RandGetState, RandSetState, Dropout, PseudoSetRngSeed,
        Rand2, DveReadIndices,
    ],
});
