//! The checkpoint file: a versioned JSON record of the raw words RAND_GET_STATE wrote (feature `std`).
//!
//! ```json
//! {
//!   "format": "neuron-rng-checkpoint",
//!   "version": 1,
//!   "generation": "MARIANA",
//!   "engine": "POOL",
//!   "generator": "RNG_XORWOW",
//!   "algorithm": "XORWOW",
//!   "update": null,
//!   "channels": 2,
//!   "words_per_lane": 6,
//!   "lanes": [
//!     [123456789, 362436069, 521288629, 88675123, 5783321, 51492],
//!     [1, 2, 3, 4, 5, 6]
//!   ]
//! }
//! ```
//!
//! `lanes[p]` is partition `p`'s record in checkpoint order (decimal u32).
//! `update` is `null` for a saved state (restored with SRC_TENSOR) or names
//! the RAND_SET_STATE arm to restore with (`SRC_TENSOR`, or `IMM_SINGLE`,
//! whose lanes must then all be equal: one record broadcast). [`Checkpoint::to_json`]
//! writes exactly this layout (two-space indent, one lane a line, final
//! newline), so a file written by it reads back and re-writes byte for byte.
//!
//! Input is bounded before it is parsed ([`max_json_bytes`]): no legal checkpoint of any
//! generation is larger, and parsing a larger text would cost memory in proportion to it
//! (about six times its size).

use crate::bank::{BankShape, LANES};
use crate::engine::{CheckpointError, EngineRng, StateAccess, StateSource};
use crate::generation::*;
use serde::Deserialize;
use std::fmt::{self, Write as _};
use std::io::Read;
use std::string::{String, ToString};
use std::sync::OnceLock;
use std::vec;
use std::vec::Vec;

/// The `format` tag.
pub const FORMAT: &str = "neuron-rng-checkpoint";
/// The format version this crate reads and writes.
pub const VERSION: u32 = 1;

/// The widest lane record of any generation: every arm's width must be a bank shape's
/// (`engine::check_generation` refuses a generation otherwise), so no lane is wider than the
/// widest shape.
fn max_lane_words() -> u8 {
    let algorithms = [
        Algorithm::Lfsr,
        Algorithm::Pcg32,
        Algorithm::Philox,
        Algorithm::Xorwow,
    ];
    (1..=u8::MAX)
        .filter(|&w| algorithms.iter().any(|&a| BankShape::for_arm(a, w).is_ok()))
        .max()
        .unwrap_or(0)
}

/// The member of `all` with the longest vendor name (`fallback` for an empty list).
fn longest<T: Copy>(all: &[T], name: fn(T) -> &'static str, fallback: T) -> T {
    all.iter()
        .copied()
        .max_by_key(|&t| name(t).len())
        .unwrap_or(fallback)
}

/// The largest checkpoint text [`Checkpoint::from_json`] parses, in bytes.
///
/// Derived from the data, not fixed: twice the length of [`Checkpoint::to_json`] of a
/// checkpoint no legal one can exceed, namely [`LANES`] lanes of the widest lane record any
/// generation can have (the widest bank shape), every word `u32::MAX` (ten digits), and the
/// longest engine, generator, algorithm and update names, with an empty generation name. The
/// factor 2 is the room for other layouts of the same JSON (one number a line, indented, as
/// `jq .` and serde_json's pretty printer write it, takes 1.5 times as much) and for the
/// generation's name, which rng-core does not know. A larger text is
/// [`FileError::TooLarge`], refused before it is parsed.
pub fn max_json_bytes() -> usize {
    static BOUND: OnceLock<usize> = OnceLock::new();
    *BOUND.get_or_init(|| {
        let words = max_lane_words();
        let largest = Checkpoint {
            generation: String::new(),
            engine: longest(Engine::ALL, Engine::name, Engine::Pool),
            generator: longest(Generator::ALL, Generator::name, Generator::OutputCvtLfsr),
            algorithm: longest(Algorithm::ALL, Algorithm::name, Algorithm::Xorwow),
            update: Some(longest(
                StateUpdate::ALL,
                StateUpdate::name,
                StateUpdate::SrcTensor,
            )),
            words_per_lane: words,
            lanes: vec![vec![u32::MAX; usize::from(words)]; LANES],
        };
        2 * largest.to_json().len()
    })
}

/// A checkpoint of one engine's generator state, as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Generation name (`GenerationInfo::name`, e.g. `MARIANA`).
    pub generation: String,
    /// The engine.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// The restore arm's `update_state`; `None` for a saved state (restored with SRC_TENSOR).
    pub update: Option<StateUpdate>,
    /// Words per lane (the arm's width).
    pub words_per_lane: u8,
    /// Per partition, the raw words; `lanes.len()` is the channel count.
    pub lanes: Vec<Vec<u32>>,
}

/// Why a checkpoint file was not read, or not restored (nothing was changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The text is larger than any legal checkpoint ([`max_json_bytes`]); refused unparsed.
    TooLarge {
        /// Its size in bytes, when known (`None`: reading stopped one byte past the bound).
        size: Option<u64>,
        /// [`max_json_bytes`].
        bound: usize,
    },
    /// The input could not be read (the I/O error's message).
    Read(String),
    /// The input is not UTF-8 text.
    NotUtf8 {
        /// Byte offset of the first byte that is not part of a UTF-8 character.
        offset: usize,
    },
    /// Not JSON of the expected shape (serde_json's message, with line and column).
    Json(String),
    /// The `format` tag is not [`FORMAT`].
    Format {
        /// The tag found.
        found: String,
    },
    /// A version this crate does not read.
    Version {
        /// The version found.
        found: u32,
    },
    /// A name that is not a member of its enum.
    UnknownName {
        /// The field.
        field: &'static str,
        /// The value found.
        value: String,
    },
    /// `channels` is not the number of lanes, or is outside 1..=128.
    Channels {
        /// `channels` in the file.
        channels: usize,
        /// Lanes in the file.
        lanes: usize,
    },
    /// A lane of another length than `words_per_lane`.
    LaneWidth {
        /// The lane.
        lane: usize,
        /// Its words.
        found: usize,
        /// `words_per_lane`.
        words_per_lane: u8,
    },
    /// The file is for another generation.
    WrongGeneration {
        /// The file's generation.
        file: String,
        /// The generation restored into.
        expected: &'static str,
    },
    /// The file is for another engine.
    WrongEngine {
        /// The file's engine.
        file: Engine,
        /// The engine restored into.
        engine: Engine,
    },
    /// An IMM_SINGLE file whose lanes differ (IMM_SINGLE broadcasts one record).
    ImmediateLanesDiffer {
        /// The first lane that differs from lane 0.
        lane: usize,
    },
    /// The engine refused the restore or the save (wrong arm, width, ...).
    Checkpoint(CheckpointError),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::TooLarge {
                size: Some(size),
                bound,
            } => write!(
                f,
                "{size} bytes: larger than any legal checkpoint file ({bound} bytes at most)"
            ),
            FileError::TooLarge { size: None, bound } => write!(
                f,
                "more than {bound} bytes: larger than any legal checkpoint file"
            ),
            FileError::Read(e) => write!(f, "cannot read the checkpoint: {e}"),
            FileError::NotUtf8 { offset } => {
                write!(f, "not a checkpoint file: byte {offset} is not UTF-8 text")
            }
            FileError::Json(e) => write!(f, "not a checkpoint file: {e}"),
            FileError::Format { found } => {
                write!(f, "format {found:?}: expected {FORMAT:?}")
            }
            FileError::Version { found } => {
                write!(f, "version {found}: this build reads version {VERSION}")
            }
            FileError::UnknownName { field, value } => write!(f, "{field} {value:?}: unknown name"),
            FileError::Channels { channels, lanes } => write!(
                f,
                "channels {channels} with {lanes} lanes: must be equal and in 1..=128"
            ),
            FileError::LaneWidth {
                lane,
                found,
                words_per_lane,
            } => write!(
                f,
                "lane {lane} has {found} words; words_per_lane is {words_per_lane}"
            ),
            FileError::WrongGeneration { file, expected } => {
                write!(f, "checkpoint is for generation {file}, not {expected}")
            }
            FileError::WrongEngine { file, engine } => write!(
                f,
                "checkpoint is for engine {}, not {}",
                file.name(),
                engine.name()
            ),
            FileError::ImmediateLanesDiffer { lane } => write!(
                f,
                "IMM_SINGLE restores one record to every lane, but lane {lane} differs from lane 0"
            ),
            FileError::Checkpoint(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FileError {}

impl From<CheckpointError> for FileError {
    fn from(e: CheckpointError) -> Self {
        FileError::Checkpoint(e)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    format: String,
    version: u32,
    generation: String,
    engine: String,
    generator: String,
    algorithm: String,
    update: Option<String>,
    channels: usize,
    words_per_lane: u8,
    lanes: Vec<Vec<u32>>,
}

fn named<T>(
    field: &'static str,
    value: &str,
    parse: fn(&str) -> Option<T>,
) -> Result<T, FileError> {
    parse(value).ok_or_else(|| FileError::UnknownName {
        field,
        value: value.to_string(),
    })
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

impl Checkpoint {
    /// Saves `channels` lanes of `rng` with RAND_GET_STATE semantics for `generator` / `algorithm`.
    pub fn capture<G: Generation>(
        rng: &EngineRng<G>,
        generator: Generator,
        algorithm: Algorithm,
        channels: u8,
    ) -> Result<Checkpoint, FileError> {
        // An arm the generation lacks leaves the width 0; get_state then names the arm.
        let words = G::GET_STATE_ARMS
            .iter()
            .find(|a| {
                a.engine == rng.engine() && a.generator == generator && a.algorithm == algorithm
            })
            .map_or(0, |a| a.words);
        let access = StateAccess {
            kind: CheckpointKind::Save,
            generator,
            algorithm,
            update: None,
            dtype: G::UINT32_DTYPE,
            channels,
            elements: u64::from(words),
        };
        let mut out = vec![0u32; usize::from(channels) * usize::from(words)];
        rng.get_state(&access, &mut out)?;
        Ok(Checkpoint {
            generation: G::INFO.name.to_string(),
            engine: rng.engine(),
            generator,
            algorithm,
            update: None,
            words_per_lane: words,
            lanes: out
                .chunks(usize::from(words).max(1))
                .map(<[u32]>::to_vec)
                .collect(),
        })
    }

    /// Restores the checkpoint into `rng` with RAND_SET_STATE semantics (every check first).
    pub fn restore_into<G: Generation>(&self, rng: &mut EngineRng<G>) -> Result<(), FileError> {
        if self.generation != G::INFO.name {
            return Err(FileError::WrongGeneration {
                file: self.generation.clone(),
                expected: G::INFO.name,
            });
        }
        if self.engine != rng.engine() {
            return Err(FileError::WrongEngine {
                file: self.engine,
                engine: rng.engine(),
            });
        }
        self.check_shape()?;
        let update = self.update.unwrap_or(StateUpdate::SrcTensor);
        let access = StateAccess {
            kind: CheckpointKind::Restore,
            generator: self.generator,
            algorithm: self.algorithm,
            update: Some(update),
            dtype: G::UINT32_DTYPE,
            channels: self.lanes.len() as u8,
            elements: u64::from(self.words_per_lane),
        };
        if update == StateUpdate::ImmSingle {
            if let Some(lane) = self.lanes.iter().position(|l| l != &self.lanes[0]) {
                return Err(FileError::ImmediateLanesDiffer { lane });
            }
            let mut imm = [0u32; 8];
            let n = self.lanes[0].len().min(8);
            imm[..n].copy_from_slice(&self.lanes[0][..n]);
            rng.set_state(&access, StateSource::Immediate(imm))?;
        } else {
            let words: Vec<u32> = self.lanes.concat();
            rng.set_state(&access, StateSource::Tensor(&words))?;
        }
        Ok(())
    }

    fn check_shape(&self) -> Result<(), FileError> {
        if !(1..=128).contains(&self.lanes.len()) {
            return Err(FileError::Channels {
                channels: self.lanes.len(),
                lanes: self.lanes.len(),
            });
        }
        for (lane, words) in self.lanes.iter().enumerate() {
            if words.len() != usize::from(self.words_per_lane) {
                return Err(FileError::LaneWidth {
                    lane,
                    found: words.len(),
                    words_per_lane: self.words_per_lane,
                });
            }
        }
        Ok(())
    }

    /// Reads a checkpoint file's text; a text longer than [`max_json_bytes`] is refused
    /// before it is parsed.
    pub fn from_json(text: &str) -> Result<Checkpoint, FileError> {
        let bound = max_json_bytes();
        if text.len() > bound {
            return Err(FileError::TooLarge {
                size: Some(text.len() as u64),
                bound,
            });
        }
        let wire: Wire = serde_json::from_str(text).map_err(|e| FileError::Json(e.to_string()))?;
        if wire.format != FORMAT {
            return Err(FileError::Format { found: wire.format });
        }
        if wire.version != VERSION {
            return Err(FileError::Version {
                found: wire.version,
            });
        }
        if wire.channels != wire.lanes.len() {
            return Err(FileError::Channels {
                channels: wire.channels,
                lanes: wire.lanes.len(),
            });
        }
        let checkpoint = Checkpoint {
            generation: wire.generation,
            engine: named("engine", &wire.engine, Engine::from_name)?,
            generator: named("generator", &wire.generator, Generator::from_name)?,
            algorithm: named("algorithm", &wire.algorithm, Algorithm::from_name)?,
            update: match wire.update {
                Some(u) => Some(named("update", &u, StateUpdate::from_name)?),
                None => None,
            },
            words_per_lane: wire.words_per_lane,
            lanes: wire.lanes,
        };
        checkpoint.check_shape()?;
        Ok(checkpoint)
    }

    /// Reads a checkpoint file from `reader`, holding at most [`max_json_bytes`] + 1 bytes of it
    /// (one more tells a text that is too large).
    pub fn from_reader(reader: impl Read) -> Result<Checkpoint, FileError> {
        let bound = max_json_bytes();
        let mut data = Vec::new();
        reader
            .take(bound as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| FileError::Read(e.to_string()))?;
        if data.len() > bound {
            return Err(FileError::TooLarge { size: None, bound });
        }
        let text = core::str::from_utf8(&data).map_err(|e| FileError::NotUtf8 {
            offset: e.valid_up_to(),
        })?;
        Checkpoint::from_json(text)
    }

    /// Writes the file (the layout in the module documentation, byte-stable).
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        let update = self
            .update
            .map_or("null".to_string(), |u| json_string(u.name()));
        // Writing to a String cannot fail.
        let _ = write!(
            s,
            "{{\n  \"format\": {},\n  \"version\": {VERSION},\n  \"generation\": {},\n  \"engine\": {},\n  \"generator\": {},\n  \"algorithm\": {},\n  \"update\": {update},\n  \"channels\": {},\n  \"words_per_lane\": {},\n  \"lanes\": [\n",
            json_string(FORMAT),
            json_string(&self.generation),
            json_string(self.engine.name()),
            json_string(self.generator.name()),
            json_string(self.algorithm.name()),
            self.lanes.len(),
            self.words_per_lane,
        );
        for (k, lane) in self.lanes.iter().enumerate() {
            let words: Vec<String> = lane.iter().map(u32::to_string).collect();
            let comma = if k + 1 < self.lanes.len() { "," } else { "" };
            let _ = writeln!(s, "    [{}]{comma}", words.join(", "));
        }
        s.push_str("  ]\n}\n");
        s
    }
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
