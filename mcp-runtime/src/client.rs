//! What a generated client trait calls (`mcp_codegen::Builder::client`): the trait `Client`
//! of a generated module has one method per request a client sends, each of which hands the
//! request's params to [`Calls::call`] of whatever sends them (`mcp_client::Client`, or a
//! test double), and returns what the call ends with ([`Call::Done`]: the complete result,
//! once every input round is answered and any task followed).
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//! use mcp::Client as _; // the generated methods
//! use mcp_runtime::client::{Caller, Calls};
//! # use std::future::Future;
//!
//! /// A caller that answers every `tools/list` with no tools, and refuses the rest.
//! struct Empty;
//!
//! impl Caller for Empty {
//!     type Error = String;
//! }
//!
//! impl Calls<ListToolsRequest> for Empty {
//!     async fn call(&mut self, _: PaginatedRequestParams) -> Result<ListToolsResult, String> {
//!         Ok(ListToolsResult::new(CacheScope::Public, vec![], 0_u64))
//!     }
//! }
//!
//! # let run = async {
//! let meta = RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28");
//! let listed = Empty.list_tools(PaginatedRequestParams::new(meta)).await?;
//! assert!(listed.tools.is_empty());
//! # Ok::<(), String>(())
//! # };
//! # let waker = std::task::Waker::noop();
//! # let polled = std::pin::pin!(run).as_mut().poll(&mut std::task::Context::from_waker(waker));
//! # assert_eq!(polled, std::task::Poll::Ready(Ok(())));
//! ```

use std::future::Future;

use crate::Request;

/// A request as a client calls it: what the call ends with. The generator implements it for
/// every request of its client trait: the request's result, or where the request may answer
/// `input_required` (or with an extension's result, such as a task), its complete result.
pub trait Call: Request {
    /// The complete result the call ends with, read from the server's answer.
    type Done: serde::de::DeserializeOwned;
}

/// Whatever sends the requests of a generated client trait: the error every call may end
/// with. The trait's methods are implemented for every `Caller`; each is callable where the
/// caller [`Calls`] its request.
pub trait Caller {
    /// Why a call failed (the transport's error, or the JSON-RPC error the server answered).
    type Error;
}

/// A caller that sends requests of type `R`.
pub trait Calls<R: Call>: Caller {
    /// Sends `R` with `params` until it ends: its complete result, or why not.
    fn call(&mut self, params: R::Params) -> impl Future<Output = Result<R::Done, Self::Error>>;
}
