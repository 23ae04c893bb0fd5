//! The protected-resource options of a server binary (`--auth-*`): the authorization server
//! trusted, its keys, the resource URI, the scopes, the scopes each tool needs, and the token
//! type required; read into
//! an [`Auth`] with a [`JwtValidator`] by [`AuthOptions::auth`].

use std::path::Path;

use super::{OptionsError, Value, invalid};
use crate::auth::{Auth, Jwks, JwtValidator, KeySet};

/// The options, for the usage text.
pub(super) const USAGE: &str = "  --auth-issuer <url>         require bearer JWTs issued by this authorization server (off by default)
  --auth-jwks <file|url>      the issuer's JWKS: a file, or an https URL (http to loopback only)
                              fetched at start, when its max-age is over (1 min to 1 day, else
                              10 min) and on an unknown kid
  --auth-resource <url>       this server's resource URI, the tokens' audience [the endpoint's URL]
  --auth-scopes <a,b>         the scopes the metadata lists and a challenge asks for
  --auth-tool-scope <t=s>     a tools/call of tool t needs scope s (repeatable)
  --auth-require-typ <typ>    the typ a token's header must carry, e.g. at+jwt (RFC 9068) [any]
";

/// How a server protects its HTTP endpoint; off (no `--auth-issuer`) by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthOptions {
    /// `--auth-issuer`: the authorization server trusted (the tokens' `iss`, and the
    /// metadata's `authorization_servers`).
    pub issuer: Option<String>,
    /// `--auth-jwks`: the issuer's key set, a file or an `https://` URL (`http://` to a
    /// loopback host only).
    pub jwks: Option<String>,
    /// `--auth-resource`: the resource URI (else the URL of the endpoint served).
    pub resource: Option<String>,
    /// `--auth-scopes`: `scopes_supported`, and the challenge's `scope`.
    pub scopes: Vec<String>,
    /// `--auth-tool-scope`: (tool, scope) pairs.
    pub tool_scopes: Vec<(String, String)>,
    /// `--auth-require-typ`: the `typ` a token's header must carry
    /// ([`JwtValidator::require_typ`]); any by default.
    pub require_typ: Option<String>,
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
            "--auth-require-typ" => value().and_then(|v| {
                if v.trim().is_empty() {
                    return Err(invalid("--auth-require-typ needs a type, e.g. at+jwt"));
                }
                self.require_typ = Some(v);
                Ok(())
            }),
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
            || !self.tool_scopes.is_empty()
            || self.require_typ.is_some();
        match (&self.issuer, &self.jwks) {
            (Some(_), None) => Err(invalid("--auth-issuer needs --auth-jwks")),
            (None, _) if others => Err(invalid("the --auth-* options need --auth-issuer")),
            _ => Ok(()),
        }
    }

    /// The protection these options describe, for an endpoint served at `endpoint_url`
    /// (the resource URI unless `--auth-resource` names another): `None` when off. A JWKS URL
    /// is fetched now (with the `jwks-http` feature; an error without it), and refused unless
    /// it is https or plain http to a loopback host.
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
        let mut validator = JwtValidator::new(issuer, resource, jwks);
        if let Some(typ) = &self.require_typ {
            validator = validator.require_typ(typ);
        }
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

    #[cfg(feature = "jwks-http")]
    #[tokio::test]
    async fn a_jwks_url_over_plain_http_elsewhere_than_loopback_fails_naming_the_option() {
        let options = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--auth-issuer",
            "https://auth.example.com",
            "--auth-jwks",
            "http://auth.example.com/jwks",
        ])
        .unwrap();
        let e = options
            .auth
            .auth("http://127.0.0.1:1/mcp")
            .await
            .unwrap_err();
        assert_eq!(
            e,
            "--auth-jwks: the JWKS URL http://auth.example.com/jwks: a JWKS is fetched over https (plain http to loopback only)"
        );
    }

    #[tokio::test]
    async fn a_required_typ_is_read_and_applied_to_the_validator() {
        use jsonwebtoken::jwk::{Jwk, JwkSet};
        use jsonwebtoken::{Algorithm, EncodingKey, Header, encode, get_current_timestamp};

        let unused =
            parse(&["--listen", "127.0.0.1:0", "--auth-require-typ", "at+jwt"]).unwrap_err();
        assert_eq!(
            unused.to_string(),
            "the --auth-* options need --auth-issuer"
        );
        let empty = parse(&["--listen", "127.0.0.1:0", "--auth-require-typ", " "]).unwrap_err();
        assert_eq!(
            empty.to_string(),
            "--auth-require-typ needs a type, e.g. at+jwt"
        );

        // The test key's JWKS in a file of this test's own.
        let pem = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/keys/ec.pem")).unwrap();
        let key = EncodingKey::from_ec_pem(&pem).unwrap();
        let mut jwk = Jwk::from_encoding_key(&key, Algorithm::ES256).unwrap();
        jwk.common.key_id = Some("ec-1".to_owned());
        let file =
            std::env::temp_dir().join(format!("mcp-require-typ-{}.json", std::process::id()));
        std::fs::write(
            &file,
            serde_json::to_string(&JwkSet { keys: vec![jwk] }).unwrap(),
        )
        .unwrap();

        let (issuer, resource) = ("https://auth.example.com", "http://127.0.0.1:1/mcp");
        let args = |typ: Option<&str>| {
            let mut args = vec![
                "--listen",
                "127.0.0.1:0",
                "--auth-issuer",
                issuer,
                "--auth-jwks",
            ];
            args.push(file.to_str().unwrap());
            args.extend(typ.map(|t| ["--auth-require-typ", t]).into_iter().flatten());
            parse(&args).unwrap().auth
        };
        let token = |typ: Option<&str>| {
            let now = get_current_timestamp();
            let claims = serde_json::json!({"iss": issuer, "sub": "alice", "aud": resource, "exp": now + 600});
            let mut header = Header::new(Algorithm::ES256);
            header.kid = Some("ec-1".to_owned());
            header.typ = typ.map(str::to_owned);
            encode(&header, &claims, &key).unwrap()
        };
        let strict = args(Some("application/at+jwt"));
        assert_eq!(strict.require_typ.as_deref(), Some("application/at+jwt"));
        let strict = strict.auth(resource).await.unwrap().unwrap();
        let lax = args(None).auth(resource).await.unwrap().unwrap();
        std::fs::remove_file(&file).unwrap();

        let typed = token(Some("at+jwt"));
        let plain = token(Some("JWT"));
        assert!(strict.validator.validate(&typed).await.is_ok());
        assert_eq!(
            strict.validator.validate(&plain).await.unwrap_err(),
            crate::auth::Rejected::Type
        );
        assert!(lax.validator.validate(&plain).await.is_ok());
    }
}
