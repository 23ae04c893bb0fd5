//! Verifying what a read returned against the held entry: the only way to a
//! [`VerifiedFile`] or a [`VerifiedSkillMd`].

use std::fmt;

use mcp_runtime::skills::{self as rules, Mismatch};
use serde_json::Value;

use super::content::{ContentError, content_bytes};
use super::entry::{Files, HeldEntry};

/// A file of a skill whose content matched the held entry. Only [`HeldEntry::verify`] (and
/// [`HeldEntry::verify_read`]) make one, so holding one means the bytes were verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedFile {
    uri: String,
    bytes: Vec<u8>,
    checked: bool,
}

impl VerifiedFile {
    /// The file's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its verified content.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Its verified content, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Whether its size and digest were checked: `false` only for a file of a dynamic skill
    /// the host opted in to ([`HeldEntry::allow_dynamic`]), which was only checked to be within
    /// the skill root.
    pub fn integrity_checked(&self) -> bool {
        self.checked
    }
}

/// A skill's `SKILL.md` that matched the held entry: size and digest (unless dynamic), UTF-8,
/// and its frontmatter field by field. Only [`HeldEntry::verify_skill_md`] (and
/// [`HeldEntry::verify_skill_md_read`]) make one: the skill may be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSkillMd {
    uri: String,
    text: String,
    checked: bool,
}

impl VerifiedSkillMd {
    /// The `SKILL.md` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its verified text, frontmatter included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its verified text, owned.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Whether its size and digest were checked (`false` only for a dynamic skill).
    pub fn integrity_checked(&self) -> bool {
        self.checked
    }
}

/// Why content read for a skill must not be used (and, for its `SKILL.md`, why the skill
/// must not be loaded).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The URI is not a file the held entry lists (for a dynamic skill: not the `SKILL.md`
    /// nor within the skill root).
    Unlisted {
        /// The skill's `SKILL.md` URI.
        skill: String,
        /// The URI asked for.
        uri: String,
    },
    /// The content's length is not the listed size (a failure whatever its digest).
    Size {
        /// The file's URI.
        uri: String,
        /// The listed size.
        expected: u64,
        /// The content's length.
        actual: u64,
    },
    /// The content's digest is not the listed one.
    Digest {
        /// The file's URI.
        uri: String,
        /// The listed digest.
        expected: String,
        /// The content's.
        actual: String,
    },
    /// The `SKILL.md` is not UTF-8.
    NotUtf8 {
        /// The `SKILL.md` URI.
        uri: String,
        /// Where it fails.
        reason: String,
    },
    /// The `SKILL.md` frontmatter does not parse, or differs from the entry's.
    Frontmatter {
        /// The `SKILL.md` URI.
        uri: String,
        /// The first field that differs (`None`: the frontmatter does not parse).
        field: Option<String>,
        /// Which field differs, or why it does not parse.
        reason: String,
    },
    /// The skill's `resources` are `"dynamic"` and the host did not opt in
    /// ([`HeldEntry::allow_dynamic`]).
    DynamicRefused {
        /// The skill's `SKILL.md` URI.
        skill: String,
    },
    /// The `resources/read` result does not give the file's bytes.
    Content(ContentError),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Unlisted { skill, uri } => {
                write!(f, "skill {skill}: {uri} is not a file its entry lists")
            }
            VerifyError::Size {
                uri,
                expected,
                actual,
            } => write!(
                f,
                "{uri}: {actual} bytes read, the skill entry lists {expected}: content not used"
            ),
            VerifyError::Digest {
                uri,
                expected,
                actual,
            } => write!(
                f,
                "{uri}: content digest {actual}, the skill entry lists {expected}: content not \
                 used"
            ),
            VerifyError::NotUtf8 { uri, reason } => write!(f, "{uri}: not UTF-8: {reason}"),
            VerifyError::Frontmatter { uri, reason, .. } => write!(
                f,
                "{uri}: the frontmatter does not match the skill entry's: {reason}"
            ),
            VerifyError::DynamicRefused { skill } => write!(
                f,
                "skill {skill}: its resources are \"dynamic\" (no integrity) and dynamic skills \
                 were not allowed"
            ),
            VerifyError::Content(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Content(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ContentError> for VerifyError {
    fn from(e: ContentError) -> Self {
        VerifyError::Content(e)
    }
}

impl HeldEntry {
    /// Whether `uri` may be read while acting on this skill: a file the entry lists (for a
    /// dynamic skill the host opted in to, the `SKILL.md` or a URI within the skill root).
    /// Call it before sending `resources/read`, so that nothing else is fetched.
    pub fn check_readable(&self, uri: &str) -> Result<(), VerifyError> {
        match &self.files {
            Files::Listed { files, .. } if files.contains_key(uri) => Ok(()),
            Files::Dynamic if !self.allow_dynamic => Err(VerifyError::DynamicRefused {
                skill: self.uri.clone(),
            }),
            Files::Dynamic if uri == self.uri || self.within_root(uri) => Ok(()),
            _ => Err(VerifyError::Unlisted {
                skill: self.uri.clone(),
                uri: uri.into(),
            }),
        }
    }

    /// Verifies the content read for `uri`: it must be a listed file, of the listed size
    /// (checked first: a wrong length fails as [`VerifyError::Size`] before any hashing), of
    /// the listed digest; the `SKILL.md` must moreover pass [`HeldEntry::verify_skill_md`]'s
    /// checks. For a dynamic skill the host opted in to, only the URI (within the root) and,
    /// for the `SKILL.md`, the frontmatter are checked.
    pub fn verify(&self, uri: &str, bytes: Vec<u8>) -> Result<VerifiedFile, VerifyError> {
        let checked = self.check_integrity(uri, &bytes)?;
        if uri == self.uri {
            self.check_skill_md_text(&bytes)?;
        }
        Ok(VerifiedFile {
            uri: uri.into(),
            bytes,
            checked,
        })
    }

    /// Verifies the content read for the skill's `SKILL.md`: size and digest as
    /// [`HeldEntry::verify`], UTF-8, then its frontmatter parsed and compared field by field
    /// with the entry's (a changed, missing or extra field fails). On an error the skill must
    /// not be loaded and none of its other files read.
    pub fn verify_skill_md(&self, bytes: Vec<u8>) -> Result<VerifiedSkillMd, VerifyError> {
        let checked = self.check_integrity(&self.uri, &bytes)?;
        let text = self.check_skill_md_text(&bytes)?.to_owned();
        Ok(VerifiedSkillMd {
            uri: self.uri.clone(),
            text,
            checked,
        })
    }

    /// [`HeldEntry::verify`] on the bytes of `uri` in a `resources/read` result
    /// ([`content_bytes`]).
    pub fn verify_read(&self, uri: &str, read_result: &Value) -> Result<VerifiedFile, VerifyError> {
        self.check_readable(uri)?;
        self.verify(uri, content_bytes(read_result, uri)?)
    }

    /// [`HeldEntry::verify_skill_md`] on the bytes of the `SKILL.md` in a `resources/read`
    /// result ([`content_bytes`]).
    pub fn verify_skill_md_read(
        &self,
        read_result: &Value,
    ) -> Result<VerifiedSkillMd, VerifyError> {
        self.check_readable(&self.uri)?;
        self.verify_skill_md(content_bytes(read_result, &self.uri)?)
    }

    /// The URI, size and digest checks; whether size and digest were checked (not for a
    /// dynamic skill).
    fn check_integrity(&self, uri: &str, bytes: &[u8]) -> Result<bool, VerifyError> {
        self.check_readable(uri)?;
        let Files::Listed { files, .. } = &self.files else {
            return Ok(false);
        };
        let Some(file) = files.get(uri) else {
            return Err(VerifyError::Unlisted {
                skill: self.uri.clone(),
                uri: uri.into(),
            });
        };
        // Size first: a wrong length fails as such, whether or not the digest would.
        rules::check_file(uri, file.digest(), file.size(), bytes).map_err(
            |mismatch| match mismatch {
                Mismatch::Size {
                    expected, actual, ..
                } => VerifyError::Size {
                    uri: uri.into(),
                    expected,
                    actual,
                },
                Mismatch::Digest {
                    expected, actual, ..
                } => VerifyError::Digest {
                    uri: uri.into(),
                    expected,
                    actual,
                },
                other => VerifyError::Digest {
                    uri: uri.into(),
                    expected: file.digest().into(),
                    actual: other.to_string(),
                },
            },
        )?;
        Ok(true)
    }

    /// The `SKILL.md` text, checked to be UTF-8 with the entry's frontmatter.
    fn check_skill_md_text<'b>(&self, bytes: &'b [u8]) -> Result<&'b str, VerifyError> {
        let text = std::str::from_utf8(bytes).map_err(|e| VerifyError::NotUtf8 {
            uri: self.uri.clone(),
            reason: e.to_string(),
        })?;
        rules::check_frontmatter(&self.uri, &self.frontmatter, text).map_err(|mismatch| {
            VerifyError::Frontmatter {
                uri: self.uri.clone(),
                field: match &mismatch {
                    Mismatch::Frontmatter { field, .. } => Some(field.clone()),
                    _ => None,
                },
                reason: mismatch.to_string(),
            }
        })?;
        Ok(text)
    }
}
