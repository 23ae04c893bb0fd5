//! The service trait of a module's [`ServiceRole`]: one method per request a server answers,
//! each returning the request's result or a JSON-RPC error (by default the method is not
//! found), and the function that dispatches a request of the union to its method and turns the
//! method's return into the request's answer (`mcp_runtime::service`). The transport is the
//! caller's: the trait is generic over the context a transport hands each method.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::{Docs, doc_lines, ty};
use crate::model::ir::{Module, ServiceMethod, ServiceRole, Ty};

/// The trait and its dispatching function, if the module has a service.
pub fn emit(module: &Module) -> TokenStream {
    let Some(service) = &module.service else {
        return TokenStream::new();
    };
    let docs = Docs::new(module);
    let trait_item = service_trait(service, &docs);
    let dispatch = dispatch(service);
    let (revision_const, revision) = (&service.revision_const, &service.revision);
    let revision_doc = doc_lines(&format!(
        "The revision whose requests [`{}`] answers.",
        service.name.unraw()
    ));
    quote! {
        #revision_doc
        pub const #revision_const: &str = #revision;
        #trait_item
        #dispatch
    }
}

fn service_trait(service: &ServiceRole, docs: &Docs<'_>) -> TokenStream {
    let name = &service.name;
    let union = &service.requests;
    let text = format!(
        "The requests a server answers, one method each: implement those you serve, the \
         others answer that the method is not found (`-32601`). `C` is the context the \
         transport hands each call (who asks, the request's `_meta`, how to notify).\n\n\
         [`{}`] dispatches a [`{union}`] to its method.",
        service.dispatch.unraw()
    );
    let doc = doc_lines(&text);
    let methods = service.methods.iter().map(|m| method(m, docs));
    let unit_doc = doc_lines("A server with no method of its own: every request is not found.");
    quote! {
        #doc
        pub trait #name<C: ::core::marker::Send + 'static>:
            ::core::marker::Send + ::core::marker::Sync + 'static
        {
            #(#methods)*
        }

        #unit_doc
        impl<C: ::core::marker::Send + 'static> #name<C> for () {}
    }
}

fn method(m: &ServiceMethod, docs: &Docs<'_>) -> TokenStream {
    let (name, request) = (&m.name, &m.request);
    let params = ty(&m.params);
    let described = docs.rustdoc(docs.description_of(request));
    let text = format!(
        "`{}` ([`{}`]): {described}\n\nBy default the method is not found.",
        m.method,
        request.unraw()
    );
    let doc = doc_lines(text.trim_end());
    quote! {
        #doc
        fn #name(
            &self,
            ctx: C,
            params: &#params,
        ) -> impl ::core::future::Future<Output = ::mcp_runtime::Response<#request>>
               + ::core::marker::Send {
            let _ = (ctx, params);
            ::core::future::ready(::mcp_runtime::service::not_served::<#request>())
        }
    }
}

fn dispatch(service: &ServiceRole) -> TokenStream {
    let (name, trait_name, union) = (&service.dispatch, &service.name, &service.requests);
    let text = format!(
        "Answers `request` with the method of `server` that serves it (see [`{}`]).",
        trait_name.unraw()
    );
    let doc = doc_lines(&text);
    let arms = service.methods.iter().map(|m| {
        let (method, variant, request) = (&m.name, &m.variant, &m.request);
        let params = match m.params {
            Ty::Unit => quote!(&()),
            _ => quote!(&request.params),
        };
        quote! {
            #union::#variant(request) => {
                let response = server.#method(ctx, #params).await;
                ::mcp_runtime::service::answer::<#request>(&request, response)
            }
        }
    });
    let unanswered = service.unanswered.iter().map(|(variant, method)| {
        quote! {
            #union::#variant(_) => ::core::result::Result::Err(
                ::mcp_runtime::RpcError::method_not_found(#method),
            ),
        }
    });
    quote! {
        #doc
        pub async fn #name<S, C>(server: &S, ctx: C, request: #union) -> ::mcp_runtime::service::Answer
        where
            S: #trait_name<C> + ?::core::marker::Sized,
            C: ::core::marker::Send + 'static,
        {
            match request {
                #(#arms)*
                #(#unanswered)*
            }
        }
    }
}
