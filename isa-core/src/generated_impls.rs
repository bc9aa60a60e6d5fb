//! Macros the generated crates invoke once per instance, so that what every typed instruction or
//! raw struct has in common is written here once instead of once per item (a vendor tree has
//! hundreds) and once per generated crate.

/// Everything a typed instruction has besides its type and documentation, written once:
/// `instruction_impls!(Type(Fields), Opcode::Variant = value, "NAME", FIELDS_TABLE,
/// "discriminator.path", decoder[, padding_check])` gives the constants, the byte and slice
/// codecs, `Display` and `FromStr`, `TryFrom<&[u8]>`, `Deref`/`DerefMut` to the operand fields,
/// `isa_core::Instruction64`, and `From` into `Instruction` (the opcode enum and `Instruction` are the invoking
/// crate's, in scope where it is invoked). `decoder` is `checked` when the operand struct has enum
/// fields (it has `check_at` and `decode_checked_at`) and `decode_at` when its decoding cannot
/// fail; `padding_check` is named when the struct has padding bytes, which must be zero.
#[macro_export]
macro_rules! instruction_impls {
    (@check checked, $fields:ident, $b:ident) => {
        $crate::or_return!($fields::check_at($b, 0))
    };
    (@check decode_at, $fields:ident, $b:ident) => {};
    (@build checked, $fields:ident, $b:ident) => {
        $fields::decode_checked_at($b, 0)
    };
    (@build decode_at, $fields:ident, $b:ident) => {
        $fields::decode_at($b, 0)
    };
    (
        $inst:ident($fields:ident), $opcodes:ident::$variant:ident = $opcode:literal, $name:literal, $table:ident,
        $discriminator:literal, $decoder:ident $(, $padding:ident)?
    ) => {
        impl $inst {
            /// The opcode this type encodes.
            pub const OPCODE: $opcodes = $opcodes::$variant;
            /// Every leaf field of the 64-byte word.
            pub const FIELDS: &'static [$crate::FieldInfo] = $table;
            /// The instruction with these operand fields, as they are (the typed constructors of
            /// the `construct` module build legal ones).
            pub const fn from_fields(fields: $fields) -> Self {
                Self(fields)
            }
            /// The 64 bytes the hardware reads.
            pub fn to_bytes(&self) -> [u8; 64] {
                let mut b = [0u8; 64];
                self.0.encode_at(&mut b, 0);
                b[0] = $opcode;
                b
            }
            /// Decodes a word of this opcode; the error names the field, its byte offset and the value.
            #[inline]
            pub fn from_bytes(b: &[u8; 64]) -> Result<Self, $crate::DecodeError> {
                $crate::or_return!(Self::check_bytes(b));
                Ok(Self::from_checked_bytes(b))
            }
            /// The error [`Self::from_bytes`] gives for `b`, if any, without building the instruction.
            #[inline]
            pub fn check_bytes(b: &[u8; 64]) -> Result<(), $crate::DecodeError> {
                if b[0] != $opcode {
                    return Err($crate::DecodeError {
                        field: $discriminator,
                        offset: 0,
                        value: b[0] as u64,
                        kind: $crate::DecodeErrorKind::UnexpectedOpcode { expected: $opcode },
                    });
                }
                $($crate::or_return!($fields::$padding(b));)?
                $crate::instruction_impls!(@check $decoder, $fields, b);
                Ok(())
            }
            /// Decodes a word [`Self::check_bytes`] accepted. Built after every check, in one
            /// piece, the instruction goes straight to where the caller keeps it; built between the
            /// checks, it was assembled in a temporary and copied out of each `Result`.
            #[inline]
            pub(crate) fn from_checked_bytes(b: &[u8; 64]) -> Self {
                Self($crate::instruction_impls!(@build $decoder, $fields, b))
            }
            /// Writes the 64 bytes into the start of `out` (the rest is left as it is); a shorter
            /// `out` is an error naming both sizes, and nothing is written.
            pub fn encode_into(&self, out: &mut [u8]) -> Result<(), $crate::EncodeError> {
                $crate::write_word(out, &self.to_bytes())
            }
            /// Decodes `bytes`, which must be exactly one 64-byte word: another length is a
            /// `WrongLength` error naming it; otherwise as [`Self::from_bytes`].
            pub fn from_slice(bytes: &[u8]) -> Result<Self, $crate::DecodeError> {
                Self::from_bytes($crate::or_return!($crate::word(bytes)))
            }
        }
        impl TryFrom<&[u8]> for $inst {
            type Error = $crate::DecodeError;
            fn try_from(bytes: &[u8]) -> Result<Self, Self::Error> {
                Self::from_slice(bytes)
            }
        }
        impl core::fmt::Display for $inst {
            /// The one-line disassembly ([`isa_core::disasm`]).
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                $crate::disasm::instruction(f, $name, &self.0)
            }
        }
        impl core::str::FromStr for $inst {
            type Err = $crate::asm::AsmError;
            /// Reads the one-line disassembly back ([`isa_core::asm`]); another opcode's line is an error.
            fn from_str(line: &str) -> Result<Self, $crate::asm::AsmError> {
                $crate::asm::parse_as(line, $table)
            }
        }
        impl core::ops::Deref for $inst {
            type Target = $fields;
            fn deref(&self) -> &$fields {
                &self.0
            }
        }
        impl core::ops::DerefMut for $inst {
            fn deref_mut(&mut self) -> &mut $fields {
                &mut self.0
            }
        }
        impl $crate::Instruction64 for $inst {
            const OPCODE: u8 = $opcode;
            const NAME: &'static str = $name;
            fn to_bytes(&self) -> [u8; 64] {
                $inst::to_bytes(self)
            }
            fn from_bytes(bytes: &[u8; 64]) -> Result<Self, $crate::DecodeError> {
                $inst::from_bytes(bytes)
            }
        }
        impl From<$inst> for Instruction {
            fn from(inst: $inst) -> Self {
                Instruction::$inst(inst)
            }
        }
    };
}

/// `$result` if it is an error, returned from the enclosing function; otherwise its value.
///
/// `?` without the `From` conversion, which the generated decoders never need: each `?` is a
/// `Try::branch` and a `FromResidual` call for the compiler to check and lower, and a vendor
/// tree's decoders have thousands of them (without them, each added operand struct costs a debug
/// build less). The optimised code is the same.
///
/// ```
/// fn first_byte(bytes: &[u8]) -> Result<u8, isa_core::DecodeError> {
///     let word = isa_core::or_return!(isa_core::word(bytes));
///     Ok(word[0])
/// }
/// assert_eq!(first_byte(&[7; 64]), Ok(7));
/// assert_eq!(first_byte(&[7; 3]).unwrap_err().kind, isa_core::DecodeErrorKind::WrongLength);
/// ```
#[macro_export]
macro_rules! or_return {
    ($result:expr) => {
        match $result {
            Ok(value) => value,
            Err(error) => return Err(error),
        }
    };
}

/// Returns from the enclosing decoder the `DecodeError` of an enum field holding no member of
/// its enum: `check_enum!(Dtype, b[at + 15], "in_dtype", 15)` checks the value `b[at + 15]`
/// of field `in_dtype`, at byte 15 of the word, with `Dtype::decode_field`. One line per field
/// in the generated `check_at` decoders.
#[macro_export]
macro_rules! check_enum {
    ($enum:ident, $raw:expr, $path:literal, $offset:literal) => {
        $crate::or_return!($enum::decode_field($raw, $path, $offset));
    };
}

/// `SIZE`, `from_bytes`, `to_bytes` and `Default` (all-zero bytes) of a raw struct, over its
/// `read_at` and `write_at`.
#[macro_export]
macro_rules! raw_struct_codec {
    ($name:ident, $size:literal) => {
        impl $name {
            /// Size in bytes.
            pub const SIZE: usize = $size;
            /// Decodes from little-endian bytes.
            pub fn from_bytes(bytes: &[u8; $size]) -> Self {
                Self::read_at(bytes, 0)
            }
            /// Encodes as little-endian bytes.
            pub fn to_bytes(&self) -> [u8; $size] {
                let mut out = [0u8; $size];
                self.write_at(&mut out, 0);
                out
            }
        }
        impl Default for $name {
            fn default() -> Self {
                Self::from_bytes(&[0u8; $size])
            }
        }
    };
}
