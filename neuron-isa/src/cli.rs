//! The command line (clap derive).

use crate::names::parser;
use crate::num;
use clap::{Args, Parser, Subcommand, ValueEnum};
use rng_core::{Algorithm, Engine, Generator, StateUpdate};
use std::path::PathBuf;

/// Legality, encoding, decoding and validation of Neuron RNG-family instruction
/// words, RNG streams and checkpoint round trips, per NeuronCore generation.
///
/// Numbers are decimal or 0x hex. Exit codes: 0 success, 1 invalid instruction,
/// 2 bad usage or input.
#[derive(Debug, Parser)]
#[command(name = "neuron-isa", version, subcommand_required = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// A NeuronCore generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Gen {
    /// NeuronCore v2 (SUNDA).
    Sunda,
    /// NeuronCore v3 (CAYMAN).
    Cayman,
    /// NeuronCore v4 (MARIANA).
    Mariana,
    /// NeuronCore v5 (MAVERICK).
    Maverick,
}

impl Gen {
    /// Every generation, oldest first.
    pub const ALL: [Gen; 4] = [Gen::Sunda, Gen::Cayman, Gen::Mariana, Gen::Maverick];
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The legal RAND_SET_STATE / RAND_GET_STATE arms per generation, from the generated tables.
    Matrix {
        /// Only this generation (default: all four).
        #[arg(long)]
        gen: Option<Gen>,
        /// JSON: an array of arm objects.
        #[arg(long)]
        json: bool,
    },
    /// Encodes one instruction word as 128 hex digits (does not validate).
    ///
    /// RAND_SET_STATE and RAND_GET_STATE by their arm; the draw family (RAND2, RAND, RNG, DROPOUT,
    /// PSEUDO_SET_RNG_SEED, PE_MANAGE_SEED) through the generation's typed constructors, which
    /// write what the header's validator fixes. ADDR is a raw start address (the ADDR4 word,
    /// e.g. SBUF partition p byte b is p * partition size + b); a tensor is ELEMS elements
    /// contiguous per partition.
    Encode {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// Write the 64 raw bytes instead of hex (append words to build a program for `run`).
        #[arg(long)]
        raw: bool,
        /// Which instruction.
        #[command(subcommand)]
        inst: EncodeInst,
    },
    /// Shows every field of each word by name, with its value and enum member name.
    Decode {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// JSON: an array of word objects.
        #[arg(long)]
        json: bool,
        /// One line per word, `word N @ 0xOFF: <disassembly>`: the opcode name, then the fields
        /// that are not zero as name=value (enums by member name), as the crates' `Display` prints.
        #[arg(long, conflicts_with = "json")]
        short: bool,
        /// The words.
        #[command(flatten)]
        input: WordsArg,
    },
    /// Assembles a program text into 64-byte words.
    ///
    /// One instruction a line, as `decode --short` and `disasm` print it; `#` comments; blank
    /// lines; `.word 0x<128 hex digits>` for a raw word; `@dve` at the end of a line or
    /// `.engine dve` for the lines after it names the executing engine. The format:
    /// docs/program-format.md in the neuron-isa repository. Every error of the text is one line,
    /// `FILE:LINE:COL: message`, exit 2; nothing is written then.
    Asm {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// The program text (`-`: standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Where the words go (default: standard output).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: Option<PathBuf>,
        /// One line of 128 hex digits per word instead of the raw bytes.
        #[arg(long)]
        hex: bool,
        /// Validate each word for its engine (its annotation, or the one engine the tree places
        /// it on): an invalid one is a `FILE:LINE: message` line, exit 1.
        #[arg(long)]
        validate: bool,
    },
    /// Prints a stream of 64-byte words as a program text that `asm` assembles back to the same bytes.
    ///
    /// One line per word: its one-line disassembly, `@engine` when the tree places the opcode on
    /// one engine only, and its byte offset as a comment; a word that does not decode is a
    /// `.word` line whose comment says why (docs/program-format.md).
    Disasm {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// A raw stream of 64-byte words (`-`: standard input).
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Runs the generation's validators over each word as executed by an engine.
    ///
    /// A program text (`--file F.s`, or `--text`) validates each word on its annotated engine,
    /// else the one engine the tree places it on, else `--engine`.
    Validate {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// The executing engine (for a program text: of the words without an annotation).
        #[arg(long, value_parser = parser::<Engine>())]
        engine: Option<Engine>,
        /// The words.
        #[command(flatten)]
        input: WordsArg,
        /// Read `--file` as a program text whatever its name (a `.s` file always is).
        #[arg(long, requires = "file")]
        text: bool,
        /// Also apply the runtime-wired gate (arms the shipped firmware has a body for).
        #[arg(long)]
        firmware: bool,
    },
    /// Prints a generator's output stream, one word per line.
    Rng {
        /// Which generator.
        #[command(subcommand)]
        generator: RngCmd,
    },
    /// Save, draw, restore, draw on the model through encoded checkpoint instructions.
    ///
    /// Seeds every lane of the engine (the model's SplitMix64 convenience
    /// seeding, not a hardware path), runs the encoded RAND_GET_STATE to SBUF,
    /// draws N elements per lane, runs the encoded RAND_SET_STATE from the saved
    /// tensor, draws N again, prints lane 0's two sequences and compares all
    /// lanes. Exit 0 when identical, 1 when not or when the arm is not legal.
    Checkpoint {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// Engine.
        #[arg(long, value_parser = parser::<Engine>())]
        engine: Engine,
        /// `rand_generator`.
        #[arg(long, value_parser = parser::<Generator>())]
        generator: Generator,
        /// `rand_algorithm`.
        #[arg(long, value_parser = parser::<Algorithm>())]
        algorithm: Algorithm,
        /// Seed of the convenience seeding.
        #[arg(long, default_value = "0", value_parser = num::u64)]
        seed: u64,
        /// Elements drawn per lane after the save and after the restore (1..=65536).
        #[arg(long, default_value = "8", value_parser = num::u32)]
        draws: u32,
        /// Lanes saved, restored and compared (num_active_channels).
        #[arg(long, default_value = "128", value_parser = num::u8)]
        channels: u8,
    },
    /// Runs a stream of 64-byte words on the model and prints a memory region.
    ///
    /// Executes every word of PROGRAM (a raw file of 64-byte words, `-` for
    /// standard input, or a program text: a `.s` file or `--text`, whose engine
    /// annotations choose each word's queue) on one engine queue of the rng-core machine, from zeroed
    /// memory and the model's power-on state, then prints the dumped region: one
    /// line per partition, each u32 word as 0x%08x, separated by single spaces
    /// (`--json`: a document, see the README). RAND, RAND2, DROPOUT,
    /// PSEUDO_SET_RNG_SEED, RAND_GET_STATE and RAND_SET_STATE run; a refused word
    /// stops the run with exit 1 and a line naming its index, byte offset and
    /// why; memory and state stay as before it, and the dump is still printed.
    Run {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// The program: a raw stream of 64-byte words or a `.s` program text (`-`: standard input).
        #[arg(long, value_name = "PROGRAM")]
        file: PathBuf,
        /// Read PROGRAM as a program text whatever its name.
        #[arg(long)]
        text: bool,
        /// The engine queue (default: the one engine that can run every word, when there is one);
        /// in a program text, of the words without an engine annotation.
        #[arg(long, value_parser = parser::<Engine>())]
        engine: Option<Engine>,
        /// `default` (the model's power-on state) or an rng-core checkpoint JSON file restored first.
        #[arg(long, value_name = "default|FILE", default_value = "default")]
        engine_state: String,
        /// The region printed: ADDR (byte address, in partition 0 for partition lines 0..), CHANNELS
        /// (partitions), WORDS (u32 per partition).
        #[arg(long, value_name = "ADDR:CHANNELS:WORDS", value_parser = crate::program::parse_dump)]
        dump: crate::program::Dump,
        /// JSON: generation, engine, words run, the refusal if any, and the dump.
        #[arg(long)]
        json: bool,
    },
    /// The semantic ISA diff between two header trees, as in the generator's report.
    Diff {
        /// The old tree (a `neuron_<gen>_arch_isa` directory).
        #[arg(value_name = "FROM_TREE")]
        from: PathBuf,
        /// The new tree.
        #[arg(value_name = "TO_TREE")]
        to: PathBuf,
    },
}

/// Words as hex arguments or a stream file.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct WordsArg {
    /// Instruction words, 128 hex digits each.
    #[arg(value_name = "HEX")]
    pub hex: Vec<String>,
    /// A raw stream of 64-byte words (`-`: standard input).
    #[arg(long, value_name = "F")]
    pub file: Option<PathBuf>,
}

/// The arm fields both checkpoint instructions share.
#[derive(Debug, Args)]
pub struct ArmArgs {
    /// Executing engine.
    #[arg(long, value_parser = parser::<Engine>())]
    pub engine: Engine,
    /// `rand_generator`.
    #[arg(long, value_parser = parser::<Generator>())]
    pub generator: Generator,
    /// `rand_algorithm`.
    #[arg(long, value_parser = parser::<Algorithm>())]
    pub algorithm: Algorithm,
    /// `num_active_channels`.
    #[arg(long, default_value = "128", value_parser = num::u8)]
    pub channels: u8,
    /// State words per partition (default: the arm's width; override to build an invalid word).
    #[arg(long, value_parser = num::u16)]
    pub words: Option<u16>,
}

/// `encode` targets.
#[derive(Debug, Subcommand)]
pub enum EncodeInst {
    /// RAND_SET_STATE (0x78): restore from a rank-1 tensor or the immediate.
    RandSetState {
        /// The arm.
        #[command(flatten)]
        arm: ArmArgs,
        /// `update_state`.
        #[arg(long, value_parser = parser::<StateUpdate>())]
        update: StateUpdate,
        /// Source tensor ADDR4 word (required with src-tensor; default 0 for the immediate forms).
        #[arg(long, value_name = "ADDR", value_parser = num::u32)]
        src: Option<u32>,
        /// `imm_state` words w0,..,w7 (immediate forms; missing trailing words are 0).
        #[arg(long, value_name = "W0,..,W7", value_parser = imm)]
        imm: Option<[u32; 8]>,
    },
    /// RAND_GET_STATE (0x77): save to a rank-4 tensor.
    RandGetState {
        /// The arm.
        #[command(flatten)]
        arm: ArmArgs,
        /// Destination tensor ADDR4 word.
        #[arg(long, value_name = "ADDR", value_parser = num::u32)]
        dst: u32,
    },
    /// The draw family, through the typed constructors.
    #[command(flatten)]
    Draw(DrawInst),
}

/// A tensor operand: a start address and an element count per partition.
#[derive(Debug, Args)]
pub struct DstArgs {
    /// Destination start address (ADDR4 word).
    #[arg(long, value_name = "ADDR", value_parser = num::u32)]
    pub dst: u32,
    /// Lanes written (`num_active_channels`).
    #[arg(long, default_value = "128", value_parser = num::u8)]
    pub channels: u8,
    /// Elements per partition (contiguous).
    #[arg(long, value_parser = num::u16)]
    pub elems: u16,
}

/// The draw-family instructions `encode` builds through the typed constructors.
#[derive(Debug, Subcommand)]
pub enum DrawInst {
    /// RAND2 (0xE2): uniform draws `min + u * (max - min)` from the DVE XORWOW generators (`Rand2::new`).
    Rand2 {
        /// The output tensor.
        #[command(flatten)]
        out: DstArgs,
        /// Lower bound (fp32 immediate).
        #[arg(long, allow_negative_numbers = true, value_parser = num::f32)]
        min: f32,
        /// Upper bound (fp32 immediate).
        #[arg(long, allow_negative_numbers = true, value_parser = num::f32)]
        max: f32,
        /// Output element type (vendor member name: fp32, bfloat16, int32, ...).
        #[arg(long, default_value = "fp32")]
        dtype: String,
    },
    /// RAND (0x76): Philox draws, raw (`Rand::raw_u32`) or in a range (`Rand::uniform_in_range`).
    Rand {
        /// The output tensor.
        #[command(flatten)]
        out: DstArgs,
        /// `post_process`: raw-u32 or uniform-in-range (NORMAL has no constructor).
        #[arg(long, default_value = "raw-u32")]
        post_process: String,
        /// Output element type (default: uint32 for raw-u32, fp32 for uniform-in-range).
        #[arg(long)]
        dtype: Option<String>,
        /// Lower bound (uniform-in-range, `params[0]`).
        #[arg(long, allow_negative_numbers = true, value_parser = num::f32)]
        min: Option<f32>,
        /// Upper bound (uniform-in-range, `params[1]`).
        #[arg(long, allow_negative_numbers = true, value_parser = num::f32)]
        max: Option<f32>,
    },
    /// RNG (0x4D): 32 random bits per element, cut to an integer type (`Rng::new`).
    Rng {
        /// The output tensor.
        #[command(flatten)]
        out: DstArgs,
        /// Output element type (an integer type).
        #[arg(long, default_value = "uint32")]
        dtype: String,
    },
    /// DROPOUT (0x7F): zero some elements, copy the others (`Dropout::new`). Which draws drop is
    /// a resolved conflict between the reference pages: the headers read DROP_RATE as "drop when the
    /// draw is below PROB", so PROB is the drop probability (NKI's reading; headers/PROVENANCE.md C2).
    Dropout {
        /// Input start address (ADDR4 word).
        #[arg(long, value_name = "ADDR", value_parser = num::u32)]
        src: u32,
        /// The output tensor (same element count as the input).
        #[command(flatten)]
        out: DstArgs,
        /// The threshold (fp32 immediate): the drop probability, or the keep probability with
        /// --keep-rate, under the polarity reading of conflict C2.
        #[arg(long, value_parser = num::f32)]
        prob: f32,
        /// Element type of input and output.
        #[arg(long, default_value = "fp32")]
        dtype: String,
        /// Read the threshold as a keep rate (`threshold_type` KEEP_RATE).
        #[arg(long)]
        keep_rate: bool,
    },
    /// PSEUDO_SET_RNG_SEED (0xD0): seed the DVE generator (`PseudoSetRngSeed::new`).
    #[command(group = clap::ArgGroup::new("seed_from").required(true))]
    SetRngSeed {
        /// Address of the 32-bit seed (a pointer immediate).
        #[arg(long, value_name = "ADDR", value_parser = num::u32, group = "seed_from")]
        src: Option<u32>,
        /// The 32-bit seed itself (an instruction immediate).
        #[arg(long, value_parser = num::u32, group = "seed_from")]
        seed: Option<u32>,
    },
    /// PE_MANAGE_SEED (0x08): move the PE stochastic-rounding seeds (`PeManageSeed::load_seed` / `save_seed`).
    PeManageSeed {
        /// load-seed (from SBUF, --src) or save-seed (to the start of PSUM; NONE has no constructor).
        #[arg(long)]
        mode: String,
        /// Seed source start address (load-seed).
        #[arg(long, value_name = "ADDR", value_parser = num::u32)]
        src: Option<u32>,
        /// Seeds per partition (load-seed).
        #[arg(long, default_value = "16", value_parser = num::u16)]
        elems: u16,
        /// Element type of the identity diagonal (bfloat16, fp16, fp32r, fp8-exp3..5).
        #[arg(long, default_value = "bfloat16")]
        identity_dtype: String,
    },
}

fn imm(text: &str) -> Result<[u32; 8], String> {
    num::word_list::<8>(text, 1)
}

/// `rng` generators.
#[derive(Debug, Subcommand)]
pub enum RngCmd {
    /// Marsaglia's xorwow; output v + d after each step.
    Xorwow {
        /// The six state words.
        #[arg(long, value_name = "X,Y,Z,W,V,D", value_parser = num::words::<6>)]
        state: [u32; 6],
        /// Output options.
        #[command(flatten)]
        out: RngOut,
    },
    /// Philox4x32-10: block(counter), block(counter+1), ... (counter a 128-bit integer, c0 least significant).
    Philox {
        /// Counter words.
        #[arg(long, value_name = "C0,C1,C2,C3", value_parser = num::words::<4>)]
        counter: [u32; 4],
        /// Key words.
        #[arg(long, value_name = "K0,K1", value_parser = num::words::<2>)]
        key: [u32; 2],
        /// Output options.
        #[command(flatten)]
        out: RngOut,
    },
    /// PCG32 (XSH-RR 64/32) from a raw LCG state; output of the old state, then the step.
    Pcg32 {
        /// The 64-bit LCG state.
        #[arg(long, value_parser = num::u64)]
        state: u64,
        /// The odd increment (default: the simulator's 0x14057b7ef767814f).
        #[arg(long, value_parser = num::u64)]
        inc: Option<u64>,
        /// Output options.
        #[command(flatten)]
        out: RngOut,
    },
    /// The 32-bit Fibonacci LFSR, taps 32/22/2/1, output = new state (a model, not confirmed on hardware).
    Lfsr {
        /// The 32-bit register.
        #[arg(long, value_parser = num::u32)]
        state: u32,
        /// Output options.
        #[command(flatten)]
        out: RngOut,
    },
}

/// How many outputs and in which form.
#[derive(Debug, Args)]
pub struct RngOut {
    /// Outputs to print.
    #[arg(long, value_parser = num::u64)]
    pub count: u64,
    /// Print `0x%08x` instead of decimal.
    #[arg(long)]
    pub hex: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn generation_spellings_match_the_crates() {
        use clap::ValueEnum;
        let names = [
            isa_sunda::Sunda::INFO.name,
            isa_cayman::Cayman::INFO.name,
            isa_mariana::Mariana::INFO.name,
            isa_maverick::Maverick::INFO.name,
        ];
        for (gen, name) in Gen::ALL.iter().zip(names) {
            let value = gen.to_possible_value().unwrap();
            assert_eq!(value.get_name(), name.to_ascii_lowercase());
        }
    }
}
