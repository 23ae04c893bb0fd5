//! The JSON-RPC error codes this runtime, the example server and the example client answer
//! with or recognise, each named once. Everything else names a code through this table.
//!
//! JSON-RPC 2.0 ("Error object", section 5.1) reserves `-32768` to `-32000`: the codes from
//! `-32768` to `-32100` are its own ([`JSON_RPC_DEFINED`]), `-32099` to `-32000` are left to
//! servers. MCP 2026-07-28 splits that server-error range ("Error Codes" in the basic
//! protocol page; item 12 of its changelog): `-32000` to `-32019` stay implementation-defined
//! ([`IMPLEMENTATION_DEFINED`], existing SDK usage grandfathered), `-32020` to `-32099` are the
//! specification's ([`MCP_DEFINED`]).
//!
//! | name | code | defined by |
//! | --- | --- | --- |
//! | [`PARSE_ERROR`] | `-32700` | JSON-RPC; MCP `ParseError` |
//! | [`INVALID_REQUEST`] | `-32600` | JSON-RPC; MCP `InvalidRequestError` |
//! | [`METHOD_NOT_FOUND`] | `-32601` | JSON-RPC; MCP `MethodNotFoundError` |
//! | [`INVALID_PARAMS`] | `-32602` | JSON-RPC; MCP `InvalidParamsError` |
//! | [`INTERNAL_ERROR`] | `-32603` | JSON-RPC; MCP `InternalError` |
//! | [`HEADER_MISMATCH`] | `-32020` | MCP 2026-07-28 `HeaderMismatchError` |
//! | [`MISSING_REQUIRED_CLIENT_CAPABILITY`] | `-32021` | MCP 2026-07-28 `MissingRequiredClientCapabilityError` |
//! | [`UNSUPPORTED_PROTOCOL_VERSION`] | `-32022` | MCP 2026-07-28 `UnsupportedProtocolVersionError` |
//! | [`SERVER_ERROR`] | `-32000` | implementations (the SDKs' Streamable HTTP transports) |
//! | [`SESSION_NOT_FOUND`] | `-32001` | implementations (the SDKs' Streamable HTTP transports) |
//!
//! The codes the MCP schema defines are also the `const` of its error types' `code` member,
//! so a generated `HeaderMismatchError` writes `-32020` by itself; the names here are for
//! errors built from a code (`RpcError::new`, `JSONRPCErrorResponse::from_error`) and for
//! reading a code back.

use std::ops::RangeInclusive;

/// The codes JSON-RPC 2.0 defines for its own errors: its reserved block, `-32768` to `-32000`
/// (section 5.1), less the server-error range `-32099` to `-32000`.
pub const JSON_RPC_DEFINED: RangeInclusive<i64> = -32768..=-32100;

/// The codes MCP reserves for errors its specification defines (2026-07-28 changelog, item
/// 12: the specification keeps `-32020` to `-32099` for itself).
pub const MCP_DEFINED: RangeInclusive<i64> = -32099..=-32020;

/// The codes MCP leaves to implementations (2026-07-28 changelog, item 12: `-32000` to
/// `-32019`, where the codes the SDKs already used stay valid).
pub const IMPLEMENTATION_DEFINED: RangeInclusive<i64> = -32019..=-32000;

/// Parse error: the message is not JSON (JSON-RPC 2.0, section 5.1; MCP `ParseError`).
pub const PARSE_ERROR: i64 = -32700;

/// Invalid Request: the JSON is not a valid request object, e.g. no `jsonrpc: "2.0"`, an id
/// that is neither a string nor an integer, or a batch where 2026-07-28 has none (JSON-RPC
/// 2.0, section 5.1; MCP `InvalidRequestError`).
pub const INVALID_REQUEST: i64 = -32600;

/// Method not found: the method does not exist or is not available, e.g. gated behind a
/// capability the server did not advertise (JSON-RPC 2.0, section 5.1; MCP
/// `MethodNotFoundError`). On Streamable HTTP a server answers it with 404 (2026-07-28,
/// "Streamable HTTP").
pub const METHOD_NOT_FOUND: i64 = -32601;

/// Invalid params: the parameters fail validation, e.g. an unknown tool or prompt, a request
/// without the required `_meta` fields, a rejected `requestState`, and in 2026-07-28 an unknown
/// resource (JSON-RPC 2.0, section 5.1; MCP `InvalidParamsError`).
pub const INVALID_PARAMS: i64 = -32602;

/// Internal error: the receiver met an unexpected condition (JSON-RPC 2.0, section 5.1; MCP
/// `InternalError`).
pub const INTERNAL_ERROR: i64 = -32603;

/// `HeaderMismatchError`: on Streamable HTTP, a required header (`MCP-Protocol-Version`,
/// `Mcp-Method`, `Mcp-Name`, an `Mcp-Param-{Name}`) is missing, malformed or disagrees with
/// the body; HTTP 400 (2026-07-28, "Streamable HTTP", "Server Validation").
pub const HEADER_MISMATCH: i64 = -32020;

/// `MissingRequiredClientCapabilityError`: the request needs a capability (or an extension)
/// the client did not declare; `data.requiredCapabilities` names it, HTTP 400 (2026-07-28
/// schema; "Multi Round-Trip Requests").
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;

/// `UnsupportedProtocolVersionError`: the server does not implement the requested version;
/// `data.supported` lists those it does and `data.requested` repeats the one asked for, HTTP 400
/// (2026-07-28, "Versioning", "Protocol Version Negotiation").
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The first implementation-defined server error. The legacy SDKs' Streamable HTTP transports
/// refuse a request before reading it with this code and a "Bad Request: ..." message (no
/// session id, an unsupported version: a sign of the legacy era, never read by its text); the
/// example server also answers a reached bound with it (HTTP 429).
pub const SERVER_ERROR: i64 = -32000;

/// "Session not found": the `Mcp-Session-Id` of a legacy (2025-11-25) request names no live
/// session, HTTP 404. The specification gives only the status (2025-11-25, "Transports",
/// "Session Management", item 3); the code is the SDKs' Streamable HTTP transports'.
pub const SESSION_NOT_FOUND: i64 = -32001;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code of the table with the range it belongs to.
    const ALL: &[(&str, i64, RangeInclusive<i64>)] = &[
        ("PARSE_ERROR", PARSE_ERROR, JSON_RPC_DEFINED),
        ("INVALID_REQUEST", INVALID_REQUEST, JSON_RPC_DEFINED),
        ("METHOD_NOT_FOUND", METHOD_NOT_FOUND, JSON_RPC_DEFINED),
        ("INVALID_PARAMS", INVALID_PARAMS, JSON_RPC_DEFINED),
        ("INTERNAL_ERROR", INTERNAL_ERROR, JSON_RPC_DEFINED),
        ("HEADER_MISMATCH", HEADER_MISMATCH, MCP_DEFINED),
        (
            "MISSING_REQUIRED_CLIENT_CAPABILITY",
            MISSING_REQUIRED_CLIENT_CAPABILITY,
            MCP_DEFINED,
        ),
        (
            "UNSUPPORTED_PROTOCOL_VERSION",
            UNSUPPORTED_PROTOCOL_VERSION,
            MCP_DEFINED,
        ),
        ("SERVER_ERROR", SERVER_ERROR, IMPLEMENTATION_DEFINED),
        (
            "SESSION_NOT_FOUND",
            SESSION_NOT_FOUND,
            IMPLEMENTATION_DEFINED,
        ),
    ];

    #[test]
    fn every_code_of_the_table_is_tested() {
        let declared = include_str!("error_code.rs")
            .lines()
            .filter(|l| l.starts_with("pub const ") && l.contains(": i64 = "))
            .count();
        assert_eq!(declared, ALL.len());
    }

    #[test]
    fn the_codes_are_distinct() {
        for (i, (name, code, _)) in ALL.iter().enumerate() {
            for (other, same, _) in &ALL[i + 1..] {
                assert_ne!(code, same, "{name} and {other}");
            }
        }
    }

    #[test]
    fn each_code_is_in_its_range_and_the_ranges_are_json_rpc_reserved() {
        for (name, code, range) in ALL {
            assert!(range.contains(code), "{name} ({code}) outside {range:?}");
        }
        let reserved = -32768..=-32000;
        for range in [JSON_RPC_DEFINED, MCP_DEFINED, IMPLEMENTATION_DEFINED] {
            assert!(reserved.contains(range.start()) && reserved.contains(range.end()));
        }
    }

    #[test]
    fn the_ranges_follow_one_another() {
        assert_eq!(*JSON_RPC_DEFINED.end() + 1, *MCP_DEFINED.start());
        assert_eq!(*MCP_DEFINED.end() + 1, *IMPLEMENTATION_DEFINED.start());
    }
}
