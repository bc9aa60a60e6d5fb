//! Builds a [`Model`] from a [`TreeInput`]: one pass per fact, run in order by [`build`].
//!
//! The passes of this module make the model's declarations (names, enums, records with their
//! layouts checked against clang's, typedefs, constants, opcodes, the operand structs bound by
//! the mapping, the opcode field) and find the validators; the derived analyses each have a
//! module of the model of their own ([`super::spec`], [`super::placement`], [`super::legality`],
//! [`super::runtime`], [`super::construct`]). Each pass states its inputs and outputs; every
//! problem is collected with its location, and the build stops after the declarations and after
//! the spec when there are any, so the later passes see a consistent model.

mod constants;
mod decls;
mod enums;
mod instruction_names;
mod locate;
mod opcode_field;
mod opcodes;
mod records;
mod shapes;
mod typedefs;
mod types;
mod unused_specs;
mod validators;

use super::Model;
use crate::diag::{Error, Sink};
use crate::read::TreeInput;
use crate::vendor::{COMMON_HEADER, NEURON_CORE_VERSION, NEURON_ENGINE, OPCODE_ENUM};

/// Builds the model of one tree; all problems are reported together.
pub fn build(input: &TreeInput) -> Result<Model, Error> {
    let mut sink = Sink::default();
    let mut model = declarations(input, &mut sink);
    if !sink.is_empty() {
        return sink.finish(&input.tree_name, model);
    }
    model.instruction_names = instruction_names::derive(&model);
    model.address_forms = super::address::derive(&model);
    let (specs, dropped) =
        super::spec::resolve(&model, &input.specs, &input.spec_unparsed, &mut sink);
    super::spec::check_depth(&specs, &mut sink);
    model.specs = specs;
    model.spec_dropped = dropped;
    if !sink.is_empty() {
        return sink.finish(&input.tree_name, model);
    }
    let found = validators::find(&model, input.debug_switch.as_deref(), &mut sink);
    model.validators = found.validators;
    model.unvalidated = found.unvalidated;
    model.notes = unused_specs::check(&model, input, &found.dropped, &mut sink);
    model.operand_spaces = super::address::operand_spaces(&model);
    model.placement = super::placement::derive(&model, &input.c_functions, &mut sink);
    model.tables = super::legality::derive(&model, &model.specs, &model.validators, &mut sink);
    if let Some(rt) = &input.runtime {
        model.runtime = Some(super::runtime::resolve(&model, rt, &mut sink));
    }
    model.constructions = super::construct::derive(&model);
    model.warnings = input.warnings.clone();
    model.warnings.append(&mut sink.take_warnings());
    crate::diag::normalize(&mut model.warnings);
    sink.finish(&input.tree_name, model)
}

/// The declaration passes: the model up to the opcode field, its derived facts still empty.
fn declarations(input: &TreeInput, sink: &mut Sink) -> Model {
    let locator = locate::Locator::new(&input.headers);
    let (typedef_table, mut untranslated) = decls::collect(input, &locator, sink);
    let enums = enums::build(input, &locator, sink);
    let record_decls = records::declarations(input);
    let types = types::TypeResolver::new(&enums, &record_decls, &typedef_table);
    let records = records::build(&record_decls, &types, &enums, &locator, sink);
    let typedefs = typedefs::build(&typedef_table, &types, &locator, &mut untranslated);
    let constants = constants::build(input, &locator);
    let nc_version = constants::nc_version(input, sink);
    let inst_nbytes = constants::inst_nbytes(&constants, &locator, sink);
    let Some(opcode_enum) = types.enum_id(OPCODE_ENUM) else {
        sink.push(
            locator.end_of(COMMON_HEADER),
            format!("missing enum {OPCODE_ENUM}"),
        );
        return Model::default();
    };
    let mut opcodes = opcodes::build(&enums[opcode_enum], sink);
    let binding = shapes::Binding {
        records: &records,
        types: &types,
        enums: &enums,
        inst_nbytes,
    };
    let shapes = shapes::bind(&input.mapping, &binding, &mut opcodes, sink);
    let opcode_field = opcode_field::find(&records, &shapes, opcode_enum, sink);
    Model {
        tree_name: input.tree_name.clone(),
        generation: input.generation.clone(),
        nc_version,
        fingerprint: input.fingerprint.clone(),
        headers: input.headers.iter().map(|h| h.rel.clone()).collect(),
        engine_enum: types.enum_id(NEURON_ENGINE),
        version_enum: types.enum_id(NEURON_CORE_VERSION),
        inst_union: types.record_id(crate::vendor::INST_UNION),
        enums,
        records,
        typedefs,
        constants,
        opcode_enum,
        opcodes,
        shapes,
        opcode_field,
        inst_nbytes,
        untranslated,
        ..Model::default()
    }
}
