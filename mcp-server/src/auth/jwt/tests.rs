//! The probe of bad tokens, on the validator: each refused, for its reason.

use std::time::Duration;

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode, get_current_timestamp};
use serde_json::{Value, json};

use super::*;
use crate::auth::{KeySet, Rejected, TokenValidator};

const ISSUER: &str = "https://auth.example.com";
const RESOURCE: &str = "https://mcp.example.com/mcp";

fn pem(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/keys/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rsa() -> EncodingKey {
    EncodingKey::from_rsa_pem(&pem("rsa.pem")).unwrap()
}

fn ec() -> EncodingKey {
    EncodingKey::from_ec_pem(&pem("ec.pem")).unwrap()
}

fn ed() -> EncodingKey {
    EncodingKey::from_ed_pem(&pem("ed25519.pem")).unwrap()
}

/// The public JWK of `key` for `alg`, named `kid`.
fn jwk(key: &EncodingKey, alg: Algorithm, kid: &str) -> Jwk {
    let mut jwk = Jwk::from_encoding_key(key, alg).unwrap();
    jwk.common.key_id = Some(kid.to_owned());
    jwk
}

/// The JWKS of the test keys: RSA `rsa-1` (no `alg`: RS256 and PS256), P-256 `ec-1`,
/// Ed25519 `ed-1`.
fn jwks() -> Value {
    let mut any_rsa = jwk(&rsa(), Algorithm::RS256, "rsa-1");
    any_rsa.common.key_algorithm = None;
    let keys = vec![
        any_rsa,
        jwk(&ec(), Algorithm::ES256, "ec-1"),
        jwk(&ed(), Algorithm::EdDSA, "ed-1"),
    ];
    serde_json::to_value(JwkSet { keys }).unwrap()
}

fn validator() -> JwtValidator {
    let keys = KeySet::from_value(&jwks()).unwrap();
    JwtValidator::new(ISSUER, RESOURCE, Jwks::fixed(keys)).leeway(Duration::from_secs(5))
}

/// Claims valid now, for the resource, from the issuer.
fn claims() -> Value {
    let now = get_current_timestamp();
    json!({"iss": ISSUER, "sub": "alice", "aud": RESOURCE, "exp": now + 600, "iat": now,
           "scope": "tools.read tools.write", "scp": ["extra"]})
}

fn sign(alg: Algorithm, kid: Option<&str>, key: &EncodingKey, claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    encode(&header, claims, key).unwrap()
}

fn rs256(claims: &Value) -> String {
    sign(Algorithm::RS256, Some("rsa-1"), &rsa(), claims)
}

fn check(token: &str) -> Result<Grant, Rejected> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(validator().validate(token))
}

fn with(change: impl FnOnce(&mut Value)) -> Value {
    let mut c = claims();
    change(&mut c);
    c
}

#[test]
fn a_valid_token_grants_its_subject_and_scopes() {
    for token in [
        rs256(&claims()),
        sign(Algorithm::PS256, Some("rsa-1"), &rsa(), &claims()),
        sign(Algorithm::ES256, Some("ec-1"), &ec(), &claims()),
        sign(Algorithm::EdDSA, Some("ed-1"), &ed(), &claims()),
    ] {
        let grant = check(&token).unwrap();
        assert_eq!(grant.principal, format!("{ISSUER}#alice"));
        let scopes: Vec<_> = grant.scopes.iter().map(String::as_str).collect();
        assert_eq!(scopes, ["extra", "tools.read", "tools.write"]);
    }
    // An audience array that names the resource among others.
    let many = with(|c| c["aud"] = json!(["https://other.example", RESOURCE]));
    assert!(check(&rs256(&many)).is_ok());
    // No kid: the one key that verifies the algorithm.
    assert!(check(&sign(Algorithm::ES256, None, &ec(), &claims())).is_ok());
}

#[test]
fn bad_claims_are_refused_for_their_reason() {
    let now = get_current_timestamp();
    let cases = [
        (with(|c| c["exp"] = json!(now - 60)), Rejected::Expired),
        (with(|c| c["nbf"] = json!(now + 600)), Rejected::NotYetValid),
        (
            with(|c| c["aud"] = json!("https://mcp.example.com/other")),
            Rejected::Audience,
        ),
        (
            with(|c| c["iss"] = json!("https://evil.example")),
            Rejected::Issuer,
        ),
        (
            with(|c| drop(c.as_object_mut().unwrap().remove("sub"))),
            Rejected::MissingClaim("sub".into()),
        ),
        (
            with(|c| drop(c.as_object_mut().unwrap().remove("exp"))),
            Rejected::MissingClaim("exp".into()),
        ),
        (
            with(|c| drop(c.as_object_mut().unwrap().remove("aud"))),
            Rejected::MissingClaim("aud".into()),
        ),
    ];
    for (claims, reason) in cases {
        assert_eq!(check(&rs256(&claims)).unwrap_err(), reason, "{claims}");
    }
}

#[test]
fn bad_signatures_keys_and_algorithms_are_refused() {
    let other = EncodingKey::from_rsa_pem(&pem("rsa-other.pem")).unwrap();
    let forged = sign(Algorithm::RS256, Some("rsa-1"), &other, &claims());
    assert_eq!(check(&forged).unwrap_err(), Rejected::Signature);
    let unknown = sign(Algorithm::RS256, Some("rsa-9"), &rsa(), &claims());
    assert_eq!(check(&unknown).unwrap_err(), Rejected::UnknownKey);
    // HS256 with the RSA public key as the secret: algorithm confusion.
    let secret = EncodingKey::from_secret(&pem("rsa.pub.pem")).unwrap();
    let confused = sign(Algorithm::HS256, Some("rsa-1"), &secret, &claims());
    assert_eq!(check(&confused).unwrap_err(), Rejected::Algorithm);
    // ES256 naming the RSA key.
    let mismatched = sign(Algorithm::ES256, Some("rsa-1"), &ec(), &claims());
    assert_eq!(check(&mismatched).unwrap_err(), Rejected::Algorithm);
    // A key whose `alg` is RS256 verifies nothing else.
    let pinned = serde_json::to_value(JwkSet {
        keys: vec![jwk(&rsa(), Algorithm::RS256, "rsa-1")],
    })
    .unwrap();
    let pinned = JwtValidator::new(
        ISSUER,
        RESOURCE,
        Jwks::fixed(KeySet::from_value(&pinned).unwrap()),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let ps = sign(Algorithm::PS256, Some("rsa-1"), &rsa(), &claims());
    assert_eq!(
        rt.block_on(pinned.validate(&ps)).unwrap_err(),
        Rejected::Algorithm
    );
    assert!(rt.block_on(pinned.validate(&rs256(&claims()))).is_ok());
    // alg none, unsigned.
    let b64 = |v: &Value| base64url(&v.to_string());
    let none = format!(
        "{}.{}.",
        b64(&json!({"alg": "none", "typ": "JWT"})),
        b64(&claims())
    );
    assert!(check(&none).is_err());
    // A PS256-only validator refuses RS256.
    let ps_only = validator().algorithms(&[Algorithm::PS256, Algorithm::HS256]);
    let refused = rt
        .block_on(ps_only.validate(&rs256(&claims())))
        .unwrap_err();
    assert_eq!(refused, Rejected::Algorithm);
}

#[test]
fn malformed_and_oversized_tokens_are_refused_before_use() {
    for bad in ["", "abc", "a.b", "a.b.c", "....", "e30.e30.e30"] {
        assert!(
            matches!(
                check(bad),
                Err(Rejected::Malformed(_) | Rejected::Algorithm)
            ),
            "{bad}: {:?}",
            check(bad)
        );
    }
    let huge = "a".repeat(JwtValidator::MAX_TOKEN + 1);
    assert_eq!(
        check(&huge).unwrap_err(),
        Rejected::TooLarge(JwtValidator::MAX_TOKEN)
    );
    // A valid token beyond a smaller bound.
    let small = validator().max_token(64);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let refused = rt.block_on(small.validate(&rs256(&claims()))).unwrap_err();
    assert_eq!(refused, Rejected::TooLarge(64));
}

#[test]
fn a_key_set_keeps_only_asymmetric_signature_keys() {
    let mixed = json!({"keys": [
        {"kty": "oct", "k": "c2VjcmV0", "kid": "hmac"},
        {"kty": "RSA", "use": "enc", "n": "AQAB", "e": "AQAB", "kid": "enc"},
        {"kty": "weird", "kid": "x"},
        jwks()["keys"][1],
    ]});
    let keys = KeySet::from_value(&mixed).unwrap();
    assert_eq!(keys.len(), 1);
    let only_secret = json!({"keys": [{"kty": "oct", "k": "c2VjcmV0"}]});
    assert_eq!(
        KeySet::from_value(&only_secret).unwrap_err(),
        crate::auth::KeySetError::NoKey
    );
    assert!(KeySet::from_json("[]").is_err());
    assert!(KeySet::from_json("not json").is_err());
}

#[test]
fn a_required_typ_is_checked_in_its_short_form_and_any_case() {
    let typed = |typ: Option<&str>| {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("ec-1".to_owned());
        header.typ = typ.map(str::to_owned);
        encode(&header, &claims(), &ec()).unwrap()
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let strict = validator().require_typ("at+jwt");
    assert_eq!(strict.required_typ(), Some("at+jwt"));
    for accepted in [
        "at+jwt",
        "AT+JWT",
        "application/at+jwt",
        "Application/At+JWT",
    ] {
        let grant = rt.block_on(strict.validate(&typed(Some(accepted))));
        assert!(grant.is_ok(), "{accepted}: {grant:?}");
    }
    for refused in [
        None,
        Some("JWT"),
        Some("application/jwt"),
        Some("at+jwt2"),
        Some(""),
    ] {
        let refusal = rt.block_on(strict.validate(&typed(refused))).unwrap_err();
        assert_eq!(refusal, Rejected::Type, "{refused:?}");
    }
    // Given in its long form, the same requirement.
    let long = validator().require_typ("Application/AT+JWT");
    assert_eq!(long.required_typ(), Some("at+jwt"));
    assert!(rt.block_on(long.validate(&typed(Some("at+jwt")))).is_ok());
    // Off by default: any typ, or none.
    assert_eq!(validator().required_typ(), None);
    for typ in [None, Some("JWT"), Some("anything")] {
        assert!(check(&typed(typ)).is_ok(), "{typ:?}");
    }
}

/// base64url without padding, for the hand-made `alg: none` token.
fn base64url(text: &str) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}
