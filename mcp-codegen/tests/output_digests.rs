//! The generator's output, pinned: one SHA-256 per official revision and option set, kept in
//! `tests/output-digests.txt` and compared byte for byte with what the generator writes now.
//!
//! Digests and not the text: the generated files embed the official schema's descriptions, and
//! the repository keeps no text copied from the specification (and at about 9,000 lines for
//! each of the 29 cases, the text would drown every review). A digest tells *that* the output
//! changed; to see *what* changed, write the outputs before and after a change to a folder and
//! diff them:
//!
//! ```text
//! MCP_CODEGEN_DUMP=/tmp/before cargo test -p mcp-codegen --test output_digests
//! ```
//!
//! When the output changes on purpose, refresh the file with one command and commit it with
//! the change that caused it:
//!
//! ```text
//! MCP_CODEGEN_BLESS=1 cargo test -p mcp-codegen --test output_digests
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

/// Every official revision the generator has an overlay for.
const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The extension defined for the newest revision.
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// One option set of the public `Builder`, named for the digest file.
struct Options {
    name: &'static str,
    json_schema: bool,
    raw_json: bool,
    lossless: bool,
    tasks: bool,
}

/// The option sets pinned for every revision: the default, each opt-in switch alone, and the
/// combination of both switches.
const COMMON: [Options; 5] = [
    opts("plain", false, false, true, false),
    opts("json_schema", true, false, true, false),
    opts("raw_json", false, true, true, false),
    opts("no_lossless", false, false, false, false),
    opts("json_schema+raw_json", true, true, true, false),
];

/// The option sets with the tasks extension (defined for 2026-07-28 only): alone, and with each
/// switch the tests and examples combine it with.
const WITH_TASKS: [Options; 4] = [
    opts("tasks", false, false, true, true),
    opts("tasks+json_schema", true, false, true, true),
    opts("tasks+raw_json", false, true, true, true),
    opts("tasks+json_schema+raw_json", true, true, true, true),
];

const fn opts(
    name: &'static str,
    json_schema: bool,
    raw_json: bool,
    lossless: bool,
    tasks: bool,
) -> Options {
    Options {
        name,
        json_schema,
        raw_json,
        lossless,
        tasks,
    }
}

fn digest_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/output-digests.txt")
}

/// Every (revision, option set) pair pinned, in the digest file's order.
fn cases() -> Vec<(&'static str, &'static Options)> {
    let mut cases: Vec<(&str, &Options)> = REVISIONS
        .iter()
        .flat_map(|r| COMMON.iter().map(move |o| (*r, o)))
        .collect();
    cases.extend(WITH_TASKS.iter().map(|o| ("2026-07-28", o)));
    cases
}

/// The generated text of one case.
fn generate(revision: &str, options: &Options) -> String {
    let schema = PathBuf::from(env!("MCP_SCHEMA_DIR"))
        .join(revision)
        .join("schema.json");
    let mut b = mcp_codegen::Builder::new();
    b.schema(&schema)
        .cargo_metadata(false)
        .json_schema(options.json_schema)
        .raw_json(options.raw_json)
        .lossless(options.lossless);
    if options.tasks {
        b.extension(TASKS);
    }
    match b.generate_string() {
        Ok(g) => g.text,
        Err(e) => panic!("{revision} {}: {e}", options.name),
    }
}

/// `revision option-set sha256` lines, generated on as many threads as the machine has.
fn current() -> String {
    let cases = cases();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = cases.len().div_ceil(threads);
    let dump = std::env::var_os("MCP_CODEGEN_DUMP").map(PathBuf::from);
    let digests: BTreeMap<usize, String> = std::thread::scope(|scope| {
        let workers: Vec<_> = cases
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                let dump = dump.clone();
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, (rev, o))| {
                            let text = generate(rev, o);
                            if let Some(dir) = &dump {
                                let file = dir.join(format!("{rev}.{}.rs", o.name));
                                std::fs::create_dir_all(dir).unwrap();
                                std::fs::write(file, &text).unwrap();
                            }
                            let hash = Sha256::digest(text.as_bytes());
                            let hex = hash.iter().fold(String::new(), |mut s, b| {
                                let _ = write!(s, "{b:02x}");
                                s
                            });
                            (c * chunk + i, format!("{rev} {} {hex}\n", o.name))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    digests.into_values().collect()
}

#[test]
fn output_matches_the_pinned_digests() {
    let now = current();
    let file = digest_file();
    if std::env::var_os("MCP_CODEGEN_BLESS").is_some() {
        std::fs::write(&file, &now).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&file).unwrap_or_default();
    let changed: Vec<&str> = now
        .lines()
        .filter(|line| !pinned.lines().any(|p| p == *line))
        .collect();
    assert!(
        pinned == now,
        "the generated output differs from {} (new or changed lines below):\n{}\n\
         If the change is meant, refresh the file: \
         MCP_CODEGEN_BLESS=1 cargo test -p mcp-codegen --test output_digests \
         (MCP_CODEGEN_DUMP=<dir> writes the outputs to diff)",
        file.display(),
        changed.join("\n"),
    );
}
