use core::fmt;

/// Why a 64-byte word does not decode as the requested instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeErrorKind {
    /// The byte is not a member of the field's enum in this generation.
    InvalidEnumValue {
        /// Vendor name of the enum (`"NEURON_ISA_TPB_RAND_ALGORITHM"`).
        enum_name: &'static str,
    },
    /// The opcode byte names a different instruction than the one requested.
    UnexpectedOpcode {
        /// The opcode byte the instruction type requires.
        expected: u8,
    },
    /// The opcode byte is not an opcode of this generation.
    UnknownOpcode,
    /// The opcode exists but no operand struct is bound to it, so it has no typed form.
    UnmappedOpcode,
    /// A byte that no field covers (padding, unused bit-field bits) is not zero.
    NonZeroPadding,
    /// The opcode's operand struct is not compiled into this build of the crate: its Cargo
    /// feature is off.
    ShapeNotCompiled {
        /// The feature that compiles it in (`"s1_rand"`).
        feature: &'static str,
    },
    /// The input is not exactly one 64-byte word (a slice of another length, or the partial
    /// word at the end of a stream): `value` is its length in bytes, `field` is empty and
    /// `offset` is 0.
    WrongLength,
}

/// A field of a 64-byte word that does not decode: names the field, where it sits and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    /// Dotted path of the field inside the operand struct (`"src_mem_pattern.start_addr"`).
    pub field: &'static str,
    /// Byte offset of the field inside the 64-byte word.
    pub offset: usize,
    /// The raw value found there.
    pub value: u64,
    /// What is wrong with it.
    pub kind: DecodeErrorKind,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, offset, value) = (self.field, self.offset, self.value);
        match self.kind {
            DecodeErrorKind::InvalidEnumValue { enum_name } => write!(
                f,
                "field `{field}` at byte {offset}: {value:#x} is not a {enum_name} value"
            ),
            DecodeErrorKind::UnexpectedOpcode { expected } => write!(
                f,
                "field `{field}` at byte {offset}: opcode {value:#04x}, expected {expected:#04x}"
            ),
            DecodeErrorKind::UnknownOpcode => write!(
                f,
                "field `{field}` at byte {offset}: {value:#04x} is not an opcode of this generation"
            ),
            DecodeErrorKind::NonZeroPadding => write!(
                f,
                "byte {offset} (after `{field}`): {value:#04x} in padding that must be zero"
            ),
            DecodeErrorKind::ShapeNotCompiled { feature } => write!(
                f,
                "field `{field}` at byte {offset}: opcode {value:#04x} needs the crate feature `{feature}`, which this build leaves out"
            ),
            DecodeErrorKind::UnmappedOpcode => write!(
                f,
                "field `{field}` at byte {offset}: opcode {value:#04x} has no operand struct in instruction_mapping.json"
            ),
            DecodeErrorKind::WrongLength => write!(
                f,
                "{value} bytes where an instruction word is {} bytes",
                crate::INST_NBYTES
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

impl DecodeError {
    /// The error for an input of `len` bytes that should be one instruction word.
    pub const fn wrong_length(len: usize) -> Self {
        DecodeError {
            field: "",
            offset: 0,
            value: len as u64,
            kind: DecodeErrorKind::WrongLength,
        }
    }
}

/// A byte that is not a member of a C enum (the error of the generated `TryFrom<u8>` impls).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvalidEnumValue {
    /// Vendor name of the enum (`"NEURON_ISA_TPB_DTYPE"`).
    pub enum_name: &'static str,
    /// The rejected value.
    pub value: u64,
}

impl InvalidEnumValue {
    /// The decode error for this value found in `field` at byte `offset`.
    pub const fn at(self, field: &'static str, offset: usize) -> DecodeError {
        DecodeError {
            field,
            offset,
            value: self.value,
            kind: DecodeErrorKind::InvalidEnumValue {
                enum_name: self.enum_name,
            },
        }
    }
}

impl fmt::Display for InvalidEnumValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x} is not a {} value", self.value, self.enum_name)
    }
}

impl core::error::Error for InvalidEnumValue {}
