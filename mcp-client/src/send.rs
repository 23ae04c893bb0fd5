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
    request
        .send()
        .await
        .map_err(|e| crate::ClientError::unanswered(&e))
}
