//! The HTTP exchanges of a legacy (2025-11-25) session, as methods of [`Client`]: opening it
//! (`initialize`, `notifications/initialized`, the GET stream), sending a request in it and
//! reading its answer from a JSON body or an SSE stream (answering the server's own requests
//! there, resuming a stream that ends early), and ending it with DELETE. What each message
//! becomes in the other revision is `crate::legacy`'s.

use mcp_runtime::era::Era;
use serde_json::Value;

use super::listener::{Listener, Outbox};
use super::{Client, ClientError, Connected, Envelope};
use crate::answer::Answer;
use crate::binding::{Binding, Outgoing};
use crate::error::read_error;
use crate::legacy::{self, Link};
use crate::sse;

impl<B: Binding> Client<B> {
    /// Opens a 2025-11-25 session: `initialize` (the session id and version it agrees are sent
    /// with every later message), then `notifications/initialized`, then the GET stream's
    /// reader ([`Listener`]), which opens the stream (the session waits for the server's
    /// answer a short time only).
    pub(super) async fn initialize(&mut self) -> Result<Connected<B>, ClientError> {
        self.stop_listening().await;
        self.era = Era::Legacy;
        self.link = Some(Link {
            session_id: None,
            version: legacy::VERSION.to_owned(),
        });
        let id = self.next_id();
        let request = B::initialize(
            id.clone(),
            &self.config.capabilities,
            self.config.client_info.clone(),
            legacy::VERSION,
        )
        .map_err(ClientError::Protocol)?;
        let body = serde_json::to_vec(&request)
            .map_err(|e| ClientError::Protocol(format!("serializing initialize: {e}")))?;
        if self.stdio.is_some() {
            return self.initialize_stdio(body, &id).await;
        }
        let (answer, session_id) = self.legacy_post(body, &id).await?;
        let result = legacy_result(answer, mcp_runtime::era::INITIALIZE)?;
        let result = legacy::read_initialize::<B>(result).map_err(ClientError::Protocol)?;
        if let Some(link) = &mut self.link {
            link.session_id = session_id;
            link.version.clone_from(&result.protocol_version);
        }
        self.legacy_notify(legacy::initialized::<B>().to_string().into_bytes())
            .await?;
        self.listener = Some(Listener::open(self.outbox()).await);
        Ok(Connected {
            era: Era::Legacy,
            server: Some(result.server),
            versions: vec![result.protocol_version],
            capabilities: result.capabilities,
        })
    }

    /// `initialize` on stdio: the request, its answer, then `notifications/initialized`; the
    /// server's own requests come on the same stdout (no stream to open).
    async fn initialize_stdio(
        &mut self,
        body: Vec<u8>,
        id: &B::RequestId,
    ) -> Result<Connected<B>, ClientError> {
        let answer = self.stdio_legacy(&body, id).await?;
        let result = legacy_result(answer, mcp_runtime::era::INITIALIZE)?;
        let result = legacy::read_initialize::<B>(result).map_err(ClientError::Protocol)?;
        if let Some(link) = &mut self.link {
            link.version.clone_from(&result.protocol_version);
        }
        if let Some(pipe) = &mut self.stdio {
            pipe.write(legacy::initialized::<B>().to_string().as_bytes())
                .await?;
        }
        Ok(Connected {
            era: Era::Legacy,
            server: Some(result.server),
            versions: vec![result.protocol_version],
            capabilities: result.capabilities,
        })
    }

    /// Sends a legacy request on stdio and reads its response (answering the server's
    /// requests meanwhile).
    async fn stdio_legacy(
        &mut self,
        body: &[u8],
        id: &B::RequestId,
    ) -> Result<Answer, ClientError> {
        let wait = self.config.idle_timeout;
        let Some(pipe) = &mut self.stdio else {
            return Err(ClientError::Stdio("no stdio server".into()));
        };
        pipe.exchange::<B>(body, id, &self.config.respond, wait)
            .await?
            .ok_or_else(|| ClientError::Stdio(format!("no response within {wait:?}")))
    }

    /// Ends the conversation: on stdio, closes the server's input and waits for it to exit;
    /// over HTTP, ends a legacy session with DELETE (a server that does not allow it answers
    /// 405, which changes nothing); nothing to end in the modern era.
    pub async fn close(&mut self) {
        if let Some(pipe) = &mut self.stdio {
            return pipe.close().await;
        }
        self.stop_listening().await;
        let Some(link) = self.link.take() else {
            return;
        };
        let Some(session_id) = &link.session_id else {
            return;
        };
        let delete = self
            .configured(self.http.delete(&self.url))
            .header("mcp-session-id", session_id)
            .header("mcp-protocol-version", &link.version);
        let sent = crate::send::send(&self.config.auth, &self.url, delete).await;
        match sent {
            Ok(r) => note!(
                self.config.log,
                "DELETE session: HTTP {}",
                r.status().as_u16()
            ),
            Err(e) => note!(self.config.log, "DELETE session: {e}"),
        }
    }

    /// Stops the GET stream's reader, if one runs.
    async fn stop_listening(&mut self) {
        if let Some(listener) = self.listener.take() {
            listener.stop().await;
        }
    }

    /// Whether the legacy session's GET stream is being opened or read now.
    #[cfg(test)]
    pub fn is_listening(&self) -> bool {
        self.listener.as_ref().is_some_and(Listener::is_reading)
    }

    /// Where the session's messages go, with its headers as they are now.
    fn outbox(&self) -> Outbox<B> {
        Outbox {
            http: self.http.clone(),
            url: self.url.clone(),
            link: self.link.clone(),
            headers: self.config.headers.clone(),
            log: std::sync::Arc::clone(&self.config.log),
            respond: std::sync::Arc::clone(&self.config.respond),
            max_message: self.config.max_message,
            auth: self.config.auth.clone(),
        }
    }

    /// `send` in a legacy session: the request converted to 2025-11-25, its result back to
    /// the modern type `Resp` reads.
    pub(super) async fn send_legacy<R: Outgoing<B>>(
        &mut self,
        request: R,
    ) -> Result<(R, R::Response), ClientError> {
        let protocol = |e: String| ClientError::Protocol(format!("{}: {e}", R::METHOD));
        let modern = serde_json::to_value(&request).map_err(|e| protocol(e.to_string()))?;
        let body = legacy::request_to_legacy::<B>(modern).map_err(protocol)?;
        if self.stdio.is_some() {
            let answer = self.stdio_legacy(&body, request.id()).await?;
            return self.read_legacy(request, answer);
        }
        let answer = match self.legacy_post(body.clone(), request.id()).await {
            // 2025-11-25: after a 404 the client opens a new session and sends again.
            Err(ClientError::SessionEnded) => {
                note!(
                    self.config.log,
                    "the server ended the session: initialize again"
                );
                self.initialize().await?;
                self.legacy_post(body, request.id()).await?.0
            }
            other => other?.0,
        };
        self.read_legacy(request, answer)
    }

    /// The legacy `answer` to `request`, read as its modern response.
    fn read_legacy<R: Outgoing<B>>(
        &self,
        request: R,
        answer: Answer,
    ) -> Result<(R, R::Response), ClientError> {
        let protocol = |e: String| ClientError::Protocol(format!("{}: {e}", R::METHOD));
        let result = legacy_result(answer, R::METHOD)?;
        let result = B::result_to_modern(R::METHOD, result).map_err(protocol)?;
        let response = serde_json::json!({"jsonrpc": "2.0", "id": request.id(), "result": result});
        let resp = B::read_answer(request.capabilities(), &response.to_string())
            .map_err(|e| protocol(format!("reading the response: {e}")))?;
        Ok((request, resp))
    }

    /// `builder` with the legacy session's headers (after `initialize`).
    fn in_session(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        self.outbox().in_session(builder)
    }

    /// POSTs a message of the legacy session.
    async fn legacy_send(&self, body: Vec<u8>) -> Result<reqwest::Response, ClientError> {
        self.outbox().send(body).await
    }

    /// POSTs a notification or a response of the legacy session (answered with 2xx).
    async fn legacy_notify(&self, body: Vec<u8>) -> Result<(), ClientError> {
        self.outbox().notify(body).await
    }

    /// POSTs request `id` of the legacy session and returns its response (from a JSON body,
    /// or from an SSE stream, answering the server's requests on it and resuming it if it ends
    /// early), with the `Mcp-Session-Id` the answer carried.
    async fn legacy_post(
        &mut self,
        body: Vec<u8>,
        id: &B::RequestId,
    ) -> Result<(Answer, Option<String>), ClientError> {
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
        if !sse::is_sse(&resp) {
            let text = crate::body::read_all(resp, self.config.max_message).await?;
            let is_error = serde_json::from_str::<Envelope<B::RequestId>>(&text)
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

    /// Reads a legacy request's SSE stream until the response to `id`, answering the
    /// server's requests on it (the session's GET stream has a reader of its own); a stream
    /// that ends first is resumed with GET and `Last-Event-ID` after the `retry` the server
    /// asked for, at most [`sse::MAX_RECONNECTS`] times.
    async fn follow_stream(
        &self,
        mut resp: reqwest::Response,
        id: &B::RequestId,
    ) -> Result<Answer, ClientError> {
        let http = |e: reqwest::Error| ClientError::Http(e.to_string());
        let mut events = sse::Events::default();
        for reconnect in 0..=sse::MAX_RECONNECTS {
            while let Some(chunk) = resp.chunk().await.map_err(http)? {
                let completed = events.push(&chunk);
                crate::body::check_event(&events, &completed, self.config.max_message)?;
                for data in completed {
                    if let Some(answer) = self.on_event(&data, id).await? {
                        return Ok(answer);
                    }
                }
            }
            let Some(last) = events.last_id.clone() else {
                break;
            };
            if reconnect == sse::MAX_RECONNECTS {
                break;
            }
            let wait = events.retry.unwrap_or(sse::DEFAULT_RETRY);
            note!(
                self.config.log,
                "stream ended before the response: resuming after {wait:?} from {last:?}"
            );
            tokio::time::sleep(wait).await;
            let get = self
                .in_session(self.http.get(&self.url))
                .header("accept", "text/event-stream")
                .header("last-event-id", last);
            resp = crate::send::send(&self.config.auth, &self.url, get).await?;
            if !resp.status().is_success() || !sse::is_sse(&resp) {
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

    /// One event of a request's stream: the response to `id` ends the stream; a request of
    /// the server's is answered (POSTed back); a notification is logged.
    async fn on_event(&self, data: &str, id: &B::RequestId) -> Result<Option<Answer>, ClientError> {
        // A priming event carries no data; anything else that is not JSON-RPC is skipped.
        let Ok(message) = serde_json::from_str::<serde_json::Value>(data) else {
            return Ok(None);
        };
        if self.outbox().serve(&message, data).await? {
            return Ok(None);
        }
        let answered = message.get("id");
        if answered.is_some_and(|a| *a == serde_json::to_value(id).unwrap_or_default()) {
            return Ok(Some(Answer {
                text: data.to_owned(),
                is_error: message.get("error").is_some(),
            }));
        }
        Ok(None)
    }
}

/// The `result` of a legacy server's answer to `method`, or its JSON-RPC error.
fn legacy_result(answer: Answer, method: &str) -> Result<Value, ClientError> {
    if answer.is_error {
        return Err(ClientError::Rpc(read_error(&answer.text)?));
    }
    let mut response: Value = serde_json::from_str(&answer.text)
        .map_err(|e| ClientError::Protocol(format!("reading the {method} response: {e}")))?;
    response
        .get_mut("result")
        .map(Value::take)
        .ok_or_else(|| ClientError::Protocol(format!("the {method} response has no result")))
}
