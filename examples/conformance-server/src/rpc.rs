//! JSON-RPC plumbing: error responses with their HTTP status, the per-request context and the
//! notifier a handler reports progress and log messages through.
//!
//! Every message is written straight from its generated type to JSON text
//! (`serde_json::to_string`), never through `serde_json::Value`, which would sort the members
//! by name: on the wire they stay in the order the generated type writes them (`jsonrpc`, `id`,
//! `result`; `resultType` first in a result).

use std::sync::Arc;

use mcp_runtime::error_code::{INTERNAL_ERROR, UNSUPPORTED_PROTOCOL_VERSION};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::{Mcp, mcp};
use mcp_runtime::{Respond, Response, RpcError};

/// A request refused with a JSON-RPC error (`mcp_runtime::RpcError`), its id and its HTTP
/// status: `mcp_server`'s, bound to the generated module.
pub type Refused = mcp_server::Refused<Mcp>;

/// The era fact of a read of a resource the server does not have (`schema/eras.json`).
pub const RESOURCE_NOT_FOUND: &str = "resource_not_found";

/// `UNSUPPORTED_PROTOCOL_VERSION` (HTTP 400) to request `id`, which asked for `requested`:
/// `data` (the generated `UnsupportedProtocolVersionErrorErrorData`) lists the versions this
/// server implements, [`crate::MODERN_VERSIONS`].
pub fn unsupported_version(id: &mcp::RequestId, requested: &str, message: String) -> Refused {
    let supported: Vec<String> = crate::MODERN_VERSIONS
        .iter()
        .map(|v| (*v).to_owned())
        .collect();
    let data = mcp::UnsupportedProtocolVersionErrorErrorData::new(requested, supported);
    let mut error = RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, message);
    error.data = serde_json::to_value(data).ok();
    Refused::new(Some(id), error)
}

/// The answer to request `r` (of id `id`) for what its handler answered: the response as
/// JSON text, or the error response with its HTTP status.
pub fn answer<R>(id: &mcp::RequestId, r: &R, response: Response<R>) -> Result<String, Refused>
where
    R: Respond,
    R::Response: Serialize,
{
    match response {
        Ok(result) => to_json(&r.respond(result)),
        Err(error) => Err(Refused::new(Some(id), error)),
    }
}

/// A message (a response, a notification) as JSON text, written from its generated type.
pub fn to_json<T: Serialize>(message: &T) -> Result<String, Refused> {
    serde_json::to_string(message).map_err(|e| {
        Refused::new(
            None,
            RpcError::new(INTERNAL_ERROR, format!("serializing the response: {e}")),
        )
    })
}

/// What a handler learns about the request besides its params.
pub struct Ctx {
    pub id: mcp::RequestId,
    pub meta: mcp::RequestMetaObject,
    /// Who is asking: the bearer credential if one came, else `anonymous` (this example has no
    /// authentication; the principal is what requestState sealing binds to).
    pub principal: String,
    pub notifier: Notifier,
    pub app: Arc<crate::App>,
}

/// What a handler task sends to the HTTP layer (`mcp_server::answer`), bound to the
/// generated module.
pub type Msg = mcp_server::answer::Msg<Mcp>;

impl Ctx {
    /// The error response to this request for `error`.
    pub fn fail(&self, error: RpcError) -> Refused {
        Refused::new(Some(&self.id), error)
    }
}

/// Sends notifications about one request, if its response is a stream (the request carried a
/// `progressToken` or a `logLevel` and accepts `text/event-stream`); does nothing otherwise.
#[derive(Clone)]
pub struct Notifier {
    tx: Option<mpsc::UnboundedSender<Msg>>,
    progress_token: Option<mcp::ProgressToken>,
    log_level: Option<mcp::LoggingLevel>,
    /// Whether the client is a legacy (2025-11-25) one: its notifications are converted to
    /// that revision's types.
    legacy: bool,
}

/// Severity rank of a log level, RFC 5424 order (debug lowest).
fn severity(level: mcp::LoggingLevel) -> u8 {
    use mcp::LoggingLevel as L;
    match level {
        L::Debug => 0,
        L::Info => 1,
        L::Notice => 2,
        L::Warning => 3,
        L::Error => 4,
        L::Critical => 5,
        L::Alert => 6,
        L::Emergency => 7,
    }
}

impl Notifier {
    pub fn new(tx: Option<mpsc::UnboundedSender<Msg>>, meta: &mcp::RequestMetaObject) -> Self {
        Notifier {
            tx,
            progress_token: meta.progress_token.clone(),
            log_level: meta.log_level,
            legacy: false,
        }
    }

    /// The same, for a legacy session's request: notifications in 2025-11-25's types.
    pub fn legacy(mut self) -> Self {
        self.legacy = true;
        self
    }

    /// Sends the modern `notification`, or for a legacy client its 2025-11-25 form `L` (not
    /// at all if it has none).
    fn send_in_era<M, L>(&self, notification: M)
    where
        M: Serialize,
        L: TryFrom<M> + Serialize,
    {
        if !self.legacy {
            return self.send(&notification);
        }
        if let Ok(older) = L::try_from(notification) {
            self.send(&older);
        }
    }

    fn send<T: Serialize>(&self, notification: &T) {
        if let Some(tx) = &self.tx
            && let Ok(text) = to_json(notification)
        {
            let _ = tx.send(Msg::Note(text));
        }
    }

    /// Closes the connection the response is streamed on, for a legacy client whose stream
    /// resumes (`GET` with `Last-Event-ID`); nothing in the 2026-07-28 era, whose streams do
    /// not resume (a broken one loses its request).
    pub fn end_connection(&self) {
        if self.legacy
            && let Some(tx) = &self.tx
        {
            let _ = tx.send(Msg::EndConnection);
        }
    }

    /// `notifications/progress`, if the request asked for progress.
    pub fn progress(&self, progress: f64, total: f64, message: impl Into<String>) {
        let Some(token) = &self.progress_token else {
            return;
        };
        self.send_in_era::<_, mcp::v2025_11_25::ProgressNotification>(
            mcp::ProgressNotification::new(
                mcp::ProgressNotificationParams::new(progress, token.clone())
                    .with_message(message)
                    .with_total(total),
            ),
        );
    }

    /// `notifications/message`, only if the request set `io.modelcontextprotocol/logLevel`
    /// at or below `level`.
    pub fn log(&self, level: mcp::LoggingLevel, data: Value) {
        let Some(threshold) = self.log_level else {
            return;
        };
        if severity(level) < severity(threshold) {
            return;
        }
        self.send_in_era::<_, mcp::v2025_11_25::LoggingMessageNotification>(
            mcp::LoggingMessageNotification::new(
                mcp::LoggingMessageNotificationParams::new(data, level)
                    .with_logger("mcp-conformance-server"),
            ),
        );
    }
}
