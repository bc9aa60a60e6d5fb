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
    /// Encodes a RAND_SET_STATE or RAND_GET_STATE word as 128 hex digits (does not validate).
    Encode {
        /// Generation.
        #[arg(long)]
        gen: Gen,
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
    /// Runs the generation's validators over each word as executed by an engine.
    Validate {
        /// Generation.
        #[arg(long)]
        gen: Gen,
        /// The executing engine.
        #[arg(long, value_parser = parser::<Engine>())]
        engine: Engine,
        /// The words.
        #[command(flatten)]
        input: WordsArg,
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
    /// standard input) on one engine queue of the rng-core machine, from zeroed
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
        /// The program: a raw stream of 64-byte words (`-`: standard input).
        #[arg(long, value_name = "PROGRAM")]
        file: PathBuf,
        /// The engine queue (default: the one engine that can run every word, when there is one).
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
            <isa_sunda::Sunda as isa_core::Isa>::INFO.name,
            <isa_cayman::Cayman as isa_core::Isa>::INFO.name,
            <isa_mariana::Mariana as isa_core::Isa>::INFO.name,
            <isa_maverick::Maverick as isa_core::Isa>::INFO.name,
        ];
        for (gen, name) in Gen::ALL.iter().zip(names) {
            let value = gen.to_possible_value().unwrap();
            assert_eq!(value.get_name(), name.to_ascii_lowercase());
        }
    }
}
