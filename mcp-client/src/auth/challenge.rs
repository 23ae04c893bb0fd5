//! The `WWW-Authenticate` challenge of a 401 or 403 answer (RFC 6750 section 3, RFC 9728
//! section 5.1): the `Bearer` scheme's parameters the flow reads.

use reqwest::header::{HeaderMap, WWW_AUTHENTICATE};

/// What a `Bearer` challenge says; every member is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// `resource_metadata`: where the protected resource metadata document is.
    pub resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs, space separated.
    pub scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`...
    pub error: Option<String>,
}

impl Challenge {
    /// The first `Bearer` challenge among `headers`' `WWW-Authenticate` values; an empty one
    /// when none came (a 401 without a challenge still starts the flow, at the well-known
    /// locations).
    pub fn of(headers: &HeaderMap) -> Challenge {
        headers
            .get_all(WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(parse)
            .unwrap_or_default()
    }

    /// Whether it asks for more scope (`error="insufficient_scope"`).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }

    /// Its scopes, one by one.
    pub fn scopes(&self) -> Vec<String> {
        split_scopes(self.scope.as_deref())
    }
}

/// Scopes written space separated, one by one.
pub(crate) fn split_scopes(scope: Option<&str>) -> Vec<String> {
    scope
        .unwrap_or_default()
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The parameters of the `Bearer` challenge in one header value, if it has one (the scheme's
/// name is case-insensitive; other schemes' parameters are skipped).
fn parse(value: &str) -> Option<Challenge> {
    let mut rest = value.trim_start();
    loop {
        let (scheme, after) = take_token(rest);
        if scheme.is_empty() {
            return None;
        }
        let (params, next) = take_params(after);
        if scheme.eq_ignore_ascii_case("bearer") {
            return Some(challenge_of(params));
        }
        rest = next?;
    }
}

/// The challenge made of `params`, the known ones kept.
fn challenge_of(params: Vec<(String, String)>) -> Challenge {
    let mut challenge = Challenge::default();
    for (name, value) in params {
        match name.to_ascii_lowercase().as_str() {
            "resource_metadata" => challenge.resource_metadata = Some(value),
            "scope" => challenge.scope = Some(value),
            "error" => challenge.error = Some(value),
            _ => {}
        }
    }
    challenge
}

/// A token (up to a space, a comma or `=`) and what follows it.
fn take_token(s: &str) -> (&str, &str) {
    let end = s.find([' ', ',', '=', '\t']).unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// The `name=value` parameters after a scheme, up to the next scheme: the parameters and
/// where the next scheme starts (none at the end).
fn take_params(mut s: &str) -> (Vec<(String, String)>, Option<&str>) {
    let mut params = Vec::new();
    loop {
        s = s.trim_start_matches([' ', '\t', ',']);
        if s.is_empty() {
            return (params, None);
        }
        let (name, after) = take_token(s);
        let after = after.trim_start_matches([' ', '\t']);
        let Some(value_start) = after.strip_prefix('=') else {
            // A token without `=`: the next scheme.
            return (params, Some(s));
        };
        let value_start = value_start.trim_start_matches([' ', '\t']);
        let (value, rest) = match value_start.strip_prefix('"') {
            Some(quoted) => take_quoted(quoted),
            None => {
                let (v, r) = take_token(value_start);
                (v.to_owned(), r)
            }
        };
        params.push((name.to_owned(), value));
        s = rest;
    }
}

/// A quoted string's text (escapes undone) and what follows its closing quote.
fn take_quoted(s: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return (value, &s[i + 1..]),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            c => value.push(c),
        }
    }
    (value, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_challenge_is_read_with_quoted_and_bare_values() {
        let c = parse(
            r#"Bearer scope="mcp:basic mcp:write", resource_metadata="http://a/.well-known/x", error=insufficient_scope"#,
        )
        .unwrap();
        assert_eq!(c.scopes(), ["mcp:basic", "mcp:write"]);
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://a/.well-known/x")
        );
        assert!(c.is_insufficient_scope());
    }

    #[test]
    fn other_schemes_are_skipped_and_escapes_undone() {
        let c = parse(r#"Basic realm="x, y", DPoP algs="ES256", bearer scope="a\"b""#).unwrap();
        assert_eq!(c.scope.as_deref(), Some("a\"b"));
        assert_eq!(parse(r#"Basic realm="x""#), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn a_bare_bearer_has_no_parameters() {
        assert_eq!(parse("Bearer"), Some(Challenge::default()));
        assert_eq!(
            parse(r#"Bearer error="#),
            Some(Challenge {
                error: Some(String::new()),
                ..Challenge::default()
            })
        );
    }
}
