//! What a handler learns about its request besides the params ([`Ctx`]), and the [`Notifier`]
//! it reports progress and log messages through.
//!
//! Every message is written straight from its generated type to JSON text
//! (`serde_json::to_string`), never through `serde_json::Value`, which would sort the members
//! by name: on the wire they stay in the order the generated type writes them.

use std::sync::Arc;

use mcp_runtime::era::Era;
use mcp_runtime::{Respond, Response, RpcError};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::answer::Msg;
use crate::{Refused, Schema};

/// The logger a [`Notifier`] names in its log messages unless told another.
pub const DEFAULT_LOGGER: &str = "mcp-server";

/// What a handler learns about the request besides its params.
pub struct Ctx<S: Schema> {
    /// The request's id.
    pub id: S::RequestId,
    /// The request's `_meta`: its protocol version, the client's capabilities, … (shared: a
    /// legacy session's requests all read the one its `initialize` made).
    pub meta: Arc<S::RequestMeta>,
    /// Who is asking: with [`Config::auth`](crate::Config::auth), the subject of the validated
    /// token (`<issuer>#<sub>`, [`Grant::principal`](crate::auth::Grant::principal)); without
    /// it, the `Authorization` header as it came, else `anonymous`.
    pub principal: String,
    /// The era the client speaks: [`Era::Modern`], or [`Era::Legacy`] for a request of a
    /// 2025-11-25 session (converted, its `_meta` made from the session).
    pub era: Era,
    /// Where the handler sends its notifications.
    pub notifier: Notifier<S>,
}

impl<S: Schema> Ctx<S> {
    /// The error response to this request for `error`.
    pub fn fail(&self, error: RpcError) -> Refused<S> {
        Refused::new(Some(&self.id), error)
    }
}

/// The answer to request `r` (of id `id`) for what its handler answered: the response as
/// JSON text, or the error response with its HTTP status.
pub fn answer<S, R>(id: &S::RequestId, r: &R, response: Response<R>) -> Result<String, Refused<S>>
where
    S: Schema,
    R: Respond,
    R::Response: Serialize,
{
    match response {
        Ok(result) => to_json(&r.respond(result)),
        Err(error) => Err(Refused::new(Some(id), error)),
    }
}

/// The response to `request` with `result`, as JSON text ([`mcp_runtime::service::answer`] of
/// a result); an internal error if it cannot be written. What the extensions' bindings (`bind_tasks!`, `bind_skills!`) answer with.
pub fn written<R>(
    request: &R,
    result: impl Into<R::Result>,
) -> Result<String, mcp_runtime::RpcError>
where
    R: mcp_runtime::Respond<Response: Serialize>,
{
    mcp_runtime::service::answer(request, Ok(result.into()))
}

/// A message (a response, a notification) as JSON text, written from its generated type.
pub fn to_json<S: Schema, T: Serialize>(message: &T) -> Result<String, Refused<S>> {
    serde_json::to_string(message).map_err(|e| {
        let error = RpcError::internal_error(format!("serializing the response: {e}"));
        Refused::new(None, error)
    })
}

/// Sends notifications about one request, if its response is a stream (the request carried a
/// progress token or a log level, and its transport streams); does nothing otherwise.
pub struct Notifier<S: Schema> {
    tx: Option<mpsc::UnboundedSender<Msg<S>>>,
    progress_token: Option<S::ProgressToken>,
    log_level: Option<S::LoggingLevel>,
    /// The era of the client: a legacy one's notifications are written in its types.
    era: Era,
    logger: &'static str,
}

impl<S: Schema> Clone for Notifier<S> {
    fn clone(&self) -> Self {
        Notifier {
            tx: self.tx.clone(),
            progress_token: self.progress_token.clone(),
            log_level: self.log_level,
            era: self.era,
            logger: self.logger,
        }
    }
}

impl<S: Schema> Notifier<S> {
    /// A notifier of the request of `meta`, sending on `tx` (none: nothing is sent).
    pub fn new(tx: Option<mpsc::UnboundedSender<Msg<S>>>, meta: &S::RequestMeta) -> Self {
        Notifier {
            tx,
            progress_token: S::progress_token(meta).cloned(),
            log_level: S::log_level(meta),
            era: Era::Modern,
            logger: DEFAULT_LOGGER,
        }
    }

    /// The same, for a legacy session's request: notifications in the legacy types.
    #[must_use]
    pub fn legacy(mut self) -> Self {
        self.era = Era::Legacy;
        self
    }

    /// The same, naming `logger` in its log messages.
    #[must_use]
    pub fn with_logger(mut self, logger: &'static str) -> Self {
        self.logger = logger;
        self
    }

    fn send(&self, text: Option<String>) {
        if let (Some(tx), Some(text)) = (&self.tx, text) {
            let _ = tx.send(Msg::Note(text));
        }
    }

    /// Closes the connection the response is streamed on, for a legacy client whose stream
    /// resumes (`GET` with `Last-Event-ID`); nothing in the modern era, whose streams do not
    /// resume (a broken one loses its request).
    pub fn end_connection(&self) {
        if self.era == Era::Legacy
            && let Some(tx) = &self.tx
        {
            let _ = tx.send(Msg::EndConnection);
        }
    }

    /// `notifications/progress`, if the request asked for progress.
    pub fn progress(&self, progress: f64, total: f64, message: impl Into<String>) {
        if let Some(token) = &self.progress_token {
            self.send(S::progress(
                token,
                progress,
                total,
                message.into(),
                self.era,
            ));
        }
    }

    /// `notifications/message`, only if the request asked for log messages at or below
    /// `level`.
    pub fn log(&self, level: S::LoggingLevel, data: Value) {
        let Some(threshold) = self.log_level else {
            return;
        };
        // The generated levels are ordered by severity (their overlay lists them so).
        if level >= threshold {
            self.send(S::log(level, data, self.logger, self.era));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tests::mcp;

    crate::bind!(Mcp = mcp);

    fn meta() -> mcp::RequestMetaObject {
        mcp::RequestMetaObject::new(mcp::ClientCapabilities::new(), "2026-07-28")
            .with_log_level(mcp::LoggingLevel::Warning)
            .with_progress_token(mcp::ProgressToken::String("p".into()))
    }

    fn sent(rx: &mut mpsc::UnboundedReceiver<Msg<Mcp>>) -> Vec<Value> {
        let mut notes = Vec::new();
        while let Ok(m) = rx.try_recv() {
            let text = m.into_text().unwrap();
            notes.push(serde_json::from_str(&text).unwrap());
        }
        notes
    }

    #[test]
    fn only_log_messages_at_or_above_the_level_are_sent() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let notifier = Notifier::<Mcp>::new(Some(tx), &meta()).with_logger("test");
        notifier.log(mcp::LoggingLevel::Info, Value::from("quiet"));
        notifier.log(mcp::LoggingLevel::Error, Value::from("loud"));
        notifier.progress(1.0, 4.0, "a quarter");
        let notes = sent(&mut rx);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(notes[0]["params"]["data"], "loud");
        assert_eq!(notes[0]["params"]["logger"], "test");
        assert_eq!(notes[1]["params"]["progressToken"], "p");
        assert_eq!(notes[1]["params"]["total"], 4.0);
    }

    #[test]
    fn a_modern_stream_is_never_ended_early() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        Notifier::<Mcp>::new(Some(tx.clone()), &meta()).end_connection();
        assert!(rx.try_recv().is_err());
        Notifier::<Mcp>::new(Some(tx), &meta())
            .legacy()
            .end_connection();
        assert!(matches!(rx.try_recv(), Ok(Msg::EndConnection)));
    }
}
