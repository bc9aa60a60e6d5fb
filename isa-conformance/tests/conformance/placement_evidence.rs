//! Every engine placement answers with the evidence its header note gives: the generated
//! `Opcode::placement_evidence` (and `Isa::placement_evidence`) against the text of each tree's
//! `aws_neuron_isa_tpb_instr_assert.h`, read here line by line, and against the entries
//! `headers/PROVENANCE.md` defines.

use isa_core::{Basis, Evidence, Isa, Reference, VendorEnum};
use std::collections::BTreeSet;

const ASSUMED_A55: Basis = Basis {
    evidence: Evidence::Assumed,
    references: &[Reference::Assumption(55)],
};

#[test]
fn the_placements_the_issue_names_carry_their_entries() {
    use isa_mariana::{NeuronEngine as M, Opcode as MOp};
    use isa_sunda::{NeuronEngine as S, Opcode as SOp};
    let c11 = Basis {
        evidence: Evidence::Conflict,
        references: &[Reference::Conflict(11)],
    };
    assert_eq!(MOp::RandSetState.placement_evidence(M::Act), Some(c11));
    assert_eq!(MOp::RandGetState.placement_evidence(M::Act), Some(c11));
    let c12 = Basis {
        evidence: Evidence::Conflict,
        references: &[Reference::Conflict(12)],
    };
    assert_eq!(SOp::RandGetState.placement_evidence(S::Pool), Some(c12));
    assert_eq!(SOp::RandSetState.placement_evidence(S::Pool), Some(c12));
    assert_eq!(SOp::Rand.placement_evidence(S::Pool), Some(ASSUMED_A55));
    assert_eq!(
        isa_maverick::Opcode::Rand.placement_evidence(isa_maverick::NeuronEngine::Pool),
        Some(ASSUMED_A55)
    );
    let a56 = Basis {
        evidence: Evidence::Assumed,
        references: &[Reference::Assumption(56)],
    };
    assert_eq!(MOp::PeManageSeed.placement_evidence(M::Pe), Some(a56));
    let documented = Basis {
        evidence: Evidence::Observed,
        references: &[],
    };
    assert_eq!(MOp::Rand2.placement_evidence(M::Dve), Some(documented));
    assert_eq!(MOp::Dropout.placement_evidence(M::Dve), Some(documented));
    assert_eq!(MOp::Rand2.placement_evidence(M::Pool), None);
    assert_eq!(MOp::Rand.placement_evidence(M::Act), None);
    assert_eq!(
        <isa_mariana::Mariana as Isa>::placement_evidence(MOp::RandSetState, M::Act),
        Some(c11)
    );
    assert_eq!(c11.to_string(), "conflict (C11)");
}

/// One placement line of `neuron_isa_check_opcode_on_engine`: engine, opcode, the entries its
/// note names, and the level the note states or its entries imply.
fn lines_of(tree: &str) -> Vec<(String, String, Vec<String>, Evidence)> {
    let path = format!(
        "{}/../headers/{tree}/tpb/aws_neuron_isa_tpb_instr_assert.h",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let body = text
        .split_once("neuron_isa_check_opcode_on_engine(")
        .unwrap_or_else(|| panic!("{path}: no placement function"))
        .1;
    let mut engine = String::new();
    let mut out = Vec::new();
    for line in body.lines().take_while(|l| !l.starts_with('}')) {
        let (code, note) = line.split_once("//").unwrap_or((line, ""));
        if let Some(e) = code.split("NEURON_ISA_TPB_NEURON_ENGINE_").nth(1) {
            engine = e.trim_end_matches([')', '{', ' ']).into();
        }
        let Some(op) = code.split("NEURON_ISA_TPB_OPCODE_").nth(1) else {
            continue;
        };
        let op: String = op
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let mut refs = Vec::new();
        for group in note.split('(').skip(1) {
            let group = group.split(')').next().unwrap();
            for item in group.split(',').map(str::trim) {
                let numbered = item.len() > 1 && item[1..].bytes().all(|b| b.is_ascii_digit());
                if numbered && (item.starts_with('A') || item.starts_with('C')) {
                    refs.push(item.to_string());
                }
            }
        }
        let opening = note.split_whitespace().next().unwrap_or("");
        let level =
            Evidence::from_name(opening).unwrap_or(if refs.iter().any(|r| r.starts_with('A')) {
                Evidence::Assumed
            } else if refs.is_empty() {
                Evidence::Observed
            } else {
                Evidence::Conflict
            });
        out.push((engine.clone(), op, refs, level));
    }
    out
}

/// The entry names `PROVENANCE.md` defines: `N.` items of its assumptions list, `| CN |` rows of
/// its conflicts table.
fn provenance_entries() -> BTreeSet<String> {
    let path = format!("{}/../headers/PROVENANCE.md", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let assumptions = text
        .split_once("## Assumptions and model choices")
        .unwrap()
        .1;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if let Some(c) = line.strip_prefix("| C").and_then(|r| r.split_once(" |")) {
            out.insert(format!("C{}", c.0));
        }
    }
    for line in assumptions.lines().take_while(|l| !l.starts_with("## ")) {
        if let Some((n, _)) = line.split_once(". ") {
            if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() {
                out.insert(format!("A{n}"));
            }
        }
    }
    out
}

fn check<G: Isa>(tree: &str) {
    let lines = lines_of(tree);
    let defined = provenance_entries();
    assert!(
        defined.contains("A55") && defined.contains("C11"),
        "{defined:?}"
    );
    let mut placed = 0;
    for op in G::opcodes() {
        for &engine in G::engines(*op) {
            placed += 1;
            let basis = G::placement_evidence(*op, engine)
                .unwrap_or_else(|| panic!("{tree}: {op} on {engine} placed without evidence"));
            let line = lines
                .iter()
                .find(|(e, o, _, _)| e == engine.vendor_name() && o == op.vendor_name())
                .unwrap_or_else(|| panic!("{tree}: no header line places {op} on {engine}"));
            let refs: Vec<String> = basis.references.iter().map(|r| r.to_string()).collect();
            assert_eq!(refs, line.2, "{tree}: {op} on {engine}");
            assert_eq!(basis.evidence, line.3, "{tree}: {op} on {engine}");
            for r in &refs {
                assert!(
                    defined.contains(r),
                    "{tree}: {op} on {engine} names {r}, which PROVENANCE.md does not define"
                );
            }
        }
        for &engine in G::Engine::all() {
            if !G::engines(*op).contains(&engine) {
                assert_eq!(
                    G::placement_evidence(*op, engine),
                    None,
                    "{tree}: {op} on {engine}"
                );
            }
        }
    }
    assert_eq!(
        placed,
        lines.len(),
        "{tree}: every header line is one placement"
    );
}

#[test]
fn every_placement_has_its_header_note_s_evidence() {
    check::<isa_sunda::Sunda>("neuron_sunda_arch_isa");
    check::<isa_cayman::Cayman>("neuron_cayman_arch_isa");
    check::<isa_mariana::Mariana>("neuron_mariana_arch_isa");
    check::<isa_maverick::Maverick>("neuron_maverick_arch_isa");
}
