//! What answers a request, whatever carried it (an HTTP body, an SSE event, a stdio line), and
//! the notifications about it that the client logs.

use serde_json::Value;

/// The JSON-RPC response to one request, as the JSON text it came in.
pub(crate) struct Answer {
    pub text: String,
    pub is_error: bool,
}

/// Logs one event's data if it is a progress notification (`params.progress`, the same in both
/// eras), its numbers as the protocol's numbers read (`3`, never `3.0`).
pub(crate) fn log_progress_event(log: &crate::Log, data: &str) {
    let Ok(note) = serde_json::from_str::<Value>(data.trim()) else {
        return;
    };
    let Some(params) = note.get("params").filter(|_| note.get("id").is_none()) else {
        return;
    };
    let number = |v: &Value| v.as_f64().map_or_else(|| v.to_string(), |n| n.to_string());
    let Some(progress) = params.get("progress").map(number) else {
        return;
    };
    let total = params.get("total").map(number).unwrap_or_default();
    let message = params.get("message").and_then(Value::as_str).unwrap_or("");
    note!(
        log,
        "notifications/progress: {progress}/{total} {message:?}"
    );
}
