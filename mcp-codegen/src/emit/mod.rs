//! Emission: IR to Rust tokens. A pure stage: it reads the [`Module`] and the output options
//! and nothing else. Every word of the schema it writes (member names, methods, values)
//! comes from the IR; what it knows of its own is the vocabulary of `mcp-runtime`, the traits
//! and paths the generated code implements and calls (`emit/trait_impls.rs` writes
//! `mcp_runtime::Request`, `mcp_runtime::mrtr::Retry`, the extension traits). The
//! (de)serialization logic lives in the derives of `mcp-runtime`, the protocol behaviour in its
//! generic functions; this stage writes declarations, derive attributes and trait impls.

mod client;
mod construct;
mod items;
pub mod minimal;
mod prose;
pub mod revisions;
mod service;
mod table;
mod tokens;
mod trait_impls;
mod wire;

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::ir::{Kind, Module, RustName, Ty};
use crate::model::names::PRELUDE_CLASHES;
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
/// revision's module defines and this one re-exports; see [`revisions`]).
fn emit_without(
    module: &Module,
    options: &EmitOptions,
    left_out: &BTreeSet<RustName>,
) -> TokenStream {
    let items = items::emit(module, options, left_out);
    let roles = trait_impls::emit(module, left_out);
    let wire = wire::emit(module, left_out);
    let prelude = prelude(module);
    let overview = overview(module);
    let raw_json = raw_json_check(module);
    let service = service::emit(module);
    let client = client::emit(module);
    quote! {
        #overview
        #raw_json
        #items
        #roles
        #wire
        #service
        #client
        #prelude
    }
}

/// The runtime's check that its `raw_json` feature is on, where a member is raw JSON text:
/// without the feature the build stops with one error that names it, before any about the
/// missing `RawJson` type.
fn raw_json_check(module: &Module) -> TokenStream {
    let raw = module.types.values().any(|def| match &def.kind {
        Kind::Struct(s) => s.fields.iter().any(|f| holds_raw(&f.ty)),
        Kind::Union(u) => u.variants.iter().any(|v| holds_raw(&v.ty)),
        Kind::Alias(ty) => holds_raw(ty),
        Kind::StringEnum(_) | Kind::Results(_) => false,
    });
    if raw {
        quote!(::mcp_runtime::__require_raw_json!();)
    } else {
        TokenStream::new()
    }
}

/// Whether `ty` is or contains the raw JSON type.
fn holds_raw(ty: &Ty) -> bool {
    match ty {
        Ty::Raw => true,
        Ty::Vec(t) | Ty::Map(t) | Ty::Boxed(t) => holds_raw(t),
        _ => false,
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
        .chain(module.markers.extensions.iter().map(|e| &e.ty))
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
    let client = client::prelude_line(module);
    let renamed: Vec<&RustName> = module.roles.renamed.iter().map(|r| &r.old).collect();
    let renamed = (!renamed.is_empty()).then(|| {
        quote! {
            #[allow(deprecated)]
            pub use super::{#(#renamed),*};
        }
    });
    quote! {
        #[doc = #doc]
        // In a binary crate the re-exports a program does not use are unused imports.
        #[allow(unused_imports)]
        pub mod #name {
            pub use super::{#(#types),*};
            #renamed
            pub use ::mcp_runtime::prelude::*;
            #client
        }
    }
}
