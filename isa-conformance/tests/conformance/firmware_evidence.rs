//! The firmware-wired data keeps its evidence level in every view the crates give of it: the rows
//! of the generated legality tables (`RandSetStateArm::firmware`), the typed checkpoint
//! instructions (`RandSetState::firmware(engine)`), and rng-core's `Generation::firmware` (which the
//! machine's firmware gate uses). Each is emitted separately from the tree's `rng-runtime.json`;
//! this test holds them to each other and to the file.

use isa_core::{Evidence, Firmware};
use rng_core::{CheckpointKind, Generation};

/// The (instruction, engine, algorithm) → evidence entries of a tree's `rng-runtime.json`.
fn entries(tree: &str) -> Vec<(String, String, String, Evidence)> {
    let path = format!(
        "{}/../headers/{tree}/rng-runtime.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["firmware"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            let level = Evidence::from_name(&s("evidence"))
                .unwrap_or_else(|| panic!("{path}: evidence {}", s("evidence")));
            (s("instruction"), s("engine"), s("algorithm"), level)
        })
        .collect()
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
                        Firmware::Wired(data[at].3)
                    }
                    None => Firmware::NotWired,
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
            // Every entry of the file belongs to a legal arm, so each one was seen above.
            assert!(seen.iter().all(|s| *s), "{}: {data:?} {seen:?}", $tree);
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
    assert_eq!(lfsr.firmware(NeuronEngine::Pe), Firmware::NotWired);
    assert!(isa_maverick::legality::RAND_SET_STATE_ARMS
        .iter()
        .all(|a| a.firmware() != Firmware::Wired(Evidence::Observed)));
}
