//! Server-sent event responses: one JSON-RPC message per event, passed on by proxies as it
//! comes (both eras' streams use them).

use std::convert::Infallible;

use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use tokio_stream::StreamExt as _;
use tokio_stream::wrappers::ReceiverStream;

/// One SSE event carrying one JSON-RPC message.
pub fn event(text: String) -> Result<Event, Infallible> {
    Ok(Event::default().event("message").data(text))
}

/// `X-Accel-Buffering: no` on an SSE response, so that a reverse proxy passes each event on
/// as it comes instead of buffering the stream.
pub fn unbuffered(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::HeaderName::from_static("x-accel-buffering"),
        header::HeaderValue::from_static("no"),
    );
    response
}

/// An SSE response that stays open (subscriptions/listen), with keep-alive comments; each
/// item is the JSON text of one message.
pub fn sse_stream(rx: mpsc::Receiver<String>) -> Response {
    let events = ReceiverStream::new(rx).map(event);
    unbuffered(
        Sse::new(events)
            .keep_alive(KeepAlive::default())
            .into_response(),
    )
}
