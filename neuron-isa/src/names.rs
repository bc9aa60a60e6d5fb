//! Command-line spellings of the vendor vocabulary: the vendor member name in
//! lower case with `-` (`RNG_XORWOW` → `rng-xorwow`), derived from rng-core's
//! names so the two cannot drift apart.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use rng_core::{Algorithm, Engine, Generator, StateUpdate};

/// An rng-core enum with vendor member names.
pub trait Vendor: Copy + Send + Sync + 'static {
    /// Every member.
    const MEMBERS: &'static [Self];
    /// The vendor member name without prefix (`RNG_XORWOW`).
    fn vendor_name(self) -> &'static str;
}

macro_rules! vendor {
    ($($ty:ty),*) => {$(
        impl Vendor for $ty {
            const MEMBERS: &'static [Self] = <$ty>::ALL;
            fn vendor_name(self) -> &'static str {
                self.name()
            }
        }
    )*};
}

vendor!(Engine, Generator, Algorithm, StateUpdate);

/// The command-line spelling of a vendor member name.
pub fn spelling(vendor_name: &str) -> String {
    vendor_name.to_ascii_lowercase().replace('_', "-")
}

/// The member spelled `text` on the command line.
pub fn lookup<T: Vendor>(text: &str) -> Option<T> {
    T::MEMBERS
        .iter()
        .copied()
        .find(|m| spelling(m.vendor_name()) == text)
}

/// A clap value parser for `T` that lists the possible values.
pub fn parser<T: Vendor>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(
        T::MEMBERS
            .iter()
            .map(|m| PossibleValue::new(spelling(m.vendor_name()))),
    )
    .try_map(|text| lookup::<T>(&text).ok_or("not a member"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_follow_the_vendor_names() {
        assert_eq!(spelling("RNG_XORWOW"), "rng-xorwow");
        assert_eq!(
            lookup::<Generator>("output-cvt-lfsr"),
            Some(Generator::OutputCvtLfsr)
        );
        assert_eq!(
            lookup::<StateUpdate>("imm-single"),
            Some(StateUpdate::ImmSingle)
        );
        assert_eq!(lookup::<Algorithm>("pcg32"), Some(Algorithm::Pcg32));
        assert_eq!(lookup::<Engine>("pool"), Some(Engine::Pool));
        assert_eq!(lookup::<Engine>("POOL"), None);
        assert_eq!(lookup::<Engine>("pe"), None);
    }
}
