//! The arithmetic of the draw instructions: a draw to a uniform fp32, the
//! `min + u·(max − min)` range map, and conversions between fp32 and the
//! element types, each rounding named by a [`ModelChoices`] field.
//!
//! Element values travel as raw little-endian bits in a `u64` (the low
//! `8 × size` bits). No `std` maths: the fused multiply-add is computed
//! exactly in f64 with round-to-odd, then rounded once to fp32.

use crate::dtype::{Dtype, DtypeClass, FloatFormat};
use crate::model::{
    FloatRounding, FloatToInt, Fp8Encoding, ModelChoices, RangeArithmetic, RawInteger, UniformBits,
};

/// A 32-bit draw as a uniform fp32 in `[0, 1)` ([`ModelChoices::uniform_bits`]).
pub fn uniform(r: u32, bits: UniformBits) -> f32 {
    let mantissa = match bits {
        UniformBits::Mantissa23 => r & 0x007F_FFFF,
        UniformBits::High23 => r >> 9,
    };
    f32::from_bits(mantissa | 0x3F80_0000) - 1.0
}

/// `min + u·(max − min)` in fp32 ([`ModelChoices::range_arithmetic`]).
pub fn in_range(min: f32, max: f32, u: f32, arithmetic: RangeArithmetic) -> f32 {
    let d = max - min;
    match arithmetic {
        RangeArithmetic::Separate => min + d * u,
        RangeArithmetic::Fused => fma(d, u, min),
    }
}

/// `a·b + c` rounded once to fp32 (round to nearest, ties to even).
///
/// The product of two fp32 values is exact in f64; the sum is rounded to f64
/// with round-to-odd (53 ≥ 24 + 2 bits), after which one rounding to fp32 is
/// the correctly rounded fused result.
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    let p = f64::from(a) * f64::from(b);
    let c = f64::from(c);
    let s = p + c;
    if !s.is_finite() || s == 0.0 {
        return s as f32;
    }
    // The rounding error of the addition (Knuth's TwoSum), exact.
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    let mut bits = s.to_bits();
    if err != 0.0 && bits & 1 == 0 {
        // Round to odd: step one ulp toward the exact sum.
        if (err > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    f64::from_bits(bits) as f32
}

/// 2^k as an f64, for `k` in the normal range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

fn abs64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() & !(1 << 63))
}

/// True when `format` under `model` is OCP E4M3FN (no infinities, only `S.1111.111` is NaN).
fn finite_only(format: FloatFormat, model: &ModelChoices) -> bool {
    model.fp8_encoding == Fp8Encoding::E4m3Fn && format.exponent == 4 && format.mantissa == 3
}

/// fp32 to a narrower binary float format; the encoding in the low `1 + e + m` bits.
///
/// NaN becomes the format's canonical quiet NaN with the input's sign
/// (`S.1111.111` for E4M3FN); infinities stay infinite (E4M3FN: saturate).
fn encode_float(x: f32, f: FloatFormat, rounding: FloatRounding, finite: bool) -> u64 {
    let (e, m) = (f.exponent, f.mantissa);
    let bits = x.to_bits();
    let sign = u64::from(bits >> 31) << (e + m);
    let all_ones = (1u64 << e) - 1;
    let max_finite = if finite {
        (all_ones << m) | ((1 << m) - 2)
    } else {
        ((all_ones - 1) << m) | ((1 << m) - 1)
    };
    let infinity = all_ones << m;
    if x.is_nan() {
        return sign
            | if finite {
                (all_ones << m) | ((1 << m) - 1)
            } else {
                infinity | (1 << (m - 1))
            };
    }
    if x.is_infinite() {
        return sign | if finite { max_finite } else { infinity };
    }
    let exponent = (bits >> 23) & 0xFF;
    let fraction = u64::from(bits & 0x007F_FFFF);
    let (sig, exp2) = if exponent == 0 {
        (fraction, -149i32)
    } else {
        (fraction | 1 << 23, exponent as i32 - 150)
    };
    if sig == 0 {
        return sign;
    }
    let msb = 63 - sig.leading_zeros() as i32;
    let ev = msb + exp2;
    let bias = (1i32 << (e - 1)) - 1;
    let emin = 1 - bias;
    let q = ev.max(emin) - m as i32;
    let shift = q - exp2;
    let n = if shift <= 0 {
        sig << (-shift)
    } else if shift > 60 {
        0 // far below half of the smallest step: rounds to zero in both modes
    } else {
        let kept = sig >> shift;
        let rest = sig & ((1 << shift) - 1);
        let half = 1u64 << (shift - 1);
        match rounding {
            FloatRounding::TowardZero => kept,
            FloatRounding::NearestEven => {
                if rest > half || (rest == half && kept & 1 == 1) {
                    kept + 1
                } else {
                    kept
                }
            }
        }
    };
    // Subnormal (q = emin − m): the encoding is n; normal: a carry into the exponent is the addition.
    let encoding = (((q - (emin - m as i32)) as u64) << m) + n;
    if encoding > max_finite {
        return sign
            | match (finite, rounding) {
                (false, FloatRounding::NearestEven) => infinity,
                _ => max_finite,
            };
    }
    sign | encoding
}

/// A binary float encoding (low `1 + e + m` bits) as fp32 (exact for every format here).
fn decode_float(bits: u64, f: FloatFormat, finite: bool) -> f32 {
    let (e, m) = (f.exponent, f.mantissa);
    let negative = (bits >> (e + m)) & 1 == 1;
    let exponent = (bits >> m) & ((1 << e) - 1);
    let mantissa = bits & ((1 << m) - 1);
    let all_ones = (1u64 << e) - 1;
    let bias = (1i32 << (e - 1)) - 1;
    let magnitude = if finite && exponent == all_ones && mantissa == (1 << m) - 1 {
        f64::NAN
    } else if !finite && exponent == all_ones {
        if mantissa == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if exponent == 0 {
        mantissa as f64 * pow2(1 - bias - m as i32)
    } else {
        (mantissa | 1 << m) as f64 * pow2(exponent as i32 - bias - m as i32)
    };
    let value = if negative { -magnitude } else { magnitude };
    value as f32
}

/// Rounds to an integer, ties to even (exact for every f64 from an fp32).
fn round_even(v: f64) -> f64 {
    const TWO52: f64 = 4_503_599_627_370_496.0;
    let a = abs64(v);
    if a >= TWO52 {
        return v;
    }
    let r = (a + TWO52) - TWO52;
    if v < 0.0 {
        -r
    } else {
        r
    }
}

/// The element bits of fp32 `value` converted to `dtype` (floats: [`ModelChoices::float_rounding`],
/// [`ModelChoices::fp8_encoding`]; integers: [`ModelChoices::float_to_int`]).
pub fn from_f32(value: f32, dtype: Dtype, model: &ModelChoices) -> u64 {
    match dtype.class() {
        DtypeClass::Float(f) if f.exponent == 8 && f.mantissa == 23 => u64::from(value.to_bits()),
        DtypeClass::Float(f) => encode_float(value, f, model.float_rounding, finite_only(f, model)),
        DtypeClass::Int { signed, bits } => {
            if value.is_nan() {
                return 0;
            }
            let v = f64::from(value);
            let r = match model.float_to_int {
                FloatToInt::NearestEvenSaturate => round_even(v),
                FloatToInt::TowardZeroSaturate => v,
            };
            // `as` truncates toward zero and saturates at the i128 bounds.
            let n = r as i128;
            let (lo, hi) = if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            (n.clamp(lo, hi) as u64) & mask(bits)
        }
    }
}

/// The fp32 value of the element bits of a float `dtype`; `None` for an integer type.
pub fn to_f32(bits: u64, dtype: Dtype, model: &ModelChoices) -> Option<f32> {
    match dtype.class() {
        DtypeClass::Float(f) if f.exponent == 8 && f.mantissa == 23 => {
            Some(f32::from_bits(bits as u32))
        }
        DtypeClass::Float(f) => Some(decode_float(bits, f, finite_only(f, model))),
        DtypeClass::Int { .. } => None,
    }
}

/// The element bits of a raw 32-bit draw in integer `dtype` ([`ModelChoices::raw_integer`]);
/// `None` for a float type.
pub fn from_raw(r: u32, dtype: Dtype, model: &ModelChoices) -> Option<u64> {
    match dtype.class() {
        DtypeClass::Int { bits, .. } if bits >= 32 => Some(u64::from(r)),
        DtypeClass::Int { bits, .. } => Some(match model.raw_integer {
            RawInteger::LowBits => u64::from(r) & mask(bits),
            RawInteger::HighBits => u64::from(r >> (32 - bits)),
        }),
        DtypeClass::Float(_) => None,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const M: ModelChoices = ModelChoices::RECONSTRUCTED;

    #[test]
    fn uniform_takes_the_named_bits() {
        assert_eq!(uniform(0, UniformBits::Mantissa23), 0.0);
        assert_eq!(uniform(0xFF80_0000, UniformBits::Mantissa23), 0.0);
        assert_eq!(uniform(0x0040_0000, UniformBits::Mantissa23), 0.5);
        assert_eq!(uniform(0x8000_0000, UniformBits::High23), 0.5);
        assert_eq!(uniform(0x0000_01FF, UniformBits::High23), 0.0);
        let top = uniform(u32::MAX, UniformBits::Mantissa23);
        assert_eq!(top, 1.0 - f32::EPSILON);
        assert_eq!(uniform(u32::MAX, UniformBits::High23), top);
    }

    #[test]
    fn fused_and_separate_differ_where_the_product_rounds() {
        // d·u = (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product alone rounds the 2^-24 away (tie to even).
        let d = 1.0 + f32::powi(2.0, -12);
        let c = -1.0f32;
        assert_eq!(d * d + c, f32::powi(2.0, -11));
        assert_eq!(fma(d, d, c), f32::powi(2.0, -11) + f32::powi(2.0, -24));
        assert_eq!(in_range(0.0, 1.0, 0.25, RangeArithmetic::Fused), 0.25);
        assert_eq!(fma(2.0, 3.0, 1.0), 7.0);
        assert!(fma(f32::NAN, 1.0, 1.0).is_nan());
        assert_eq!(fma(f32::MAX, 2.0, 0.0), f32::INFINITY);
    }

    #[test]
    fn narrow_floats_round_to_nearest_even_with_infinities() {
        let bf = |x: f32| from_f32(x, Dtype::Bfloat16, &M);
        assert_eq!(bf(1.0), 0x3F80);
        assert_eq!(bf(f32::from_bits(0x3F80_8000)), 0x3F80); // tie, even stays
        assert_eq!(bf(f32::from_bits(0x3F81_8000)), 0x3F82); // tie, odd rounds up
        assert_eq!(bf(f32::from_bits(0x3F80_8001)), 0x3F81);
        assert_eq!(bf(-0.0), 0x8000);
        assert_eq!(bf(f32::MAX), 0x7F80);
        let h = |x: f32| from_f32(x, Dtype::Fp16, &M);
        assert_eq!(h(1.0), 0x3C00);
        assert_eq!(h(65504.0), 0x7BFF);
        assert_eq!(h(65520.0), 0x7C00); // halfway to 2^16: rounds to even, i.e. infinity
        assert_eq!(h(f32::powi(2.0, -24)), 0x0001);
        assert_eq!(h(f32::powi(2.0, -25)), 0x0000); // tie to even (zero)
        assert_eq!(h(f32::powi(2.0, -25) * 1.5), 0x0001);
        assert_eq!(h(f32::NAN), 0x7E00);
        let tz = ModelChoices {
            float_rounding: FloatRounding::TowardZero,
            ..M
        };
        assert_eq!(
            from_f32(f32::from_bits(0x3F81_FFFF), Dtype::Bfloat16, &tz),
            0x3F81
        );
        assert_eq!(from_f32(1e9, Dtype::Fp16, &tz), 0x7BFF);
        // E4M3: IEEE-style (max 240, infinity) or FN (max 448, saturating).
        assert_eq!(from_f32(240.0, Dtype::Fp8Exp4, &M), 0x77);
        assert_eq!(from_f32(256.0, Dtype::Fp8Exp4, &M), 0x78);
        let fnm = ModelChoices {
            fp8_encoding: Fp8Encoding::E4m3Fn,
            ..M
        };
        assert_eq!(from_f32(448.0, Dtype::Fp8Exp4, &fnm), 0x7E);
        assert_eq!(from_f32(1000.0, Dtype::Fp8Exp4, &fnm), 0x7E);
        assert_eq!(from_f32(f32::NAN, Dtype::Fp8Exp4, &fnm), 0x7F);
        assert_eq!(from_f32(1000.0, Dtype::Fp8Exp5, &fnm), 0x64); // E5M2 is IEEE-style in both: 1024
    }

    #[test]
    fn every_narrow_encoding_decodes_and_encodes_back() {
        for model in [
            M,
            ModelChoices {
                fp8_encoding: Fp8Encoding::E4m3Fn,
                ..M
            },
        ] {
            for dtype in Dtype::ALL.iter().copied().filter(|d| !d.is_int()) {
                let width = 8 * dtype.size();
                for bits in 0..(1u64 << width.min(16)) {
                    let x = to_f32(bits, dtype, &model).unwrap();
                    if x.is_nan() {
                        continue;
                    }
                    assert_eq!(from_f32(x, dtype, &model), bits, "{dtype:?} {bits:#x}");
                }
            }
        }
    }

    #[test]
    fn integers_round_and_saturate() {
        let i = |x: f32, d| from_f32(x, d, &M);
        assert_eq!(i(2.5, Dtype::Int32), 2);
        assert_eq!(i(3.5, Dtype::Int32), 4);
        assert_eq!(i(-2.5, Dtype::Int8), 0xFE);
        assert_eq!(i(1e10, Dtype::Int16), 0x7FFF);
        assert_eq!(i(-1e10, Dtype::Int16), 0x8000);
        assert_eq!(i(-1.0, Dtype::Uint8), 0);
        assert_eq!(i(f32::NAN, Dtype::Uint32), 0);
        assert_eq!(i(1e30, Dtype::Int64), i64::MAX as u64);
        let tz = ModelChoices {
            float_to_int: FloatToInt::TowardZeroSaturate,
            ..M
        };
        assert_eq!(from_f32(3.9, Dtype::Int32, &tz), 3);
        assert_eq!(from_f32(-3.9, Dtype::Int32, &tz) as u32, (-3i32) as u32);
        assert_eq!(from_raw(0x1234_5678, Dtype::Uint8, &M), Some(0x78));
        assert_eq!(from_raw(0x1234_5678, Dtype::Int64, &M), Some(0x1234_5678));
        let high = ModelChoices {
            raw_integer: RawInteger::HighBits,
            ..M
        };
        assert_eq!(from_raw(0x1234_5678, Dtype::Int16, &high), Some(0x1234));
        assert_eq!(from_raw(1, Dtype::Fp32, &M), None);
        assert_eq!(to_f32(0, Dtype::Int8, &M), None);
    }
}
