//! The user-agent step: the authorization URL is visited (a browser, for a person) and the
//! authorization server redirects back to the client's redirect URI with the code. The flow
//! only needs the URL it was redirected to; [`UserAgent`] is how it gets it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::AuthError;

mod loopback;

pub use loopback::Loopback;

/// What a user agent's visit yields: the URL the authorization server redirected to (the
/// redirect URI with `code`, `state` and `iss`, or `error`).
pub type Visit<'a> = Pin<Box<dyn Future<Output = Result<String, AuthError>> + Send + 'a>>;

/// The user-agent step of the flow.
pub trait UserAgent: Send + Sync {
    /// The redirect URI the client registers and sends.
    fn redirect_uri(&self) -> &str;

    /// Visits `authorization_url` and returns the URL the authorization server redirected to.
    fn visit<'a>(&'a self, http: &'a reqwest::Client, authorization_url: &'a str) -> Visit<'a>;
}

/// A user agent without a user: it GETs the authorization URL and reads the redirect from the
/// answer's `Location` (for tests, CLIs with an authorization server that approves at once,
/// and the conformance suite). The redirect URI is never contacted.
#[derive(Debug, Clone)]
pub struct Headless {
    redirect_uri: String,
}

impl Headless {
    /// A headless agent that registers `redirect_uri`.
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        Headless {
            redirect_uri: redirect_uri.into(),
        }
    }
}

impl UserAgent for Headless {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn visit<'a>(&'a self, http: &'a reqwest::Client, authorization_url: &'a str) -> Visit<'a> {
        Box::pin(async move {
            let resp = http
                .get(authorization_url)
                .send()
                .await
                .map_err(|e| AuthError::Http(format!("the authorization endpoint: {e}")))?;
            if !resp.status().is_redirection() {
                return Err(AuthError::Denied(format!(
                    "the authorization endpoint answered {} instead of a redirect",
                    resp.status()
                )));
            }
            let location = resp
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| AuthError::Denied("a redirect without a Location".to_owned()))?;
            resp.url()
                .join(location)
                .map(String::from)
                .map_err(|e| AuthError::Denied(format!("the redirect {location:?}: {e}")))
        })
    }
}

/// A user agent made of a function: it is given the authorization URL (to open in a browser)
/// and returns the URL the browser was sent back to (read by the host's redirect handler,
/// a loopback listener or a custom scheme).
pub struct FromFn {
    redirect_uri: String,
    visit: Arc<dyn Fn(String) -> Visit<'static> + Send + Sync>,
}

impl FromFn {
    /// An agent that registers `redirect_uri` and runs `visit` with each authorization URL.
    pub fn new<F, Fut>(redirect_uri: impl Into<String>, visit: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, AuthError>> + Send + 'static,
    {
        FromFn {
            redirect_uri: redirect_uri.into(),
            visit: Arc::new(move |url| Box::pin(visit(url))),
        }
    }
}

impl UserAgent for FromFn {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn visit<'a>(&'a self, _http: &'a reqwest::Client, authorization_url: &'a str) -> Visit<'a> {
        (self.visit)(authorization_url.to_owned())
    }
}
