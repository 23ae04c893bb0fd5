//! A modern (2026-07-28) message, checked and dispatched whatever carries it: the checks of a
//! message's body (6, 8 to 11, 13 and 15 of `crate::http`) and the dispatch to the handlers,
//! with the checks that read a transport's headers (12, 14, 16) asked of [`Headers`] in their
//! place in that order. Streamable HTTP (`crate::http`) and stdio (`crate::stdio`) both serve a
//! modern message with [`serve`] and send its [`Outcome`] their own way.

use std::sync::Arc;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::probe::{self, Envelope, Unreadable};
use crate::rpc::{Ctx, Msg, Notifier, Refused};
use crate::tasks::{self, TaskRequest};
use crate::work::Cancel;
use crate::{App, MODERN_VERSIONS, mcp};

/// A message's envelope, as [`probe::read`] reads it.
pub type Read<'a> = Envelope<'a, mcp::RequestId>;

/// The checks a transport makes with what it carries beside the body (its headers); each
/// passes when the transport has none (stdio).
pub trait Headers {
    /// Check 12: the protocol version the transport names equals `_meta`'s.
    fn check_version(
        &self,
        _id: &mcp::RequestId,
        _meta: &mcp::RequestMetaObject,
    ) -> Result<(), Refused> {
        Ok(())
    }

    /// Check 14: the method and the name the transport names equal the body's.
    fn check_names(
        &self,
        _id: &mcp::RequestId,
        _method: &str,
        _params: Option<&probe::Params<'_>>,
    ) -> Result<(), Refused> {
        Ok(())
    }

    /// Check 16: the arguments of a `tools/call` the transport mirrors equal the body's.
    fn check_arguments(
        &self,
        _id: &mcp::RequestId,
        _call: &mcp::CallToolRequest,
    ) -> Result<(), Refused> {
        Ok(())
    }

    /// Whether the answer may carry notifications before the response.
    fn streams(&self) -> bool {
        true
    }
}

/// A transport with nothing beside the body: stdio.
pub struct NoHeaders;

impl Headers for NoHeaders {}

/// What a modern message comes to.
pub enum Outcome {
    /// A notification, accepted: nothing to answer.
    Accepted,
    /// Answered at once, with this response (JSON text).
    Answer(String),
    /// Refused with this error.
    Refused(Refused),
    /// Its handler runs: its notifications, then its response, come on `rx`; dropping
    /// `cancel` stops it.
    Running {
        rx: mpsc::UnboundedReceiver<Msg>,
        cancel: Cancel,
    },
    /// A `subscriptions/listen` stream: its notifications, then (when the server ends it) its
    /// response, come on the receiver.
    Listen(mpsc::Receiver<String>),
}

/// Check 6: the message is one JSON-RPC message (no batches in 2026-07-28).
pub fn read_envelope(body: &[u8]) -> Result<Read<'_>, Refused> {
    probe::read(body).map_err(|e| match e {
        Unreadable::Syntax(e) => Refused::new(
            None,
            RpcError::new(PARSE_ERROR, format!("Parse error: {e}")),
        ),
        Unreadable::Shape(e) => Refused::new(
            None,
            RpcError::new(
                INVALID_REQUEST,
                format!(
                    "Invalid Request: one JSON-RPC message per POST (2026-07-28 has no batches): {e}"
                ),
            ),
        ),
    })
}

/// Checks 8 to 16 of the modern message `body` (its `envelope` read by [`read_envelope`]), of
/// `principal`, then its dispatch.
pub fn serve(
    app: Arc<App>,
    envelope: Read<'_>,
    body: &[u8],
    principal: String,
    headers: &impl Headers,
) -> Outcome {
    match check(&envelope, body, headers) {
        Ok(None) => Outcome::Accepted,
        Ok(Some((id, meta))) => {
            let method = envelope.method.as_deref().unwrap_or_default();
            if tasks::methods().contains(&method) {
                return answer_task(app, id, meta, principal, method, body);
            }
            drop(envelope);
            dispatch(app, id, meta, principal, body, headers)
        }
        Err(f) => Outcome::Refused(f),
    }
}

/// A request that passed checks 8 to 14: its id and `_meta`.
type Checked = (mcp::RequestId, mcp::RequestMetaObject);

/// Checks 8 to 14: the request's id and `_meta`, or none for a notification.
fn check(
    envelope: &Read<'_>,
    body: &[u8],
    headers: &impl Headers,
) -> Result<Option<Checked>, Refused> {
    let invalid = |message: String| Refused::new(None, RpcError::new(INVALID_REQUEST, message));
    let Some(method) = envelope.method.as_deref() else {
        // A response: in the stateless protocol the server sends no requests to answer.
        return Err(invalid(
            "Invalid Request: this server sends no requests, so it takes no responses".into(),
        ));
    };
    let Some(id) = envelope.id.as_ref() else {
        // A notification (e.g. notifications/cancelled): accepted, nothing to answer.
        return match serde_json::from_slice::<mcp::JSONRPCNotification>(body) {
            Ok(_) => Ok(None),
            Err(e) => Err(invalid(format!("Invalid Request: {e}"))),
        };
    };
    let (Some(id), Some("2.0")) = (id.clone(), envelope.jsonrpc.as_deref()) else {
        return Err(invalid(
            "Invalid Request: a request has \"jsonrpc\": \"2.0\" and a string or integer id".into(),
        ));
    };
    if !is_known_method(method) {
        return Err(Refused::new(
            Some(&id),
            RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}")),
        ));
    }
    let params = envelope.params.as_ref().map(|p| &p.0);
    let meta = read_meta(&id, params)?;
    headers.check_version(&id, &meta)?;
    if !MODERN_VERSIONS.contains(&meta.protocol_version.as_str()) {
        let message = format!("Unsupported protocol version {:?}", meta.protocol_version);
        return Err(crate::rpc::unsupported_version(
            &id,
            &meta.protocol_version,
            message,
        ));
    }
    headers.check_names(&id, method, params)?;
    Ok(Some((id, meta)))
}

/// The methods a client may call, each named by its generated request type.
fn is_known_method(method: &str) -> bool {
    use mcp_runtime::Request as R;
    tasks::methods().contains(&method)
        || [
            <mcp::DiscoverRequest as R>::METHOD,
            <mcp::ListToolsRequest as R>::METHOD,
            <mcp::CallToolRequest as R>::METHOD,
            <mcp::ListPromptsRequest as R>::METHOD,
            <mcp::GetPromptRequest as R>::METHOD,
            <mcp::ListResourcesRequest as R>::METHOD,
            <mcp::ListResourceTemplatesRequest as R>::METHOD,
            <mcp::ReadResourceRequest as R>::METHOD,
            <mcp::SubscriptionsListenRequest as R>::METHOD,
            <mcp::CompleteRequest as R>::METHOD,
        ]
        .contains(&method)
}

/// Check 11: `params._meta`, with the protocol version and the client's capabilities.
fn read_meta(
    id: &mcp::RequestId,
    params: Option<&probe::Params<'_>>,
) -> Result<mcp::RequestMetaObject, Refused> {
    let invalid = |message: String| Refused::new(Some(id), RpcError::new(INVALID_PARAMS, message));
    match params.and_then(|p| p.meta) {
        Some(raw) => serde_json::from_str(raw.get())
            .map_err(|e| invalid(format!("Invalid params: _meta: {e}"))),
        None => Err(invalid(
            "Invalid params: every request carries _meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities".into(),
        )),
    }
}

fn invalid_params(id: &mcp::RequestId, e: serde_json::Error) -> Refused {
    Refused::new(
        Some(id),
        RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}")),
    )
}

/// Checks 15 and 16, then the handler of the request in a task of its own.
fn dispatch(
    app: Arc<App>,
    id: mcp::RequestId,
    meta: mcp::RequestMetaObject,
    principal: String,
    body: &[u8],
    headers: &impl Headers,
) -> Outcome {
    // The one typed read of the message, from the bytes as sent.
    let request: mcp::ClientRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => return Outcome::Refused(invalid_params(&id, e)),
    };
    if let mcp::ClientRequest::CallToolRequest(call) = &request
        && let Err(f) = headers.check_arguments(&id, call)
    {
        return Outcome::Refused(f);
    }
    if let mcp::ClientRequest::SubscriptionsListenRequest(listen) = request {
        return match crate::features::listen(app, principal, &meta, listen) {
            Ok(rx) => Outcome::Listen(rx),
            Err(f) => Outcome::Refused(f),
        };
    }
    let streaming =
        headers.streams() && (meta.progress_token.is_some() || meta.log_level.is_some());
    let (tx, rx) = mpsc::unbounded_channel();
    let running = app.running.enter();
    let ctx = Ctx {
        id,
        notifier: Notifier::new(streaming.then(|| tx.clone()), &meta),
        meta,
        principal,
        app,
    };
    let handler = tokio::spawn(async move {
        let _running = running;
        let done = crate::features::dispatch(ctx, request).await;
        let _ = tx.send(Msg::Done(done));
    });
    Outcome::Running {
        rx,
        cancel: Cancel::new(handler.abort_handle()),
    }
}

/// Answers a request of the tasks extension (`method`, one of `tasks::methods()`) at once.
fn answer_task(
    app: Arc<App>,
    id: mcp::RequestId,
    meta: mcp::RequestMetaObject,
    principal: String,
    method: &str,
    body: &[u8],
) -> Outcome {
    let read = if method == <mcp::UpdateTaskRequest as mcp_runtime::Request>::METHOD {
        // Answers to keys the task does not wait on are dropped unread, whatever they hold:
        // the one request read through a `Value`.
        serde_json::from_slice::<Value>(body).and_then(|mut message| {
            tasks::ignore_unasked(&principal, &app.tasks, &mut message);
            TaskRequest::read(method, message)
        })
    } else {
        TaskRequest::from_slice(method, body)
    };
    let request = match read {
        Ok(r) => r,
        Err(e) => return Outcome::Refused(invalid_params(&id, e)),
    };
    let ctx = Ctx {
        id,
        notifier: Notifier::new(None, &meta),
        meta,
        principal,
        app,
    };
    match tasks::dispatch(&ctx, request) {
        Ok(text) => Outcome::Answer(text),
        Err(f) => Outcome::Refused(f),
    }
}
