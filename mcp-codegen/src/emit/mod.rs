//! Emission: IR to Rust tokens. A pure stage: it reads the [`Module`] and the output options
//! and nothing else, and knows no word of the protocol (every member name, method and value it
//! writes comes from the IR). The (de)serialization logic lives in the derives of
//! `mcp-runtime`, the protocol behaviour in its generic functions; this stage writes
//! declarations, derive attributes and trait impls.

mod items;
mod roles;
mod tokens;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::Module;

/// Switches that change what is emitted.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Also derive `schemars::JsonSchema`.
    pub json_schema: bool,
}

/// Emits the whole module: its items, then the protocol roles' trait impls.
pub fn emit(module: &Module, options: &EmitOptions) -> TokenStream {
    let items = items::emit(module, options);
    let roles = roles::emit(module);
    quote! {
        #items
        #roles
    }
}
