//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), for 2026-07-28 clients:
//! the skills of a directory tree (`mcp_server::skills::Catalog`), listed with `skills/list`
//! (a page at a time), one entry by `skills/get`, a directory's children by
//! `resources/directory/read` (declared with `directoryRead`), and every file an ordinary
//! resource (`resources/list`, `resources/read`, in both eras).
//!
//! The tree is `examples/conformance-server/skills/` of the checkout the server was built in,
//! or the folder `MCP_CONFORMANCE_SKILLS` names. A 2025-11-25 session is neither told of the
//! extension nor served its methods (they are not methods of that revision); it can still
//! read the skills' files as resources.

use std::sync::LazyLock;

use mcp_runtime::error_code::INVALID_PARAMS;
use mcp_runtime::{Respond as _, RpcError};
use mcp_server::skills::{Catalog, Child, DirectoryError, File, SkillEntry};
use serde_json::Value;

use crate::mcp;
use crate::rpc::{Ctx, Refused, to_json};

/// The extension's methods: what the server adds to the methods a client may call. None has
/// an `Mcp-Name` header.
pub const METHODS: &[mcp_server::Method] = &[
    (mcp::ListSkillsRequest::METHOD, None),
    (mcp::GetSkillRequest::METHOD, None),
    (mcp::ReadResourceDirectoryRequest::METHOD, None),
];

/// Skills per `skills/list` page: small, so that the fixture's three skills take two pages
/// and a client's (and the suite's) pagination is exercised.
const SKILLS_PER_PAGE: usize = 2;
/// Children per `resources/directory/read` page.
const CHILDREN_PER_PAGE: usize = 100;
/// How long a client may keep a listing or an entry (they change only with a restart).
const TTL_MS: u64 = 60_000;
/// The environment variable that names another skills folder.
pub const SKILLS_DIR_VARIABLE: &str = "MCP_CONFORMANCE_SKILLS";

/// The fixture folder of this crate, in the checkout the server was built in.
const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/skills");

/// The catalog, read once: `$MCP_CONFORMANCE_SKILLS` (an error, naming the folder, when it
/// cannot be read), else the fixture (no skills, said on standard error, when the binary runs
/// where its checkout is not).
static CATALOG: LazyLock<Result<Catalog, String>> = LazyLock::new(|| {
    let load = |folder: &std::path::Path| {
        Catalog::load(folder).map_err(|e| format!("skills in {}: {e}", folder.display()))
    };
    match std::env::var_os(SKILLS_DIR_VARIABLE) {
        Some(named) => load(std::path::Path::new(&named)),
        None if std::path::Path::new(FIXTURE).is_dir() => load(std::path::Path::new(FIXTURE)),
        None => {
            eprintln!(
                "mcp-conformance-server: no skills: {FIXTURE} is not here and {SKILLS_DIR_VARIABLE} is unset"
            );
            Ok(Catalog::default())
        }
    }
});

/// The catalog, or why it could not be read (the server refuses to start then: [`check`]).
pub fn catalog() -> Result<&'static Catalog, &'static str> {
    CATALOG.as_ref().map_err(String::as_str)
}

/// Reads the catalog at startup: an error stops the server before it listens.
pub fn check() -> Result<usize, String> {
    catalog().map(Catalog::len).map_err(str::to_owned)
}

/// The extension's settings in the server's capabilities: `resources/directory/read` served.
pub fn settings() -> mcp::JSONObject {
    let settings = mcp::SkillsExtensionSettings::new().with_directory_read(true);
    match serde_json::to_value(settings) {
        Ok(Value::Object(object)) => object.into_iter().collect(),
        _ => mcp::JSONObject::new(),
    }
}

/// A request of the extension's methods, read as its generated type.
enum SkillsRequest {
    List(mcp::ListSkillsRequest),
    Get(mcp::GetSkillRequest),
    Directory(mcp::ReadResourceDirectoryRequest),
}

impl SkillsRequest {
    /// The request of `method` (one of [`METHODS`]) from its whole message.
    fn read(method: &str, body: &[u8]) -> serde_json::Result<Self> {
        use serde::de::Error as _;
        match method {
            m if m == mcp::ListSkillsRequest::METHOD => {
                serde_json::from_slice(body).map(Self::List)
            }
            m if m == mcp::GetSkillRequest::METHOD => serde_json::from_slice(body).map(Self::Get),
            m if m == mcp::ReadResourceDirectoryRequest::METHOD => {
                serde_json::from_slice(body).map(Self::Directory)
            }
            other => Err(serde_json::Error::custom(format!(
                "{other} is not a method of the skills extension"
            ))),
        }
    }
}

/// Answers the request of the extension's `method` (one of [`METHODS`]) of which `body` is the
/// whole message.
pub async fn answer(ctx: Ctx, method: &str, body: &[u8]) -> Result<String, Refused> {
    let request = SkillsRequest::read(method, body)
        .map_err(|e| ctx.fail(invalid(format!("Invalid params: {e}"))))?;
    let catalog = catalog().map_err(|e| ctx.fail(RpcError::internal_error(e)))?;
    match request {
        SkillsRequest::List(r) => {
            let result = list(catalog, r.params.cursor.as_deref()).map_err(|e| ctx.fail(e))?;
            to_json(&r.respond(result))
        }
        SkillsRequest::Get(r) => {
            let result = get(catalog, &r.params.uri).map_err(|e| ctx.fail(e))?;
            to_json(&r.respond(result))
        }
        SkillsRequest::Directory(r) => {
            let params = &r.params;
            let result = directory(catalog, &params.uri, params.cursor.as_deref())
                .map_err(|e| ctx.fail(e))?;
            to_json(&r.respond(result))
        }
    }
}

/// `-32602` with `message`.
fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(INVALID_PARAMS, message.into())
}

/// A page of the listing.
fn list(catalog: &Catalog, cursor: Option<&str>) -> Result<mcp::ListSkillsResult, RpcError> {
    let page = catalog
        .entries(cursor, SKILLS_PER_PAGE)
        .map_err(|e| invalid(format!("Invalid params: {e}")))?;
    let skills = page.items.into_iter().map(skill).collect::<Vec<_>>();
    let mut result = mcp::ListSkillsResult::new(mcp::CacheScope::Public, skills, TTL_MS)
        .with_meta(crate::result_meta());
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// The entry of the skill whose `SKILL.md` is at `uri`.
fn get(catalog: &Catalog, uri: &str) -> Result<mcp::GetSkillResult, RpcError> {
    let entry = catalog
        .get(uri)
        .ok_or_else(|| invalid(format!("No skill is served at {uri}")))?;
    Ok(
        mcp::GetSkillResult::new(mcp::CacheScope::Public, skill(entry), TTL_MS)
            .with_meta(crate::result_meta()),
    )
}

/// A page of the children of the directory at `uri`.
fn directory(
    catalog: &Catalog,
    uri: &str,
    cursor: Option<&str>,
) -> Result<mcp::ReadResourceDirectoryResult, RpcError> {
    let page = catalog
        .directory(uri, cursor, CHILDREN_PER_PAGE)
        .map_err(|e| match e {
            DirectoryError::NotFound => invalid(format!("No directory is served at {uri}")),
            DirectoryError::NotADirectory => invalid(format!("{uri} is not a directory resource")),
            DirectoryError::BadCursor => invalid(format!("Invalid params: {e}")),
        })?;
    let children = page.items.iter().map(child).collect::<Vec<_>>();
    // Cache hints the specification does not define here but the TypeScript SDK requires.
    let mut result = mcp::ReadResourceDirectoryResult::new(children)
        .with_meta(crate::result_meta())
        .with_ttl_ms(TTL_MS)
        .with_cache_scope(mcp::CacheScope::Public);
    result.next_cursor = page.next_cursor;
    Ok(result)
}

/// A catalog entry as the generated `Skill`.
fn skill(entry: &SkillEntry) -> mcp::Skill {
    let files = entry
        .files
        .iter()
        .map(|f| mcp::SkillResource::new(f.digest.clone(), f.size, f.uri.clone()))
        .collect::<Vec<_>>();
    mcp::Skill::new(
        entry.frontmatter.clone(),
        mcp::SkillFiles::SkillFileList(files),
        entry.uri.clone(),
    )
}

/// A directory's child as a resource (a subdirectory's MIME type is `inode/directory`).
fn child(child: &Child) -> mcp::Resource {
    let resource =
        mcp::Resource::new(child.name.clone(), child.uri.clone()).with_mime_type(child.mime_type);
    match child.size {
        Some(size) => resource.with_size(size as i64),
        None => resource,
    }
}

/// Every skill file as a listed resource; a `SKILL.md` is named and described from its
/// frontmatter.
pub fn resources() -> Vec<mcp::Resource> {
    let Ok(catalog) = catalog() else {
        return Vec::new();
    };
    catalog.resources().map(resource).collect()
}

/// A skill file as a listed resource.
fn resource(file: &File) -> mcp::Resource {
    let resource = mcp::Resource::new(file.name.clone(), file.uri.clone())
        .with_mime_type(file.mime_type)
        .with_size(file.size() as i64);
    match &file.skill {
        Some(summary) => mcp::Resource {
            name: summary.name.clone(),
            ..resource
        }
        .with_description(summary.description.clone()),
        None => resource,
    }
}

/// The contents of the skill file at `uri`, if there is one: text when it is UTF-8, else a
/// blob.
pub fn contents(uri: &str) -> Option<mcp::EmbeddedResourceResource> {
    let file = catalog().ok()?.file(uri)?;
    Some(match file.text() {
        Some(text) => mcp::TextResourceContents::new(text, uri)
            .with_mime_type(file.mime_type)
            .into(),
        None => {
            use base64::Engine as _;
            let blob = base64::engine::general_purpose::STANDARD.encode(&file.bytes);
            mcp::BlobResourceContents::new(blob, uri)
                .with_mime_type(file.mime_type)
                .into()
        }
    })
}
