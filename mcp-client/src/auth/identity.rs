//! Who the client is at an authorization server: pre-registered credentials, a Client ID
//! Metadata Document's URL, or a registration made on the spot (RFC 7591), in that order of
//! preference. An identity belongs to one issuer: when the server's authorization server
//! changes, the client identifies itself again (it never shows one server another's
//! credentials).

use serde::Deserialize;
use serde_json::json;

use super::AuthError;
use super::discovery::ServerMetadata;
use super::http::AuthHttp;

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenAuth {
    /// `client_secret_basic`: HTTP Basic with the client id and secret.
    Basic,
    /// `client_secret_post`: the id and secret in the form.
    Post,
    /// `none`: a public client, its id in the form.
    None,
}

impl TokenAuth {
    /// The method's registered name.
    pub fn name(self) -> &'static str {
        match self {
            TokenAuth::Basic => "client_secret_basic",
            TokenAuth::Post => "client_secret_post",
            TokenAuth::None => "none",
        }
    }

    /// The method named `name`, if the flow knows it.
    fn named(name: &str) -> Option<Self> {
        [TokenAuth::Basic, TokenAuth::Post, TokenAuth::None]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A client identity at one authorization server.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    /// The client id.
    pub client_id: String,
    /// The secret, for a confidential client.
    pub client_secret: Option<String>,
    /// How it authenticates at the token endpoint.
    pub auth: TokenAuth,
}

impl std::fmt::Debug for ClientIdentity {
    /// Never the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .field("auth", &self.auth)
            .finish()
    }
}

/// Credentials registered beforehand with an authorization server.
///
/// With a `client_secret`, the `issuer` is required ([`Authorizer::new`](super::Authorizer::new)
/// fails with [`AuthError::Settings`] otherwise): the secret is shown only to that
/// authorization server, never to one a server names. A public client (no secret) may leave
/// it `None` and is then used at whichever authorization server a server names: its client id
/// is no secret (every authorization request carries it through the browser).
///
/// A host's configuration gives them as JSON (or any serde format): `client_id`, and optional
/// `client_secret` and `issuer`; other members are ignored.
///
/// ```
/// use mcp_client::auth::PreRegistered;
/// use serde::Deserialize;
///
/// let config = serde_json::json!({"client_id": "my-host", "issuer": "https://auth.example.com"});
/// let credentials = PreRegistered::deserialize(&config)?;
/// assert_eq!(credentials.client_id, "my-host");
/// assert_eq!(credentials.client_secret, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, serde::Deserialize)]
pub struct PreRegistered {
    /// The issuer they belong to, compared character for character with the authorization
    /// server metadata's; `None` (a public client only): whichever the server names.
    #[serde(default)]
    pub issuer: Option<String>,
    /// The client id.
    pub client_id: String,
    /// The secret, if any.
    #[serde(default)]
    pub client_secret: Option<String>,
}

impl std::fmt::Debug for PreRegistered {
    /// Never the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreRegistered")
            .field("issuer", &self.issuer)
            .field("client_id", &self.client_id)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

impl PreRegistered {
    /// Whether these credentials may be shown to the authorization server `issuer`: theirs,
    /// or any for a public client that names none.
    pub(super) fn belongs_to(&self, issuer: &str) -> bool {
        match (&self.issuer, &self.client_secret) {
            (Some(own), _) => own == issuer,
            (None, None) => true,
            (None, Some(_)) => false,
        }
    }
}

/// Refuses credentials with a secret and no issuer (their secret would go to any
/// authorization server a server names).
pub fn check_pre_registered(pre_registered: &[PreRegistered]) -> Result<(), AuthError> {
    match pre_registered
        .iter()
        .find(|p| p.issuer.is_none() && p.client_secret.is_some())
    {
        Some(p) => Err(AuthError::Settings(format!(
            "the pre-registered client {:?} has a secret but names no issuer",
            p.client_id
        ))),
        None => Ok(()),
    }
}

/// What the client says about itself when it registers.
#[derive(Debug, Clone)]
pub struct ClientMetadata {
    /// `client_name`.
    pub client_name: String,
    /// The URL of this client's metadata document, used as its id where the authorization
    /// server accepts one (`client_id_metadata_document_supported`).
    pub metadata_url: Option<String>,
    /// `application_type`: `native` (the default) or `web`.
    pub application_type: String,
}

/// The identity to use at the server `metadata` describes.
pub async fn identify(
    http: &AuthHttp,
    metadata: &ServerMetadata,
    client: &ClientMetadata,
    pre_registered: &[PreRegistered],
    redirect_uri: &str,
) -> Result<ClientIdentity, AuthError> {
    // Those naming this issuer first, then a public client's that names none.
    let named = pre_registered
        .iter()
        .find(|p| p.issuer.as_deref() == Some(metadata.issuer.as_str()));
    let known = named.or_else(|| {
        pre_registered
            .iter()
            .find(|p| p.belongs_to(&metadata.issuer))
    });
    if let Some(known) = known {
        return Ok(pre_registered_identity(known, metadata));
    }
    if let (Some(url), Some(true)) = (
        &client.metadata_url,
        metadata.client_id_metadata_document_supported,
    ) {
        return Ok(ClientIdentity {
            client_id: url.clone(),
            client_secret: None,
            auth: TokenAuth::None,
        });
    }
    match &metadata.registration_endpoint {
        Some(endpoint) => register(http, endpoint, metadata, client, redirect_uri).await,
        None => Err(AuthError::NoClientIdentity(metadata.issuer.clone())),
    }
}

/// Pre-registered credentials, authenticated as the server prefers among the methods a
/// secret allows (Basic when it lists none: RFC 8414's default).
fn pre_registered_identity(known: &PreRegistered, metadata: &ServerMetadata) -> ClientIdentity {
    let auth = match &known.client_secret {
        None => TokenAuth::None,
        Some(_) => supported(metadata)
            .into_iter()
            .find(|m| *m != TokenAuth::None)
            .unwrap_or(TokenAuth::Basic),
    };
    ClientIdentity {
        client_id: known.client_id.clone(),
        client_secret: known.client_secret.clone(),
        auth,
    }
}

/// The methods the server lists that the flow knows, in its order; Basic when it lists none.
fn supported(metadata: &ServerMetadata) -> Vec<TokenAuth> {
    match &metadata.token_endpoint_auth_methods_supported {
        Some(names) => names.iter().filter_map(|n| TokenAuth::named(n)).collect(),
        None => vec![TokenAuth::Basic],
    }
}

/// What a registration answers.
#[derive(Deserialize)]
struct Registered {
    client_id: String,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// Registers the client at `endpoint` (RFC 7591), asking for the method the server supports
/// (a public client when it may be one), and the identity it got.
async fn register(
    http: &AuthHttp,
    endpoint: &str,
    metadata: &ServerMetadata,
    client: &ClientMetadata,
    redirect_uri: &str,
) -> Result<ClientIdentity, AuthError> {
    let methods = supported(metadata);
    let asked = if methods.contains(&TokenAuth::None) {
        TokenAuth::None
    } else {
        methods.first().copied().unwrap_or(TokenAuth::Basic)
    };
    let request = json!({
        "client_name": client.client_name,
        "redirect_uris": [redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": asked.name(),
        "application_type": client.application_type,
    });
    let got: Registered = http.post_json(endpoint, &request).await?;
    // The method the server registered, else the one asked for; no secret: a public client.
    let registered = got.token_endpoint_auth_method.as_deref();
    let auth = match &got.client_secret {
        None => TokenAuth::None,
        Some(_) => registered.and_then(TokenAuth::named).unwrap_or(asked),
    };
    Ok(ClientIdentity {
        client_id: got.client_id,
        client_secret: got.client_secret.filter(|_| auth != TokenAuth::None),
        auth,
    })
}
