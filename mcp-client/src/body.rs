//! What the client reads from an HTTP response, never more than [`Config::with_max_message`]
//! bytes of one message (`crate::Config`): a JSON body whole, an SSE stream event by event.
//!
//! [`Config::with_max_message`]: crate::Config::with_max_message

use crate::error::ClientError;
use crate::sse::Events;

/// The body of `resp` as text, refused as soon as it passes `max` bytes (by its
/// `Content-Length` before a byte is read, else as it arrives).
pub(crate) async fn read_all(
    mut resp: reqwest::Response,
    max: usize,
) -> Result<String, ClientError> {
    if resp.content_length().is_some_and(|n| n > max as u64) {
        return Err(too_large("the response body", max));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(unread)? {
        if body.len() + chunk.len() > max {
            return Err(too_large("the response body", max));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// A response body that could not be read.
pub(crate) fn unread(e: reqwest::Error) -> ClientError {
    ClientError::Http(format!("reading the response: {e}"))
}

/// Refuses an SSE stream once an event holds more than `max` bytes: one it completed
/// (`completed`, the data the last chunk completed) or the one it is still reading.
pub(crate) fn check_event(
    events: &Events,
    completed: &[String],
    max: usize,
) -> Result<(), ClientError> {
    if events.buffered() > max || completed.iter().any(|d| d.len() > max) {
        return Err(too_large("an event of the response stream", max));
    }
    Ok(())
}

fn too_large(what: &str, max: usize) -> ClientError {
    ClientError::Http(format!(
        "{what} passed {max} bytes (Config::with_max_message): not read further"
    ))
}
