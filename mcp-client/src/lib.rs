//! An MCP client over Streamable HTTP or stdio that finds the server's era itself: a 2026-07-28 server
//! is spoken to statelessly (every request a POST carrying its own `_meta`), a 2025-11-25 one
//! in a session opened by `initialize` (with the GET stream on which it may ask the client
//! things). The client is generic over the types `mcp-codegen` generates: the user's module,
//! generated from both schemas side by side, is bound once with [`bind!`], and the crate holds
//! no schema of its own.
//!
//! - [`Client::connect`] probes the era (`server/discover`, its answer read by
//!   `mcp_runtime::era::probe`), and falls back to a legacy session;
//! - [`Client::call`] sends a bound request `R` built from its params and returns its final
//!   answer: the multi round-trip rounds (`input_required`) are answered by the handler given
//!   in [`Config`], which also answers a legacy server's own requests, and a task is followed
//!   until it ends;
//! - [`Client::call_listed_tool`] adds what a tool call needs (the `Mcp-Param-*` headers its schema
//!   asks for, the list read again after a `HeaderMismatch`);
//! - [`stdio`] launches a server process and speaks to it on its stdin and stdout, in either
//!   era; [`Client::open`] makes the client of an [`Endpoint`] (a URL or a command, as a
//!   command line names it);
//! - redirects are followed within the server's origin only (at most [`MAX_REDIRECTS`]): one
//!   to another origin is an error, and the token, the headers of [`Config::with_header`], the
//!   `Mcp-Session-Id` and the body never go there;
//! - [`ClientError`] says what went wrong;
//! - [`elicit`]: a headless host's answer to a form elicitation, each field its default;
//! - [`headless`]: what else a host with no user declares and sends: the capabilities of the
//!   input requests it answers, placeholder arguments for the tools and prompts it calls;
//! - `skills` (feature `skills`): the host side of the Skills extension: skill entries held
//!   and checked, and every file read for a skill verified against its entry before use.
//!
//! ```no_run
//! // The module mcp-codegen generated from the 2025-11-25 and 2026-07-28 schemas (with the
//! // tasks extension), its modern names its own: `include!(concat!(env!("OUT_DIR"), ...))`.
//! use mcp_client_test_types::mcp;
//!
//! mcp_client::bind!(Mcp = mcp);
//!
//! # async fn run() -> Result<(), mcp_client::ClientError> {
//! // What the client can answer (here: forms, declined), who it is, and the handler.
//! let capabilities = mcp::ClientCapabilities::new()
//!     .with_elicitation(mcp::ClientCapabilitiesElicitation::new().with_form(mcp::JSONObject::new()));
//! let info = mcp::Implementation::new("my-host", "1.0.0");
//! let decline = |_: &mcp::InputRequest| mcp::ElicitResult::new(mcp::ElicitResultAction::Decline).into();
//! let config = mcp_client::Config::<Mcp>::new(capabilities, info, decline);
//!
//! let mut client = mcp_client::Client::new("http://127.0.0.1:8080/mcp", config)?;
//! let connected = client.connect().await?; // 2026-07-28, or a 2025-11-25 session
//! println!("{:?} server {:?}", connected.era, connected.server);
//! for tool in client.list_all_tools().await? {
//!     let done = client.call_listed_tool(&tool, serde_json::Map::new()).await?;
//!     println!("{}: {} block(s)", tool.name, done.content.len());
//! }
//! let params = mcp::PaginatedRequestParams::new(client.meta());
//! let prompts = client.call::<mcp::ListPromptsRequest>(params).await?;
//! println!("{} prompt(s)", prompts.prompts.len());
//! client.close().await;
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

/// Writes a line to a [`Log`](crate::config::Log).
macro_rules! note {
    ($log:expr, $($arg:tt)*) => {
        ($log)(format_args!($($arg)*))
    };
}

mod answer;
#[cfg(feature = "auth")]
pub mod auth;
mod bind;
mod binding;
mod body;
mod client;
mod config;
pub mod elicit;
mod endpoint;
mod era_cache;
mod error;
pub mod headers;
pub mod headless;
mod legacy;
mod pipe;
mod send;
#[cfg(feature = "skills")]
pub mod skills;
mod sse;
pub mod stdio;
#[cfg(test)]
mod tests;

pub use binding::{
    Binding, Connected, Created, Initialized, LegacyRequestError, Outcome, Outgoing, TaskState,
    TaskStatus,
};
pub use client::{Client, MAX_REDIRECTS, MODERN_VERSIONS};
pub use config::{Config, DEFAULT_MAX_MESSAGE, Log, Respond};
pub use endpoint::Endpoint;
pub use error::{ClientError, RpcError};
pub use legacy::VERSION as LEGACY_VERSION;
pub use mcp_runtime::era::Era;

/// What [`bind!`]'s expansion names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::legacy::{as_is, no_caching, read, to_json};
    pub use mcp_runtime::Request;
    pub use mcp_runtime::client::Call;
    pub use mcp_runtime::era::EraError;
    pub use mcp_runtime::extension::{ExtensionCapabilities, Reader};
    pub use mcp_runtime::mrtr::Retry;
    pub use mcp_runtime::retry::RetryError;
    pub use serde::de::DeserializeOwned;
    pub use serde_json;
}
