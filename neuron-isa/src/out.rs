//! A buffered output sink with allocation-free number formatting, for the
//! million-word paths (decode, validate, rng).

use std::fmt;
use std::io::{self, Write};

/// Two decimal digits per value 0..100.
const DIGITS2: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Bytes kept before a flush.
const FLUSH_AT: usize = 1 << 16;
/// Room beyond [`FLUSH_AT`], so one word's output rarely grows the buffer.
const SLACK: usize = 1 << 14;

/// Buffered output over `W`.
///
/// The buffer is a fixed, zero-filled region with a separate write position, so the hot
/// appends are a bounds check and a copy (no `Vec` length bookkeeping through `reserve`).
pub struct Out<W: Write> {
    buf: Vec<u8>,
    pos: usize,
    sink: W,
}

impl<W: Write> Out<W> {
    /// An empty buffer in front of `sink`.
    pub fn new(sink: W) -> Self {
        Out {
            buf: vec![0; FLUSH_AT + SLACK],
            pos: 0,
            sink,
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, end: usize) {
        let len = end.max(2 * self.buf.len());
        self.buf.resize(len, 0);
    }

    /// The write position (for [`Out::since`]); valid until the next flush.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes appended since `mark` (a [`Out::position`] taken after the last flush).
    pub fn since(&self, mark: usize) -> &[u8] {
        &self.buf[mark.min(self.pos)..self.pos]
    }

    /// Appends bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        let end = self.pos + b.len();
        if end > self.buf.len() {
            self.grow(end);
        }
        self.buf[self.pos..end].copy_from_slice(b);
        self.pos = end;
    }

    /// Appends one byte.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        if self.pos >= self.buf.len() {
            self.grow(self.pos + 1);
        }
        self.buf[self.pos] = b;
        self.pos += 1;
    }

    /// Appends a string.
    #[inline]
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// Appends a decimal unsigned number.
    #[inline]
    pub fn dec(&mut self, mut n: u64) {
        if n < 10 {
            self.byte(b'0' + n as u8);
            return;
        }
        let mut tmp = [0u8; 20];
        let mut k = tmp.len();
        while n >= 100 {
            let r = (n % 100) as usize;
            n /= 100;
            k -= 2;
            tmp[k] = DIGITS2[2 * r];
            tmp[k + 1] = DIGITS2[2 * r + 1];
        }
        if n >= 10 {
            k -= 2;
            tmp[k] = DIGITS2[2 * n as usize];
            tmp[k + 1] = DIGITS2[2 * n as usize + 1];
        } else {
            k -= 1;
            tmp[k] = b'0' + n as u8;
        }
        self.bytes(&tmp[k..]);
    }

    /// Appends a decimal signed number.
    #[inline]
    pub fn signed(&mut self, n: i64) {
        if n < 0 {
            self.byte(b'-');
        }
        self.dec(n.unsigned_abs());
    }

    /// Appends `0x` and `n` in lower-case hex, zero-padded to at least `digits` digits.
    #[inline]
    pub fn hex(&mut self, n: u64, digits: usize) {
        self.bytes(b"0x");
        self.hex_digits(n, digits);
    }

    /// Appends `n` in lower-case hex, zero-padded to at least `digits` digits (no prefix).
    #[inline]
    pub fn hex_digits(&mut self, n: u64, digits: usize) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let used = ((64 - n.leading_zeros() as usize).div_ceil(4)).max(1);
        let width = used.max(digits.min(16));
        let mut tmp = [0u8; 16];
        for (k, slot) in tmp[..width].iter_mut().enumerate() {
            *slot = HEX[((n >> (4 * (width - 1 - k))) & 0xf) as usize];
        }
        self.bytes(&tmp[..width]);
    }

    /// Appends bytes as lower-case hex pairs.
    #[inline]
    pub fn hex_bytes(&mut self, bytes: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for &b in bytes {
            self.bytes(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]]);
        }
    }

    /// Appends a JSON string literal.
    pub fn json_str(&mut self, s: &str) {
        self.byte(b'"');
        if !s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
            self.str(s);
            self.byte(b'"');
            return;
        }
        for c in s.chars() {
            match c {
                '"' => self.bytes(b"\\\""),
                '\\' => self.bytes(b"\\\\"),
                c if (c as u32) < 0x20 => {
                    self.bytes(b"\\u");
                    self.hex_digits(c as u64, 4);
                }
                c => {
                    let mut tmp = [0u8; 4];
                    self.str(c.encode_utf8(&mut tmp));
                }
            }
        }
        self.byte(b'"');
    }

    /// Writes the buffer out when it is large.
    #[inline]
    pub fn maybe_flush(&mut self) -> io::Result<()> {
        if self.pos >= FLUSH_AT {
            self.sink.write_all(&self.buf[..self.pos])?;
            self.pos = 0;
        }
        Ok(())
    }

    /// Writes everything out.
    pub fn flush(&mut self) -> io::Result<()> {
        self.sink.write_all(&self.buf[..self.pos])?;
        self.pos = 0;
        self.sink.flush()
    }

    /// The buffered bytes, without writing them (for building fragments).
    pub fn into_buffer(mut self) -> Vec<u8> {
        self.buf.truncate(self.pos);
        self.buf
    }

    /// The sink (for tests).
    pub fn into_inner(mut self) -> io::Result<W> {
        self.flush()?;
        let Out { sink, .. } = self;
        Ok(sink)
    }
}

impl<W: Write> fmt::Write for Out<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.str(s);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    fn text(f: impl FnOnce(&mut Out<Vec<u8>>)) -> String {
        let mut out = Out::new(Vec::new());
        f(&mut out);
        String::from_utf8(out.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn numbers() {
        assert_eq!(text(|o| o.dec(0)), "0");
        assert_eq!(text(|o| o.dec(u64::MAX)), "18446744073709551615");
        assert_eq!(text(|o| o.signed(-32768)), "-32768");
        assert_eq!(text(|o| o.signed(i64::MIN)), "-9223372036854775808");
        assert_eq!(text(|o| o.hex(0xbeef, 8)), "0x0000beef");
        assert_eq!(text(|o| o.hex(0x1_2345_6789, 8)), "0x123456789");
        assert_eq!(text(|o| o.hex(0, 0)), "0x0");
        assert_eq!(text(|o| o.hex(u64::MAX, 2)), "0xffffffffffffffff");
        assert_eq!(text(|o| o.hex_bytes(&[0, 0xab, 7])), "00ab07");
        for n in [0u64, 9, 10, 99, 100, 12345, 1 << 40] {
            assert_eq!(text(|o| o.dec(n)), n.to_string());
            assert_eq!(text(|o| o.hex(n, 8)), format!("{n:#010x}"));
        }
    }

    #[test]
    fn json_strings_escape() {
        assert_eq!(text(|o| o.json_str("a\"b\\c\n")), r#""a\"b\\c\u000a""#);
        let s = text(|o| {
            o.json_str("`x` é");
            let _ = write!(o, " {}", 5);
        });
        assert_eq!(s, "\"`x` é\" 5");
    }
}
