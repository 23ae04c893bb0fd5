//! The answers of a protected resource to a request it does not serve (RFC 6750, section 3;
//! RFC 9728, section 5.1): 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (and
//! `scope="…"`) when no token came, the same with `error="invalid_token"` when the token is
//! not accepted, and 403 with `error="insufficient_scope"` and the scopes needed when it lacks
//! some. The body is fixed: it says nothing of the token, its claims or why it was refused.

use std::collections::BTreeSet;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::bearer::{Credential, credential};
use super::grant::Grant;
use super::settings::Auth;

/// The body of a 401 without a token.
const MISSING_BODY: &str =
    r#"{"error":"unauthorized","error_description":"This resource needs a bearer token"}"#;

/// The body of a 401 with a token: the same whatever the reason.
const INVALID_BODY: &str =
    r#"{"error":"invalid_token","error_description":"The access token is not valid"}"#;

/// The body of a 403.
const INSUFFICIENT_BODY: &str = r#"{"error":"insufficient_scope","error_description":"The access token lacks a scope this request needs"}"#;

/// The grant of the request's bearer token, or the 401 that answers it.
pub(crate) async fn authenticate(auth: &Auth, headers: &HeaderMap) -> Result<Grant, Box<Response>> {
    match credential(headers) {
        Credential::Missing => Err(unauthorized(auth, None)),
        Credential::Invalid => Err(unauthorized(auth, Some("invalid_token"))),
        Credential::Bearer(token) => auth
            .validator
            .validate(token)
            .await
            .map_err(|_| unauthorized(auth, Some("invalid_token"))),
    }
}

/// Whether `grant` may call `tool`: else the 403 that asks for the scopes it needs.
pub(crate) fn authorize_tool(auth: &Auth, grant: &Grant, tool: &str) -> Result<(), Box<Response>> {
    match auth.scopes_of_tool(tool) {
        Some(needed) if !grant.has_all(needed) => Err(insufficient(auth, grant, needed)),
        _ => Ok(()),
    }
}

/// 401, with the challenge's `error` if a token came.
fn unauthorized(auth: &Auth, error: Option<&str>) -> Box<Response> {
    let mut params = Vec::new();
    if let Some(error) = error {
        params.push(("error", error.to_owned()));
    }
    params.push(("resource_metadata", auth.metadata_url().to_owned()));
    let scopes: Vec<&str> = auth
        .challenge_scopes
        .iter()
        .map(String::as_str)
        .filter(|s| is_scope_token(s))
        .collect();
    if !scopes.is_empty() {
        params.push(("scope", scopes.join(" ")));
    }
    let body = if error.is_some() {
        INVALID_BODY
    } else {
        MISSING_BODY
    };
    challenge(StatusCode::UNAUTHORIZED, &params, body)
}

/// 403 `insufficient_scope`: the scopes the grant holds and the ones `needed`, so that the
/// client asks for all of them at once (a token of the needed ones alone would lose the
/// others).
fn insufficient(auth: &Auth, grant: &Grant, needed: &BTreeSet<String>) -> Box<Response> {
    let scopes: BTreeSet<&str> = grant
        .scopes
        .iter()
        .chain(needed)
        .map(String::as_str)
        .filter(|s| is_scope_token(s))
        .collect();
    let params = [
        ("error", "insufficient_scope".to_owned()),
        ("scope", scopes.into_iter().collect::<Vec<_>>().join(" ")),
        ("resource_metadata", auth.metadata_url().to_owned()),
    ];
    challenge(StatusCode::FORBIDDEN, &params, INSUFFICIENT_BODY)
}

/// `status` with `WWW-Authenticate: Bearer` and `params` as quoted strings, and `body`.
fn challenge(status: StatusCode, params: &[(&str, String)], body: &'static str) -> Box<Response> {
    let params: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{k}=\"{}\"", quoted(v)))
        .collect();
    let value = format!("Bearer {}", params.join(", "));
    let mut response = (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
    // Every value is visible ASCII (a URI, scope tokens); a challenge without it is still 401.
    if let Ok(value) = HeaderValue::from_str(&value) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    Box::new(response)
}

/// `text` escaped for a quoted string (RFC 9110, section 5.6.4).
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )` (RFC 6749, section 3.3).
fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty()
        && scope
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::{Rejected, TokenValidator, Validating};
    use crate::test_support::headers;

    /// Accepts `good` (scope `read`) and nothing else.
    struct OneToken;

    impl TokenValidator for OneToken {
        fn validate<'a>(&'a self, token: &'a str) -> Validating<'a> {
            Box::pin(async move {
                match token {
                    "good" => Ok(Grant::new("iss#alice", ["read"])),
                    _ => Err(Rejected::Expired),
                }
            })
        }
    }

    fn auth() -> Auth {
        Auth::new(OneToken, "https://mcp.example.com/mcp")
            .unwrap()
            .challenge_scopes(["read", "bad\"scope"])
            .tool_scope("erase", "write")
    }

    fn www(response: &Response) -> &str {
        response.headers()[header::WWW_AUTHENTICATE]
            .to_str()
            .unwrap()
    }

    const PRM: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

    #[tokio::test]
    async fn no_token_is_challenged_without_an_error_code() {
        let refused = authenticate(&auth(), &HeaderMap::new()).await.unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            www(&refused),
            format!("Bearer resource_metadata=\"{PRM}\", scope=\"read\"")
        );
    }

    #[tokio::test]
    async fn a_refused_token_is_invalid_token_whatever_the_reason() {
        for value in ["Bearer bad", "Bearer", "bearer a b"] {
            let h = headers(&[("authorization", value)]);
            let refused = authenticate(&auth(), &h).await.unwrap_err();
            assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
            assert!(
                www(&refused).starts_with("Bearer error=\"invalid_token\", resource_metadata="),
                "{}",
                www(&refused)
            );
        }
        let h = headers(&[("authorization", "BEARER good")]);
        let grant = authenticate(&auth(), &h).await.unwrap();
        assert_eq!(grant.principal, "iss#alice");
    }

    #[test]
    fn a_tool_beyond_the_grant_asks_for_all_the_scopes() {
        let grant = Grant::new("iss#alice", ["read"]);
        let refused = authorize_tool(&auth(), &grant, "erase").unwrap_err();
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            www(&refused),
            format!(
                "Bearer error=\"insufficient_scope\", scope=\"read write\", resource_metadata=\"{PRM}\""
            )
        );
        assert!(authorize_tool(&auth(), &grant, "look").is_ok());
        let writer = Grant::new("iss#alice", ["write"]);
        assert!(authorize_tool(&auth(), &writer, "erase").is_ok());
    }

    #[test]
    fn quoted_strings_are_escaped() {
        assert_eq!(quoted(r#"a"b\c"#), r#"a\"b\\c"#);
        assert!(is_scope_token("mcp:tools.read"));
        assert!(!is_scope_token("a b") && !is_scope_token("a\"b") && !is_scope_token(""));
    }
}
