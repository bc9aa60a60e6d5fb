//! How strongly the project knows a fact it records beside the vendor text: whether the firmware
//! ships a body for a checkpoint arm, what a legality arm holds, where an opcode is placed.
//!
//! The validator spec says which (engine, generator, algorithm) arms of RAND_SET_STATE and
//! RAND_GET_STATE are legal; whether the shipped firmware *runs* an arm is a separate fact,
//! project data in each tree's `rng-runtime.json` with an evidence level per entry, wired or
//! not wired (`headers/PROVENANCE.md` defines the levels). The generated tables and the typed
//! checkpoint instructions answer with a [`Firmware`], never a bare yes/no. An engine placement
//! answers with a [`Basis`]: the level and the numbered entries its header note names.

use core::fmt;

/// How a recorded fact is known (`headers/PROVENANCE.md`). More levels may come, so a `match`
/// needs a catch-all arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Evidence {
    /// A reference page shows it: the firmware body or its strings, for that arm, or the quoted
    /// text.
    Observed,
    /// Deduced from other documented facts by a step the entry's `source` names.
    Inferred,
    /// Reference pages disagree about it; the project's choice is the one its conflict entry
    /// (`C<n>` in `headers/PROVENANCE.md`) records, with the alternative not taken.
    Conflict,
    /// The project's choice where nothing documents the fact, with an assumption number in
    /// `headers/PROVENANCE.md`.
    Assumed,
}

impl Evidence {
    /// Every level, strongest first.
    pub const ALL: [Evidence; 4] = [
        Evidence::Observed,
        Evidence::Inferred,
        Evidence::Conflict,
        Evidence::Assumed,
    ];

    /// The spelling `rng-runtime.json` and the header notes use (`observed`, `inferred`,
    /// `conflict`, `assumed`).
    pub const fn name(self) -> &'static str {
        match self {
            Evidence::Observed => "observed",
            Evidence::Inferred => "inferred",
            Evidence::Conflict => "conflict",
            Evidence::Assumed => "assumed",
        }
    }

    /// The level spelled `name` (as [`Evidence::name`]).
    pub fn from_name(name: &str) -> Option<Evidence> {
        Evidence::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl crate::vocab::Vocabulary for Evidence {
    const TYPE_NAME: &'static str = "Evidence";
    const MEMBERS: &'static [Evidence] = &Evidence::ALL;
    fn name(self) -> &'static str {
        Evidence::name(self)
    }
    fn rust_name(self) -> &'static str {
        match self {
            Evidence::Observed => "Observed",
            Evidence::Inferred => "Inferred",
            Evidence::Conflict => "Conflict",
            Evidence::Assumed => "Assumed",
        }
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A numbered entry of `headers/PROVENANCE.md` a fact rests on: an assumption or model choice
/// (`A55`) or a conflict between pages and the choice made (`C12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reference {
    /// `A<n>`, in "Assumptions and model choices".
    Assumption(u16),
    /// `C<n>`, in "Conflicts between pages, and the choice made".
    Conflict(u16),
}

impl Reference {
    /// The entry spelled `A<n>` or `C<n>` (no sign, no leading zero, `n` at least 1), as the
    /// header notes and [`Reference`]'s `Display` write it.
    pub fn from_name(name: &str) -> Option<Reference> {
        let (kind, digits) = name.split_at_checked(1)?;
        let well_formed = !digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit());
        let n: u16 = digits.parse().ok().filter(|_| well_formed)?;
        match kind {
            "A" => Some(Reference::Assumption(n)),
            "C" => Some(Reference::Conflict(n)),
            _ => None,
        }
    }
}

impl fmt::Display for Reference {
    /// `A55`, `C12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reference::Assumption(n) => write!(f, "A{n}"),
            Reference::Conflict(n) => write!(f, "C{n}"),
        }
    }
}

/// How a recorded fact is known: its evidence level and the `headers/PROVENANCE.md` entries it
/// rests on, as the header note beside the fact gives them (an engine placement's, say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Basis {
    /// The level.
    pub evidence: Evidence,
    /// The entries the note names, in its order; empty for a documented fact without a note
    /// reference.
    pub references: &'static [Reference],
}

impl fmt::Display for Basis {
    /// `observed`, `assumed (A55)`, `conflict (C11)`, `inferred (A27, C4)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.evidence)?;
        for (k, r) in self.references.iter().enumerate() {
            f.write_str(if k == 0 { " (" } else { ", " })?;
            write!(f, "{r}")?;
        }
        if !self.references.is_empty() {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// Whether the firmware ships a body for an (instruction, engine, algorithm), and how that is
/// known. More answers may come, so a `match` needs a catch-all arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Firmware {
    /// `rng-runtime.json` lists a body, at this evidence level.
    Wired(Evidence),
    /// `rng-runtime.json` lists it as not wired, at this evidence level: `Observed` when a page
    /// shows the firmware lacks the body (or rejects the algorithm), `Assumed` when nothing
    /// documents it and leaving it out is the project's choice.
    NotWired(Evidence),
    /// Nothing is known: the tree has no `rng-runtime.json`, or the file records neither a body
    /// nor its absence for it.
    Unknown,
}

impl Firmware {
    /// `Some(true)` when wired (at any evidence level), `Some(false)` when not, `None` when unknown.
    pub const fn is_wired(self) -> Option<bool> {
        match self {
            Firmware::Wired(_) => Some(true),
            Firmware::NotWired(_) => Some(false),
            Firmware::Unknown => None,
        }
    }

    /// How the answer is known: the evidence level of a wired body or of its recorded absence.
    pub const fn evidence(self) -> Option<Evidence> {
        match self {
            Firmware::Wired(e) | Firmware::NotWired(e) => Some(e),
            Firmware::Unknown => None,
        }
    }
}

impl fmt::Display for Firmware {
    /// `wired (observed)`, `not wired (assumed)`, `unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Firmware::Wired(e) => write!(f, "wired ({e})"),
            Firmware::NotWired(e) => write!(f, "not wired ({e})"),
            Firmware::Unknown => f.write_str("unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn levels_round_trip_through_their_names() {
        for e in Evidence::ALL {
            assert_eq!(Evidence::from_name(e.name()), Some(e));
        }
        assert_eq!(Evidence::from_name("Observed"), None);
        assert_eq!(Evidence::from_name(""), None);
    }

    #[test]
    fn references_round_trip_and_reject_malformed_names() {
        for r in [Reference::Assumption(55), Reference::Conflict(1)] {
            assert_eq!(Reference::from_name(&r.to_string()), Some(r));
        }
        for bad in [
            "", "A", "C0", "A055", "B5", "a5", "A5x", "A+5", "A99999", "A-1",
        ] {
            assert_eq!(Reference::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_basis_prints_its_level_and_entries() {
        let plain = Basis {
            evidence: Evidence::Observed,
            references: &[],
        };
        assert_eq!(plain.to_string(), "observed");
        let cited = Basis {
            evidence: Evidence::Inferred,
            references: &[Reference::Assumption(27), Reference::Conflict(4)],
        };
        assert_eq!(cited.to_string(), "inferred (A27, C4)");
    }

    #[test]
    fn firmware_answers_keep_the_level() {
        let w = Firmware::Wired(Evidence::Inferred);
        assert_eq!(w.is_wired(), Some(true));
        assert_eq!(w.evidence(), Some(Evidence::Inferred));
        assert_eq!(w.to_string(), "wired (inferred)");
        let n = Firmware::NotWired(Evidence::Assumed);
        assert_eq!(n.is_wired(), Some(false));
        assert_eq!(n.evidence(), Some(Evidence::Assumed));
        assert_eq!(n.to_string(), "not wired (assumed)");
        assert_eq!(Firmware::Unknown.is_wired(), None);
        assert_eq!(Firmware::Unknown.evidence(), None);
        assert_eq!(Firmware::Unknown.to_string(), "unknown");
    }
}
