//! How strongly the project knows that the firmware ships a body for a checkpoint arm.
//!
//! The validator spec says which (engine, generator, algorithm) arms of RAND_SET_STATE and
//! RAND_GET_STATE are legal; whether the shipped firmware *runs* an arm is a separate fact,
//! project data in each tree's `rng-runtime.json` with an evidence level per entry
//! (`headers/PROVENANCE.md` defines the levels). The generated tables and the typed checkpoint
//! instructions answer with a [`Firmware`], never a bare yes/no.

use core::fmt;

/// How a firmware-wired entry of `rng-runtime.json` is known (`headers/PROVENANCE.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Evidence {
    /// A page read the firmware body, or its strings, for that arm.
    Observed,
    /// Deduced from other documented facts by a step the entry's `source` names.
    Inferred,
    /// The project's choice, with an assumption number in `headers/PROVENANCE.md`.
    Assumed,
}

impl Evidence {
    /// Every level, strongest first.
    pub const ALL: [Evidence; 3] = [Evidence::Observed, Evidence::Inferred, Evidence::Assumed];

    /// The spelling `rng-runtime.json` uses (`observed`, `inferred`, `assumed`).
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

/// Whether the firmware ships a body for an (instruction, engine, algorithm), and how that is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Firmware {
    /// `rng-runtime.json` lists a body, at this evidence level.
    Wired(Evidence),
    /// `rng-runtime.json` lists no body for it: validator-legal or not, the firmware does not run it.
    NotWired,
    /// The tree has no `rng-runtime.json`: nothing is known.
    Unknown,
}

impl Firmware {
    /// `Some(true)` when wired (at any evidence level), `Some(false)` when not, `None` when unknown.
    pub const fn is_wired(self) -> Option<bool> {
        match self {
            Firmware::Wired(_) => Some(true),
            Firmware::NotWired => Some(false),
            Firmware::Unknown => None,
        }
    }

    /// The evidence level of a wired body.
    pub const fn evidence(self) -> Option<Evidence> {
        match self {
            Firmware::Wired(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Firmware {
    /// `wired (observed)`, `not wired`, `unknown`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Firmware::Wired(e) => write!(f, "wired ({e})"),
            Firmware::NotWired => f.write_str("not wired"),
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
        assert_eq!(Firmware::NotWired.is_wired(), Some(false));
        assert_eq!(Firmware::NotWired.evidence(), None);
        assert_eq!(Firmware::Unknown.is_wired(), None);
        assert_eq!(Firmware::Unknown.to_string(), "unknown");
    }
}
