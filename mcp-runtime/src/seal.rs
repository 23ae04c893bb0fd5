//! Sealing of `requestState`: integrity protection, and optionally confidentiality, for the
//! state a server hands to a client in an `InputRequiredResult` and gets back, unchanged, on
//! the retry (SPEC-NOTES A.8, A.9).
//!
//! The specification treats `requestState` as attacker-controlled: where it influences
//! authorization, resource access or business logic it MUST be integrity-protected (HMAC or
//! AEAD), state that fails verification MUST be rejected, and it SHOULD bind the authenticated
//! principal, a short expiry and the originating request. [`Sealer`] does all of that, in one
//! of two [`Mode`]s the server chooses:
//!
//! - [`Mode::Hmac`] (the default): the state travels in clear, signed with HMAC-SHA-256. The
//!   client can read it but not change it.
//! - [`Mode::Aead`]: the state is encrypted with XChaCha20-Poly1305. The client can neither
//!   read nor change it: use it when the state holds anything the client should not see.
//!
//! Both bind the state to the principal, the request and an expiry, and both are opened by
//! the same [`Sealer::open`], whichever mode the sealer seals in (so switching modes does not
//! reject the states in flight; a client cannot pick the mode, since each mode has its own
//! key derived from the server's).
//!
//! - [`Sealer::seal`] wraps the server's own bytes together with an expiry and keyed tags of
//!   the principal and of the request ([`Binding`]: the method and its salient parameters),
//!   and signs (or encrypts and authenticates) the lot with the current key of the ring.
//! - [`Sealer::open`] checks, in this order, that the token has the format's prefix
//!   ([`SealError::Malformed`]), that it decodes and names a key of the ring
//!   ([`SealError::UnknownKey`]: sealed under a key that was retired, or by another server),
//!   that it verifies under that key ([`SealError::Tampered`] otherwise), that it has not
//!   expired, that it was issued to the same principal and for the same request, and only then
//!   returns the bytes.
//! - [`SealError::error_object`] is the JSON-RPC `error` member ([`INVALID_PARAMS`]) to
//!   send back for a state that was rejected.
//!
//! # Keys, key ring and rotation
//!
//! A sealer holds a ring of 256-bit keys: the **current** key seals, and every key of the ring
//! opens. Each token names the key it was sealed under by a key id (the first 4 bytes of an
//! HMAC of a fixed label under the key: it names the key without revealing it), so opening
//! costs one verification whatever the size of the ring. Every instance of a server that may
//! receive a retry must hold the same ring ([`parse_keys`] reads one from a file or an
//! environment variable: one key per line, 64 hex digits, the current one first).
//!
//! To rotate without rejecting a state in flight:
//!
//! 1. add the new key to every instance's ring *after* the current one (it opens, it does
//!    not seal yet);
//! 2. when every instance has it, move it first (it seals; the old key still opens);
//! 3. when the old key's last state has expired (the sealer's TTL after step 2), remove it.
//!
//! A key that leaked is removed at once instead: its states are then refused as
//! [`SealError::UnknownKey`].
//!
//! From each key of the ring the sealer derives, with HMAC-SHA-256 under distinct labels, a
//! MAC key, an AEAD key, a binding key and a nonce key, so that no key serves two purposes.
//!
//! # The format (`mcps3.`)
//!
//! A token is `mcps3.` followed by the base64url (no padding) encoding of:
//!
//! | bytes | what |
//! | --- | --- |
//! | 1 | mode: `1` HMAC-SHA-256, `2` XChaCha20-Poly1305 |
//! | 4 | key id of the key it was sealed under |
//! | 24 | nonce, fresh for every token |
//! | 8 | expiry, milliseconds since the Unix epoch, big-endian |
//! | 16 | principal tag: HMAC(binding key, nonce, principal digest), truncated |
//! | 16 | request tag: HMAC(binding key, nonce, request digest), truncated |
//! | n | the state: in clear (HMAC mode) or encrypted (AEAD mode) |
//! | 32 or 16 | HMAC-SHA-256 over a domain label, the 69 header bytes and the state (HMAC mode), or the Poly1305 tag with the domain label and header as associated data (AEAD mode) |
//!
//! The principal and the request appear only as tags keyed by the server and salted by the
//! nonce: a reader can neither test a guessed principal offline nor tell that two states
//! belong to the same user. The nonce is an HMAC, under the nonce key, of 16 bytes from the
//! operating system's random source, a counter and the token's content: it is unique per token,
//! and would repeat only for an identical header and state (and so an identical ciphertext)
//! even if the random source failed. The expiry is kept in milliseconds, so a state lives for
//! the sealer's TTL to the millisecond (rounded up), not to the whole second. The earlier formats
//! are no longer read and their tokens are [`SealError::Malformed`]: `mcps1.` (one key, an
//! unkeyed digest of the principal) and `mcps2.` (this layout with the expiry in whole seconds,
//! rounded down, so a state lived up to a second less than the TTL). A server upgraded across
//! the change refuses the states it sealed before it; the client starts the request again.
//!
//! # What sealing does not do
//!
//! - **It does not make a state single-use.** A sealed state can be replayed, by the same
//!   principal, for the same request, as often as it likes until it expires. Where replay
//!   matters (a payment, a one-time approval), put a nonce into the state and remember the
//!   nonces already consumed, server-side, until their expiry; keep the expiry short.
//! - **In HMAC mode it does not hide the state.** The sealed bytes travel in clear
//!   (base64url): the client can read them, it just cannot change them. Use [`Mode::Aead`]
//!   when the state holds secrets. Neither mode hides the state's length or its expiry.
//! - **It does not authenticate the principal.** The principal is whatever the server's own
//!   authentication established; sealing only binds the state to it.
//!
//! ```
//! use mcp_runtime::seal::{Binding, Mode, SealError, Sealer};
//! use serde_json::json;
//!
//! let sealer = Sealer::new([7; 32]).with_mode(Mode::Aead);
//! let call = Binding::new("alice", "tools/call", &json!({"name": "book", "arguments": {"seat": "4C"}}));
//! let token = sealer.seal(&call, b"round-1");
//! assert_eq!(sealer.open(&call, &token).unwrap(), b"round-1");
//!
//! // Another principal, the same request: rejected.
//! let mallory = Binding::new("mallory", "tools/call", &json!({"name": "book", "arguments": {"seat": "4C"}}));
//! assert_eq!(sealer.open(&mallory, &token), Err(SealError::OtherPrincipal));
//! // A modified token: rejected.
//! assert_eq!(sealer.open(&call, &format!("{token}x")), Err(SealError::Tampered));
//!
//! // Rotation: a new current key, the old one kept for opening.
//! let rotated = Sealer::new([8; 32]).with_previous_key([7; 32]);
//! assert_eq!(rotated.open(&call, &token).unwrap(), b"round-1");
//! // Once the old key is retired, its tokens name an unknown key.
//! assert_eq!(Sealer::new([8; 32]).open(&call, &token), Err(SealError::UnknownKey));
//! ```

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::{AeadInOut, Tag, XChaCha20Poly1305, XNonce};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::ErrorResponse;

mod ring;
pub use ring::{MAX_KEY_FILE, RingError, random_key};

type HmacSha256 = Hmac<Sha256>;

/// The prefix of every sealed token; names the format so that it can change later.
const PREFIX: &str = "mcps3.";
/// Domain separation for the MAC and the AEAD's associated data: a tag computed for anything
/// else never verifies here.
const DOMAIN: &[u8] = b"mcp-runtime/seal/v2\0";
const MODE_LEN: usize = 1;
const KEY_ID_LEN: usize = 4;
const NONCE_LEN: usize = 24;
const EXPIRY_LEN: usize = 8;
const BIND_TAG_LEN: usize = 16;
/// Mode, key id, nonce, expiry, principal tag and request tag, before the state bytes.
const HEADER_LEN: usize = MODE_LEN + KEY_ID_LEN + NONCE_LEN + EXPIRY_LEN + 2 * BIND_TAG_LEN;
const KEY_ID_AT: usize = MODE_LEN;
const NONCE_AT: usize = KEY_ID_AT + KEY_ID_LEN;
const EXPIRY_AT: usize = NONCE_AT + NONCE_LEN;
const PRINCIPAL_AT: usize = EXPIRY_AT + EXPIRY_LEN;
const REQUEST_AT: usize = PRINCIPAL_AT + BIND_TAG_LEN;
const HMAC_TAG_LEN: usize = 32;
const AEAD_TAG_LEN: usize = 16;

/// The JSON-RPC error code a rejected state is answered with (Invalid params), from
/// [`crate::error_code`].
pub use crate::error_code::INVALID_PARAMS;

/// What a sealed state is bound to: who asked, and which request.
///
/// It holds digests of the principal and of the request, which never leave the process: a
/// token carries only tags of them keyed by the sealer's key and salted per token.
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
    /// The token names a key that is not in the sealer's ring: sealed under a key since
    /// retired, or by a server with other keys.
    UnknownKey,
    /// The token does not verify: it was modified (so that it no longer decodes, or its
    /// signature no longer matches), or it was cut short.
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
            SealError::UnknownKey => "unknown-key",
            SealError::Tampered => "tampered",
            SealError::Expired { .. } => "expired",
            SealError::OtherPrincipal => "other-principal",
            SealError::OtherRequest => "other-request",
        }
    }

    /// The `error` member of the JSON-RPC error response for a rejected `requestState`
    /// ([`INVALID_PARAMS`], `data.reason` from [`SealError::reason`]).
    pub fn error_object(&self) -> Value {
        serde_json::json!({
            "code": INVALID_PARAMS,
            "message": self.message(),
            "data": self.data(),
        })
    }

    /// The typed error response to the request `id` for a rejected `requestState`:
    /// [`INVALID_PARAMS`], `data.reason` from [`SealError::reason`]
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
            SealError::UnknownKey => {
                "the request state was sealed under a key this server does not hold"
            }
            SealError::Tampered => "the request state failed integrity verification",
            SealError::Expired { .. } => "the request state has expired",
            SealError::OtherPrincipal => "the request state was issued to another principal",
            SealError::OtherRequest => "the request state was issued for another request",
        })
    }
}

impl std::error::Error for SealError {}

/// How a [`Sealer`] protects the states it seals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Signed with HMAC-SHA-256: the state travels in clear, protected against change.
    #[default]
    Hmac,
    /// Encrypted and authenticated with XChaCha20-Poly1305: the state is confidential too.
    Aead,
}

impl Mode {
    fn byte(self) -> u8 {
        match self {
            Mode::Hmac => 1,
            Mode::Aead => 2,
        }
    }

    fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            1 => Some(Mode::Hmac),
            2 => Some(Mode::Aead),
            _ => None,
        }
    }

    fn tag_len(self) -> usize {
        match self {
            Mode::Hmac => HMAC_TAG_LEN,
            Mode::Aead => AEAD_TAG_LEN,
        }
    }
}

/// One key of a ring, with the keys derived from it for each purpose.
#[derive(Clone)]
struct RingKey {
    id: [u8; KEY_ID_LEN],
    /// Pre-keyed HMACs (cloned per use: the key schedule is computed once).
    mac: HmacSha256,
    bind: HmacSha256,
    nonce: HmacSha256,
    aead: XChaCha20Poly1305,
}

impl RingKey {
    fn new(key: &[u8; 32]) -> Self {
        let derive = |label: &[u8]| -> [u8; 32] {
            let mut mac = keyed(key);
            mac.update(b"mcp-runtime/seal/v2/");
            mac.update(label);
            mac.finalize().into_bytes().into()
        };
        let id_bytes = derive(b"key-id");
        let mut id = [0u8; KEY_ID_LEN];
        id.copy_from_slice(&id_bytes[..KEY_ID_LEN]);
        RingKey {
            id,
            mac: keyed(&derive(b"mac")),
            bind: keyed(&derive(b"bind")),
            nonce: keyed(&derive(b"nonce")),
            aead: XChaCha20Poly1305::new(&derive(b"aead").into()),
        }
    }

    /// The truncated tag of a binding digest under this key, salted by the token's nonce.
    fn bind_tag(&self, label: &[u8], nonce: &[u8], digest: &[u8; 32]) -> [u8; BIND_TAG_LEN] {
        let mut mac = self.bind.clone();
        mac.update(label);
        mac.update(nonce);
        mac.update(digest);
        let full = mac.finalize().into_bytes();
        let mut tag = [0u8; BIND_TAG_LEN];
        tag.copy_from_slice(&full[..BIND_TAG_LEN]);
        tag
    }

    fn mac(&self, header: &[u8], state: &[u8]) -> HmacSha256 {
        let mut mac = self.mac.clone();
        mac.update(DOMAIN);
        mac.update(header);
        mac.update(state);
        mac
    }
}

fn keyed(key: &[u8; 32]) -> HmacSha256 {
    <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC accepts keys of any length")
}

/// A count of tokens sealed by this process, one input of each nonce.
static SEALED: AtomicU64 = AtomicU64::new(0);

/// Seals and opens `requestState` tokens with a ring of server-side keys: the current key
/// seals, every key of the ring opens (see the module docs on rotation).
///
/// Every instance of a server that may receive a retry must hold the same ring.
#[derive(Clone)]
pub struct Sealer {
    /// The current key first, then the previous keys, newest first.
    ring: Vec<RingKey>,
    mode: Mode,
    ttl: Duration,
}

impl fmt::Debug for Sealer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sealer")
            .field("mode", &self.mode)
            .field("ttl", &self.ttl)
            .field("keys", &self.ring.len())
            .finish_non_exhaustive()
    }
}

impl Sealer {
    /// The default lifetime of a sealed state: five minutes, enough for a user to answer an
    /// elicitation, short enough to limit replay.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(300);

    /// A sealer with one 256-bit secret key (from a CSPRNG or a secret store, never a constant
    /// in production), [`Mode::Hmac`] and [`Sealer::DEFAULT_TTL`].
    pub fn new(key: [u8; 32]) -> Self {
        Sealer {
            ring: vec![RingKey::new(&key)],
            mode: Mode::default(),
            ttl: Self::DEFAULT_TTL,
        }
    }

    /// A sealer whose ring is `keys`: the first seals, all open. `None` if `keys` is empty.
    pub fn from_keys(keys: &[[u8; 32]]) -> Option<Self> {
        let (current, previous) = keys.split_first()?;
        Some(
            previous
                .iter()
                .fold(Sealer::new(*current), |s, k| s.with_previous_key(*k)),
        )
    }

    /// The same sealer, also opening states sealed under `key` (a key being retired, or one
    /// about to become current: see the module docs on rotation).
    #[must_use]
    pub fn with_previous_key(mut self, key: [u8; 32]) -> Self {
        self.ring.push(RingKey::new(&key));
        self
    }

    /// The same keys, sealing in `mode` (opening accepts both modes).
    #[must_use]
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The same keys with another lifetime for the states it seals.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The lifetime of the states this sealer seals.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The mode this sealer seals in.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The key id of the current key, as hex (the id every new token names; for logs).
    pub fn key_id(&self) -> String {
        self.ring[0].id.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Seals `state` for `binding`, expiring [`Sealer::ttl`] from now.
    pub fn seal(&self, binding: &Binding, state: &[u8]) -> String {
        self.seal_at(binding, state, SystemTime::now())
    }

    /// Seals `state` for `binding` as if the time were `now`.
    ///
    /// # Panics
    ///
    /// In [`Mode::Aead`], if `state` is longer than XChaCha20 can encrypt (256 GiB).
    pub fn seal_at(&self, binding: &Binding, state: &[u8], now: SystemTime) -> String {
        let key = &self.ring[0];
        let expiry = expiry_millis(now, self.ttl).to_be_bytes();
        let nonce = fresh_nonce(key, &expiry, binding, state);
        let mut token = Vec::with_capacity(HEADER_LEN + state.len() + self.mode.tag_len());
        token.push(self.mode.byte());
        token.extend_from_slice(&key.id);
        token.extend_from_slice(&nonce);
        token.extend_from_slice(&expiry);
        token.extend_from_slice(&key.bind_tag(b"principal\0", &nonce, &binding.principal));
        token.extend_from_slice(&key.bind_tag(b"request\0", &nonce, &binding.request));
        token.extend_from_slice(state);
        let (header, body) = token.split_at_mut(HEADER_LEN);
        match self.mode {
            Mode::Hmac => {
                let tag = key.mac(header, body).finalize().into_bytes();
                token.extend_from_slice(&tag);
            }
            Mode::Aead => {
                let aad = [DOMAIN, header].concat();
                let tag = key
                    .aead
                    .encrypt_inout_detached(&XNonce::from(nonce), &aad, body.into())
                    .expect("a state in memory is shorter than XChaCha20's 256 GiB limit");
                token.extend_from_slice(&tag);
            }
        }
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(token))
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
        let mode = bytes
            .first()
            .and_then(|b| Mode::from_byte(*b))
            .ok_or(SealError::Tampered)?;
        if bytes.len() < HEADER_LEN + mode.tag_len() {
            return Err(SealError::Tampered);
        }
        let id = &bytes[KEY_ID_AT..NONCE_AT];
        // Ids are 32 bits: two keys of a ring may share one (rarely); each is tried.
        let mut candidates = self.ring.iter().filter(|k| k.id == id).peekable();
        if candidates.peek().is_none() {
            return Err(SealError::UnknownKey);
        }
        let (key, state) = candidates
            .find_map(|key| verify(key, mode, &bytes).map(|state| (key, state)))
            .ok_or(SealError::Tampered)?;
        let mut expiry = [0u8; EXPIRY_LEN];
        expiry.copy_from_slice(&bytes[EXPIRY_AT..PRINCIPAL_AT]);
        let expires = UNIX_EPOCH + Duration::from_millis(u64::from_be_bytes(expiry));
        if now >= expires {
            return Err(SealError::Expired { at: expires });
        }
        let nonce = &bytes[NONCE_AT..EXPIRY_AT];
        let principal = key.bind_tag(b"principal\0", nonce, &binding.principal);
        if !equal(&principal, &bytes[PRINCIPAL_AT..REQUEST_AT]) {
            return Err(SealError::OtherPrincipal);
        }
        let request = key.bind_tag(b"request\0", nonce, &binding.request);
        if !equal(&request, &bytes[REQUEST_AT..HEADER_LEN]) {
            return Err(SealError::OtherRequest);
        }
        Ok(state)
    }
}

/// Verifies a decoded token (at least a header and a tag long) under `key`, and returns its
/// state: a copy of the clear bytes (HMAC mode) or the decrypted bytes (AEAD mode).
fn verify(key: &RingKey, mode: Mode, bytes: &[u8]) -> Option<Vec<u8>> {
    let (signed, tag) = bytes.split_at(bytes.len() - mode.tag_len());
    let (header, body) = signed.split_at(HEADER_LEN);
    match mode {
        Mode::Hmac => {
            // Constant-time comparison (hmac's verify).
            key.mac(header, body).verify_slice(tag).ok()?;
            Some(body.to_vec())
        }
        Mode::Aead => {
            let mut nonce = [0u8; NONCE_LEN];
            nonce.copy_from_slice(&header[NONCE_AT..EXPIRY_AT]);
            let mut tag_bytes = [0u8; AEAD_TAG_LEN];
            tag_bytes.copy_from_slice(tag);
            let aad = [DOMAIN, header].concat();
            let mut state = body.to_vec();
            key.aead
                .decrypt_inout_detached(
                    &XNonce::from(nonce),
                    &aad,
                    state.as_mut_slice().into(),
                    &Tag::from(tag_bytes),
                )
                .ok()?;
            Some(state)
        }
    }
}

/// A nonce unique to this token: an HMAC under the key's nonce key of 16 random bytes, this
/// process's count of sealed tokens and the token's content (see the module docs).
/// When a state sealed at `now` for `ttl` expires, in milliseconds since the Unix epoch,
/// rounded up: the state lives at least `ttl`, never a part of a millisecond less. A time
/// before the epoch is expired at once; one past what 64 bits of milliseconds hold never is.
fn expiry_millis(now: SystemTime, ttl: Duration) -> u64 {
    let Ok(since_epoch) = now.duration_since(UNIX_EPOCH) else {
        return 0;
    };
    let nanos = since_epoch.saturating_add(ttl).as_nanos();
    u64::try_from(nanos.div_ceil(1_000_000)).unwrap_or(u64::MAX)
}

fn fresh_nonce(
    key: &RingKey,
    expiry: &[u8; EXPIRY_LEN],
    binding: &Binding,
    state: &[u8],
) -> [u8; NONCE_LEN] {
    let mut random = [0u8; 16];
    // Should the random source fail, the counter and the content still keep nonces unique
    // within the process, and a repeat across processes needs an identical token.
    let _ = getrandom::fill(&mut random);
    let count = SEALED.fetch_add(1, Ordering::Relaxed);
    let mut mac = key.nonce.clone();
    mac.update(&random);
    mac.update(&count.to_be_bytes());
    mac.update(expiry);
    mac.update(&binding.principal);
    mac.update(&binding.request);
    mac.update(state);
    let full = mac.finalize().into_bytes();
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&full[..NONCE_LEN]);
    nonce
}

/// Constant-time equality of two tags.
fn equal(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Why a key ring could not be read (see [`parse_keys`]). Never includes key material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError {
    /// The 1-based line of the text that is wrong (0 when the text holds no key at all).
    pub line: usize,
    /// What is wrong with it.
    pub message: &'static str,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for KeyError {}

/// Reads a key ring: one 256-bit key per line as 64 hex digits, the current key first, then
/// the keys that still open (newest first). Blank lines and lines starting with `#` are
/// skipped, as are spaces around a key; commas also separate keys, so that a ring fits in one
/// environment variable. Generate a key with `openssl rand -hex 32`.
///
/// ```
/// let (current, previous) = ("01".repeat(32), "02".repeat(32));
/// let text = format!("# current\n{current}\n# previous, until 2026-12-10\n{previous}\n");
/// let keys = mcp_runtime::seal::parse_keys(&text).unwrap();
/// assert_eq!(keys, vec![[1; 32], [2; 32]]);
/// let sealer = mcp_runtime::seal::Sealer::from_keys(&keys).unwrap();
/// # let _ = sealer;
/// ```
pub fn parse_keys(text: &str) -> Result<Vec<[u8; 32]>, KeyError> {
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for item in line.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            keys.push(parse_key(item).map_err(|message| KeyError {
                line: n + 1,
                message,
            })?);
        }
    }
    if keys.is_empty() {
        return Err(KeyError {
            line: 0,
            message: "no key given (one key per line, 64 hex digits)",
        });
    }
    Ok(keys)
}

fn parse_key(hex: &str) -> Result<[u8; 32], &'static str> {
    if hex.len() != 64 {
        return Err("a key is 64 hex digits (32 bytes)");
    }
    let mut key = [0u8; 32];
    for (byte, pair) in key.iter_mut().zip(hex.as_bytes().chunks(2)) {
        let digit = |c: u8| (c as char).to_digit(16);
        match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => *byte = (hi * 16 + lo) as u8,
            _ => return Err("a key holds only hex digits (0-9, a-f)"),
        }
    }
    Ok(key)
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
    const MODES: [Mode; 2] = [Mode::Hmac, Mode::Aead];

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

    fn sealer(mode: Mode) -> Sealer {
        Sealer::new(KEY).with_mode(mode)
    }

    fn decode(token: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(&token[PREFIX.len()..]).unwrap()
    }

    fn encode(bytes: &[u8]) -> String {
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
    }

    /// `token` with its decoded bytes changed by `f`, re-encoded.
    fn edited(token: &str, f: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut bytes = decode(token);
        f(&mut bytes);
        encode(&bytes)
    }

    #[test]
    fn round_trip() {
        for mode in MODES {
            let s = sealer(mode);
            let b = call("alice", "4C");
            let token = s.seal_at(&b, b"state bytes", t0());
            assert!(token.starts_with(PREFIX));
            assert_eq!(
                s.open_at(&b, &token, t0()).unwrap(),
                b"state bytes",
                "{mode:?}"
            );
            // Empty state is fine too.
            let token = s.seal_at(&b, b"", t0());
            assert_eq!(s.open_at(&b, &token, t0()).unwrap(), b"", "{mode:?}");
            // The layout: header, state, tag of the mode's length.
            assert_eq!(decode(&token).len(), HEADER_LEN + mode.tag_len());
            assert_eq!(decode(&token)[0], mode.byte());
        }
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
    fn aead_mode_hides_the_state_and_hmac_mode_does_not() {
        let b = call("alice", "4C");
        let secret = b"card=4111111111111111";
        let find = |token: &str| decode(token).windows(secret.len()).any(|w| w == secret);
        assert!(find(&sealer(Mode::Hmac).seal_at(&b, secret, t0())));
        assert!(!find(&sealer(Mode::Aead).seal_at(&b, secret, t0())));
    }

    #[test]
    fn the_principal_cannot_be_tested_or_linked() {
        for mode in MODES {
            let s = sealer(mode);
            let b = call("alice", "4C");
            let one = decode(&s.seal_at(&b, b"x", t0()));
            let two = decode(&s.seal_at(&b, b"x", t0()));
            // Same principal, request, state and second: still other nonces and other tags.
            assert_ne!(one[NONCE_AT..EXPIRY_AT], two[NONCE_AT..EXPIRY_AT]);
            assert_ne!(one[PRINCIPAL_AT..REQUEST_AT], two[PRINCIPAL_AT..REQUEST_AT]);
            assert_ne!(one[REQUEST_AT..HEADER_LEN], two[REQUEST_AT..HEADER_LEN]);
            // Nothing in the token is a digest of the principal anyone could compute: neither
            // the unkeyed digest the v1 format carried nor a part of it.
            for digest in [b.principal, Sha256::digest(b"alice").into()] {
                for token in [&one, &two] {
                    assert!(!token.windows(8).any(|w| digest.windows(8).any(|d| d == w)));
                }
            }
        }
    }

    #[test]
    fn rejects_tampered_state() {
        for mode in MODES {
            let s = sealer(mode);
            let b = call("alice", "4C");
            let token = s.seal_at(&b, b"approved=false", t0());
            let tampered =
                |t: &str| assert_eq!(s.open_at(&b, t, t0()), Err(SealError::Tampered), "{mode:?}");
            // What the conformance suite does: append to the token.
            tampered(&format!("{token}-TAMPERED"));
            // Flip one bit of every byte in turn, except the key id (an unknown key then).
            let len = decode(&token).len();
            for at in (0..len).filter(|at| !(KEY_ID_AT..NONCE_AT).contains(at)) {
                tampered(&edited(&token, |bytes| bytes[at] ^= 1));
            }
            // Push the expiry forward: the MAC covers it.
            tampered(&edited(&token, |bytes| bytes[EXPIRY_AT] = 0xff));
            // Claim the other mode.
            let other = match mode {
                Mode::Hmac => Mode::Aead,
                Mode::Aead => Mode::Hmac,
            };
            tampered(&edited(&token, |bytes| bytes[0] = other.byte()));
            tampered(&edited(&token, |bytes| bytes[0] = 9));
        }
    }

    #[test]
    fn rejects_truncated_state() {
        for mode in MODES {
            let s = sealer(mode);
            let b = call("alice", "4C");
            let token = s.seal_at(&b, b"approved=false", t0());
            let len = decode(&token).len();
            for keep in [
                len - 1,
                len - mode.tag_len(),
                HEADER_LEN + mode.tag_len() - 1,
                HEADER_LEN,
                5,
                1,
                0,
            ] {
                let cut = edited(&token, |bytes| bytes.truncate(keep));
                assert_eq!(
                    s.open_at(&b, &cut, t0()),
                    Err(SealError::Tampered),
                    "{mode:?} {keep}"
                );
            }
            // Cut in its text, mid-character of the base64.
            let cut = &token[..token.len() - 1];
            assert_eq!(
                s.open_at(&b, cut, t0()),
                Err(SealError::Tampered),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn rejects_malformed_state() {
        let s = Sealer::new(KEY);
        let b = call("alice", "4C");
        // mcps1. is the retired one-key format.
        // mcps2. kept the expiry in whole seconds.
        for bad in [
            "",
            "hello",
            "mcps1.AAAA",
            "mcps2.AAAA",
            "mcps4.AAAA",
            "MCPS3.AAAA",
        ] {
            assert_eq!(
                s.open_at(&b, bad, t0()),
                Err(SealError::Malformed),
                "{bad:?}"
            );
        }
        // The right prefix, but a body that does not decode or is too short to verify.
        for bad in ["mcps3.", "mcps3.!!!!", "mcps3.AAAA", "mcps3.AQ"] {
            assert_eq!(
                s.open_at(&b, bad, t0()),
                Err(SealError::Tampered),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn rejects_unknown_key() {
        for mode in MODES {
            let b = call("alice", "4C");
            // Sealed by a server with another key.
            let token = Sealer::new([1; 32]).with_mode(mode).seal_at(&b, b"x", t0());
            assert_eq!(
                sealer(mode).open_at(&b, &token, t0()),
                Err(SealError::UnknownKey)
            );
            // A key id changed in a genuine token.
            let token = sealer(mode).seal_at(&b, b"x", t0());
            let renamed = edited(&token, |bytes| bytes[KEY_ID_AT] ^= 1);
            assert_eq!(
                sealer(mode).open_at(&b, &renamed, t0()),
                Err(SealError::UnknownKey)
            );
        }
    }

    #[test]
    fn rejects_expired_state() {
        for mode in MODES {
            let s = sealer(mode).with_ttl(Duration::from_secs(60));
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
    }

    #[test]
    fn a_state_sealed_between_whole_seconds_lives_its_whole_ttl() {
        for mode in MODES {
            let s = sealer(mode).with_ttl(Duration::from_secs(1));
            let b = call("alice", "4C");
            let sealed = t0() + Duration::from_millis(999);
            let token = s.seal_at(&b, b"x", sealed);
            // In whole seconds (mcps2.) this state expired at t0 + 1 s, 1 ms after sealing.
            let last = sealed + Duration::from_millis(999);
            assert_eq!(s.open_at(&b, &token, last), Ok(b"x".to_vec()), "{mode:?}");
            let end = sealed + Duration::from_secs(1);
            assert_eq!(
                s.open_at(&b, &token, end),
                Err(SealError::Expired { at: end }),
                "{mode:?}"
            );
        }
    }

    #[test]
    fn a_ttl_with_a_part_of_a_millisecond_is_rounded_up() {
        let s = Sealer::new(KEY).with_ttl(Duration::from_micros(1_500));
        let b = call("alice", "4C");
        let token = s.seal_at(&b, b"x", t0());
        let rounded = t0() + Duration::from_millis(2);
        assert!(
            s.open_at(&b, &token, rounded - Duration::from_micros(1))
                .is_ok()
        );
        assert_eq!(
            s.open_at(&b, &token, rounded),
            Err(SealError::Expired { at: rounded })
        );
    }

    #[test]
    fn expiry_saturates_and_a_time_before_the_epoch_is_expired() {
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(expiry_millis(before, Duration::from_secs(60)), 0);
        assert_eq!(expiry_millis(t0(), Duration::MAX), u64::MAX);
        assert_eq!(
            expiry_millis(t0(), Duration::ZERO),
            1_800_000_000_000,
            "whole milliseconds are kept as they are"
        );
    }

    #[test]
    fn rejects_state_of_another_principal() {
        for mode in MODES {
            let s = sealer(mode);
            let token = s.seal_at(&call("alice", "4C"), b"x", t0());
            assert_eq!(
                s.open_at(&call("mallory", "4C"), &token, t0()),
                Err(SealError::OtherPrincipal)
            );
        }
    }

    #[test]
    fn rejects_state_of_another_request() {
        for mode in MODES {
            let s = sealer(mode);
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
    }

    #[test]
    fn key_ring_rotation() {
        let (old, new) = ([1; 32], [2; 32]);
        let b = call("alice", "4C");
        for mode in MODES {
            let before = Sealer::new(old).with_mode(mode);
            let in_flight = before.seal_at(&b, b"x", t0());
            // Step 1: the new key added after the current one; still seals under the old one.
            let step1 = Sealer::from_keys(&[old, new]).unwrap().with_mode(mode);
            assert_eq!(step1.key_id(), before.key_id());
            assert_eq!(step1.open_at(&b, &in_flight, t0()).unwrap(), b"x");
            // Step 2: the new key current; the old one still opens.
            let step2 = Sealer::new(new).with_previous_key(old).with_mode(mode);
            assert_ne!(step2.key_id(), before.key_id());
            assert_eq!(step2.open_at(&b, &in_flight, t0()).unwrap(), b"x");
            let fresh = step2.seal_at(&b, b"y", t0());
            // An instance still at step 1 opens what step 2 sealed.
            assert_eq!(step1.open_at(&b, &fresh, t0()).unwrap(), b"y");
            assert_eq!(before.open_at(&b, &fresh, t0()), Err(SealError::UnknownKey));
            // Step 3: the old key retired; its states are refused, the new ones open.
            let step3 = Sealer::new(new).with_mode(mode);
            assert_eq!(
                step3.open_at(&b, &in_flight, t0()),
                Err(SealError::UnknownKey)
            );
            assert_eq!(step3.open_at(&b, &fresh, t0()).unwrap(), b"y");
        }
        assert!(Sealer::from_keys(&[]).is_none());
    }

    #[test]
    fn opens_either_mode_seals_the_chosen_one() {
        let b = call("alice", "4C");
        let hmac = sealer(Mode::Hmac);
        let aead = sealer(Mode::Aead);
        assert_eq!(
            hmac.open_at(&b, &aead.seal_at(&b, b"x", t0()), t0())
                .unwrap(),
            b"x"
        );
        assert_eq!(
            aead.open_at(&b, &hmac.seal_at(&b, b"x", t0()), t0())
                .unwrap(),
            b"x"
        );
        assert_eq!(decode(&aead.seal_at(&b, b"x", t0()))[0], Mode::Aead.byte());
        assert_eq!(Sealer::new(KEY).mode(), Mode::Hmac);
    }

    #[test]
    fn is_not_single_use() {
        // Documented behaviour: the same token opens as often as it is presented until it
        // expires. Single use needs a server-side nonce store.
        for mode in MODES {
            let s = sealer(mode);
            let b = call("alice", "4C");
            let token = s.seal_at(&b, b"x", t0());
            for _ in 0..3 {
                assert!(s.open_at(&b, &token, t0()).is_ok());
            }
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
            SealError::UnknownKey.error_object()["data"]["reason"],
            "unknown-key"
        );
        assert_eq!(
            SealError::Expired { at: UNIX_EPOCH }.to_string(),
            "the request state has expired"
        );
    }

    #[test]
    fn debug_does_not_print_the_key() {
        let s = format!("{:?}", Sealer::new(KEY).with_previous_key([43; 32]));
        assert!(!s.contains("42") && !s.contains("43"), "{s}");
        assert!(s.contains("keys: 2"), "{s}");
    }

    #[test]
    fn parses_key_rings() {
        let one = "01".repeat(32);
        let two = "0A".repeat(32);
        let text = format!("# current\n  {one}  \n\n# previous\n{two}\n");
        assert_eq!(parse_keys(&text).unwrap(), vec![[1; 32], [10; 32]]);
        assert_eq!(
            parse_keys(&format!("{one},{two}")).unwrap(),
            vec![[1; 32], [10; 32]]
        );
        let err = |text: &str| parse_keys(text).unwrap_err();
        assert_eq!(err("").line, 0);
        assert_eq!(err("# only a comment\n").line, 0);
        assert_eq!(err(&format!("{one}\nabc\n")).line, 2);
        let bad = format!("{}zz", "0".repeat(62));
        let e = err(&format!("# c\n{bad}"));
        assert_eq!(
            (e.line, e.message),
            (2, "a key holds only hex digits (0-9, a-f)")
        );
        // Non-ASCII of the right byte length is refused, not split inside a character.
        assert!(parse_keys(&"é".repeat(32)).is_err());
        // The message never holds the key.
        assert!(!e.to_string().contains(&bad));
    }
}
