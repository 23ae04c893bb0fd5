//! The HTTP the flow does itself (metadata, registration, the token endpoint), on a client of
//! its own that follows no redirect: a metadata document or a token comes from the URL asked,
//! never from where a redirect points, and the authorization endpoint's redirect is read, not
//! followed.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::de::DeserializeOwned;

use super::AuthError;

/// The largest document the flow reads (metadata, a registration, a token response).
const MAX_DOCUMENT: usize = 256 * 1024;

/// The flow's HTTP client.
#[derive(Clone)]
pub struct AuthHttp {
    client: reqwest::Client,
}

impl AuthHttp {
    /// A client that follows no redirect and gives up after `timeout` without an answer.
    pub fn new(timeout: Duration) -> Result<Self, AuthError> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(timeout)
            .read_timeout(timeout)
            .build()
            .map_err(|e| AuthError::Http(e.to_string()))?;
        Ok(AuthHttp { client })
    }

    /// The client, for a request of the flow's own (the user agent's GET).
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }

    /// The JSON document at `url`; `None` when the answer is not a success (a location that
    /// has none), an error when it is one that does not read as `T`.
    pub async fn get_json<T: DeserializeOwned>(&self, url: &str) -> Result<Option<T>, AuthError> {
        let resp = self
            .client
            .get(url)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| AuthError::Http(format!("GET {url}: {e}")))?;
        if !resp.status().is_success() {
            return Ok(None);
        }
        let body = read_limited(resp).await?;
        serde_json::from_str(&body)
            .map(Some)
            .map_err(|e| AuthError::Metadata(format!("{url}: {e}")))
    }

    /// POSTs `body` as JSON to `url` and reads the answer as `T` (a success status required).
    pub async fn post_json<T: DeserializeOwned>(
        &self,
        url: &str,
        body: &serde_json::Value,
    ) -> Result<T, AuthError> {
        let resp = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| AuthError::Http(format!("POST {url}: {e}")))?;
        let status = resp.status();
        let text = read_limited(resp).await?;
        if !status.is_success() {
            return Err(AuthError::Registration(format!(
                "{url} answered {status}: {}",
                text.chars().take(200).collect::<String>()
            )));
        }
        serde_json::from_str(&text).map_err(|e| AuthError::Registration(format!("{url}: {e}")))
    }

    /// Sends an `oauth2` request (the token endpoint's) and returns its answer.
    pub async fn exchange(
        &self,
        request: oauth2::HttpRequest,
    ) -> Result<oauth2::HttpResponse, ExchangeFailed> {
        let request = reqwest::Request::try_from(request).map_err(ExchangeFailed::of)?;
        let resp = self
            .client
            .execute(request)
            .await
            .map_err(ExchangeFailed::of)?;
        let mut answer = http::Response::builder().status(resp.status());
        for (name, value) in resp.headers() {
            answer = answer.header(name, value);
        }
        let body = read_limited(resp)
            .await
            .map_err(|e| ExchangeFailed(e.to_string()))?;
        answer.body(body.into_bytes()).map_err(ExchangeFailed::of)
    }
}

impl<'c> oauth2::AsyncHttpClient<'c> for AuthHttp {
    type Error = ExchangeFailed;
    type Future =
        Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, ExchangeFailed>> + Send + 'c>>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(self.exchange(request))
    }
}

/// A response's body, up to [`MAX_DOCUMENT`] bytes (more is an error): the client's own
/// bounded reader.
async fn read_limited(resp: reqwest::Response) -> Result<String, AuthError> {
    crate::body::read_all(resp, MAX_DOCUMENT)
        .await
        .map_err(|e| AuthError::Http(e.to_string()))
}

/// Why an exchange with the token endpoint failed before it answered.
#[derive(Debug)]
pub struct ExchangeFailed(String);

impl ExchangeFailed {
    fn of(e: impl std::fmt::Display) -> Self {
        ExchangeFailed(e.to_string())
    }
}

impl std::fmt::Display for ExchangeFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExchangeFailed {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::redirect::{listen, reached, to};

    #[tokio::test]
    async fn registration_and_token_requests_follow_no_redirect() {
        let (elsewhere, second) = listen(reached).await;
        let (origin, first) = listen(to(&elsewhere)).await;
        let http = AuthHttp::new(Duration::from_secs(5)).unwrap();
        for status in [302, 307, 308] {
            let url = format!("{origin}/{status}");
            let body = serde_json::json!({ "client_name": "secret-registration" });
            let registered = http.post_json::<serde_json::Value>(&url, &body).await;
            let error = registered.expect_err("a redirect is not a registration");
            assert!(error.to_string().contains(&status.to_string()), "{error}");

            let token_request = http::Request::builder()
                .method("POST")
                .uri(&url)
                .header("authorization", "Basic c2VjcmV0LWNsaWVudDpzZWNyZXQ=")
                .body(b"grant_type=authorization_code&code=secret-code".to_vec())
                .unwrap();
            let answer = http.exchange(token_request).await.unwrap();
            assert_eq!(answer.status().as_u16(), status, "read, not followed");
        }
        assert_eq!(first.lock().unwrap().len(), 6);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let second = second.lock().unwrap();
        assert!(second.is_empty(), "the other origin saw {second:?}");
    }
}
