//! Derive macros for MCP protocol types. Use them through `mcp_runtime`, which re-exports them
//! and holds what the generated code calls.

mod ast;
mod attr;
mod check;
mod delegate;
mod errors;
mod fallback;
mod object;
mod outcome;
mod tagged;
mod union;

use ast::{Container, Derive, Kind};
use errors::Errors;
use proc_macro::TokenStream;
use quote::quote;
use syn::{DeriveInput, parse_macro_input};

#[proc_macro_derive(McpObject, attributes(mcp))]
pub fn derive_mcp_object(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Object).into()
}

#[proc_macro_derive(McpResult, attributes(mcp))]
pub fn derive_mcp_result(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Result).into()
}

#[proc_macro_derive(McpUnion, attributes(mcp))]
pub fn derive_mcp_union(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Union).into()
}

/// Parse, check, expand; on error, the errors and the fallback impls.
fn expand(input: &DeriveInput, derive: Derive) -> proc_macro2::TokenStream {
    let errors = Errors::new();
    let cont = Container::from_ast(&errors, input, derive);
    check::check(&errors, &cont);
    let body = match errors.finish() {
        Ok(()) => match cont.kind {
            Kind::Object | Kind::ResultStruct => object::expand(&cont),
            Kind::ResultEnum => outcome::expand(&cont),
            Kind::Union => union::expand(&cont),
        },
        Err(e) => {
            let mut tokens = e.to_compile_error();
            tokens.extend(wrap(fallback::fallback(&cont)));
            return tokens;
        }
    };
    wrap(body)
}

/// Puts the generated items in an anonymous constant, so that their helper names stay private.
fn wrap(items: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications)]
        const _: () = {
            #items
        };
    }
}
