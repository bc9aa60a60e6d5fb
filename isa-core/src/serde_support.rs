//! What the generated crates' `serde` feature uses (feature `serde` of this crate).
//!
//! * Typed enums serialize as their vendor member name without prefix (`"XORWOW"`), and
//!   deserialize from it (an alias name too); anything else is an error naming the C enum.
//! * Arrays serialize as a sequence (a tuple of fixed length, as serde does for arrays up to
//!   32 elements) through [`mod@array`], which serde's own array impls cannot do past 32 elements
//!   (the operand structs hold `reserved: [u8; 44]` and the like). A sequence of another length
//!   is an error naming the expected length. No allocation: it works without `std`. (The
//!   elements go through their own impls, so an array of arrays is fine while the inner
//!   arrays have at most 32 elements.)
//!
//! The generated crates derive through the re-export [`crate::serde`]
//! (`#[serde(crate = "isa_core::serde")]`), so they need no serde dependency of their own.

use crate::VendorEnum;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Unexpected, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

/// Serializes a typed enum as its vendor member name.
pub fn serialize_enum<T: VendorEnum, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(value.vendor_name())
}

/// Deserializes a typed enum from its vendor member name (or an alias of it).
pub fn deserialize_enum<'de, T: VendorEnum, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct ByName<T>(PhantomData<T>);
    impl<T: VendorEnum> Visitor<'_> for ByName<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a member name of {}", T::C_NAME)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::from_vendor_name(v).ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
        }
    }
    d.deserialize_str(ByName(PhantomData))
}

/// `#[serde(with = "isa_core::serde_support::array")]`: an array of any length as a sequence.
pub mod array {
    use super::*;

    /// Serializes `[T; N]` as a tuple of `N` elements (a JSON array).
    pub fn serialize<T: Serialize, S: Serializer, const N: usize>(
        value: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for v in value {
            t.serialize_element(v)?;
        }
        t.end()
    }

    /// Deserializes `[T; N]` from a sequence of exactly `N` elements.
    pub fn deserialize<'de, T, D, const N: usize>(d: D) -> Result<[T; N], D::Error>
    where
        T: Deserialize<'de> + Copy,
        D: Deserializer<'de>,
    {
        d.deserialize_tuple(N, ArrayVisitor::<T, N>(PhantomData))
    }

    struct ArrayVisitor<T, const N: usize>(PhantomData<T>);

    impl<'de, T: Deserialize<'de> + Copy, const N: usize> Visitor<'de> for ArrayVisitor<T, N> {
        type Value = [T; N];

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "an array of {N} elements")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
            let mut out: Option<[T; N]> = None;
            for k in 0..N {
                let v: T = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(k, &self))?;
                out.get_or_insert([v; N])[k] = v;
            }
            let mut extra = 0;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                extra += 1;
            }
            if extra > 0 {
                return Err(de::Error::invalid_length(N + extra, &self));
            }
            match out {
                Some(a) => Ok(a),
                // N == 0: the empty array.
                None => {
                    <[T; N]>::try_from(&[][..]).map_err(|_| de::Error::invalid_length(0, &self))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(crate = "crate::serde")]
    struct Holder {
        #[serde(with = "array")]
        big: [u8; 40],
        #[serde(with = "array")]
        none: [u16; 0],
    }

    #[test]
    fn long_arrays_are_sequences_of_exactly_their_length() {
        let mut h = Holder {
            big: [0; 40],
            none: [],
        };
        h.big[39] = 7;
        let text = serde_json::to_string(&h).unwrap();
        assert!(text.starts_with("{\"big\":[0,0,"), "{text}");
        assert!(text.ends_with(",7],\"none\":[]}"), "{text}");
        assert_eq!(serde_json::from_str::<Holder>(&text).unwrap(), h);

        let short = text.replacen("[0,0,", "[0,", 1);
        let e = serde_json::from_str::<Holder>(&short).unwrap_err();
        assert!(
            e.to_string()
                .contains("invalid length 39, expected an array of 40 elements"),
            "{e}"
        );
        let long = text.replacen("[0,0,", "[0,0,0,0,", 1);
        let e = serde_json::from_str::<Holder>(&long).unwrap_err();
        assert!(
            e.to_string()
                .contains("invalid length 42, expected an array of 40 elements"),
            "{e}"
        );
    }
}
