//! The integration tests of isa-codegen, one module per subject, compiled into one test binary:
//! a binary per file linked bindgen, syn and the generator once each, which was most of the
//! cold build of these tests.

mod common;

mod api_listing;
mod bad_input;
mod code_map;
mod constructors;
mod determinism;
mod draw_family;
mod emit_fixture;
mod features;
mod fixture_api;
mod header_drop;
mod header_trees;
mod model_fixture;
mod operand_spaces;
mod padding;
mod runtime_data;
mod semver_drop;
mod spec_float;
mod spec_fuzz;
mod spec_rejection;
mod vendor_root;
mod vendor_scale;
mod vendor_tree;
