//! The client trait of a module's [`ClientRole`]: what each request's call ends with
//! (`mcp_runtime::client::Call`), and one method per request that hands its params to the
//! caller (`mcp_runtime::client::Calls`), implemented for every caller. The transport is the
//! caller's.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::{Docs, doc_lines, ty};
use crate::model::ir::{ClientMethod, ClientRole, Module, Ty};

/// The `Call` impls, the trait and its impl for every caller, if the module has a client.
pub fn emit(module: &Module) -> TokenStream {
    let Some(client) = &module.client else {
        return TokenStream::new();
    };
    let docs = Docs::new(module);
    let calls = client.methods.iter().map(call_impl);
    let trait_item = client_trait(client, &docs);
    quote! {
        #(#calls)*
        #trait_item
    }
}

/// The prelude's line for the trait: its methods in scope, its name not.
pub fn prelude_line(module: &Module) -> TokenStream {
    match &module.client {
        Some(client) => {
            let name = &client.name;
            quote!(pub use super::#name as _;)
        }
        None => TokenStream::new(),
    }
}

fn call_impl(m: &ClientMethod) -> TokenStream {
    let (request, done) = (&m.request, ty(&m.done));
    quote! {
        impl ::mcp_runtime::client::Call for #request {
            type Done = #done;
        }
    }
}

fn client_trait(client: &ClientRole, docs: &Docs<'_>) -> TokenStream {
    let name = &client.name;
    let doc = doc_lines(
        "The requests a client sends, one method each: a method hands its params to the \
         caller (`mcp_runtime::client::Calls`, which `mcp_client::Client` implements) and \
         ends with the request's complete result, once the caller has given the server any \
         input it asked for first. A method is callable where the caller sends its request.",
    );
    let methods = client.methods.iter().map(|m| method(m, docs));
    let impl_doc = doc_lines("Every caller has the methods.");
    quote! {
        #doc
        pub trait #name: ::mcp_runtime::client::Caller {
            #(#methods)*
        }

        #impl_doc
        impl<T: ::mcp_runtime::client::Caller + ?::core::marker::Sized> #name for T {}
    }
}

fn method(m: &ClientMethod, docs: &Docs<'_>) -> TokenStream {
    let (name, request, done) = (&m.name, &m.request, ty(&m.done));
    let described = docs.rustdoc(docs.description_of(request));
    let text = format!("Sends [`{}`]: {described}", request.unraw());
    let doc = doc_lines(text.trim_end());
    let (param, arg) = match &m.params {
        Ty::Unit => (TokenStream::new(), quote!(())),
        params => {
            let params = ty(params);
            (quote!(params: #params), quote!(params))
        }
    };
    quote! {
        #doc
        fn #name(
            &mut self,
            #param
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<#done, <Self as ::mcp_runtime::client::Caller>::Error>,
        >
        where
            Self: ::mcp_runtime::client::Calls<#request>,
        {
            ::mcp_runtime::client::Calls::<#request>::call(self, #arg)
        }
    }
}
