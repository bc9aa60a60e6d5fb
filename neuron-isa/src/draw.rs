//! `encode <draw instruction>`: RAND2, RAND, RNG, DROPOUT, PSEUDO_SET_RNG_SEED and
//! PE_MANAGE_SEED, built through the generation's typed constructors
//! ([`isa_core::construct::Construct`]), never field by field: what the header's validator fixes
//! (the header length, RAND2's XORWOW, RNG's element count, ...) is the constructor's business.
//!
//! Each subcommand names its values by the constructors' parameter names (`dst`,
//! `num_active_channels`, `min`, ...); the generation's constructor says which it takes and of
//! what kind, so a value it does not take, or one it needs and the command does not supply, is a
//! usage error naming both.

use crate::cli::{DrawInst, DstArgs};
use crate::fail::Failure;
use isa_core::construct::{Arg, Construct, ConstructError, ParamKind, TensorArg};
use isa_core::{Immediate, Isa, VendorEnum};

/// A value the command line gives for a constructor parameter.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// A contiguous tensor: start address, elements per partition.
    Tensor { addr: u32, elems: u16 },
    /// A lane count.
    Lanes(u8),
    /// A vendor member name (`FP32`, `DROP_RATE`).
    Name(String),
    /// A number (an fp32 parameter, or an fp32 instruction immediate).
    Number(f32),
    /// An immediate as it is.
    Immediate(Immediate),
}

/// One value: the constructor parameter it is for, the flag that gave it, the value.
struct Given {
    param: &'static str,
    flag: &'static str,
    value: Value,
}

/// The subcommand's name, the instruction, the constructor function and the values given.
struct Request {
    command: &'static str,
    instruction: &'static str,
    function: String,
    given: Vec<Given>,
}

/// `fp32` → `FP32`, `raw-u32` → `raw_u32` (as the vendor and the constructors spell them).
fn vendor(text: &str) -> String {
    text.to_ascii_uppercase().replace('-', "_")
}

fn function(text: &str) -> String {
    text.to_ascii_lowercase().replace('-', "_")
}

fn given(param: &'static str, flag: &'static str, value: Value) -> Given {
    Given { param, flag, value }
}

fn out_tensor(out: &DstArgs) -> [Given; 2] {
    [
        given(
            "dst",
            "--dst/--elems",
            Value::Tensor {
                addr: out.dst,
                elems: out.elems,
            },
        ),
        given(
            "num_active_channels",
            "--channels",
            Value::Lanes(out.channels),
        ),
    ]
}

fn request(inst: &DrawInst) -> Request {
    match inst {
        DrawInst::Rand2 {
            out,
            min,
            max,
            dtype,
        } => {
            let mut given: Vec<Given> = out_tensor(out).into();
            given.push(self::given("dtype", "--dtype", Value::Name(vendor(dtype))));
            given.push(self::given("min", "--min", Value::Number(*min)));
            given.push(self::given("max", "--max", Value::Number(*max)));
            Request {
                command: "rand2",
                instruction: "RAND2",
                function: "new".into(),
                given,
            }
        }
        DrawInst::Rand {
            out,
            post_process,
            dtype,
            min,
            max,
        } => {
            let function = function(post_process);
            let default = if function == "uniform_in_range" {
                "fp32"
            } else {
                "uint32"
            };
            let mut given: Vec<Given> = out_tensor(out).into();
            given.push(self::given(
                "dtype",
                "--dtype",
                Value::Name(vendor(dtype.as_deref().unwrap_or(default))),
            ));
            if let Some(v) = min {
                given.push(self::given("min", "--min", Value::Number(*v)));
            }
            if let Some(v) = max {
                given.push(self::given("max", "--max", Value::Number(*v)));
            }
            Request {
                command: "rand",
                instruction: "RAND",
                function,
                given,
            }
        }
        DrawInst::Rng { out, dtype } => {
            let mut given: Vec<Given> = out_tensor(out).into();
            given.push(self::given("dtype", "--dtype", Value::Name(vendor(dtype))));
            Request {
                command: "rng",
                instruction: "RNG",
                function: "new".into(),
                given,
            }
        }
        DrawInst::Dropout {
            src,
            out,
            prob,
            dtype,
            keep_rate,
        } => {
            let mut given: Vec<Given> = out_tensor(out).into();
            given.push(self::given(
                "src",
                "--src/--elems",
                Value::Tensor {
                    addr: *src,
                    elems: out.elems,
                },
            ));
            given.push(self::given(
                "in_dtype",
                "--dtype",
                Value::Name(vendor(dtype)),
            ));
            // --prob is an fp32 instruction immediate.
            given.push(self::given(
                "threshold_dtype",
                "--prob",
                Value::Name("FP32".into()),
            ));
            given.push(self::given("threshold", "--prob", Value::Number(*prob)));
            let rate = if *keep_rate { "KEEP_RATE" } else { "DROP_RATE" };
            given.push(self::given(
                "threshold_type",
                "--keep-rate",
                Value::Name(rate.into()),
            ));
            Request {
                command: "dropout",
                instruction: "DROPOUT",
                function: "new".into(),
                given,
            }
        }
        DrawInst::SetRngSeed { src, seed } => {
            let value = match (src, seed) {
                (Some(addr), _) => {
                    given("seed", "--src", Value::Immediate(Immediate::Pointer(*addr)))
                }
                (None, v) => given(
                    "seed",
                    "--seed",
                    Value::Immediate(Immediate::Value(v.unwrap_or(0))),
                ),
            };
            Request {
                command: "set-rng-seed",
                instruction: "PSEUDO_SET_RNG_SEED",
                function: "new".into(),
                given: vec![value],
            }
        }
        DrawInst::PeManageSeed {
            mode,
            src,
            elems,
            identity_dtype,
        } => {
            let mut given = vec![self::given(
                "identity_dtype",
                "--identity-dtype",
                Value::Name(vendor(identity_dtype)),
            )];
            if let Some(addr) = src {
                given.push(self::given(
                    "src_seed",
                    "--src/--elems",
                    Value::Tensor {
                        addr: *addr,
                        elems: *elems,
                    },
                ));
            }
            Request {
                command: "pe-manage-seed",
                instruction: "PE_MANAGE_SEED",
                function: function(mode),
                given,
            }
        }
    }
}

/// The word `inst` describes, built by generation `G`'s typed constructor.
pub fn encode<G: Isa + Construct>(inst: &DrawInst) -> Result<[u8; 64], Failure> {
    let r = request(inst);
    let gen = G::INFO.name;
    let usage = |what: String| Failure::usage(format!("encode {}: {what}", r.command));
    let Some(info) = G::constructor(r.instruction, &r.function) else {
        let theirs: Vec<&str> = G::CONSTRUCTORS
            .iter()
            .filter(|c| c.instruction == r.instruction)
            .map(|c| c.function)
            .collect();
        let has_opcode = G::opcodes()
            .iter()
            .any(|o| o.vendor_name() == r.instruction);
        return Err(usage(if !theirs.is_empty() {
            format!(
                "{gen}'s {} has no constructor `{}` (its constructors: {}; a choice the validator rejects has none)",
                r.instruction,
                r.function,
                theirs.join(", ")
            )
        } else if has_opcode {
            format!(
                "{gen} has no typed constructor for {} (see the generator's report)",
                r.instruction
            )
        } else {
            format!("{gen} has no {} instruction", r.instruction)
        }));
    };
    let call = format!("{gen}'s {}::{}", r.instruction, r.function);
    for g in &r.given {
        if !info.params.iter().any(|p| p.name == g.param) {
            return Err(usage(format!(
                "{call} takes no `{}` (given by {})",
                g.param, g.flag
            )));
        }
    }
    let mut args: Vec<(&str, Arg<'_>)> = Vec::new();
    for p in info.params {
        let Some(g) = r.given.iter().find(|g| g.param == p.name) else {
            return Err(usage(format!(
                "{call} needs `{}`, which this command was not given",
                p.name
            )));
        };
        let arg = match (p.kind, &g.value) {
            (ParamKind::Tensor { .. }, Value::Tensor { addr, elems }) => Arg::Tensor(
                TensorArg::contiguous(*addr, [*elems, 1, 1, 1])
                    .map_err(|e| usage(format!("{}: {e}", g.flag)))?,
            ),
            (ParamKind::Lanes, Value::Lanes(n)) => Arg::Lanes(*n),
            (ParamKind::Dtype | ParamKind::Enum { .. }, Value::Name(n)) => Arg::Member(n),
            (ParamKind::Immediate, Value::Number(v)) => Arg::Immediate(Immediate::fp32(*v)),
            (ParamKind::Immediate, Value::Immediate(i)) => Arg::Immediate(*i),
            (ParamKind::Fp32, Value::Number(v)) => Arg::Fp32(*v),
            _ => {
                return Err(usage(format!(
                    "{call}'s `{}` is not what {} gives",
                    p.name, g.flag
                )))
            }
        };
        args.push((p.name, arg));
    }
    G::construct(r.instruction, &r.function, &args).map_err(|e| match e {
        ConstructError::Member { param } => {
            let name = r
                .given
                .iter()
                .find(|g| g.param == param)
                .map(|g| match &g.value {
                    Value::Name(n) => crate::names::spelling(n),
                    _ => String::new(),
                })
                .unwrap_or_default();
            usage(format!("`{name}` is not a member {gen} has for `{param}`"))
        }
        other => usage(format!("{call}: {other}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_follow_the_vendor_and_the_constructors() {
        assert_eq!(vendor("fp8-exp4"), "FP8_EXP4");
        assert_eq!(function("uniform-in-range"), "uniform_in_range");
        assert_eq!(function("Load-Seed"), "load_seed");
    }
}
