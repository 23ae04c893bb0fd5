//! The protected-resource options of a server binary (`--auth-*`): the authorization server
//! trusted, its keys, the resource URI, the scopes, and the scopes each tool needs; read into
//! an [`Auth`] with a [`JwtValidator`] by [`AuthOptions::auth`].

use std::path::Path;

use super::{OptionsError, Value, invalid};
use crate::auth::{Auth, Jwks, JwtValidator, KeySet};

/// The options, for the usage text.
pub(super) const USAGE: &str = "  --auth-issuer <url>         require bearer JWTs issued by this authorization server (off by default)
  --auth-jwks <file|url>      the issuer's JWKS: a file, or an http(s) URL fetched at start and on an unknown kid
  --auth-resource <url>       this server's resource URI, the tokens' audience [the endpoint's URL]
  --auth-scopes <a,b>         the scopes the metadata lists and a challenge asks for
  --auth-tool-scope <t=s>     a tools/call of tool t needs scope s (repeatable)
";

/// How a server protects its HTTP endpoint; off (no `--auth-issuer`) by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthOptions {
    /// `--auth-issuer`: the authorization server trusted (the tokens' `iss`, and the
    /// metadata's `authorization_servers`).
    pub issuer: Option<String>,
    /// `--auth-jwks`: the issuer's key set, a file or an `http(s)://` URL.
    pub jwks: Option<String>,
    /// `--auth-resource`: the resource URI (else the URL of the endpoint served).
    pub resource: Option<String>,
    /// `--auth-scopes`: `scopes_supported`, and the challenge's `scope`.
    pub scopes: Vec<String>,
    /// `--auth-tool-scope`: (tool, scope) pairs.
    pub tool_scopes: Vec<(String, String)>,
}

impl AuthOptions {
    /// Whether the endpoint is protected (`--auth-issuer` given).
    pub fn is_on(&self) -> bool {
        self.issuer.is_some()
    }

    /// Applies `flag` if it is an auth option.
    pub(super) fn apply(
        &mut self,
        flag: &str,
        value: Value<'_>,
    ) -> Option<Result<(), OptionsError>> {
        let applied = match flag {
            "--auth-issuer" => value().map(|v| self.issuer = Some(v)),
            "--auth-jwks" => value().map(|v| self.jwks = Some(v)),
            "--auth-resource" => value().map(|v| self.resource = Some(v)),
            "--auth-scopes" => value().map(|v| {
                self.scopes = v
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
            }),
            "--auth-tool-scope" => value().and_then(|v| match v.split_once('=') {
                Some((tool, scope)) if !tool.is_empty() && !scope.is_empty() => {
                    self.tool_scopes.push((tool.to_owned(), scope.to_owned()));
                    Ok(())
                }
                _ => Err(OptionsError::Invalid(format!(
                    "--auth-tool-scope {v}: not <tool>=<scope>"
                ))),
            }),
            _ => return None,
        };
        Some(applied)
    }

    /// The options agree: `--auth-jwks` with `--auth-issuer`, and the other `--auth-*` only
    /// with it.
    pub(super) fn check(&self) -> Result<(), OptionsError> {
        let others = self.jwks.is_some()
            || self.resource.is_some()
            || !self.scopes.is_empty()
            || !self.tool_scopes.is_empty();
        match (&self.issuer, &self.jwks) {
            (Some(_), None) => Err(invalid("--auth-issuer needs --auth-jwks")),
            (None, _) if others => Err(invalid("the --auth-* options need --auth-issuer")),
            _ => Ok(()),
        }
    }

    /// The protection these options describe, for an endpoint served at `endpoint_url`
    /// (the resource URI unless `--auth-resource` names another): `None` when off. A JWKS URL
    /// is fetched now (with the `jwks-http` feature; an error without it).
    pub async fn auth(&self, endpoint_url: &str) -> Result<Option<Auth>, String> {
        let (Some(issuer), Some(jwks)) = (&self.issuer, &self.jwks) else {
            return Ok(None);
        };
        let resource = self.resource.as_deref().unwrap_or(endpoint_url);
        let jwks = if jwks.starts_with("http://") || jwks.starts_with("https://") {
            fetch(jwks).await?
        } else {
            Jwks::fixed(
                KeySet::from_file(Path::new(jwks)).map_err(|e| format!("--auth-jwks: {e}"))?,
            )
        };
        let validator = JwtValidator::new(issuer, resource, jwks);
        let mut auth = Auth::new(validator, resource)
            .map_err(|e| format!("--auth-resource: {e}"))?
            .authorization_server(issuer)
            .scopes_supported(self.scopes.iter().cloned())
            .challenge_scopes(self.scopes.iter().cloned());
        for (tool, scope) in &self.tool_scopes {
            auth = auth.tool_scope(tool, scope);
        }
        Ok(Some(auth))
    }
}

#[cfg(feature = "jwks-http")]
async fn fetch(url: &str) -> Result<Jwks, String> {
    Jwks::fetch(url)
        .await
        .map_err(|e| format!("--auth-jwks: {e}"))
}

#[cfg(not(feature = "jwks-http"))]
async fn fetch(url: &str) -> Result<Jwks, String> {
    Err(format!(
        "--auth-jwks {url}: this build reads a JWKS from a file only (mcp-server's jwks-http feature fetches URLs)"
    ))
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse;

    #[test]
    fn auth_is_off_by_default_and_read_when_given() {
        assert!(!parse(&["--listen", "127.0.0.1:0"]).unwrap().auth.is_on());
        let options = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--auth-issuer",
            "https://auth.example.com",
            "--auth-jwks",
            "keys.json",
            "--auth-scopes",
            "mcp:read, mcp:write",
            "--auth-tool-scope",
            "erase=mcp:write",
            "--auth-tool-scope",
            "erase=mcp:admin",
        ])
        .unwrap();
        let auth = options.auth;
        assert!(auth.is_on());
        assert_eq!(auth.scopes, ["mcp:read", "mcp:write"]);
        assert_eq!(auth.tool_scopes.len(), 2);
        assert_eq!(auth.tool_scopes[1], ("erase".into(), "mcp:admin".into()));
    }

    #[test]
    fn auth_options_that_do_not_agree_are_refused() {
        let no_jwks = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--auth-issuer",
            "https://a.example",
        ])
        .unwrap_err();
        assert_eq!(no_jwks.to_string(), "--auth-issuer needs --auth-jwks");
        let no_issuer = parse(&["--listen", "127.0.0.1:0", "--auth-jwks", "k.json"]).unwrap_err();
        assert_eq!(
            no_issuer.to_string(),
            "the --auth-* options need --auth-issuer"
        );
        let bad = parse(&["--listen", "127.0.0.1:0", "--auth-tool-scope", "erase"]).unwrap_err();
        assert_eq!(
            bad.to_string(),
            "--auth-tool-scope erase: not <tool>=<scope>"
        );
    }

    #[tokio::test]
    async fn a_missing_jwks_file_is_an_error_that_names_the_option() {
        let options = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--auth-issuer",
            "https://a.example",
            "--auth-jwks",
            "/nonexistent/jwks.json",
        ])
        .unwrap();
        let e = options
            .auth
            .auth("http://127.0.0.1:1/mcp")
            .await
            .unwrap_err();
        assert!(e.starts_with("--auth-jwks: reading the JWKS file"), "{e}");
    }
}
