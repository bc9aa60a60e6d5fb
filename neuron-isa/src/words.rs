//! Where instruction words come from: hex arguments, or a raw stream file of
//! 64-byte words read in large blocks (no allocation per word), split into words by
//! `isa_core::words` (the splitter behind every generated crate's `iter_words`).

use crate::fail::Failure;
use crate::stdio;
use isa_core::INST_NBYTES;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Words read per block.
const BLOCK_WORDS: usize = 2048;

/// The words a command reads.
#[derive(Clone, Debug)]
pub enum Input {
    /// Words given as hex arguments (already parsed).
    Hex(Vec<[u8; INST_NBYTES]>),
    /// A raw stream file (`-` for standard input).
    File(PathBuf),
}

impl Input {
    /// From the command line: `HEX...` or `--file F` (clap makes them exclusive and one required).
    pub fn from_args(hex: &[String], file: Option<&Path>) -> Result<Input, Failure> {
        match file {
            Some(path) => Ok(Input::File(path.to_path_buf())),
            None => hex
                .iter()
                .enumerate()
                .map(|(k, text)| {
                    parse_hex_word(text).map_err(|e| Failure::usage(format!("HEX word {k}: {e}")))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Input::Hex),
        }
    }

    /// Calls `each(index, word)` for every word in order; returns the number of words.
    pub fn for_each(
        &self,
        mut each: impl FnMut(u64, &[u8; INST_NBYTES]) -> Result<(), Failure>,
    ) -> Result<u64, Failure> {
        match self {
            Input::Hex(words) => {
                for (k, w) in words.iter().enumerate() {
                    each(k as u64, w)?;
                }
                Ok(words.len() as u64)
            }
            Input::File(path) => {
                let name = path.display();
                let open = |e: io::Error| Failure::usage(format!("{name}: {e}"));
                if path.as_os_str() == "-" {
                    let read = |e: io::Error| Failure::usage(format!("{}: {e}", stdio::STDIN));
                    stream(&mut stdio::stdin().map_err(read)?, stdio::STDIN, each)
                } else {
                    let mut file = File::open(path).map_err(open)?;
                    let meta = file.metadata().map_err(open)?;
                    if meta.is_dir() {
                        return Err(Failure::usage(format!("{name}: is a directory")));
                    }
                    if meta.is_file() {
                        // Refuse a partial trailing word before printing anything.
                        let len = meta.len();
                        if len % INST_NBYTES as u64 != 0 {
                            return Err(partial(&name.to_string(), len));
                        }
                    }
                    stream(&mut file, &name.to_string(), each)
                }
            }
        }
    }
}

fn partial(name: &str, len: u64) -> Failure {
    let whole = len - len % INST_NBYTES as u64;
    Failure::usage(format!(
        "{name}: partial word at byte offset {whole} ({} of {INST_NBYTES} bytes; the file holds {} whole words)",
        len - whole,
        whole / INST_NBYTES as u64
    ))
}

fn stream(
    reader: &mut impl Read,
    name: &str,
    mut each: impl FnMut(u64, &[u8; INST_NBYTES]) -> Result<(), Failure>,
) -> Result<u64, Failure> {
    let mut block = vec![0u8; BLOCK_WORDS * INST_NBYTES];
    let mut index = 0u64;
    loop {
        // Fill the block (a pipe delivers short reads).
        let mut filled = 0;
        while filled < block.len() {
            match reader.read(&mut block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Failure::usage(format!("{name}: {e}"))),
            }
        }
        // Split as every generated crate's `iter_words` does: whole words, then a partial one.
        for (_, word) in isa_core::words(&block[..filled]) {
            match word {
                Ok(word) => each(index, word)?,
                Err(e) => return Err(partial(name, index * INST_NBYTES as u64 + e.value)),
            }
            index += 1;
        }
        if filled < block.len() {
            return Ok(index);
        }
    }
}

/// Parses 128 hex digits (an optional `0x` prefix; `_` and `:` separators ignored) into a word.
pub fn parse_hex_word(text: &str) -> Result<[u8; INST_NBYTES], String> {
    let t = text.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let mut digits = [0u8; 2 * INST_NBYTES];
    let mut n = 0usize;
    for c in t.chars() {
        if c == '_' || c == ':' {
            continue;
        }
        let d = c
            .to_digit(16)
            .ok_or_else(|| format!("`{c}` is not a hex digit"))?;
        if n < digits.len() {
            digits[n] = d as u8;
        }
        n += 1;
    }
    if n != digits.len() {
        return Err(format!(
            "{n} hex digits; a word is {} ({INST_NBYTES} bytes)",
            digits.len()
        ));
    }
    let mut word = [0u8; INST_NBYTES];
    for (k, b) in word.iter_mut().enumerate() {
        *b = digits[2 * k] << 4 | digits[2 * k + 1];
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_words() {
        let text = format!("78{}", "0".repeat(126));
        let w = parse_hex_word(&text).unwrap();
        assert_eq!(w[0], 0x78);
        assert!(w[1..].iter().all(|&b| b == 0));
        assert_eq!(parse_hex_word(&format!("0x{text}")).unwrap(), w);
        assert!(parse_hex_word(&text[2..])
            .unwrap_err()
            .contains("126 hex digits"));
        assert!(parse_hex_word(&format!("{text}0"))
            .unwrap_err()
            .contains("129 hex digits"));
        assert!(parse_hex_word(&format!("g{}", &text[1..])).is_err());
    }

    #[test]
    fn streams_in_blocks_and_names_the_partial_word() {
        let words = BLOCK_WORDS + 3;
        let mut data: Vec<u8> = (0..words * INST_NBYTES)
            .map(|k| (k / INST_NBYTES) as u8)
            .collect();
        let mut seen = Vec::new();
        let n = stream(&mut data.as_slice(), "x", |k, w| {
            seen.push((k, w[0]));
            Ok(())
        })
        .unwrap();
        assert_eq!(n, words as u64);
        assert!(seen.iter().all(|&(k, b)| b == k as u8));
        data.extend_from_slice(&[1, 2, 3]);
        let err = stream(&mut data.as_slice(), "x", |_, _| Ok(())).unwrap_err();
        let offset = words * INST_NBYTES;
        assert_eq!(
            err,
            Failure::usage(format!(
                "x: partial word at byte offset {offset} (3 of 64 bytes; the file holds {words} whole words)"
            ))
        );
    }
}
