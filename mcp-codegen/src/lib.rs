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
//! # The passes
//!
//! For each schema, `Builder::lower_source` runs these passes in this order, each a private
//! module with one job; a pass whose result a later one needs returns it as a value that the
//! later pass takes as an argument (`tests/pass_list.rs` checks that this list and that
//! function agree):
//!
//! 1. **load** (`Source::load`, `input/load.rs`): the schema's bytes, read within bounds and
//!    parsed; the revision's overlay is picked by content or folder name (`input/overlay.rs`).
//! 2. **patch** (`Overlay::apply`, `input/patch.rs`): the overlay's corrections of the schema.
//! 3. **extensions** (`Builder::enable_extensions`, `input/extensions.rs`): the enabled
//!    extensions' definitions and patches merged in.
//! 4. **protocol** (`Protocol::read`, `rules/protocol.rs`): the protocol model (requests,
//!    results, outcomes, and every overlay fact the later passes read).
//! 5. **names** (`DefNames::assign`, `passes/def_names.rs`): a Rust name per definition and
//!    outcome enum.
//! 6. **lower** (`Lowerer::lower`, `passes/lower/`): the IR's `Types`; `rules/results.rs`
//!    for result structs and outcomes, `input/keywords.rs` for the keywords understood.
//! 7. **same_shapes** (`same_shapes::merge`, `passes/same_shapes.rs`): inline types of one
//!    structure at members of one name generated once.
//! 8. **cycles** (`cycles::break_cycles`, `passes/cycles.rs`): a `Box` where a type would
//!    contain itself; returns `Acyclic`, the proof of it.
//! 9. **roles** (`roles::assign`, `rules/roles.rs`): what each type is to the protocol, returned
//!    as `Roles`.
//! 10. **markers** (`markers::assign`, `rules/markers.rs`): a marker type per enabled
//!     extension, returned as `Markers`.
//! 11. **sizes** (`sizes::bound`, `passes/sizes.rs`, takes `Roles` and `Acyclic`): a `Box` on
//!     the large members and variants clippy would have a user box, by `passes/layout.rs`'s
//!     estimates.
//! 12. **precompile** (`precompile::select`, `passes/precompile.rs`, takes `Roles`): with
//!     [`Builder::precompile`], the messages whose reader the module compiles.
//! 13. **overview** (`overview::text`, `rules/overview.rs`, takes `Roles` and `Markers`): the
//!     module's docs.
//! 14. **service** (`service::select`, `rules/service.rs`, takes `Roles`): with
//!     [`Builder::server`], the requests a server answers, a method each of the service trait.
//! 15. **client** (`client::select`, `rules/client.rs`, takes `Roles`): with
//!     [`Builder::client`], the requests a client sends, a method each of the client trait.
//!
//! Their values make the IR's `Module`, which `emit/` turns into tokens and `output/` into the
//! file; with two schemas, `join/` joins the two revisions' IRs before emitting
//! (`join/side_by_side.rs`). The folders are the stages: `input/` (what is read), `model/`
//! (the IR, typed names, JSON pointers, doc text), `rules/` (the protocol knowledge), `passes/`
//! (the structural passes), `join/`, `emit/` and `output/`.

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
