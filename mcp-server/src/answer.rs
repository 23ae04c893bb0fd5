//! A request's answer, from the task that handles it to the HTTP response: the handler sends
//! [`Msg`]s (notifications, then one final response) on a channel, and [`respond`] answers
//! plain JSON when the handler finished before it notified anything (an error then keeps its
//! HTTP status), else an SSE stream of its notifications ending with the response.

use std::convert::Infallible;

use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use mcp_runtime::RpcError;
use tokio::sync::mpsc;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::checks::json_response;
use crate::sse::{event, unbuffered};
use crate::work::Cancel;
use crate::{Refused, Schema};

/// What a handler task sends to the HTTP layer: notifications, then one final response.
/// Each as JSON text. `Cancelled` instead of the response when the client cancelled the request
/// (a legacy `notifications/cancelled`): the response then ends with no answer.
/// `EndConnection` (legacy sessions only, whose streams are resumable): the connection that
/// carries the response closes now, and the client reconnects to read the rest.
pub enum Msg<S: Schema> {
    /// A notification (or a server-to-client request) about the request, as JSON text.
    Note(String),
    /// The final response as JSON text, or the error it is refused with.
    Done(Result<String, Refused<S>>),
    /// The client cancelled the request: no answer.
    Cancelled,
    /// End the connection now; the stream resumes on the next one.
    EndConnection,
}

impl<S: Schema> Msg<S> {
    /// The JSON-RPC message this carries (a notification, the response or its error), if any.
    pub fn into_text(self) -> Option<String> {
        match self {
            Msg::Note(text) | Msg::Done(Ok(text)) => Some(text),
            Msg::Done(Err(f)) => Some(f.text()),
            Msg::Cancelled | Msg::EndConnection => None,
        }
    }
}

/// The answer to one request of the stateless (2026-07-28) protocol: plain JSON when the
/// handler finished before it notified anything (errors then keep their HTTP status), else an
/// SSE stream of its notifications ending with the response.
///
/// `cancel` goes with the response: dropping it (the client went away) stops the handler.
pub async fn respond<S: Schema>(
    mut rx: mpsc::UnboundedReceiver<Msg<S>>,
    cancel: Cancel,
) -> Response {
    loop {
        return match rx.recv().await {
            None => {
                let error = RpcError::internal_error("the handler stopped without answering");
                Refused::<S>::new(None, error).into_response()
            }
            // Modern streams do not resume, so nothing ends their connection early (only a
            // legacy notifier sends `EndConnection`).
            Some(Msg::EndConnection) => continue,
            // Cancelled before it said anything: a stream that ends at once, with no answer.
            Some(Msg::Cancelled) => unbuffered(
                Sse::new(tokio_stream::empty::<Result<Event, Infallible>>()).into_response(),
            ),
            Some(Msg::Done(Ok(body))) => json_response(StatusCode::OK, body),
            Some(Msg::Done(Err(f))) => f.into_response(),
            Some(Msg::Note(first)) => {
                let first = tokio_stream::once(Msg::Note(first));
                let rest = UnboundedReceiverStream::new(rx);
                // The handler task sends `Done` last and then drops its sender, so the stream
                // ends right after the final response; `Cancelled` ends it with no response.
                let events = first
                    .chain(rest)
                    .map_while(move |m| {
                        let _held_by_the_stream = &cancel;
                        (!matches!(m, Msg::Cancelled)).then_some(m)
                    })
                    .filter_map(Msg::into_text);
                unbuffered(Sse::new(events.map(event)).into_response())
            }
        };
    }
}
