//! The C type vocabulary every stage speaks: scalars, spelled types and record kinds.
//!
//! The read stage produces these from bindgen's output; the model keeps them in its own types and
//! the emitters and the report read them through the model. This module imports nothing, so it
//! closes no circle between the stages.

/// A scalar C type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `bool` / `_Bool`.
    Bool,
    /// `uint8_t`, `unsigned char`.
    U8,
    /// `int8_t`, `char`, `signed char`.
    I8,
    /// `uint16_t`.
    U16,
    /// `int16_t`.
    I16,
    /// `uint32_t`.
    U32,
    /// `int32_t`.
    I32,
    /// `uint64_t`.
    U64,
    /// `int64_t`.
    I64,
    /// `float`.
    F32,
    /// `double`.
    F64,
}

impl Prim {
    /// Size (and alignment) in bytes.
    pub fn size(self) -> u64 {
        match self {
            Prim::Bool | Prim::U8 | Prim::I8 => 1,
            Prim::U16 | Prim::I16 => 2,
            Prim::U32 | Prim::I32 | Prim::F32 => 4,
            Prim::U64 | Prim::I64 | Prim::F64 => 8,
        }
    }

    /// Rust spelling.
    pub fn rust(self) -> &'static str {
        match self {
            Prim::Bool => "bool",
            Prim::U8 => "u8",
            Prim::I8 => "i8",
            Prim::U16 => "u16",
            Prim::I16 => "i16",
            Prim::U32 => "u32",
            Prim::I32 => "i32",
            Prim::U64 => "u64",
            Prim::I64 => "i64",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
        }
    }

    /// True for the integer types.
    pub fn is_int(self) -> bool {
        !matches!(self, Prim::Bool | Prim::F32 | Prim::F64)
    }

    /// True for signed integers.
    pub fn is_signed(self) -> bool {
        matches!(self, Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64)
    }

    /// True when the type holds the integer `v` (`bool` holds 0 and 1; a float holds no
    /// integer exactly enough to be pinned or written as one).
    pub fn holds(self, v: i128) -> bool {
        let (lo, hi): (i128, i128) = match self {
            Prim::Bool => (0, 1),
            Prim::U8 => (0, u8::MAX.into()),
            Prim::U16 => (0, u16::MAX.into()),
            Prim::U32 => (0, u32::MAX.into()),
            Prim::U64 => (0, u64::MAX.into()),
            Prim::I8 => (i8::MIN.into(), i8::MAX.into()),
            Prim::I16 => (i16::MIN.into(), i16::MAX.into()),
            Prim::I32 => (i32::MIN.into(), i32::MAX.into()),
            Prim::I64 => (i64::MIN.into(), i64::MAX.into()),
            Prim::F32 | Prim::F64 => return false,
        };
        (lo..=hi).contains(&v)
    }
}

/// A C type as bindgen spelled it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    /// A scalar.
    Prim(Prim),
    /// A typedef, struct or union, by its C name.
    Named(String),
    /// A C enum (bindgen's `NAME::Type`), by its C name.
    Enum(String),
    /// `T[n]`.
    Array(Box<CType>, u64),
    /// bindgen's storage unit for a run of bit-fields, `n` bytes.
    BitfieldUnit(u64),
    /// Anything else (pointers, function types): kept as text for the report.
    Unsupported(String),
}

/// A struct or a union.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// `struct`.
    Struct,
    /// `union`.
    Union,
}

#[cfg(test)]
mod tests {
    use super::Prim;

    #[test]
    fn holds_exactly_the_values_of_its_width() {
        for (p, lo, hi) in [
            (Prim::Bool, 0, 1),
            (Prim::U8, 0, 255),
            (Prim::I8, -128, 127),
            (Prim::U16, 0, 0xffff),
            (Prim::I32, i128::from(i32::MIN), i128::from(i32::MAX)),
            (Prim::U64, 0, i128::from(u64::MAX)),
            (Prim::I64, i128::from(i64::MIN), i128::from(i64::MAX)),
        ] {
            assert!(p.holds(lo) && p.holds(hi), "{p:?}");
            assert!(!p.holds(lo - 1) && !p.holds(hi + 1), "{p:?}");
        }
        assert!(!Prim::F32.holds(0) && !Prim::F64.holds(1));
    }
}
