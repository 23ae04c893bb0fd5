//! The protocol rules: what the schema and the overlay say each definition is to MCP, read
//! once into the protocol model ([`protocol`]) and turned into the IR's roles: the result
//! rules lowering applies ([`results`]), the roles of the requests, notifications and multi
//! round-trip types ([`roles`]) with the JSON-RPC error responses ([`jsonrpc_errors`]) and
//! object schemas ([`object_schemas`]) they name, the extensions' marker types
//! ([`markers`]), the generated module's overview ([`overview`]), and with
//! `Builder::server` the service trait's methods ([`service`]), with `Builder::client` the
//! client trait's ([`client`]).

pub mod client;
pub mod jsonrpc_errors;
pub mod markers;
pub mod object_schemas;
pub mod overview;
pub mod protocol;
pub mod results;
pub mod roles;
pub mod service;
