//! Where the flow finds what it needs: the protected resource metadata (RFC 9728) of the
//! server, and the metadata of its authorization server (RFC 8414 and OpenID Connect
//! Discovery), each tried at the locations the specification lists, in its order; and the
//! checks on what they say (the resource is this server, the issuer is the one asked for, the
//! endpoints are `https` or loopback: [`super::transport`]).

use serde::Deserialize;
use url::Url;

use super::AuthError;
use super::http::AuthHttp;
use super::transport::{is_loopback, require_secure};

/// The protected resource metadata document: what the flow reads of it.
#[derive(Debug, Clone, Deserialize)]
pub struct ResourceMetadata {
    /// The resource identifier, sent as the `resource` parameter exactly as written here.
    pub resource: String,
    /// The authorization servers' issuers; the flow uses the first.
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    /// The scopes the resource knows, asked for when the challenge names none.
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

/// The authorization server's metadata: what the flow reads of it.
#[derive(Debug, Clone, Deserialize)]
pub struct ServerMetadata {
    /// Its issuer identifier: the one the document was looked up for, character for character.
    pub issuer: String,
    /// Where the user agent goes.
    pub authorization_endpoint: String,
    /// Where codes and refresh tokens are exchanged.
    pub token_endpoint: String,
    /// Dynamic client registration (RFC 7591), when offered.
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    /// The scopes it knows (`offline_access` among them when it issues refresh tokens).
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    /// How clients authenticate at the token endpoint (`client_secret_basic` when absent).
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// PKCE methods; the flow needs `S256`.
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// Whether authorization responses carry `iss` (RFC 9207): then one without it is refused.
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: Option<bool>,
    /// Whether a URL may be the client id (Client ID Metadata Documents).
    #[serde(default)]
    pub client_id_metadata_document_supported: Option<bool>,
    /// The grants it issues (`refresh_token` among them when it refreshes).
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
}

impl ServerMetadata {
    /// Whether it lists `scope` among its scopes.
    pub fn supports_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|s| s.iter().any(|x| x == scope))
    }
}

/// The protected resource metadata of the server at `server`: from the challenge's
/// `resource_metadata` when it named one, else from the path-based well-known location, then
/// the root one. `None` when none answers with a document.
pub async fn resource_metadata(
    http: &AuthHttp,
    server: &Url,
    hint: Option<&str>,
) -> Result<Option<ResourceMetadata>, AuthError> {
    for url in resource_metadata_urls(server, hint)? {
        if let Some(found) = http.get_json::<ResourceMetadata>(&url).await? {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// Where [`resource_metadata`] looks, in order. Each is `https` or loopback
/// ([`AuthError::InsecureUrl`] otherwise). The challenge's `resource_metadata` may name another
/// host than the server's (RFC 9728 section 5.1 lets it; the document's `resource` must still
/// stand for this server), but a loopback one only when the server is itself on loopback: a
/// remote server does not get the client to send requests to its own machine.
pub fn resource_metadata_urls(server: &Url, hint: Option<&str>) -> Result<Vec<String>, AuthError> {
    if let Some(hint) = hint {
        let url = server
            .join(hint)
            .map_err(|e| AuthError::Metadata(format!("resource_metadata {hint:?}: {e}")))?;
        let url = require_secure("resource_metadata", url.as_str())?;
        if is_loopback(&url) && !is_loopback(server) {
            return Err(AuthError::InsecureUrl {
                what: "resource_metadata".to_owned(),
                url: url.into(),
            });
        }
        return Ok(vec![url.into()]);
    }
    let origin = origin_of(server)?;
    let path = server.path().trim_end_matches('/');
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    for url in &urls {
        require_secure("resource_metadata", url)?;
    }
    Ok(urls)
}

/// The metadata of the authorization server `issuer`: tried at the OAuth then the OpenID
/// locations for its path; the first document found must name `issuer` as its issuer,
/// exactly (else the flow stops: its endpoints are not trusted), and its endpoints must be
/// `https` or loopback. `None` when no location has a document.
pub async fn server_metadata(
    http: &AuthHttp,
    issuer: &str,
) -> Result<Option<ServerMetadata>, AuthError> {
    for url in server_metadata_urls(issuer)? {
        if let Some(found) = http.get_json::<ServerMetadata>(&url).await? {
            if found.issuer != issuer {
                return Err(AuthError::IssuerMismatch {
                    expected: issuer.to_owned(),
                    found: found.issuer,
                });
            }
            require_secure_endpoints(&found)?;
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The authorization, token and registration endpoints of `metadata`, each `https` or
/// loopback.
pub fn require_secure_endpoints(metadata: &ServerMetadata) -> Result<(), AuthError> {
    require_secure("authorization_endpoint", &metadata.authorization_endpoint)?;
    require_secure("token_endpoint", &metadata.token_endpoint)?;
    if let Some(registration) = &metadata.registration_endpoint {
        require_secure("registration_endpoint", registration)?;
    }
    Ok(())
}

/// The endpoints a server of revision 2025-03-26 without any metadata has by default, at its
/// origin `base`: `/authorize`, `/token`, `/register` (that revision required PKCE of every
/// server, so S256 is taken as supported).
pub fn default_endpoints(base: &str) -> ServerMetadata {
    ServerMetadata {
        issuer: base.to_owned(),
        authorization_endpoint: format!("{base}/authorize"),
        token_endpoint: format!("{base}/token"),
        registration_endpoint: Some(format!("{base}/register")),
        scopes_supported: None,
        token_endpoint_auth_methods_supported: None,
        code_challenge_methods_supported: Some(vec!["S256".to_owned()]),
        authorization_response_iss_parameter_supported: None,
        client_id_metadata_document_supported: None,
        grant_types_supported: None,
    }
}

/// Checks the authorization server `issuer` that the resource metadata of the server at
/// `server` names: a remote server does not get the client to send its requests (and its
/// credentials) to the user's own machine, so a loopback issuer only for a loopback server.
/// (`https` is checked where its metadata is looked up: [`server_metadata_urls`].)
pub fn issuer_for(server: &Url, issuer: &str) -> Result<(), AuthError> {
    match Url::parse(issuer) {
        Ok(url) if is_loopback(&url) && !is_loopback(server) => Err(AuthError::InsecureUrl {
            what: "authorization server".to_owned(),
            url: issuer.to_owned(),
        }),
        _ => Ok(()),
    }
}

/// Where [`server_metadata`] looks, in order (RFC 8414 section 3.1 inserts the well-known
/// part before the issuer's path; OpenID Connect Discovery appends it after). The issuer must
/// be `https` or loopback ([`AuthError::InsecureUrl`] otherwise).
pub fn server_metadata_urls(issuer: &str) -> Result<Vec<String>, AuthError> {
    let url = require_secure("issuer", issuer)?;
    let origin = origin_of(&url)?;
    let path = url.path().trim_end_matches('/');
    Ok(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// Whether `resource` (the metadata's resource identifier) stands for the server at
/// `server`: the same origin, and the server's path under the resource's.
pub fn resource_covers(resource: &str, server: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else {
        return false;
    };
    if resource.origin() != server.origin() || resource.fragment().is_some() {
        return false;
    }
    let base = resource.path().trim_end_matches('/');
    let path = server.path();
    path == base || path.starts_with(&format!("{base}/"))
}

/// `scheme://host[:port]` of `url`.
fn origin_of(url: &Url) -> Result<String, AuthError> {
    match url.origin() {
        origin @ url::Origin::Tuple(..) => Ok(origin.ascii_serialization()),
        url::Origin::Opaque(_) => Err(AuthError::Metadata(format!("{url} has no origin"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn resource_metadata_is_looked_for_at_the_path_then_the_root() {
        assert_eq!(
            resource_metadata_urls(&url("https://h:1/a/mcp"), None).unwrap(),
            [
                "https://h:1/.well-known/oauth-protected-resource/a/mcp",
                "https://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            resource_metadata_urls(&url("http://127.0.0.1/"), None).unwrap(),
            ["http://127.0.0.1/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            resource_metadata_urls(&url("https://h/mcp"), Some("/custom/x.json")).unwrap(),
            ["https://h/custom/x.json"]
        );
        // Another host is allowed (RFC 9728 section 5.1): the document's resource is checked.
        assert_eq!(
            resource_metadata_urls(&url("https://h/mcp"), Some("https://meta.example/x")).unwrap(),
            ["https://meta.example/x"]
        );
        assert_eq!(
            resource_metadata_urls(&url("http://localhost:3000/mcp"), Some("/prm")).unwrap(),
            ["http://localhost:3000/prm"]
        );
    }

    fn insecure(what: &str, url: &str) -> AuthError {
        AuthError::InsecureUrl {
            what: what.to_owned(),
            url: url.to_owned(),
        }
    }

    #[test]
    fn resource_metadata_over_plain_http_elsewhere_than_loopback_is_refused() {
        let server = url("https://mcp.example.com/mcp");
        assert_eq!(
            resource_metadata_urls(&server, Some("http://meta.example.com/prm")),
            Err(insecure("resource_metadata", "http://meta.example.com/prm"))
        );
        assert_eq!(
            resource_metadata_urls(&url("http://mcp.example.com/mcp"), Some("/prm")),
            Err(insecure("resource_metadata", "http://mcp.example.com/prm"))
        );
        assert_eq!(
            resource_metadata_urls(&url("http://mcp.example.com/mcp"), None),
            Err(insecure(
                "resource_metadata",
                "http://mcp.example.com/.well-known/oauth-protected-resource/mcp"
            ))
        );
        // A remote server does not point the client at the client's own machine.
        for local in ["http://127.0.0.1:6379/x", "https://localhost/x"] {
            assert_eq!(
                resource_metadata_urls(&server, Some(local)),
                Err(insecure("resource_metadata", local)),
                "{local}"
            );
        }
    }

    #[test]
    fn server_metadata_is_looked_for_as_rfc_8414_then_openid_say() {
        assert_eq!(
            server_metadata_urls("http://127.0.0.1:1/tenant1").unwrap(),
            [
                "http://127.0.0.1:1/.well-known/oauth-authorization-server/tenant1",
                "http://127.0.0.1:1/.well-known/openid-configuration/tenant1",
                "http://127.0.0.1:1/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            server_metadata_urls("https://as.example").unwrap(),
            [
                "https://as.example/.well-known/oauth-authorization-server",
                "https://as.example/.well-known/openid-configuration"
            ]
        );
    }

    #[test]
    fn an_issuer_over_plain_http_elsewhere_than_loopback_is_refused() {
        for issuer in ["http://auth.example.com", "http://auth.example.com/tenant1"] {
            assert_eq!(
                server_metadata_urls(issuer),
                Err(insecure("issuer", issuer)),
                "{issuer}"
            );
        }
    }

    fn metadata(endpoints: [(&str, &str); 3]) -> ServerMetadata {
        let mut doc = serde_json::json!({"issuer": "https://auth.example.com"});
        for (name, value) in endpoints {
            doc[name] = serde_json::json!(value);
        }
        serde_json::from_value(doc).unwrap()
    }

    #[test]
    fn a_remote_server_cannot_name_a_loopback_authorization_server() {
        let remote = Url::parse("https://mcp.example.com/mcp").unwrap();
        let local = Url::parse("http://127.0.0.1:9000/mcp").unwrap();
        for issuer in [
            "http://127.0.0.1:8000",
            "https://localhost",
            "http://[::1]:1",
        ] {
            let refused = issuer_for(&remote, issuer).unwrap_err();
            assert!(matches!(refused, AuthError::InsecureUrl { .. }), "{issuer}");
            assert!(issuer_for(&local, issuer).is_ok(), "{issuer}");
        }
        assert!(issuer_for(&remote, "https://auth.example.com").is_ok());
    }

    #[test]
    fn endpoints_over_plain_http_elsewhere_than_loopback_are_refused() {
        let good = [
            (
                "authorization_endpoint",
                "https://auth.example.com/authorize",
            ),
            ("token_endpoint", "https://auth.example.com/token"),
            ("registration_endpoint", "https://auth.example.com/register"),
        ];
        assert_eq!(require_secure_endpoints(&metadata(good)), Ok(()));
        for i in 0..good.len() {
            let mut endpoints = good;
            let plain = endpoints[i].1.replacen("https:", "http:", 1);
            endpoints[i].1 = &plain;
            assert_eq!(
                require_secure_endpoints(&metadata(endpoints)),
                Err(insecure(good[i].0, &plain)),
                "{plain}"
            );
        }
        let local = [
            ("authorization_endpoint", "http://localhost:9000/authorize"),
            ("token_endpoint", "http://127.0.0.1:9000/token"),
            ("registration_endpoint", "http://[::1]:9000/register"),
        ];
        assert_eq!(require_secure_endpoints(&metadata(local)), Ok(()));
    }

    #[test]
    fn a_resource_covers_its_own_origin_and_paths_under_it() {
        let server = url("http://localhost:3000/mcp");
        assert!(resource_covers("http://localhost:3000/mcp", &server));
        assert!(resource_covers("http://localhost:3000", &server));
        assert!(resource_covers("http://LOCALHOST:3000/", &server));
        assert!(!resource_covers("https://evil.example.com/mcp", &server));
        assert!(!resource_covers("http://localhost:3001/mcp", &server));
        assert!(!resource_covers("http://localhost:3000/mc", &server));
        assert!(!resource_covers(
            "http://localhost:3000/mcp/deeper",
            &server
        ));
        assert!(!resource_covers("not a url", &server));
    }
}
