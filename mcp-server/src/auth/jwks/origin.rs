//! Which JWKS URLs are fetched: https, or plain http to a loopback host only (127.0.0.0/8,
//! `[::1]`, `localhost`), since keys read over plain http from elsewhere could be anyone's.

use std::net::IpAddr;

use reqwest::Url;

/// Why a JWKS URL is not fetched, if it is not: `None` for an https URL or an http one to
/// loopback.
pub(super) fn refused(url: &Url) -> Option<&'static str> {
    match url.scheme() {
        "https" => None,
        "http" if is_loopback(url) => None,
        "http" => Some("a JWKS is fetched over https (plain http to loopback only)"),
        _ => Some("not an http(s) URL"),
    }
}

/// Whether `url` names a loopback host (the parser has written its host in a canonical form:
/// an IPv4 address in dotted decimal, an IPv6 one in brackets, a name in lower case).
fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let address = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    match address.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host == "localhost",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(url: &str) -> Option<&'static str> {
        refused(&Url::parse(url).unwrap())
    }

    #[test]
    fn plain_http_is_refused_but_to_loopback() {
        for allowed in [
            "https://auth.example.com/jwks",
            "http://127.0.0.1:8080/jwks",
            "http://127.9.8.7/jwks",
            "http://[::1]:9000/jwks",
            "http://LocalHost/jwks",
        ] {
            assert_eq!(check(allowed), None, "{allowed}");
        }
        for refused in [
            "http://auth.example.com/jwks",
            "http://10.0.0.1/jwks",
            "http://[::2]/jwks",
            "http://localhost.evil.example/jwks",
            "http://127.0.0.1.evil.example/jwks",
            "http://127.0.0.1@auth.example.com/jwks",
            "ftp://127.0.0.1/jwks",
            "file:///etc/jwks.json",
        ] {
            assert!(check(refused).is_some(), "{refused}");
        }
    }
}
