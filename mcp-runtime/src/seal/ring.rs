//! Where a server finds its key ring when it starts: a file, else an environment variable,
//! else one fresh random key of its own ([`Sealer::from_ring`]).

use std::fmt;
use std::io::Read as _;
use std::path::Path;

use super::{Sealer, parse_keys};

/// A key ring file larger than this is refused (a ring of 60 keys is 4 KiB).
pub const MAX_KEY_FILE: u64 = 64 * 1024;

/// Why a key ring could not be had: where it was looked for, and what went wrong there.
/// Never includes key material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingError {
    /// The file's path or the environment variable's name.
    pub source: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for RingError {}

impl Sealer {
    /// The sealer of the key ring in `file` if given, else in the environment variable `var`
    /// if set, else of one fresh random key (states sealed by another process, or by an
    /// earlier run, are then refused). The ring is read by [`parse_keys`]; a file over
    /// [`MAX_KEY_FILE`] bytes is refused. Instances that share a ring open each other's states.
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use mcp_runtime::seal::Sealer;
    ///
    /// let dir = std::env::temp_dir().join(format!("ring-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let file = dir.join("keys");
    /// std::fs::write(&file, format!("{}\n{}\n", "01".repeat(32), "02".repeat(32)))?;
    /// let a = Sealer::from_ring(Some(&file), "UNSET_FOR_THIS_EXAMPLE")?;
    /// let b = Sealer::from_ring(Some(&file), "UNSET_FOR_THIS_EXAMPLE")?;
    /// assert_eq!(a.key_id(), b.key_id()); // the same current key
    ///
    /// let own = Sealer::from_ring(None, "UNSET_FOR_THIS_EXAMPLE")?; // a random key
    /// assert_ne!(own.key_id(), a.key_id());
    ///
    /// std::fs::write(&file, "not a key\n")?;
    /// let refused = Sealer::from_ring(Some(&file), "UNSET_FOR_THIS_EXAMPLE").unwrap_err();
    /// assert!(refused.to_string().ends_with("line 1: a key is 64 hex digits (32 bytes)"));
    /// # std::fs::remove_dir_all(&dir)?; Ok(()) }
    /// ```
    pub fn from_ring(file: Option<&Path>, var: &str) -> Result<Sealer, RingError> {
        let (source, text) = match file {
            Some(path) => (path.display().to_string(), Some(read_key_file(path)?)),
            None => (var.to_owned(), std::env::var(var).ok()),
        };
        let keys = match text {
            Some(text) => parse_keys(&text).map_err(|e| RingError {
                source: source.clone(),
                message: e.to_string(),
            })?,
            None => vec![random_key()?],
        };
        Sealer::from_keys(&keys).ok_or(RingError {
            source,
            message: "no sealing key".to_owned(),
        })
    }
}

/// A fresh 256-bit key from the operating system's random source.
pub fn random_key() -> Result<[u8; 32], RingError> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| RingError {
        source: "the operating system's random source".to_owned(),
        message: e.to_string(),
    })?;
    Ok(key)
}

/// The key ring file's text, refused past [`MAX_KEY_FILE`] bytes.
fn read_key_file(path: &Path) -> Result<String, RingError> {
    let fail = |message: String| RingError {
        source: path.display().to_string(),
        message,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .map_err(|e| fail(e.to_string()))?
        .take(MAX_KEY_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(fail(format!("larger than {MAX_KEY_FILE} bytes")));
    }
    Ok(text)
}
