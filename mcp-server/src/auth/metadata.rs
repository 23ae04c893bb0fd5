//! The protected resource metadata (RFC 9728) of an [`Auth`]: the document, and a `Router`
//! serving it at the resource's well-known path and at the root well-known path.

use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::settings::{Auth, WELL_KNOWN};

impl Auth {
    /// The protected resource metadata document: `resource`, `authorization_servers`,
    /// `scopes_supported` (when set) and `bearer_methods_supported` (`["header"]`).
    pub fn metadata(&self) -> Value {
        let mut document = json!({
            "resource": self.resource(),
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes_supported.is_empty() {
            document["scopes_supported"] = json!(self.scopes_supported);
        }
        document
    }
}

/// A `Router` serving the metadata of `auth` with `GET` at [`Auth::metadata_path`] and at
/// [`WELL_KNOWN`] (for clients that look only at the root). [`crate::http::router`] merges
/// it by itself; a server that mounts [`crate::http::endpoint`] at a path of its own merges
/// it into its router (`router.merge(metadata_router(auth))`), the resource URI naming that
/// path.
pub fn metadata_router(auth: &Auth) -> Router {
    let document = Arc::new(auth.metadata().to_string());
    let serve = move || {
        let document = Arc::clone(&document);
        async move { metadata_response(&document) }
    };
    let router = Router::new().route(WELL_KNOWN, get(serve.clone()));
    if auth.metadata_path() == WELL_KNOWN {
        router
    } else {
        router.route(auth.metadata_path(), get(serve))
    }
}

/// The document, as JSON any origin may read (a browser-based client discovers the
/// authorization server from it).
fn metadata_response(document: &str) -> Response {
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        document.to_owned(),
    )
        .into_response();
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}
