//! An MCP client over Streamable HTTP that finds the server's era itself: a 2026-07-28 server
//! is spoken to statelessly (every request a POST carrying its own `_meta`), a 2025-11-25 one
//! in a session opened by `initialize` (with the GET stream on which it may ask the client
//! things). The client is generic over the types `mcp-codegen` generates: the user's module,
//! generated from both schemas side by side, is bound once with [`bind!`], and the crate holds
//! no schema of its own.
//!
//! - [`Client::connect`] probes the era (`server/discover`, its answer read by
//!   `mcp_runtime::era::probe`), and falls back to a legacy session;
//! - [`Client::call`] sends any bound request and returns its final answer: the multi
//!   round-trip rounds (`input_required`) are answered by the handler given in [`Config`],
//!   which also answers a legacy server's own requests, and a task is followed until it ends;
//! - [`Client::call_tool`] adds what a tool call needs (the `Mcp-Param-*` headers its schema
//!   asks for, the list read again after a `HeaderMismatch`);
//! - [`ClientError`] says what went wrong.
//!
//! ```ignore
//! mod mcp {
//!     include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
//!     pub use v2026_07_28::*;
//! }
//! mcp_client::bind!(Mcp = mcp);
//!
//! let config = mcp_client::Config::<Mcp>::new(capabilities, client_info, answer);
//! let mut client = mcp_client::Client::new("http://127.0.0.1:8080/mcp", config)?;
//! let connected = client.connect().await?;
//! let tools = client.list_tools().await?;
//! ```

#![deny(missing_docs)]

mod bind;
mod binding;
mod client;
mod config;
mod era_cache;
mod error;
pub mod headers;
mod legacy;
mod sse;
pub mod stdio;
#[cfg(test)]
mod tests;

pub use binding::{
    Binding, Connected, Created, Initialized, LegacyRequestError, Outcome, Outgoing, TaskState,
    TaskStatus,
};
pub use client::{Client, MODERN_VERSIONS};
pub use config::{Config, Respond};
pub use error::{ClientError, RpcError};
pub use legacy::VERSION as LEGACY_VERSION;
pub use mcp_runtime::era::Era;

/// What [`bind!`]'s expansion names. Not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::legacy::{as_is, no_caching, read, to_json};
    pub use mcp_runtime::era::EraError;
    pub use mcp_runtime::extension::{ExtensionCapabilities, Reader};
    pub use mcp_runtime::mrtr::Retry;
    pub use mcp_runtime::retry::RetryError;
    pub use serde::de::DeserializeOwned;
    pub use serde_json;
}
