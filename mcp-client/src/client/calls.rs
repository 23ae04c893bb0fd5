//! The client as the caller of a generated client trait (`mcp_codegen::Builder::client`):
//! `client.call_tool(params)`, `client.complete(params)`, one method per request, each
//! [`Client::call`] of its request.

use mcp_runtime::client::{Caller, Calls};

use super::Client;
use crate::binding::{Binding, Outgoing};
use crate::error::ClientError;

impl<B: Binding> Caller for Client<B> {
    type Error = ClientError;
}

impl<B, R> Calls<R> for Client<B>
where
    B: Binding,
    R: Outgoing<B>,
{
    async fn call(&mut self, params: R::Params) -> Result<R::Done, ClientError> {
        Client::call::<R>(self, params).await
    }
}
