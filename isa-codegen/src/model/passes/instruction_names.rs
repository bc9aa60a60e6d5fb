//! Pass: the names of the typed instructions.
//!
//! Input: the enums, records, shapes and opcodes. Output:
//! [`Model::instruction_names`](crate::model::Model::instruction_names): per opcode the Rust name
//! of its typed instruction (`None` when unmapped), the opcode's own Rust name unless a type of
//! the crate already has it, then with the suffix `Inst`.

use crate::model::Model;
use crate::model::{IdVec, OpcodeId};

/// Suffix of a typed instruction whose name a type of the crate already has.
const CLASH_SUFFIX: &str = "Inst";

/// The typed instruction names of `model`'s opcodes.
pub(super) fn derive(model: &Model) -> IdVec<OpcodeId, Option<String>> {
    let mut taken: Vec<String> = model.enums.iter().map(|e| e.rust.clone()).collect();
    // Operand records are emitted under their shape names, not their record names.
    taken.extend(
        model
            .record_entries()
            .filter(|(k, _)| !model.shapes.iter().any(|s| s.record == *k))
            .map(|(_, r)| r.rust.clone()),
    );
    taken.extend(model.shapes.iter().map(|s| s.rust.clone()));
    taken.extend(["Instruction".to_string(), "Opcode".to_string()]);
    model
        .opcodes
        .iter()
        .map(|o| {
            o.shape?;
            Some(if taken.contains(&o.rust) {
                format!("{}{CLASH_SUFFIX}", o.rust)
            } else {
                o.rust.clone()
            })
        })
        .collect()
}
