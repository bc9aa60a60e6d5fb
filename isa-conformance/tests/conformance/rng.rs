//! The RNG (0x4D) validator of the D4_MR format, per generation: the NKI rules (integer output
//! types int8/16/32 and uint8/16/32, SBUF or PSUM, at most 128 partitions; DVE only on NC-v2,
//! GpSimd (POOL, SBUF only) and Vector from NC-v3; rng-facts.md §4.10, §4.11, §5), the zero words of
//! the compiler's encoder (§2.8) and the project's assumptions (the element count, the placeholder
//! bytes; headers/PROVENANCE.md). The D4_MR siblings get only the checks the shared form fixes (`is_valid_d4_mr`).
//!
//! Words are built byte by byte from the field map of rng-facts §2.8, not from the generated
//! `FIELDS` table.

macro_rules! rng_validator {
    (
        $m:ident: $krate:ident {
            pool: $pool:literal,
            psum: $psum:literal,
            channels: $channels:literal,
            siblings: [$($sib:ident),*] $(,)?
        }
    ) => {
        mod $m {
            use isa::{consts, Instruction, NeuronEngine, Rng};
            use isa_core::Violation;
            use $krate as isa;

            const V: &str = "is_valid_rng";
            const PLACEMENT: &str = "neuron_isa_check_opcode_on_engine";
            const INT8: u8 = 0x2;
            const UINT8: u8 = 0x3;
            const INT16: u8 = 0x4;
            const UINT16: u8 = 0x5;
            const BFLOAT16: u8 = 0x6;
            const FP16: u8 = 0x7;
            const INT32: u8 = 0x8;
            const UINT32: u8 = 0x9;
            const FP32: u8 = 0xa;

            /// An RNG word: `dtype` at 32, `lanes` at 34, `count` at 28, TENSOR4D dst at 44 with
            /// start `addr`, unit steps and counts `dims` (rng-facts §2.8, §2.1).
            fn word(dtype: u8, lanes: u8, count: u32, addr: u32, dims: [u16; 4]) -> [u8; 64] {
                let mut w = [0u8; 64];
                w[0] = 0x4d;
                w[1] = 16; // inst_word_len (rng-facts §2.1)
                w[28..32].copy_from_slice(&count.to_le_bytes());
                w[32] = dtype;
                w[34] = lanes;
                w[44..48].copy_from_slice(&addr.to_le_bytes());
                for k in 0..4 {
                    w[48 + 2 * k..50 + 2 * k].copy_from_slice(&1i16.to_le_bytes());
                    w[56 + 2 * k..58 + 2 * k].copy_from_slice(&dims[k].to_le_bytes());
                }
                w
            }

            /// 128 lanes of 8 x 2 elements from SBUF partition 0, byte 0x100.
            fn good(dtype: u8) -> [u8; 64] {
                word(dtype, 128, 16, 0x100, [8, 2, 1, 1])
            }

            fn rng(w: [u8; 64]) -> Rng {
                Rng::from_bytes(&w).expect("an RNG word decodes")
            }

            /// `r` is a violation whose path starts with `path` and which reports `fields`.
            #[track_caller]
            fn rejected(r: Result<(), Violation>, path: &[&str], fields: &[(&str, i64)]) {
                let v = r.expect_err("the instruction was accepted");
                assert!(v.path().starts_with(path), "path {:?}, expected {path:?}: {v}", v.path());
                for &(name, value) in fields {
                    assert_eq!(v.value_of(name), Some(value), "`{name}` in {v}");
                }
            }

            #[test]
            fn integer_output_types_pass_on_dve() {
                for d in [INT8, INT16, INT32, UINT8, UINT16, UINT32] {
                    rng(good(d)).validate(NeuronEngine::Dve).unwrap_or_else(|v| panic!("dtype {d:#x}: {v}"));
                    let any = Instruction::decode(&good(d)).unwrap();
                    any.validate(NeuronEngine::Dve).unwrap();
                }
            }

            #[test]
            fn floating_point_output_types_fail() {
                for d in [BFLOAT16, FP16, FP32] {
                    rejected(
                        rng(good(d)).validate(NeuronEngine::Dve),
                        &[V, "has_valid_rng_dtype"],
                        &[("dtype", i64::from(d))],
                    );
                }
            }

            #[test]
            fn the_element_count_word_matches_the_tensor() {
                // project assumption: dst_element_count == t4d_element_count(dst_mem_pattern)
                for dims in [[16, 1, 1, 1], [1, 1, 4, 4], [2, 2, 2, 2]] {
                    rng(word(INT32, 128, 16, 0x100, dims)).validate(NeuronEngine::Dve).unwrap();
                }
                for count in [0u32, 15, 17, 128 * 16] {
                    rejected(
                        rng(word(INT32, 128, count, 0x100, [8, 2, 1, 1])).validate(NeuronEngine::Dve),
                        &[V, "rng_dst_elem_cnt"],
                        &[("dst_element_count", i64::from(count))],
                    );
                }
            }

            #[test]
            fn the_encoder_zero_words_and_the_placeholders_are_zero() {
                // 36..40 and 40..44 (Memset's fill value) are zero for RNG (rng-facts §2.8);
                // 12..28, 33 and 35 are placeholders, zero by the project's rule
                for byte in [12usize, 20, 27, 33, 35, 36, 39, 40, 43] {
                    let mut w = good(INT32);
                    w[byte] = 1;
                    rejected(
                        rng(w).validate(NeuronEngine::Dve),
                        &[V, "has_d4_mr_rng_zero_fields"],
                        &[],
                    );
                }
            }

            #[test]
            fn lanes_are_one_to_128_from_the_start_partition() {
                rng(word(INT32, 1, 16, 0x100, [8, 2, 1, 1])).validate(NeuronEngine::Dve).unwrap();
                for lanes in [0u8, 129, 255] {
                    rejected(
                        rng(word(INT32, lanes, 16, 0x100, [8, 2, 1, 1])).validate(NeuronEngine::Dve),
                        &[V, $channels],
                        &[("num_active_channels", i64::from(lanes))],
                    );
                }
                // 2 lanes from the last partition run past partition 127
                let last = (consts::NUM_PARTITIONS - 1) * consts::STATE_BUF_PARTITION_SIZE;
                rng(word(INT32, 1, 16, last, [8, 2, 1, 1])).validate(NeuronEngine::Dve).unwrap();
                rejected(
                    rng(word(INT32, 2, 16, last, [8, 2, 1, 1])).validate(NeuronEngine::Dve),
                    &[V, "start_addr_active_channels"],
                    &[("num_active_channels", 2)],
                );
            }

            #[test]
            fn engines_follow_the_placement() {
                let sbuf = rng(good(INT32));
                sbuf.validate(NeuronEngine::Dve).unwrap();
                let mut refused = vec![NeuronEngine::Act, NeuronEngine::Pe];
                if $pool {
                    sbuf.validate(NeuronEngine::Pool).unwrap();
                } else {
                    refused.push(NeuronEngine::Pool);
                }
                for e in refused {
                    // instr_assert.h's placement is checked first and names the engine ...
                    rejected(
                        sbuf.validate(e),
                        &[PLACEMENT],
                        &[("engine", i64::from(e.value()))],
                    );
                    // ... and the validator's own engine rule agrees with it.
                    assert!(!isa::spec::is_valid_rng(isa::Opcode::Rng, &sbuf.0, e));
                }
                let placed: &[NeuronEngine] = if $pool {
                    &[NeuronEngine::Pool, NeuronEngine::Dve]
                } else {
                    &[NeuronEngine::Dve]
                };
                assert_eq!(isa::Opcode::Rng.engines(), placed);
                // The D4_MR siblings are not placed by these trees (A53): no engine rule.
                assert!(isa::Opcode::Memset.engines().is_empty());
                assert_eq!(isa::Opcode::Memset.runs_on(NeuronEngine::Pe), None);
            }

            #[test]
            fn psum_takes_four_byte_types_and_no_gpsimd() {
                let psum = word(INT32, 128, 16, consts::PSUM_BUF_OFFSET, [8, 2, 1, 1]);
                if $psum {
                    rng(psum).validate(NeuronEngine::Dve).unwrap();
                    // PSUM writes need 4-byte elements (rng-facts §3.7)
                    let narrow = word(INT16, 128, 16, consts::PSUM_BUF_OFFSET, [8, 2, 1, 1]);
                    rejected(rng(narrow).validate(NeuronEngine::Dve), &[V, "tensor4d_valid"], &[]);
                    if $pool {
                        // GpSimd cannot reach PSUM (NKI)
                        rejected(rng(psum).validate(NeuronEngine::Pool), &[V, "has_valid_rng_engine"], &[]);
                    }
                } else {
                    // no PSUM on this generation (rng-facts §1.13: PSUM_BUF_SZ = 0x0 on MAVERICK)
                    assert_eq!(consts::PSUM_BUF_SZ, 0);
                }
            }

            #[test]
            fn the_d4_mr_siblings_get_the_shared_checks_only() {
                $(
                    // A float element type and a fill word: illegal for RNG, not checked for the
                    // siblings, whose own rules are undocumented (PROVENANCE A66).
                    let mut w = good(FP32);
                    w[0] = isa::$sib::OPCODE as u8;
                    w[40] = 0x7f;
                    let inst = Instruction::decode(&w).expect("the sibling decodes");
                    inst.validate(NeuronEngine::Dve)
                        .unwrap_or_else(|v| panic!("{}: {v}", isa::$sib::OPCODE.name()));
                    // The shared form is checked: no lanes.
                    w[34] = 0;
                    let inst = Instruction::decode(&w).expect("the sibling decodes");
                    rejected(inst.validate(NeuronEngine::Dve), &["is_valid_d4_mr", $channels], &[]);
                )*
            }
        }
    };
}

// NC-v5 checks lanes with the tile form of the channel helper, as its Rand2 and Dropout do.
rng_validator!(sunda: isa_sunda {
    pool: false,
    psum: true,
    channels: "has_valid_active_channel_range",
    siblings: [Memset, RegStore],
});
rng_validator!(cayman: isa_cayman {
    pool: true,
    psum: true,
    channels: "has_valid_active_channel_range",
    siblings: [Memset, RegStore, DveReadIndices],
});
rng_validator!(mariana: isa_mariana {
    pool: true,
    psum: true,
    channels: "has_valid_active_channel_range",
    siblings: [Memset, RegStore, DveReadIndices],
});
rng_validator!(maverick: isa_maverick {
    pool: true,
    psum: false,
    channels: "has_valid_active_channel_range_with_tile",
    siblings: [Memset, RegStore, DveReadIndices],
});
