//! The service pass: with `Builder::server`, the requests a server answers, as the methods of
//! a service trait ([`ServiceRole`]). They are the variants of the schema's union of the
//! requests a client sends (`ClientRequest`) whose response is built from the request (the
//! others are answered as not found): a method named for the request (`CallToolRequest`:
//! `call_tool`) that takes its params and returns the request's result or a JSON-RPC error.

use crate::error::SchemaError;
use crate::model::ir::{
    Kind, RequestRole, Roles, Select, ServiceMethod, ServiceRole, Ty, Types, UnionMode,
};
use crate::model::names::{RustName, SchemaName};

/// The schema's union of the requests a client sends to a server.
const CLIENT_REQUESTS: &str = "ClientRequest";
/// What a request type's name ends with, left out of its method's name.
const REQUEST_SUFFIX: &str = "Request";

/// The service of `types` (whose roles are `roles`) for a schema of `revision` (its
/// definitions under `defs_key`): an error, at the union's pointer, when the schema has no
/// union of client requests read by their method, or no known revision.
pub fn select(
    types: &Types,
    roles: &Roles,
    revision: Option<&str>,
    defs_key: &str,
) -> Result<ServiceRole, SchemaError> {
    let requests = client_requests(types, roles, defs_key, "no service trait")?;
    let revision = revision.ok_or_else(|| {
        requests.refused("the schema's revision is not known (name it with Builder::revision)")
    })?;
    Ok(ServiceRole {
        name: RustName::pascal("Server"),
        revision_const: RustName::constant("REVISION"),
        revision: revision.to_owned(),
        dispatch: RustName::field("serve"),
        methods: requests
            .answered
            .iter()
            .map(|(v, role)| method(v.clone(), role))
            .collect(),
        unanswered: requests.unanswered,
        requests: requests.union,
    })
}

/// The variants of the schema's union of client requests, split by whether their response
/// is built from the request (`answered`, with the request's role) or not.
pub struct ClientRequests<'a> {
    /// The union's Rust name.
    pub union: RustName,
    /// Its pointer, where a refusal points.
    pointer: String,
    /// What a refusal starts with.
    refusal: &'static str,
    /// The variants whose response is built from the request, in the union's order.
    pub answered: Vec<(RustName, &'a RequestRole)>,
    /// The others, each with its request's method.
    pub unanswered: Vec<(RustName, String)>,
}

impl ClientRequests<'_> {
    /// An error at the union's pointer: `why` there is no trait.
    pub fn refused(&self, why: &str) -> SchemaError {
        SchemaError::new(self.pointer.clone(), format!("{}: {why}", self.refusal))
    }
}

/// The client requests of `types` (whose roles are `roles`, definitions under `defs_key`): an
/// error starting `refusal`, at the union's pointer, when the schema has no union of client
/// requests read by their method.
pub fn client_requests<'a>(
    types: &Types,
    roles: &'a Roles,
    defs_key: &str,
    refusal: &'static str,
) -> Result<ClientRequests<'a>, SchemaError> {
    let mut found = ClientRequests {
        union: RustName::of_def(&SchemaName::new(CLIENT_REQUESTS)),
        pointer: format!("/{defs_key}/{CLIENT_REQUESTS}"),
        refusal,
        answered: Vec::new(),
        unanswered: Vec::new(),
    };
    let union = match types.get(&found.union).map(|def| &def.kind) {
        Some(Kind::Union(union)) if matches!(union.mode, UnionMode::Tag(_)) => union,
        _ => return Err(found.refused("not a union of requests told apart by their method")),
    };
    for variant in &union.variants {
        let (Ty::Named(request), Select::Tag { value, .. }) = (&variant.ty, &variant.select) else {
            continue;
        };
        match roles.requests.iter().find(|r| &r.ty == request) {
            Some(role) if role.response.is_some() => {
                found.answered.push((variant.name.clone(), role));
            }
            _ => found.unanswered.push((variant.name.clone(), value.clone())),
        }
    }
    Ok(found)
}

/// The method that answers requests of `role`, held by union variant `variant`.
fn method(variant: RustName, role: &RequestRole) -> ServiceMethod {
    ServiceMethod {
        name: method_name(role),
        variant,
        request: role.ty.clone(),
        method: role.method.clone(),
        params: role.params.clone(),
    }
}

/// The name of the method that sends or answers requests of `role` (`CallToolRequest`:
/// `call_tool`).
pub fn method_name(role: &RequestRole) -> RustName {
    let request = role.ty.unraw();
    RustName::field(request.strip_suffix(REQUEST_SUFFIX).unwrap_or(request))
}
