//! A modern (2026-07-28) message, checked and dispatched whatever carries it: the checks of a
//! message's body (6, 8 to 11, 13 and 15 of the Streamable HTTP list) and the dispatch to a
//! [`Service`], with the checks that read a transport's headers (12, 14, 16) asked of
//! [`Headers`] in their place in that order. Streamable HTTP and stdio both serve a modern
//! message with [`serve`] and send its [`Outcome`] their own way.
//!
//! 6. The message is one JSON-RPC message (no batches): else `PARSE_ERROR` /
//!    `INVALID_REQUEST` ([`read_envelope`]).
//! 8. It is a request: a response is `INVALID_REQUEST` (this server sends no requests); a
//!    notification is accepted (`INVALID_REQUEST` if it does not read as one).
//! 9. `jsonrpc` is `"2.0"` and the id a string or an integer: else `INVALID_REQUEST`.
//! 10. The method is one of [`Schema::ClientRequest`]'s (its tag values) or [`Service::extension_methods`]: else
//!     `METHOD_NOT_FOUND`.
//! 11. `params._meta` reads as [`Schema::RequestMeta`]: else `INVALID_PARAMS`.
//! 12. [`Headers::check_version`].
//! 13. The version is one of [`Service::versions`]: else `UNSUPPORTED_PROTOCOL_VERSION`.
//! 14. [`Headers::check_names`].
//! 15. The message reads as [`Schema::ClientRequest`] (or is handed whole to
//!     [`Service::extension`]): else `INVALID_PARAMS`.
//! 16. [`Headers::check_arguments`], for a `tools/call`.

use std::sync::Arc;

use mcp_runtime::era::Era;
use mcp_runtime::error_code::{
    INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, UNSUPPORTED_PROTOCOL_VERSION,
};
use mcp_runtime::param_headers::ParamHeader;
use mcp_runtime::{RpcError, TaggedUnion};
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::answer::Msg;
use crate::ctx::{Ctx, Notifier};
use crate::probe::{self, Envelope, Params, Unreadable};
use crate::work::Cancel;
use crate::{Method, Named, Refused, Schema, Service};

/// A message's envelope, as [`probe::read`] reads it.
pub type Read<'a, S> = Envelope<'a, <S as Schema>::RequestId>;

/// The checks a transport makes with what it carries beside the body (its headers); each
/// passes when the transport has none (stdio).
pub trait Headers {
    /// Check 12: the protocol version the transport names equals `_meta`'s (`version`).
    fn check_version<S: Schema>(&self, id: &S::RequestId, version: &str) -> Result<(), Refused<S>> {
        let _ = (id, version);
        Ok(())
    }

    /// Check 14: the method and the name the transport names equal the body's (`named`: the
    /// member of `params` the name mirrors, if the method has one).
    fn check_names<S: Schema>(
        &self,
        id: &S::RequestId,
        method: &str,
        named: Option<Named>,
        params: Option<&Params<'_>>,
    ) -> Result<(), Refused<S>> {
        let _ = (id, method, named, params);
        Ok(())
    }

    /// Check 16: each argument of a `tools/call` the tool `mirrored` in a header has its
    /// header, equal to the argument.
    fn check_arguments<S: Schema>(
        &self,
        id: &S::RequestId,
        mirrored: &[ParamHeader],
        arguments: Option<&Map<String, Value>>,
    ) -> Result<(), Refused<S>> {
        let _ = (id, mirrored, arguments);
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
pub enum Outcome<S: Schema> {
    /// A notification, accepted: nothing to answer.
    Accepted,
    /// Answered at once, with this response (JSON text).
    Answer(String),
    /// Refused with this error.
    Refused(Refused<S>),
    /// Its handler runs: its notifications, then its response, come on `rx`; dropping
    /// `cancel` stops it.
    Running {
        /// What the handler sends.
        rx: mpsc::UnboundedReceiver<Msg<S>>,
        /// Stops the handler when dropped.
        cancel: Cancel,
    },
    /// A `subscriptions/listen` stream: its notifications, then (when the server ends it) its
    /// response, come on the receiver.
    Listen(mpsc::Receiver<String>),
}

/// Check 6: the message is one JSON-RPC message (no batches in 2026-07-28).
pub fn read_envelope<S: Schema>(body: &[u8]) -> Result<Read<'_, S>, Refused<S>> {
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

/// `UNSUPPORTED_PROTOCOL_VERSION` to request `id`, which asked for `requested`: `data` lists
/// the versions `supported`.
pub fn unsupported_version<S: Schema>(
    id: &S::RequestId,
    requested: &str,
    supported: &[&str],
    message: String,
) -> Refused<S> {
    let supported = supported.iter().map(|v| (*v).to_owned()).collect();
    let data = S::unsupported_version_data(requested, supported);
    let mut error = RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, message);
    error.data = serde_json::to_value(data).ok();
    Refused::new(Some(id), error)
}

/// Checks 8 to 16 of the modern message `body` (its `envelope` read by [`read_envelope`]), of
/// `principal`, then its dispatch to `service`.
pub fn serve<S: Schema, V: Service<S>>(
    service: &Arc<V>,
    envelope: Read<'_, S>,
    body: &[u8],
    principal: String,
    headers: &impl Headers,
) -> Outcome<S> {
    match check(service.as_ref(), &envelope, body, headers) {
        Ok(None) => Outcome::Accepted,
        Ok(Some((id, meta))) => {
            let method = envelope.method.as_deref().unwrap_or_default();
            let ctx = Ctx {
                notifier: Notifier::new(None, &meta).with_logger(service.logger()),
                id,
                meta: Arc::new(meta),
                principal,
                era: Era::Modern,
            };
            if is_in(service.extension_methods(), method) {
                return extension(service, ctx, method.to_owned(), body.to_vec());
            }
            drop(envelope);
            dispatch(service, ctx, body, headers)
        }
        Err(f) => Outcome::Refused(f),
    }
}

/// The answer to a request of an extension's `method` (the whole message `body`), in a task
/// of its own as [`run`] runs a handler (it sends no notifications).
fn extension<S: Schema, V: Service<S>>(
    service: &Arc<V>,
    ctx: Ctx<S>,
    method: String,
    body: Vec<u8>,
) -> Outcome<S> {
    let (tx, rx) = mpsc::unbounded_channel();
    let running = service.running().map(|r| r.enter());
    let service = Arc::clone(service);
    let handler = tokio::spawn(async move {
        let _running = running;
        let done = service.extension(ctx, &method, &body).await;
        let _ = tx.send(Msg::Done(done));
    });
    Outcome::Running {
        rx,
        cancel: Cancel::new(handler.abort_handle()),
    }
}

/// A request that passed checks 8 to 14: its id and `_meta`.
type Checked<S> = (<S as Schema>::RequestId, <S as Schema>::RequestMeta);

/// Checks 8 to 14: the request's id and `_meta`, or none for a notification.
fn check<S: Schema, V: Service<S>>(
    service: &V,
    envelope: &Read<'_, S>,
    body: &[u8],
    headers: &impl Headers,
) -> Result<Option<Checked<S>>, Refused<S>> {
    let invalid = |message: String| Refused::new(None, RpcError::new(INVALID_REQUEST, message));
    let Some(method) = envelope.method.as_deref() else {
        // A response: in the stateless protocol the server sends no requests to answer.
        return Err(invalid(
            "Invalid Request: this server sends no requests, so it takes no responses".into(),
        ));
    };
    let Some(id) = envelope.id.as_ref() else {
        // A notification (e.g. notifications/cancelled): accepted, nothing to answer.
        return match serde_json::from_slice::<S::Notification>(body) {
            Ok(_) => Ok(None),
            Err(e) => Err(invalid(format!("Invalid Request: {e}"))),
        };
    };
    let (Some(id), Some("2.0")) = (id.clone(), envelope.jsonrpc.as_deref()) else {
        return Err(invalid(
            "Invalid Request: a request has \"jsonrpc\": \"2.0\" and a string or integer id".into(),
        ));
    };
    let Some((_, named)) = find(service, method) else {
        return Err(Refused::new(
            Some(&id),
            RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}")),
        ));
    };
    let params = envelope.params.as_ref().map(|p| &p.0);
    let meta = read_meta::<S>(&id, params)?;
    let version = S::protocol_version(&meta);
    headers.check_version(&id, version)?;
    if !service.versions().contains(&version) {
        let message = format!("Unsupported protocol version {version:?}");
        return Err(unsupported_version(
            &id,
            version,
            service.versions(),
            message,
        ));
    }
    headers.check_names(&id, method, named, params)?;
    Ok(Some((id, meta)))
}

/// The entry of `method` among the methods a client may call: the generated
/// `ClientRequest`'s (its tag values) and the service's extensions'.
fn find<S: Schema, V: Service<S>>(service: &V, method: &str) -> Option<Method> {
    if let Some(known) = S::ClientRequest::TAG_VALUES.iter().find(|m| **m == method) {
        let named = S::NAMED
            .iter()
            .find(|(m, _)| m == known)
            .and_then(|(_, n)| *n);
        return Some((known, named));
    }
    service
        .extension_methods()
        .iter()
        .find(|(m, _)| *m == method)
        .copied()
}

/// Whether `method` is one of `methods`.
fn is_in(methods: &[Method], method: &str) -> bool {
    methods.iter().any(|(m, _)| *m == method)
}

/// Check 11: `params._meta`, with the protocol version and the client's capabilities.
fn read_meta<S: Schema>(
    id: &S::RequestId,
    params: Option<&Params<'_>>,
) -> Result<S::RequestMeta, Refused<S>> {
    let invalid = |message: String| Refused::new(Some(id), RpcError::new(INVALID_PARAMS, message));
    match params.and_then(|p| p.meta) {
        Some(raw) => serde_json::from_str(raw.get())
            .map_err(|e| invalid(format!("Invalid params: _meta: {e}"))),
        None => Err(invalid(
            "Invalid params: every request carries _meta with io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities".into(),
        )),
    }
}

/// Checks 15 and 16, then the handler of the request (of context `ctx`) in a task of its own.
fn dispatch<S: Schema, V: Service<S>>(
    service: &Arc<V>,
    ctx: Ctx<S>,
    body: &[u8],
    headers: &impl Headers,
) -> Outcome<S> {
    // The one typed read of the message, from the bytes as sent.
    let request: S::ClientRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => {
            let error = RpcError::new(INVALID_PARAMS, format!("Invalid params: {e}"));
            return Outcome::Refused(ctx.fail(error));
        }
    };
    if let Some(call) = S::tool_call(&request) {
        let mirrored = service.mirrored_params(call.name);
        if let Err(f) = headers.check_arguments(&ctx.id, &mirrored, call.arguments) {
            return Outcome::Refused(f);
        }
    }
    if S::is_listen(&request) {
        return match Arc::clone(service).listen(ctx, request) {
            Ok(rx) => Outcome::Listen(rx),
            Err(f) => Outcome::Refused(f),
        };
    }
    run(service, ctx, request, headers.streams())
}

/// The handler of `request` in a task of its own; its notifications are sent if `streams` and
/// the request asked for any.
fn run<S: Schema, V: Service<S>>(
    service: &Arc<V>,
    mut ctx: Ctx<S>,
    request: S::ClientRequest,
    streams: bool,
) -> Outcome<S> {
    let streaming =
        streams && (S::progress_token(&*ctx.meta).is_some() || S::log_level(&*ctx.meta).is_some());
    let (tx, rx) = mpsc::unbounded_channel();
    if streaming {
        ctx.notifier = Notifier::new(Some(tx.clone()), &*ctx.meta).with_logger(service.logger());
    }
    let running = service.running().map(|r| r.enter());
    let service = Arc::clone(service);
    let handler = tokio::spawn(async move {
        let _running = running;
        let done = service.call(ctx, request).await;
        let _ = tx.send(Msg::Done(done));
    });
    Outcome::Running {
        rx,
        cancel: Cancel::new(handler.abort_handle()),
    }
}
