//! Little-endian scalar access at fixed offsets of a byte buffer.
//!
//! The TPB is little-endian; generated encoders use these instead of
//! reinterpreting memory, so the encoding is the same on every host.

macro_rules! scalar_access {
    ($($get:ident / $put:ident : $ty:ty),* $(,)?) => {$(
        #[doc = concat!("Reads a little-endian `", stringify!($ty), "` at `offset`.")]
        ///
        /// Panics when the value does not lie inside `bytes` (generated code reads fixed
        /// offsets of a 64-byte word).
        #[inline]
        pub const fn $get(bytes: &[u8], offset: usize) -> $ty {
            // One bounds check and one load, not one per byte.
            match bytes.split_at(offset).1.first_chunk() {
                Some(raw) => <$ty>::from_le_bytes(*raw),
                None => panic!("little-endian read past the end of the buffer"),
            }
        }

        #[doc = concat!("Writes a little-endian `", stringify!($ty), "` at `offset`.")]
        #[inline]
        pub fn $put(bytes: &mut [u8], offset: usize, value: $ty) {
            let raw = value.to_le_bytes();
            bytes[offset..offset + raw.len()].copy_from_slice(&raw);
        }
    )*};
}

macro_rules! array_access {
    ($($get:ident / $put:ident = $one:ident / $put_one:ident : $ty:ty),* $(,)?) => {$(
        #[doc = concat!("Reads `N` little-endian `", stringify!($ty), "`s, back to back from `offset`.")]
        #[inline]
        pub fn $get<const N: usize>(bytes: &[u8], offset: usize) -> [$ty; N] {
            const SIZE: usize = core::mem::size_of::<$ty>();
            // One bounds check for the whole array, then fixed-size reads.
            let bytes = &bytes[offset..offset + N * SIZE];
            let mut out = [0; N];
            for (slot, raw) in out.iter_mut().zip(bytes.chunks_exact(SIZE)) {
                *slot = $one(raw, 0);
            }
            out
        }

        #[doc = concat!("Writes `N` little-endian `", stringify!($ty), "`s, back to back from `offset`.")]
        #[inline]
        pub fn $put<const N: usize>(bytes: &mut [u8], offset: usize, values: &[$ty; N]) {
            for (k, v) in values.iter().enumerate() {
                $put_one(bytes, offset + k * core::mem::size_of::<$ty>(), *v);
            }
        }
    )*};
}

array_access!(
    get_u8s / put_u8s = get_u8 / put_u8: u8,
    get_i8s / put_i8s = get_i8 / put_i8: i8,
    get_u16s / put_u16s = get_u16 / put_u16: u16,
    get_i16s / put_i16s = get_i16 / put_i16: i16,
    get_u32s / put_u32s = get_u32 / put_u32: u32,
    get_i32s / put_i32s = get_i32 / put_i32: i32,
    get_u64s / put_u64s = get_u64 / put_u64: u64,
    get_i64s / put_i64s = get_i64 / put_i64: i64,
);

scalar_access!(
    get_u8 / put_u8: u8,
    get_i8 / put_i8: i8,
    get_u16 / put_u16: u16,
    get_i16 / put_i16: i16,
    get_u32 / put_u32: u32,
    get_i32 / put_i32: i32,
    get_u64 / put_u64: u64,
    get_i64 / put_i64: i64,
);

/// Reads a little-endian `f32` at `offset`, bit for bit.
#[inline]
pub const fn get_f32(bytes: &[u8], offset: usize) -> f32 {
    f32::from_bits(get_u32(bytes, offset))
}

/// Writes a little-endian `f32` at `offset`, bit for bit.
#[inline]
pub fn put_f32(bytes: &mut [u8], offset: usize, value: f32) {
    put_u32(bytes, offset, value.to_bits());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_round_trip_element_by_element() {
        let mut buf = [0u8; 16];
        put_i16s(&mut buf, 1, &[-2, 0x0102, 3]);
        assert_eq!(buf[1..7], [0xfe, 0xff, 0x02, 0x01, 0x03, 0x00]);
        assert_eq!(get_i16s::<3>(&buf, 1), [-2, 0x0102, 3]);
        put_u32s(&mut buf, 8, &[0xdead_beef, 7]);
        assert_eq!(get_u32s::<2>(&buf, 8), [0xdead_beef, 7]);
        assert_eq!(get_u8s::<2>(&buf, 8), [0xef, 0xbe]);
    }

    #[test]
    fn round_trips_at_unaligned_offsets() {
        let mut buf = [0u8; 16];
        put_u32(&mut buf, 3, 0x1234_5678);
        assert_eq!(buf[3..7], [0x78, 0x56, 0x34, 0x12]);
        assert_eq!(get_u32(&buf, 3), 0x1234_5678);
        put_i16(&mut buf, 9, -2);
        assert_eq!(get_i16(&buf, 9), -2);
        put_f32(&mut buf, 0, f32::from_bits(0x7fc0_0001));
        assert_eq!(get_f32(&buf, 0).to_bits(), 0x7fc0_0001);
    }
}

/// Reads up to 8 bytes as a little-endian unsigned integer.
#[inline]
pub fn get_uint(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .take(8)
        .enumerate()
        .fold(0u64, |acc, (k, &b)| acc | (u64::from(b) << (8 * k)))
}

/// Writes the low `bytes.len()` (at most 8) bytes of `value`, little-endian.
#[inline]
pub fn put_uint(bytes: &mut [u8], value: u64) {
    for (k, b) in bytes.iter_mut().take(8).enumerate() {
        *b = (value >> (8 * k)) as u8;
    }
}

/// Bits `first .. first + width` of `unit`.
#[inline]
pub const fn extract_bits(unit: u64, first: u32, width: u32) -> u64 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (unit >> first) & mask
}

/// `unit` with bits `first .. first + width` replaced by the low bits of `value`.
#[inline]
pub const fn insert_bits(unit: u64, first: u32, width: u32, value: u64) -> u64 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (unit & !(mask << first)) | ((value & mask) << first)
}

#[cfg(test)]
mod bit_tests {
    use super::*;

    #[test]
    fn bit_fields() {
        assert_eq!(extract_bits(0xab, 4, 4), 0xa);
        assert_eq!(insert_bits(0xab, 0, 4, 0x5), 0xa5);
        let mut b = [0u8; 3];
        put_uint(&mut b, 0x0102_0304);
        assert_eq!(b, [4, 3, 2]);
        assert_eq!(get_uint(&b), 0x0002_0304);
    }
}

/// Copies `N` bytes starting at `offset`.
#[inline]
pub fn get_bytes<const N: usize>(bytes: &[u8], offset: usize) -> [u8; N] {
    match bytes[offset..].first_chunk() {
        Some(raw) => *raw,
        None => panic!("read of {N} bytes past the end of the buffer"),
    }
}

/// Writes `value` starting at `offset`.
#[inline]
pub fn put_bytes<const N: usize>(bytes: &mut [u8], offset: usize, value: &[u8; N]) {
    bytes[offset..offset + N].copy_from_slice(value);
}
