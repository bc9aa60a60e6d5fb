//! The names the generator, the generated crates and rng-core share: the engines, generators,
//! algorithms and other members of the RNG family's vendor enums that rng-core models, the
//! element types, and the model choices `rng-runtime.json` may override.
//!
//! Each enum is written once, as one table of `Variant = "NAME"` lines (the `vocabulary!`
//! macro): the Rust variant, the name (the vendor member name without prefix, or for a model
//! choice the spelling of `rng-runtime.json`) and, where the vendor numbers the members, the
//! code. Every mapping between a vendor name and a variant, in either direction and in the
//! generated code, is read from that table ([`Vocabulary`]), so a member added to a table is
//! known everywhere.
//!
//! rng-core re-exports every type at its own paths (`rng_core::Engine`,
//! `rng_core::model::LaneInterleave`, ...); the generator depends on this module only.

/// An enum of the vocabulary, as tools that map names without naming the type see it (the
/// generator writes `rng_core::<TYPE_NAME>::<rust_name>` for a member name it reads).
pub trait Vocabulary: Copy + Eq + core::fmt::Debug + Send + Sync + 'static {
    /// The type's name in Rust (`"Engine"`).
    const TYPE_NAME: &'static str;
    /// Every member, in declaration order.
    const MEMBERS: &'static [Self];
    /// The member's name: the vendor member name without prefix (`"RNG_XORWOW"`), or for the
    /// project's own vocabularies (model choices, evidence levels) the spelling of
    /// `rng-runtime.json` (`"word_major"`).
    fn name(self) -> &'static str;
    /// The Rust variant's name (`"RngXorwow"`).
    fn rust_name(self) -> &'static str;
    /// The member named `name` (exact spelling), if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::MEMBERS.iter().copied().find(|m| m.name() == name)
    }
    /// Every member's name, in declaration order.
    fn names() -> impl Iterator<Item = &'static str> {
        Self::MEMBERS.iter().map(|m| m.name())
    }
}

/// A vocabulary whose names are members of a vendor C enum (a generation's enum may have more
/// members than the vocabulary: those rng-core does not model).
pub trait VendorNames: Vocabulary {
    /// The vendor C enum (`"NEURON_ISA_TPB_NEURON_ENGINE"`).
    const VENDOR_ENUM: &'static str;
}

/// A generation's enum member that has no counterpart on the other side of a conversion
/// between a generated enum and a vocabulary enum (`NeuronEngine::Pe` has no [`Engine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NoCounterpart {
    /// The generation (`"MARIANA"`).
    pub generation: &'static str,
    /// The vendor C enum (`"NEURON_ISA_TPB_NEURON_ENGINE"`).
    pub vendor_enum: &'static str,
    /// The member's name without prefix (`"PE"`).
    pub member: &'static str,
    /// Where the member is missing: the vocabulary type's name (`"Engine"`), or the generation's.
    pub missing_in: &'static str,
}

impl core::fmt::Display for NoCounterpart {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} member {} of {} has no counterpart in {}",
            self.generation, self.member, self.vendor_enum, self.missing_in
        )
    }
}

impl core::error::Error for NoCounterpart {}

/// Defines a vocabulary enum from its one table: `Variant = "NAME"` per member, optionally
/// `=> code` after each (then `code()` is defined too), and the vendor C enum in brackets
/// (then it implements [`VendorNames`]; empty for a model choice). The derives and
/// documentation are the caller's.
///
/// `markers(module, Trait, CONST)` after the brackets also defines, in `module`, one marker
/// type per member, named as its variant, and `Trait` with `const CONST` naming the member:
/// the type-level mirror of the table ([`crate::arm`] re-exports them).
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $ty:ident [$vendor:literal] markers($module:ident, $marker:ident, $konst:ident) {
            $($(#[$vmeta:meta])* $variant:ident = $name:literal $(=> $code:literal)?,)*
        }
    ) => {
        vocabulary! {
            $(#[$meta])*
            pub enum $ty [$vendor] {
                $($(#[$vmeta])* $variant = $name $(=> $code)?,)*
            }
        }

        #[doc = concat!("Marker types of [`", stringify!($ty), "`](super::", stringify!($ty), "), one per member, and the trait naming the member.")]
        pub mod $module {
            #[doc = concat!("A type standing for one member of [`", stringify!($ty), "`](super::", stringify!($ty), ") (`", $vendor, "`).")]
            pub trait $marker: Copy + Default + core::fmt::Debug + Send + Sync + 'static {
                /// The member this type stands for.
                const $konst: super::$ty;
            }
            $(
                #[doc = concat!("Marker of `", $vendor, "_", $name, "`.")]
                #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
                pub struct $variant;
                impl $marker for $variant {
                    const $konst: super::$ty = super::$ty::$variant;
                }
            )*
        }
    };
    (
        $(#[$meta:meta])*
        pub enum $ty:ident [$($vendor:literal)?] {
            $($(#[$vmeta:meta])* $variant:ident = $name:literal $(=> $code:literal)?,)*
        }
    ) => {
        $(#[$meta])*
        pub enum $ty {
            $($(#[$vmeta])* $variant,)*
        }

        impl $ty {
            /// Every member, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];

            /// The member's name (the vendor member name without prefix, or the runtime
            /// file's spelling of a model choice).
            #[inline]
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// The member named `name` (exact spelling), if any.
            pub fn from_name(name: &str) -> Option<$ty> {
                match name {
                    $($name => Some($ty::$variant),)*
                    _ => None,
                }
            }

            /// The Rust variant's name, as generated code writes it.
            #[inline]
            pub const fn rust_name(self) -> &'static str {
                match self {
                    $($ty::$variant => stringify!($variant),)*
                }
            }
        }

        impl $crate::vocab::Vocabulary for $ty {
            const TYPE_NAME: &'static str = stringify!($ty);
            const MEMBERS: &'static [$ty] = $ty::ALL;
            fn name(self) -> &'static str {
                $ty::name(self)
            }
            fn rust_name(self) -> &'static str {
                $ty::rust_name(self)
            }
            fn from_name(name: &str) -> Option<$ty> {
                $ty::from_name(name)
            }
        }

        $(
            impl $crate::vocab::VendorNames for $ty {
                const VENDOR_ENUM: &'static str = $vendor;
            }
        )?

        vocabulary!(@code $ty { $($variant $(=> $code)?,)* });
    };
    (@code $ty:ident { $($variant:ident => $code:literal,)* }) => {
        impl $ty {
            /// The member's numeric code (its value in the vendor enum).
            #[inline]
            pub const fn code(self) -> u8 {
                match self {
                    $($ty::$variant => $code,)*
                }
            }
        }
    };
    // Members without codes (some vendor enums are numbered differently per generation).
    (@code $ty:ident { $($rest:tt)* }) => {};
}

// After the macro: its scope is the text that follows it.
mod checkpoint;
mod draw;
mod dtype;
mod model;

pub use checkpoint::{
    algorithm_markers, engine_markers, generator_markers, state_update_markers, Algorithm,
    CheckpointKind, Engine, Generator, StateUpdate,
};
pub use draw::{ImmSource, PostProcess, ThresholdType};
pub use dtype::{Dtype, DtypeClass, FloatFormat};
pub use model::{LaneInterleave, PhiloxOffset, SubGeneratorLayout, ZeroGuard};

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::vec::Vec;

    /// The table's names round-trip, no two members share one, and the Rust name is the variant's.
    fn table_holds<V: Vocabulary>() {
        for (k, m) in V::MEMBERS.iter().enumerate() {
            assert_eq!(V::from_name(m.name()), Some(*m), "{m:?}");
            assert_eq!(m.rust_name(), format!("{m:?}"));
            assert!(V::MEMBERS[..k].iter().all(|n| n.name() != m.name()));
        }
        assert_eq!(V::names().count(), V::MEMBERS.len());
        assert_eq!(V::from_name(""), None);
        let lower: Vec<_> = V::names().map(|n| n.to_ascii_lowercase()).collect();
        for (name, lower) in V::names().zip(&lower) {
            if name != lower {
                assert_eq!(V::from_name(lower), None, "names are exact: {lower}");
            }
        }
    }

    #[test]
    fn every_table_maps_names_and_variants_both_ways() {
        table_holds::<Engine>();
        table_holds::<Algorithm>();
        table_holds::<Generator>();
        table_holds::<StateUpdate>();
        table_holds::<CheckpointKind>();
        table_holds::<ImmSource>();
        table_holds::<PostProcess>();
        table_holds::<ThresholdType>();
        table_holds::<Dtype>();
        table_holds::<SubGeneratorLayout>();
        table_holds::<LaneInterleave>();
        table_holds::<PhiloxOffset>();
        table_holds::<crate::Evidence>();
    }

    #[test]
    fn tables_carry_their_vendor_enum_and_codes() {
        assert_eq!(Engine::VENDOR_ENUM, "NEURON_ISA_TPB_NEURON_ENGINE");
        assert_eq!(Dtype::VENDOR_ENUM, "NEURON_ISA_TPB_DTYPE");
        assert_eq!(Generator::TYPE_NAME, "Generator");
        assert_eq!(
            Generator::from_name("RNG_XORWOW"),
            Some(Generator::RngXorwow)
        );
        assert_eq!(Generator::RngXorwow.rust_name(), "RngXorwow");
        assert_eq!(Algorithm::Xorwow.code(), 3);
        assert_eq!(Generator::OutputCvtLfsr.code(), 3);
        assert_eq!(StateUpdate::ImmSingle.code(), 1);
        assert_eq!(CheckpointKind::Restore.code(), 0x78);
        assert_eq!(
            CheckpointKind::from_name("RAND_GET_STATE"),
            Some(CheckpointKind::Save)
        );
        assert_eq!(ImmSource::PointerImmediate.code(), 1);
        assert_eq!(PostProcess::Normal.code(), 2);
        assert_eq!(ThresholdType::KeepRate.code(), 1);
        assert_eq!(Dtype::from_name("FP32R"), None);
        assert_eq!(
            SubGeneratorLayout::from_name("word_major"),
            Some(SubGeneratorLayout::WordMajor)
        );
    }
}
