//! Generate idiomatic, lossless Rust types from the Model Context Protocol JSON schema.
//!
//! The generator reads the official `schema.json` of an MCP revision, applies this project's
//! overlay for that revision (the rules schema.json cannot express), and writes one Rust file
//! whose types (de)serialize through the derives of `mcp-runtime`. Call it from `build.rs`:
//!
//! ```no_run
//! // build.rs
//! let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
//! mcp_codegen::Builder::new()
//!     .schema("path/to/schema.json")
//!     .generate(out.join("mcp.rs"))
//!     .unwrap();
//! ```
//!
//! and include the output in a module: `pub mod mcp { include!(concat!(env!("OUT_DIR"), "/mcp.rs")); }`.
//!
//! The stages, each a module with one job: [`load`] (read and parse), [`overlay`] (the
//! project's per-revision rules and patches), [`rules`] (the protocol model: requests,
//! results, outcomes), [`lower`] (schema to [`ir`]), [`emit`] (IR to tokens), and the
//! [`Builder`] that runs them and writes the file.

mod builder;
mod cycles;
pub mod docs;
pub mod emit;
mod emit_mrtr;
mod error;
pub mod ir;
mod keywords;
pub mod load;
pub mod lower;
pub mod names;
pub mod overlay;
pub mod rules;
mod union_dispatch;

pub use builder::{Builder, Generated};
pub use error::{Error, SchemaError, SchemaResult};

/// The README's examples, compiled as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
