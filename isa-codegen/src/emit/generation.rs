//! The `generation` module: the generation's marker type and identity.

use super::{banner, ident, render};
use crate::model::Model;
use quote::quote;

pub fn emit(model: &Model) -> String {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let name = &model.generation;
    let nc = super::lit(i128::from(model.nc_version));
    let fp = model.fingerprint.tree_hex();
    let doc = format!(
        " Marker type of the {name} generation (NeuronCore v{}).",
        model.nc_version
    );
    let tokens = quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct #marker;
        /// Name, NeuronCore version and the fingerprint of the header tree this crate was generated from.
        pub const GENERATION: isa_core::GenerationInfo = isa_core::GenerationInfo {
            name: #name,
            nc_version: #nc,
            fingerprint: #fp,
        };
        impl #marker {
            /// Name, NeuronCore version and header-tree fingerprint.
            pub const INFO: isa_core::GenerationInfo = GENERATION;
        }
    };
    render(&banner(model, "the generation's identity."), tokens)
}
