//! The HTTP exchanges of a legacy (2025-11-25) session, as methods of [`Session`]: opening it
//! (`initialize`, `notifications/initialized`, the GET stream), sending a request in it and
//! reading its answer from a JSON body or an SSE stream (answering the server's own requests
//! there, resuming a stream that ends early), and ending it with DELETE. What each message
//! becomes in the other revision is `crate::legacy`'s.

use std::time::Duration;

use mcp_runtime::era::Era;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{
    Answer, ClientError, Connected, Envelope, Outgoing, Session, client_info, read_answer,
};
use crate::legacy::{self, Link};
use crate::mcp;
use crate::sse;

/// How many times a legacy request's SSE stream that ends before its response is resumed.
const MAX_RECONNECTS: usize = 3;
/// How long the client waits before resuming a stream when the server named no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);

/// An SSE stream the client reads, with what it read so far.
pub(super) struct Stream {
    resp: reqwest::Response,
    events: sse::Events,
}

/// Which stream a chunk came from, while a legacy request is open.
enum Chunk {
    /// The request's own stream.
    Request(reqwest::Result<Option<Vec<u8>>>),
    /// The session's GET stream.
    Listen(reqwest::Result<Option<Vec<u8>>>),
}

impl Session {
    /// Opens a 2025-11-25 session: `initialize` (the session id and version it agrees are sent
    /// with every later message), then `notifications/initialized`.
    pub(super) async fn initialize(&mut self) -> Result<Connected, ClientError> {
        self.listen = None;
        self.era = Era::Legacy;
        self.link = Some(Link {
            session_id: None,
            version: legacy::VERSION.to_owned(),
        });
        let id = self.next_id();
        let request = legacy::initialize(id.clone(), &self.capabilities, client_info())
            .map_err(ClientError::Protocol)?;
        let body = serde_json::to_vec(&request)
            .map_err(|e| ClientError::Protocol(format!("serializing initialize: {e}")))?;
        let (answer, session_id) = self.legacy_post(body, &id).await?;
        let result = legacy_result(answer, "initialize")?;
        let result = legacy::read_initialize(result).map_err(ClientError::Protocol)?;
        if let Some(link) = &mut self.link {
            link.session_id = session_id;
            link.version.clone_from(&result.protocol_version);
        }
        self.legacy_notify(legacy::initialized().to_string().into_bytes())
            .await?;
        self.listen = self.open_listen().await;
        Ok(Connected {
            era: Era::Legacy,
            server: Some(result.server_info.name.clone()),
            versions: vec![result.protocol_version],
            capabilities: legacy::capabilities(result.capabilities)
                .map_err(ClientError::Protocol)?,
        })
    }

    /// Ends a legacy session with DELETE (a server that does not allow it answers 405, which
    /// changes nothing); nothing to end in the modern era.
    pub async fn close(&mut self) {
        self.listen = None;
        let Some(link) = self.link.take() else {
            return;
        };
        let Some(session_id) = &link.session_id else {
            return;
        };
        let sent = self
            .http
            .delete(&self.url)
            .header("mcp-session-id", session_id)
            .header("mcp-protocol-version", &link.version)
            .send()
            .await;
        match sent {
            Ok(r) => eprintln!("DELETE session: HTTP {}", r.status().as_u16()),
            Err(e) => eprintln!("DELETE session: {e}"),
        }
    }

    /// Opens the session's GET stream; `None` when the server offers none (405, or any other
    /// answer that is not an SSE stream).
    async fn open_listen(&self) -> Option<Stream> {
        let sent = self
            .in_session(self.http.get(&self.url))
            .header("accept", "text/event-stream")
            .send()
            .await;
        match sent {
            Ok(resp) if resp.status().is_success() && is_sse(&resp) => Some(Stream {
                resp,
                events: sse::Events::default(),
            }),
            Ok(resp) => {
                eprintln!("no GET stream: HTTP {}", resp.status().as_u16());
                None
            }
            Err(e) => {
                eprintln!("no GET stream: {e}");
                None
            }
        }
    }

    /// `send` in a legacy session: the request converted to 2025-11-25, its result back to
    /// the modern type `Resp` reads.
    pub(super) async fn send_legacy<Req: Outgoing, Resp: DeserializeOwned>(
        &mut self,
        request: Req,
    ) -> Result<(Req, Resp), ClientError> {
        let protocol = |e: String| ClientError::Protocol(format!("{}: {e}", Req::METHOD));
        let modern = serde_json::to_value(&request).map_err(|e| protocol(e.to_string()))?;
        let body = legacy::request_to_legacy(modern).map_err(protocol)?;
        let answer = match self.legacy_post(body.clone(), request.id()).await {
            // 2025-11-25: after a 404 the client opens a new session and sends again.
            Err(ClientError::SessionEnded) => {
                eprintln!("the server ended the session: initialize again");
                self.initialize().await?;
                self.legacy_post(body, request.id()).await?.0
            }
            other => other?.0,
        };
        let result = legacy_result(answer, Req::METHOD)?;
        let result = legacy::result_to_modern(Req::METHOD, result).map_err(protocol)?;
        let response = serde_json::json!({"jsonrpc": "2.0", "id": request.id(), "result": result});
        let resp = read_answer(&request, &response.to_string())
            .map_err(|e| protocol(format!("reading the response: {e}")))?;
        Ok((request, resp))
    }

    /// `builder` with the legacy session's headers (after `initialize`).
    fn in_session(&self, mut builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if let Some(link) = &self.link {
            if let Some(id) = &link.session_id {
                builder = builder.header("mcp-session-id", id);
            }
            builder = builder.header("mcp-protocol-version", &link.version);
        }
        builder
    }

    /// POSTs a message of the legacy session.
    async fn legacy_send(&self, body: Vec<u8>) -> Result<reqwest::Response, ClientError> {
        self.in_session(self.http.post(&self.url))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body)
            .send()
            .await
            .map_err(|e| ClientError::Http(e.to_string()))
    }

    /// POSTs a notification or a response of the legacy session (answered with 202).
    async fn legacy_notify(&self, body: Vec<u8>) -> Result<(), ClientError> {
        let status = self.legacy_send(body).await?.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(ClientError::Http(format!(
                "HTTP {status} to a notification or response"
            )));
        }
        Ok(())
    }

    /// POSTs request `id` of the legacy session and returns its response (from a JSON body,
    /// or from an SSE stream, answering the server's requests on it and resuming it if it ends
    /// early), with the `Mcp-Session-Id` the answer carried.
    async fn legacy_post(
        &mut self,
        body: Vec<u8>,
        id: &mcp::RequestId,
    ) -> Result<(Answer, Option<String>), ClientError> {
        let http = |e: reqwest::Error| ClientError::Http(e.to_string());
        let resp = self.legacy_send(body).await?;
        let status = resp.status().as_u16();
        let in_session = self.link.as_ref().is_some_and(|l| l.session_id.is_some());
        if status == 404 && in_session {
            return Err(ClientError::SessionEnded);
        }
        let session_id = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if !is_sse(&resp) {
            let text = resp.text().await.map_err(http)?;
            let is_error = serde_json::from_str::<Envelope>(&text)
                .map_err(|e| {
                    ClientError::Http(format!("HTTP {status}: not a JSON-RPC response: {e}"))
                })?
                .error
                .is_some();
            return Ok((Answer { text, is_error }, session_id));
        }
        let answer = self.follow_stream(resp, id).await?;
        Ok((answer, session_id))
    }

    /// Reads a legacy SSE stream (and the session's GET stream beside it) until the response
    /// to `id`, answering the server's requests on either; a stream that ends first is resumed
    /// with GET and `Last-Event-ID` after the `retry` the server asked for, at most
    /// [`MAX_RECONNECTS`] times.
    async fn follow_stream(
        &mut self,
        resp: reqwest::Response,
        id: &mcp::RequestId,
    ) -> Result<Answer, ClientError> {
        let mut listen = self.listen.take();
        let answer = self.read_streams(resp, &mut listen, id).await;
        self.listen = listen;
        answer
    }

    /// [`Session::follow_stream`], with the GET stream taken out of the session while it runs;
    /// the GET stream is dropped when it ends or fails (the request's stream goes on).
    async fn read_streams(
        &self,
        mut resp: reqwest::Response,
        listen: &mut Option<Stream>,
        id: &mcp::RequestId,
    ) -> Result<Answer, ClientError> {
        let http = |e: reqwest::Error| ClientError::Http(e.to_string());
        let mut events = sse::Events::default();
        for reconnect in 0..=MAX_RECONNECTS {
            loop {
                let chunk = match listen.as_mut() {
                    Some(l) => tokio::select! {
                        c = resp.chunk() => Chunk::Request(c.map(|c| c.map(|b| b.to_vec()))),
                        c = l.resp.chunk() => Chunk::Listen(c.map(|c| c.map(|b| b.to_vec()))),
                    },
                    None => Chunk::Request(resp.chunk().await.map(|c| c.map(|b| b.to_vec()))),
                };
                let (stream, chunk) = match chunk {
                    Chunk::Request(c) => match c.map_err(http)? {
                        Some(c) => (&mut events, c),
                        None => break,
                    },
                    Chunk::Listen(Ok(Some(c))) => match listen.as_mut() {
                        Some(l) => (&mut l.events, c),
                        None => continue,
                    },
                    Chunk::Listen(_) => {
                        eprintln!("the GET stream ended");
                        *listen = None;
                        continue;
                    }
                };
                for data in stream.push(&chunk) {
                    if let Some(answer) = self.on_event(&data, id).await? {
                        return Ok(answer);
                    }
                }
            }
            let Some(last) = events.last_id.clone() else {
                break;
            };
            if reconnect == MAX_RECONNECTS {
                break;
            }
            let wait = events.retry.unwrap_or(DEFAULT_RETRY);
            eprintln!("stream ended before the response: resuming after {wait:?} from {last:?}");
            tokio::time::sleep(wait).await;
            resp = self
                .in_session(self.http.get(&self.url))
                .header("accept", "text/event-stream")
                .header("last-event-id", last)
                .send()
                .await
                .map_err(http)?;
            if !resp.status().is_success() || !is_sse(&resp) {
                return Err(ClientError::Http(format!(
                    "resuming the stream: HTTP {}",
                    resp.status().as_u16()
                )));
            }
        }
        Err(ClientError::Http(format!(
            "the stream ended without the response to request {id:?}"
        )))
    }

    /// One event of a legacy stream: the response to `id` ends the stream; a request of the
    /// server's is answered (POSTed back); a notification is logged.
    async fn on_event(
        &self,
        data: &str,
        id: &mcp::RequestId,
    ) -> Result<Option<Answer>, ClientError> {
        // A priming event carries no data; anything else that is not JSON-RPC is skipped.
        let Ok(message) = serde_json::from_str::<serde_json::Value>(data) else {
            return Ok(None);
        };
        let method = message.get("method").and_then(serde_json::Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(_)) => {
                eprintln!("server request {method} on the stream: answering");
                let reply = legacy::answer_request(message, crate::answers::respond);
                self.legacy_notify(reply.to_string().into_bytes()).await?;
                Ok(None)
            }
            (Some(method), None) => {
                eprintln!("notification {method}");
                super::log_progress_event(data);
                Ok(None)
            }
            (None, Some(answered)) if *answered == serde_json::to_value(id).unwrap_or_default() => {
                Ok(Some(Answer {
                    text: data.to_owned(),
                    is_error: message.get("error").is_some(),
                }))
            }
            _ => Ok(None),
        }
    }
}

/// Whether `resp` is an SSE stream.
fn is_sse(resp: &reqwest::Response) -> bool {
    resp.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("text/event-stream"))
}

/// The `result` of a legacy server's answer to `method`, or its JSON-RPC error.
fn legacy_result(answer: Answer, method: &str) -> Result<Value, ClientError> {
    if answer.is_error {
        let e: mcp::JSONRPCErrorResponse = serde_json::from_str(&answer.text)
            .map_err(|e| ClientError::Protocol(format!("reading an error response: {e}")))?;
        return Err(ClientError::Rpc(*e.error));
    }
    let mut response: Value = serde_json::from_str(&answer.text)
        .map_err(|e| ClientError::Protocol(format!("reading the {method} response: {e}")))?;
    response
        .get_mut("result")
        .map(Value::take)
        .ok_or_else(|| ClientError::Protocol(format!("the {method} response has no result")))
}
