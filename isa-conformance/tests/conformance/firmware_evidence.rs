//! The firmware-wired data keeps its evidence level in every view the crates give of it: the rows
//! of the generated legality tables (`RandSetStateArm::firmware`), the typed checkpoint
//! instructions (`RandSetState::firmware(engine)`), and rng-core's `Generation::firmware` (which the
//! machine's firmware gate uses). Each is emitted separately from the tree's `rng-runtime.json`
//! (its `firmware` and `not_wired` lists); this test holds them to each other and to the file.

use isa_core::{Evidence, Firmware};
use rng_core::{CheckpointKind, Generation};

/// The (instruction, engine, algorithm) → answer entries of a tree's `rng-runtime.json`: wired
/// bodies and recorded absences, each with its evidence level.
fn entries(tree: &str) -> Vec<(String, String, String, Firmware)> {
    let path = format!(
        "{}/../headers/{tree}/rng-runtime.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let list = |key: &str, answer: fn(Evidence) -> Firmware| {
        v[key]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no `{key}` list"))
            .iter()
            .map(|e| {
                let s = |k: &str| e[k].as_str().unwrap().to_string();
                let level = Evidence::from_name(&s("evidence"))
                    .unwrap_or_else(|| panic!("{path}: evidence {}", s("evidence")));
                (s("instruction"), s("engine"), s("algorithm"), answer(level))
            })
            .collect::<Vec<_>>()
    };
    let mut out = list("firmware", Firmware::Wired);
    out.extend(list("not_wired", Firmware::NotWired));
    out
}

macro_rules! evidence_views_agree {
    ($test:ident, $krate:ident, $G:ty, $tree:literal) => {
        #[test]
        fn $test() {
            use $krate as k;
            let data = entries($tree);
            let mut seen = vec![false; data.len()];
            let mut expect =
                |inst: &str, engine: k::NeuronEngine, algo: k::RandAlgorithm| match data
                    .iter()
                    .position(|(i, e, a, _)| {
                        i == inst && e == engine.vendor_name() && a == algo.vendor_name()
                    }) {
                    Some(at) => {
                        seen[at] = true;
                        data[at].3
                    }
                    None => Firmware::Unknown,
                };
            let rng = |kind, engine: k::NeuronEngine, algo: k::RandAlgorithm| {
                let e = rng_core::Engine::from_name(engine.vendor_name()).unwrap();
                let a = rng_core::Algorithm::from_name(algo.vendor_name()).unwrap();
                <$G as Generation>::firmware(kind, e, a)
            };
            for arm in k::legality::RAND_SET_STATE_ARMS {
                let want = expect("RAND_SET_STATE", arm.engine, arm.rand_algorithm);
                assert_eq!(arm.firmware(), want, "{arm:?}");
                let mut inst = k::RandSetState(Default::default());
                inst.0.rand_algorithm = arm.rand_algorithm;
                assert_eq!(inst.firmware(arm.engine), want, "{arm:?}");
                assert_eq!(
                    rng(CheckpointKind::Restore, arm.engine, arm.rand_algorithm),
                    want,
                    "{arm:?}"
                );
            }
            for arm in k::legality::RAND_GET_STATE_ARMS {
                let want = expect("RAND_GET_STATE", arm.engine, arm.rand_algorithm);
                assert_eq!(arm.firmware(), want, "{arm:?}");
                let mut inst = k::RandGetState(Default::default());
                inst.0.rand_algorithm = arm.rand_algorithm;
                assert_eq!(inst.firmware(arm.engine), want, "{arm:?}");
                assert_eq!(
                    rng(CheckpointKind::Save, arm.engine, arm.rand_algorithm),
                    want,
                    "{arm:?}"
                );
            }
            // Every entry of the file belongs to a legal arm, so each one was seen above, and
            // every legal arm is recorded, wired or not.
            assert!(seen.iter().all(|s| *s), "{}: {data:?} {seen:?}", $tree);
            for arm in k::legality::RAND_SET_STATE_ARMS {
                assert_ne!(arm.firmware(), Firmware::Unknown, "{arm:?}");
            }
            for arm in k::legality::RAND_GET_STATE_ARMS {
                assert_ne!(arm.firmware(), Firmware::Unknown, "{arm:?}");
            }
        }
    };
}

evidence_views_agree!(sunda, isa_sunda, isa_sunda::Sunda, "neuron_sunda_arch_isa");
evidence_views_agree!(
    cayman,
    isa_cayman,
    isa_cayman::Cayman,
    "neuron_cayman_arch_isa"
);
evidence_views_agree!(
    mariana,
    isa_mariana,
    isa_mariana::Mariana,
    "neuron_mariana_arch_isa"
);
evidence_views_agree!(
    maverick,
    isa_maverick,
    isa_maverick::Maverick,
    "neuron_maverick_arch_isa"
);

#[test]
fn the_levels_are_the_ones_provenance_names() {
    // headers/PROVENANCE.md's table: MARIANA DVE LFSR RAND_SET_STATE is assumed (A64), its POOL
    // XORWOW bodies observed; MAVERICK has no observed body.
    use isa_mariana::{NeuronEngine, RandAlgorithm, RandSetState};
    let mut lfsr = RandSetState(Default::default());
    lfsr.0.rand_algorithm = RandAlgorithm::Lfsr;
    assert_eq!(
        lfsr.firmware(NeuronEngine::Dve),
        Firmware::Wired(Evidence::Assumed)
    );
    assert_eq!(
        lfsr.firmware(NeuronEngine::Pool),
        Firmware::Wired(Evidence::Observed)
    );
    // PE has no checkpoint arm: nothing is recorded for it.
    assert_eq!(lfsr.firmware(NeuronEngine::Pe), Firmware::Unknown);
    assert!(isa_maverick::legality::RAND_SET_STATE_ARMS
        .iter()
        .all(|a| a.firmware() != Firmware::Wired(Evidence::Observed)));
}

/// A not-wired answer carries the evidence of the absence: MARIANA's and MAVERICK's DVE LFSR save
/// is unwired by the project's choice (A68), a POOL Philox checkpoint is documented absent on
/// SUNDA, CAYMAN and MARIANA (rng-facts 4.9, 4.10) and inferred absent on MAVERICK.
#[test]
fn not_wired_answers_report_their_level() {
    use isa_core::Firmware::NotWired;
    let mut lfsr = isa_mariana::RandGetState(Default::default());
    lfsr.0.rand_algorithm = isa_mariana::RandAlgorithm::Lfsr;
    let dve = isa_mariana::NeuronEngine::Dve;
    assert_eq!(lfsr.firmware(dve), NotWired(Evidence::Assumed));
    assert_eq!(lfsr.firmware(dve).to_string(), "not wired (assumed)");
    assert_eq!(lfsr.firmware(dve).is_wired(), Some(false));
    let save = |arms: &[isa_maverick::legality::RandGetStateArm], engine, algorithm| {
        arms.iter()
            .find(|a| a.engine == engine && a.rand_algorithm == algorithm)
            .map(|a| a.firmware())
    };
    use isa_maverick::{NeuronEngine as E, RandAlgorithm as A};
    let arms = isa_maverick::legality::RAND_GET_STATE_ARMS;
    assert_eq!(
        save(arms, E::Dve, A::Lfsr),
        Some(NotWired(Evidence::Assumed))
    );
    assert_eq!(
        save(arms, E::Pool, A::Philox),
        Some(NotWired(Evidence::Inferred))
    );
    for firmware in [
        isa_sunda::legality::RAND_GET_STATE_ARMS[0].firmware(),
        isa_cayman::legality::RAND_SET_STATE_ARMS[0].firmware(),
    ] {
        assert_eq!(firmware, NotWired(Evidence::Observed));
    }
    assert_eq!(
        <isa_mariana::Mariana as Generation>::firmware(
            CheckpointKind::Save,
            rng_core::Engine::Dve,
            rng_core::Algorithm::Lfsr
        ),
        NotWired(Evidence::Assumed)
    );
}
