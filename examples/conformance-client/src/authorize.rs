//! The client's authorization: an `mcp_client::auth::Authorizer` as a headless host sets one
//! up. It acts only when a server answers 401 (or 403 asking for more scope).
//!
//! - The user-agent step is headless: the authorization URL is fetched and the redirect read
//!   (the conformance suite's authorization servers approve at once).
//! - The redirect URI is a loopback one that nothing listens on: the code is read from the
//!   redirect itself.
//! - The client metadata document URL is the one the suite's Client ID Metadata Document
//!   scenario expects a client to own.
//! - Pre-registered credentials come from the scenario's context (`client_id`,
//!   `client_secret`, `issuer`), as a host reads them from its configuration (with a secret,
//!   the issuer is required: `Authorizer::new` refuses a secret that names none).

use std::sync::Arc;

use mcp_client::auth::{AuthError, Authorizer, Headless, PreRegistered, Settings};
use serde::Deserialize;
use serde_json::Value;

/// Where the authorization server sends the browser back (never contacted).
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// This client's metadata document, its id where a server accepts one.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// The authorizer, with the pre-registered credentials `context` names, if any.
pub fn authorizer(context: &Value) -> Result<Arc<Authorizer>, AuthError> {
    let mut settings = Settings::new("mcp-conformance-client", Headless::new(REDIRECT_URI))
        .with_client_metadata_url(CLIENT_METADATA_URL);
    if let Ok(credentials) = PreRegistered::deserialize(context) {
        settings = settings.with_pre_registered(credentials);
    }
    Authorizer::new(settings)
}
