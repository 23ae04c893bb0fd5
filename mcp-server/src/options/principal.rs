//! `--principal-key <file>`: the key that names the principal of a credential when no token is
//! validated ([`Config::principal_key`](crate::Config::principal_key)), 64 hex digits in a file
//! or in [`PrincipalOptions::KEY_VAR`]. Instances that share a store (`--store`) or a seal key
//! ring (`--seal-keys`, `MCP_SEAL_KEYS`: a `requestState` sealed by one is opened by another,
//! or by the same server after a restart) must name principals alike, so either without
//! `--auth-issuer` needs one: the start fails otherwise, naming the option (a random key per
//! process would make every session, task and sealed state of one instance another
//! principal's at the next).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::{Options, OptionsError, Value};
use crate::principal::PrincipalKey;

/// The option, for the usage text.
pub(super) const USAGE: &str = "  --principal-key <file>      64 hex digits that name a credential's principal without --auth-issuer (else $MCP_PRINCIPAL_KEY, else a key of its own; required with --store or a seal key ring)
";

/// A key file larger than this is refused (a key is 64 hex digits and a line end).
const MAX_KEY_FILE: u64 = 4096;

/// Where the principal key comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrincipalOptions {
    /// `--principal-key`: the key's file (else [`PrincipalOptions::KEY_VAR`]).
    pub key_file: Option<PathBuf>,
}

impl PrincipalOptions {
    /// The environment variable that holds the key (64 hex digits) when `--principal-key` is
    /// not given.
    pub const KEY_VAR: &'static str = "MCP_PRINCIPAL_KEY";

    /// Applies `flag` if it is this option's, taking its value from `value`.
    pub(super) fn apply(
        &mut self,
        flag: &str,
        value: Value<'_>,
    ) -> Option<Result<(), OptionsError>> {
        (flag == "--principal-key").then(|| {
            self.key_file = Some(value()?.into());
            Ok(())
        })
    }

    /// Sets `options.config.principal_key` from the file, else from
    /// [`PrincipalOptions::KEY_VAR`]; without either, this process's own key, unless a store
    /// is shared without token validation (refused, naming the option).
    pub(super) fn resolve(options: &mut Options) -> Result<(), OptionsError> {
        let from_env = std::env::var(Self::KEY_VAR).ok().filter(|v| !v.is_empty());
        let shared = if options.auth.is_on() {
            None
        } else if options.store.url()?.is_some() {
            Some("--store")
        } else {
            sealed_by_a_ring(options)
        };
        if let Some(key) = options.principal.key(from_env.as_deref(), shared)? {
            options.config.principal_key = key;
        }
        Ok(())
    }

    /// The key of the file, else of `from_env` (the variable's value); `None` (the process's
    /// own key) without either, refused when principals are `shared` through that option.
    fn key(
        &self,
        from_env: Option<&str>,
        shared: Option<&str>,
    ) -> Result<Option<PrincipalKey>, OptionsError> {
        let invalid =
            |from: &str, e: &dyn std::fmt::Display| OptionsError::Invalid(format!("{from}: {e}"));
        if let Some(file) = &self.key_file {
            let from = format!("--principal-key {}", file.display());
            let text = read_key_file(file).map_err(|e| invalid(&from, &e))?;
            return PrincipalKey::from_hex(&text)
                .map(Some)
                .map_err(|e| invalid(&from, &e));
        }
        if let Some(text) = from_env {
            return PrincipalKey::from_hex(text)
                .map(Some)
                .map_err(|e| invalid(Self::KEY_VAR, &e));
        }
        if let Some(through) = shared {
            return Err(OptionsError::Invalid(format!(
                "{through} without --auth-issuer needs --principal-key <file> (or ${}): the instances (and restarts) must name the same principals",
                Self::KEY_VAR
            )));
        }
        Ok(None)
    }
}

/// The seal key ring's option when one is given (`--seal-keys`, or [`SealOptions::KEYS_VAR`]
/// set), with the `seal` feature.
///
/// [`SealOptions::KEYS_VAR`]: crate::options::SealOptions::KEYS_VAR
#[cfg(feature = "seal")]
fn sealed_by_a_ring(options: &Options) -> Option<&'static str> {
    if options.seal.keys_file.is_some() {
        Some("--seal-keys")
    } else if options.seal.keys_from_environment() {
        Some(crate::options::SealOptions::KEYS_VAR)
    } else {
        None
    }
}

/// No seal key ring without the `seal` feature.
#[cfg(not(feature = "seal"))]
fn sealed_by_a_ring(_: &Options) -> Option<&'static str> {
    None
}

/// The text of the key file, refused past [`MAX_KEY_FILE`] bytes.
fn read_key_file(path: &Path) -> Result<String, String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_KEY_FILE + 1).read_to_string(&mut text))
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(format!("larger than {MAX_KEY_FILE} bytes"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::tests::parse;

    const KEY: &str = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";

    fn key_file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("principal-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file
    }

    #[test]
    fn the_key_file_sets_the_configs_key() {
        let file = key_file("good", &format!("{KEY}\n"));
        let options = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--principal-key",
            file.to_str().unwrap(),
        ])
        .unwrap();
        assert_eq!(
            options.config.principal_key,
            PrincipalKey::from_hex(KEY).unwrap()
        );
        assert_ne!(options.config.principal_key, PrincipalKey::of_process());
    }

    #[test]
    fn a_bad_or_missing_key_file_is_refused_naming_it() {
        let file = key_file("bad", "not a key");
        let shown = file.display().to_string();
        let error = parse(&["--listen", "127.0.0.1:0", "--principal-key", &shown]).unwrap_err();
        assert!(
            error.to_string().starts_with(&format!(
                "--principal-key {shown}: a principal key is 64 hex digits"
            )),
            "{error}"
        );
        let missing = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--principal-key",
            "/nonexistent/key",
        ])
        .unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("--principal-key /nonexistent/key: "),
            "{missing}"
        );
        let big = key_file("big", &"0".repeat(5000));
        let error = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--principal-key",
            big.to_str().unwrap(),
        ])
        .unwrap_err();
        assert!(
            error.to_string().ends_with("larger than 4096 bytes"),
            "{error}"
        );
    }

    #[test]
    fn a_shared_store_needs_a_key_and_the_variable_is_one() {
        let none = PrincipalOptions::default();
        let refused = none.key(None, Some("--store")).unwrap_err();
        assert!(
            refused.to_string().contains("needs --principal-key"),
            "{refused}"
        );
        assert!(
            refused.to_string().contains("$MCP_PRINCIPAL_KEY"),
            "{refused}"
        );
        assert_eq!(none.key(None, None).unwrap(), None);
        let from_env = none.key(Some(KEY), Some("--store")).unwrap();
        assert_eq!(from_env, Some(PrincipalKey::from_hex(KEY).unwrap()));
        let bad = none.key(Some("xyz"), None).unwrap_err();
        assert!(bad.to_string().starts_with("MCP_PRINCIPAL_KEY: "), "{bad}");
        assert!(!bad.to_string().contains("xyz"), "{bad}");
    }

    #[cfg(feature = "seal")]
    #[test]
    fn a_seal_key_ring_without_a_key_is_refused_at_parse() {
        let ring = key_file("ring", KEY);
        let ring = ring.to_str().unwrap();
        let refused = parse(&["--listen", "127.0.0.1:0", "--seal-keys", ring]).unwrap_err();
        let said = refused.to_string();
        assert!(
            said.starts_with("--seal-keys without --auth-issuer needs --principal-key"),
            "{said}"
        );
        let file = key_file("ring-principal", KEY);
        let keyed = [
            "--listen",
            "127.0.0.1:0",
            "--seal-keys",
            ring,
            "--principal-key",
        ];
        let parsed = parse(&[&keyed[..], &[file.to_str().unwrap()]].concat()).unwrap();
        assert_eq!(
            parsed.config.principal_key,
            PrincipalKey::from_hex(KEY).unwrap()
        );
    }

    #[cfg(feature = "redis")]
    #[test]
    fn store_without_a_key_is_refused_at_parse() {
        let refused =
            parse(&["--listen", "127.0.0.1:0", "--store", "redis://127.0.0.1:1"]).unwrap_err();
        assert!(refused.to_string().contains("--principal-key"), "{refused}");
        let file = key_file("store", KEY);
        let args = [
            "--listen",
            "127.0.0.1:0",
            "--store",
            "redis://127.0.0.1:1",
            "--principal-key",
            file.to_str().unwrap(),
        ];
        assert!(parse(&args).is_ok());
    }
}
