//! How strongly the project knows a fact it records beside the vendor text: whether the firmware
//! ships a body for a checkpoint arm, what a legality arm holds, where an opcode is placed.
//!
//! The validator spec says which (engine, generator, algorithm) arms of RAND_SET_STATE and
//! RAND_GET_STATE are legal; whether the shipped firmware *runs* an arm is a separate fact,
//! project data in each tree's `rng-runtime.json` with an evidence level per entry, wired or
//! not wired (`headers/PROVENANCE.md` defines the levels). The generated tables and the typed
//! checkpoint instructions answer with a [`Firmware`], never a bare yes/no.

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
    /// The project's choice where nothing documents the fact, with an assumption number in
    /// `headers/PROVENANCE.md`.
    Assumed,
}

impl Evidence {
    /// Every level, strongest first.
    pub const ALL: [Evidence; 3] = [Evidence::Observed, Evidence::Inferred, Evidence::Assumed];

    /// The spelling `rng-runtime.json` and the header notes use (`observed`, `inferred`,
    /// `assumed`).
    pub const fn name(self) -> &'static str {
        match self {
            Evidence::Observed => "observed",
            Evidence::Inferred => "inferred",
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
            Evidence::Assumed => "Assumed",
        }
    }
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
