//! The legacy client as the bridge's [`Peer`]: an input request of a modern handler sent as a
//! legacy server-to-client request on the SSE stream of the request that needs it
//! ([`LegacySchema::input_to_legacy`]), and the client's answer (a POST of its own) converted
//! back into the input response. No request is sent before the client's
//! `notifications/initialized`; one the client does not answer in time is cancelled toward it
//! (`notifications/cancelled`).

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

use super::sessions::Session;
use crate::LegacySchema;
use crate::answer::Msg;
use crate::bridge::Peer;

/// A session's client, reached on one request's response stream.
pub struct SessionPeer<S: LegacySchema> {
    session: Arc<Session<S>>,
    owner: String,
    stream: mpsc::UnboundedSender<Msg<S>>,
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

impl<S: LegacySchema> SessionPeer<S> {
    /// The client of `session`, asked on `stream` (the response stream of the request
    /// `owner` whose handler needs input: the id's JSON text), each request waiting at most
    /// `timeout` for its answer.
    pub fn new(
        session: Arc<Session<S>>,
        owner: String,
        stream: mpsc::UnboundedSender<Msg<S>>,
        timeout: Duration,
    ) -> Self {
        SessionPeer {
            session,
            owner,
            stream,
            timeout,
        }
    }

    /// Sends `method` with `params` and waits for the client's response message. The request
    /// is forgotten however the wait ends (answered, timed out, or dropped with a cancelled
    /// handler), so that it holds none of the session's [`Config::session_queue`] slots after.
    ///
    /// [`Config::session_queue`]: crate::Config::session_queue
    async fn exchange(&self, method: &str, params: Option<Value>) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        let initialized = self.session.initialized();
        if tokio::time::timeout_at(deadline, initialized)
            .await
            .is_err()
        {
            return Err(format!(
                "the client sent no notifications/initialized within {} ms, so it cannot be asked for {method}",
                self.timeout.as_millis()
            ));
        }
        let (id, answer) = self
            .session
            .expect_answer(&self.owner)
            .map_err(|e| e.to_string())?;
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
        match tokio::time::timeout_at(deadline, answer).await {
            Ok(Ok(response)) => Ok(response),
            Ok(Err(_)) => Err("the session ended".to_owned()),
            Err(_) => {
                let why = format!(
                    "no answer to {method} within {} ms",
                    self.timeout.as_millis()
                );
                self.cancel_toward_client(&id, &why);
                Err(why)
            }
        }
    }

    /// Tells the client that the server's request `id` is cancelled, for `reason`, if it was
    /// still waiting.
    fn cancel_toward_client(&self, id: &str, reason: &str) {
        if self.session.forget(id)
            && let Some(text) = S::cancel_notification(id, reason)
        {
            let _ = self.stream.send(Msg::Note(text));
        }
    }
}

/// A server-to-client request waiting for its answer: forgotten when dropped (nothing happens
/// if the answer came, which removed it).
struct Waiting<'a, S: LegacySchema> {
    session: &'a Session<S>,
    id: &'a str,
}

impl<S: LegacySchema> Drop for Waiting<'_, S> {
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

impl<S: LegacySchema> Peer for SessionPeer<S> {
    type Error = String;

    async fn ask(&self, _key: &str, request: Value) -> Result<Value, String> {
        let input = S::input_to_legacy(request)?;
        let answer = self.exchange(input.method, input.params).await?;
        (input.answer)(result(answer)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::legacy::Sessions;
    use crate::test_support::eras::{Eras, client};
    use serde_json::json;

    fn session() -> Arc<Session<Eras>> {
        let sessions = Sessions::new(Arc::new(Config::default()));
        let (capabilities, info) = client();
        let session = sessions.open("p", capabilities, info).unwrap();
        session.mark_initialized();
        session
    }

    /// The server-to-client request `rx` carries, as JSON.
    async fn sent(rx: &mut mpsc::UnboundedReceiver<Msg<Eras>>) -> Value {
        match rx.recv().await {
            Some(Msg::Note(text)) => serde_json::from_str(&text).unwrap(),
            _ => panic!("no request sent"),
        }
    }

    #[tokio::test]
    async fn an_input_request_is_asked_as_a_legacy_request() {
        let session = session();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let peer = SessionPeer::new(
            Arc::clone(&session),
            "1".to_owned(),
            tx,
            Duration::from_secs(5),
        );
        let client = async {
            let request = sent(&mut rx).await;
            assert_eq!(request["method"], "roots/list");
            let id = request["id"].as_str().unwrap();
            let roots = json!({"roots": [{"uri": "file:///a"}]});
            assert!(session.answer(id, json!({"jsonrpc": "2.0", "id": id, "result": roots})));
        };
        let ask = peer.ask("roots", json!({"method": "roots/list"}));
        let (answer, ()) = tokio::join!(ask, client);
        assert_eq!(answer.unwrap()["roots"][0]["uri"], "file:///a");
        assert_eq!(session.waiting(), 0);
    }

    #[tokio::test]
    async fn an_error_answer_or_no_answer_fails_and_is_forgotten() {
        let session = session();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let peer = SessionPeer::new(
            Arc::clone(&session),
            "1".to_owned(),
            tx,
            Duration::from_millis(50),
        );
        let client = async {
            let id = sent(&mut rx).await["id"].as_str().unwrap().to_owned();
            session.answer(
                &id,
                json!({"id": id, "error": {"code": -1, "message": "no"}}),
            );
        };
        let (refused, ()) = tokio::join!(peer.ask("k", json!({"method": "roots/list"})), client);
        assert!(refused.unwrap_err().contains("answered with an error"));
        let timed_out = peer.ask("k", json!({"method": "roots/list"})).await;
        assert!(timed_out.unwrap_err().contains("no answer to roots/list"));
        assert_eq!(session.waiting(), 0);
        // The request that timed out is cancelled toward the client.
        let asked = sent(&mut rx).await;
        let cancelled = sent(&mut rx).await;
        assert_eq!(cancelled["method"], "notifications/cancelled");
        assert_eq!(cancelled["params"]["requestId"], asked["id"]);
    }

    #[tokio::test]
    async fn nothing_is_asked_before_notifications_initialized() {
        let sessions = Sessions::new(Arc::new(Config::default()));
        let (capabilities, info) = client();
        let session = sessions.open("p", capabilities, info).unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let peer = SessionPeer::new(
            Arc::clone(&session),
            "1".to_owned(),
            tx,
            Duration::from_millis(50),
        );
        let refused = peer
            .ask("k", json!({"method": "roots/list"}))
            .await
            .unwrap_err();
        assert!(
            refused.contains("no notifications/initialized"),
            "{refused}"
        );
        assert!(rx.try_recv().is_err(), "nothing was sent");
        // Once it is sent, the request goes out.
        session.mark_initialized();
        let peer = SessionPeer::new(
            Arc::clone(&session),
            "1".to_owned(),
            peer.stream.clone(),
            Duration::from_secs(5),
        );
        let ask = peer.ask("k", json!({"method": "roots/list"}));
        let client = async {
            let id = sent(&mut rx).await["id"].as_str().unwrap().to_owned();
            let roots = json!({"roots": []});
            assert!(session.answer(&id, json!({"id": id, "result": roots})));
        };
        let (answer, ()) = tokio::join!(ask, client);
        assert!(answer.is_ok());
    }

    #[tokio::test]
    async fn what_is_not_an_input_request_is_refused_unsent() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let peer = SessionPeer::new(session(), "1".to_owned(), tx, Duration::from_secs(5));
        let refused = peer.ask("k", json!({"method": "tools/call"})).await;
        assert!(refused.unwrap_err().starts_with("not an input request"));
        assert!(rx.try_recv().is_err());
    }
}
