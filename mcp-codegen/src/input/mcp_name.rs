//! The member of a request's params that its `Mcp-Name` header mirrors, as an overlay or an
//! extension's file states it (`mcp_name`).

use serde::Deserialize;

/// The member of a request's `params` that its `Mcp-Name` header mirrors (Streamable HTTP).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpName {
    /// The member's JSON key (a required string of the request's required `params`).
    pub member: String,
    /// The reason for this entry, in the project's own words.
    pub why: String,
    /// The specification passage (page and section) that says so.
    pub source: String,
}
