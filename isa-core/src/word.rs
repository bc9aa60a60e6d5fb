//! Instruction words in callers' buffers: one word from a slice, one word into a slice, and a
//! byte stream split into words with their byte offsets.
//!
//! The generated crates build their `encode_into`, `from_slice`/`decode_slice` and
//! `iter_words` on these, so every generation (and `neuron-isa`) splits streams the same way.

use crate::{DecodeError, INST_NBYTES};
use core::fmt;
use core::iter::FusedIterator;

/// An output buffer too short for an instruction word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeError {
    /// Bytes an encoding writes (always [`INST_NBYTES`]).
    pub needed: usize,
    /// Length of the buffer the caller passed.
    pub available: usize,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output buffer of {} bytes is too short for a {}-byte instruction word",
            self.available, self.needed
        )
    }
}

impl core::error::Error for EncodeError {}

/// `bytes` as one instruction word; any other length is a [`DecodeErrorKind::WrongLength`]
/// error naming it.
///
/// [`DecodeErrorKind::WrongLength`]: crate::DecodeErrorKind::WrongLength
#[inline]
pub fn word(bytes: &[u8]) -> Result<&[u8; INST_NBYTES], DecodeError> {
    bytes
        .try_into()
        .map_err(|_| DecodeError::wrong_length(bytes.len()))
}

/// Writes `word` into the first [`INST_NBYTES`] bytes of `out` (the rest is left as it is);
/// a shorter `out` is an error naming both sizes, and nothing is written.
#[inline]
pub fn write_word(out: &mut [u8], word: &[u8; INST_NBYTES]) -> Result<(), EncodeError> {
    match out.get_mut(..INST_NBYTES) {
        Some(dst) => {
            dst.copy_from_slice(word);
            Ok(())
        }
        None => Err(EncodeError {
            needed: INST_NBYTES,
            available: out.len(),
        }),
    }
}

/// A byte stream split into instruction words: yields `(byte offset, word)` for every whole
/// word, then, if the stream ends inside a word, one `(offset, Err(..))` whose error is a
/// [`DecodeErrorKind::WrongLength`] naming the partial word's length; then it ends.
///
/// [`DecodeErrorKind::WrongLength`]: crate::DecodeErrorKind::WrongLength
#[derive(Clone, Debug)]
pub struct Words<'a> {
    rest: &'a [u8],
    offset: usize,
}

/// Splits `bytes` into instruction words (see [`Words`]).
///
/// ```
/// let stream = [0u8; 64 * 2 + 3];
/// let offsets: Vec<_> = isa_core::words(&stream).map(|(at, w)| (at, w.map(|w| w[0]))).collect();
/// assert_eq!(offsets[..2], [(0, Ok(0)), (64, Ok(0))]);
/// assert_eq!(offsets[2], (128, Err(isa_core::DecodeError::wrong_length(3))));
/// assert_eq!(offsets.len(), 3);
/// ```
#[inline]
pub fn words(bytes: &[u8]) -> Words<'_> {
    Words {
        rest: bytes,
        offset: 0,
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = (usize, Result<&'a [u8; INST_NBYTES], DecodeError>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let at = self.offset;
        match self.rest.split_first_chunk::<INST_NBYTES>() {
            Some((word, rest)) => {
                self.rest = rest;
                self.offset += INST_NBYTES;
                Some((at, Ok(word)))
            }
            None if self.rest.is_empty() => None,
            None => {
                let len = self.rest.len();
                self.rest = &[];
                self.offset += len;
                Some((at, Err(DecodeError::wrong_length(len))))
            }
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.len().div_ceil(INST_NBYTES);
        (n, Some(n))
    }
}

impl ExactSizeIterator for Words<'_> {}
impl FusedIterator for Words<'_> {}

/// A byte stream decoded word by word: yields `(byte offset, decoded word)`; a word that
/// does not decode is an `Err` item and the stream goes on; a trailing partial word is a
/// final [`DecodeErrorKind::WrongLength`] item naming its length.
///
/// [`DecodeErrorKind::WrongLength`]: crate::DecodeErrorKind::WrongLength
#[derive(Clone)]
pub struct DecodeWords<'a, T> {
    words: Words<'a>,
    decode: fn(&[u8; INST_NBYTES]) -> Result<T, DecodeError>,
}

impl<'a, T> DecodeWords<'a, T> {
    /// Decodes the words of `bytes` with `decode` (a generation's `Instruction::decode`).
    #[inline]
    pub fn new(bytes: &'a [u8], decode: fn(&[u8; INST_NBYTES]) -> Result<T, DecodeError>) -> Self {
        DecodeWords {
            words: words(bytes),
            decode,
        }
    }
}

impl<T> fmt::Debug for DecodeWords<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeWords")
            .field("words", &self.words)
            .finish_non_exhaustive()
    }
}

impl<T> Iterator for DecodeWords<'_, T> {
    type Item = (usize, Result<T, DecodeError>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let (at, word) = self.words.next()?;
        Some((at, word.and_then(self.decode)))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.words.size_hint()
    }
}

impl<T> ExactSizeIterator for DecodeWords<'_, T> {}
impl<T> FusedIterator for DecodeWords<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DecodeErrorKind;
    use std::string::ToString;
    use std::vec::Vec;

    fn first_byte(w: &[u8; INST_NBYTES]) -> Result<u8, DecodeError> {
        match w[0] {
            0xff => Err(DecodeError {
                field: "opcode",
                offset: 0,
                value: 0xff,
                kind: DecodeErrorKind::UnknownOpcode,
            }),
            b => Ok(b),
        }
    }

    #[test]
    fn words_carry_offsets_and_the_partial_tail() {
        let mut stream = [0u8; 3 * INST_NBYTES + 5];
        for (k, b) in stream.iter_mut().enumerate() {
            *b = (k / INST_NBYTES) as u8;
        }
        let it = words(&stream);
        assert_eq!(it.len(), 4);
        let items: Vec<_> = it.map(|(at, w)| (at, w.map(|w| w[0]))).collect();
        assert_eq!(
            items,
            [
                (0, Ok(0)),
                (64, Ok(1)),
                (128, Ok(2)),
                (192, Err(DecodeError::wrong_length(5)))
            ]
        );
        let mut it = words(&stream[..2 * INST_NBYTES]);
        assert_eq!(it.len(), 2);
        assert_eq!(it.by_ref().count(), 2);
        assert_eq!(it.next(), None, "fused");
        assert_eq!(words(&[]).next(), None);
        assert_eq!(
            words(&[1, 2]).collect::<Vec<_>>(),
            [(0, Err(DecodeError::wrong_length(2)))]
        );
    }

    #[test]
    fn decoded_words_keep_going_after_a_bad_word() {
        let mut stream = [0u8; 3 * INST_NBYTES + 1];
        stream[0] = 7;
        stream[INST_NBYTES] = 0xff;
        stream[2 * INST_NBYTES] = 9;
        let items: Vec<_> = DecodeWords::new(&stream, first_byte).collect();
        assert_eq!(items.len(), 4);
        assert_eq!(items[0], (0, Ok(7)));
        assert_eq!(items[1].0, 64);
        assert_eq!(items[1].1.unwrap_err().kind, DecodeErrorKind::UnknownOpcode);
        assert_eq!(items[2], (128, Ok(9)));
        assert_eq!(items[3], (192, Err(DecodeError::wrong_length(1))));
    }

    #[test]
    fn one_word_in_and_out_of_slices() {
        let w = [5u8; INST_NBYTES];
        assert_eq!(word(&w[..]), Ok(&w));
        assert_eq!(word(&w[..63]), Err(DecodeError::wrong_length(63)));
        let long = [0u8; 65];
        let e = word(&long).unwrap_err();
        assert_eq!((e.kind, e.value), (DecodeErrorKind::WrongLength, 65));
        assert_eq!(
            e.to_string(),
            "65 bytes where an instruction word is 64 bytes"
        );

        let mut out = [1u8; 70];
        write_word(&mut out, &w).unwrap();
        assert_eq!(out[..64], w);
        assert_eq!(out[64..], [1; 6], "bytes past the word are left alone");
        let mut short = [0u8; 10];
        let e = write_word(&mut short, &w).unwrap_err();
        assert_eq!(
            e,
            EncodeError {
                needed: 64,
                available: 10
            }
        );
        assert_eq!(short, [0; 10], "nothing written");
        assert_eq!(
            e.to_string(),
            "output buffer of 10 bytes is too short for a 64-byte instruction word"
        );
    }
}
