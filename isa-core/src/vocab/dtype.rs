//! Element types of the tensors the draw instructions write (`NEURON_ISA_TPB_DTYPE`, by member name).
//!
//! Only the types whose storage and arithmetic are documented well enough to
//! model are here (rng-facts §1.6): the integers, fp32, bf16, fp16 and the
//! byte-sized FP8 formats. FP32R (the header's "FP22 partial fp32", layout
//! undocumented), the 4-bit and compressed codes (FP4_EXP2, INT4, CPTC*) and
//! the scale-only SFP8 codes have no rng-core member; the generated decoders
//! report them as not modelled.

vocabulary! {
    /// An element type rng-core can read and write (named as the members of `NEURON_ISA_TPB_DTYPE`;
    /// no codes: the generated crates map their DTYPE members by name).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Dtype ["NEURON_ISA_TPB_DTYPE"] {
        /// `UINT64`, 8 bytes.
        Uint64 = "UINT64",
        /// `INT8`, 1 byte.
        Int8 = "INT8",
        /// `UINT8`, 1 byte.
        Uint8 = "UINT8",
        /// `INT16`, 2 bytes.
        Int16 = "INT16",
        /// `UINT16`, 2 bytes.
        Uint16 = "UINT16",
        /// `BFLOAT16`, 2 bytes (E8M7).
        Bfloat16 = "BFLOAT16",
        /// `FP16`, 2 bytes (IEEE binary16, E5M10).
        Fp16 = "FP16",
        /// `INT32`, 4 bytes.
        Int32 = "INT32",
        /// `UINT32`, 4 bytes.
        Uint32 = "UINT32",
        /// `FP32`, 4 bytes (IEEE binary32).
        Fp32 = "FP32",
        /// `INT64`, 8 bytes.
        Int64 = "INT64",
        /// `FP8_EXP3`, 1 byte, E3M4.
        Fp8Exp3 = "FP8_EXP3",
        /// `FP8_EXP4`, 1 byte, E4M3.
        Fp8Exp4 = "FP8_EXP4",
        /// `FP8_EXP5`, 1 byte, E5M2.
        Fp8Exp5 = "FP8_EXP5",
        /// `FP8_EXP2`, 1 byte, E2M5 (MAVERICK).
        Fp8Exp2 = "FP8_EXP2",
    }
}

/// A binary floating-point format: sign bit, `exponent` bits, `mantissa` bits (stored, without the hidden bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    /// Exponent bits.
    pub exponent: u32,
    /// Stored mantissa bits.
    pub mantissa: u32,
}

/// What an element type holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DtypeClass {
    /// A two's-complement (`signed`) or unsigned integer of `bits` bits.
    Int {
        /// Signed.
        signed: bool,
        /// Width in bits.
        bits: u32,
    },
    /// A binary float.
    Float(FloatFormat),
}

impl Dtype {
    /// Bytes per element (`dtype_size` of the headers).
    #[inline]
    pub const fn size(self) -> u32 {
        match self {
            Dtype::Uint64 | Dtype::Int64 => 8,
            Dtype::Int32 | Dtype::Uint32 | Dtype::Fp32 => 4,
            Dtype::Int16 | Dtype::Uint16 | Dtype::Bfloat16 | Dtype::Fp16 => 2,
            Dtype::Int8
            | Dtype::Uint8
            | Dtype::Fp8Exp3
            | Dtype::Fp8Exp4
            | Dtype::Fp8Exp5
            | Dtype::Fp8Exp2 => 1,
        }
    }

    /// Integer or float, and the format.
    #[inline]
    pub const fn class(self) -> DtypeClass {
        const fn int(signed: bool, bits: u32) -> DtypeClass {
            DtypeClass::Int { signed, bits }
        }
        const fn float(exponent: u32, mantissa: u32) -> DtypeClass {
            DtypeClass::Float(FloatFormat { exponent, mantissa })
        }
        match self {
            Dtype::Uint64 => int(false, 64),
            Dtype::Int8 => int(true, 8),
            Dtype::Uint8 => int(false, 8),
            Dtype::Int16 => int(true, 16),
            Dtype::Uint16 => int(false, 16),
            Dtype::Int32 => int(true, 32),
            Dtype::Uint32 => int(false, 32),
            Dtype::Int64 => int(true, 64),
            Dtype::Bfloat16 => float(8, 7),
            Dtype::Fp16 => float(5, 10),
            Dtype::Fp32 => float(8, 23),
            Dtype::Fp8Exp3 => float(3, 4),
            Dtype::Fp8Exp4 => float(4, 3),
            Dtype::Fp8Exp5 => float(5, 2),
            Dtype::Fp8Exp2 => float(2, 5),
        }
    }

    /// True for the integer types.
    #[inline]
    pub const fn is_int(self) -> bool {
        matches!(self.class(), DtypeClass::Int { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_format_widths() {
        for d in Dtype::ALL {
            let bits = match d.class() {
                DtypeClass::Int { bits, .. } => bits,
                DtypeClass::Float(f) => 1 + f.exponent + f.mantissa,
            };
            assert_eq!(bits, 8 * d.size(), "{d:?}");
            assert_eq!(Dtype::from_name(d.name()), Some(*d));
        }
    }
}
