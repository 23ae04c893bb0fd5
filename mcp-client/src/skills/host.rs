//! The host's calls of the Skills extension, on a [`Client`] bound with
//! `bind!(Mcp = mcp, skills)`: [`list`] the skills (every page, each entry checked and held,
//! no file read), [`get`] one by URI, [`load`] one (its `SKILL.md` then every other file it
//! lists, each read with `resources/read` and verified before use), and [`read_directory`]
//! (every page of `resources/directory/read`). What a server can make the client read is
//! bounded by [`Limits`]: the pages of one listing, and the bytes of one listing or load.

use std::fmt;

use mcp_runtime::Request;
use mcp_runtime::client::Call;
use serde::Serialize;
use serde_json::Value;

use super::entry::{EntryError, HeldEntry};
use super::verify::{VerifiedFile, VerifiedSkillMd, VerifyError};
use crate::binding::{Binding, Outgoing};
use crate::client::Client;
use crate::error::ClientError;

/// What the skills host needs of a module generated with the skills extension: its requests,
/// their params and what their results hold. Implemented by `bind!(Mcp = mcp, skills)`.
pub trait SkillsBinding: Binding {
    /// A skill entry (`Skill`).
    type Skill: Serialize;
    /// A child of a directory (`Resource`).
    type Resource;
    /// `skills/list`.
    type ListSkills: Outgoing<Self, Done: Serialize>;
    /// `skills/get`.
    type GetSkill: Outgoing<Self, Done: Serialize>;
    /// `resources/read`.
    type ReadResource: Outgoing<Self, Done: Serialize>;
    /// `resources/directory/read`.
    type ReadDirectory: Outgoing<Self, Done: Serialize>;

    /// The params of `skills/list` from `cursor`.
    fn list_skills(
        meta: Self::Meta,
        cursor: Option<String>,
    ) -> <Self::ListSkills as Request>::Params;
    /// One page of skills, and the cursor of the next.
    fn skills_page(page: <Self::ListSkills as Call>::Done) -> (Vec<Self::Skill>, Option<String>);
    /// The params of `skills/get` for the skill at `uri`.
    fn get_skill(meta: Self::Meta, uri: &str) -> <Self::GetSkill as Request>::Params;
    /// The entry `skills/get` gave.
    fn got_skill(got: <Self::GetSkill as Call>::Done) -> Self::Skill;
    /// The params of `resources/read` of `uri`.
    fn read_resource(meta: Self::Meta, uri: &str) -> <Self::ReadResource as Request>::Params;
    /// The params of `resources/directory/read` of `uri` from `cursor`.
    fn read_directory(
        meta: Self::Meta,
        uri: &str,
        cursor: Option<String>,
    ) -> <Self::ReadDirectory as Request>::Params;
    /// One page of a directory's children, and the cursor of the next.
    fn directory_page(
        page: <Self::ReadDirectory as Call>::Done,
    ) -> (Vec<Self::Resource>, Option<String>);
}

/// How much a server can make the host read: at most `max_pages` pages for one listing
/// ([`list`], [`read_directory`]), and at most `max_bytes` bytes (the results' JSON) for one
/// listing or one [`load`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Pages per listing.
    pub max_pages: usize,
    /// Bytes per listing or load.
    pub max_bytes: u64,
}

impl Limits {
    /// 100 pages, and 64 MiB: room for a skill of the extension's largest size
    /// ([`MAX_TOTAL_BYTES`](mcp_runtime::skills::MAX_TOTAL_BYTES)) served as base64 blobs.
    pub const DEFAULT: Limits = Limits {
        max_pages: 100,
        max_bytes: 64 * 1024 * 1024,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Why a skill could not be listed, got, loaded or its directory read.
#[derive(Debug)]
#[non_exhaustive]
pub enum SkillsError {
    /// The request failed (the transport, or the server's error).
    Client(ClientError),
    /// `skills/get` gave an entry that breaks the extension's rules: it must not be loaded.
    Entry {
        /// The URI asked for.
        uri: String,
        /// What is wrong with it.
        error: EntryError,
    },
    /// What the server served failed verification against the held entry (or is not a file
    /// it lists, and was not read): the skill is refused.
    Refused(VerifyError),
    /// More pages than [`Limits::max_pages`].
    TooManyPages {
        /// The method paged.
        method: &'static str,
        /// The limit.
        limit: usize,
    },
    /// More bytes than [`Limits::max_bytes`].
    TooManyBytes {
        /// The method whose result went past the limit.
        method: &'static str,
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for SkillsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkillsError::Client(e) => e.fmt(f),
            SkillsError::Entry { uri, error } => write!(f, "the entry of {uri}: {error}"),
            SkillsError::Refused(e) => e.fmt(f),
            SkillsError::TooManyPages { method, limit } => {
                write!(f, "{method}: more than {limit} pages (Limits::max_pages)")
            }
            SkillsError::TooManyBytes { method, limit } => {
                write!(f, "{method}: more than {limit} bytes (Limits::max_bytes)")
            }
        }
    }
}

impl std::error::Error for SkillsError {}

impl From<ClientError> for SkillsError {
    fn from(e: ClientError) -> Self {
        SkillsError::Client(e)
    }
}

impl From<VerifyError> for SkillsError {
    fn from(e: VerifyError) -> Self {
        SkillsError::Refused(e)
    }
}

/// What is left of the [`Limits`] of one listing or load.
struct Budget {
    limits: Limits,
    pages: usize,
    bytes: u64,
}

impl Budget {
    fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            pages: 0,
            bytes: 0,
        }
    }

    /// Counts one page of `R`.
    fn page<R: Request>(&mut self) -> Result<(), SkillsError> {
        self.pages += 1;
        if self.pages > self.limits.max_pages {
            return Err(SkillsError::TooManyPages {
                method: R::METHOD,
                limit: self.limits.max_pages,
            });
        }
        Ok(())
    }

    /// Counts the bytes of `result`, an answer to `R`, as JSON.
    fn bytes<R: Request>(&mut self, result: &impl Serialize) -> Result<(), SkillsError> {
        let mut counted = Counted(0);
        // A result that does not serialize counts as nothing: it is read no further.
        let _ = serde_json::to_writer(&mut counted, result);
        self.bytes = self.bytes.saturating_add(counted.0);
        if self.bytes > self.limits.max_bytes {
            return Err(SkillsError::TooManyBytes {
                method: R::METHOD,
                limit: self.limits.max_bytes,
            });
        }
        Ok(())
    }
}

/// A writer that only counts.
struct Counted(u64);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The next cursor of a page: `None` at the end (no cursor, or an empty one).
fn next(cursor: Option<String>) -> Option<String> {
    cursor.filter(|c| !c.is_empty())
}

/// What [`list`] found: the entries held, and those that break the extension's rules (never
/// to be loaded).
#[derive(Debug, Default)]
pub struct Listed {
    /// The entries held, in the server's order.
    pub held: Vec<HeldEntry>,
    /// The URI (empty when it has none) and the fault of each entry refused.
    pub invalid: Vec<(String, EntryError)>,
}

/// The entry `skill` held, or its URI and why not.
fn hold(skill: &impl Serialize) -> Result<HeldEntry, (String, EntryError)> {
    let json = serde_json::to_value(skill).unwrap_or(Value::Null);
    HeldEntry::from_json(&json).map_err(|e| {
        let uri = json.get("uri").and_then(Value::as_str).unwrap_or_default();
        (uri.to_owned(), e)
    })
}

/// Every skill the server lists (`skills/list`, every page within `limits`), held: none of
/// their files is read.
pub async fn list<B: SkillsBinding>(
    client: &mut Client<B>,
    limits: Limits,
) -> Result<Listed, SkillsError> {
    let mut budget = Budget::new(limits);
    let mut listed = Listed::default();
    let mut cursor = None;
    loop {
        budget.page::<B::ListSkills>()?;
        let params = B::list_skills(client.meta(), cursor);
        let page = client.call::<B::ListSkills>(params).await?;
        budget.bytes::<B::ListSkills>(&page)?;
        let (skills, after) = B::skills_page(page);
        for skill in &skills {
            match hold(skill) {
                Ok(entry) => listed.held.push(entry),
                Err(invalid) => listed.invalid.push(invalid),
            }
        }
        match next(after) {
            Some(after) => cursor = Some(after),
            None => return Ok(listed),
        }
    }
}

/// The entry of the skill at `uri` (`skills/get`), held; [`SkillsError::Entry`] when it
/// breaks the extension's rules.
pub async fn get<B: SkillsBinding>(
    client: &mut Client<B>,
    uri: &str,
) -> Result<HeldEntry, SkillsError> {
    let params = B::get_skill(client.meta(), uri);
    let got = client.call::<B::GetSkill>(params).await?;
    hold(&B::got_skill(got)).map_err(|(_, error)| SkillsError::Entry {
        uri: uri.to_owned(),
        error,
    })
}

/// A skill loaded: its `SKILL.md` and every other file its entry lists, all verified.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The `SKILL.md`.
    pub skill_md: VerifiedSkillMd,
    /// The other files, in the entry's order (none for a dynamic skill).
    pub files: Vec<VerifiedFile>,
}

impl Loaded {
    /// How many files were verified, the `SKILL.md` included.
    pub fn count(&self) -> usize {
        1 + self.files.len()
    }
}

/// Loads the skill of `entry`: its `SKILL.md` read and verified first, then every other file
/// the entry lists, each verified before the next is read. The first file that fails stops
/// the load ([`SkillsError::Refused`]): nothing more of the skill is read. The results read
/// count against `limits.max_bytes`.
pub async fn load<B: SkillsBinding>(
    client: &mut Client<B>,
    entry: &HeldEntry,
    limits: Limits,
) -> Result<Loaded, SkillsError> {
    let mut budget = Budget::new(limits);
    let skill_md = read::<B>(client, &mut budget, entry, entry.uri()).await?;
    let skill_md = entry.verify_skill_md_read(&skill_md)?;
    let others = entry.files().into_iter().flat_map(|files| files.keys());
    let others: Vec<String> = others.filter(|u| *u != entry.uri()).cloned().collect();
    let mut files = Vec::with_capacity(others.len());
    for uri in &others {
        let file = read::<B>(client, &mut budget, entry, uri).await?;
        files.push(entry.verify_read(uri, &file)?);
    }
    Ok(Loaded { skill_md, files })
}

/// Loads the skill whose `SKILL.md` is at `uri` (see [`load`]): from its entry in `held` when
/// a listing held it, otherwise from the entry [`get`] gives (a skill the host was told of
/// without listing it, or one the listing left out). [`SkillsError::Entry`] when that entry
/// breaks the extension's rules (nothing is read then).
pub async fn load_uri<B: SkillsBinding>(
    client: &mut Client<B>,
    held: &[HeldEntry],
    uri: &str,
    limits: Limits,
) -> Result<Loaded, SkillsError> {
    let entry = match held.iter().find(|e| e.uri() == uri) {
        Some(entry) => entry.clone(),
        None => get(client, uri).await?,
    };
    load(client, &entry, limits).await
}

/// `resources/read` of `uri`, which `entry` must list (refused unread otherwise), as JSON.
async fn read<B: SkillsBinding>(
    client: &mut Client<B>,
    budget: &mut Budget,
    entry: &HeldEntry,
    uri: &str,
) -> Result<Value, SkillsError> {
    entry.check_readable(uri)?;
    let params = B::read_resource(client.meta(), uri);
    let result = client.call::<B::ReadResource>(params).await?;
    budget.bytes::<B::ReadResource>(&result)?;
    serde_json::to_value(&result).map_err(|e| {
        let e = format!("{}: writing the result back: {e}", B::ReadResource::METHOD);
        SkillsError::Client(ClientError::Protocol(e))
    })
}

/// The children of the directory at `uri` (`resources/directory/read`, every page within
/// `limits`); the client sends it only to a server that declared `directoryRead: true`.
pub async fn read_directory<B: SkillsBinding>(
    client: &mut Client<B>,
    uri: &str,
    limits: Limits,
) -> Result<Vec<B::Resource>, SkillsError> {
    let mut budget = Budget::new(limits);
    let mut children = Vec::new();
    let mut cursor = None;
    loop {
        budget.page::<B::ReadDirectory>()?;
        let params = B::read_directory(client.meta(), uri, cursor);
        let page = client.call::<B::ReadDirectory>(params).await?;
        budget.bytes::<B::ReadDirectory>(&page)?;
        let (resources, after) = B::directory_page(page);
        children.extend(resources);
        match next(after) {
            Some(after) => cursor = Some(after),
            None => return Ok(children),
        }
    }
}
