//! What the generator reads, before any pass: the schema file ([`load`]), the project's
//! overlay of its revision ([`overlay`]) with its corrections ([`patch`]), the protocol
//! extensions it can add ([`extensions`]), and which JSON Schema keywords it understands
//! ([`keywords`]).

pub mod extensions;
pub mod keywords;
pub mod load;
pub mod mcp_name;
pub mod overlay;
pub mod patch;
