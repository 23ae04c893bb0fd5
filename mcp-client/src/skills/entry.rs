//! A skill entry as the host holds it: read from `skills/list` or `skills/get`, checked once,
//! then the reference every later read of the skill is verified against.

use std::collections::BTreeMap;
use std::fmt;

use mcp_runtime::skills::{self as rules, MAX_FILES, MAX_TOTAL_BYTES};
use serde_json::{Map, Value};

/// The value of `resources` that says the skill's files are not enumerated (no integrity).
const DYNAMIC: &str = "dynamic";

/// One file of a skill as its entry lists it: the digest and size its content must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    digest: String,
    size: u64,
}

impl FileEntry {
    /// Its digest, `sha256:` and 64 lowercase hex digits.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }
}

/// What the entry says of the skill's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Files {
    /// Every file, SKILL.md included, by URI, with the sum of their sizes.
    Listed {
        files: BTreeMap<String, FileEntry>,
        total: u64,
    },
    /// `"dynamic"`: not enumerated, no digests.
    Dynamic,
}

/// A skill entry the host holds, checked against the extension's rules when built: its URI
/// is a `SKILL.md` whose skill-path ends in the skill's valid name, its frontmatter has a
/// non-empty `name` (that name) and `description`, and its `resources` are either `"dynamic"`
/// or complete (the `SKILL.md` listed, no URI twice, every URI within the skill root, digests
/// well-formed) and within the limits ([`MAX_FILES`], [`MAX_TOTAL_BYTES`]).
///
/// Building one reads nothing from the server; reading a skill's files and verifying them
/// against it is [`HeldEntry::verify_skill_md`] and [`HeldEntry::verify`].
#[derive(Debug, Clone, PartialEq)]
pub struct HeldEntry {
    pub(crate) uri: String,
    pub(crate) root: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) frontmatter: Map<String, Value>,
    pub(crate) files: Files,
    pub(crate) allow_dynamic: bool,
}

/// Why a skill entry is not one the host may hold (and so must not load).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EntryError {
    /// The entry could not be turned into JSON (`from_entry`).
    Serialize(String),
    /// The entry is not a JSON object, or its `uri` is missing or not a string.
    NoUri,
    /// The `uri` is not `<scheme>://<skill-path>/SKILL.md`, or a segment of its skill-path is
    /// empty, a dot segment or hides a separator (`%2F`, `%5C`, `\`).
    NotSkillMd {
        /// The entry's URI.
        uri: String,
    },
    /// The last segment of the skill-path is not a valid skill name (1 to 64 lowercase
    /// letters, digits and single hyphens, none leading or trailing).
    InvalidName {
        /// The entry's URI.
        uri: String,
        /// The segment.
        name: String,
    },
    /// `frontmatter` is missing or not an object.
    NoFrontmatter {
        /// The entry's URI.
        uri: String,
    },
    /// A required frontmatter field (`name`, `description`) is missing, not a string or
    /// empty.
    MissingField {
        /// The entry's URI.
        uri: String,
        /// The field.
        field: &'static str,
    },
    /// The frontmatter `name` is not the last segment of the skill-path.
    NameMismatch {
        /// The entry's URI.
        uri: String,
        /// The frontmatter's name.
        name: String,
    },
    /// `resources` is neither an array nor `"dynamic"`.
    InvalidResources {
        /// The entry's URI.
        uri: String,
        /// What it is instead (JSON, shortened).
        found: String,
    },
    /// An item of `resources` is not `{ "uri": string, "digest": "sha256:<hex>", "size":
    /// integer }`.
    InvalidFile {
        /// The entry's URI.
        uri: String,
        /// The item's index in `resources`.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A listed file is neither the `SKILL.md` nor within the skill root (below it, each
    /// segment a plain name: no `.`, `..`, `%2F`, `%5C` or `\` in one).
    OutsideRoot {
        /// The entry's URI.
        uri: String,
        /// The file's URI.
        file: String,
    },
    /// A file is listed twice.
    Duplicate {
        /// The entry's URI.
        uri: String,
        /// The file's URI.
        file: String,
    },
    /// `resources` does not list the `SKILL.md` itself, so it is not complete.
    SkillMdUnlisted {
        /// The entry's URI.
        uri: String,
    },
    /// More files than [`MAX_FILES`].
    TooManyFiles {
        /// The entry's URI.
        uri: String,
        /// How many are listed.
        count: usize,
    },
    /// The listed sizes add up to more than [`MAX_TOTAL_BYTES`].
    TooLarge {
        /// The entry's URI.
        uri: String,
        /// Their sum (saturated at `u64::MAX`).
        total: u64,
    },
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::Serialize(e) => write!(f, "skill entry: cannot be read as JSON: {e}"),
            EntryError::NoUri => write!(f, "skill entry: not an object with a string `uri`"),
            EntryError::NotSkillMd { uri } => write!(
                f,
                "skill entry {uri}: the uri is not <scheme>://<skill-path>/SKILL.md with plain \
                 segments (no `.`, `..`, `%2F`, `%5C` or `\\` in one)"
            ),
            EntryError::InvalidName { uri, name } => write!(
                f,
                "skill entry {uri}: {name:?} is not a valid skill name (1-64 lowercase \
                 letters, digits and single inner hyphens)"
            ),
            EntryError::NoFrontmatter { uri } => {
                write!(
                    f,
                    "skill entry {uri}: `frontmatter` is missing or not an object"
                )
            }
            EntryError::MissingField { uri, field } => write!(
                f,
                "skill entry {uri}: frontmatter `{field}` is missing, not a string or empty"
            ),
            EntryError::NameMismatch { uri, name } => write!(
                f,
                "skill entry {uri}: frontmatter name {name:?} is not the last segment of the \
                 skill path"
            ),
            EntryError::InvalidResources { uri, found } => write!(
                f,
                "skill entry {uri}: `resources` is neither an array nor \"dynamic\": {found}"
            ),
            EntryError::InvalidFile { uri, index, reason } => {
                write!(f, "skill entry {uri}: resources[{index}]: {reason}")
            }
            EntryError::OutsideRoot { uri, file } => write!(
                f,
                "skill entry {uri}: listed file {file} is outside the skill root"
            ),
            EntryError::Duplicate { uri, file } => {
                write!(f, "skill entry {uri}: file {file} is listed more than once")
            }
            EntryError::SkillMdUnlisted { uri } => write!(
                f,
                "skill entry {uri}: `resources` does not list the SKILL.md, so it is incomplete"
            ),
            EntryError::TooManyFiles { uri, count } => write!(
                f,
                "skill entry {uri}: {count} files listed, more than the limit of {MAX_FILES}"
            ),
            EntryError::TooLarge { uri, total } => write!(
                f,
                "skill entry {uri}: files total {total} bytes, more than the limit of \
                 {MAX_TOTAL_BYTES}"
            ),
        }
    }
}

impl std::error::Error for EntryError {}

impl HeldEntry {
    /// Reads and checks a skill entry (an item of `skills/list`'s `skills`, or `skills/get`'s
    /// `skill`).
    pub fn from_json(entry: &Value) -> Result<HeldEntry, EntryError> {
        let object = entry.as_object().ok_or(EntryError::NoUri)?;
        let uri = object
            .get("uri")
            .and_then(Value::as_str)
            .ok_or(EntryError::NoUri)?;
        let not_skill_md = || EntryError::NotSkillMd { uri: uri.into() };
        let root = rules::skill_root(uri)
            .filter(|root| plain_path(root))
            .ok_or_else(not_skill_md)?;
        let segment = rules::skill_name(uri).ok_or_else(not_skill_md)?;
        if !rules::valid_name(segment) {
            return Err(EntryError::InvalidName {
                uri: uri.into(),
                name: segment.into(),
            });
        }
        let frontmatter = object
            .get("frontmatter")
            .and_then(Value::as_object)
            .ok_or_else(|| EntryError::NoFrontmatter { uri: uri.into() })?;
        let name = required(frontmatter, uri, "name")?;
        let description = required(frontmatter, uri, "description")?;
        if name != segment {
            return Err(EntryError::NameMismatch {
                uri: uri.into(),
                name: name.into(),
            });
        }
        let files = match object.get("resources") {
            Some(Value::String(s)) if s == DYNAMIC => Files::Dynamic,
            Some(Value::Array(items)) => listed(uri, root, items)?,
            other => {
                return Err(EntryError::InvalidResources {
                    uri: uri.into(),
                    found: shorten(other),
                });
            }
        };
        Ok(HeldEntry {
            uri: uri.into(),
            root: root.into(),
            name: name.into(),
            description: description.into(),
            frontmatter: frontmatter.clone(),
            files,
            allow_dynamic: false,
        })
    }

    /// Reads and checks a skill entry of any serializable type (a generated `Skill`).
    pub fn from_entry<T: serde::Serialize>(entry: &T) -> Result<HeldEntry, EntryError> {
        let value =
            serde_json::to_value(entry).map_err(|e| EntryError::Serialize(e.to_string()))?;
        HeldEntry::from_json(&value)
    }

    /// Opts in to loading this skill if its `resources` are `"dynamic"`: its files then
    /// have no digest or size to check, so only the `SKILL.md` frontmatter and the skill
    /// root are verified. Without this, verifying any file of a dynamic skill fails with
    /// [`VerifyError::DynamicRefused`](super::VerifyError::DynamicRefused). No effect on a
    /// listed skill.
    #[must_use]
    pub fn allow_dynamic(mut self) -> HeldEntry {
        self.allow_dynamic = true;
        self
    }

    /// The `SKILL.md` URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The skill root: the URI without `/SKILL.md`.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// The skill's name (the frontmatter's, which is the skill-path's last segment).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The frontmatter's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The entry's frontmatter, every field as listed.
    pub fn frontmatter(&self) -> &Map<String, Value> {
        &self.frontmatter
    }

    /// The listed files by URI (the `SKILL.md` among them), or `None` for a dynamic skill.
    pub fn files(&self) -> Option<&BTreeMap<String, FileEntry>> {
        match &self.files {
            Files::Listed { files, .. } => Some(files),
            Files::Dynamic => None,
        }
    }

    /// Whether `resources` is `"dynamic"` (files not enumerated, no integrity).
    pub fn is_dynamic(&self) -> bool {
        self.files == Files::Dynamic
    }

    /// The sum of the listed sizes, or `None` for a dynamic skill.
    pub fn total_size(&self) -> Option<u64> {
        match &self.files {
            Files::Listed { total, .. } => Some(*total),
            Files::Dynamic => None,
        }
    }

    /// Whether `uri` is within the skill root (below it, each segment a plain name).
    pub(crate) fn within_root(&self, uri: &str) -> bool {
        within(&self.root, uri)
    }
}

/// The frontmatter's `field`, a non-empty string.
fn required<'a>(
    frontmatter: &'a Map<String, Value>,
    uri: &str,
    field: &'static str,
) -> Result<&'a str, EntryError> {
    match frontmatter.get(field).and_then(Value::as_str) {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(EntryError::MissingField {
            uri: uri.into(),
            field,
        }),
    }
}

/// The listed files, checked: shape, within the root, no duplicate, the SKILL.md listed,
/// the limits.
fn listed(uri: &str, root: &str, items: &[Value]) -> Result<Files, EntryError> {
    if items.len() > MAX_FILES {
        return Err(EntryError::TooManyFiles {
            uri: uri.into(),
            count: items.len(),
        });
    }
    let mut files = BTreeMap::new();
    let mut total: u64 = 0;
    for (index, item) in items.iter().enumerate() {
        let invalid = |reason: &str| EntryError::InvalidFile {
            uri: uri.into(),
            index,
            reason: reason.into(),
        };
        let item = item.as_object().ok_or_else(|| invalid("not an object"))?;
        let file = item
            .get("uri")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("`uri` is missing or not a string"))?;
        let digest = item
            .get("digest")
            .and_then(Value::as_str)
            .filter(|d| rules::is_digest(d))
            .ok_or_else(|| invalid("`digest` is not sha256: and 64 lowercase hex digits"))?;
        let size = item
            .get("size")
            .and_then(Value::as_u64)
            .ok_or_else(|| invalid("`size` is not a non-negative integer"))?;
        if file != uri && !within(root, file) {
            return Err(EntryError::OutsideRoot {
                uri: uri.into(),
                file: file.into(),
            });
        }
        let entry = FileEntry {
            digest: digest.into(),
            size,
        };
        if files.insert(file.to_owned(), entry).is_some() {
            return Err(EntryError::Duplicate {
                uri: uri.into(),
                file: file.into(),
            });
        }
        total = total.saturating_add(size);
    }
    if !files.contains_key(uri) {
        return Err(EntryError::SkillMdUnlisted { uri: uri.into() });
    }
    if total > MAX_TOTAL_BYTES {
        return Err(EntryError::TooLarge {
            uri: uri.into(),
            total,
        });
    }
    Ok(Files::Listed { files, total })
}

/// Whether `uri` is below `root`: `root/` then segments that are each a plain name
/// ([`plain_segment`]), so that no resolution or decoding of it leaves the root.
fn within(root: &str, uri: &str) -> bool {
    match uri
        .strip_prefix(root)
        .and_then(|rest| rest.strip_prefix('/'))
    {
        Some(rest) => rest.split('/').all(plain_segment),
        None => false,
    }
}

/// Whether every segment of the skill-path of `root` (`<scheme>://<skill-path>`) is a plain
/// name ([`plain_segment`]).
fn plain_path(root: &str) -> bool {
    root.split_once("://")
        .is_some_and(|(_, path)| path.split('/').all(plain_segment))
}

/// Whether a path segment is a plain name: not empty, not a dot segment (`.`, `..`, with
/// `%2e` for a dot), and without a separator hidden in it (`\`, or `/` or `\`
/// percent-encoded: `%2F`, `%5C`, either case) that a server decoding the segment would
/// take for one more level.
fn plain_segment(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    let hidden_separator = lower.contains('\\') || lower.contains("%2f") || lower.contains("%5c");
    let decoded = lower.replace("%2e", ".");
    !hidden_separator && !matches!(decoded.as_str(), "" | "." | "..")
}

/// A JSON value for an error message, cut to 80 characters.
fn shorten(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "missing".into();
    };
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
