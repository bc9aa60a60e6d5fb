//! Arithmetic of the validator spec language, as the generated validators use it.
//!
//! The spec language computes with mathematical integers; the translation
//! evaluates in `i128` (exact for every product of the header's 16-bit
//! counts) and narrows at function boundaries by saturation. None of these
//! functions panics.

macro_rules! saturate {
    ($($name:ident: $ty:ty),* $(,)?) => {$(
        #[doc = concat!("Saturates an `i128` into `", stringify!($ty), "`.")]
        #[inline]
        pub const fn $name(v: i128) -> $ty {
            if v < <$ty>::MIN as i128 {
                <$ty>::MIN
            } else if v > <$ty>::MAX as i128 {
                <$ty>::MAX
            } else {
                v as $ty
            }
        }
    )*};
}

saturate!(
    to_u8: u8,
    to_u16: u16,
    to_u32: u32,
    to_u64: u64,
    to_i8: i8,
    to_i16: i16,
    to_i32: i32,
    to_i64: i64,
);

/// `a / b`, truncating toward zero as C does; `0` when `b == 0`.
#[inline]
pub const fn div(a: i128, b: i128) -> i128 {
    match a.checked_div(b) {
        Some(q) => q,
        None => 0,
    }
}

/// `a % b` with the sign of `a` as C does; `0` when `b == 0`.
#[inline]
pub const fn rem(a: i128, b: i128) -> i128 {
    match a.checked_rem(b) {
        Some(r) => r,
        None => 0,
    }
}

/// `a << b`; `0` when `b` is negative or the result does not fit.
#[inline]
pub const fn shl(a: i128, b: i128) -> i128 {
    if b < 0 || b > 126 {
        return 0;
    }
    match a.checked_mul(1i128 << b) {
        Some(v) => v,
        None => 0,
    }
}

/// `a >> b` (arithmetic); `0` (or `-1` for negative `a`) when `b` is 127 or more; `0` when `b` is negative.
#[inline]
pub const fn shr(a: i128, b: i128) -> i128 {
    if b < 0 {
        0
    } else if b > 126 {
        if a < 0 {
            -1
        } else {
            0
        }
    } else {
        a >> b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrowing_saturates() {
        assert_eq!(to_u32(-5), 0);
        assert_eq!(to_u32(1 << 40), u32::MAX);
        assert_eq!(to_u8(200), 200);
        assert_eq!(to_i16(-40_000), i16::MIN);
    }

    #[test]
    fn division_and_shifts_never_panic() {
        assert_eq!(div(7, 0), 0);
        assert_eq!(rem(7, 0), 0);
        assert_eq!(div(-7, 2), -3);
        assert_eq!(rem(-7, 2), -1);
        assert_eq!(shl(1, 200), 0);
        assert_eq!(shl(3, 4), 48);
        assert_eq!(shr(0x8000_0000, 29), 4);
        assert_eq!(shr(-1, 500), -1);
    }
}
