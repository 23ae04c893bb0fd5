//! Authorization (the specification's "Authorization", 2025-11-25 and 2026-07-28): an OAuth
//! 2.1 client driven by the server's challenges. A request answered 401 (or 403 with
//! `insufficient_scope`) starts the flow, then is sent again with the token:
//!
//! 1. the server's protected resource metadata (RFC 9728), from the challenge's
//!    `resource_metadata` (another host allowed, a loopback one only for a loopback server) or
//!    the well-known locations, whose resource must be this server;
//! 2. its authorization server's metadata (RFC 8414 or OpenID discovery), whose issuer must be
//!    the one asked for;
//! 3. the client's identity there: pre-registered, a Client ID Metadata Document URL, or
//!    dynamic registration; kept per issuer, never shown to another (pre-registered
//!    credentials with a secret must name their issuer);
//! 4. the scopes: the challenge's, else the resource's `scopes_supported`, else none; on a
//!    step-up, with the ones asked before for this server; `offline_access` added when the
//!    authorization server lists it;
//! 5. the authorization code grant with PKCE S256 and the `resource` parameter, the redirect
//!    checked (origin, `state`, `iss`); a refresh token used first when there is one.
//!
//! Every URL of the flow (the resource metadata's, the issuer, the authorization server's
//! metadata and endpoints) is `https`, or `http` on a loopback host (127.0.0.0/8, `::1`,
//! `localhost`); any other is refused with [`AuthError::InsecureUrl`] before it is used.
//!
//! What a flow learns (the authorization server's metadata, the client's identity there, the
//! resource, the scopes asked for) is kept per server: one [`Authorizer`] may serve several
//! servers, and a token expiring is refreshed only at the authorization server that issued it
//! ([`Tokens::issuer`]), for its own server. Tokens a [`TokenStore`] kept from another run are
//! sent as they are until the server refuses them; the flow then refreshes them only when the
//! server still names their issuer.
//!
//! At most [`Settings::with_max_authorizations`] flows per request (3 by default).
//!
//! ```no_run
//! use mcp_client::auth::{Authorizer, Headless, Settings};
//! # use mcp_client_test_types::mcp;
//! # mcp_client::bind!(Mcp = mcp);
//! # fn run(config: mcp_client::Config<Mcp>) -> Result<(), Box<dyn std::error::Error>> {
//! let agent = Headless::new("http://127.0.0.1:8765/callback");
//! let auth = Authorizer::new(Settings::new("my-host", agent))?;
//! let client = mcp_client::Client::new("https://example.com/mcp", config.with_authorizer(auth))?;
//! # Ok(()) }
//! ```

mod agent;
mod challenge;
mod discovery;
mod error;
mod flow;
mod http;
mod identity;
mod store;
#[cfg(test)]
mod tests;
mod transport;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::HeaderMap;
use url::Url;

pub use agent::{FromFn, Headless, Loopback, UserAgent, Visit};
pub use challenge::Challenge;
pub use discovery::{ResourceMetadata, ServerMetadata};
pub use error::AuthError;
pub use identity::{ClientIdentity, PreRegistered, TokenAuth};
pub use store::{MemoryStore, TokenStore, Tokens};

use discovery::resource_covers;
use flow::Grant;
use http::AuthHttp;
use identity::ClientMetadata;

/// How an [`Authorizer`] identifies the client and runs the flow.
pub struct Settings {
    client: ClientMetadata,
    agent: Arc<dyn UserAgent>,
    pre_registered: Vec<PreRegistered>,
    store: Arc<dyn TokenStore>,
    offline_access: bool,
    max_authorizations: usize,
    timeout: Duration,
}

impl Settings {
    /// A client named `client_name` whose user-agent step is `agent`; it registers itself
    /// dynamically (as a `native` application), keeps tokens in memory, asks for
    /// `offline_access` where it is offered, and gives up on a request after 3 flows.
    pub fn new(client_name: impl Into<String>, agent: impl UserAgent + 'static) -> Self {
        Settings {
            client: ClientMetadata {
                client_name: client_name.into(),
                metadata_url: None,
                application_type: "native".to_owned(),
            },
            agent: Arc::new(agent),
            pre_registered: Vec::new(),
            store: Arc::new(MemoryStore::default()),
            offline_access: true,
            max_authorizations: 3,
            timeout: Duration::from_secs(30),
        }
    }

    /// The URL of this client's metadata document: its client id where the authorization
    /// server accepts one.
    #[must_use]
    pub fn with_client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client.metadata_url = Some(url.into());
        self
    }

    /// Credentials registered beforehand, used instead of registering at their `issuer`.
    /// Credentials with a secret must name their issuer ([`Authorizer::new`] fails otherwise);
    /// a public client's (no secret) naming none are used at whichever authorization server a
    /// server names.
    #[must_use]
    pub fn with_pre_registered(mut self, credentials: PreRegistered) -> Self {
        self.pre_registered.push(credentials);
        self
    }

    /// The `application_type` the client registers with (`native` or `web`).
    #[must_use]
    pub fn with_application_type(mut self, application_type: impl Into<String>) -> Self {
        self.client.application_type = application_type.into();
        self
    }

    /// Where tokens are kept.
    #[must_use]
    pub fn with_store(mut self, store: impl TokenStore + 'static) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// Whether to ask for `offline_access` (a refresh token) where it is offered.
    #[must_use]
    pub fn with_offline_access(mut self, wanted: bool) -> Self {
        self.offline_access = wanted;
        self
    }

    /// How many flows one request may start before it fails with
    /// [`AuthError::RetryLimit`].
    #[must_use]
    pub fn with_max_authorizations(mut self, max: usize) -> Self {
        self.max_authorizations = max;
        self
    }

    /// How long the flow waits for each of its HTTP answers.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// What the flow learns of the protected resource.
struct Protected {
    /// The `resource` parameter.
    resource: String,
    /// The issuer of its authorization server.
    issuer: String,
    /// Its `scopes_supported`.
    scopes: Option<Vec<String>>,
    /// Whether it has a metadata document (else: the server's URL and origin stand for it).
    documented: bool,
}

/// What the last flow for one server (one protected resource) learned: where its tokens come
/// from and how to refresh them there.
struct Learned {
    /// The metadata of the authorization server that issued the server's tokens.
    metadata: ServerMetadata,
    /// The client's identity at that authorization server.
    identity: ClientIdentity,
    /// The server's `resource` parameter.
    resource: String,
    /// The scopes asked for last for this server, joined by a step-up.
    requested: Vec<String>,
}

/// The flow's state, one flow at a time.
#[derive(Default)]
struct State {
    /// The identity at each issuer met.
    identities: HashMap<String, ClientIdentity>,
    /// What each server's last flow learned, by the server's key in the token store (its
    /// URL): one server's refresh token, scopes or resource are never used for another.
    servers: HashMap<String, Learned>,
}

/// An OAuth 2.1 client for the MCP servers of one or more [`Client`](crate::Client)s
/// ([`Config::with_authorizer`](crate::Config::with_authorizer)): it holds the tokens and
/// runs the flow when a server asks.
pub struct Authorizer {
    settings: Settings,
    http: AuthHttp,
    state: tokio::sync::Mutex<State>,
}

impl Authorizer {
    /// An authorizer with `settings`; [`AuthError::Settings`] when pre-registered credentials
    /// with a secret name no issuer.
    pub fn new(settings: Settings) -> Result<Arc<Self>, AuthError> {
        identity::check_pre_registered(&settings.pre_registered)?;
        let http = AuthHttp::new(settings.timeout)?;
        Ok(Arc::new(Authorizer {
            settings,
            http,
            state: tokio::sync::Mutex::new(State::default()),
        }))
    }

    /// The tokens kept for the server at `server` (none for a URL that does not parse).
    pub fn tokens(&self, server: &str) -> Option<Tokens> {
        let key = Url::parse(server).ok()?;
        self.settings.store.load(key.as_str())
    }

    /// Sends `request` to the server at `server` with its token, and runs the flow (then
    /// sends it again) as often as the server challenges, up to the limit.
    pub(crate) async fn send(
        &self,
        server: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, crate::ClientError> {
        let server_url =
            Url::parse(server).map_err(|e| crate::ClientError::Http(format!("{server:?}: {e}")))?;
        let mut flows = 0;
        loop {
            let attempt = request.try_clone().ok_or_else(|| {
                crate::ClientError::Http("a request that cannot be sent twice".to_owned())
            })?;
            let token = self.bearer(server_url.as_str()).await;
            let attempt = match &token {
                Some(t) => attempt.bearer_auth(t),
                None => attempt,
            };
            let resp = attempt
                .send()
                .await
                .map_err(|e| crate::ClientError::unanswered(&e))?;
            let status = resp.status().as_u16();
            let challenged = status == 401
                || (status == 403 && Challenge::of(resp.headers()).is_insufficient_scope());
            if !challenged {
                return Ok(resp);
            }
            if flows == self.settings.max_authorizations {
                return Err(AuthError::RetryLimit {
                    status,
                    attempts: flows,
                }
                .into());
            }
            flows += 1;
            self.challenged(&server_url, status, resp.headers(), token.as_deref())
                .await?;
        }
    }

    /// The access token for `server`, refreshed first when it is about to expire: only at the
    /// authorization server that issued it, with what this server's last flow learned of it.
    /// Without that (tokens a store kept from another run, or an issuer that changed since),
    /// the token is sent as it is: a 401 then runs the flow, which refreshes it only once the
    /// server's metadata names its issuer again.
    async fn bearer(&self, server: &str) -> Option<String> {
        let tokens = self.settings.store.load(server)?;
        if !tokens.expires_within(Duration::from_secs(30)) {
            return Some(tokens.access_token);
        }
        let state = self.state.lock().await;
        let learned = (state.servers.get(server)).filter(|l| l.metadata.issuer == tokens.issuer);
        let (Some(learned), Some(refresh)) = (learned, &tokens.refresh_token) else {
            return Some(tokens.access_token);
        };
        let grant = Grant {
            metadata: &learned.metadata,
            identity: &learned.identity,
            resource: &learned.resource,
            scopes: &[],
        };
        match flow::refresh(&self.http, &grant, refresh).await {
            Ok(t) => {
                self.settings.store.save(server, t.clone());
                Some(t.access_token)
            }
            Err(_) => {
                self.settings.store.clear(server);
                None
            }
        }
    }

    /// Answers a 401 or 403 to a request sent with `sent`: gets a new token for `server`
    /// (nothing to do when another request already did since).
    async fn challenged(
        &self,
        server: &Url,
        status: u16,
        headers: &HeaderMap,
        sent: Option<&str>,
    ) -> Result<(), AuthError> {
        let challenge = Challenge::of(headers);
        let mut state = self.state.lock().await;
        let key = server.as_str();
        let kept = self.settings.store.load(key);
        if status == 401 && kept.as_ref().map(|t| t.access_token.as_str()) != sent {
            return Ok(());
        }
        let protected = self.resource(server, &challenge).await?;
        let metadata = match discovery::server_metadata(&self.http, &protected.issuer).await? {
            Some(found) => found,
            // A server older than RFC 9728's adoption (2025-03-26) without metadata: its
            // default endpoints.
            None if !protected.documented => discovery::default_endpoints(&protected.issuer),
            None => {
                return Err(AuthError::Metadata(format!(
                    "no authorization server metadata for {:?}",
                    protected.issuer
                )));
            }
        };
        let Protected {
            resource,
            scopes: resource_scopes,
            ..
        } = protected;
        let same_server = kept.as_ref().is_some_and(|t| t.issuer == metadata.issuer);
        if !same_server {
            self.settings.store.clear(key);
        }
        // A step-up joins what was asked of this issuer for this server before, nothing else.
        let before = (state.servers.get(key))
            .filter(|l| l.metadata.issuer == metadata.issuer)
            .map(|l| l.requested.as_slice())
            .unwrap_or_default();
        let scopes = self.scopes(&challenge, resource_scopes, &metadata, before);
        let identity = match state.identities.get(&metadata.issuer) {
            Some(known) => known.clone(),
            None => {
                let found = identity::identify(
                    &self.http,
                    &metadata,
                    &self.settings.client,
                    &self.settings.pre_registered,
                    self.settings.agent.redirect_uri(),
                )
                .await?;
                state
                    .identities
                    .insert(metadata.issuer.clone(), found.clone());
                found
            }
        };
        let grant = Grant {
            metadata: &metadata,
            identity: &identity,
            resource: &resource,
            scopes: &scopes,
        };
        let refreshable = kept
            .filter(|_| same_server && status == 401)
            .and_then(|t| t.refresh_token);
        let refreshed = match refreshable {
            Some(refresh) => flow::refresh(&self.http, &grant, &refresh).await.ok(),
            None => None,
        };
        let tokens = match refreshed {
            Some(t) => t,
            None => flow::authorize(&self.http, &*self.settings.agent, &grant).await?,
        };
        self.settings.store.save(key, tokens);
        state.servers.insert(
            key.to_owned(),
            Learned {
                metadata,
                identity,
                resource,
                requested: scopes,
            },
        );
        Ok(())
    }

    /// The resource identifier, the issuer of its authorization server and its
    /// `scopes_supported`, from the protected resource metadata (checked to name `server`).
    /// Without a document (a server older than RFC 9728's adoption), the server's own URL and
    /// origin.
    async fn resource(&self, server: &Url, challenge: &Challenge) -> Result<Protected, AuthError> {
        let hint = challenge.resource_metadata.as_deref();
        let Some(found) = discovery::resource_metadata(&self.http, server, hint).await? else {
            let mut resource = server.clone();
            resource.set_fragment(None);
            return Ok(Protected {
                resource: resource.into(),
                issuer: server.origin().ascii_serialization(),
                scopes: None,
                documented: false,
            });
        };
        if !resource_covers(&found.resource, server) {
            return Err(AuthError::ResourceMismatch {
                server: server.to_string(),
                resource: found.resource,
            });
        }
        let issuer = found
            .authorization_servers
            .first()
            .cloned()
            .ok_or_else(|| {
                AuthError::Metadata(
                    "the resource metadata names no authorization server".to_owned(),
                )
            })?;
        discovery::issuer_for(server, &issuer)?;
        Ok(Protected {
            resource: found.resource,
            issuer,
            scopes: found.scopes_supported,
            documented: true,
        })
    }

    /// The scopes to ask for: the challenge's, else the resource's, else none; joined to the
    /// ones asked for before (a step-up keeps what was granted); `offline_access` added when
    /// wanted and offered.
    fn scopes(
        &self,
        challenge: &Challenge,
        resource_scopes: Option<Vec<String>>,
        metadata: &ServerMetadata,
        before: &[String],
    ) -> Vec<String> {
        let asked = match challenge.scopes() {
            s if !s.is_empty() => s,
            _ => resource_scopes.unwrap_or_default(),
        };
        let mut scopes = before.to_vec();
        for scope in asked {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
        let offline = "offline_access";
        if self.settings.offline_access
            && !scopes.is_empty()
            && metadata.supports_scope(offline)
            && !scopes.iter().any(|s| s == offline)
        {
            scopes.push(offline.to_owned());
        }
        scopes
    }
}
