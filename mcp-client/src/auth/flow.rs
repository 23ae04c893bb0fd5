//! The authorization code grant with PKCE (S256) and resource indicators, and the refresh
//! grant, on the `oauth2` crate: this module decides what is sent and checks what comes back
//! (the redirect's origin, `state`, `iss`), the crate builds the requests and reads the
//! token responses.

use std::time::{Duration, SystemTime};

use oauth2::basic::BasicClient;
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet,
    EndpointSet, PkceCodeChallenge, RedirectUrl, RefreshToken, Scope, TokenResponse, TokenUrl,
};
use url::Url;

use super::AuthError;
use super::agent::UserAgent;
use super::discovery::ServerMetadata;
use super::http::AuthHttp;
use super::identity::{ClientIdentity, TokenAuth};
use super::store::Tokens;

/// What one grant is for: the server that issues it, who asks, for which resource and scopes.
pub struct Grant<'a> {
    /// The authorization server.
    pub metadata: &'a ServerMetadata,
    /// The client's identity there.
    pub identity: &'a ClientIdentity,
    /// The `resource` parameter, as the resource metadata wrote it.
    pub resource: &'a str,
    /// The scopes asked for (none: no `scope` parameter).
    pub scopes: &'a [String],
}

/// The `oauth2` client with its authorization and token endpoints set.
type OAuthClient =
    BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

/// Runs the authorization code grant: the user agent visits the authorization URL, the
/// redirect is checked, the code exchanged.
pub async fn authorize(
    http: &AuthHttp,
    agent: &dyn UserAgent,
    grant: &Grant<'_>,
) -> Result<Tokens, AuthError> {
    require_s256(grant.metadata)?;
    let client = oauth_client(grant, Some(agent.redirect_uri()))?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, state) = client
        .authorize_url(CsrfToken::new_random)
        .add_scopes(grant.scopes.iter().cloned().map(Scope::new))
        .set_pkce_challenge(challenge)
        .add_extra_param("resource", grant.resource)
        .url();
    let callback = agent.visit(http.client(), url.as_str()).await?;
    let code = read_callback(
        &callback,
        agent.redirect_uri(),
        state.secret(),
        grant.metadata,
    )?;
    let answer = client
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(verifier)
        .add_extra_param("resource", grant.resource)
        .request_async(http)
        .await
        .map_err(token_error)?;
    Ok(tokens_of(&answer, grant))
}

/// Runs the refresh grant with `refresh_token`; the new tokens keep the old refresh token
/// when the answer brings none.
pub async fn refresh(
    http: &AuthHttp,
    grant: &Grant<'_>,
    refresh_token: &str,
) -> Result<Tokens, AuthError> {
    let client = oauth_client(grant, None)?;
    let token = RefreshToken::new(refresh_token.to_owned());
    let answer = client
        .exchange_refresh_token(&token)
        .add_scopes(grant.scopes.iter().cloned().map(Scope::new))
        .add_extra_param("resource", grant.resource)
        .request_async(http)
        .await
        .map_err(token_error)?;
    let mut tokens = tokens_of(&answer, grant);
    tokens.refresh_token = tokens.refresh_token.or(Some(refresh_token.to_owned()));
    Ok(tokens)
}

/// PKCE with S256 is required: a server that does not list it is not used.
fn require_s256(metadata: &ServerMetadata) -> Result<(), AuthError> {
    let listed = metadata
        .code_challenge_methods_supported
        .as_ref()
        .is_some_and(|m| m.iter().any(|x| x == "S256"));
    if listed {
        Ok(())
    } else {
        Err(AuthError::Metadata(format!(
            "{} does not list S256 in code_challenge_methods_supported",
            metadata.issuer
        )))
    }
}

/// The `oauth2` client for `grant`, authenticating as its identity says.
fn oauth_client(grant: &Grant<'_>, redirect_uri: Option<&str>) -> Result<OAuthClient, AuthError> {
    let bad = |what: &str, e: &dyn std::fmt::Display| AuthError::Metadata(format!("{what}: {e}"));
    let metadata = grant.metadata;
    let auth_url = AuthUrl::new(metadata.authorization_endpoint.clone())
        .map_err(|e| bad("authorization_endpoint", &e))?;
    let token_url =
        TokenUrl::new(metadata.token_endpoint.clone()).map_err(|e| bad("token_endpoint", &e))?;
    let identity = grant.identity;
    let mut client = BasicClient::new(ClientId::new(identity.client_id.clone()))
        .set_auth_uri(auth_url)
        .set_token_uri(token_url)
        .set_auth_type(match identity.auth {
            TokenAuth::Basic => AuthType::BasicAuth,
            TokenAuth::Post | TokenAuth::None => AuthType::RequestBody,
        });
    if let (Some(secret), false) = (&identity.client_secret, identity.auth == TokenAuth::None) {
        client = client.set_client_secret(ClientSecret::new(secret.clone()));
    }
    if let Some(uri) = redirect_uri {
        let uri = RedirectUrl::new(uri.to_owned()).map_err(|e| bad("redirect URI", &e))?;
        client = client.set_redirect_uri(uri);
    }
    Ok(client)
}

/// The code of the authorization response `callback`, after its checks: it came back to the
/// redirect URI, with the `state` sent, and the issuer's `iss` when there is one (required when
/// the server says it sends it; compared as a string, no normalisation).
pub fn read_callback(
    callback: &str,
    redirect_uri: &str,
    state: &str,
    metadata: &ServerMetadata,
) -> Result<String, AuthError> {
    let came = Url::parse(callback).map_err(|_| AuthError::ForeignRedirect)?;
    let expected = Url::parse(redirect_uri)
        .map_err(|e| AuthError::Metadata(format!("redirect URI {redirect_uri:?}: {e}")))?;
    if came.origin() != expected.origin() || came.path() != expected.path() {
        return Err(AuthError::ForeignRedirect);
    }
    let param = |name: &str| {
        came.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if let Some(error) = param("error") {
        let description = param("error_description").unwrap_or_default();
        return Err(AuthError::Denied(
            format!("{error} {description}").trim().to_owned(),
        ));
    }
    if param("state").as_deref() != Some(state) {
        return Err(AuthError::StateMismatch);
    }
    match param("iss") {
        Some(iss) if iss != metadata.issuer => {
            return Err(AuthError::IssMismatch {
                expected: metadata.issuer.clone(),
                found: iss,
            });
        }
        None if metadata.authorization_response_iss_parameter_supported == Some(true) => {
            return Err(AuthError::IssMissing);
        }
        _ => {}
    }
    param("code").ok_or_else(|| AuthError::Denied("a redirect without a code".to_owned()))
}

/// The tokens of a token response.
fn tokens_of(answer: &oauth2::basic::BasicTokenResponse, grant: &Grant<'_>) -> Tokens {
    let scopes = match answer.scopes() {
        Some(granted) => granted.iter().map(|s| s.to_string()).collect(),
        None => grant.scopes.to_vec(),
    };
    Tokens {
        access_token: answer.access_token().secret().clone(),
        refresh_token: answer.refresh_token().map(|t| t.secret().clone()),
        expires_at: answer
            .expires_in()
            .map(|d| SystemTime::now() + d.min(Duration::from_secs(10 * 365 * 86_400))),
        scopes,
        issuer: grant.metadata.issuer.clone(),
    }
}

/// The token endpoint's refusal or failure, without what was sent.
fn token_error<E: std::error::Error + 'static>(
    e: oauth2::RequestTokenError<E, oauth2::basic::BasicErrorResponse>,
) -> AuthError {
    match e {
        oauth2::RequestTokenError::ServerResponse(r) => AuthError::Token(format!(
            "{}{}",
            r.error(),
            r.error_description()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        )),
        oauth2::RequestTokenError::Request(e) => {
            AuthError::Http(format!("the token endpoint: {e}"))
        }
        oauth2::RequestTokenError::Parse(e, _) => {
            AuthError::Token(format!("an unreadable token response: {e}"))
        }
        oauth2::RequestTokenError::Other(e) => AuthError::Token(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(iss_supported: Option<bool>) -> ServerMetadata {
        serde_json::from_value(serde_json::json!({
            "issuer": "http://as:1",
            "authorization_endpoint": "http://as:1/authorize",
            "token_endpoint": "http://as:1/token",
            "authorization_response_iss_parameter_supported": iss_supported,
        }))
        .unwrap()
    }

    const REDIRECT: &str = "http://localhost:3000/callback";

    #[test]
    fn a_good_callback_yields_its_code() {
        let m = metadata(Some(true));
        let cb = "http://localhost:3000/callback?code=c1&state=s1&iss=http%3A%2F%2Fas%3A1";
        assert_eq!(read_callback(cb, REDIRECT, "s1", &m).unwrap(), "c1");
        let no_iss = "http://localhost:3000/callback?code=c1&state=s1";
        assert_eq!(
            read_callback(no_iss, REDIRECT, "s1", &metadata(None)).unwrap(),
            "c1"
        );
    }

    #[test]
    fn each_refusal_of_the_authorization_response() {
        let m = metadata(Some(true));
        let refused =
            |cb: &str, m: &ServerMetadata| read_callback(cb, REDIRECT, "s1", m).unwrap_err();
        assert!(matches!(
            refused("http://evil.example/callback?code=c&state=s1", &m),
            AuthError::ForeignRedirect
        ));
        assert!(matches!(
            refused("http://localhost:3000/other?code=c&state=s1", &m),
            AuthError::ForeignRedirect
        ));
        assert!(matches!(
            refused(
                "http://localhost:3000/callback?code=c&state=s2&iss=http%3A%2F%2Fas%3A1",
                &m
            ),
            AuthError::StateMismatch
        ));
        assert!(matches!(
            refused(
                "http://localhost:3000/callback?code=c&iss=http%3A%2F%2Fas%3A1",
                &m
            ),
            AuthError::StateMismatch
        ));
        assert!(matches!(
            refused("http://localhost:3000/callback?code=c&state=s1", &m),
            AuthError::IssMissing
        ));
        assert!(matches!(
            refused(
                "http://localhost:3000/callback?code=c&state=s1&iss=http%3A%2F%2Fas%3A1%2F",
                &m
            ),
            AuthError::IssMismatch { .. }
        ));
        // An iss the server did not advertise is still compared.
        assert!(matches!(
            refused(
                "http://localhost:3000/callback?code=c&state=s1&iss=https%3A%2F%2Fevil",
                &metadata(None)
            ),
            AuthError::IssMismatch { .. }
        ));
        assert!(matches!(
            refused(
                "http://localhost:3000/callback?error=access_denied&state=s1",
                &m
            ),
            AuthError::Denied(_)
        ));
    }

    #[test]
    fn pkce_s256_is_required() {
        let mut m = metadata(None);
        assert!(require_s256(&m).is_err());
        m.code_challenge_methods_supported = Some(vec!["plain".into()]);
        assert!(require_s256(&m).is_err());
        m.code_challenge_methods_supported = Some(vec!["plain".into(), "S256".into()]);
        assert!(require_s256(&m).is_ok());
    }
}
