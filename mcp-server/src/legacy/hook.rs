//! The legacy sessions of a server ([`LegacyService`]) as the HTTP endpoint's hook
//! ([`http::Legacy`]): check 7 routes a POST by its era ([`route`](super::route())),
//! `initialize` and a session's messages are served here, as are `GET` (a session's stream,
//! or one resumed) and `DELETE` with an `Mcp-Session-Id`.

use std::future::Future;
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

use super::follow::{self, taken_over};
use super::initialize::{Initialize, initialize};
use super::route::{Route as Era, route};
use super::serve::{delete, post, resume};
use super::sessions::{Session, Sessions};
use crate::changes::Changes;
use crate::http::{self, Route};
use crate::modern::Read;
use crate::stdio::Outgoing;
use crate::{Config, LegacySchema, Service, streams};

/// A server that serves legacy sessions: its session table, its configuration, and what its
/// sessions' `GET` streams carry.
pub trait LegacyService<S: LegacySchema>: Service<S> + Initialize<S> {
    /// The server's legacy sessions.
    fn sessions(&self) -> &Sessions<S>;

    /// The server's bounds and switches.
    fn config(&self) -> &Config;

    /// The server's changes, told to its sessions (the list changes, and the updates of the
    /// resources a session follows); by default none.
    fn changes(&self) -> Option<&Changes> {
        None
    }

    /// Feeds the `GET` stream `number` of `session` with the server's notifications until
    /// `current` names another stream (a later `GET` took over, or the session ended) or it
    /// carried nothing for [`Config::get_stream_idle`], then finishes it
    /// ([`Session::finish_get_stream`]). By default the stream carries the
    /// [`changes`](LegacyService::changes) the session is told of ([`follow`]).
    fn feed_get_stream(
        self: Arc<Self>,
        session: Arc<Session<S>>,
        number: u64,
        current: watch::Receiver<u64>,
    ) -> impl Future<Output = ()> + Send {
        let feed = self.changes().map(Changes::subscribe);
        let idle = self.config().get_stream_idle;
        async move {
            match feed {
                Some(feed) => follow::get_stream(&session, number, current, feed, idle).await,
                None => {
                    let _ = tokio::time::timeout(idle, taken_over(current, number)).await;
                }
            }
            session.finish_get_stream(number);
        }
    }

    /// Writes to `out` what `session`'s `GET` stream would carry over HTTP, as it happens,
    /// for as long as the stdio connection lasts (the task is stopped with it). By default
    /// the [`changes`](LegacyService::changes) the session is told of.
    fn follow_on_stdio(
        self: Arc<Self>,
        session: Arc<Session<S>>,
        out: Outgoing,
    ) -> impl Future<Output = ()> + Send {
        let feed = self.changes().map(Changes::subscribe);
        async move {
            if let Some(feed) = feed {
                follow::stdio(&session, feed, out).await;
            }
        }
    }
}

/// The legacy sessions of the server `V`, as the HTTP endpoint's hook.
pub struct HttpSessions<V>(pub Arc<V>);

impl<S: LegacySchema, V: LegacyService<S>> http::Legacy<S> for HttpSessions<V> {
    fn route(
        &self,
        headers: &HeaderMap,
        envelope: &Read<'_, S>,
        principal: &str,
        body: &Bytes,
    ) -> Route<S> {
        let service = &self.0;
        let modern_only = service.config().modern_only;
        match route(
            service.sessions(),
            modern_only,
            headers,
            envelope,
            principal,
        ) {
            Era::Modern => Route::Modern,
            Era::Initialize => {
                let (sessions, config) = (service.sessions(), service.config());
                sessions.expire_in_background();
                let response = initialize(&**service, sessions, config, principal, body);
                Route::Legacy(Box::pin(std::future::ready(response)))
            }
            Era::Session(session) => {
                let (service, headers, body) = (Arc::clone(service), headers.clone(), body.clone());
                Route::Legacy(Box::pin(async move {
                    let config = service.config().clone();
                    post(service, &config, session, &headers, &body).await
                }))
            }
            Era::Refuse(f) => Route::Refuse(f),
        }
    }

    fn get(&self, headers: &HeaderMap, id: &str, principal: &str) -> Response {
        get(&self.0, headers, id, principal)
    }

    fn delete(&self, id: &str, principal: &str) -> Response {
        delete(self.0.sessions(), principal, id)
    }
}

/// `GET` with a session: with `Last-Event-ID`, the stream that event belongs to, resumed
/// ([`streams`]; 400 if it cannot be); without, a new `GET` stream of server messages
/// ([`LegacyService::feed_get_stream`]), taking over from the one before. The session must
/// be `principal`'s.
pub fn get<S: LegacySchema, V: LegacyService<S>>(
    service: &Arc<V>,
    headers: &HeaderMap,
    id: &str,
    principal: &str,
) -> Response {
    let Some(session) = service.sessions().find(id, principal) else {
        return (StatusCode::NOT_FOUND, "Session not found").into_response();
    };
    if let Some(last) = headers.get("last-event-id") {
        return resume(&session, last);
    }
    let (number, connection, current) = match session.open_get_stream() {
        Ok(opened) => opened,
        Err(e) => {
            let message = format!("Too many GET streams: {e}; close one or retry");
            return (StatusCode::TOO_MANY_REQUESTS, message).into_response();
        }
    };
    let feed = Arc::clone(service).feed_get_stream(session, number, current);
    tokio::spawn(feed);
    streams::response(connection)
}
