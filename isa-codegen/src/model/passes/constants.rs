//! Pass: the constants, the core version and the instruction size.
//!
//! Input: bindgen's constants (`static const` and numeric `#define`) and the common header's
//! banner. Output: [`Model::constants`](crate::model::Model::constants) in file order,
//! [`Model::nc_version`](crate::model::Model::nc_version) and
//! [`Model::inst_nbytes`](crate::model::Model::inst_nbytes); a banner without a version and a
//! tree without `NEURON_ISA_TPB_INST_NBYTES` are errors.

use super::locate::Locator;
use crate::diag::Sink;
use crate::model::names::short;
use crate::model::Constant;
use crate::read::cdecl::CDecl;
use crate::read::source::banner_nc_version;
use crate::read::TreeInput;
use crate::vendor::{COMMON_HEADER, INST_NBYTES};

/// Every constant of the tree.
pub(super) fn build(input: &TreeInput, locator: &Locator<'_>) -> Vec<Constant> {
    let mut constants = Vec::new();
    for file in &input.decls {
        for decl in &file.decls {
            if let CDecl::Const {
                name,
                ty,
                value,
                doc,
            } = decl
            {
                constants.push(Constant {
                    c_name: name.clone(),
                    short: short(name).to_string(),
                    ty: *ty,
                    value: *value,
                    doc: doc.clone(),
                    loc: locator.decl(&file.file, name),
                });
            }
        }
    }
    constants
}

/// The NeuronCore version of the common header's banner (0 without the header).
pub(super) fn nc_version(input: &TreeInput, sink: &mut Sink) -> u8 {
    match input.headers.iter().find(|h| h.rel == COMMON_HEADER) {
        Some(common) => match banner_nc_version(common) {
            Ok(v) => v,
            Err(d) => {
                sink.push(d.loc, d.message);
                0
            }
        },
        None => 0,
    }
}

/// The size every operand struct has.
pub(super) fn inst_nbytes(constants: &[Constant], locator: &Locator, sink: &mut Sink) -> u64 {
    match constants.iter().find(|c| c.c_name == INST_NBYTES) {
        Some(c) => c.value as u64,
        None => {
            sink.push(
                locator.end_of(COMMON_HEADER),
                format!("missing constant {INST_NBYTES} (the instruction size)"),
            );
            64
        }
    }
}
