//! Numbers on the command line: decimal or `0x` hex, everywhere.

/// Parses an unsigned number written in decimal or as `0x` hex.
pub fn parse_u64(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (t, 10),
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return Err(format!(
            "`{text}` is not a number (decimal, or hex with a 0x prefix)"
        ));
    }
    u64::from_str_radix(digits, radix).map_err(|_| format!("`{text}` does not fit in 64 bits"))
}

/// Parses a number that must fit in `T`.
pub fn parse<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    let value = parse_u64(text)?;
    T::try_from(value).map_err(|_| {
        let bits = 8 * core::mem::size_of::<T>();
        format!("{text} does not fit in {bits} bits")
    })
}

/// A `u8` (clap value parser).
pub fn u8(text: &str) -> Result<u8, String> {
    parse(text)
}

/// A `u16` (clap value parser).
pub fn u16(text: &str) -> Result<u16, String> {
    parse(text)
}

/// A `u32` (clap value parser).
pub fn u32(text: &str) -> Result<u32, String> {
    parse(text)
}

/// A `u64` (clap value parser).
pub fn u64(text: &str) -> Result<u64, String> {
    parse_u64(text)
}

/// An `f32` (clap value parser): a decimal number (`0.5`, `-1`, `1e-3`).
pub fn f32(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("`{text}` is not a finite number")),
    }
}

/// Parses a comma-separated list of 32-bit words of length `min..=N`; missing trailing words are 0.
pub fn word_list<const N: usize>(text: &str, min: usize) -> Result<[u32; N], String> {
    let items: Vec<&str> = text.split(',').collect();
    if items.len() < min || items.len() > N {
        let want = if min == N {
            format!("{N}")
        } else {
            format!("{min} to {N}")
        };
        return Err(format!(
            "`{text}` has {} comma-separated words; {want} expected",
            items.len()
        ));
    }
    let mut out = [0u32; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = parse(item)?;
    }
    Ok(out)
}

/// Exactly `N` comma-separated 32-bit words (clap value parser).
pub fn words<const N: usize>(text: &str) -> Result<[u32; N], String> {
    word_list::<N>(text, N)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_and_hex() {
        assert_eq!(parse_u64("42"), Ok(42));
        assert_eq!(parse_u64("0x2A"), Ok(42));
        assert_eq!(parse_u64("0X2a"), Ok(42));
        assert!(parse_u64("0x").is_err());
        assert!(parse_u64("-1").is_err());
        assert!(parse_u64("12a").is_err());
        assert!(parse_u64("0x1_0").is_err());
        assert_eq!(parse::<u8>("255"), Ok(255));
        assert_eq!(
            parse::<u8>("0x100"),
            Err("0x100 does not fit in 8 bits".into())
        );
        assert!(parse_u64("18446744073709551616").is_err());
    }

    #[test]
    fn word_lists() {
        assert_eq!(words::<3>("1,0x2,3"), Ok([1, 2, 3]));
        assert!(words::<3>("1,2").is_err());
        assert!(words::<3>("1,2,3,4").is_err());
        assert_eq!(word_list::<4>("7", 1), Ok([7, 0, 0, 0]));
        assert!(words::<2>("1,0x100000000").is_err());
    }
}
