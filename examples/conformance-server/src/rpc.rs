//! The handlers' side of `mcp_server`, bound to the generated module: the error and message
//! types, and the context a handler gets ([`Ctx`]: `mcp_server`'s, with this server's state).

use std::ops::Deref;
use std::sync::Arc;

use mcp_runtime::{Respond, Response};
use serde::Serialize;

use crate::{App, Mcp, mcp};

/// A request refused with a JSON-RPC error (`mcp_runtime::RpcError`), its id and its HTTP
/// status: `mcp_server`'s, bound to the generated module.
pub type Refused = mcp_server::Refused<Mcp>;

/// The logger this server's log messages name.
pub const LOGGER: &str = "mcp-conformance-server";

/// The answer to request `r` (of id `id`) for what its handler answered (`mcp_server::ctx`).
pub fn answer<R>(id: &mcp::RequestId, r: &R, response: Response<R>) -> Result<String, Refused>
where
    R: Respond,
    R::Response: Serialize,
{
    mcp_server::ctx::answer(id, r, response)
}

/// A message as JSON text, written from its generated type (`mcp_server::ctx`).
pub fn to_json<T: Serialize>(message: &T) -> Result<String, Refused> {
    mcp_server::ctx::to_json(message)
}

/// What a handler learns about the request besides its params (`mcp_server::Ctx`, which this
/// dereferences to), and the server's state.
pub struct Ctx {
    /// The request's id, `_meta`, principal and notifier.
    pub request: mcp_server::Ctx<Mcp>,
    /// The server's state.
    pub app: Arc<App>,
}

impl Deref for Ctx {
    type Target = mcp_server::Ctx<Mcp>;

    fn deref(&self) -> &Self::Target {
        &self.request
    }
}
