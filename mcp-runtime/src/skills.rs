//! The Skills extension (`io.modelcontextprotocol/skills`): the pieces a server and a client
//! share.
//!
//! A skill is a directory whose `SKILL.md` opens with YAML frontmatter naming it and saying
//! what it is for. Each of its files is a resource `skill://<skill-path>/<file-path>`, where the
//! last segment of the skill path is the skill's name. A skill's entry lists every file with
//! its size and a SHA-256 digest, so a client can check what it reads against what was listed.
//!
//! - [`frontmatter`]: the frontmatter of a `SKILL.md` as a JSON object.
//! - [`valid_name`]: the naming rules of a skill.
//! - [`skill_name`], [`skill_root`]: what a `SKILL.md` URI says.
//! - [`digest`], [`is_digest`]: the `sha256:<hex>` form of a file's digest.
//! - [`check_file`], [`check_frontmatter`]: a file read compared with its listing.
//!
//! ```
//! use mcp_runtime::skills::{check_file, digest, frontmatter};
//!
//! let text = "---\nname: refunds\ndescription: Issue refunds\n---\n# Refunds\n";
//! assert_eq!(frontmatter(text)?["name"], "refunds");
//!
//! let listed = digest(text.as_bytes());
//! assert!(listed.starts_with("sha256:") && listed.len() == 7 + 64);
//! let uri = "skill://refunds/SKILL.md";
//! check_file(uri, &listed, text.len() as u64, text.as_bytes())?;
//! assert!(check_file(uri, &listed, text.len() as u64, b"changed").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod frontmatter;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

pub use frontmatter::{FrontmatterError, frontmatter};

/// The file that makes a directory a skill.
pub const SKILL_FILE: &str = "SKILL.md";
/// The most files one skill may hold (its `SKILL.md` and nested skills' files included).
pub const MAX_FILES: usize = 512;
/// The most bytes all files of one skill may add up to (16 MiB).
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// The MIME type of a directory resource.
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";
/// The MIME type of a `SKILL.md` resource.
pub const SKILL_MIME_TYPE: &str = "text/markdown";

/// The prefix of every digest.
const DIGEST_PREFIX: &str = "sha256:";
/// The longest skill name.
const MAX_NAME_CHARS: usize = 64;

/// The digest of a file's raw bytes as listed in a skill entry: `sha256:` and 64 lowercase
/// hex digits.
///
/// ```
/// assert_eq!(
///     mcp_runtime::skills::digest(b""),
///     "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
/// );
/// ```
pub fn digest(bytes: &[u8]) -> String {
    let hex = base16ct::lower::encode_string(&Sha256::digest(bytes));
    format!("{DIGEST_PREFIX}{hex}")
}

/// Whether `s` has the form of a digest: `sha256:` and exactly 64 lowercase hex digits.
pub fn is_digest(s: &str) -> bool {
    s.strip_prefix(DIGEST_PREFIX).is_some_and(|hex| {
        hex.len() == 64
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Whether `name` follows the skill naming rules: 1 to 64 characters among lowercase ASCII
/// letters, digits and hyphens, neither starting nor ending with a hyphen, and no two hyphens
/// in a row.
///
/// ```
/// use mcp_runtime::skills::valid_name;
///
/// assert!(valid_name("pdf-processing"));
/// assert!(!valid_name("PDF") && !valid_name("-pdf") && !valid_name("pdf--forms"));
/// ```
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
}

/// The skill root of a `SKILL.md` URI: the URI without its final `/SKILL.md`
/// (`skill://acme/billing/refunds/SKILL.md` gives `skill://acme/billing/refunds`). `None` when
/// the URI has no `scheme://`, does not end with `/SKILL.md`, or has an empty skill path.
pub fn skill_root(skill_md_uri: &str) -> Option<&str> {
    let root = skill_md_uri.strip_suffix(SKILL_FILE)?.strip_suffix('/')?;
    let (_, path) = root.split_once("://")?;
    (!path.is_empty() && !path.ends_with('/')).then_some(root)
}

/// The skill name a `SKILL.md` URI carries: the segment before its final `/SKILL.md`
/// (`skill://acme/billing/refunds/SKILL.md` gives `refunds`), whatever the scheme. `None` when
/// [`skill_root`] is `None`.
///
/// ```
/// use mcp_runtime::skills::{skill_name, skill_root};
///
/// let uri = "skill://acme/billing/refunds/SKILL.md";
/// assert_eq!(skill_root(uri), Some("skill://acme/billing/refunds"));
/// assert_eq!(skill_name(uri), Some("refunds"));
/// assert_eq!(skill_name("skill://refunds/README.md"), None);
/// ```
pub fn skill_name(skill_md_uri: &str) -> Option<&str> {
    let root = skill_root(skill_md_uri)?;
    let (_, path) = root.split_once("://")?;
    path.rsplit('/').next()
}

/// How a file read differs from its skill entry.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Mismatch {
    /// The file's length is not the listed size.
    #[error("{uri}: listed with size {expected} bytes, read {actual} bytes")]
    Size {
        /// The file's URI.
        uri: String,
        /// The size the entry lists.
        expected: u64,
        /// The length of the bytes read.
        actual: u64,
    },
    /// The file's digest is not the listed one.
    #[error("{uri}: listed with digest {expected}, the bytes read have {actual}")]
    Digest {
        /// The file's URI.
        uri: String,
        /// The digest the entry lists.
        expected: String,
        /// The digest of the bytes read.
        actual: String,
    },
    /// A frontmatter field of the `SKILL.md` read differs from the entry's.
    #[error(
        "{uri}: frontmatter field `{field}`: the entry has {}, the SKILL.md has {}",
        shown(expected.as_ref()),
        shown(actual.as_ref())
    )]
    Frontmatter {
        /// The `SKILL.md` URI.
        uri: String,
        /// The first field that differs.
        field: String,
        /// The entry's value (`None`: the entry lacks the field).
        expected: Option<Value>,
        /// The file's value (`None`: the file lacks the field).
        actual: Option<Value>,
    },
    /// The `SKILL.md` read has no valid frontmatter.
    #[error("the SKILL.md read has no valid frontmatter: {0}")]
    Unparsable(#[from] FrontmatterError),
}

/// A value for a message: its JSON text, or "no such field".
fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "no such field".to_owned(), Value::to_string)
}

/// Checks the bytes read for `uri` against the size and digest its entry lists: the size
/// first (cheap), then the digest.
pub fn check_file(
    uri: &str,
    expected_digest: &str,
    expected_size: u64,
    bytes: &[u8],
) -> Result<(), Mismatch> {
    let actual = bytes.len() as u64;
    if actual != expected_size {
        return Err(Mismatch::Size {
            uri: uri.to_owned(),
            expected: expected_size,
            actual,
        });
    }
    let actual = digest(bytes);
    if actual != expected_digest {
        return Err(Mismatch::Digest {
            uri: uri.to_owned(),
            expected: expected_digest.to_owned(),
            actual,
        });
    }
    Ok(())
}

/// Checks the frontmatter of the `SKILL.md` at `uri`, read as `skill_md_text`, against the
/// frontmatter its skill entry lists (`listed`), field by field. The entry's fields are compared in order, then the file's fields the entry lacks; the
/// first difference is the error. Numbers compare by value (`1` and `1.0` are the same), and
/// a field set to null is the same as a field left out (as the conformance suite compares).
///
/// ```
/// use mcp_runtime::skills::{Mismatch, check_frontmatter};
///
/// let listed = serde_json::json!({"name": "refunds", "description": "Issue refunds"});
/// let (uri, listed) = ("skill://refunds/SKILL.md", listed.as_object().unwrap());
/// check_frontmatter(uri, listed, "---\nname: refunds\ndescription: Issue refunds\n---\n")?;
/// let error = check_frontmatter(uri, listed, "---\nname: refunds\ndescription: Other\n---\n");
/// assert!(matches!(error, Err(Mismatch::Frontmatter { ref field, .. }) if field == "description"));
/// # Ok::<(), Mismatch>(())
/// ```
pub fn check_frontmatter(
    uri: &str,
    listed: &Map<String, Value>,
    skill_md_text: &str,
) -> Result<(), Mismatch> {
    let read = frontmatter(skill_md_text)?;
    let differs = |field: &String| -> Option<Mismatch> {
        let (expected, actual) = (listed.get(field), read.get(field));
        let equal = same(
            expected.unwrap_or(&Value::Null),
            actual.unwrap_or(&Value::Null),
        );
        (!equal).then(|| Mismatch::Frontmatter {
            uri: uri.to_owned(),
            field: field.clone(),
            expected: expected.cloned(),
            actual: actual.cloned(),
        })
    };
    let extra = read.keys().filter(|k| !listed.contains_key(*k));
    match listed.keys().chain(extra).find_map(differs) {
        Some(mismatch) => Err(mismatch),
        None => Ok(()),
    }
}

/// JSON equality where numbers compare by value, whatever their representation.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                    (Some(p), Some(q), _, _) => p == q,
                    (_, _, Some(p), Some(q)) => p == q,
                    _ => x.as_f64().is_some_and(|p| y.as_f64() == Some(p)),
                }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| same(p, q)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn digest_has_the_listed_form() {
        let d = digest(b"hello");
        assert_eq!(
            d,
            "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert!(is_digest(&d));
        assert!(!is_digest(&d.to_uppercase()));
        assert!(!is_digest(&d.replace("sha256:", "sha512:")));
        assert!(!is_digest(&d[..d.len() - 1]));
        assert!(!is_digest(&format!("{d}0")));
        assert!(!is_digest("sha256:zz"));
    }

    #[test]
    fn names_follow_the_rules() {
        for good in ["a", "pdf-processing", "x1", "a-b-c", &"a".repeat(64)] {
            assert!(valid_name(good), "{good}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "A",
            "a_b",
            "a.b",
            "é",
            "a b",
            &"a".repeat(65),
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn uris_give_root_and_name() {
        assert_eq!(
            skill_root("skill://git-workflow/SKILL.md"),
            Some("skill://git-workflow")
        );
        assert_eq!(
            skill_name("skill://git-workflow/SKILL.md"),
            Some("git-workflow")
        );
        assert_eq!(skill_name("other://a/b/c/SKILL.md"), Some("c"));
        assert_eq!(skill_name("skill://SKILL.md"), None);
        assert_eq!(skill_name("skill:///SKILL.md"), None);
        assert_eq!(skill_name("skill://a//SKILL.md"), None);
        assert_eq!(skill_name("a/SKILL.md"), None);
        assert_eq!(skill_name("skill://a/skill.md"), None);
        assert_eq!(skill_name("skill://a/XSKILL.md"), None);
    }

    #[test]
    fn check_file_compares_size_then_digest() {
        let bytes = b"content";
        let listed = digest(bytes);
        assert_eq!(check_file("skill://a/f", &listed, 7, bytes), Ok(()));
        let error = check_file("skill://a/f", &listed, 8, b"changed").unwrap_err();
        assert_eq!(
            error,
            Mismatch::Size {
                uri: "skill://a/f".into(),
                expected: 8,
                actual: 7
            }
        );
        assert_eq!(
            error.to_string(),
            "skill://a/f: listed with size 8 bytes, read 7 bytes"
        );
        let error = check_file("skill://a/f", &listed, 7, b"CONTENT").unwrap_err();
        assert!(
            matches!(&error, Mismatch::Digest { actual, .. } if *actual == digest(b"CONTENT")),
            "{error}"
        );
        assert!(error.to_string().contains(&listed), "{error}");
    }

    #[test]
    fn check_frontmatter_names_the_first_differing_field() {
        let text = "---\nname: refunds\ndescription: Refunds\nmetadata:\n  version: \"1.2.0\"\nlevel: 1.0\n---\n";
        let listed = json!({"name": "refunds", "description": "Refunds", "metadata": {"version": "1.2.0"}, "level": 1});
        let listed = listed.as_object().unwrap();
        let uri = "skill://acme/refunds/SKILL.md";
        assert_eq!(check_frontmatter(uri, listed, text), Ok(()));

        let other = text.replace("1.2.0", "1.3.0");
        let error = check_frontmatter(uri, listed, &other).unwrap_err();
        assert_eq!(
            error,
            Mismatch::Frontmatter {
                uri: uri.into(),
                field: "metadata".into(),
                expected: Some(json!({"version": "1.2.0"})),
                actual: Some(json!({"version": "1.3.0"})),
            }
        );
        assert!(
            error
                .to_string()
                .starts_with("skill://acme/refunds/SKILL.md: frontmatter field `metadata`"),
            "{error}"
        );

        let extra = text.replace("level", "license: MIT\nlevel");
        let error = check_frontmatter(uri, listed, &extra).unwrap_err();
        assert!(
            matches!(&error, Mismatch::Frontmatter { field, expected: None, .. } if field == "license"),
            "{error}"
        );
        assert!(
            error.to_string().contains("the entry has no such field"),
            "{error}"
        );
    }

    #[test]
    fn check_frontmatter_reports_missing_fields_and_bad_files() {
        let uri = "skill://a/SKILL.md";
        let bare = json!({"name": "a", "description": "b", "license": "MIT"});
        let bare = bare.as_object().unwrap();
        let error =
            check_frontmatter(uri, bare, "---\nname: a\ndescription: b\n---\n").unwrap_err();
        assert!(
            matches!(&error, Mismatch::Frontmatter { field, actual: None, .. } if field == "license"),
            "{error}"
        );
        let nulls = json!({"name": "a", "description": "b", "extra": null});
        let nulls = nulls.as_object().unwrap();
        assert_eq!(
            check_frontmatter(uri, nulls, "---\nname: a\ndescription: b\n---\n"),
            Ok(())
        );
        assert_eq!(
            check_frontmatter(
                uri,
                bare,
                "---\nname: a\ndescription: b\nlicense: MIT\nx: ~\n---\n"
            ),
            Ok(())
        );
        let error = check_frontmatter(uri, bare, "no frontmatter").unwrap_err();
        assert_eq!(error, Mismatch::Unparsable(FrontmatterError::NoOpening));
    }
}
