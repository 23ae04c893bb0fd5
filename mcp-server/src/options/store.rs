//! `--store <url>`: where the state that several instances share lives (tasks, changes,
//! legacy sessions). Without it, and without [`StoreOptions::URL_VAR`], each instance keeps its
//! own in memory.

use super::{OptionsError, Value};

/// The store option, for the usage text.
pub(super) const USAGE: &str = "  --store <redis://host:port> share tasks, changes and legacy sessions with the other instances through this Redis (rediss:// over TLS; else $MCP_STORE, else memory)
";

/// Where the shared state lives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreOptions {
    /// `--store`: a `redis://` URL, or `rediss://` (TLS, feature `redis-tls`).
    pub url: Option<String>,
}

impl StoreOptions {
    /// The environment variable read when `--store` is not given.
    pub const URL_VAR: &'static str = "MCP_STORE";

    /// Applies `flag` if it is this option's, taking its value from `value`.
    pub(super) fn apply(
        &mut self,
        flag: &str,
        value: Value<'_>,
    ) -> Option<Result<(), OptionsError>> {
        (flag == "--store").then(|| {
            let url = value()?;
            self.url = Some(checked(&url, flag)?);
            Ok(())
        })
    }

    /// The store's URL: `--store`, else [`StoreOptions::URL_VAR`] (empty: none), else none
    /// (memory).
    pub fn url(&self) -> Result<Option<String>, OptionsError> {
        if let Some(url) = &self.url {
            return Ok(Some(url.clone()));
        }
        match std::env::var(Self::URL_VAR) {
            Ok(url) if url.is_empty() => Ok(None),
            Ok(url) => checked(&url, Self::URL_VAR).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// Connects to the store when there is one (feature `redis`). Fails when the URL is not
    /// reachable now, so that a misconfigured instance stops at start.
    #[cfg(feature = "redis")]
    pub async fn connect(&self) -> Result<Option<std::sync::Arc<crate::redis::Redis>>, String> {
        let Some(url) = self.url().map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        match crate::redis::Redis::connect(&url).await {
            Ok(redis) => Ok(Some(redis)),
            Err(e) => Err(format!("--store {}: {e}", redact(&url))),
        }
    }
}

/// `url` if it names a Redis (`redis://`, or `rediss://` with the `redis-tls` feature), else
/// the error that names where it came from.
fn checked(url: &str, from: &str) -> Result<String, OptionsError> {
    let tls = url.starts_with("rediss://");
    if !tls && !url.starts_with("redis://") {
        let shown = redact(url);
        return Err(OptionsError::Invalid(format!(
            "{from} {shown}: not a redis:// or rediss:// URL (the one store there is)"
        )));
    }
    if cfg!(not(feature = "redis")) {
        return Err(OptionsError::Invalid(format!(
            "{from}: this server was built without mcp-server's `redis` feature"
        )));
    }
    if tls && cfg!(not(feature = "redis-tls")) {
        return Err(OptionsError::Invalid(format!(
            "{from} {}: this server was built without mcp-server's `redis-tls` feature (Redis over TLS)",
            redact(url)
        )));
    }
    Ok(url.to_owned())
}

/// `url` without the password it may hold (`redis://user:secret@host` shows `user:***`).
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((credentials, host)) => {
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Options, OptionsError};

    fn parse(args: &[&str]) -> Result<Options, OptionsError> {
        Options::parse(args.iter().map(|a| (*a).to_owned()))
    }

    #[test]
    fn a_store_is_a_redis_url() {
        let error =
            parse(&["--listen", "127.0.0.1:0", "--store", "postgres://u:pw@h/db"]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("not a redis:// or rediss:// URL"),
            "{error}"
        );
        assert!(!error.to_string().contains("pw"), "{error}");
        // The instances share principals too: a key is needed (`options::principal`).
        let key = std::env::temp_dir().join(format!("store-key-{}", std::process::id()));
        std::fs::write(&key, "42".repeat(32)).unwrap();
        let parsed = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--store",
            "redis://127.0.0.1:6379",
            "--principal-key",
            key.to_str().unwrap(),
        ]);
        if cfg!(feature = "redis") {
            let url = parsed.unwrap().store.url().unwrap();
            assert_eq!(url.as_deref(), Some("redis://127.0.0.1:6379"));
        } else {
            assert!(parsed.unwrap_err().to_string().contains("without"));
        }
    }

    #[test]
    fn a_tls_store_needs_the_redis_tls_feature() {
        let checked = checked("rediss://user:secret@redis.internal:6380", "--store");
        if cfg!(feature = "redis-tls") {
            assert_eq!(checked.unwrap(), "rediss://user:secret@redis.internal:6380");
        } else {
            let error = checked.unwrap_err().to_string();
            assert!(error.contains("without"), "{error}");
            assert!(!error.contains("secret"), "{error}");
        }
    }

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(redact("redis://user:secret@h:1"), "redis://user:***@h:1");
        assert_eq!(redact("redis://h:1"), "redis://h:1");
    }
}
