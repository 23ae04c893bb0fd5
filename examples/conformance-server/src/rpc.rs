//! The handlers' side of `mcp_server`, bound to the generated module: the error and message
//! types, the context a handler gets ([`Ctx`]: `mcp_server`'s, with this server's state), and
//! this server as an `mcp_server::Service`.

use std::ops::Deref;
use std::sync::Arc;

use mcp_runtime::{Respond, Response};
use serde::Serialize;
use tokio::sync::mpsc;

use crate::{App, MODERN_VERSIONS, Mcp, mcp};

/// A request refused with a JSON-RPC error (`mcp_runtime::RpcError`), its id and its HTTP
/// status: `mcp_server`'s, bound to the generated module.
pub type Refused = mcp_server::Refused<Mcp>;

/// The logger this server's log messages name.
pub const LOGGER: &str = "mcp-conformance-server";

/// The era fact of a read of a resource the server does not have (`schema/eras.json`).
pub const RESOURCE_NOT_FOUND: &str = "resource_not_found";

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

/// This server's handlers, served by `mcp_server`'s transports.
impl mcp_server::Service<Mcp> for App {
    async fn call(
        self: Arc<Self>,
        request: mcp_server::Ctx<Mcp>,
        message: mcp::ClientRequest,
    ) -> Result<String, Refused> {
        let ctx = Ctx { request, app: self };
        crate::features::dispatch(ctx, message).await
    }

    fn versions(&self) -> &[&'static str] {
        MODERN_VERSIONS
    }

    fn listen(
        self: Arc<Self>,
        ctx: mcp_server::Ctx<Mcp>,
        request: mcp::ClientRequest,
    ) -> Result<mpsc::Receiver<String>, Refused> {
        let mcp::ClientRequest::SubscriptionsListenRequest(listen) = request else {
            let error = mcp_runtime::RpcError::internal_error("not a subscriptions/listen");
            return Err(ctx.fail(error));
        };
        crate::features::listen(self, ctx.principal, &ctx.meta, listen)
    }

    fn extension_methods(&self) -> &[mcp_server::Method] {
        crate::tasks::METHODS
    }

    fn extension(
        self: Arc<Self>,
        request: mcp_server::Ctx<Mcp>,
        method: &str,
        body: &[u8],
    ) -> Result<String, Refused> {
        crate::tasks::answer(Ctx { request, app: self }, method, body)
    }

    fn mirrored_params(&self, tool: &str) -> Vec<mcp_runtime::param_headers::ParamHeader> {
        crate::features::mirrored_params(tool)
    }

    fn logger(&self) -> &'static str {
        LOGGER
    }

    fn changes_resource(&self, uri: &str) -> bool {
        crate::features::changing_resource(uri).is_some()
    }

    fn running(&self) -> Option<&mcp_server::work::Running> {
        Some(&self.running)
    }
}

/// What a legacy `initialize` tells the client: what `server/discover` lists, this server's
/// name and its instructions.
impl mcp_server::legacy::Initialize<Mcp> for App {
    fn capabilities(&self) -> mcp::ServerCapabilities {
        crate::features::capabilities()
    }

    fn server_info(&self) -> mcp::Implementation {
        crate::server_info()
    }

    fn instructions(&self) -> Option<&str> {
        Some(crate::features::INSTRUCTIONS)
    }
}
