//! The protocol roles of the generated types, read off the protocol model:
//! requests (method, params, result, retry), notifications, and the multi round-trip types
//! with their capability rules. Emission turns these into trait impls without knowing any of
//! the protocol's member names.

use std::collections::BTreeMap;

use crate::model::ir::{
    CapabilityRule, InputKind, InputRole, Kind, McpNameRole, NotificationRole, Predicate, Renamed,
    RequestRole, ResponseRole, RetryRole, Roles, Select, Struct, Ty, TypeDef, Types, Union,
    UnionMode, Variant,
};
use crate::model::names::{RustName, SchemaName};
use crate::rules::protocol::{InputRequests, Protocol, ResultOf};

/// A request's or notification's parameters member.
const PARAMS: &str = "params";
/// A request's JSON-RPC id member.
const ID: &str = "id";
/// The input-required result's map of input requests.
const INPUT_REQUESTS: &str = "inputRequests";
/// The input-required result's (and a retry's) opaque state.
const REQUEST_STATE: &str = "requestState";
/// A retry's map of input responses.
const INPUT_RESPONSES: &str = "inputResponses";
/// The `$def` of the generic result, the answer of requests whose response the schema does not
/// name.
const GENERIC_RESULT: &str = "Result";

/// The lookups every role needs.
struct Context<'a> {
    types: &'a Types,
    protocol: &'a Protocol,
    rust_of: &'a BTreeMap<SchemaName, RustName>,
    outcome_of: &'a BTreeMap<SchemaName, RustName>,
}

/// The roles of `types`, read off the protocol model; adds to `types` the `<Base>Response`
/// union of each request with a successful response (see [`add_replies`]).
pub fn assign(
    types: &mut Types,
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
    outcome_of: &BTreeMap<SchemaName, RustName>,
) -> Roles {
    let cx = Context {
        types,
        protocol,
        rust_of,
        outcome_of,
    };
    let input = protocol
        .input_requests
        .as_ref()
        .and_then(|names| input_role(&cx, names));
    let requests = protocol
        .requests
        .iter()
        .filter_map(|(def, info)| {
            let ty = rust_of.get(def)?.clone();
            let s = cx.structure(&ty)?;
            Some(RequestRole {
                method: info.method.clone(),
                params: cx.params(s),
                result: cx.result(info.result.as_ref()),
                may_require_input: info.may_require_input,
                retry: input
                    .as_ref()
                    .filter(|_| info.may_require_input)
                    .and_then(|_| cx.retry(s)),
                response: info.response.as_ref().and_then(|r| cx.response(s, r)),
                reply: None,
                mcp_name: protocol
                    .mcp_name
                    .get(def)
                    .and_then(|member| cx.mcp_name(s, member)),
                ty,
            })
        })
        .collect();
    let notifications = protocol
        .notifications
        .iter()
        .filter_map(|(def, method)| {
            let ty = rust_of.get(def)?.clone();
            let s = cx.structure(&ty)?;
            Some(NotificationRole {
                method: method.clone(),
                params: cx.params(s),
                ty,
            })
        })
        .collect();
    let mut roles = Roles {
        requests,
        notifications,
        input,
        error_response: crate::rules::jsonrpc_errors::error_response(types, rust_of),
        object_schemas: crate::rules::object_schemas::object_schemas(types),
        renamed: Vec::new(),
    };
    roles.renamed = add_replies(types, &mut roles.requests, protocol, rust_of);
    roles
}

/// The members that tell a successful response from an error response.
const RESULT_MEMBER: &str = "result";
const ERROR_MEMBER: &str = "error";

/// What a reply's name ends with (`mcp_runtime::Reply<R>`), and what it ended with before
/// (kept as a deprecated alias for one release: `CallToolResponse` read as rmcp's name for
/// what is `CallToolOutcome` here).
const REPLY_SUFFIX: &str = "Reply";
const EARLIER_REPLY_SUFFIX: &str = "Response";

/// For every request with a successful response, `<Base>Reply`: that response or the error
/// response, told apart by which of `result` and `error` the message has; returns the
/// earlier names (`<Base>Response`) to keep as deprecated aliases.
fn add_replies(
    types: &mut Types,
    requests: &mut [RequestRole],
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
) -> Vec<Renamed> {
    let mut renamed = Vec::new();
    let Some(error) = crate::rules::jsonrpc_errors::ERROR_RESPONSES
        .iter()
        .filter_map(|d| rust_of.get(*d))
        .find(|n| types.contains_key(*n))
        .cloned()
    else {
        return renamed;
    };
    for (def, info) in &protocol.requests {
        let Some(request) = rust_of.get(def) else {
            continue;
        };
        let Some(i) = requests.iter().position(|r| &r.ty == request) else {
            continue;
        };
        let Some(response) = requests[i].response.as_ref().map(|r| r.ty.clone()) else {
            continue;
        };
        let base = def.as_str().strip_suffix("Request").unwrap_or(def.as_str());
        let name = RustName::of_def(&SchemaName::new(format!("{base}{REPLY_SUFFIX}")));
        if types.contains_key(&name) {
            continue;
        }
        let earlier = RustName::of_def(&SchemaName::new(format!("{base}{EARLIER_REPLY_SUFFIX}")));
        if !types.contains_key(&earlier) {
            let outcome = match &requests[i].result {
                Ty::Named(result) => format!(" (its result is `{}`)", result.unraw()),
                _ => String::new(),
            };
            renamed.push(Renamed {
                note: format!(
                    "renamed `{}`: the successful response or the error response{outcome}",
                    name.unraw()
                ),
                old: earlier,
                new: name.clone(),
            });
        }
        let variant = |label: &str, ty: &RustName, member: &str| Variant {
            name: RustName::pascal(label),
            ty: Ty::Named(ty.clone()),
            select: Select::Shape(vec![Predicate::Has(member.to_owned())]),
        };
        let docs = format!(
            "What a client reads back for a {{@link {}}} (`{}`): the successful response, or an error response.",
            request.unraw(),
            info.method
        );
        let pointer = types[&response].pointer.clone();
        types.insert(
            name.clone(),
            TypeDef {
                name: name.clone(),
                pointer,
                docs: Some(docs),
                kind: Kind::Union(Union {
                    mode: UnionMode::Shape,
                    variants: vec![
                        variant("Result", &response, RESULT_MEMBER),
                        variant("Error", &error, ERROR_MEMBER),
                    ],
                }),
            },
        );
        requests[i].reply = Some(name);
    }
    renamed.sort_by(|a, b| a.old.cmp(&b.old));
    renamed
}

impl Context<'_> {
    fn structure(&self, name: &RustName) -> Option<&Struct> {
        self.types.structure(name)
    }

    fn union(&self, name: &RustName) -> Option<&Union> {
        match &self.types.get(name)?.kind {
            Kind::Union(u) => Some(u),
            _ => None,
        }
    }

    /// The type `ty` stands for, aliases followed.
    fn resolve<'t>(&'t self, ty: &'t Ty) -> &'t Ty {
        self.types.resolve(ty)
    }

    fn named(&self, def: &str) -> Option<&RustName> {
        self.rust_of
            .get(def)
            .filter(|n| self.types.contains_key(*n))
    }

    /// The member of `s`'s params that its `Mcp-Name` header mirrors (the protocol model
    /// checked that it is a required string of required params).
    fn mcp_name(&self, s: &Struct, member: &str) -> Option<McpNameRole> {
        let params = s.field(PARAMS).filter(|f| f.required)?;
        let Ty::Named(p) = self.resolve(params.ty.unboxed()) else {
            return None;
        };
        let field = self.structure(p)?.field(member).filter(|f| f.required)?;
        Some(McpNameRole {
            member: member.to_owned(),
            params: params.rust.clone(),
            field: field.rust.clone(),
        })
    }

    fn params(&self, s: &Struct) -> Ty {
        s.field(PARAMS).map_or(Ty::Unit, |f| f.ty.clone())
    }

    fn result(&self, result: Option<&ResultOf>) -> Ty {
        let named = match result {
            Some(ResultOf::Def(d)) => self.rust_of.get(d),
            Some(ResultOf::Outcome(response)) => self.outcome_of.get(response),
            None => self.named(GENERIC_RESULT),
        };
        named.map_or(Ty::Value, |n| Ty::Named(n.clone()))
    }

    /// The members a retry of a request with struct `s` rewrites, when it has them all: a
    /// required id and params, and optional input responses and request state in the params.
    fn retry(&self, s: &Struct) -> Option<RetryRole> {
        let (id, params) = (s.field(ID)?, s.field(PARAMS)?);
        let Ty::Named(params_ty) = &params.ty else {
            return None;
        };
        let ps = self.structure(params_ty)?;
        let (responses, state) = (ps.field(INPUT_RESPONSES)?, ps.field(REQUEST_STATE)?);
        let shaped = id.required && params.required && !responses.required && !state.required;
        shaped.then(|| RetryRole {
            id: id.rust.clone(),
            id_ty: id.ty.clone(),
            params: params.rust.clone(),
            responses: responses.rust.clone(),
            state: state.rust.clone(),
        })
    }
}

impl Context<'_> {
    /// How the successful response `def` is built from a request with struct `s`: its
    /// required members must be exactly an id of the request's id type and the result.
    fn response(&self, s: &Struct, def: &SchemaName) -> Option<ResponseRole> {
        let request_id = s.field(ID).filter(|f| f.required)?;
        let ty = self.named(def.as_str())?.clone();
        let rs = self.structure(&ty)?;
        let id = rs
            .field(ID)
            .filter(|f| f.required && f.ty == request_id.ty)?;
        let result = rs
            .field(crate::rules::results::RESPONSE_RESULT)
            .filter(|f| f.required)?;
        let others_optional = rs.fields.iter().all(|f| {
            !f.required || f.json == ID || f.json == crate::rules::results::RESPONSE_RESULT
        });
        others_optional.then(|| ResponseRole {
            ty: ty.clone(),
            request_id: request_id.rust.clone(),
            id: id.rust.clone(),
            result_field: result.rust.clone(),
            result: result.ty.clone(),
        })
    }
}

/// The multi round-trip role, when the protocol model names its types and the schema has them in the
/// expected shapes; else none (nothing is emitted for it).
fn input_role(cx: &Context<'_>, names: &InputRequests) -> Option<InputRole> {
    let result = cx.named(names.result.as_str())?.clone();
    let request = cx.named(names.request.as_str())?.clone();
    let response = cx.named(names.response.as_str())?.clone();
    let capabilities = cx.named(names.capabilities.as_str())?.clone();
    let rs = cx.structure(&result)?;
    let (requests_f, state_f) = (rs.field(INPUT_REQUESTS)?, rs.field(REQUEST_STATE)?);
    let map_of_requests =
        matches!(cx.resolve(&requests_f.ty), Ty::Map(item) if **item == Ty::Named(request.clone()));
    if !map_of_requests || requests_f.required || state_f.required {
        return None;
    }
    let (request_union, response_union) = (cx.union(&request)?, cx.union(&response)?);
    let responses: Vec<(RustName, RustName)> = response_union
        .variants
        .iter()
        .filter_map(|v| match &v.ty {
            Ty::Named(t) => Some((v.name.clone(), t.clone())),
            _ => None,
        })
        .collect();
    let kinds = input_kinds(cx, request_union, &responses)?;
    let rules: Vec<CapabilityRule> = names.rules.clone();
    let capability_error = cx
        .named(names.missing_capability_error.as_str())
        .and_then(|name| {
            crate::rules::jsonrpc_errors::capability_error(cx.types, name, &capabilities, &rules)
        });
    let rules_name = RustName::constant("input capability rules");
    let why: String = rules
        .iter()
        .map(|r| format!("- `{}` needs `{}`: {}\n", r.method, r.needs, r.why))
        .collect();
    Some(InputRole {
        rules_docs: format!(
            "Which client capability each kind (and mode) of input request needs, from this project's overlay for the revision:\n\n{why}"
        ),
        builder_docs: format!(
            "Fills the input requests of an [`{}`], refusing every one the client's capabilities do not allow (see [`{}`]).",
            result.unraw(),
            rules_name.unraw()
        ),
        rules,
        rules_name,
        requests_field: requests_f.rust.clone(),
        state_field: state_f.rust.clone(),
        state_ty: state_f.ty.clone(),
        capability_error,
        builder_name: RustName::pascal("input requests builder"),
        result,
        request,
        response,
        capabilities,
        kinds,
        responses,
    })
}

/// Each input request variant's method (its tag) and the response type that answers it: the
/// result type of the request type it holds, where the response union has a variant of it.
fn input_kinds(
    cx: &Context<'_>,
    requests: &Union,
    responses: &[(RustName, RustName)],
) -> Option<Vec<InputKind>> {
    requests
        .variants
        .iter()
        .map(|v| {
            let crate::model::ir::Select::Tag { value, .. } = &v.select else {
                return None;
            };
            let answer = match &v.ty {
                Ty::Named(t) => cx
                    .protocol
                    .requests
                    .iter()
                    .find(|(def, _)| cx.rust_of.get(*def) == Some(t))
                    .and_then(|(_, info)| match cx.result(info.result.as_ref()) {
                        Ty::Named(r) => responses.iter().any(|(_, t)| *t == r).then_some(r),
                        _ => None,
                    }),
                _ => None,
            };
            Some(InputKind {
                variant: v.name.clone(),
                method: value.clone(),
                answer,
            })
        })
        .collect()
}
