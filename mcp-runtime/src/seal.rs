//! Sealing of `requestState`: integrity protection for the state a server hands to a client in
//! an `InputRequiredResult` and gets back, unchanged, on the retry (SPEC-NOTES A.8, A.9).
//!
//! The specification treats `requestState` as attacker-controlled: where it influences
//! authorization, resource access or business logic it MUST be integrity-protected (HMAC or
//! AEAD), state that fails verification MUST be rejected, and it SHOULD bind the authenticated
//! principal, a short expiry and the originating request. [`Sealer`] does all of that with
//! HMAC-SHA-256:
//!
//! - [`Sealer::seal`] wraps the server's own bytes together with an expiry, a digest of the
//!   principal and a digest of the request ([`Binding`]: the method and its salient
//!   parameters), and signs the lot with a server-side key.
//! - [`Sealer::open`] checks, in this order, that the token has the format's prefix, that it
//!   decodes and its signature verifies ([`SealError::Tampered`] otherwise: a modified token, or
//!   one sealed with another key), that it has not expired, that it was issued to the same principal and for the same
//!   request, and only then returns the bytes.
//! - [`SealError::error_object`] is the JSON-RPC `error` member (`-32602` Invalid params) to
//!   send back for a state that was rejected.
//!
//! # What sealing does not do
//!
//! - **It does not make a state single-use.** A sealed state can be replayed, by the same
//!   principal, for the same request, as often as it likes until it expires. Where replay
//!   matters (a payment, a one-time approval), put a nonce into the state and remember the
//!   nonces already consumed, server-side, until their expiry; keep the expiry short.
//! - **It does not hide the state.** The sealed bytes travel in clear (base64url): the client
//!   can read them, it just cannot change them. Keep secrets out of the state, or encrypt them
//!   first (an AEAD such as ChaCha20-Poly1305).
//! - **It does not authenticate the principal.** The principal is whatever the server's own
//!   authentication established; sealing only binds the state to it.
//!
//! ```
//! use mcp_runtime::seal::{Binding, SealError, Sealer};
//! use serde_json::json;
//!
//! let sealer = Sealer::new([7; 32]);
//! let call = Binding::new("alice", "tools/call", &json!({"name": "book", "arguments": {"seat": "4C"}}));
//! let token = sealer.seal(&call, b"round-1");
//! assert_eq!(sealer.open(&call, &token).unwrap(), b"round-1");
//!
//! // Another principal, the same request: rejected.
//! let mallory = Binding::new("mallory", "tools/call", &json!({"name": "book", "arguments": {"seat": "4C"}}));
//! assert_eq!(sealer.open(&mallory, &token), Err(SealError::OtherPrincipal));
//! // A modified token: rejected.
//! assert_eq!(sealer.open(&call, &format!("{token}x")), Err(SealError::Tampered));
//! ```

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::ErrorResponse;

type HmacSha256 = Hmac<Sha256>;

/// The prefix of every sealed token; names the format so that it can change later.
const PREFIX: &str = "mcps1.";
/// Domain separation for the MAC: a tag computed for anything else never verifies here.
const DOMAIN: &[u8] = b"mcp-runtime/seal/v1\0";
/// Expiry (8 bytes) + principal digest (32) + request digest (32), before the state bytes.
const HEADER_LEN: usize = 8 + 32 + 32;
const TAG_LEN: usize = 32;

/// The JSON-RPC error code a rejected state is answered with (Invalid params).
pub const INVALID_PARAMS: i64 = -32602;

/// What a sealed state is bound to: who asked, and which request.
#[derive(Clone, PartialEq, Eq)]
pub struct Binding {
    principal: [u8; 32],
    request: [u8; 32],
}

impl fmt::Debug for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Binding").finish_non_exhaustive()
    }
}

impl Binding {
    /// Binds to `principal` (the authenticated identity, as the server's authentication names
    /// it) and to the request `method` with its `salient` parameters: those that decide what
    /// the request does (for `tools/call` the tool `name` and its `arguments`, for
    /// `prompts/get` the `name` and `arguments`, for `resources/read` the `uri`). Leave out
    /// what changes between rounds (`inputResponses`, `requestState`, `_meta`).
    ///
    /// The parameters are digested in a canonical form (object keys sorted), so the order in
    /// which a client writes its members does not matter.
    pub fn new(principal: &str, method: &str, salient: &Value) -> Self {
        let principal = Sha256::new()
            .chain_update(b"principal\0")
            .chain_update(principal.as_bytes())
            .finalize()
            .into();
        let mut canonical = String::new();
        write_canonical(salient, &mut canonical);
        let request = Sha256::new()
            .chain_update(b"request\0")
            .chain_update(method.as_bytes())
            .chain_update([0])
            .chain_update(canonical.as_bytes())
            .finalize()
            .into();
        Binding { principal, request }
    }

    /// [`Binding::new`] with the method of the generated request type `R`.
    pub fn for_request<R: crate::Request>(principal: &str, salient: &Value) -> Self {
        Binding::new(principal, R::METHOD, salient)
    }
}

/// Why a sealed state was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealError {
    /// Not a sealed token at all (it lacks the format's prefix).
    Malformed,
    /// The token does not verify: it was modified (so that it no longer decodes, or its
    /// signature no longer matches), or it was sealed with another key.
    Tampered,
    /// The token verified but its expiry has passed.
    Expired {
        /// When it expired.
        at: SystemTime,
    },
    /// The token verified but was issued to another principal.
    OtherPrincipal,
    /// The token verified but was issued for another request (another method, or other
    /// salient parameters).
    OtherRequest,
}

impl SealError {
    /// A short machine-readable name, sent as `data.reason`.
    pub fn reason(&self) -> &'static str {
        match self {
            SealError::Malformed => "malformed",
            SealError::Tampered => "tampered",
            SealError::Expired { .. } => "expired",
            SealError::OtherPrincipal => "other-principal",
            SealError::OtherRequest => "other-request",
        }
    }

    /// The `error` member of the JSON-RPC error response for a rejected `requestState`
    /// (`-32602` Invalid params, `data.reason` from [`SealError::reason`]).
    pub fn error_object(&self) -> Value {
        serde_json::json!({
            "code": INVALID_PARAMS,
            "message": self.message(),
            "data": self.data(),
        })
    }

    /// The typed error response to the request `id` for a rejected `requestState`: `-32602`
    /// Invalid params, `data.reason` from [`SealError::reason`]
    /// (`let response: mcp::JSONRPCErrorResponse = error.response(Some(id));`).
    pub fn response<R: ErrorResponse>(&self, id: R::Id) -> R {
        R::from_error(id, INVALID_PARAMS, self.message(), Some(self.data()))
    }

    fn message(&self) -> String {
        format!("Invalid requestState: {self}")
    }

    fn data(&self) -> Value {
        serde_json::json!({ "reason": self.reason() })
    }
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SealError::Malformed => "not a sealed request state",
            SealError::Tampered => "the request state failed integrity verification",
            SealError::Expired { .. } => "the request state has expired",
            SealError::OtherPrincipal => "the request state was issued to another principal",
            SealError::OtherRequest => "the request state was issued for another request",
        })
    }
}

impl std::error::Error for SealError {}

/// Seals and opens `requestState` tokens with one server-side key (HMAC-SHA-256).
///
/// Every instance of a server that may receive a retry must hold the same key; rotate it by
/// trying the new key first and the old one until the longest expiry has passed.
#[derive(Clone)]
pub struct Sealer {
    key: [u8; 32],
    ttl: Duration,
}

impl fmt::Debug for Sealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sealer")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Sealer {
    /// The default lifetime of a sealed state: five minutes, enough for a user to answer an
    /// elicitation, short enough to limit replay.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(300);

    /// A sealer with a 256-bit secret key (from a CSPRNG or a secret store, never a constant in
    /// production) and [`Sealer::DEFAULT_TTL`].
    pub fn new(key: [u8; 32]) -> Self {
        Sealer {
            key,
            ttl: Self::DEFAULT_TTL,
        }
    }

    /// The same key with another lifetime for the states it seals.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The lifetime of the states this sealer seals.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Seals `state` for `binding`, expiring [`Sealer::ttl`] from now.
    pub fn seal(&self, binding: &Binding, state: &[u8]) -> String {
        self.seal_at(binding, state, SystemTime::now())
    }

    /// Seals `state` for `binding` as if the time were `now`.
    pub fn seal_at(&self, binding: &Binding, state: &[u8], now: SystemTime) -> String {
        let expiry = now
            .checked_add(self.ttl)
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        let mut payload = Vec::with_capacity(HEADER_LEN + state.len() + TAG_LEN);
        payload.extend_from_slice(&expiry.to_be_bytes());
        payload.extend_from_slice(&binding.principal);
        payload.extend_from_slice(&binding.request);
        payload.extend_from_slice(state);
        let tag = self.mac(&payload).finalize().into_bytes();
        payload.extend_from_slice(&tag);
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(payload))
    }

    /// Verifies `token` against `binding` and returns the sealed bytes.
    pub fn open(&self, binding: &Binding, token: &str) -> Result<Vec<u8>, SealError> {
        self.open_at(binding, token, SystemTime::now())
    }

    /// [`Sealer::open`] as if the time were `now`.
    pub fn open_at(
        &self,
        binding: &Binding,
        token: &str,
        now: SystemTime,
    ) -> Result<Vec<u8>, SealError> {
        let body = token.strip_prefix(PREFIX).ok_or(SealError::Malformed)?;
        let bytes = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| SealError::Tampered)?;
        if bytes.len() < HEADER_LEN + TAG_LEN {
            return Err(SealError::Tampered);
        }
        let (payload, tag) = bytes.split_at(bytes.len() - TAG_LEN);
        // Constant-time comparison (hmac's verify).
        self.mac(payload)
            .verify_slice(tag)
            .map_err(|_| SealError::Tampered)?;
        let mut expiry = [0u8; 8];
        expiry.copy_from_slice(&payload[..8]);
        let expires = UNIX_EPOCH + Duration::from_secs(u64::from_be_bytes(expiry));
        if now >= expires {
            return Err(SealError::Expired { at: expires });
        }
        if payload[8..40] != binding.principal {
            return Err(SealError::OtherPrincipal);
        }
        if payload[40..72] != binding.request {
            return Err(SealError::OtherRequest);
        }
        Ok(payload[HEADER_LEN..].to_vec())
    }

    fn mac(&self, payload: &[u8]) -> HmacSha256 {
        let mut mac = <HmacSha256 as KeyInit>::new_from_slice(&self.key)
            .expect("HMAC accepts keys of any length");
        mac.update(DOMAIN);
        mac.update(payload);
        mac
    }
}

/// Canonical JSON: object keys sorted, no whitespace, strings and numbers as serde_json writes
/// them.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_canonical(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const KEY: [u8; 32] = [42; 32];

    fn call(principal: &str, seat: &str) -> Binding {
        Binding::new(
            principal,
            "tools/call",
            &json!({"name": "book", "arguments": {"seat": seat, "class": "economy"}}),
        )
    }

    fn t0() -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(1_800_000_000)
    }

    #[test]
    fn round_trip() {
        let s = Sealer::new(KEY);
        let b = call("alice", "4C");
        let token = s.seal_at(&b, b"state bytes", t0());
        assert!(token.starts_with(PREFIX));
        assert_eq!(s.open_at(&b, &token, t0()).unwrap(), b"state bytes");
        // Empty state is fine too.
        let token = s.seal_at(&b, b"", t0());
        assert_eq!(s.open_at(&b, &token, t0()).unwrap(), b"");
    }

    #[test]
    fn key_order_of_the_salient_params_does_not_matter() {
        let a = Binding::new(
            "p",
            "tools/call",
            &json!({"name": "x", "arguments": {"a": 1, "b": [1, {"y": 2, "x": 1}]}}),
        );
        let b = Binding::new(
            "p",
            "tools/call",
            &json!({"arguments": {"b": [1, {"x": 1, "y": 2}], "a": 1}, "name": "x"}),
        );
        assert_eq!(a, b);
    }

    #[test]
    fn rejects_tampered_state() {
        let s = Sealer::new(KEY);
        let b = call("alice", "4C");
        let token = s.seal_at(&b, b"approved=false", t0());
        // What the conformance suite does: append to the token.
        assert_eq!(
            s.open_at(&b, &format!("{token}-TAMPERED"), t0()),
            Err(SealError::Tampered)
        );
        // Flip one bit of the sealed state, re-encode: the MAC no longer verifies.
        let mut bytes = URL_SAFE_NO_PAD.decode(&token[PREFIX.len()..]).unwrap();
        bytes[HEADER_LEN] ^= 1;
        let flipped = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(s.open_at(&b, &flipped, t0()), Err(SealError::Tampered));
        // Push the expiry forward: the MAC covers it.
        let mut bytes = URL_SAFE_NO_PAD.decode(&token[PREFIX.len()..]).unwrap();
        bytes[0] = 0xff;
        let later = format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(s.open_at(&b, &later, t0()), Err(SealError::Tampered));
        // Sealed with another key.
        let other = Sealer::new([1; 32]).seal_at(&b, b"approved=false", t0());
        assert_eq!(s.open_at(&b, &other, t0()), Err(SealError::Tampered));
    }

    #[test]
    fn rejects_malformed_state() {
        let s = Sealer::new(KEY);
        let b = call("alice", "4C");
        for bad in ["", "hello", "mcps2.AAAA", "MCPS1.AAAA"] {
            assert_eq!(
                s.open_at(&b, bad, t0()),
                Err(SealError::Malformed),
                "{bad:?}"
            );
        }
        // The right prefix, but a body that does not decode or is too short to verify.
        for bad in ["mcps1.", "mcps1.!!!!", "mcps1.AAAA"] {
            assert_eq!(
                s.open_at(&b, bad, t0()),
                Err(SealError::Tampered),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn rejects_expired_state() {
        let s = Sealer::new(KEY).with_ttl(Duration::from_secs(60));
        let b = call("alice", "4C");
        let token = s.seal_at(&b, b"x", t0());
        assert!(
            s.open_at(&b, &token, t0() + Duration::from_secs(59))
                .is_ok()
        );
        assert_eq!(
            s.open_at(&b, &token, t0() + Duration::from_secs(60)),
            Err(SealError::Expired {
                at: t0() + Duration::from_secs(60)
            })
        );
    }

    #[test]
    fn rejects_state_of_another_principal() {
        let s = Sealer::new(KEY);
        let token = s.seal_at(&call("alice", "4C"), b"x", t0());
        assert_eq!(
            s.open_at(&call("mallory", "4C"), &token, t0()),
            Err(SealError::OtherPrincipal)
        );
    }

    #[test]
    fn rejects_state_of_another_request() {
        let s = Sealer::new(KEY);
        let token = s.seal_at(&call("alice", "4C"), b"x", t0());
        // Other salient parameters.
        assert_eq!(
            s.open_at(&call("alice", "1A"), &token, t0()),
            Err(SealError::OtherRequest)
        );
        // Same parameters, other method.
        let prompt = Binding::new(
            "alice",
            "prompts/get",
            &json!({"name": "book", "arguments": {"seat": "4C", "class": "economy"}}),
        );
        assert_eq!(
            s.open_at(&prompt, &token, t0()),
            Err(SealError::OtherRequest)
        );
    }

    #[test]
    fn is_not_single_use() {
        // Documented behaviour: the same token opens as often as it is presented until it
        // expires. Single use needs a server-side nonce store.
        let s = Sealer::new(KEY);
        let b = call("alice", "4C");
        let token = s.seal_at(&b, b"x", t0());
        for _ in 0..3 {
            assert!(s.open_at(&b, &token, t0()).is_ok());
        }
    }

    #[test]
    fn error_object_is_invalid_params() {
        let e = SealError::Tampered.error_object();
        assert_eq!(e["code"], INVALID_PARAMS);
        assert_eq!(e["data"]["reason"], "tampered");
        assert!(e["message"].as_str().unwrap().contains("integrity"));
        assert_eq!(SealError::OtherRequest.reason(), "other-request");
        assert_eq!(
            SealError::Expired { at: UNIX_EPOCH }.to_string(),
            "the request state has expired"
        );
    }

    #[test]
    fn debug_does_not_print_the_key() {
        let s = format!("{:?}", Sealer::new(KEY));
        assert!(!s.contains("42"), "{s}");
    }
}
