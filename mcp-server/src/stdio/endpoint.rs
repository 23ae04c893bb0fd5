//! A [`Service`] on stdio: every line the loop hands over goes through the checks of a modern
//! message that need no headers and the dispatch ([`crate::modern`], with
//! [`NoHeaders`](crate::modern::NoHeaders)); its notifications (progress, log messages) are
//! written as lines before its response, a `subscriptions/listen` stream's too, its response
//! when the server ends it. A legacy (2025-11-25) session of the process, if the server keeps
//! one, is reached through the [`Legacy`] hook, asked first about every line.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use mcp_runtime::RpcError;
use tokio::sync::mpsc;

use super::{Handler, Message, Outgoing};
use crate::answer::Msg;
use crate::modern::{self, NoHeaders, Outcome};
use crate::work::Cancel;
use crate::{Refused, Schema, Service};

/// Who a stdio client is: the process that started this one (no credentials on stdio).
pub const PRINCIPAL: &str = "stdio";

/// The answer to a line, on its way: the response, or nothing to write.
pub type Answering<'a> = Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;

/// The legacy session of a stdio process (the process is the session: no session id).
pub trait Legacy: Send + Sync + 'static {
    /// Serves `line` if it is the legacy session's (the `initialize` that opens it, or any
    /// message once it is open), writing what it sends before its answer through `out`;
    /// `None` for a modern message.
    fn serve<'a>(&'a self, line: &'a [u8], out: &Outgoing) -> Option<Answering<'a>>;
}

/// A [`Service`] as a stdio [`Handler`], with the process's legacy session if it keeps one.
pub struct Endpoint<S: Schema, V> {
    service: Arc<V>,
    legacy: Option<Box<dyn Legacy>>,
    schema: PhantomData<fn() -> S>,
}

impl<S: Schema, V: Service<S>> Endpoint<S, V> {
    /// `service` on stdio, with the `legacy` session hook if any.
    pub fn new(service: Arc<V>, legacy: Option<Box<dyn Legacy>>) -> Self {
        Endpoint {
            service,
            legacy,
            schema: PhantomData,
        }
    }

    /// A modern message: checked, then answered.
    async fn modern(&self, line: &[u8], out: Outgoing) -> Option<String> {
        let envelope = match modern::read_envelope::<S>(line) {
            Ok(e) => e,
            Err(f) => return Some(f.text()),
        };
        let principal = PRINCIPAL.to_owned();
        match modern::serve(&self.service, envelope, line, principal, &NoHeaders) {
            Outcome::Accepted => None,
            Outcome::Answer(text) => Some(text),
            Outcome::Refused(f) => Some(f.text()),
            Outcome::Running { rx, cancel } => forward(rx, &out, cancel).await,
            Outcome::Listen(rx) => forward_listen::<S>(rx, &out).await,
        }
    }
}

impl<S: Schema, V: Service<S>> Handler for Endpoint<S, V> {
    fn cancel_method(&self) -> Option<&'static str> {
        Some(S::CANCELLED)
    }

    async fn handle(&self, message: Message, out: Outgoing) -> Option<String> {
        if let Some(legacy) = &self.legacy
            && let Some(answering) = legacy.serve(&message.line, &out)
        {
            return answering.await;
        }
        self.modern(&message.line, out).await
    }
}

/// Writes what a handler sends (notifications, server-to-client requests) as it comes, and
/// returns its response; nothing if it was cancelled. `cancel` stops it if this is dropped
/// first (the request was cancelled, or the input ended).
pub async fn forward<S: Schema>(
    mut rx: mpsc::UnboundedReceiver<Msg<S>>,
    out: &Outgoing,
    cancel: Cancel,
) -> Option<String> {
    let _cancel = cancel;
    while let Some(message) = rx.recv().await {
        match message {
            Msg::Note(text) => out.send(text).await.ok()?,
            Msg::Done(done) => return Some(done.unwrap_or_else(|f| f.text())),
            Msg::Cancelled => return None,
            Msg::EndConnection => {}
        }
    }
    let error = RpcError::internal_error("the handler stopped without answering");
    Some(Refused::<S>::new(None, error).text())
}

/// Writes a `subscriptions/listen` stream's notifications as they come, and returns its
/// response (when the server ends it, or the error that ends it) once it comes.
async fn forward_listen<S: Schema>(
    mut rx: mpsc::Receiver<String>,
    out: &Outgoing,
) -> Option<String> {
    while let Some(text) = rx.recv().await {
        if !is_notification::<S>(&text) {
            return Some(text);
        }
        out.send(text).await.ok()?;
    }
    None
}

/// Whether the message `text` (written by this server) is a notification.
fn is_notification<S: Schema>(text: &str) -> bool {
    modern::read_envelope::<S>(text.as_bytes()).is_ok_and(|e| e.method.is_some() && e.id.is_none())
}
