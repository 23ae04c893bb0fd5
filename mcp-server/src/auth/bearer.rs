//! The bearer credential of a request (RFC 6750, section 2.1): `Authorization: Bearer
//! <token>`, the scheme in any case, the token in `b64token` syntax. Tokens in a query string
//! or a form body are not read (the specification forbids the query string; the body is the
//! JSON-RPC message).

use axum::http::{HeaderMap, header};

/// What a request's `Authorization` header holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential<'a> {
    /// No `Authorization` header, or one of another scheme (`Basic`...): the client does not
    /// know it needs a token (the challenge then carries no error code, RFC 6750 section 3.1).
    Missing,
    /// A bearer token, in `b64token` syntax.
    Bearer(&'a str),
    /// A `Bearer` header that is not one (no token, a token of other characters, a header
    /// given twice, or not visible ASCII): answered as an invalid token.
    Invalid,
}

/// The bearer credential of `headers`.
pub fn credential(headers: &HeaderMap) -> Credential<'_> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let Some(value) = values.next() else {
        return Credential::Missing;
    };
    if values.next().is_some() {
        return Credential::Invalid;
    }
    let Ok(value) = value.to_str() else {
        return Credential::Invalid;
    };
    let value = value.trim();
    let (scheme, rest) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Credential::Missing;
    }
    let token = rest.trim_start_matches(' ');
    if is_b64token(token) {
        Credential::Bearer(token)
    } else {
        Credential::Invalid
    }
}

/// `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="` (RFC 6750).
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::headers;

    #[test]
    fn the_scheme_is_read_in_any_case() {
        for value in ["Bearer abc.def", "bearer abc.def", "BEARER   abc.def  "] {
            assert_eq!(
                credential(&headers(&[("authorization", value)])),
                Credential::Bearer("abc.def"),
                "{value}"
            );
        }
    }

    #[test]
    fn another_scheme_or_none_is_missing() {
        assert_eq!(credential(&HeaderMap::new()), Credential::Missing);
        let basic = headers(&[("authorization", "Basic dXNlcjpwYXNz")]);
        assert_eq!(credential(&basic), Credential::Missing);
        let bearerish = headers(&[("authorization", "Bearerx abc")]);
        assert_eq!(credential(&bearerish), Credential::Missing);
    }

    #[test]
    fn a_bearer_header_without_a_token_is_invalid() {
        for value in [
            "Bearer",
            "Bearer ",
            "Bearer a b",
            "Bearer a\"b",
            "Bearer ===",
        ] {
            assert_eq!(
                credential(&headers(&[("authorization", value)])),
                Credential::Invalid,
                "{value}"
            );
        }
        let twice = headers(&[("authorization", "Bearer a"), ("authorization", "Bearer b")]);
        assert_eq!(credential(&twice), Credential::Invalid);
        assert_eq!(
            credential(&headers(&[("authorization", "Bearer abc==")])),
            Credential::Bearer("abc==")
        );
    }
}
