//! Reading a tree of skills from disk into a [`Catalog`].

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_runtime::skills::{
    DIRECTORY_MIME_TYPE, FrontmatterError, MAX_FILES, MAX_TOTAL_BYTES, SKILL_FILE, digest,
    frontmatter, valid_name,
};

use super::open::{OpenError, Seen, open_seen};
use super::{Catalog, Child, File, FileRef, SCHEME, SkillEntry, SkillSummary, mime, segment};

/// The bounds of a load. The defaults are the extension's per-skill limits, and generous
/// whole-catalog bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The most files one skill may hold (default [`MAX_FILES`], 512).
    pub max_files_per_skill: usize,
    /// The most bytes one skill's files may add up to (default [`MAX_TOTAL_BYTES`], 16 MiB).
    pub max_bytes_per_skill: u64,
    /// The most bytes the catalog reads in all (default 64 MiB).
    pub max_total_bytes: u64,
    /// The most regular files the walk may meet under the root, in skills or not (default
    /// 65,536).
    pub max_tree_files: usize,
    /// The deepest a directory may be below the root (default 32).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_files_per_skill: MAX_FILES,
            max_bytes_per_skill: MAX_TOTAL_BYTES,
            max_total_bytes: 64 * 1024 * 1024,
            max_tree_files: 65_536,
            max_depth: 32,
        }
    }
}

/// Why a tree of skills cannot be loaded; every variant names the path at fault.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// The root is missing, unreadable, or not a directory.
    #[error("skills root {}: {source}", path.display())]
    Root {
        /// The root.
        path: PathBuf,
        /// What is wrong with it.
        source: std::io::Error,
    },
    /// A file or directory below the root could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file or directory name is not UTF-8.
    #[error("{}: the name is not UTF-8", path.display())]
    NotUtf8 {
        /// The path with that name.
        path: PathBuf,
    },
    /// A `SKILL.md` lies directly in the root, so its skill would have no path.
    #[error("{}: a SKILL.md directly in the root has no skill path; put it in a directory named after the skill", path.display())]
    RootSkill {
        /// The `SKILL.md`.
        path: PathBuf,
    },
    /// A `SKILL.md` is not UTF-8 text.
    #[error("{}: not UTF-8 text", path.display())]
    SkillNotText {
        /// The `SKILL.md`.
        path: PathBuf,
    },
    /// A `SKILL.md` has no valid frontmatter.
    #[error("{}: {source}", path.display())]
    Frontmatter {
        /// The `SKILL.md`.
        path: PathBuf,
        /// What is wrong with its frontmatter.
        source: FrontmatterError,
    },
    /// The frontmatter `name` breaks the naming rules.
    #[error("{}: the name {name:?} must be 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen", path.display())]
    InvalidName {
        /// The `SKILL.md`.
        path: PathBuf,
        /// The frontmatter `name`.
        name: String,
    },
    /// The frontmatter `name` is not the name of the skill's directory.
    #[error("{}: the name {name:?} differs from the skill's directory {directory:?}", path.display())]
    NameMismatch {
        /// The `SKILL.md`.
        path: PathBuf,
        /// The frontmatter `name`.
        name: String,
        /// The directory's name.
        directory: String,
    },
    /// A skill holds more files than [`Limits::max_files_per_skill`].
    #[error("skill {}: {count} files, more than the {limit} a skill may hold", path.display())]
    TooManyFiles {
        /// The skill's directory.
        path: PathBuf,
        /// Its files.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A skill's files add up to more than [`Limits::max_bytes_per_skill`].
    #[error("skill {}: {bytes} bytes, more than the {limit} a skill may hold", path.display())]
    SkillTooLarge {
        /// The skill's directory.
        path: PathBuf,
        /// Its files' total size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// All skills' files add up to more than [`Limits::max_total_bytes`].
    #[error("skills root {}: the skills' files add up to more than {limit} bytes", path.display())]
    CatalogTooLarge {
        /// The root.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// The tree holds more files than [`Limits::max_tree_files`].
    #[error("skills root {}: more than {limit} files below it", path.display())]
    TooManyTreeFiles {
        /// The root.
        path: PathBuf,
        /// The limit.
        limit: usize,
    },
    /// A directory lies deeper than [`Limits::max_depth`].
    #[error("{}: deeper than {limit} levels below the skills root", path.display())]
    TooDeep {
        /// The directory.
        path: PathBuf,
        /// The limit.
        limit: usize,
    },
    /// A file changed size while it was read, or is no longer the regular file the walk saw
    /// (a symbolic link or another file put in its place, or in place of a directory above it).
    #[error("{}: changed while the skills were loading", path.display())]
    Changed {
        /// The file.
        path: PathBuf,
    },
}

/// A regular file met by the walk.
pub(super) struct Found {
    /// Its names from the root down, not encoded.
    segments: Vec<String>,
    /// Its path on disk.
    path: PathBuf,
    /// Its size when walked.
    size: u64,
    /// What the walk saw of it, to recognise it when it is read.
    seen: Seen,
}

/// Whether a file or directory of this name is left out of the catalog: a dot-file or
/// dot-folder (`.env`, `.git/`), neither walked nor served.
fn hidden(name: &str) -> bool {
    name.starts_with('.')
}

/// Every regular file below `root`, sorted by path segments; symbolic links, dot-files and
/// dot-folders skipped.
pub(super) fn walk(root: &Path, limits: &Limits) -> Result<Vec<Found>, CatalogError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CatalogError::Io { path, source }
    };
    let mut found = Vec::new();
    let mut pending = vec![(root.to_path_buf(), Vec::<String>::new())];
    while let Some((dir, segments)) = pending.pop() {
        if segments.len() > limits.max_depth {
            return Err(CatalogError::TooDeep {
                path: dir,
                limit: limits.max_depth,
            });
        }
        let entries = std::fs::read_dir(&dir).map_err(io(&dir))?;
        for entry in entries {
            let entry = entry.map_err(io(&dir))?;
            let path = entry.path();
            let name = entry
                .file_name()
                .into_string()
                .map_err(|_| CatalogError::NotUtf8 { path: path.clone() })?;
            if hidden(&name) {
                continue;
            }
            let kind = entry.file_type().map_err(io(&path))?;
            let mut below = segments.clone();
            below.push(name);
            if kind.is_dir() {
                pending.push((path, below));
            } else if kind.is_file() {
                if found.len() >= limits.max_tree_files {
                    return Err(CatalogError::TooManyTreeFiles {
                        path: root.to_path_buf(),
                        limit: limits.max_tree_files,
                    });
                }
                let meta = entry.metadata().map_err(io(&path))?;
                found.push(Found {
                    segments: below,
                    path,
                    size: meta.len(),
                    seen: Seen::of(&meta),
                });
            }
            // Symbolic links and special files are neither followed nor served.
        }
    }
    found.sort_by(|a, b| a.segments.cmp(&b.segments));
    Ok(found)
}

/// The `skill://` URI of the path `segments` (encoded, joined by `/`).
fn uri(segments: &[String]) -> String {
    let encoded: Vec<String> = segments.iter().map(|s| segment::encode(s)).collect();
    format!("{SCHEME}{}", encoded.join("/"))
}

/// The bytes of `found`, which must still be the file the walk saw (not a link, not another
/// file) and have its walked size.
fn read(found: &Found) -> Result<Vec<u8>, CatalogError> {
    let io = |source| CatalogError::Io {
        path: found.path.clone(),
        source,
    };
    let file = open_seen(&found.path, &found.seen).map_err(|e| match e {
        OpenError::Swapped => CatalogError::Changed {
            path: found.path.clone(),
        },
        OpenError::Io(source) => io(source),
    })?;
    let mut bytes = Vec::with_capacity(usize::try_from(found.size).unwrap_or(0));
    file.take(found.size.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 != found.size {
        return Err(CatalogError::Changed {
            path: found.path.clone(),
        });
    }
    Ok(bytes)
}

/// The files of each skill (indexes into the found files), by the skill's directory.
type Skills<'a> = BTreeMap<&'a [String], Vec<usize>>;

/// Loads the catalog under `root` (see the module documentation for the rules).
pub(super) fn load(root: &Path, limits: &Limits) -> Result<Catalog, CatalogError> {
    check_root(root)?;
    let found = walk(root, limits)?;
    load_walked(root, &found, limits)
}

/// The catalog of the files `found` by the walk of `root`: each read only if it is still the
/// file the walk saw.
pub(super) fn load_walked(
    root: &Path,
    found: &[Found],
    limits: &Limits,
) -> Result<Catalog, CatalogError> {
    let mut skills = skill_dirs(found)?;
    let served = assign(found, &mut skills);
    check_limits(root, found, &skills, &served, limits)?;
    let (mut files, uris) = read_files(found, &served)?;
    let mut entries = Vec::with_capacity(skills.len());
    for (dir, members) in &skills {
        if let Some(entry) = entry(root, dir, members, &mut files, &uris)? {
            entries.push(entry);
        }
    }
    entries.sort_by(|a, b| a.uri.cmp(&b.uri));
    Ok(Catalog {
        entries,
        directories: directories(found, &served, &files),
        files,
    })
}

/// `root` is a directory.
fn check_root(root: &Path) -> Result<(), CatalogError> {
    let meta = std::fs::metadata(root).map_err(|source| CatalogError::Root {
        path: root.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(CatalogError::Root {
            path: root.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        });
    }
    Ok(())
}

/// The directories holding a `SKILL.md`, each with no files yet; a `SKILL.md` directly in the
/// root is an error (it would have no skill path).
fn skill_dirs(found: &[Found]) -> Result<Skills<'_>, CatalogError> {
    let mut skills = Skills::new();
    for file in found {
        if let Some((last, dir)) = file.segments.split_last()
            && last == SKILL_FILE
        {
            if dir.is_empty() {
                return Err(CatalogError::RootSkill {
                    path: file.path.clone(),
                });
            }
            skills.insert(dir, Vec::new());
        }
    }
    Ok(skills)
}

/// Gives each skill the found files below it (a nested skill's files belong to the enclosing
/// skill too); the indexes of the files some skill holds, the ones served.
fn assign(found: &[Found], skills: &mut Skills<'_>) -> Vec<usize> {
    let mut served = Vec::new();
    for (index, file) in found.iter().enumerate() {
        let mut in_skill = false;
        for depth in 1..file.segments.len() {
            if let Some(members) = skills.get_mut(&file.segments[..depth]) {
                members.push(index);
                in_skill = true;
            }
        }
        if in_skill {
            served.push(index);
        }
    }
    served
}

/// Each skill within its file count and size, and the served files within the catalog's.
fn check_limits(
    root: &Path,
    found: &[Found],
    skills: &Skills<'_>,
    served: &[usize],
    limits: &Limits,
) -> Result<(), CatalogError> {
    for (dir, members) in skills {
        let path = || root.join(dir.join("/"));
        if members.len() > limits.max_files_per_skill {
            return Err(CatalogError::TooManyFiles {
                path: path(),
                count: members.len(),
                limit: limits.max_files_per_skill,
            });
        }
        let bytes = members.iter().map(|&i| found[i].size).sum::<u64>();
        if bytes > limits.max_bytes_per_skill {
            return Err(CatalogError::SkillTooLarge {
                path: path(),
                bytes,
                limit: limits.max_bytes_per_skill,
            });
        }
    }
    let total = served.iter().map(|&i| found[i].size).sum::<u64>();
    if total > limits.max_total_bytes {
        return Err(CatalogError::CatalogTooLarge {
            path: root.to_path_buf(),
            limit: limits.max_total_bytes,
        });
    }
    Ok(())
}

/// The served files read, by URI, and the URI of each found file (empty for one not served).
fn read_files(
    found: &[Found],
    served: &[usize],
) -> Result<(BTreeMap<String, File>, Vec<String>), CatalogError> {
    let mut files = BTreeMap::new();
    let mut uris = vec![String::new(); found.len()];
    for &index in served {
        let file = &found[index];
        let bytes: Arc<[u8]> = read(file)?.into();
        let name = file.segments.last().cloned().unwrap_or_default();
        let uri = uri(&file.segments);
        uris[index].clone_from(&uri);
        files.insert(
            uri.clone(),
            File {
                mime_type: mime::mime_type(&name),
                digest: digest(&bytes),
                uri,
                name,
                bytes,
                skill: None,
            },
        );
    }
    Ok((files, uris))
}

/// The entry of the skill in `dir` (its files `members`), its `SKILL.md` in `files` given the
/// skill's name and description; the frontmatter read and its name checked.
fn entry(
    root: &Path,
    dir: &[String],
    members: &[usize],
    files: &mut BTreeMap<String, File>,
    uris: &[String],
) -> Result<Option<SkillEntry>, CatalogError> {
    let skill_md = [dir.to_vec(), vec![SKILL_FILE.to_owned()]].concat();
    let skill_uri = uri(&skill_md);
    let path = root.join(skill_md.join("/"));
    let Some(file) = files.get_mut(&skill_uri) else {
        return Ok(None);
    };
    let text = file
        .text()
        .ok_or_else(|| CatalogError::SkillNotText { path: path.clone() })?;
    let fields = frontmatter(text).map_err(|source| CatalogError::Frontmatter {
        path: path.clone(),
        source,
    })?;
    let text_of = |key: &str| {
        fields
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let (name, description) = (text_of("name"), text_of("description"));
    if !valid_name(&name) {
        return Err(CatalogError::InvalidName { path, name });
    }
    let directory = dir.last().cloned().unwrap_or_default();
    if name != directory {
        return Err(CatalogError::NameMismatch {
            path,
            name,
            directory,
        });
    }
    file.skill = Some(SkillSummary { name, description });
    let mut refs: Vec<FileRef> = members
        .iter()
        .filter_map(|&i| files.get(&uris[i]))
        .map(|f| FileRef {
            uri: f.uri.clone(),
            digest: f.digest.clone(),
            size: f.size(),
        })
        .collect();
    refs.sort_by(|a, b| a.uri.cmp(&b.uri));
    Ok(Some(SkillEntry {
        uri: skill_uri,
        frontmatter: fields,
        files: refs,
    }))
}

/// Every directory holding a served file, at every level from the first segment down, with
/// its direct children sorted by URI.
fn directories(
    found: &[Found],
    served: &[usize],
    files: &BTreeMap<String, File>,
) -> BTreeMap<String, Vec<Child>> {
    let mut children: BTreeMap<String, BTreeSet<(String, String, Option<u64>)>> = BTreeMap::new();
    for &index in served {
        let segments = &found[index].segments;
        for depth in 1..segments.len() {
            let dir = uri(&segments[..depth]);
            let set = children.entry(dir).or_default();
            let child = &segments[..=depth];
            let name = segments[depth].clone();
            if depth + 1 == segments.len() {
                let child = uri(child);
                let size = files.get(&child).map_or(found[index].size, File::size);
                set.insert((child, name, Some(size)));
            } else {
                set.insert((uri(child), name, None));
            }
        }
    }
    children
        .into_iter()
        .map(|(dir, set)| {
            let list = set
                .into_iter()
                .map(|(uri, name, size)| Child {
                    mime_type: match size {
                        Some(_) => mime::mime_type(&name),
                        None => DIRECTORY_MIME_TYPE,
                    },
                    uri,
                    name,
                    size,
                })
                .collect();
            (dir, list)
        })
        .collect()
}
