//! The user-agent step: the authorization URL is visited (a browser, for a person) and the
//! authorization server redirects back to the client's redirect URI with the code. The flow
//! only needs the URL it was redirected to; [`UserAgent`] is how it gets it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::AuthError;

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

/// A user agent for desktop hosts: the authorization URL is handed to `open` (which starts
/// the user's browser), and the browser's return to the redirect URI
/// (`http://127.0.0.1:<port>/callback`) is read by a listener on the loopback interface, for
/// at most the wait given (5 minutes by default).
pub struct Loopback {
    listener: tokio::sync::Mutex<tokio::net::TcpListener>,
    redirect_uri: String,
    open: Arc<dyn Fn(&str) + Send + Sync>,
    wait: std::time::Duration,
}

impl Loopback {
    /// Listens on `127.0.0.1:port` (0: a free port) and opens each authorization URL with
    /// `open`. Must be called within a Tokio runtime.
    pub fn bind(port: u16, open: impl Fn(&str) + Send + Sync + 'static) -> std::io::Result<Self> {
        let std_listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
        std_listener.set_nonblocking(true)?;
        let port = std_listener.local_addr()?.port();
        Ok(Loopback {
            listener: tokio::sync::Mutex::new(tokio::net::TcpListener::from_std(std_listener)?),
            redirect_uri: format!("http://127.0.0.1:{port}/callback"),
            open: Arc::new(open),
            wait: std::time::Duration::from_secs(300),
        })
    }

    /// How long a visit waits for the browser to come back.
    #[must_use]
    pub fn with_wait(mut self, wait: std::time::Duration) -> Self {
        self.wait = wait;
        self
    }

    /// The request target of the first request to the callback path, answered with a page
    /// that tells the user to go back to the application.
    async fn callback(&self) -> Result<String, AuthError> {
        use tokio::io::AsyncWriteExt;
        let listener = self.listener.lock().await;
        loop {
            let (mut conn, _) = listener
                .accept()
                .await
                .map_err(|e| AuthError::Http(format!("the redirect listener: {e}")))?;
            let head = request_line(&mut conn).await;
            let text = String::from_utf8_lossy(&head);
            let target = text
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("GET "))
                .and_then(|rest| rest.split(' ').next())
                .filter(|t| t.starts_with("/callback"));
            let (status, body) = match target {
                Some(_) => ("200 OK", "Authorization done: you may close this window."),
                None => ("404 Not Found", "Not the authorization callback."),
            };
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            // The page is a courtesy: the code is read whether or not it reaches the browser.
            let _ = conn.write_all(answer.as_bytes()).await;
            if let Some(target) = target {
                let origin = self.redirect_uri.trim_end_matches("/callback");
                return Ok(format!("{origin}{target}"));
            }
        }
    }
}

/// The first line of a request on `conn` (at most 8 KiB of it; less when the connection ends
/// or stalls first).
async fn request_line(conn: &mut tokio::net::TcpStream) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while head.len() < 8192 && !head.windows(2).any(|w| w == b"\r\n") {
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), conn.read(&mut chunk));
        match read.await {
            Ok(Ok(n)) if n > 0 => head.extend_from_slice(&chunk[..n]),
            _ => break,
        }
    }
    head
}

impl UserAgent for Loopback {
    fn redirect_uri(&self) -> &str {
        &self.redirect_uri
    }

    fn visit<'a>(&'a self, _http: &'a reqwest::Client, authorization_url: &'a str) -> Visit<'a> {
        Box::pin(async move {
            (self.open)(authorization_url);
            tokio::time::timeout(self.wait, self.callback())
                .await
                .map_err(|_| {
                    AuthError::Denied("the browser did not come back in time".to_owned())
                })?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_loopback_agent_reads_the_browser_return() {
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        let agent = Loopback::bind(0, move |url| {
            let _ = tx.send(url.to_owned());
        })
        .unwrap();
        let redirect = agent.redirect_uri().to_owned();
        let http = reqwest::Client::new();
        let browser = {
            let http = http.clone();
            let redirect = redirect.clone();
            tokio::spawn(async move {
                // The browser: a wrong path first, then the return with the code.
                let origin = redirect.trim_end_matches("/callback");
                let _ = http.get(format!("{origin}/favicon.ico")).send().await;
                http.get(format!("{redirect}?code=c1&state=s1"))
                    .send()
                    .await
                    .unwrap()
                    .status()
            })
        };
        let came = agent.visit(&http, "http://as/authorize?x=1").await.unwrap();
        assert_eq!(came, format!("{redirect}?code=c1&state=s1"));
        assert_eq!(rx.recv().unwrap(), "http://as/authorize?x=1");
        assert_eq!(browser.await.unwrap(), 200);
    }
}
