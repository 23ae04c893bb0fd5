//! The legacy client as the bridge's [`Peer`]: an input request of a modern handler sent as a
//! 2025-11-25 server-to-client request on the SSE stream of the request that needs it, and the
//! client's answer (a POST of its own) converted back into the input response.

use std::sync::Arc;
use std::time::Duration;

use mcp_runtime::Request;
use mcp_server::bridge::Peer;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use super::sessions::Session;
use crate::mcp;
use crate::mcp::v2025_11_25 as legacy;
use crate::rpc::Msg;

/// A session's client, reached on one request's response stream.
pub struct SessionPeer {
    session: Arc<Session>,
    stream: mpsc::UnboundedSender<Msg>,
    timeout: Duration,
}

/// A server-to-client request as sent.
#[derive(Serialize)]
struct ServerRequest<'a> {
    jsonrpc: &'static str,
    id: &'a str,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<Value>,
}

impl SessionPeer {
    pub fn new(
        session: Arc<Session>,
        stream: mpsc::UnboundedSender<Msg>,
        timeout: Duration,
    ) -> Self {
        SessionPeer {
            session,
            stream,
            timeout,
        }
    }

    /// Sends `method` with `params` and waits for the client's response message. The request
    /// is forgotten however the wait ends (answered, timed out, or dropped with a cancelled
    /// handler), so that it holds none of the session's [`Config::session_queue`] slots after.
    ///
    /// [`Config::session_queue`]: mcp_server::Config::session_queue
    async fn exchange(&self, method: &str, params: Option<Value>) -> Result<Value, String> {
        let (id, answer) = self.session.expect_answer().map_err(|full| {
            format!(
                "{} server requests of this session already wait for answers",
                full.0
            )
        })?;
        let _waiting = Waiting {
            session: &self.session,
            id: &id,
        };
        let request = ServerRequest {
            jsonrpc: "2.0",
            id: &id,
            method,
            params,
        };
        let text = serde_json::to_string(&request).map_err(|e| e.to_string())?;
        if self.stream.send(Msg::Note(text)).is_err() {
            return Err("the request's stream is closed".to_owned());
        }
        match tokio::time::timeout(self.timeout, answer).await {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(_)) => Err("the session ended".to_owned()),
            Err(_) => Err(format!(
                "no answer to {method} within {} ms",
                self.timeout.as_millis()
            )),
        }
    }
}

/// A server-to-client request waiting for its answer: forgotten when dropped (nothing happens
/// if the answer came, which removed it).
struct Waiting<'a> {
    session: &'a Session,
    id: &'a str,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.session.forget(self.id);
    }
}

/// The `result` of the client's response, or its error as text.
fn result(mut response: Value) -> Result<Value, String> {
    if let Some(result) = response.get_mut("result") {
        return Ok(result.take());
    }
    Err(match response.get("error") {
        Some(e) => format!("the client answered with an error: {e}"),
        None => "the client's answer has neither result nor error".to_owned(),
    })
}

/// Reads `value` as the legacy `L` and converts it to the modern `M`, as JSON.
fn to_modern<L, M>(value: Value) -> Result<Value, String>
where
    L: serde::de::DeserializeOwned,
    M: TryFrom<L> + Serialize,
    M::Error: std::fmt::Display,
{
    let older: L = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let modern = M::try_from(older).map_err(|e| e.to_string())?;
    serde_json::to_value(&modern).map_err(|e| e.to_string())
}

/// Converts the modern `params` to the legacy type `L`, as JSON.
fn to_legacy<M, L>(params: M) -> Result<Value, String>
where
    L: TryFrom<M> + Serialize,
    L::Error: std::fmt::Display,
{
    let older = L::try_from(params).map_err(|e| e.to_string())?;
    serde_json::to_value(&older).map_err(|e| e.to_string())
}

impl Peer for SessionPeer {
    type Error = String;

    async fn ask(&self, _key: &str, request: Value) -> Result<Value, String> {
        let request: mcp::InputRequest =
            serde_json::from_value(request).map_err(|e| format!("not an input request: {e}"))?;
        use mcp::InputRequest as I;
        match request {
            I::ElicitRequest(r) => {
                let params = to_legacy::<_, legacy::ElicitRequestParams>(r.params)?;
                let answer = self
                    .exchange(<legacy::ElicitRequest as Request>::METHOD, Some(params))
                    .await?;
                to_modern::<legacy::ElicitResult, mcp::ElicitResult>(result(answer)?)
            }
            I::CreateMessageRequest(r) => {
                let params = to_legacy::<_, legacy::CreateMessageRequestParams>(*r.params)?;
                let answer = self
                    .exchange(
                        <legacy::CreateMessageRequest as Request>::METHOD,
                        Some(params),
                    )
                    .await?;
                to_modern::<legacy::CreateMessageResult, mcp::CreateMessageResult>(result(answer)?)
            }
            I::ListRootsRequest(_) => {
                let answer = self
                    .exchange(<legacy::ListRootsRequest as Request>::METHOD, None)
                    .await?;
                to_modern::<legacy::ListRootsResult, mcp::ListRootsResult>(result(answer)?)
            }
        }
    }
}
