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
use super::initialize::{Initialize, initialize_anywhere};
use super::route::{Route as Era, route};
use super::serve::{delete_anywhere, not_found, post, resume, unavailable};
use super::sessions::{Session, Sessions};
use crate::changes::Changes;
use crate::http::{self, Answering, Route};
use crate::modern::Read;
use crate::stdio::Outgoing;
use crate::streams::ResumeError;
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
                service.sessions().expire_in_background();
                let (service, principal, body) =
                    (Arc::clone(service), principal.to_owned(), body.clone());
                Route::Legacy(Box::pin(async move {
                    let (sessions, config) = (service.sessions(), service.config());
                    initialize_anywhere(&*service, sessions, config, &principal, &body).await
                }))
            }
            Era::Session(session) => {
                let (service, headers, body) = (Arc::clone(service), headers.clone(), body.clone());
                Route::Legacy(Box::pin(async move {
                    let config = service.config().clone();
                    post(service, &config, session, &headers, &body).await
                }))
            }
            Era::Shared(id) => {
                let request = envelope.id.clone().flatten();
                let (service, headers, body) = (Arc::clone(service), headers.clone(), body.clone());
                let principal = principal.to_owned();
                Route::Legacy(Box::pin(async move {
                    let session = match service.sessions().find_anywhere(&id, &principal).await {
                        Ok(Some(session)) => session,
                        Ok(None) => return not_found::<S>(request.as_ref()),
                        Err(e) => return unavailable::<S>(request.as_ref(), &e),
                    };
                    let config = service.config().clone();
                    post(service, &config, session, &headers, &body).await
                }))
            }
            Era::Refuse(f) => Route::Refuse(f),
        }
    }

    fn get(&self, headers: &HeaderMap, id: &str, principal: &str) -> Answering {
        let (service, headers) = (Arc::clone(&self.0), headers.clone());
        let (id, principal) = (id.to_owned(), principal.to_owned());
        Box::pin(async move { get(&service, &headers, &id, &principal).await })
    }

    fn delete(&self, id: &str, principal: &str) -> Answering {
        let service = Arc::clone(&self.0);
        let (id, principal) = (id.to_owned(), principal.to_owned());
        Box::pin(async move { delete_anywhere(service.sessions(), &principal, &id).await })
    }
}

/// `GET` with a session: with `Last-Event-ID`, the stream that event belongs to, resumed
/// ([`streams`]; 400 if it cannot be); without, a new `GET` stream of server messages
/// ([`LegacyService::feed_get_stream`]), taking over from the one before. The session must
/// be `principal`'s. A shared session's stream held by another instance is resumed from it
/// ([`Sessions::resume_elsewhere`]).
pub async fn get<S: LegacySchema, V: LegacyService<S>>(
    service: &Arc<V>,
    headers: &HeaderMap,
    id: &str,
    principal: &str,
) -> Response {
    let session = match service.sessions().find_anywhere(id, principal).await {
        Ok(Some(session)) => session,
        Ok(None) => return (StatusCode::NOT_FOUND, "Session not found").into_response(),
        Err(e) => return unavailable::<S>(None, &e),
    };
    if let Some(last) = headers.get("last-event-id") {
        let here = last
            .to_str()
            .map_or(Err(ResumeError::Unreadable), |l| session.streams.resume(l));
        return match (here, last.to_str()) {
            (Ok((_, connection)), _) => streams::response(connection),
            (Err(ResumeError::Gone(_)), Ok(last)) if session.is_shared() => {
                match service.sessions().resume_elsewhere(&session, last).await {
                    Ok(connection) => streams::response(connection),
                    Err(why) => {
                        let message = format!("Bad Request: cannot resume: {why}");
                        (StatusCode::BAD_REQUEST, message).into_response()
                    }
                }
            }
            _ => resume(&session, last),
        };
    }
    let (number, connection, current) = match session.open_get_stream() {
        Ok(opened) => opened,
        Err(e) => {
            let message = format!("Too many GET streams: {e}; close one or retry");
            return (StatusCode::TOO_MANY_REQUESTS, message).into_response();
        }
    };
    service.sessions().took_over_get_stream(&session).await;
    let feed = Arc::clone(service).feed_get_stream(session, number, current);
    tokio::spawn(feed);
    streams::response(connection)
}
