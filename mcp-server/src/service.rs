//! The handler side of a server: what answers a request once the transport checked it.

use std::future::Future;
use std::sync::Arc;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::METHOD_NOT_FOUND;
use mcp_runtime::param_headers::ParamHeader;
use tokio::sync::mpsc;

use crate::ctx::{Ctx, DEFAULT_LOGGER};
use crate::work::Running;
use crate::{Method, Refused, Schema};

/// The handlers of a server, for the generated module bound as `S`: one method answers every
/// checked request of [`Schema::ClientRequest`], and hooks with defaults serve what some
/// servers add (a `subscriptions/listen` stream, an extension's methods, headers mirroring a
/// tool's arguments).
///
/// The transports ([`crate::modern::serve`], and the routers and loops built on it) run the
/// checks of a message and call these with a checked request.
pub trait Service<S: Schema>: Send + Sync + 'static {
    /// Answers `request`, checked and read whole: the response as JSON text, or the error it
    /// is refused with. Runs in a task of its own, stopped if the client goes away.
    fn call(
        self: Arc<Self>,
        ctx: Ctx<S>,
        request: S::ClientRequest,
    ) -> impl Future<Output = Result<String, Refused<S>>> + Send;

    /// The modern protocol versions this server implements (a request declaring another is
    /// answered `UNSUPPORTED_PROTOCOL_VERSION`).
    fn versions(&self) -> &[&'static str];

    /// Opens the stream of a `subscriptions/listen` `request`: its notifications, then its
    /// response when the server ends it, as JSON text. By default the method is not served.
    fn listen(
        self: Arc<Self>,
        ctx: Ctx<S>,
        request: S::ClientRequest,
    ) -> Result<mpsc::Receiver<String>, Refused<S>> {
        drop(request);
        let message = "Method not found: this server opens no subscription streams";
        Err(ctx.fail(RpcError::new(METHOD_NOT_FOUND, message)))
    }

    /// The methods extensions add to those of [`Schema::ClientRequest`], with the member each one's
    /// `Mcp-Name` mirrors; answered by [`Service::extension`].
    fn extension_methods(&self) -> &[Method] {
        &[]
    }

    /// Answers a request of `method`, one of [`Service::extension_methods`], of which `body` is
    /// the whole message (read it as the extension's request type). Runs in a task of its own,
    /// like [`Service::call`] (so that it may await a store shared by several instances).
    fn extension(
        self: Arc<Self>,
        ctx: Ctx<S>,
        method: &str,
        body: &[u8],
    ) -> impl Future<Output = Result<String, Refused<S>>> + Send {
        let _ = body;
        std::future::ready(Err(ctx.fail(RpcError::method_not_found(method))))
    }

    /// The arguments of tool `tool` that a client mirrors in `Mcp-Param-{Name}` headers
    /// (`x-mcp-header` in its input schema); none by default.
    fn mirrored_params(&self, tool: &str) -> Vec<ParamHeader> {
        let _ = tool;
        Vec::new()
    }

    /// The logger named in the log messages a handler sends.
    fn logger(&self) -> &'static str {
        DEFAULT_LOGGER
    }

    /// Whether the resource `uri` can change, so that a legacy session's
    /// `resources/subscribe` follows it (its updates sent on the session's `GET` stream). By
    /// default every resource can (a session follows a bounded number).
    fn changes_resource(&self, uri: &str) -> bool {
        let _ = uri;
        true
    }

    /// The count of the handlers running now, if the server keeps one.
    fn running(&self) -> Option<&Running> {
        None
    }
}
