//! The host side of the skills extension (`io.modelcontextprotocol/skills`): with a server
//! that declares it, the client lists the skills (every page) and holds each entry
//! (`mcp_client::skills::HeldEntry`), reading none of their files; it loads only the skills it
//! is asked to (the context's `loadSkills`, listed or confirmed with `skills/get`, or every
//! listed one in the suite's
//! `sep-2640-client-verify-*` scenarios, which serve a tampered file): the `SKILL.md` read and
//! verified first (size, digest, frontmatter against the entry), then each other listed file,
//! verified before use. A skill that fails is refused, and nothing more of it is read.
//!
//! One line per skill: `skill listed <uri>`, `skill got <uri>`, `skill loaded <uri>: <n> files verified`,
//! `skill refused <uri>: <reason>`, `skill invalid <uri>: <reason>` (an entry that breaks the
//! extension's rules is never loaded).

use mcp_client::ClientError;
use mcp_client::skills::{HeldEntry, VerifyError};
use serde_json::Value;

use crate::{Client, mcp};

/// The prefix of the suite's scenarios in which the host loads the skill it lists.
const VERIFY_SCENARIOS: &str = "sep-2640-client-verify-";

/// The skills the server lists, held; none of their files read. Empty when the server does
/// not declare the extension.
pub async fn list(
    s: &mut Client,
    caps: &mcp::ServerCapabilities,
) -> Result<Vec<HeldEntry>, ClientError> {
    if mcp_client::skills::declared::<mcp::SkillsExtension, _>(caps).is_err() {
        return Ok(Vec::new());
    }
    let mut held = Vec::new();
    let mut cursor = None;
    loop {
        let mut params = mcp::PaginatedRequestParams::new(s.meta());
        params.cursor = cursor;
        let page = s.call::<mcp::ListSkillsRequest>(params).await?;
        for skill in &page.skills {
            match HeldEntry::from_entry(skill) {
                Ok(entry) => {
                    println!("skill listed {}", entry.uri());
                    held.push(entry);
                }
                Err(e) => println!("skill invalid {}: {e}", skill.uri),
            }
        }
        match page.next_cursor {
            Some(next) if !next.is_empty() => cursor = Some(next),
            _ => return Ok(held),
        }
    }
}

/// Whether the server serves `resources/directory/read` (it declared `directoryRead: true`):
/// the check `mcp_client` makes before it sends one.
pub fn reads_directories(caps: &mcp::ServerCapabilities) -> bool {
    mcp_client::skills::reads_directories::<mcp::SkillsExtension, _>(caps).is_ok()
}

/// The skills to load in this run, by the URI of their `SKILL.md`: those the context's
/// `loadSkills` names (listed or not), or every listed one in the suite's verification
/// scenarios.
fn to_load(held: &[HeldEntry], scenario: &str, context: &Value) -> Vec<String> {
    match context.get("loadSkills").and_then(Value::as_array) {
        Some(named) => named
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        None if scenario.starts_with(VERIFY_SCENARIOS) => {
            held.iter().map(|e| e.uri().to_owned()).collect()
        }
        None => Vec::new(),
    }
}

/// Loads the skills the run asks for ([`to_load`]): a listed one from its held entry, another
/// from the entry `skills/get` gives for its URI (a host loads a skill it was only told the
/// URI of). The number whose server failed: a skill refused for what it served is the host
/// doing its job, not a failure.
pub async fn load_asked(
    s: &mut Client,
    held: &[HeldEntry],
    scenario: &str,
    context: &Value,
) -> Result<usize, ClientError> {
    let mut failed = 0;
    for uri in to_load(held, scenario, context) {
        let got;
        let entry = match held.iter().find(|e| e.uri() == uri) {
            Some(entry) => entry,
            None => match get(s, &uri).await {
                Ok(Some(entry)) => {
                    got = entry;
                    &got
                }
                Ok(None) => continue,
                Err(e) => {
                    println!("skill failed {uri}: {e}");
                    failed += 1;
                    continue;
                }
            },
        };
        if load(s, entry).await.is_err() {
            failed += 1;
        }
    }
    Ok(failed)
}

/// The entry `skills/get` gives for the skill at `uri`, held; `None` (said) when it breaks the
/// extension's rules.
async fn get(s: &mut Client, uri: &str) -> Result<Option<HeldEntry>, ClientError> {
    let params = mcp::GetSkillRequestParams::new(s.meta(), uri);
    let got = s.call::<mcp::GetSkillRequest>(params).await?;
    match HeldEntry::from_entry(&got.skill) {
        Ok(entry) => {
            println!("skill got {}", entry.uri());
            Ok(Some(entry))
        }
        Err(e) => {
            println!("skill invalid {uri}: {e}");
            Ok(None)
        }
    }
}

/// Why loading a skill stopped: the server failed, or what it served failed verification.
enum NotLoaded {
    Failed(ClientError),
    Refused(VerifyError),
}

/// Loads `entry`: its `SKILL.md`, then every other file it lists, each verified before use.
/// Prints the outcome; an error only when the server failed.
async fn load(s: &mut Client, entry: &HeldEntry) -> Result<(), ClientError> {
    match load_files(s, entry).await {
        Ok(files) => {
            println!("skill loaded {}: {files} files verified", entry.uri());
            Ok(())
        }
        Err(NotLoaded::Refused(why)) => {
            println!("skill refused {}: {why}", entry.uri());
            Ok(())
        }
        Err(NotLoaded::Failed(e)) => {
            println!("skill failed {}: {e}", entry.uri());
            Err(e)
        }
    }
}

/// The number of files of `entry` read and verified, the `SKILL.md` first.
async fn load_files(s: &mut Client, entry: &HeldEntry) -> Result<usize, NotLoaded> {
    let skill_md_read = read(s, entry, entry.uri()).await?;
    let skill_md = entry
        .verify_skill_md_read(&skill_md_read)
        .map_err(NotLoaded::Refused)?;
    eprintln!(
        "skill {}: SKILL.md verified ({} bytes)",
        entry.uri(),
        skill_md.text().len()
    );
    let others: Vec<String> = entry
        .files()
        .into_iter()
        .flat_map(|files| files.keys())
        .filter(|uri| uri.as_str() != entry.uri())
        .cloned()
        .collect();
    for uri in &others {
        let file_read = read(s, entry, uri).await?;
        entry
            .verify_read(uri, &file_read)
            .map_err(NotLoaded::Refused)?;
    }
    Ok(1 + others.len())
}

/// `resources/read` of `uri`, a file `entry` lists (refused before the read otherwise), as
/// JSON for the verification.
async fn read(s: &mut Client, entry: &HeldEntry, uri: &str) -> Result<Value, NotLoaded> {
    entry.check_readable(uri).map_err(NotLoaded::Refused)?;
    let params = mcp::ReadResourceRequestParams::new(s.meta(), uri);
    let result = s
        .call::<mcp::ReadResourceRequest>(params)
        .await
        .map_err(NotLoaded::Failed)?;
    serde_json::to_value(&result)
        .map_err(|e| NotLoaded::Failed(ClientError::Protocol(format!("writing a read back: {e}"))))
}

/// The children of the directory at `uri`, every page (only for a server that declared
/// `directoryRead`).
pub async fn directory(s: &mut Client, uri: &str) -> Result<Vec<mcp::Resource>, ClientError> {
    let mut children = Vec::new();
    let mut cursor = None;
    loop {
        let mut params = mcp::ReadResourceDirectoryRequestParams::new(s.meta(), uri);
        params.cursor = cursor;
        let page = s.call::<mcp::ReadResourceDirectoryRequest>(params).await?;
        children.extend(page.resources);
        match page.next_cursor {
            Some(next) if !next.is_empty() => cursor = Some(next),
            _ => return Ok(children),
        }
    }
}
