//! Emission: IR to Rust tokens. A pure stage: it reads the [`Module`] and the output options
//! and nothing else, and knows no word of the protocol (every member name, method and value it
//! writes comes from the IR). The (de)serialization logic lives in the derives of
//! `mcp-runtime`, the protocol behaviour in its generic functions; this stage writes
//! declarations, derive attributes and trait impls.

mod construct;
pub mod eras;
mod items;
mod prose;
mod roles;
mod tokens;

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Module, RustName};
use crate::names::PRELUDE_CLASHES;
use tokens::doc_lines;

/// Switches that change what is emitted.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Also derive `schemars::JsonSchema`.
    pub json_schema: bool,
}

/// Emits the whole module: its items, the protocol roles' trait impls, and the prelude.
pub fn emit(module: &Module, options: &EmitOptions) -> TokenStream {
    emit_without(module, options, &BTreeSet::new())
}

/// [`emit`] but for the items of the types `left_out` (with two revisions: those the other
/// revision's module defines and this one re-exports; see [`eras`]).
fn emit_without(
    module: &Module,
    options: &EmitOptions,
    left_out: &BTreeSet<RustName>,
) -> TokenStream {
    let items = items::emit(module, options, left_out);
    let roles = roles::emit(module);
    let prelude = prelude(module);
    let overview = overview(module);
    quote! {
        #overview
        #items
        #roles
        #prelude
    }
}

/// `pub mod overview`, a module of docs only: the IR's overview (none when it is empty, or a
/// type takes the name).
fn overview(module: &Module) -> TokenStream {
    let name = RustName::field("overview");
    if module.overview.is_empty() || module.types.contains_key(&name) {
        return TokenStream::new();
    }
    let docs = doc_lines(&module.overview);
    quote! {
        #docs
        pub mod #name {}
    }
}

/// `pub mod prelude`: every generated type whose name does not clash with the Rust prelude,
/// and the runtime's traits, for `use mcp::prelude::*;`. Left out when a type takes its name.
fn prelude(module: &Module) -> TokenStream {
    let name = RustName::field("prelude");
    if module.types.contains_key(&name) {
        return TokenStream::new();
    }
    let mut types: Vec<&RustName> = module
        .types
        .keys()
        .chain(module.extensions.iter().map(|e| &e.ty))
        .filter(|n| !PRELUDE_CLASHES.contains(&n.unraw()))
        .collect();
    types.sort();
    let left_out: Vec<String> = module
        .types
        .keys()
        .filter(|n| PRELUDE_CLASHES.contains(&n.unraw()))
        .map(|n| format!("`{}`", n.unraw()))
        .collect();
    let doc = if left_out.is_empty() {
        " The generated types and the runtime's traits, for a glob import.".to_owned()
    } else {
        format!(
            " The generated types and the runtime's traits, for a glob import; left out, so as not to shadow the Rust prelude: {} (name them through the module).",
            left_out.join(", ")
        )
    };
    quote! {
        #[doc = #doc]
        // In a binary crate the re-exports a program does not use are unused imports.
        #[allow(unused_imports)]
        pub mod #name {
            pub use super::{#(#types),*};
            pub use ::mcp_runtime::prelude::*;
        }
    }
}
