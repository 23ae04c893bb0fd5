//! Emission of the multi round-trip helpers, from the overlay's `input_requests` names and
//! `input_capabilities` rules: the capability table, the capability-checked
//! `InputRequestsBuilder`, `InputRequiredResult::check_capabilities`, and a `retry` method on
//! every request that may answer `input_required`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::ident;
use crate::ir::{Field, Kind, Module, Select, Struct, Ty, Union};
use crate::overlay::{CapabilityRule, CapabilityWhen, Level, Overlay};
use crate::rules::Protocol;

/// The helpers, or nothing when the overlay does not describe multi round-trip requests or
/// the schema lacks one of the types it names.
pub fn emit(module: &Module, protocol: &Protocol, overlay: Option<&Overlay>) -> TokenStream {
    let Some(names) = overlay.and_then(|o| o.input_requests.as_ref()) else {
        return TokenStream::new();
    };
    let has = |n: &str| module.types.contains_key(n);
    let all = [
        &names.result,
        &names.map,
        &names.request,
        &names.responses,
        &names.response,
        &names.capabilities,
    ];
    if !all.iter().all(|n| has(n)) {
        return TokenStream::new();
    }
    let (Some(request_union), Some(response_union)) = (
        union(module, &names.request),
        union(module, &names.response),
    ) else {
        return TokenStream::new();
    };
    let rules = overlay
        .and_then(|o| o.input_capabilities.as_ref())
        .map(|c| c.rules.as_slice())
        .unwrap_or_default();
    let table = rule_table(rules);
    let result = ident(&names.result);
    let map = ident(&names.map);
    let request = ident(&names.request);
    let responses = ident(&names.responses);
    let response = ident(&names.response);
    let caps = ident(&names.capabilities);
    let Some(result_struct) = structure(module, &names.result) else {
        return TokenStream::new();
    };
    let (Some(requests_f), Some(state_f)) = (
        field(result_struct, "inputRequests"),
        field(result_struct, "requestState"),
    ) else {
        return TokenStream::new();
    };
    let accessors = (ident(&requests_f.rust), ident(&state_f.rust));
    let requests_acc = &accessors.0;

    // Which response variant answers which request variant: the request's `Request::Result`.
    let pairs: Vec<(TokenStream, TokenStream, String)> = request_union
        .variants
        .iter()
        .filter_map(|rv| {
            let Ty::Named(req_ty) = &rv.ty else {
                return None;
            };
            let result_ty = protocol.requests.get(req_ty)?.result.clone()?;
            let resp = response_union
                .variants
                .iter()
                .find(|v| v.ty == Ty::Named(result_ty.clone()))?;
            let (rvn, respn) = (ident(&rv.name), ident(&resp.name));
            Some((
                quote!(#request::#rvn(_)),
                quote!(#response::#respn(_)),
                result_ty,
            ))
        })
        .collect();
    let method_arms = request_union.variants.iter().filter_map(|v| {
        let Select::Tag { value, .. } = &v.select else {
            return None;
        };
        let vn = ident(&v.name);
        Some(quote!(#request::#vn(_) => #value))
    });
    let paired: Vec<&str> = request_union
        .variants
        .iter()
        .filter(|v| {
            let Ty::Named(t) = &v.ty else { return false };
            let result = protocol.requests.get(t).and_then(|r| r.result.as_ref());
            result.is_some_and(|r| {
                response_union
                    .variants
                    .iter()
                    .any(|x| x.ty == Ty::Named(r.clone()))
            })
        })
        .map(|v| v.name.as_str())
        .collect();
    let unpaired = request_union
        .variants
        .iter()
        .filter(|v| !paired.contains(&v.name.as_str()));
    let unpaired_arms: Vec<TokenStream> = unpaired
        .map(|v| {
            let vn = ident(&v.name);
            quote!((#request::#vn(_), _) => ::core::option::Option::None)
        })
        .collect();
    let kind_arms = pairs
        .iter()
        .map(|(req, resp, _)| quote!((#req, #resp) => ::core::option::Option::None));
    let expected_arms = pairs
        .iter()
        .map(|(req, _, ty)| quote!((#req, _) => ::core::option::Option::Some(#ty)));

    let missing = if has(&names.missing_capability_error) {
        let err = ident(&names.missing_capability_error);
        quote! {
            impl #err {
                /// The error response for input requests the client's capabilities do not allow
                /// (`-32021`, with `data.requiredCapabilities`).
                pub fn from_capability_error(
                    id: ::core::option::Option<RequestId>,
                    error: &::mcp_runtime::capability::CapabilityError,
                ) -> ::core::result::Result<Self, ::serde_json::Error> {
                    let mut response = ::serde_json::Map::new();
                    response.insert("jsonrpc".to_owned(), ::serde_json::Value::from("2.0"));
                    if let ::core::option::Option::Some(id) = id {
                        response.insert("id".to_owned(), ::serde_json::to_value(id)?);
                    }
                    response.insert("error".to_owned(), error.error_object());
                    ::serde_json::from_value(::serde_json::Value::Object(response))
                }
            }
        }
    } else {
        TokenStream::new()
    };
    let retries = retry_methods(
        module,
        protocol,
        &names.result,
        &names.responses,
        &accessors,
    );

    quote! {
        #table

        /// Fills an `inputRequests` map, refusing every entry that the client's capabilities
        /// (from the request's `_meta`) do not allow: the documented way for a server to build
        /// an input-required answer.
        #[derive(Debug, Clone)]
        pub struct InputRequestsBuilder {
            capabilities: ::serde_json::Value,
            allow_should: bool,
            requests: #map,
        }

        impl InputRequestsBuilder {
            /// A builder for a client with these capabilities.
            pub fn new(capabilities: &#caps) -> Self {
                InputRequestsBuilder {
                    capabilities: ::serde_json::to_value(capabilities).unwrap_or(::serde_json::Value::Null),
                    allow_should: false,
                    requests: #map::new(),
                }
            }

            /// Also accepts requests that break only a SHOULD rule (sampling with
            /// `includeContext` `thisServer` / `allServers` without `sampling.context`).
            #[must_use]
            pub fn allow_should_rules(mut self) -> Self {
                self.allow_should = true;
                self
            }

            /// Adds `request` under `key`, or says which capability the client lacks for it.
            pub fn insert(
                &mut self,
                key: impl ::core::convert::Into<::std::string::String>,
                request: impl ::core::convert::Into<#request>,
            ) -> ::core::result::Result<&mut Self, ::mcp_runtime::capability::CapabilityError> {
                let key = key.into();
                let request = request.into();
                let json = ::serde_json::to_value(&request).unwrap_or(::serde_json::Value::Null);
                let refusals = ::mcp_runtime::capability::check(&key, &json, &self.capabilities, INPUT_CAPABILITY_RULES, self.allow_should);
                ::mcp_runtime::capability::into_result(refusals)?;
                self.requests.insert(key, request);
                ::core::result::Result::Ok(self)
            }

            /// The map, for the `inputRequests` of an input-required result.
            pub fn build(self) -> #map {
                self.requests
            }
        }

        impl #result {
            /// Checks every entry of `inputRequests` against the client's capabilities and
            /// reports each one they do not allow, with the capability it needs.
            pub fn check_capabilities(&self, capabilities: &#caps) -> ::core::result::Result<(), ::mcp_runtime::capability::CapabilityError> {
                let caps = ::serde_json::to_value(capabilities).unwrap_or(::serde_json::Value::Null);
                let mut refusals = ::std::vec::Vec::new();
                for (key, request) in self.#requests_acc().into_iter().flatten() {
                    let json = ::serde_json::to_value(request).unwrap_or(::serde_json::Value::Null);
                    refusals.extend(::mcp_runtime::capability::check(key, &json, &caps, INPUT_CAPABILITY_RULES, false));
                }
                ::mcp_runtime::capability::into_result(refusals)
            }
        }

        #missing

        impl #request {
            /// The request's method.
            pub fn method(&self) -> &'static str {
                match self { #(#method_arms,)* }
            }
        }

        /// `None` when `response` is the result of `request`'s method, else the expected type.
        fn input_response_mismatch(request: &#request, response: &#response) -> ::core::option::Option<&'static str> {
            match (request, response) {
                #(#kind_arms,)*
                #(#expected_arms,)*
                #(#unpaired_arms,)*
            }
        }

        /// Checks the responses of a retry against the requests they answer.
        fn check_input_responses(
            requests: ::core::option::Option<&#map>,
            responses: &#responses,
        ) -> ::core::result::Result<(), ::mcp_runtime::retry::RetryError> {
            for (key, request) in requests.into_iter().flatten() {
                let ::core::option::Option::Some(response) = responses.get(key) else {
                    return ::core::result::Result::Err(::mcp_runtime::retry::RetryError::MissingResponse {
                        key: key.clone(),
                        method: request.method().to_owned(),
                    });
                };
                if let ::core::option::Option::Some(expected) = input_response_mismatch(request, response) {
                    return ::core::result::Result::Err(::mcp_runtime::retry::RetryError::WrongKind {
                        key: key.clone(),
                        method: request.method().to_owned(),
                        expected,
                    });
                }
            }
            for key in responses.keys() {
                if !requests.is_some_and(|r| r.contains_key(key)) {
                    return ::core::result::Result::Err(::mcp_runtime::retry::RetryError::UnexpectedResponse { key: key.clone() });
                }
            }
            ::core::result::Result::Ok(())
        }

        #retries
    }
}

fn union<'m>(module: &'m Module, name: &str) -> Option<&'m Union> {
    match &module.types.get(name)?.kind {
        Kind::Union(u) => Some(u),
        _ => None,
    }
}

fn structure<'m>(module: &'m Module, name: &str) -> Option<&'m Struct> {
    match &module.types.get(name)?.kind {
        Kind::Struct(s) => Some(s),
        _ => None,
    }
}

fn field<'s>(s: &'s Struct, json: &str) -> Option<&'s Field> {
    s.fields.iter().find(|f| f.json == json)
}

fn rule_table(rules: &[CapabilityRule]) -> TokenStream {
    let entries = rules.iter().map(|r| {
        let method = &r.method;
        let needs = &r.needs;
        let or_empty = match &r.or_empty {
            Some(e) => quote!(::core::option::Option::Some(#e)),
            None => quote!(::core::option::Option::None),
        };
        let level = if r.level == Level::Should {
            quote!(::mcp_runtime::capability::Level::Should)
        } else {
            quote!(::mcp_runtime::capability::Level::Must)
        };
        let when = match &r.when {
            Some(CapabilityWhen::OneOf { pointer, values }) => {
                let values = values.iter().map(|v| match v {
                    Some(v) => quote!(::core::option::Option::Some(#v)),
                    None => quote!(::core::option::Option::None),
                });
                quote!(::mcp_runtime::capability::When::OneOf { pointer: #pointer, values: &[#(#values),*] })
            }
            Some(CapabilityWhen::AnyPresent(ps)) => {
                quote!(::mcp_runtime::capability::When::AnyPresent(&[#(#ps),*]))
            }
            None => quote!(::mcp_runtime::capability::When::Always),
        };
        quote! {
            ::mcp_runtime::capability::Rule { method: #method, when: #when, needs: #needs, or_empty: #or_empty, level: #level }
        }
    });
    let why = rules.iter().map(|r| {
        let line = format!(" - `{}` needs `{}`: {}", r.method, r.needs, r.why);
        quote!(#[doc = #line])
    });
    quote! {
        /// Which client capability each kind (and mode) of input request needs, from this
        /// project's overlay for the revision (`schema/<revision>.json`, `input_capabilities`):
        ///
        #(#why)*
        pub const INPUT_CAPABILITY_RULES: &[::mcp_runtime::capability::Rule] = &[#(#entries),*];
    }
}

/// `retry` on every request that may answer `input_required` and whose params carry
/// `inputResponses` and `requestState`.
fn retry_methods(
    module: &Module,
    protocol: &Protocol,
    result: &str,
    responses: &str,
    (requests_acc, state_acc): &(proc_macro2::Ident, proc_macro2::Ident),
) -> TokenStream {
    let mut out = TokenStream::new();
    let result_ty = ident(result);
    let responses_ty = ident(responses);
    for (name, info) in &protocol.requests {
        if !info.may_require_input {
            continue;
        }
        let Some(req) = structure(module, name) else {
            continue;
        };
        let (Some(id), Some(params)) = (field(req, "id"), field(req, "params")) else {
            continue;
        };
        let Ty::Named(params_ty) = &params.ty else {
            continue;
        };
        let Some(ps) = structure(module, params_ty) else {
            continue;
        };
        let (Some(responses_f), Some(state_f)) =
            (field(ps, "inputResponses"), field(ps, "requestState"))
        else {
            continue;
        };
        if !id.required || !params.required || responses_f.required || state_f.required {
            continue;
        }
        let (n, idf, pf, rf, sf) = (
            ident(name),
            ident(&id.rust),
            ident(&params.rust),
            ident(&responses_f.rust),
            ident(&state_f.rust),
        );
        let id_ty = match &id.ty {
            Ty::Named(t) => ident(t),
            _ => continue,
        };
        let doc = format!(
            " Builds the retry of this `{}` request after the server answered `answer`: a new JSON-RPC `id`, the client's `responses` to every `inputRequests` entry (each of the kind its request asks for; none for keys not asked), and `requestState` copied exactly (none when none came).",
            info.method
        );
        out.extend(quote! {
            impl #n {
                #[doc = #doc]
                pub fn retry(
                    &self,
                    id: #id_ty,
                    answer: &#result_ty,
                    responses: #responses_ty,
                ) -> ::core::result::Result<Self, ::mcp_runtime::retry::RetryError> {
                    if id == self.#idf {
                        return ::core::result::Result::Err(::mcp_runtime::retry::RetryError::SameId);
                    }
                    check_input_responses(answer.#requests_acc(), &responses)?;
                    let mut next = self.clone();
                    next.#idf = id;
                    next.#pf.#rf = if responses.is_empty() && answer.#requests_acc().is_none() {
                        ::core::option::Option::None
                    } else {
                        ::core::option::Option::Some(responses)
                    };
                    next.#pf.#sf = answer.#state_acc().cloned();
                    ::core::result::Result::Ok(next)
                }
            }
        });
    }
    out
}
