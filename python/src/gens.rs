//! The four generations, and the one place a run-time generation name becomes a type.

use isa_core::construct::Construct;
use isa_core::Isa;
use rng_core::Generation;

/// What every generated crate's marker type implements, and the bindings need of it.
pub trait Target: Isa + Generation + Construct {}

impl<G: Isa + Generation + Construct> Target for G {}

/// A NeuronCore generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gen {
    /// NeuronCore v2.
    Sunda,
    /// NeuronCore v3.
    Cayman,
    /// NeuronCore v4.
    Mariana,
    /// NeuronCore v5.
    Maverick,
}

/// Evaluates `$body` with the type alias `$G` bound to the marker type of generation `$gen`.
#[macro_export]
macro_rules! for_gen {
    ($gen:expr, $G:ident => $body:expr) => {
        match $gen {
            $crate::gens::Gen::Sunda => {
                type $G = isa_sunda::Sunda;
                $body
            }
            $crate::gens::Gen::Cayman => {
                type $G = isa_cayman::Cayman;
                $body
            }
            $crate::gens::Gen::Mariana => {
                type $G = isa_mariana::Mariana;
                $body
            }
            $crate::gens::Gen::Maverick => {
                type $G = isa_maverick::Maverick;
                $body
            }
        }
    };
}

impl Gen {
    /// Every generation, oldest first.
    pub const ALL: [Gen; 4] = [Gen::Sunda, Gen::Cayman, Gen::Mariana, Gen::Maverick];

    /// The vendor's spelling of the tree (`MARIANA`), from the generated crate.
    pub fn vendor_name(self) -> &'static str {
        for_gen!(self, G => G::INFO.name)
    }

    /// The lower-case name (`mariana`), as `neuron-isa --gen` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Gen::Sunda => "sunda",
            Gen::Cayman => "cayman",
            Gen::Mariana => "mariana",
            Gen::Maverick => "maverick",
        }
    }

    /// The generation named `text` (lower case or the vendor's upper case).
    pub fn from_name(text: &str) -> Option<Gen> {
        Gen::ALL
            .into_iter()
            .find(|g| g.name() == text || g.vendor_name() == text)
    }

    /// `sunda, cayman, mariana, maverick`: for messages.
    pub fn choices() -> String {
        Gen::ALL.map(Gen::name).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_generated_crates() {
        for g in Gen::ALL {
            assert_eq!(g.vendor_name().to_ascii_lowercase(), g.name());
            assert_eq!(Gen::from_name(g.name()), Some(g));
            assert_eq!(Gen::from_name(g.vendor_name()), Some(g));
        }
        assert_eq!(Gen::from_name("Mariana"), None);
        assert_eq!(Gen::from_name(""), None);
    }
}
