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
