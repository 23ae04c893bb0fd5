//! JSON-RPC plumbing: error responses with their HTTP status, the per-request context and the
//! notifier a handler reports progress and log messages through.
//!
//! Every message is written straight from its generated type to JSON text
//! (`serde_json::to_string`), never through `serde_json::Value`, which would sort the members
//! by name: on the wire they stay in the order the generated type writes them (`jsonrpc`, `id`,
//! `result`; `resultType` first in a result).

use std::sync::Arc;

use axum::http::StatusCode;
use mcp_runtime::error_code::INTERNAL_ERROR;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::{Mcp, mcp};
use mcp_runtime::{Respond, Response, RpcError};

/// A JSON-RPC error response, ready to send, and the HTTP status it goes with.
#[derive(Debug)]
pub struct Failure {
    pub status: StatusCode,
    /// The response as JSON text.
    pub body: String,
    /// The error this is, when its code differs between the eras: the name of its entry in
    /// the generated `mcp::ERROR_CODE_FACTS` (e.g. [`RESOURCE_NOT_FOUND`]), by which a legacy
    /// session's answer gets the 2025-11-25 code (`legacy::convert`).
    pub meaning: Option<&'static str>,
}

/// The era fact of a read of a resource the server does not have (`schema/eras.json`).
pub const RESOURCE_NOT_FOUND: &str = "resource_not_found";

pub use mcp_server::status_for;

impl Failure {
    /// The error response to request `id` (none when it could not be read) for `error`, with
    /// the HTTP status `mcp_server::status_of` gives it and its meaning kept.
    pub fn rpc(id: Option<&mcp::RequestId>, error: RpcError) -> Self {
        Failure {
            status: mcp_server::status_of(&error),
            meaning: error.meaning,
            body: mcp_server::checks::error_text::<Mcp>(id, error),
        }
    }

    /// A generic error response (`JSONRPCErrorResponse`).
    pub fn new(id: Option<&mcp::RequestId>, code: i64, message: impl Into<String>) -> Self {
        Self::error(id, mcp::Error::new(code, message))
    }

    fn error(id: Option<&mcp::RequestId>, error: mcp::Error) -> Self {
        let status = status_for(error.code);
        let mut response = mcp::JSONRPCErrorResponse::new(error);
        // No id when the request's could not be read.
        response.id = id.cloned();
        Self::typed(status, &response)
    }

    /// One of the schema's typed error responses (`HeaderMismatchError`, ...).
    pub fn typed<T: Serialize>(status: StatusCode, response: &T) -> Self {
        match serde_json::to_string(response) {
            Ok(body) => Failure {
                status,
                body,
                meaning: None,
            },
            Err(_) => Failure {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: mcp_server::checks::unwritable_error(),
                meaning: None,
            },
        }
    }

    /// The same failure with its error code replaced by `recode(code)` (the status and the
    /// meaning kept); unchanged if its body is not an error response.
    pub fn recode(self, recode: impl FnOnce(i64) -> i64) -> Self {
        let Ok(mut response) = serde_json::from_str::<mcp::JSONRPCErrorResponse>(&self.body) else {
            return self;
        };
        response.error.code = recode(response.error.code);
        Self {
            meaning: self.meaning,
            ..Self::typed(self.status, &response)
        }
    }

    /// `HEADER_MISMATCH` (HTTP 400).
    pub fn header_mismatch(id: Option<&mcp::RequestId>, message: impl Into<String>) -> Self {
        let mut response =
            mcp::HeaderMismatchError::new(mcp::HeaderMismatchErrorError::new(message));
        response.id = id.cloned();
        Self::typed(StatusCode::BAD_REQUEST, &response)
    }
}

/// The answer to request `r` (of id `id`) for what its handler answered: the response as
/// JSON text, or the error response with its HTTP status.
pub fn answer<R>(id: &mcp::RequestId, r: &R, response: Response<R>) -> Result<String, Failure>
where
    R: Respond,
    R::Response: Serialize,
{
    match response {
        Ok(result) => to_json(&r.respond(result)),
        Err(error) => Err(Failure::rpc(Some(id), error)),
    }
}

/// A message (a response, a notification) as JSON text, written from its generated type.
pub fn to_json<T: Serialize>(message: &T) -> Result<String, Failure> {
    serde_json::to_string(message).map_err(|e| {
        Failure::new(
            None,
            INTERNAL_ERROR,
            format!("serializing the response: {e}"),
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

/// What a handler task sends to the HTTP layer: notifications, then one final response.
/// Each as JSON text. `Cancelled` instead of the response when the client cancelled the request
/// (a legacy `notifications/cancelled`): the response then ends with no answer.
/// `EndConnection` (legacy sessions only, whose streams are resumable): the connection that
/// carries the response closes now, and the client reconnects to read the rest.
pub enum Msg {
    Note(String),
    Done(Result<String, Failure>),
    Cancelled,
    EndConnection,
}

impl Msg {
    /// The JSON-RPC message this carries (a notification, the response or its error), if any.
    pub fn into_text(self) -> Option<String> {
        match self {
            Msg::Note(text) | Msg::Done(Ok(text)) => Some(text),
            Msg::Done(Err(f)) => Some(f.body),
            Msg::Cancelled | Msg::EndConnection => None,
        }
    }
}

impl Ctx {
    /// The error response to this request for `error`.
    pub fn fail(&self, error: RpcError) -> Failure {
        Failure::rpc(Some(&self.id), error)
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
