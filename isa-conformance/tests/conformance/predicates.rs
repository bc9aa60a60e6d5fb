//! The RAND_SET_STATE / RAND_GET_STATE predicates of rng-facts.md §3.2–§3.3, one at a time, per
//! generation (issue 4, "Per-predicate tests"): written once (`predicates!`) and instantiated at
//! the bottom of this file.
//!
//! Every case starts from an instruction built by a typed legal constructor (the Pool Philox arm,
//! the one arm every generation has: 7 words, by SRC_TENSOR or IMM_SINGLE), checks that it passes,
//! breaks one field and checks that `validate` rejects it along the named predicate with the
//! field values the violation reports. Where the predicate is a spec function of its own, the
//! translated function (`spec::<name>`) is checked on the same two instructions.
//!
//! The numbers are the reference's: `num_active_channels` 1..=128 (`POOLING_NUM_CHANNELS`,
//! §3.7), 128 partitions, state in UINT32 (0x9), SET source SBUF only, GET destination SBUF or
//! PSUM (§3.3) but SBUF for a POOL save (NKI: GpSimd cannot access PSUM; assumption A67), no PSUM
//! on MAVERICK (`PSUM_BUF_SZ = 0x0`, §3.3 / §6.15), SUNDA and CAYMAN
//! validators written for `NeuronEngine::Pool` alone (§3.4).

macro_rules! predicates {
    ($m:ident: $krate:ident { fixed_pool_engine: $fixed:literal, psum: $psum:literal $(,)? }) => {
        mod $m {
            use isa::arm::{Philox, Pool, RngPhilox};
            use isa::{consts, spec, D4Rand, S1Rand, StateTensor};
            use isa::{Dtype, NeuronEngine, RandGetState, RandParam, RandPostProc};
            use isa::{RandSetState, RandStateUpdate};
            use isa_core::space::AnySpace;
            use isa_core::Violation;
            use $krate as isa;

            const SET: &str = "is_valid_s1_rand";
            const GET: &str = "is_valid_rand_get_state";
            const POOL: NeuronEngine = NeuronEngine::Pool;
            const PLACEMENT: &str = "neuron_isa_check_opcode_on_engine";

            /// SET, Pool Philox by SRC_TENSOR: 7 words from SBUF partition 0, 128 lanes.
            fn restore() -> RandSetState {
                RandSetState::restore::<Pool, RngPhilox, Philox, 7>(
                    StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                    128,
                )
                .into_inner()
            }

            /// SET, Pool Philox by IMM_SINGLE: 7 inline words, `imm_state[7]` left 0.
            fn seed() -> RandSetState {
                let state = [0x1111_1111, 2, 3, 4, 5, 6, 0x7777_7777];
                RandSetState::seed_immediate::<Pool, RngPhilox, Philox, 7>(state, 128).into_inner()
            }

            /// GET, Pool Philox: 7 words into SBUF partition 0, 128 lanes.
            fn save() -> RandGetState {
                RandGetState::save::<Pool, RngPhilox, Philox, 7>(
                    StateTensor::sbuf(0, 0x40).expect("an SBUF address"),
                    128,
                )
                .into_inner()
            }

            fn broken_set(mut inst: RandSetState, f: impl FnOnce(&mut S1Rand)) -> RandSetState {
                inst.validate(POOL)
                    .expect("the typed constructor builds a legal instruction");
                f(&mut inst.0);
                inst
            }

            fn broken_get(mut inst: RandGetState, f: impl FnOnce(&mut D4Rand)) -> RandGetState {
                inst.validate(POOL)
                    .expect("the typed constructor builds a legal instruction");
                f(&mut inst.0);
                inst
            }

            /// `r` is a violation whose path starts with `path` and which reports `fields`.
            #[track_caller]
            fn rejected(
                r: Result<(), Violation>,
                path: &[&str],
                fields: &[(&str, i64)],
            ) -> Violation {
                let v = r.expect_err("the broken instruction was accepted");
                assert!(
                    v.path().starts_with(path),
                    "path {:?}, expected {path:?}: {v}",
                    v.path()
                );
                for &(name, value) in fields {
                    assert_eq!(v.value_of(name), Some(value), "`{name}` in {v}");
                }
                v
            }

            /// The first address past SBUF and PSUM (both start at a partition boundary).
            fn outside_memory() -> u32 {
                let sbuf_end = consts::STATE_BUF_OFFSET + consts::STATE_BUF_SZ;
                let psum_end = consts::PSUM_BUF_OFFSET + consts::PSUM_BUF_SZ;
                if $psum {
                    sbuf_end.max(psum_end)
                } else {
                    sbuf_end
                }
            }

            fn op_set() -> isa::Opcode {
                RandSetState::OPCODE
            }

            fn op_get() -> isa::Opcode {
                RandGetState::OPCODE
            }

            #[test]
            fn set_elem_cnt_is_num_elem_0() {
                let good = restore();
                assert!(spec::rand_set_state_elem_cnt(op_set(), &good.0, 7));
                assert!(!spec::rand_set_state_elem_cnt(op_set(), &good.0, 6));
                for n in [1u16, 6, 8, 24] {
                    let bad = broken_set(restore(), |f| f.src_mem_pattern.num_elem[0] = n);
                    assert!(!spec::rand_set_state_elem_cnt(op_set(), &bad.0, 7));
                    let v = rejected(
                        bad.validate(POOL),
                        &[SET, "rand_set_state_legal_combinations"],
                        &[("src_mem_pattern.num_elem[0]", i64::from(n))],
                    );
                    assert_eq!(v.predicate(), "rand_set_state_legal_combinations");
                    assert_eq!(v.value_of("rand_algorithm"), Some(2), "{v}");
                }
            }

            #[test]
            fn get_elem_cnt_is_the_4d_product() {
                // Any shape whose four counts multiply to 7 is the 7-word arm.
                for dims in [[7, 1, 1, 1], [1, 7, 1, 1], [1, 1, 1, 7]] {
                    let inst = broken_get(save(), |f| f.dst_mem_pattern.num_elem = dims);
                    assert!(
                        spec::rand_get_state_elem_cnt(op_get(), &inst.0, 7),
                        "{dims:?}"
                    );
                    inst.validate(POOL).unwrap();
                }
                for dims in [[7, 2, 1, 1], [6, 1, 1, 1], [1, 1, 1, 8]] {
                    let bad = broken_get(save(), |f| f.dst_mem_pattern.num_elem = dims);
                    assert!(
                        !spec::rand_get_state_elem_cnt(op_get(), &bad.0, 7),
                        "{dims:?}"
                    );
                    let names = ["[0]", "[1]", "[2]", "[3]"]
                        .map(|k| format!("dst_mem_pattern.num_elem{k}"));
                    let v = rejected(
                        bad.validate(POOL),
                        &[GET, "rand_get_state_legal_combinations"],
                        &[],
                    );
                    for (name, n) in names.iter().zip(dims) {
                        assert_eq!(v.value_of(name), Some(i64::from(n)), "{v}");
                    }
                }
            }

            #[test]
            fn src_tensor_needs_every_imm_word_zero() {
                assert!(spec::rand_set_state_imm_zero(op_set(), &restore().0));
                for k in 0..8 {
                    let bad = broken_set(restore(), |f| f.imm_state[k] = 0xdead_0000 + k as u32);
                    assert!(!spec::rand_set_state_imm_zero(op_set(), &bad.0));
                    let name = format!("imm_state[{k}]");
                    let v = rejected(
                        bad.validate(POOL),
                        &[SET, "rand_set_state_imm_zero"],
                        &[("update_state", 0), (&name, 0xdead_0000 + k as i64)],
                    );
                    assert_eq!(v.predicate(), "rand_set_state_imm_zero");
                    assert!(
                        v.to_string()
                            .starts_with("inst failed assertion check: 'rand_set_state_imm_zero'"),
                        "{v}"
                    );
                }
                // The same words are the state itself under IMM_SINGLE.
                assert!(spec::rand_set_state_imm_zero(op_set(), &seed().0));
                seed().validate(POOL).unwrap();
            }

            #[test]
            fn imm_single_philox_needs_imm_state_7_zero() {
                let good = seed();
                assert_eq!(good.imm_state[7], 0);
                assert!(spec::has_valid_rand_set_state_imm(op_set(), &good.0));
                let bad = broken_set(seed(), |f| f.imm_state[7] = 0x8000_0000);
                assert!(!spec::has_valid_rand_set_state_imm(op_set(), &bad.0));
                let v = rejected(
                    bad.validate(POOL),
                    &[SET, "has_valid_rand_set_state_imm"],
                    &[("update_state", 1), ("imm_state[7]", 0x8000_0000)],
                );
                assert_eq!(v.predicate(), "has_valid_rand_set_state_imm");
                // Words 0..=6 are free.
                broken_set(seed(), |f| f.imm_state[6] = u32::MAX)
                    .validate(POOL)
                    .unwrap();
                // IMM_LANE passes this predicate (Philox, word 7 zero) but no arm takes it (§6.7).
                let lane = broken_set(seed(), |f| f.update_state = RandStateUpdate::ImmLane);
                assert!(spec::has_valid_rand_set_state_imm(op_set(), &lane.0));
                rejected(
                    lane.validate(POOL),
                    &[SET, "rand_set_state_legal_combinations"],
                    &[("update_state", 2)],
                );
            }

            #[test]
            fn every_s1_rand_reserved_byte_must_be_zero() {
                assert!(spec::has_s1_rand_reserved_zero(op_set(), &restore().0));
                for k in 0..7 {
                    let bad = broken_set(restore(), |f| f.reserved[k] = 0x5a);
                    assert!(
                        !spec::has_s1_rand_reserved_zero(op_set(), &bad.0),
                        "reserved[{k}]"
                    );
                    let v = rejected(
                        bad.validate(POOL),
                        &[SET, "has_s1_rand_reserved_zero"],
                        &[(&format!("reserved[{k}]"), 0x5a)],
                    );
                    assert_eq!(v.predicate(), format!("(i.s1_rand.reserved[{k}] == 0)"));
                }
            }

            #[test]
            fn every_d4_rand_reserved_byte_must_be_zero() {
                assert!(spec::has_d4_rand_reserved_zero(op_get(), &save().0));
                let bytes = (0..1).map(|k| (1, k)).chain((0..9).map(|k| (2, k)));
                for (array, k) in bytes {
                    let bad = broken_get(save(), |f| match array {
                        1 => f.reserved1[k] = 0xa5,
                        _ => f.reserved2[k] = 0xa5,
                    });
                    let name = format!("reserved{array}[{k}]");
                    assert!(!spec::has_d4_rand_reserved_zero(op_get(), &bad.0), "{name}");
                    let v = rejected(
                        bad.validate(POOL),
                        &[GET, "has_d4_rand_reserved_zero"],
                        &[(&name, 0xa5)],
                    );
                    assert_eq!(v.predicate(), format!("(i.d4_rand.{name} == 0)"));
                }
            }

            #[test]
            fn get_leaves_the_draw_fields_zero() {
                assert!(spec::rand_get_state_unused_field_zero(op_get(), &save().0));
                let bad = broken_get(save(), |f| f.rand_num_steps = 1);
                rejected(
                    bad.validate(POOL),
                    &[GET, "rand_get_state_unused_field_zero"],
                    &[("rand_num_steps", 1)],
                );
                assert!(!spec::rand_get_state_unused_field_zero(op_get(), &bad.0));
                let bad = broken_get(save(), |f| f.post_process = RandPostProc::UniformInRange);
                rejected(
                    bad.validate(POOL),
                    &[GET, "rand_get_state_unused_field_zero"],
                    &[("post_process", 1)],
                );
                for k in 0..4 {
                    let bad = broken_get(save(), |f| f.params[k] = RandParam::from_param_fp32(1.0));
                    assert!(!spec::rand_get_state_unused_field_zero(op_get(), &bad.0));
                    let name = format!("params[{k}].param_bitvec_uint32");
                    let v = rejected(
                        bad.validate(POOL),
                        &[GET, "rand_get_state_unused_field_zero"],
                        &[],
                    );
                    assert_eq!(v.value_of(&name), Some(0x3f80_0000), "{v}");
                }
            }

            #[test]
            fn state_words_are_uint32() {
                let fp32 = i64::from(Dtype::Fp32.value());
                assert!(spec::rand_set_state_valid_dtype(op_set(), &restore().0));
                let bad = broken_set(restore(), |f| f.in_dtype = Dtype::Fp32);
                assert!(!spec::rand_set_state_valid_dtype(op_set(), &bad.0));
                let v = rejected(
                    bad.validate(POOL),
                    &[SET, "rand_set_state_valid_dtype"],
                    &[("in_dtype", fp32)],
                );
                assert_eq!(v.fields().next().and_then(|f| f.member), Some("FP32"));

                assert!(spec::rand_get_state_valid_dtype(op_get(), &save().0));
                for dtype in [Dtype::Fp32, Dtype::Int32] {
                    let bad = broken_get(save(), |f| f.dtype = dtype);
                    assert!(!spec::rand_get_state_valid_dtype(op_get(), &bad.0));
                    let value = i64::from(dtype.value());
                    rejected(
                        bad.validate(POOL),
                        &[GET, "rand_get_state_valid_dtype"],
                        &[("dtype", value)],
                    );
                }
            }

            #[test]
            fn set_source_is_sbuf_only() {
                let elsewhere = StateTensor::<7>::sbuf(0, 0x2_0000)
                    .expect("an SBUF address")
                    .start_addr;
                broken_set(restore(), |f| f.src_mem_pattern.start_addr = elsewhere)
                    .validate(POOL)
                    .unwrap();
                if $psum {
                    let psum = consts::PSUM_BUF_OFFSET;
                    let bad = broken_set(restore(), |f| {
                        f.src_mem_pattern.start_addr =
                            StateTensor::<7, AnySpace>::at(psum).start_addr
                    });
                    rejected(
                        bad.validate(POOL),
                        &[SET, "tensor1d_valid", "tensor_start_addr_valid"],
                        &[("src_mem_pattern.start_addr.addr_immediate", i64::from(psum))],
                    );
                } else {
                    // No PSUM (PSUM_BUF_SZ = 0): the address PSUM has elsewhere is plain SBUF here.
                    assert_eq!(consts::PSUM_BUF_SZ, 0);
                    let at = consts::PSUM_BUF_OFFSET;
                    let lanes = 128 - (at / consts::STATE_BUF_PARTITION_SIZE) as u8;
                    let sbuf = at - consts::STATE_BUF_OFFSET;
                    let (partition, offset) = (
                        sbuf / consts::STATE_BUF_PARTITION_SIZE,
                        sbuf % consts::STATE_BUF_PARTITION_SIZE,
                    );
                    let src = StateTensor::sbuf(partition, offset).expect("an SBUF address");
                    let inst = RandSetState::restore::<Pool, RngPhilox, Philox, 7>(src, lanes);
                    inst.validate().unwrap();
                }
                // Past SBUF (and PSUM) there is no partition left for a lane.
                let outside = outside_memory();
                // A raw address is no SBUF address: the word is written through its fields.
                let bad = broken_set(restore(), |f| {
                    f.num_active_channels = 1;
                    f.src_mem_pattern.start_addr =
                        StateTensor::<7, AnySpace>::at(outside).start_addr
                });
                let field = (
                    "src_mem_pattern.start_addr.addr_immediate",
                    i64::from(outside),
                );
                rejected(
                    bad.validate(POOL),
                    &[SET, "start_addr_active_channels"],
                    &[field],
                );
            }

            #[test]
            fn get_destination_of_a_pool_save_is_sbuf() {
                save().validate(POOL).unwrap();
                let at = consts::PSUM_BUF_OFFSET;
                let inst =
                    RandGetState::save::<Pool, RngPhilox, Philox, 7>(StateTensor::at(at), 128);
                if $psum {
                    // The tensor rule admits PSUM for the destination; POOL cannot reach it
                    // (NKI: GpSimd cannot access PSUM), which the engine-reach conjunct adds.
                    assert!(spec::in_psum(at));
                    rejected(
                        inst.validate(),
                        &[GET, "rand_get_state_dst_reachable"],
                        &[("dst_mem_pattern.start_addr.addr_immediate", i64::from(at))],
                    );
                    // An address not aligned to the dtype is rejected by the tensor check.
                    let bad = broken_get(save(), |f| {
                        f.dst_mem_pattern.start_addr =
                            StateTensor::<7, AnySpace>::at(at + 2).start_addr
                    });
                    rejected(
                        bad.validate(POOL),
                        &[GET, "tensor4d_valid", "tensor_start_addr_valid"],
                        &[(
                            "dst_mem_pattern.start_addr.addr_immediate",
                            i64::from(at + 2),
                        )],
                    );
                } else {
                    // MAVERICK: no PSUM, and that address is SBUF partition 32 of 128.
                    assert_eq!(consts::PSUM_BUF_SZ, 0);
                    let partition = i64::from(at / consts::STATE_BUF_PARTITION_SIZE);
                    assert_eq!(partition, 32);
                    rejected(
                        inst.validate(),
                        &[GET, "start_addr_active_channels"],
                        &[
                            ("dst_mem_pattern.start_addr.addr_immediate", i64::from(at)),
                            ("num_active_channels", 128),
                        ],
                    );
                    RandGetState::save::<Pool, RngPhilox, Philox, 7>(StateTensor::at(at), 96)
                        .validate()
                        .unwrap();
                }
                let outside = outside_memory();
                let bad =
                    RandGetState::save::<Pool, RngPhilox, Philox, 7>(StateTensor::at(outside), 1);
                let field = (
                    "dst_mem_pattern.start_addr.addr_immediate",
                    i64::from(outside),
                );
                rejected(
                    bad.validate(),
                    &[GET, "start_addr_active_channels"],
                    &[field],
                );
            }

            #[test]
            fn channel_count_is_1_to_128() {
                for n in [1u8, 2, 127, 128] {
                    assert!(spec::has_valid_rand_state_channels(n, POOL), "{n}");
                    broken_set(restore(), |f| f.num_active_channels = n)
                        .validate(POOL)
                        .unwrap();
                    broken_get(save(), |f| f.num_active_channels = n)
                        .validate(POOL)
                        .unwrap();
                }
                for n in [0u8, 129, 255] {
                    assert!(!spec::has_valid_rand_state_channels(n, POOL), "{n}");
                    // SUNDA / CAYMAN pass the literal `NeuronEngine::Pool`: no engine to report.
                    let mut fields = vec![("num_active_channels", i64::from(n))];
                    if !$fixed {
                        fields.push(("engine", i64::from(POOL.value())));
                    }
                    let bad = broken_set(restore(), |f| f.num_active_channels = n);
                    rejected(
                        bad.validate(POOL),
                        &[SET, "has_valid_rand_state_channels"],
                        &fields,
                    );
                    let bad = broken_get(save(), |f| f.num_active_channels = n);
                    rejected(
                        bad.validate(POOL),
                        &[GET, "has_valid_rand_state_channels"],
                        &fields,
                    );
                }
            }

            #[test]
            fn start_partition_plus_channels_fits_in_128() {
                for (partition, lanes) in [(0u32, 128u8), (1, 127), (127, 1), (64, 64)] {
                    let at = StateTensor::<7>::sbuf(partition, 0).expect("an SBUF address");
                    assert!(spec::start_addr_active_channels(at.start_addr, lanes));
                    RandSetState::restore::<Pool, RngPhilox, Philox, 7>(at, lanes)
                        .validate()
                        .unwrap();
                    RandGetState::save::<Pool, RngPhilox, Philox, 7>(at, lanes)
                        .validate()
                        .unwrap();
                }
                for (partition, lanes) in [(1u32, 128u8), (127, 2), (64, 65)] {
                    let at = StateTensor::<7>::sbuf(partition, 0).expect("an SBUF address");
                    assert!(!spec::start_addr_active_channels(at.start_addr, lanes));
                    let fields = [
                        (
                            "src_mem_pattern.start_addr.addr_immediate",
                            i64::from(at.start_addr.addr_immediate()),
                        ),
                        ("num_active_channels", i64::from(lanes)),
                    ];
                    let bad = RandSetState::restore::<Pool, RngPhilox, Philox, 7>(at, lanes);
                    rejected(
                        bad.validate(),
                        &[SET, "start_addr_active_channels"],
                        &fields,
                    );
                    let bad = RandGetState::save::<Pool, RngPhilox, Philox, 7>(at, lanes);
                    let v = rejected(bad.validate(), &[GET, "start_addr_active_channels"], &[]);
                    assert_eq!(v.value_of("num_active_channels"), Some(i64::from(lanes)));
                }
                if $psum {
                    // PSUM partitions count the same way (the predicate alone: a POOL save
                    // cannot write PSUM, and POOL is the one engine every generation has).
                    let at = StateTensor::<7, AnySpace>::at(
                        consts::PSUM_BUF_OFFSET + consts::PSUM_BUF_PARTITION_SIZE,
                    );
                    assert!(spec::start_addr_active_channels(at.start_addr, 127));
                    assert!(!spec::start_addr_active_channels(at.start_addr, 128));
                }
            }

            #[test]
            fn the_engine_is_checked() {
                for inst in [restore(), seed()] {
                    inst.validate(POOL).unwrap();
                }
                save().validate(POOL).unwrap();
                for engine in [NeuronEngine::Dve, NeuronEngine::Act, NeuronEngine::Pe] {
                    let value = i64::from(engine.value());
                    let (set, get) = (restore().validate(engine), save().validate(engine));
                    let placed = isa::Opcode::RandSetState.runs_on(engine);
                    assert_eq!(placed, isa::Opcode::RandGetState.runs_on(engine));
                    if placed == Some(false) {
                        // instr_assert.h's placement is checked first and names the engine.
                        let v = rejected(set, &[PLACEMENT], &[("engine", value)]);
                        assert!(v.predicate().starts_with("RAND_SET_STATE runs on "), "{v}");
                        rejected(get, &[PLACEMENT], &[("engine", value)]);
                    } else if $fixed {
                        unreachable!("SUNDA / CAYMAN place the checkpoint pair on POOL alone");
                    } else if engine == NeuronEngine::Pe {
                        // No channel bound is written for PE: it fails before the arm table.
                        rejected(
                            set,
                            &[SET, "has_valid_rand_state_channels"],
                            &[("engine", value)],
                        );
                        rejected(
                            get,
                            &[GET, "has_valid_rand_state_channels"],
                            &[("engine", value)],
                        );
                    } else {
                        // Philox is a Pool arm only.
                        rejected(
                            set,
                            &[SET, "rand_set_state_legal_combinations"],
                            &[("engine", value)],
                        );
                        rejected(
                            get,
                            &[GET, "rand_get_state_legal_combinations"],
                            &[("engine", value)],
                        );
                    }
                }
            }
        }
    };
}

predicates!(sunda: isa_sunda { fixed_pool_engine: true, psum: true });
predicates!(cayman: isa_cayman { fixed_pool_engine: true, psum: true });
predicates!(mariana: isa_mariana { fixed_pool_engine: false, psum: true });
predicates!(maverick: isa_maverick { fixed_pool_engine: false, psum: false });

/// The engine-reach rule is POOL's alone: on MARIANA a DVE save may write PSUM, as the tensor rule
/// of the quoted header allows.
#[test]
fn mariana_dve_save_may_write_psum() {
    use isa_mariana::arm::{Dve, RngXorwow, Xorwow};
    use isa_mariana::{consts, RandGetState, StateTensor};
    let at = StateTensor::<24, isa_core::space::AnySpace>::at(consts::PSUM_BUF_OFFSET);
    let inst = RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(at, 128);
    inst.validate().unwrap();
}

/// RAND2's bounds, per generation that has it: with both bounds immediate, `min < max` as fp32
/// values (NKI; the vendor compiler enforces it), so reversed and equal bounds fail along
/// `has_valid_rand2_min_max`, reporting both values by their bits, and a NaN bound fails too.
macro_rules! rand2_bounds {
    ($m:ident: $krate:ident) => {
        mod $m {
            use isa::{Dtype, Immediate, NeuronEngine, Rand2, Tensor3d, TensorAddress};
            use $krate as isa;

            fn rand2(min: f32, max: f32) -> Rand2 {
                let dst = TensorAddress::sbuf(0, 0x100).expect("an SBUF address");
                let dst = Tensor3d::contiguous(dst, [4, 1, 1]).expect("a contiguous tensor");
                Rand2::new(
                    dst,
                    128,
                    Dtype::Fp32,
                    Immediate::fp32(min),
                    Immediate::fp32(max),
                )
            }

            fn rejected(min: f32, max: f32) {
                let v = rand2(min, max)
                    .validate(NeuronEngine::Dve)
                    .expect_err("bounds not in order");
                assert_eq!(v.path(), ["is_valid_d3_rand", "has_valid_rand2_min_max"]);
                assert_eq!(
                    v.value_of("min.imm_arith_fp32"),
                    Some(i64::from(min.to_bits())),
                    "{v}"
                );
                assert_eq!(
                    v.value_of("max.imm_arith_fp32"),
                    Some(i64::from(max.to_bits()))
                );
                assert!(!isa::spec::has_valid_rand2_min_max(
                    isa::Opcode::Rand2,
                    &rand2(min, max).0
                ));
            }

            #[test]
            fn rand2_bounds_must_be_in_order_as_fp32_values() {
                rand2(-1.0, 1.0).validate(NeuronEngine::Dve).unwrap();
                // The bit patterns of -1.0 and -0.5 order the other way as integers.
                rand2(-1.0, -0.5).validate(NeuronEngine::Dve).unwrap();
                rand2(f32::MIN, f32::INFINITY)
                    .validate(NeuronEngine::Dve)
                    .unwrap();
                rejected(1.0, -1.0);
                rejected(-0.5, -1.0);
                rejected(1.0, 1.0);
                // -0.0 == 0.0 as values, though the encodings differ.
                rejected(-0.0, 0.0);
                rejected(f32::NAN, 1.0);
                rejected(-1.0, f32::NAN);
                rejected(f32::NAN, f32::NAN);
            }

            #[test]
            fn rand2_bounds_behind_a_pointer_are_not_checked() {
                let mut inst = rand2(1.0, -1.0);
                inst.0.min_src = isa::ImmSrc::PointerImmediate;
                inst.validate(NeuronEngine::Dve).unwrap();
            }
        }
    };
}

rand2_bounds!(mariana_rand2: isa_mariana);
rand2_bounds!(maverick_rand2: isa_maverick);
