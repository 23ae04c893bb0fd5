//! [`Auth`]: what makes the HTTP endpoint a protected resource: the token validator, the
//! resource URI, the authorization servers, the scopes the metadata lists and the challenge
//! asks for, and the scopes each tool needs.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use axum::http::Uri;

use super::grant::TokenValidator;

/// The well-known path of a protected resource's metadata (RFC 9728, section 3).
pub const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// Why an [`Auth`] was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// The resource URI is not an absolute http(s) URI without a fragment.
    #[error("the resource URI {0:?} is not an absolute http(s) URI without query or fragment")]
    Resource(String),
}

/// The protected-resource role of a server's HTTP endpoint (set it with
/// [`Config::auth`](crate::Config::auth)): every request needs a bearer token the validator
/// accepts, a `tools/call` needs the scopes its tool is given here, and the resource's
/// metadata is served at its well-known paths.
#[derive(Clone)]
pub struct Auth {
    pub(crate) validator: Arc<dyn TokenValidator>,
    resource: String,
    metadata_path: String,
    metadata_url: String,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) scopes_supported: Vec<String>,
    pub(crate) challenge_scopes: Vec<String>,
    tool_scopes: BTreeMap<String, BTreeSet<String>>,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auth")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .field("challenge_scopes", &self.challenge_scopes)
            .field("tool_scopes", &self.tool_scopes)
            .finish_non_exhaustive()
    }
}

/// Two settings are equal when they hold the same validator (the same `Arc`) and the same
/// resource, servers and scopes.
impl PartialEq for Auth {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.validator, &other.validator)
            && self.resource == other.resource
            && self.authorization_servers == other.authorization_servers
            && self.scopes_supported == other.scopes_supported
            && self.challenge_scopes == other.challenge_scopes
            && self.tool_scopes == other.tool_scopes
    }
}

impl Eq for Auth {}

impl Auth {
    /// Tokens checked by `validator`, for the server whose canonical URI is `resource` (the
    /// URI clients reach the endpoint at, e.g. `https://mcp.example.com/mcp`: the metadata's
    /// `resource`, and what the validator checks the tokens' audience against).
    pub fn new(validator: impl TokenValidator, resource: &str) -> Result<Auth, AuthError> {
        Auth::with_validator(Arc::new(validator), resource)
    }

    /// [`Auth::new`] with a validator already shared.
    pub fn with_validator(
        validator: Arc<dyn TokenValidator>,
        resource: &str,
    ) -> Result<Auth, AuthError> {
        let bad = || AuthError::Resource(resource.to_owned());
        let uri: Uri = resource.parse().map_err(|_| bad())?;
        let scheme = uri.scheme_str().ok_or_else(bad)?;
        let authority = uri.authority().ok_or_else(bad)?;
        if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
            || uri.query().is_some()
            || resource.contains('#')
            || authority.as_str().contains('@')
        {
            return Err(bad());
        }
        // RFC 9728, section 3.1: the well-known path goes between the host and the path.
        let path = uri.path().trim_end_matches('/');
        let metadata_path = format!("{WELL_KNOWN}{path}");
        let metadata_url = format!(
            "{}://{}{metadata_path}",
            scheme.to_ascii_lowercase(),
            authority.as_str().to_ascii_lowercase()
        );
        Ok(Auth {
            validator,
            resource: resource.to_owned(),
            metadata_path,
            metadata_url,
            authorization_servers: Vec::new(),
            scopes_supported: Vec::new(),
            challenge_scopes: Vec::new(),
            tool_scopes: BTreeMap::new(),
        })
    }

    /// The same settings, listing `issuer` (an authorization server's issuer URL) in the
    /// metadata's `authorization_servers`.
    #[must_use]
    pub fn authorization_server(mut self, issuer: &str) -> Self {
        if !self.authorization_servers.iter().any(|s| s == issuer) {
            self.authorization_servers.push(issuer.to_owned());
        }
        self
    }

    /// The same settings, with the metadata's `scopes_supported`.
    #[must_use]
    pub fn scopes_supported<I: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = I>,
    ) -> Self {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The same settings, asking for `scopes` in the challenge of a request without a token
    /// (the `scope` of its `WWW-Authenticate`): what a client should ask for at first.
    #[must_use]
    pub fn challenge_scopes<I: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = I>,
    ) -> Self {
        self.challenge_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The same settings, with a `tools/call` of `tool` needing `scope` too: a token without
    /// it is answered 403 `insufficient_scope`.
    #[must_use]
    pub fn tool_scope(mut self, tool: &str, scope: &str) -> Self {
        self.tool_scopes
            .entry(tool.to_owned())
            .or_default()
            .insert(scope.to_owned());
        self
    }

    /// The resource URI.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// The path of the resource's metadata: [`WELL_KNOWN`] followed by the resource URI's
    /// path (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`).
    pub fn metadata_path(&self) -> &str {
        &self.metadata_path
    }

    /// The URL of the resource's metadata, as the challenges name it (`resource_metadata`).
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// The scopes a `tools/call` of `tool` needs (none for a tool not given any).
    pub fn scopes_of_tool(&self, tool: &str) -> Option<&BTreeSet<String>> {
        self.tool_scopes.get(tool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{Rejected, Validating};

    struct Nobody;

    impl TokenValidator for Nobody {
        fn validate<'a>(&'a self, _: &'a str) -> Validating<'a> {
            Box::pin(async { Err(Rejected::Other("nobody".into())) })
        }
    }

    #[test]
    fn the_metadata_path_goes_between_host_and_path() {
        let auth = Auth::new(Nobody, "https://MCP.example.com:8443/api/mcp").unwrap();
        assert_eq!(
            auth.metadata_path(),
            "/.well-known/oauth-protected-resource/api/mcp"
        );
        assert_eq!(
            auth.metadata_url(),
            "https://mcp.example.com:8443/.well-known/oauth-protected-resource/api/mcp"
        );
        let root = Auth::new(Nobody, "http://127.0.0.1:3000").unwrap();
        assert_eq!(root.metadata_path(), WELL_KNOWN);
        assert_eq!(
            root.metadata_url(),
            "http://127.0.0.1:3000/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn a_resource_must_be_an_absolute_http_uri() {
        for bad in [
            "/mcp",
            "mcp.example.com/mcp",
            "ftp://mcp.example.com/mcp",
            "https://mcp.example.com/mcp#x",
            "https://mcp.example.com/mcp?x=1",
            "https://user@mcp.example.com/mcp",
            "",
        ] {
            assert!(Auth::new(Nobody, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tools_collect_their_scopes() {
        let auth = Auth::new(Nobody, "https://mcp.example.com/mcp")
            .unwrap()
            .tool_scope("delete", "write")
            .tool_scope("delete", "admin");
        let scopes: Vec<_> = auth.scopes_of_tool("delete").unwrap().iter().collect();
        assert_eq!(scopes, ["admin", "write"]);
        assert!(auth.scopes_of_tool("read").is_none());
    }
}
