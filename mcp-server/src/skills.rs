//! A catalog of skills (the `io.modelcontextprotocol/skills` extension) loaded from a
//! directory tree, as plain data for a server to answer the extension's requests with.
//!
//! Every directory under the root that holds a `SKILL.md` is a skill; its path relative to the
//! root is its skill path, and each file in it is the resource
//! `skill://<skill-path>/<file-path>`. [`Catalog::load`] reads the whole tree once: the
//! bytes served are the bytes digested, whatever happens on disk afterwards.
//!
//! What the catalog answers:
//!
//! - [`Catalog::entries`]: the skill entries, by URI, a page at a time;
//! - [`Catalog::get`]: one skill's entry by its `SKILL.md` URI;
//! - [`Catalog::file`]: a file's bytes and metadata, for `resources/read`;
//! - [`Catalog::directory`]: a directory's direct children, a page at a time;
//! - [`Catalog::resources`]: every file, for `resources/list`.
//!
//! Loading rules:
//!
//! - The walk is sorted and does not follow symbolic links: a link (to a file or a directory)
//!   below the root is skipped, neither served nor counted. The root itself may be a link.
//! - Dot-files and dot-folders (any name starting with `.`: `.env`, `.git/`) are skipped
//!   likewise: neither walked, listed, served nor counted.
//! - Each file is read only if it is still the regular file the walk saw: it is opened without
//!   following a link (`O_NOFOLLOW` on unix) and, on unix, its device and inode compared with
//!   the walk's. A link or another file swapped in after the walk, at its name or at a
//!   directory above it, stops the load ([`CatalogError::Changed`]) instead of being read.
//! - A name that is not UTF-8 is a load error. In URIs, every byte of a name but ASCII
//!   letters, digits and `-._~` is percent-encoded (`my notes.md` is `my%20notes.md`).
//! - A skill's files are all regular files below its directory, nested skills' files
//!   included; files outside every skill are neither read nor served. Directories that hold
//!   no file of a skill are not resources.
//! - The last segment of a skill path must be the frontmatter `name`, which must follow the
//!   naming rules; a `SKILL.md` directly in the root (no skill path) is an error. Two skills
//!   may share a name under different prefixes (`a/x` and `b/x`): the extension only advises
//!   against it, so the catalog does not refuse it.
//! - [`Limits`] bounds each skill (files, bytes) and the whole catalog (bytes read, files
//!   walked, depth): a tree over them is an error, never memory exhaustion.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let root = std::env::temp_dir().join(format!("mcp-server-skills-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(root.join("git-workflow"))?;
//! # std::fs::write(root.join("git-workflow/SKILL.md"), "---\nname: git-workflow\ndescription: Branch and commit\n---\n")?;
//! use mcp_server::skills::Catalog;
//!
//! let catalog = Catalog::load(&root)?;
//! let page = catalog.entries(None, 50)?;
//! let entry = page.items[0];
//! assert_eq!(entry.uri, "skill://git-workflow/SKILL.md");
//! assert_eq!(entry.frontmatter["description"], "Branch and commit");
//! let file = catalog.file(&entry.files[0].uri).expect("listed files are served");
//! assert_eq!(mcp_runtime::skills::digest(&file.bytes), entry.files[0].digest);
//! # std::fs::remove_dir_all(&root)?;
//! # Ok(())
//! # }
//! ```

mod cursor;
mod load;
mod mime;
mod open;
mod segment;
pub mod serve;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

pub use cursor::{BadCursor, Page};
pub use load::{CatalogError, Limits};
pub use mime::mime_type;

use cursor::List;

/// The URI scheme of skill resources.
pub const SCHEME: &str = "skill://";

/// One skill as listed: its `SKILL.md` URI, its frontmatter, and every file it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillEntry {
    /// The URI of the skill's `SKILL.md` (`skill://<skill-path>/SKILL.md`).
    pub uri: String,
    /// The `SKILL.md` frontmatter as a JSON object, every member as written.
    pub frontmatter: Map<String, Value>,
    /// Every file of the skill (its `SKILL.md` and nested skills' files included), by URI.
    pub files: Vec<FileRef>,
}

/// A file as a skill entry lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    /// The file's URI.
    pub uri: String,
    /// `sha256:` and the hex SHA-256 of the file's bytes.
    pub digest: String,
    /// The file's length in bytes.
    pub size: u64,
}

/// The name and description of a skill, carried by its `SKILL.md` file for `resources/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillSummary {
    /// The frontmatter `name`.
    pub name: String,
    /// The frontmatter `description`.
    pub description: String,
}

/// A file of a skill, its bytes as read at load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// The file's URI.
    pub uri: String,
    /// The file's name (its last path segment, not encoded).
    pub name: String,
    /// Its MIME type, from its extension ([`mime_type`]).
    pub mime_type: &'static str,
    /// `sha256:` and the hex SHA-256 of [`File::bytes`].
    pub digest: String,
    /// The file's content.
    pub bytes: Arc<[u8]>,
    /// For a `SKILL.md`, the skill's name and description; `None` for other files.
    pub skill: Option<SkillSummary>,
}

impl File {
    /// The content as text, when it is UTF-8.
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }

    /// The content's length in bytes.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }
}

/// A direct child of a directory: a file (with its size) or a directory
/// ([`mcp_runtime::skills::DIRECTORY_MIME_TYPE`], no size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Child {
    /// The child's URI (a directory's has no trailing slash).
    pub uri: String,
    /// Its name (its last path segment, not encoded).
    pub name: String,
    /// A file's MIME type, or `inode/directory`.
    pub mime_type: &'static str,
    /// A file's size in bytes; `None` for a directory.
    pub size: Option<u64>,
}

/// Why a directory cannot be listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DirectoryError {
    /// No file or directory of the catalog has this URI.
    #[error("no skill directory has this URI")]
    NotFound,
    /// The URI is a file's.
    #[error("the URI is a file, not a directory")]
    NotADirectory,
    /// The cursor is not one this catalog gave for this directory.
    #[error("invalid cursor: not one this server gave for this directory")]
    BadCursor,
}

impl From<BadCursor> for DirectoryError {
    fn from(_: BadCursor) -> Self {
        DirectoryError::BadCursor
    }
}

/// The skills under one root, read into memory at load (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// The skill entries, sorted by URI.
    entries: Vec<SkillEntry>,
    /// Every file, by URI.
    files: BTreeMap<String, File>,
    /// Every directory's children sorted by URI, by the directory's URI.
    directories: BTreeMap<String, Vec<Child>>,
}

impl Catalog {
    /// The skills under `root`, with the default [`Limits`]. A root without skills gives an
    /// empty catalog; a root that is missing or not a directory is an error.
    pub fn load(root: &Path) -> Result<Catalog, CatalogError> {
        Catalog::load_with(root, &Limits::default())
    }

    /// The skills under `root`, within `limits`.
    pub fn load_with(root: &Path, limits: &Limits) -> Result<Catalog, CatalogError> {
        load::load(root, limits)
    }

    /// Whether the catalog holds no skill.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The number of skills.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// A page of the skill entries, by URI: the first without a cursor, else the one after
    /// `cursor` (a page's `next_cursor`). At most `page_size` entries (0 is taken as 1).
    pub fn entries(
        &self,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Page<&SkillEntry>, BadCursor> {
        cursor::page(
            &self.entries,
            |entry| &entry.uri,
            |entry| entry,
            List::Entries,
            cursor,
            page_size,
        )
    }

    /// The entry of the skill whose `SKILL.md` has this URI.
    pub fn get(&self, skill_md_uri: &str) -> Option<&SkillEntry> {
        self.entries
            .binary_search_by(|entry| entry.uri.as_str().cmp(skill_md_uri))
            .ok()
            .and_then(|at| self.entries.get(at))
    }

    /// The file with this URI.
    pub fn file(&self, uri: &str) -> Option<&File> {
        self.files.get(uri)
    }

    /// A page of the direct children of the directory `uri` (a skill root, a directory inside
    /// a skill, or a level of a skill path above a skill root), by URI; cursors as for
    /// [`Catalog::entries`].
    pub fn directory(
        &self,
        uri: &str,
        cursor: Option<&str>,
        page_size: usize,
    ) -> Result<Page<Child>, DirectoryError> {
        if self.files.contains_key(uri) {
            return Err(DirectoryError::NotADirectory);
        }
        let children = self.directories.get(uri).ok_or(DirectoryError::NotFound)?;
        Ok(cursor::page(
            children,
            |child| &child.uri,
            Child::clone,
            List::Directory,
            cursor,
            page_size,
        )?)
    }

    /// Whether `uri` is a directory of the catalog.
    pub fn is_directory(&self, uri: &str) -> bool {
        self.directories.contains_key(uri)
    }

    /// Every file of every skill, by URI (a nested skill's files once).
    pub fn resources(&self) -> impl Iterator<Item = &File> {
        self.files.values()
    }
}
