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
//! Protocol extensions that add definitions and `resultType` values are enabled by identifier
//! with [`Builder::extension`] (`--extension` on the command line): the tasks extension,
//! `io.modelcontextprotocol/tasks` (SEP-2663), generates `Task`, `TaskStatus`,
//! `CreateTaskResult`, the `tasks/*` requests and results, `TaskStatusNotification`, a
//! `TasksExtension` marker, and a `Task` variant of `CallToolOutcome` that is read only where the
//! client advertised the extension and built only with the proof of it (see
//! `mcp_runtime::extension`). Without an extension the output is the revision's alone.
//!
//! The [`Builder`] runs the passes in order, each a private module with one job (the list
//! reads in `Builder::lower_source`): `load` (read and parse the schema; `overlay` picks the
//! revision's rules), `patch` (the overlay's corrections), `extension` (the enabled
//! extensions' definitions and patches merged in), `protocol` (the protocol model: requests,
//! results, outcomes, and every overlay fact later passes read), `naming` and `lower` (a Rust
//! name per definition, then the IR's types; `results` for result structs and outcomes),
//! `same_shapes` (inline types of one structure at members of one name generated once),
//! `cycles` (a `Box` where a type contains itself), `roles` and `extension_roles` (what each
//! type is to the protocol), `sizes` (a `Box` on the large members and variants clippy would
//! have a user box, by `layout`'s size estimates), `overview` (the module's docs), and `emit` (IR to tokens); with
//! two schemas, `eras` joins the two IRs before emitting. Names are typed in `names`, keywords
//! classified in `keywords`, JSON pointers built and read in `pointer`, and what a run
//! produces is in `output`.

mod builder;
mod emit;
mod error;
mod input;
mod join;
mod model;
mod output;
mod passes;
mod rules;

pub use builder::Builder;
pub use error::{Error, SchemaError, SchemaResult};
pub use output::{ConversionKind, ConvertedType, Eras, Generated};

/// What this crate's own integration tests (and the workspace's property tests) reach inside
/// the generator: not a stable API.
#[doc(hidden)]
pub mod __internals {
    pub use crate::input::load::MAX_NESTING;
    pub use crate::input::overlay::Overlay;
    pub use crate::model::names::SchemaName;
    pub use crate::output::file::holds_exactly;
    pub use crate::rules::protocol::{Protocol, ResultKind};
}

/// The README's examples, compiled as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
