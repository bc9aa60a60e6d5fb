use core::fmt;

/// Maintenance flag of an opcode, read from the trailing comment of its enumerator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpcodeStatus {
    /// `// Y`: tested, maintained, not deprecated.
    Maintained,
    /// `// n, <reason>`: present in the enum but not maintained.
    Dormant {
        /// The reason the header gives (empty when it gives none).
        reason: &'static str,
    },
    /// No flag in the header.
    Unflagged,
}

impl fmt::Display for OpcodeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpcodeStatus::Maintained => f.write_str("maintained"),
            OpcodeStatus::Dormant { reason: "" } => f.write_str("dormant"),
            OpcodeStatus::Dormant { reason } => write!(f, "dormant ({reason})"),
            OpcodeStatus::Unflagged => f.write_str("unflagged"),
        }
    }
}
