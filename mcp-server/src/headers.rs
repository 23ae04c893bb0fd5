//! What the HTTP headers of a POST must be before its body is looked at: each routing header
//! at most once, `Content-Type` JSON, `Accept` listing both response types, and `Host` and
//! `Origin` naming this machine (parsed as authorities, not matched as text).

use axum::http::uri::{Authority, Uri};
use axum::http::{HeaderMap, header};

use crate::principal::PrincipalKey;

/// Headers a request may carry at most once: the routing headers (a gateway that reads the
/// last copy would route on another value than the server that reads the first) and the ones
/// the DNS-rebinding check reads. `Mcp-Param-*` headers are checked by prefix.
const ONCE: &[&str] = &[
    "mcp-session-id",
    "mcp-name",
    "mcp-method",
    "mcp-protocol-version",
    "host",
    "origin",
    "content-type",
];

/// The name of the first routing or host header (or `Mcp-Param-*`) that `headers` carries more
/// than once.
pub fn repeated(headers: &HeaderMap) -> Option<&str> {
    let twice = |name: &str| headers.get_all(name).iter().nth(1).is_some();
    if let Some(name) = ONCE.iter().find(|n| twice(n)) {
        return Some(name);
    }
    headers
        .keys()
        .map(|k| k.as_str())
        .find(|k| k.starts_with("mcp-param-") && twice(k))
}

/// The media type of a `Content-Type` or `Accept` item, lowercased, and its parameters.
fn media_type(item: &str) -> (String, impl Iterator<Item = (String, &str)>) {
    let mut parts = item.split(';');
    let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    let params = parts.filter_map(|p| {
        let (k, v) = p.split_once('=')?;
        Some((k.trim().to_ascii_lowercase(), v.trim().trim_matches('"')))
    });
    (media, params)
}

/// Whether `Content-Type` is `application/json` (any case, optional whitespace), with no
/// charset or UTF-8, the only encoding JSON is exchanged in (RFC 8259, section 8.1).
/// `application/jsonx` and `application/json-seq` are other types.
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let (media, mut params) = media_type(value);
    media == "application/json"
        && params.all(|(k, v)| k != "charset" || v.eq_ignore_ascii_case("utf-8"))
}

/// Whether the `Accept` headers admit `media` (`type/subtype`): listed as itself, as
/// `type/*` or as `*/*`, with a quality above zero.
pub fn accepts(headers: &HeaderMap, media: &str) -> bool {
    let kind = media.split('/').next().unwrap_or_default();
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let (range, mut params) = media_type(item);
            let refused = params.any(|(k, v)| k == "q" && v.parse::<f32>().is_ok_and(|q| q <= 0.0));
            !refused
                && (range == media
                    || range == "*/*"
                    || range.strip_suffix("/*").is_some_and(|t| t == kind))
        })
}

/// The host of a `Host` header's value, lowercased: an authority with no user information and
/// a numeric port if any. `None` if the value is not one (`[::1].evil.example` is not).
pub fn host_of_authority(value: &str) -> Option<String> {
    let authority: Authority = value.trim().parse().ok()?;
    if authority.as_str().contains('@') {
        return None;
    }
    let host = authority.host().to_ascii_lowercase();
    let bracketed = host.starts_with('[');
    // An IPv6 literal is all of the host, and nothing but one has brackets.
    if bracketed != host.ends_with(']') || (!bracketed && host.contains([']', '['])) {
        return None;
    }
    let rest = &authority.as_str()[authority.host().len()..];
    match rest.strip_prefix(':') {
        None if rest.is_empty() => Some(host),
        Some(port) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => Some(host),
        _ => None,
    }
}

/// The host of an `Origin` header's value (`scheme://authority`, no path), lowercased.
/// `None` for `null` or anything else that is not an http(s) origin.
pub fn host_of_origin(value: &str) -> Option<String> {
    let uri: Uri = value.trim().parse().ok()?;
    let scheme = uri.scheme_str()?;
    let path_is_empty = matches!(uri.path(), "" | "/") && uri.query().is_none();
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
        || !path_is_empty
    {
        return None;
    }
    host_of_authority(uri.authority()?.as_str())
}

/// Who is asking when the endpoint validates no token (no [`Config::auth`](crate::Config::auth)):
/// the keyed hash of the `Authorization` header under `key`
/// ([`PrincipalKey::principal_of`]), never the header as it came, else
/// [`ANONYMOUS`](crate::principal::ANONYMOUS); requestState sealing, legacy sessions and tasks
/// are bound to it. With `Config::auth` the principal is the validated token's subject instead
/// ([`crate::auth::Grant::principal`]).
pub fn principal(headers: &HeaderMap, key: &PrincipalKey) -> String {
    key.principal_of(header_str(headers, header::AUTHORIZATION.as_str()))
}

/// A header's value as text, trimmed; none when it is absent or not visible ASCII.
pub fn header_str<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::headers;

    #[test]
    fn hosts_are_parsed_as_authorities() {
        assert_eq!(
            host_of_authority("127.0.0.1:8080").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(host_of_authority("LOCALHOST").as_deref(), Some("localhost"));
        assert_eq!(host_of_authority("[::1]:80").as_deref(), Some("[::1]"));
        assert_eq!(host_of_authority("[::1]").as_deref(), Some("[::1]"));
        assert_eq!(
            host_of_authority("evil.example.com").as_deref(),
            Some("evil.example.com")
        );
        for bad in [
            "[::1].evil.example",
            "[::1]evil",
            "localhost@evil.example",
            "localhost:80x",
            "localhost:",
            "local host",
            "",
        ] {
            assert_eq!(host_of_authority(bad), None, "{bad}");
        }
    }

    #[test]
    fn origins_are_scheme_and_authority() {
        assert_eq!(
            host_of_origin("http://localhost:3000").as_deref(),
            Some("localhost")
        );
        assert_eq!(host_of_origin("https://[::1]").as_deref(), Some("[::1]"));
        for bad in [
            "null",
            "http://[::1].evil.example",
            "file://localhost",
            "http://localhost/path",
            "localhost",
        ] {
            assert_eq!(host_of_origin(bad), None, "{bad}");
        }
    }

    #[test]
    fn content_type_is_json_and_nothing_like_it() {
        let ct = |v| is_json(&headers(&[("content-type", v)]));
        assert!(ct("application/json"));
        assert!(ct("Application/JSON ; charset=UTF-8"));
        assert!(!ct("application/jsonx"));
        assert!(!ct("application/json-seq"));
        assert!(!ct("text/json"));
        assert!(!ct("application/json; charset=latin1"));
        assert!(!is_json(&HeaderMap::new()));
    }

    #[test]
    fn accept_lists_media_ranges() {
        let both = |v| {
            let h = headers(&[("accept", v)]);
            accepts(&h, "application/json") && accepts(&h, "text/event-stream")
        };
        assert!(both("application/json, text/event-stream"));
        assert!(both("*/*"));
        assert!(both("application/*, text/*;q=0.5"));
        assert!(!both("application/json"));
        assert!(!both("application/jsonx, text/event-stream"));
        assert!(!both("application/json, text/event-stream;q=0"));
        let split = headers(&[
            ("accept", "application/json"),
            ("accept", "text/event-stream"),
        ]);
        assert!(accepts(&split, "text/event-stream"));
    }

    #[test]
    fn no_header_and_an_anonymous_header_are_different_principals() {
        let key = PrincipalKey::random().unwrap();
        let none = principal(&HeaderMap::new(), &key);
        let named = principal(&headers(&[("authorization", "anonymous")]), &key);
        assert_eq!(none, crate::principal::ANONYMOUS);
        assert_ne!(named, none);
        let bearer = principal(&headers(&[("authorization", " Bearer s3cr3t ")]), &key);
        assert_eq!(bearer, key.principal_of(Some("Bearer s3cr3t")));
        assert!(!bearer.contains("s3cr3t"));
    }

    #[test]
    fn routing_headers_given_twice_are_found() {
        assert_eq!(repeated(&headers(&[("mcp-name", "a")])), None);
        let twice = headers(&[("mcp-name", "test_simple_text"), ("mcp-name", "evil_tool")]);
        assert_eq!(repeated(&twice), Some("mcp-name"));
        let param = headers(&[("mcp-param-zone", "a"), ("mcp-param-zone", "b")]);
        assert_eq!(repeated(&param), Some("mcp-param-zone"));
        let hosts = headers(&[("host", "localhost"), ("host", "evil.example")]);
        assert_eq!(repeated(&hosts), Some("host"));
        // Accept may be split over several lines.
        assert_eq!(
            repeated(&headers(&[("accept", "a/b"), ("accept", "c/d")])),
            None
        );
    }
}
