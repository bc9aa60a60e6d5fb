//! Static descriptions of instruction fields, for tools that show or edit words
//! without knowing the instruction type at compile time.

/// How a field's bytes are read.
#[derive(Clone, Copy, Debug)]
pub enum FieldKind {
    /// Unsigned little-endian integer.
    Unsigned,
    /// Signed (two's complement) little-endian integer.
    Signed,
    /// IEEE-754 single, little-endian.
    Float,
    /// A C enum; `member` names a value (vendor member name without prefix) or says it is none.
    Enum {
        /// Vendor name of the enum.
        name: &'static str,
        /// The member name of a value, `None` for a value outside the enum.
        member: fn(u64) -> Option<&'static str>,
        /// The value of a member name, `None` for a name outside the enum
        /// ([`crate::asm::member_value`]).
        value_of: fn(&str) -> Option<u64>,
        /// The name of the `k`-th member in header order, `None` past the last
        /// ([`crate::asm::member_at`]).
        member_at: fn(usize) -> Option<&'static str>,
    },
    /// A union, read as an unsigned integer when 8 bytes or fewer (else as its raw bytes).
    Union {
        /// Vendor name of the union.
        name: &'static str,
        /// How its value is written: an address or other bits in hexadecimal, a union that
        /// holds an fp32 immediate as the float.
        shown: crate::Shown,
    },
    /// A byte array (reserved space and the like), shown as bytes.
    Bytes,
}

/// One leaf field of an operand struct: where it sits and how to read it.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// Dotted path (`src_mem_pattern.num_elem[0]`).
    pub path: &'static str,
    /// Byte offset in the 64-byte word.
    pub offset: usize,
    /// Size in bytes (of the storage unit, for a bit-field).
    pub size: usize,
    /// For a bit-field: (first bit, width) inside the little-endian unit.
    pub bits: Option<(u8, u8)>,
    /// How to read it.
    pub kind: FieldKind,
}

impl FieldInfo {
    /// The field at `path`: `size` bytes at byte `offset`, read as `kind` (not a bit-field).
    pub const fn at(path: &'static str, offset: usize, size: usize, kind: FieldKind) -> Self {
        FieldInfo {
            path,
            offset,
            size,
            bits: None,
            kind,
        }
    }

    /// The same field as bits `first..first + width` of its little-endian unit.
    pub const fn bits(mut self, first: u8, width: u8) -> Self {
        self.bits = Some((first, width));
        self
    }

    /// The field's bytes in `word`.
    pub fn bytes<'w>(&self, word: &'w [u8; crate::INST_NBYTES]) -> &'w [u8] {
        let end = (self.offset + self.size).min(word.len());
        &word[self.offset.min(end)..end]
    }

    /// The field's raw value in `word` (zero-extended; bit-fields extracted).
    /// Fields wider than 8 bytes yield their first 8 bytes.
    pub fn raw(&self, word: &[u8; crate::INST_NBYTES]) -> u64 {
        let end = (self.offset + self.size.min(8)).min(word.len());
        let start = self.offset.min(end);
        let unit = crate::le::get_uint(&word[start..end]);
        match self.bits {
            Some((first, width)) => {
                crate::le::extract_bits(unit, u32::from(first), u32::from(width))
            }
            None => unit,
        }
    }

    /// The value as a signed number for [`FieldKind::Signed`] fields (sign-extended), else as [`FieldInfo::raw`].
    pub fn signed(&self, word: &[u8; crate::INST_NBYTES]) -> i64 {
        let raw = self.raw(word);
        match self.kind {
            FieldKind::Signed => {
                let bits = self
                    .bits
                    .map_or(self.size as u32 * 8, |(_, w)| u32::from(w))
                    .min(64);
                let shift = 64 - bits;
                ((raw << shift) as i64) >> shift
            }
            _ => raw as i64,
        }
    }
}
