//! `mcp_runtime::Wire` for the types the IR lists in `precompiled`: a reader that is not
//! generic, so it is compiled with the module.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::ir::{Module, RustName};

/// The `Wire` impls of the module's precompiled types, but those `left_out`.
pub fn emit(module: &Module, left_out: &BTreeSet<RustName>) -> TokenStream {
    let impls = module
        .precompiled
        .iter()
        .filter(|name| !left_out.contains(*name))
        .map(wire);
    quote!(#(#impls)*)
}

/// One type's impl.
fn wire(name: &RustName) -> TokenStream {
    quote! {
        impl ::mcp_runtime::Wire for #name {
            fn from_json_slice(json: &[u8]) -> ::serde_json::Result<Self> {
                ::mcp_runtime::wire::read(json)
            }
        }
    }
}
