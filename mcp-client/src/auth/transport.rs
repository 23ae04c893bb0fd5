//! Which URLs the flow talks to at all: `https`, or plain `http` on a loopback host
//! (127.0.0.0/8, `::1`, `localhost`) for development and tests. The authorization server's
//! issuer, its metadata and its endpoints, and the protected resource metadata are all held to
//! it (the specification requires HTTPS of every authorization server endpoint); anything else
//! is refused with [`AuthError::InsecureUrl`] before a request is sent.

use url::{Host, Url};

use super::AuthError;

/// `url` parsed, when it is `https`, or `http` on a loopback host; `what` names it in the
/// error (`"token_endpoint"`, `"issuer"`...).
pub fn require_secure(what: &str, url: &str) -> Result<Url, AuthError> {
    let insecure = || AuthError::InsecureUrl {
        what: what.to_owned(),
        url: url.to_owned(),
    };
    let parsed = Url::parse(url).map_err(|_| insecure())?;
    match parsed.scheme() {
        "https" if parsed.host().is_some() => Ok(parsed),
        "http" if is_loopback(&parsed) => Ok(parsed),
        _ => Err(insecure()),
    }
}

/// Whether `url`'s host is a loopback one: an address of 127.0.0.0/8, `::1`, or `localhost`.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_and_loopback_http_are_accepted() {
        for ok in [
            "https://auth.example.com/token",
            "https://127.0.0.1/x",
            "http://127.0.0.1:8080/token",
            "http://127.3.4.5/token",
            "http://[::1]:9000/token",
            "http://localhost:3000/token",
            "http://LOCALHOST/token",
        ] {
            assert!(require_secure("token_endpoint", ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn plain_http_elsewhere_and_other_schemes_are_refused() {
        for bad in [
            "http://auth.example.com/token",
            "http://localhost.evil.example/token",
            "http://128.0.0.1/token",
            "http://10.0.0.1/token",
            "http://[::2]/token",
            "ftp://localhost/token",
            "file:///etc/passwd",
            "not a url",
        ] {
            assert_eq!(
                require_secure("token_endpoint", bad),
                Err(AuthError::InsecureUrl {
                    what: "token_endpoint".to_owned(),
                    url: bad.to_owned()
                }),
                "{bad}"
            );
        }
    }
}
