//! The protocol roles as trait impls of `mcp-runtime`: `Request` and `Notification`, and for
//! multi round-trip requests `InputRequired`, `InputRequest`, `InputResponse`, `Retry` and
//! `CapabilityErrorResponse`. Each impl is data (associated types, constants, one-line
//! accessors, match tables); the behaviour is written once in `mcp_runtime::mrtr`.

use proc_macro2::TokenStream;
use quote::quote;

use super::construct::members;
use super::tokens::{doc_lines, ty};
use crate::ir::{
    CapabilityRule, InputRole, Kind, Module, NotificationRole, RequestRole, ResponseRole, RustName,
    When,
};

/// Every role's impls.
pub fn emit(module: &Module) -> TokenStream {
    let input = module.input.as_ref();
    let requests = module.requests.iter().map(|r| request(module, r, input));
    let notifications = module.notifications.iter().map(notification);
    let input = input.map(input_role);
    quote! {
        #(#requests)*
        #(#notifications)*
        #input
    }
}

fn request(module: &Module, r: &RequestRole, input: Option<&InputRole>) -> TokenStream {
    let name = &r.ty;
    let method = &r.method;
    let params = ty(&r.params);
    let result = ty(&r.result);
    let may = r.may_require_input.then(|| {
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::MayRequireInput for #name {}
        }
    });
    let retry = r.retry.as_ref().zip(input).map(|(retry, input)| {
        let (id, id_ty, p, responses, state) = (
            &retry.id,
            ty(&retry.id_ty),
            &retry.params,
            &retry.responses,
            &retry.state,
        );
        let (answer, response, state_ty) = (&input.result, &input.response, ty(&input.state_ty));
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::mrtr::Retry for #name {
                type Id = #id_ty;
                type Answer = #answer;
                fn id(&self) -> &#id_ty {
                    &self.#id
                }
                fn with_input(
                    &self,
                    id: #id_ty,
                    responses: ::core::option::Option<::std::collections::BTreeMap<::std::string::String, #response>>,
                    state: ::core::option::Option<#state_ty>,
                ) -> Self {
                    let mut next = ::core::clone::Clone::clone(self);
                    next.#id = id;
                    next.#p.#responses = responses;
                    next.#p.#state = state;
                    next
                }
            }
        }
    });
    let respond = r
        .response
        .as_ref()
        .and_then(|resp| respond(module, name, resp));
    let reply = r.reply.as_ref().map(|reply| {
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::HasReply for #name {
                type Reply = #reply;
            }
        }
    });
    quote! {
        impl #name {
            /// The JSON-RPC method name.
            pub const METHOD: &'static str = #method;
        }
        #respond
        #reply

        #[automatically_derived]
        impl ::mcp_runtime::Request for #name {
            const METHOD: &'static str = #method;
            type Params = #params;
            type Result = #result;
        }
        #may
        #retry
    }
}

/// `Respond`: the response as a struct literal, its id the request's, its result given.
fn respond(module: &Module, request: &RustName, resp: &ResponseRole) -> Option<TokenStream> {
    let Kind::Struct(s) = &module.types.get(&resp.ty)?.kind else {
        return None;
    };
    let (ty, request_id, result) = (&resp.ty, &resp.request_id, ty(&resp.result));
    let members = members(s, |f| {
        if f.rust == resp.id {
            Some(quote!(::core::clone::Clone::clone(&self.#request_id)))
        } else if f.rust == resp.result_field {
            Some(quote!(::core::convert::Into::into(result)))
        } else {
            None
        }
    });
    Some(quote! {
        #[automatically_derived]
        impl ::mcp_runtime::Respond for #request {
            type Response = #ty;
            fn respond(&self, result: impl ::core::convert::Into<#result>) -> #ty {
                #ty { #members }
            }
        }
    })
}

fn notification(n: &NotificationRole) -> TokenStream {
    let name = &n.ty;
    let method = &n.method;
    let params = ty(&n.params);
    quote! {
        impl #name {
            /// The JSON-RPC method name.
            pub const METHOD: &'static str = #method;
        }

        #[automatically_derived]
        impl ::mcp_runtime::Notification for #name {
            const METHOD: &'static str = #method;
            type Params = #params;
        }
    }
}

fn input_role(input: &InputRole) -> TokenStream {
    let InputRole {
        result,
        requests_field,
        state_field,
        request,
        response,
        capabilities,
        rules_name,
        builder_name,
        ..
    } = input;
    let state_ty = ty(&input.state_ty);
    let rules = rules_table(input);
    let methods = input.kinds.iter().map(|k| {
        let (v, m) = (&k.variant, &k.method);
        quote!(#request::#v(_) => #m)
    });
    let expected = input.kinds.iter().map(|k| {
        let v = &k.variant;
        match &k.answer {
            Some(t) => {
                let t = t.unraw();
                quote!(#request::#v(_) => ::core::option::Option::Some(#t))
            }
            None => quote!(#request::#v(_) => ::core::option::Option::None),
        }
    });
    let type_names = input.responses.iter().map(|(v, t)| {
        let t = t.unraw();
        quote!(#response::#v(_) => #t)
    });
    let capability_error = input.capability_error.as_ref().map(|(name, id)| {
        let id = ty(id);
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::mrtr::CapabilityErrorResponse for #name {
                type Id = #id;
            }
        }
    });
    let builder_doc = doc_lines(&input.builder_docs);
    quote! {
        #rules

        #builder_doc
        pub type #builder_name = ::mcp_runtime::mrtr::InputRequestsBuilder<#result>;

        #[automatically_derived]
        impl ::mcp_runtime::mrtr::InputRequired for #result {
            type Request = #request;
            type Response = #response;
            type Capabilities = #capabilities;
            type State = #state_ty;
            const RULES: &'static [::mcp_runtime::capability::Rule] = #rules_name;
            fn input_requests(&self) -> ::core::option::Option<&::std::collections::BTreeMap<::std::string::String, #request>> {
                self.#requests_field.as_ref()
            }
            fn request_state(&self) -> ::core::option::Option<&#state_ty> {
                self.#state_field.as_ref()
            }
        }

        #[automatically_derived]
        impl ::mcp_runtime::mrtr::InputRequest for #request {
            fn method(&self) -> &'static str {
                match self { #(#methods,)* }
            }
            fn expected_response(&self) -> ::core::option::Option<&'static str> {
                match self { #(#expected,)* }
            }
        }

        #[automatically_derived]
        impl ::mcp_runtime::mrtr::InputResponse for #response {
            fn type_name(&self) -> &'static str {
                match self { #(#type_names,)* }
            }
        }

        #capability_error
    }
}

/// The capability rules as a constant, each rule's reason in its docs.
fn rules_table(input: &InputRole) -> TokenStream {
    let name = &input.rules_name;
    let entries = input.rules.iter().map(rule);
    let docs = doc_lines(&input.rules_docs);
    quote! {
        #docs
        pub const #name: &[::mcp_runtime::capability::Rule] = &[#(#entries),*];
    }
}

fn rule(r: &CapabilityRule) -> TokenStream {
    let (method, needs) = (&r.method, &r.needs);
    let or_empty = match &r.or_empty {
        Some(e) => quote!(::core::option::Option::Some(#e)),
        None => quote!(::core::option::Option::None),
    };
    let level = if r.should {
        quote!(::mcp_runtime::capability::Level::Should)
    } else {
        quote!(::mcp_runtime::capability::Level::Must)
    };
    let when = match &r.when {
        When::Always => quote!(::mcp_runtime::capability::When::Always),
        When::OneOf(pointer, values) => {
            let values = values.iter().map(|v| match v {
                Some(v) => quote!(::core::option::Option::Some(#v)),
                None => quote!(::core::option::Option::None),
            });
            quote!(::mcp_runtime::capability::When::OneOf { pointer: #pointer, values: &[#(#values),*] })
        }
        When::AnyPresent(pointers) => {
            quote!(::mcp_runtime::capability::When::AnyPresent(&[#(#pointers),*]))
        }
    };
    quote! {
        ::mcp_runtime::capability::Rule { method: #method, when: #when, needs: #needs, or_empty: #or_empty, level: #level }
    }
}
