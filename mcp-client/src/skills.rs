//! The host side of the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640), on
//! plain JSON: a skill entry from `skills/list` or `skills/get` is checked and held
//! ([`HeldEntry`]) without reading anything; when the skill is loaded, the `SKILL.md` read
//! with `resources/read` is verified against it (size, then digest, then its frontmatter
//! field by field: [`HeldEntry::verify_skill_md`]), and so is every other file read while
//! acting on the skill, which must be one the entry lists ([`HeldEntry::verify`]).
//!
//! Content is handed out only as [`VerifiedFile`] or [`VerifiedSkillMd`], which only the
//! verification makes: there is no way to get a file's bytes past a failed check. A skill
//! whose `resources` are `"dynamic"` has no integrity to check and is refused unless the
//! host opts in ([`HeldEntry::allow_dynamic`]).
//!
//! On a client bound with `bind!(Mcp = mcp, skills)`, the calls are made for you: [`list`],
//! [`get`], [`load`] (read and verify every file of a skill; [`load_uri`] from a URI) and
//! [`read_directory`], each
//! bounded by [`Limits`]: a server cannot make the client read pages or bytes without end.
//!
//! The generated types are not needed for the checks alone: give [`HeldEntry::from_entry`] a generated `Skill`
//! (or [`HeldEntry::from_json`] its JSON), and the verification a `resources/read` result as
//! JSON.
//!
//! ```
//! use mcp_client::skills::{HeldEntry, VerifyError};
//! use mcp_runtime::skills::digest;
//! use serde_json::json;
//!
//! let skill_md = "---\nname: pdf-processing\ndescription: Work with PDFs\n---\n\nBody.\n";
//! let forms = "Forms.\n";
//! let entry = json!({
//!     "uri": "skill://pdf-processing/SKILL.md",
//!     "frontmatter": { "name": "pdf-processing", "description": "Work with PDFs" },
//!     "resources": [
//!         { "uri": "skill://pdf-processing/SKILL.md",
//!           "digest": digest(skill_md.as_bytes()), "size": skill_md.len() },
//!         { "uri": "skill://pdf-processing/references/FORMS.md",
//!           "digest": digest(forms.as_bytes()), "size": forms.len() },
//!     ],
//! });
//! // Listing reads nothing: the entry is checked and held.
//! let held = HeldEntry::from_json(&entry)?;
//! assert_eq!(held.name(), "pdf-processing");
//!
//! // Loading the skill: its SKILL.md, as resources/read returned it.
//! let read = json!({ "contents": [
//!     { "uri": "skill://pdf-processing/SKILL.md", "mimeType": "text/markdown", "text": skill_md },
//! ]});
//! let loaded = held.verify_skill_md_read(&read)?;
//! assert!(loaded.text().ends_with("Body.\n"));
//!
//! // A tampered file is refused, and a file the entry does not list is not even read.
//! let tampered = held.verify("skill://pdf-processing/references/FORMS.md", b"Evil!!\n".to_vec());
//! assert!(matches!(tampered, Err(VerifyError::Digest { .. })));
//! let other = held.check_readable("skill://pdf-processing/secrets.txt");
//! assert!(matches!(other, Err(VerifyError::Unlisted { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod content;
mod entry;
mod gate;
mod host;
#[cfg(test)]
mod tests;
mod verify;

pub use content::{ContentError, content_bytes};
pub use entry::{EntryError, FileEntry, HeldEntry};
pub use gate::{declared, reads_directories};
pub use host::{
    Limits, Listed, Loaded, SkillsBinding, SkillsError, get, list, load, load_uri, read_directory,
};
pub use verify::{VerifiedFile, VerifiedSkillMd, VerifyError};
