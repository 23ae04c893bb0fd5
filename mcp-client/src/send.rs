//! How the client's HTTP requests go out: through the [`Authorizer`](crate::auth::Authorizer)
//! when the client has one (feature `auth`), as they are otherwise.

/// The client's authorizer, if it has one (nothing without the `auth` feature).
#[cfg(feature = "auth")]
pub(crate) type Auth = Option<std::sync::Arc<crate::auth::Authorizer>>;
/// The client's authorizer, if it has one (nothing without the `auth` feature).
#[cfg(not(feature = "auth"))]
#[derive(Clone, Default)]
pub(crate) struct Auth;

/// Sends `request` to the server at `server`: with `auth`'s token (the flow run on a
/// challenge) when there is an authorizer, as it is otherwise.
pub(crate) async fn send(
    auth: &Auth,
    server: &str,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, crate::ClientError> {
    #[cfg(feature = "auth")]
    if let Some(auth) = auth {
        return auth.send(server, request).await;
    }
    let _ = (auth, server);
    request.send().await.map_err(|e| failed(&e))
}

/// A request that got no answer, with the chain of its causes (reqwest's own message names
/// only the kind of failure and the URL: the cause says why, a redirect to another origin
/// refused, say).
pub(crate) fn failed(e: &reqwest::Error) -> crate::ClientError {
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    crate::ClientError::Http(text)
}
