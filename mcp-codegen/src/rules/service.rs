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
    let pointer = format!("/{defs_key}/{CLIENT_REQUESTS}");
    let refused = |why: &str| SchemaError::new(pointer.clone(), format!("no service trait: {why}"));
    let requests = RustName::of_def(&SchemaName::new(CLIENT_REQUESTS));
    let union = match types.get(&requests).map(|def| &def.kind) {
        Some(Kind::Union(union)) if matches!(union.mode, UnionMode::Tag(_)) => union,
        _ => {
            return Err(refused(
                "not a union of requests told apart by their method",
            ));
        }
    };
    let revision = revision.ok_or_else(|| {
        refused("the schema's revision is not known (name it with Builder::revision)")
    })?;
    let (mut methods, mut unanswered) = (Vec::new(), Vec::new());
    for variant in &union.variants {
        let (Ty::Named(request), Select::Tag { value, .. }) = (&variant.ty, &variant.select) else {
            continue;
        };
        match roles.requests.iter().find(|r| &r.ty == request) {
            Some(role) if role.response.is_some() => {
                methods.push(method(variant.name.clone(), role));
            }
            _ => unanswered.push((variant.name.clone(), value.clone())),
        }
    }
    Ok(ServiceRole {
        name: RustName::pascal("Server"),
        revision_const: RustName::constant("REVISION"),
        revision: revision.to_owned(),
        dispatch: RustName::field("serve"),
        requests,
        methods,
        unanswered,
    })
}

/// The method that answers requests of `role`, held by union variant `variant`.
fn method(variant: RustName, role: &RequestRole) -> ServiceMethod {
    let request = role.ty.unraw();
    let stem = request.strip_suffix(REQUEST_SUFFIX).unwrap_or(request);
    ServiceMethod {
        name: RustName::field(stem),
        variant,
        request: role.ty.clone(),
        method: role.method.clone(),
        params: role.params.clone(),
    }
}
