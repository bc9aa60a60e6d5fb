//! The instruction constructors Python offers, over the generations' typed constructors
//! ([`Construct`]) and rng-core's checkpoint encoder, with the values `neuron-isa encode` takes:
//! a tensor is a start address (the ADDR4 word) and a count of contiguous elements per
//! partition, numbers are fp32, names are vendor member names in either spelling.
//!
//! Nothing here validates the word (as `neuron-isa encode`); what the generation lacks (an
//! instruction, a constructor, a member, a legal checkpoint arm) is an error naming it.

use crate::for_gen;
use crate::gens::{Gen, Target};
use crate::names;
use isa_core::construct::{Arg, Construct, ConstructError, ParamKind, TensorArg};
use isa_core::{Immediate, VendorEnum, INST_NBYTES};
use rng_core::machine::{restore_instruction, save_instruction};
use rng_core::{
    Algorithm, CheckpointArm, CheckpointKind, Engine, Generator, StateLocation, StateUpdate,
};

/// A tensor operand: start address and elements per partition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tensor {
    /// The ADDR4 word.
    pub addr: u32,
    /// Contiguous elements per partition.
    pub elems: u16,
}

/// A value for a constructor parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A tensor.
    Tensor(Tensor),
    /// A lane count.
    Lanes(u8),
    /// A vendor member name (`FP32`), already in vendor form.
    Member(String),
    /// A number: an fp32 parameter, or an fp32 instruction immediate.
    Number(f32),
    /// An immediate as it is.
    Immediate(Immediate),
}

/// One constructor call: the instruction, the function, and the values by parameter name.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The Python method (`rand2`), for messages.
    pub method: &'static str,
    /// The vendor opcode name (`RAND2`).
    pub instruction: &'static str,
    /// The typed constructor (`new`, `raw_u32`).
    pub function: &'static str,
    /// `(parameter, value)`.
    pub values: Vec<(&'static str, Value)>,
}

/// A constructor call refused, in one line.
pub type Refusal = String;

fn arg<'a>(kind: ParamKind, value: &'a Value) -> Option<Result<Arg<'a>, String>> {
    Some(Ok(match (kind, value) {
        (ParamKind::Tensor { .. }, Value::Tensor(t)) => {
            match TensorArg::contiguous(t.addr, [t.elems, 1, 1, 1]) {
                Ok(t) => Arg::Tensor(t),
                Err(e) => return Some(Err(e.to_string())),
            }
        }
        (ParamKind::Lanes, Value::Lanes(n)) => Arg::Lanes(*n),
        (ParamKind::Dtype | ParamKind::Enum { .. }, Value::Member(m)) => Arg::Member(m),
        (ParamKind::Immediate, Value::Number(v)) => Arg::Immediate(Immediate::fp32(*v)),
        (ParamKind::Immediate, Value::Immediate(i)) => Arg::Immediate(*i),
        (ParamKind::Fp32, Value::Number(v)) => Arg::Fp32(*v),
        _ => return None,
    }))
}

fn call<G: Target>(c: &Call) -> Result<[u8; INST_NBYTES], Refusal> {
    let gen = G::INFO.name;
    let Some(info) = G::constructor(c.instruction, c.function) else {
        let has_opcode = G::opcodes()
            .iter()
            .any(|o| o.vendor_name() == c.instruction);
        return Err(if has_opcode {
            let theirs: Vec<&str> = G::CONSTRUCTORS
                .iter()
                .filter(|k| k.instruction == c.instruction)
                .map(|k| k.function)
                .collect();
            if theirs.is_empty() {
                format!(
                    "{gen} has no typed constructor for {} (see the generator's report)",
                    c.instruction
                )
            } else {
                format!(
                    "{gen}'s {} has no constructor `{}` (its constructors: {}), so `{}` is not available on {gen}",
                    c.instruction,
                    c.function,
                    theirs.join(", "),
                    c.method
                )
            }
        } else {
            format!(
                "{gen} has no {} instruction, so `{}` is not available on {gen}",
                c.instruction, c.method
            )
        });
    };
    let mut args: Vec<(&str, Arg<'_>)> = Vec::new();
    for p in info.params {
        let Some((_, value)) = c.values.iter().find(|(name, _)| *name == p.name) else {
            return Err(format!(
                "{gen}'s {}::{} needs `{}`, which `{}` does not take",
                c.instruction, c.function, p.name, c.method
            ));
        };
        match arg(p.kind, value) {
            Some(Ok(a)) => args.push((p.name, a)),
            Some(Err(why)) => return Err(format!("{}: `{}`: {why}", c.method, p.name)),
            None => {
                return Err(format!(
                    "{gen}'s {}::{} takes `{}` in a form `{}` does not give",
                    c.instruction, c.function, p.name, c.method
                ))
            }
        }
    }
    G::construct(c.instruction, c.function, &args).map_err(|e| match e {
        ConstructError::Member { param } => {
            let given = c
                .values
                .iter()
                .find(|(name, _)| *name == param)
                .and_then(|(_, v)| match v {
                    Value::Member(m) => Some(names::spelling(m)),
                    _ => None,
                })
                .unwrap_or_default();
            format!(
                "{}: `{given}` is not a member {gen} has for `{param}`",
                c.method
            )
        }
        other => format!(
            "{}: {gen}'s {}::{}: {other}",
            c.method, c.instruction, c.function
        ),
    })
}

/// The word a draw-family constructor call builds on generation `gen`.
pub fn construct(gen: Gen, c: &Call) -> Result<[u8; INST_NBYTES], Refusal> {
    for_gen!(gen, G => call::<G>(c))
}

/// A checkpoint instruction as `neuron-isa encode rand-set-state / rand-get-state` takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Save (RAND_GET_STATE) or restore (RAND_SET_STATE).
    pub kind: CheckpointKind,
    /// The executing engine.
    pub engine: Engine,
    /// `rand_generator`.
    pub generator: Generator,
    /// `rand_algorithm`.
    pub algorithm: Algorithm,
    /// `update_state` (restores).
    pub update: Option<StateUpdate>,
    /// `num_active_channels`.
    pub channels: u8,
    /// The source (restore) or destination (save) ADDR4 word.
    pub addr: Option<u32>,
    /// `imm_state` (immediate restores; missing trailing words are 0).
    pub imm: Option<[u32; 8]>,
}

fn arm_text(a: &CheckpointArm) -> String {
    let mut s = format!(
        "({}, {}, {}",
        names::spelling(a.engine.name()),
        names::spelling(a.generator.name()),
        names::spelling(a.algorithm.name())
    );
    if let Some(u) = a.update {
        s.push_str(", ");
        s.push_str(&names::spelling(u.name()));
    }
    let plural = if a.words == 1 { "" } else { "s" };
    s.push_str(&format!(") -> {} word{plural}", a.words));
    s
}

fn checkpoint_word<G: Target>(c: &Checkpoint) -> Result<[u8; INST_NBYTES], Refusal> {
    let gen = G::INFO.name;
    let (method, arms) = match c.kind {
        CheckpointKind::Restore => ("rand_set_state", G::SET_STATE_ARMS),
        CheckpointKind::Save => ("rand_get_state", G::GET_STATE_ARMS),
    };
    let wanted = |a: &&CheckpointArm| {
        a.engine == c.engine
            && a.generator == c.generator
            && a.algorithm == c.algorithm
            && a.update == c.update
    };
    let Some(arm) = arms.iter().find(wanted) else {
        let mut asked = format!(
            "engine={:?}, generator={:?}, algorithm={:?}",
            names::spelling(c.engine.name()),
            names::spelling(c.generator.name()),
            names::spelling(c.algorithm.name())
        );
        if let Some(u) = c.update {
            asked.push_str(&format!(", update={:?}", names::spelling(u.name())));
        }
        let legal: Vec<String> = arms.iter().map(arm_text).collect();
        return Err(format!(
            "{method}({asked}) is not a legal {} arm on {gen}; its legal arms (engine, generator, algorithm{}) -> width: {}",
            c.kind.name(),
            if c.kind == CheckpointKind::Restore { ", update" } else { "" },
            if legal.is_empty() { "none".to_string() } else { legal.join("; ") }
        ));
    };
    let immediate = c.update.is_some_and(|u| u != StateUpdate::SrcTensor);
    let inst = match c.kind {
        CheckpointKind::Restore => {
            if !immediate && c.imm.is_some() {
                return Err(format!("{method}: imm= goes with update=\"imm-single\""));
            }
            let src = match (c.addr, immediate) {
                (Some(a), _) => a,
                (None, true) => 0,
                (None, false) => {
                    return Err(format!(
                        "{method}: src= is required with update=\"src-tensor\""
                    ))
                }
            };
            let mut inst = restore_instruction::<G>(arm, c.channels, src, c.imm.unwrap_or([0; 8]));
            if let (true, StateLocation::Tensor(tensor)) = (immediate, inst.location) {
                inst.location = StateLocation::Immediate {
                    tensor,
                    words: c.imm.unwrap_or([0; 8]),
                };
            }
            inst
        }
        CheckpointKind::Save => {
            let Some(dst) = c.addr else {
                return Err(format!("{method}: dst= is required"));
            };
            save_instruction::<G>(arm, c.channels, dst)
        }
    };
    G::encode_checkpoint(&inst).map_err(|e| format!("{method}: {gen} cannot encode it: {e}"))
}

/// The word of a checkpoint instruction on generation `gen`.
pub fn checkpoint(gen: Gen, c: &Checkpoint) -> Result<[u8; INST_NBYTES], Refusal> {
    for_gen!(gen, G => checkpoint_word::<G>(c))
}

/// The typed constructors of `gen`, as `(instruction, function)`.
pub fn constructors(gen: Gen) -> Vec<(&'static str, &'static str)> {
    for_gen!(gen, G => G::CONSTRUCTORS.iter().map(|c| (c.instruction, c.function)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_mariana::arm::{Dve, Pool, RngXorwow, Xorwow};
    use isa_mariana::{
        Dtype, Rand2, RandGetState, RandSetState, StateTensor, Tensor3d, TensorAddress,
    };

    fn rand2(min: f32) -> Call {
        Call {
            method: "rand2",
            instruction: "RAND2",
            function: "new",
            values: vec![
                (
                    "dst",
                    Value::Tensor(Tensor {
                        addr: 0x400,
                        elems: 8,
                    }),
                ),
                ("num_active_channels", Value::Lanes(4)),
                ("dtype", Value::Member("FP32".into())),
                ("min", Value::Number(min)),
                ("max", Value::Number(1.0)),
            ],
        }
    }

    #[test]
    fn draw_constructors_are_the_typed_ones() {
        let typed = Rand2::new(
            Tensor3d::contiguous(TensorAddress::sbuf(0, 0x400).unwrap(), [8, 1, 1]).unwrap(),
            4,
            Dtype::Fp32,
            Immediate::fp32(-1.0),
            Immediate::fp32(1.0),
        );
        assert_eq!(construct(Gen::Mariana, &rand2(-1.0)), Ok(typed.to_bytes()));
        let missing = construct(Gen::Cayman, &rand2(-1.0)).unwrap_err();
        assert!(
            missing.contains("CAYMAN has no RAND2 instruction"),
            "{missing}"
        );
        let mut bad = rand2(-1.0);
        bad.values[2].1 = Value::Member("FP33".into());
        assert_eq!(
            construct(Gen::Mariana, &bad).unwrap_err(),
            "rand2: `fp33` is not a member MARIANA has for `dtype`"
        );
        bad.values[0].1 = Value::Tensor(Tensor { addr: 0, elems: 0 });
        assert!(construct(Gen::Mariana, &bad)
            .unwrap_err()
            .contains("dimension 0 has no elements"));
    }

    #[test]
    fn checkpoint_words_are_the_typed_ones_and_illegal_arms_are_refused() {
        let mut c = Checkpoint {
            kind: CheckpointKind::Restore,
            engine: Engine::Pool,
            generator: Generator::RngXorwow,
            algorithm: Algorithm::Xorwow,
            update: Some(StateUpdate::SrcTensor),
            channels: 128,
            addr: Some(0x100),
            imm: None,
        };
        let typed =
            RandSetState::restore::<Pool, RngXorwow, Xorwow, 6>(StateTensor::sbuf(0, 0x100), 128);
        assert_eq!(checkpoint(Gen::Mariana, &c), Ok(typed.to_bytes()));
        c.algorithm = Algorithm::Lfsr;
        let refused = checkpoint(Gen::Mariana, &c).unwrap_err();
        assert!(
            refused.starts_with("rand_set_state(engine=\"pool\", generator=\"rng-xorwow\", algorithm=\"lfsr\", update=\"src-tensor\") is not a legal RAND_SET_STATE arm on MARIANA"),
            "{refused}"
        );
        assert!(
            refused.contains("(pool, rng-xorwow, xorwow, src-tensor) -> 6 words"),
            "{refused}"
        );
        let save = Checkpoint {
            kind: CheckpointKind::Save,
            engine: Engine::Dve,
            update: None,
            algorithm: Algorithm::Xorwow,
            channels: 4,
            addr: Some(0x1000),
            ..c
        };
        let typed =
            RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(StateTensor::sbuf(0, 0x1000), 4);
        assert_eq!(checkpoint(Gen::Mariana, &save), Ok(typed.to_bytes()));
    }
}
