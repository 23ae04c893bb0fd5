//! A Model Context Protocol server transport for the types `mcp-codegen` generates: Streamable
//! HTTP with the checks and bounds both eras need (2026-07-28 stateless requests, and
//! 2025-11-25 legacy sessions on the same endpoint), and stdio (newline-delimited JSON-RPC).
//!
//! The crate holds no schema: it is generic over [`Schema`], a binding trait that the user's
//! generated module satisfies through [`bind!`] (as tonic is generic over tonic-build's
//! output). What it offers today:
//!
//! - [`Config`]: every bound and switch of the server in one struct, with safe defaults and
//!   a builder;
//! - [`serve`]: the hardened accept loop (header-read timeout, connection cap, graceful
//!   shutdown with a deadline) for any axum `Router`;
//! - [`checks`]: the checks of a POST before its body is read as a message (each routing
//!   header once, `Host`/`Origin` against DNS rebinding, `Content-Type`, `Accept`, the body
//!   limit and timeout), each answered with its JSON-RPC error and HTTP status;
//! - [`Refused`]: a request refused with a JSON-RPC error (`RpcError`) and its HTTP status;
//! - [`Service`]: the handlers of a server, one method for every checked request, with hooks
//!   for a `subscriptions/listen` stream and an extension's methods; a handler gets its
//!   request's [`Ctx`] and sends progress and log messages through its [`Notifier`];
//! - [`tools`]: a router of tools, each a plain function whose arguments are a struct
//!   deriving `schemars::JsonSchema`; [`prompts`] and [`resources`] the same for prompts
//!   (arguments a struct of strings) and resources (by URI, or by a URI template whose
//!   variables [`uri_template`] matches);
//! - [`served`]: a server written as the generated service trait (`Builder::server`), served
//!   over both transports and eras with [`bind_server!`];
//! - [`http`]: the Streamable HTTP endpoint of a [`Service`] ([`http::endpoint`]), an axum
//!   service to mount under any path, with a hook for legacy sessions ([`http::Legacy`]);
//!   [`http::serve`] serves it at `/mcp` on a listener in one call;
//! - [`modern`]: the checks of a modern message and its dispatch to a [`Service`], shared by
//!   the transports (the checks that read headers asked of [`modern::Headers`]);
//! - [`auth`]: the endpoint as an OAuth 2.1 protected resource ([`Config::auth`]): bearer
//!   tokens checked by a [`auth::TokenValidator`] (JWTs of a JWKS: [`auth::JwtValidator`]),
//!   401 and 403 challenges, scopes per tool, the protected resource metadata, and the
//!   principal of sessions, sealed states and tasks taken from the token's subject;
//! - [`options`]: the command-line options of a server binary (transport, hosts, every
//!   bound, sealing), with a usage text written from the defaults;
//! - [`principal`]: without [`Config::auth`], the principal of a request: a keyed hash
//!   (HMAC-SHA-256, [`Config::principal_key`]) of its `Authorization` header, never the
//!   header itself, or `anonymous` without one;
//! - [`probe`]: the envelope of a message read from its bytes without building it;
//! - [`legacy`]: the legacy (2025-11-25) sessions of any [`legacy::LegacyService`] (a
//!   [`Service`] with its session table, for a [`LegacySchema`]): ids, principal binding, idle
//!   expiry and bounds, `initialize`, a session's messages converted and bridged to the modern
//!   handlers, served as the HTTP endpoint's hook ([`legacy::HttpSessions`]) and on stdio
//!   ([`legacy::StdioSession`]);
//! - [`changes`]: what changed on a server (lists, resources), told to the streams that
//!   follow it, modern listen streams and legacy sessions alike;
//! - [`listen`]: a `subscriptions/listen` stream served from [`changes`], bounded;
//! - [`result_meta`]: the server's identity added to a written result's `_meta`;
//! - [`streams`]: the resumable SSE streams of a legacy session, bounded;
//! - [`answer`]: a handler's notifications and response, as JSON or an SSE stream;
//! - [`bridge`]: a modern handler that answers `input_required`, served to a legacy session
//!   (its input requests asked of the client as server-to-client requests);
//! - `skills` (feature `skills`): a catalog of skills (the `io.modelcontextprotocol/skills`
//!   extension) read from a directory tree: entries with digests, files, directory listings;
//! - [`tasks`]: the tasks extension's task store (a trait, and a bounded in-memory default)
//!   and the work behind each task;
//! - [`stdio`]: the stdio transport, newline-delimited JSON-RPC over any byte stream, for
//!   any [`stdio::Handler`];
//! - [`sse`]: server-sent event responses; [`work`]: a handler cancelled when its client goes
//!   away; [`status_of`] / [`status_for`]: the HTTP status of a handler's `RpcError`.
//!
//! ```
//! use std::time::Duration;
//!
//! let config = mcp_server::Config::default()
//!     .allow_host("mcp.example")
//!     .max_body(1 << 20)
//!     .body_read(Duration::from_secs(5));
//! assert!(config.allowed_hosts.iter().any(|h| h == "localhost"));
//! assert!(config.allowed_hosts.iter().any(|h| h == "mcp.example"));
//! assert_eq!(config.max_body, 1 << 20);
//! ```

#![warn(missing_docs)]

pub mod accept;
pub mod answer;
pub mod auth;
pub mod bridge;
pub mod changes;
pub mod checks;
mod config;
pub mod ctx;
pub mod headers;
pub mod http;
pub mod legacy;
pub mod listen;
pub mod modern;
pub mod options;
pub mod principal;
pub mod probe;
pub mod prompts;
#[cfg(feature = "redis")]
pub mod redis;
mod refused;
pub mod resources;
pub mod result_meta;
pub mod routers;
mod schema;
pub mod served;
mod service;
pub mod shares;
#[cfg(feature = "skills")]
pub mod skills;
pub mod sse;
mod status;
pub mod stdio;
pub mod streams;
pub mod tasks;
#[cfg(test)]
mod test_support;
pub mod tools;
pub mod uri_template;
pub mod work;

pub use accept::serve;
pub use config::Config;
pub use ctx::{Ctx, Notifier};
pub use refused::Refused;
pub use routers::WithState;
pub use schema::{
    LegacyInitialize, LegacyInput, LegacyOnly, LegacySchema, Method, Named, Schema, ToolCall,
};
pub use served::Served;
pub use service::Service;
pub use status::{BOUND_REACHED, bound_reached, status_for, status_of};
