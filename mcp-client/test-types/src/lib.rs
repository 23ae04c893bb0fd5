//! The generated types mcp-client's tests bind with `mcp_client::bind!`: 2025-11-25 under
//! `mcp::v2025_11_25`, 2026-07-28 (with the tasks extension) as `mcp`'s own names.

/// The two revisions' generated types.
#[allow(
    dead_code,
    unused_imports,
    clippy::enum_variant_names,
    missing_docs,
    clippy::all
)]
pub mod mcp {
    include!(concat!(env!("OUT_DIR"), "/mcp.rs"));
}
