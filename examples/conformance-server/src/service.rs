//! This server as an `mcp_server::Service`: its fixtures (`crate::features`, `crate::tasks`)
//! behind the one trait the transports serve; and as a `LegacyService`, whose sessions,
//! streams and bridge are `mcp_server::legacy`'s (this server holds only its session table,
//! its configuration and its changes).

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::rpc::{Ctx, LOGGER, Refused};
use crate::{App, MODERN_VERSIONS, Mcp, mcp};

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
        &self.extension_methods
    }

    async fn extension(
        self: Arc<Self>,
        request: mcp_server::Ctx<Mcp>,
        method: &str,
        body: &[u8],
    ) -> Result<String, Refused> {
        let ctx = Ctx { request, app: self };
        if crate::skills::serves(method) {
            return crate::skills::answer(ctx, method, body);
        }
        crate::tasks::answer(ctx, method, body).await
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

/// This server's legacy sessions: `mcp_server::legacy` serves them.
impl mcp_server::legacy::LegacyService<Mcp> for App {
    fn sessions(&self) -> &mcp_server::legacy::Sessions<Mcp> {
        &self.sessions
    }

    fn config(&self) -> &mcp_server::Config {
        &self.config
    }

    fn changes(&self) -> Option<&mcp_server::changes::Changes> {
        Some(&self.changes)
    }
}
