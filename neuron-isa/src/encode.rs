//! `encode`: builds a checkpoint instruction and encodes it with the generation's
//! `encode_checkpoint`, or an instruction of the draw family through the generation's typed
//! constructors ([`crate::draw`]). Neither validates.

use crate::cli::EncodeInst;
use crate::fail::Failure;
use crate::matrix::ArmKey;
use isa_core::construct::Construct;
use isa_core::Isa;
use rng_core::machine::{restore_instruction, save_instruction};
use rng_core::{
    CheckpointArm, CheckpointInstruction, CheckpointKind, Generation, StateLocation, StateUpdate,
};

/// The instruction `inst` describes for generation `G`.
pub fn instruction<G: Isa + Generation>(
    inst: &EncodeInst,
) -> Result<CheckpointInstruction, Failure> {
    let (kind, a, update) = match inst {
        EncodeInst::RandSetState { arm, update, .. } => {
            (CheckpointKind::Restore, arm, Some(*update))
        }
        EncodeInst::RandGetState { arm, .. } => (CheckpointKind::Save, arm, None),
        EncodeInst::Draw(_) => {
            return Err(Failure::usage(
                "encode: a draw instruction has no checkpoint form",
            ))
        }
    };
    let key = ArmKey {
        kind,
        engine: a.engine,
        generator: a.generator,
        algorithm: a.algorithm,
        update,
    };
    let words = match (a.words, key.find::<G>()) {
        (Some(w), _) => w,
        (None, Some(arm)) => u16::from(arm.words),
        (None, None) => {
            return Err(Failure::usage(format!(
                "encode: {} is not a legal arm of {}, so there is no default width; give --words N",
                key.describe(),
                G::INFO.name
            )));
        }
    };
    // The shape conventions (contiguous, unit strides, rank 1 / rank 4) are rng-core's;
    // the width goes in afterwards so that any u16 can be encoded.
    let arm = CheckpointArm {
        engine: a.engine,
        generator: a.generator,
        algorithm: a.algorithm,
        update,
        words: 0,
        evidence: None,
    };
    let mut out = match inst {
        EncodeInst::RandSetState {
            update, src, imm, ..
        } => {
            let immediate = *update != StateUpdate::SrcTensor;
            if !immediate && imm.is_some() {
                return Err(Failure::usage(
                    "encode rand-set-state: --imm goes with --update imm-single or imm-lane",
                ));
            }
            let src =
                match (src, immediate) {
                    (Some(s), _) => *s,
                    (None, true) => 0,
                    (None, false) => return Err(Failure::usage(
                        "encode rand-set-state: --src ADDR is required with --update src-tensor",
                    )),
                };
            let mut c = restore_instruction::<G>(&arm, a.channels, src, imm.unwrap_or([0; 8]));
            if immediate {
                // restore_instruction makes the immediate form only for IMM_SINGLE.
                if let StateLocation::Tensor(tensor) = c.location {
                    c.location = StateLocation::Immediate {
                        tensor,
                        words: imm.unwrap_or([0; 8]),
                    };
                }
            }
            c
        }
        EncodeInst::RandGetState { dst, .. } => save_instruction::<G>(&arm, a.channels, *dst),
        EncodeInst::Draw(_) => {
            return Err(Failure::usage(
                "encode: a draw instruction has no checkpoint form",
            ))
        }
    };
    match &mut out.location {
        StateLocation::Tensor(t) | StateLocation::Immediate { tensor: t, .. } => {
            t.num_elem[0] = words
        }
    }
    Ok(out)
}

/// The encoded word.
pub fn encode<G: Isa + Generation + Construct>(inst: &EncodeInst) -> Result<[u8; 64], Failure> {
    if let EncodeInst::Draw(draw) = inst {
        return crate::draw::encode::<G>(draw);
    }
    let c = instruction::<G>(inst)?;
    G::encode_checkpoint(&c)
        .map_err(|e| Failure::usage(format!("encode: {} cannot encode it: {e}", G::INFO.name)))
}
