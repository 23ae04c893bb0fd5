//! The protocol roles as trait impls of `mcp-runtime`: `Request` and `Notification`, and for
//! multi round-trip requests `InputRequired`, `InputRequest`, `InputResponse`, `Retry` and
//! `CapabilityErrorResponse`. Each impl is data (associated types, constants, one-line
//! accessors, match tables); the behaviour is written once in `mcp_runtime::mrtr`.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::construct::members;
use super::tokens::{doc_lines, ty};
use crate::model::ir::{
    CapabilityErrorBuild, CapabilityRule, ErrorBuild, ExtensionCapabilitiesRole, ExtensionRole,
    InputRole, Kind, Literal, Module, NotificationRole, ObjectSchemaRole, Part, Renamed,
    RequestRole, ResponseRole, RustName, Slot, Step, When,
};

/// Every role's impls, but for the types `left_out` (defined, with their impls, in the other
/// revision's module).
pub fn emit(module: &Module, left_out: &BTreeSet<RustName>) -> TokenStream {
    let input = module.roles.input.as_ref();
    let requests = module
        .roles
        .requests
        .iter()
        .map(|r| request(module, r, input));
    let notifications = module.roles.notifications.iter().map(notification);
    let input = input.map(|i| input_role(module, i));
    let error_response = module
        .roles
        .error_response
        .as_ref()
        .filter(|b| !left_out.contains(&b.build.ty))
        .map(|b| error_response(module, b));
    let object_schemas = module
        .roles
        .object_schemas
        .iter()
        .map(|o| object_schema(module, o));
    let renamed = module.roles.renamed.iter().map(renamed);
    let extensions = module.markers.extensions.iter().map(extension);
    let extension_capabilities = module
        .markers
        .capabilities
        .iter()
        .map(extension_capabilities);
    quote! {
        #(#requests)*
        #(#notifications)*
        #input
        #error_response
        #(#object_schemas)*
        #(#renamed)*
        #(#extensions)*
        #(#extension_capabilities)*
    }
}

/// An earlier name of a type, as a deprecated alias of it.
fn renamed(r: &Renamed) -> TokenStream {
    let (old, new, note) = (&r.old, &r.new, &r.note);
    let doc = format!(" The earlier name of [`{}`].", new.unraw());
    quote! {
        #[doc = #doc]
        #[deprecated(note = #note)]
        pub type #old = #new;
    }
}

/// An extension's marker type and its impls: the extension, its results, the requests it
/// extends.
fn extension(e: &ExtensionRole) -> TokenStream {
    let (name, id) = (&e.ty, &e.id);
    let docs = doc_lines(&e.docs);
    let values = e.results.iter().map(|(_, v)| v);
    let results = e.results.iter().map(|(ty, _)| {
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::extension::ExtensionResult for #ty {
                type Extension = #name;
            }
        }
    });
    let supported = e.supported.iter().map(|request| {
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::extension::Supports<#name> for #request {}
        }
    });
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct #name;

        #[automatically_derived]
        impl ::mcp_runtime::extension::Extension for #name {
            const ID: &'static str = #id;
            const RESULT_TYPES: &'static [&'static str] = &[#(#values),*];
        }
        #(#results)*
        #(#supported)*
    }
}

/// Where capabilities (the client's, or the server's) declare extensions.
fn extension_capabilities(c: &ExtensionCapabilitiesRole) -> TokenStream {
    let (name, field, settings) = (&c.ty, &c.field, ty(&c.settings));
    quote! {
        #[automatically_derived]
        impl ::mcp_runtime::extension::ExtensionCapabilities for #name {
            type Settings = #settings;
            fn extensions(
                &self,
            ) -> ::core::option::Option<&::std::collections::BTreeMap<::std::string::String, #settings>> {
                ::core::option::Option::as_ref(&self.#field)
            }
            fn extensions_mut(
                &mut self,
            ) -> &mut ::std::collections::BTreeMap<::std::string::String, #settings> {
                ::core::option::Option::get_or_insert_default(&mut self.#field)
            }
        }
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
        let refuse = refuse(module, name, r, reply);
        quote! {
            #[automatically_derived]
            impl ::mcp_runtime::HasReply for #name {
                type Reply = #reply;
            }
            #refuse
        }
    });
    let mcp_name = r.mcp_name.as_ref().map(|n| {
        let (member, params, field) = (&n.member, &n.params, &n.field);
        let doc = format!(" `{member}`: its `Mcp-Name` header mirrors `params.{member}`.");
        quote! {
            #[doc = #doc]
            const MCP_NAME: ::core::option::Option<&'static str> =
                ::core::option::Option::Some(#member);
            fn mcp_name(&self) -> ::core::option::Option<&str> {
                ::core::option::Option::Some(self.#params.#field.as_str())
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
            #mcp_name
        }
        #may
        #retry
    }
}

/// `Refuse`: the error response of the request, its id the request's, and the reply union
/// written from a handler's `Response`.
fn refuse(
    module: &Module,
    request: &RustName,
    r: &RequestRole,
    reply: &RustName,
) -> Option<TokenStream> {
    let (b, resp) = (module.roles.error_response.as_ref()?, r.response.as_ref()?);
    let (error, id, request_id) = (&b.build.ty, id_ty(b), &resp.request_id);
    let copy = quote!(::core::clone::Clone::clone(&self.#request_id));
    let value = if b.id_optional {
        quote!(::core::option::Option::Some(#copy))
    } else {
        copy
    };
    Some(quote! {
        #[automatically_derived]
        impl ::mcp_runtime::Refuse for #request {
            type Error = #error;
            type Message = #reply;
            fn error_id(&self) -> #id {
                #value
            }
        }
    })
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

fn input_role(module: &Module, input: &InputRole) -> TokenStream {
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
    let capability_error = input
        .capability_error
        .as_ref()
        .map(|b| capability_error(module, b));
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

/// `ErrorResponse`: the JSON-RPC error response from its parts.
fn error_response(module: &Module, b: &ErrorBuild) -> TokenStream {
    let name = &b.build.ty;
    let id = id_ty(b);
    let build = literal(module, &b.build);
    let [code, message, data] = [Slot::Code, Slot::Message, Slot::Data].map(slot);
    quote! {
        #[automatically_derived]
        impl ::mcp_runtime::ErrorResponse for #name {
            type Id = #id;
            fn from_error(
                id: #id,
                #code: i64,
                #message: ::std::string::String,
                #data: ::core::option::Option<::serde_json::Value>,
            ) -> Self {
                #build
            }
        }
    }
}

/// `CapabilityErrorResponse`: the missing-capability error response from its parts, and a
/// match from each rule's capability to the members it fills in.
fn capability_error(module: &Module, b: &CapabilityErrorBuild) -> TokenStream {
    let name = &b.response.build.ty;
    let id = id_ty(&b.response);
    let caps = &b.capabilities;
    let build = literal(module, &b.response.build);
    let [message, required] = [Slot::Message, Slot::Required].map(slot);
    let arms = b.requires.iter().map(|(needs, steps)| {
        let steps = steps.iter().map(|s| match s {
            Step::Member(m) => quote!(.#m.get_or_insert_default()),
            Step::Key(k) => quote!(.entry(::std::string::String::from(#k)).or_default()),
            Step::ObjectKey(k) => quote! {
                .entry(::std::string::String::from(#k))
                .or_insert_with(|| ::serde_json::Value::Object(::serde_json::Map::new()))
            },
        });
        quote!(#needs => { capabilities #(#steps)*; true })
    });
    quote! {
        #[automatically_derived]
        impl ::mcp_runtime::mrtr::CapabilityErrorResponse for #name {
            type Id = #id;
            type Capabilities = #caps;
            fn require(capabilities: &mut #caps, needs: &str) -> bool {
                match needs {
                    #(#arms)*
                    _ => false,
                }
            }
            fn from_parts(id: #id, #message: ::std::string::String, #required: #caps) -> Self {
                #build
            }
        }
    }
}

/// The type of an error response's id parameter.
fn id_ty(b: &ErrorBuild) -> TokenStream {
    let id = ty(&b.id);
    if b.id_optional {
        quote!(::core::option::Option<#id>)
    } else {
        id
    }
}

/// The parameter that fills `slot`.
fn slot(slot: Slot) -> proc_macro2::Ident {
    let name = match slot {
        Slot::Id => "id",
        Slot::Code => "code",
        Slot::Message => "message",
        Slot::Data => "data",
        Slot::Required => "required",
    };
    proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
}

/// A struct literal of `l`, its nested literals inline.
fn literal(module: &Module, l: &Literal) -> TokenStream {
    let Some(Kind::Struct(s)) = module.types.get(&l.ty).map(|d| &d.kind) else {
        return TokenStream::new();
    };
    let name = &l.ty;
    let members = members(s, |f| {
        l.parts
            .iter()
            .find(|(n, _)| *n == f.rust)
            .map(|(_, part)| match part {
                Part::Param(s) => {
                    let p = slot(*s);
                    quote!(#p)
                }
                Part::ParamInto(s) => {
                    let p = slot(*s);
                    quote!(::core::option::Option::map(#p, ::core::convert::Into::into))
                }
                Part::Literal(inner) => literal(module, inner),
            })
    });
    quote!(#name { #members })
}

/// `ObjectSchema`: the object schema from its property schemas and required names.
fn object_schema(module: &Module, o: &ObjectSchemaRole) -> Option<TokenStream> {
    let Kind::Struct(s) = &module.types.get(&o.ty)?.kind else {
        return None;
    };
    let (name, property) = (&o.ty, ty(&o.property));
    let (properties, required) = (&o.properties, &o.required);
    let members = members(s, |f| {
        if f.rust == *properties {
            Some(quote!(properties))
        } else if f.rust == *required {
            Some(quote!(required))
        } else {
            None
        }
    });
    Some(quote! {
        #[automatically_derived]
        impl ::mcp_runtime::ObjectSchema for #name {
            type Property = #property;
            fn from_properties(
                properties: ::std::collections::BTreeMap<::std::string::String, #property>,
                required: ::core::option::Option<::std::vec::Vec<::std::string::String>>,
            ) -> Self {
                #name { #members }
            }
        }
    })
}
