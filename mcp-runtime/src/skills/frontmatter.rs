//! Reading the YAML frontmatter at the top of a `SKILL.md`.

use serde_json::{Map, Value};

/// The line that opens and closes the frontmatter block.
const FENCE: &str = "---";

/// What is wrong with the frontmatter of a `SKILL.md`, and where (1-based line numbers of the
/// whole file, the opening `---` being line 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrontmatterError {
    /// The first line (after an optional byte order mark) is not `---`.
    #[error("line 1: a SKILL.md must begin with a `---` line opening its YAML frontmatter")]
    NoOpening,
    /// No `---` line closes the block opened on line 1.
    #[error("line 1: the frontmatter opened here is never closed by a `---` line")]
    Unclosed,
    /// The YAML between the two fences does not parse (or exceeds the parser's budget).
    #[error("{}frontmatter YAML: {message}", position(*line, *column))]
    Yaml {
        /// The line of the file where the parser stopped, when it knows it.
        line: Option<u64>,
        /// The column on that line, when known.
        column: Option<u64>,
        /// The parser's message.
        message: String,
    },
    /// The YAML is valid but is not a mapping (a list, a scalar, or nothing at all).
    #[error("lines 2-{last_line}: the frontmatter must be a YAML mapping, not {found}")]
    NotAMapping {
        /// What the YAML held instead ("a list", "a string", "nothing", ...).
        found: &'static str,
        /// The last line of the YAML block.
        last_line: usize,
    },
    /// A required member (`name` or `description`) is absent, not a string, or empty.
    #[error("lines 2-{last_line}: the frontmatter's `{field}` {problem}")]
    Field {
        /// The member's name.
        field: &'static str,
        /// What is wrong with it ("is missing", "must be a string, not a number", ...).
        problem: String,
        /// The last line of the YAML block.
        last_line: usize,
    },
}

/// "line L, column C: " when known.
fn position(line: Option<u64>, column: Option<u64>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!("line {line}, column {column}: "),
        (Some(line), None) => format!("line {line}: "),
        _ => String::new(),
    }
}

/// Whether `line` (without its `\n`) is a fence: `---`, a trailing `\r` or blanks tolerated.
fn is_fence(line: &str) -> bool {
    line.trim_end_matches([' ', '\t', '\r']) == FENCE
}

/// The YAML text between the fences, and the file line number of the closing fence.
fn block(text: &str) -> Result<(&str, usize), FrontmatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    if !is_fence(first) {
        return Err(FrontmatterError::NoOpening);
    }
    let mut offset = 0;
    for (index, line) in rest.split_inclusive('\n').enumerate() {
        if is_fence(line.strip_suffix('\n').unwrap_or(line)) {
            return Ok((&rest[..offset], index + 2));
        }
        offset += line.len();
    }
    Err(FrontmatterError::Unclosed)
}

/// The parser's limits: far below serde-saphyr's defaults, as a frontmatter is a few lines,
/// so that aliases cannot expand a small document into a large value.
/// Booleans are YAML 1.2's only (`yes` and `off` stay strings), as most YAML readers of
/// today read them, so that a client parsing the file sees the same values.
fn options() -> serde_saphyr::Options {
    let mut aliases = serde_saphyr::options::AliasLimits::default();
    aliases.max_total_replayed_events = 100_000;
    serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_events: 100_000,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_recorded_anchor_events: 100_000,
            max_recorded_anchor_bytes: 1024 * 1024,
        },
        alias_limits: aliases,
        strict_booleans: true,
    }
}

/// The parser's message without its own position (relative to the YAML block, so not the
/// file's line): `... at line 3, column 4` loses its tail.
fn without_position(message: &str) -> &str {
    let Some(at) = message.rfind(" at line ") else {
        return message;
    };
    let tail = &message[at + " at line ".len()..];
    let positional = tail.split_once(", column ").is_some_and(|(line, column)| {
        !line.is_empty()
            && !column.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && column.bytes().all(|b| b.is_ascii_digit())
    });
    if positional { &message[..at] } else { message }
}

/// The kind of a JSON value, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// The frontmatter of a `SKILL.md` as a JSON object: an optional byte order mark, a first line
/// `---`, YAML up to the next `---` line (CRLF line ends are fine), which must be a mapping with
/// non-empty string members `name` and `description`. Every other member is kept as written.
///
/// The parser runs with tight limits (events, aliases, anchors), so a hostile document is an
/// error, not a memory blow-up.
///
/// ```
/// use mcp_runtime::skills::frontmatter;
///
/// let fields = frontmatter("---\nname: refunds\ndescription: Issue refunds\nlicense: MIT\n---\n# Refunds\n")?;
/// assert_eq!(fields["name"], "refunds");
/// assert_eq!(fields["license"], "MIT");
/// # Ok::<(), mcp_runtime::skills::FrontmatterError>(())
/// ```
pub fn frontmatter(text: &str) -> Result<Map<String, Value>, FrontmatterError> {
    let (yaml, closing_line) = block(text)?;
    let last_line = closing_line - 1;
    let value: Value = if yaml.trim().is_empty() {
        Value::Null
    } else {
        serde_saphyr::from_str_with_options(yaml, options()).map_err(|error| {
            let location = error.location();
            FrontmatterError::Yaml {
                // The YAML starts on the file's line 2.
                line: location.map(|l| l.line() + 1).filter(|&l| l > 1),
                column: location.map(|l| l.column()).filter(|&c| c > 0),
                message: without_position(&error.without_snippet().to_string()).to_owned(),
            }
        })?
    };
    let Value::Object(map) = value else {
        let found = match value {
            Value::Null => "nothing",
            other => kind(&other),
        };
        return Err(FrontmatterError::NotAMapping { found, last_line });
    };
    for field in ["name", "description"] {
        let problem = match map.get(field) {
            None => "is missing".to_owned(),
            Some(Value::String(s)) if s.trim().is_empty() => "is empty".to_owned(),
            Some(Value::String(_)) => continue,
            Some(other) => format!("must be a string, not {}", kind(other)),
        };
        return Err(FrontmatterError::Field {
            field,
            problem,
            last_line,
        });
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_plain_block() {
        let map =
            frontmatter("---\nname: a\ndescription: b\nmetadata:\n  version: \"1.2\"\n---\nbody")
                .unwrap();
        assert_eq!(map["name"], "a");
        assert_eq!(map["metadata"]["version"], "1.2");
    }

    #[test]
    fn tolerates_bom_and_crlf() {
        let map =
            frontmatter("\u{feff}---\r\nname: a\r\ndescription: b\r\n---\r\n# A\r\n").unwrap();
        assert_eq!(map["name"], "a");
        assert_eq!(map["description"], "b");
    }

    #[test]
    fn the_closing_fence_may_end_the_file() {
        let map = frontmatter("---\nname: a\ndescription: b\n---").unwrap();
        assert_eq!(map.len(), 2);
    }

    #[test]
    fn refuses_a_file_without_an_opening_fence() {
        assert_eq!(
            frontmatter("# Title\n---\nname: a\n---\n"),
            Err(FrontmatterError::NoOpening)
        );
        assert_eq!(frontmatter(""), Err(FrontmatterError::NoOpening));
    }

    #[test]
    fn refuses_an_unclosed_block() {
        let error = frontmatter("---\nname: a\ndescription: b\n").unwrap_err();
        assert_eq!(error, FrontmatterError::Unclosed);
        assert!(error.to_string().contains("never closed"), "{error}");
    }

    #[test]
    fn refuses_yaml_that_is_not_a_mapping() {
        let error = frontmatter("---\n- a\n- b\n---\n").unwrap_err();
        assert_eq!(
            error,
            FrontmatterError::NotAMapping {
                found: "a list",
                last_line: 3
            }
        );
        let error = frontmatter("---\n---\n").unwrap_err();
        assert!(matches!(
            error,
            FrontmatterError::NotAMapping {
                found: "nothing",
                ..
            }
        ));
    }

    #[test]
    fn refuses_a_missing_or_empty_name() {
        let error = frontmatter("---\ndescription: b\n---\n").unwrap_err();
        assert!(
            matches!(&error, FrontmatterError::Field { field: "name", .. }),
            "{error}"
        );
        assert!(error.to_string().contains("`name` is missing"), "{error}");
        let error = frontmatter("---\nname: \"\"\ndescription: b\n---\n").unwrap_err();
        assert!(error.to_string().contains("`name` is empty"), "{error}");
        let error = frontmatter("---\nname: a\ndescription: [1]\n---\n").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`description` must be a string, not a list"),
            "{error}"
        );
    }

    #[test]
    fn a_syntax_error_says_where_in_the_file() {
        let error = frontmatter("---\nname: a\ndescription: b\nbad: [unclosed\n---\n").unwrap_err();
        let FrontmatterError::Yaml { line, .. } = &error else {
            panic!("{error:?}")
        };
        let line = line.expect("a line");
        assert!((4..=6).contains(&line), "line {line}: {error}");
        assert!(
            error.to_string().starts_with(&format!("line {line}")),
            "{error}"
        );
    }

    #[test]
    fn reads_yaml_1_2_scalars() {
        let map = frontmatter("---\nname: a\ndescription: b\nflag: yes\nswitch: off\non: true\nsince: 2024-01-01\nn: 0x1F\n---\n").unwrap();
        assert_eq!(map["flag"], "yes");
        assert_eq!(map["switch"], "off");
        assert_eq!(map["on"], true);
        assert_eq!(map["since"], "2024-01-01");
        assert_eq!(map["n"], 31);
    }

    #[test]
    fn the_message_carries_only_the_file_position() {
        let error = frontmatter("---\nname: a\nname: b\ndescription: c\n---\n").unwrap_err();
        assert_eq!(error.to_string().matches("line").count(), 1, "{error}");
        assert!(
            error.to_string().starts_with("line 3, column 1:"),
            "{error}"
        );
        assert_eq!(without_position("bad at line 3, column 4"), "bad");
        assert_eq!(without_position("bad at line three"), "bad at line three");
    }

    #[test]
    fn refuses_an_alias_bomb() {
        let mut yaml =
            String::from("---\nname: a\ndescription: b\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..10 {
            let previous = format!("*l{}", level - 1);
            let items = [previous.as_str(); 10].join(", ");
            yaml.push_str(&format!("l{level}: &l{level} [{items}]\n"));
        }
        yaml.push_str("---\n");
        let error = frontmatter(&yaml).unwrap_err();
        assert!(matches!(error, FrontmatterError::Yaml { .. }), "{error:?}");
    }
}
