//! The host side of the skills extension (`io.modelcontextprotocol/skills`), on
//! `mcp_client::skills`: with a server that declares it, the client lists the skills (every
//! page) and holds each entry, reading none of their files; it loads only the skills it is
//! asked to (the context's `loadSkills`, listed or confirmed with `skills/get`, or every listed
//! one in the suite's `sep-2640-client-verify-*` scenarios, which serve a tampered file): the
//! `SKILL.md` read and verified first (size, digest, frontmatter against the entry), then each
//! other listed file, verified before use. A skill that fails is refused, and nothing more of
//! it is read.
//!
//! One line per skill: `skill listed <uri>`, `skill loaded <uri>: <n> files verified`,
//! `skill refused <uri>: <reason>`, `skill invalid <uri>: <reason>` (an entry that breaks the
//! extension's rules is never loaded), `skill failed <uri>: <reason>` (the server failed).

use mcp_client::skills::{self, HeldEntry, Limits, SkillsError};
use serde_json::Value;

use crate::{Client, logged, mcp};

/// The prefix of the suite's scenarios in which the host loads the skill it lists.
const VERIFY_SCENARIOS: &str = "sep-2640-client-verify-";

/// The skills the server lists, held; none of their files read. Empty when the server does
/// not declare the extension.
pub async fn list(
    s: &mut Client,
    caps: &mcp::ServerCapabilities,
) -> Result<Vec<HeldEntry>, SkillsError> {
    if skills::declared::<mcp::SkillsExtension, _>(caps).is_err() {
        return Ok(Vec::new());
    }
    let listed = skills::list(s, Limits::default()).await?;
    for (uri, e) in &listed.invalid {
        println!("skill invalid {uri}: {e}");
    }
    for entry in &listed.held {
        println!("skill listed {}", entry.uri());
    }
    Ok(listed.held)
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
/// from the entry `skills/get` gives for its URI. The number whose server failed: a skill
/// refused for what it served (or an entry that breaks the rules) is the host doing its job,
/// not a failure.
pub async fn load_asked(
    s: &mut Client,
    held: &[HeldEntry],
    scenario: &str,
    context: &Value,
) -> usize {
    let mut failed = 0;
    for uri in to_load(held, scenario, context) {
        match skills::load_uri(s, held, &uri, Limits::default()).await {
            Ok(loaded) => println!("skill loaded {uri}: {} files verified", loaded.count()),
            Err(SkillsError::Refused(why)) => println!("skill refused {uri}: {why}"),
            Err(SkillsError::Entry { error, .. }) => println!("skill invalid {uri}: {error}"),
            Err(e) => {
                println!("skill failed {uri}: {e}");
                failed += 1;
            }
        }
    }
    failed
}

/// Reads the directory of every held skill (for a server that declared `directoryRead`); the
/// number of reads that failed.
pub async fn read_directories(s: &mut Client, held: &[HeldEntry]) -> usize {
    let mut failed = 0;
    for root in held.iter().map(HeldEntry::root) {
        let read = skills::read_directory(s, root, Limits::default()).await;
        let what = format!("resources/directory/read {root:?}");
        failed += logged(what, read, |children| {
            format!("{} child(ren)", children.len())
        });
    }
    failed
}
