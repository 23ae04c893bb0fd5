//! Streamable HTTP at `/mcp` (`mcp_server::http`: checks 1 to 16 of a POST, `GET` and `DELETE`),
//! this server's handlers behind it, and its legacy (2025-11-25) sessions on the same endpoint
//! through the [`Sessions`] hook: check 7 routes a message by its era (`crate::legacy::route`),
//! `initialize` or a message of a session goes to `crate::legacy`, as do `GET` and `DELETE`
//! with an `Mcp-Session-Id`. Any other path is 404.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::http::HeaderMap;
use axum::response::Response;
use mcp_server::http::{Legacy, Route};
use mcp_server::modern::Read;

use crate::legacy::{self, Route as Era};
use crate::{App, Mcp};

/// The endpoint at `/mcp` (`mcp_server::http::PATH`), and 404 elsewhere.
pub fn router(app: Arc<App>) -> Router {
    let config = Arc::clone(&app.config);
    let sessions: Arc<dyn Legacy<Mcp>> = Arc::new(Sessions(Arc::clone(&app)));
    mcp_server::http::router(app, config, Some(sessions))
}

/// The legacy sessions of `crate::legacy`, as the endpoint's hook.
struct Sessions(Arc<App>);

impl Legacy<Mcp> for Sessions {
    fn route(
        &self,
        headers: &HeaderMap,
        envelope: &Read<'_, Mcp>,
        principal: &str,
        body: &Bytes,
    ) -> Route<Mcp> {
        let app = &self.0;
        match legacy::route(app, headers, envelope, principal) {
            Era::Modern => Route::Modern,
            Era::Initialize => {
                let response = legacy::initialize(app, principal, body);
                Route::Legacy(Box::pin(std::future::ready(response)))
            }
            Era::Session(session) => {
                let (app, headers, body) = (Arc::clone(app), headers.clone(), body.clone());
                Route::Legacy(Box::pin(async move {
                    legacy::post(app, session, &headers, &body).await
                }))
            }
            Era::Refuse(f) => Route::Refuse(f),
        }
    }

    fn get(&self, headers: &HeaderMap, id: &str) -> Response {
        legacy::get(&self.0, headers, id)
    }

    fn delete(&self, headers: &HeaderMap, id: &str) -> Response {
        legacy::delete(&self.0, headers, id)
    }
}
