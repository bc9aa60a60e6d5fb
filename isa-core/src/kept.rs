//! Text an error value keeps without allocating (the crate is `no_std` without `alloc`).

/// Up to [`KeptText::CAPACITY`] bytes of a text, a longer one cut at a character boundary
/// (and remembered as cut).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct KeptText {
    bytes: [u8; KeptText::CAPACITY],
    len: u8,
    cut: bool,
}

impl KeptText {
    /// Most bytes kept.
    pub(crate) const CAPACITY: usize = 40;

    /// `text`, cut to [`KeptText::CAPACITY`] bytes at a character boundary.
    pub(crate) fn new(text: &str) -> KeptText {
        let mut end = text.len().min(Self::CAPACITY);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; Self::CAPACITY];
        bytes[..end].copy_from_slice(&text.as_bytes()[..end]);
        KeptText {
            bytes,
            len: end as u8,
            cut: end < text.len(),
        }
    }

    /// The text as kept (cut at a character boundary, so always UTF-8).
    pub(crate) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }

    /// Whether the text was longer than what is kept.
    pub(crate) fn is_cut(&self) -> bool {
        self.cut
    }
}
