//! Rustdoc text from schema `description`s: `{@link X}` becomes an intra-doc link, bare URLs
//! are wrapped so rustdoc links them, and nothing in a description can turn into a doctest.

use std::collections::BTreeSet;

/// Converts a schema description into rustdoc markdown.
///
/// `known` holds the Rust names of the generated types, so that a link names a type only where
/// the type exists; `field` maps `Type.member` to the Rust path of that member, where known.
pub fn rustdoc(
    description: &str,
    known: &BTreeSet<String>,
    field: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    let linked = links(description, known, field);
    let urls = wrap_urls(&linked);
    guard_code(&urls)
}

/// A schema description as plain text, for a JSON Schema `description`: each `{@link ...}`
/// becomes the text it shows (its label, else its target), with no rustdoc link syntax.
pub fn plain(description: &str, known: &BTreeSet<String>) -> String {
    each_link(description, &|body| plain_link(body, known))
}

fn plain_link(body: &str, known: &BTreeSet<String>) -> String {
    let (target, text) = match body.split_once('|') {
        Some((t, x)) => (t.trim(), x.trim()),
        None => (body, ""),
    };
    if !text.is_empty() {
        return text.to_owned();
    }
    if known.contains(target) || target.contains('.') {
        return target.to_owned();
    }
    // The longest known type name that prefixes the body: `CallToolRequesttools/call`.
    let label = known
        .iter()
        .filter(|k| target.starts_with(k.as_str()) && target.len() > k.len())
        .max_by_key(|k| k.len())
        .map(|ty| target[ty.len()..].trim());
    label.unwrap_or(target).to_owned()
}

/// "a" or "an" before `word`, by its first sound: an acronym (`JSON`, `URL`, `SSE`) is read
/// letter by letter, a word by its first vowel.
pub fn article(word: &str) -> &'static str {
    let mut chars = word.chars();
    let (Some(first), second) = (chars.next(), chars.next()) else {
        return "a";
    };
    let acronym = first.is_ascii_uppercase() && second.is_some_and(|c| c.is_ascii_uppercase());
    let an = if acronym {
        "AEFHILMNORSX".contains(first)
    } else {
        match first.to_ascii_lowercase() {
            'a' | 'e' | 'i' | 'o' => true,
            'u' => second == Some('n'),
            _ => false,
        }
    };
    if an { "an" } else { "a" }
}

/// `text` with its first letter capitalised.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Rewrites `{@link Target}`, `{@link Target text}` (TypeDoc's `{@link Target | text}` with
/// the bar and spaces lost) and `{@link Type.member}`.
fn links(
    text: &str,
    known: &BTreeSet<String>,
    field: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    each_link(text, &|body| one_link(body, known, field))
}

/// `text` with the body of each `{@link body}` replaced by `link(body)`.
fn each_link(text: &str, link: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{@link ") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 7..];
        let Some(end) = after.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        out.push_str(&link(after[..end].trim()));
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

fn one_link(
    body: &str,
    known: &BTreeSet<String>,
    field: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    let (target, text) = match body.split_once('|') {
        Some((t, x)) => (t.trim(), x.trim()),
        None => (body, ""),
    };
    if text.is_empty() {
        if known.contains(target) {
            return format!("[`{target}`]");
        }
        if let Some((ty, member)) = target.split_once('.') {
            let member = member.split('.').next().unwrap_or(member);
            if let Some(path) = field(ty, member) {
                return format!("[`{target}`]({path})");
            }
        }
        // The longest known type name that prefixes the body: `CallToolRequesttools/call`.
        if let Some(ty) = known
            .iter()
            .filter(|k| target.starts_with(k.as_str()) && target.len() > k.len())
            .max_by_key(|k| k.len())
        {
            let label = target[ty.len()..].trim();
            if label.contains('`') {
                return format!("[{label}]({ty})");
            }
            return format!("[`{label}`]({ty})");
        }
        return format!("`{target}`");
    }
    if known.contains(target) {
        format!("[{text}]({target})")
    } else {
        text.to_owned()
    }
}

/// Wraps bare `http(s)://` URLs in `<...>` (rustdoc's `bare_urls` lint).
fn wrap_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find("http") {
        let candidate = &rest[pos..];
        if !(candidate.starts_with("https://") || candidate.starts_with("http://")) {
            out.push_str(&rest[..pos + 4]);
            rest = &rest[pos + 4..];
            continue;
        }
        let before = rest[..pos].chars().last();
        let end = candidate
            .find(|c: char| c.is_whitespace() || matches!(c, '>' | ')' | '"' | '`' | ']'))
            .unwrap_or(candidate.len());
        let mut url = &candidate[..end];
        while url.ends_with(['.', ',', ';', ':']) {
            url = &url[..url.len() - 1];
        }
        out.push_str(&rest[..pos]);
        if matches!(before, Some('<' | '(' | '`')) {
            out.push_str(url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        rest = &candidate[url.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether rustdoc would test a code block with this info string: no language, or `rust` and
/// rustdoc's own attributes only (```` ```rust ```` in a description is a doctest too).
fn rust_fence(info: &str) -> bool {
    const RUSTDOC: &[&str] = &[
        "rust",
        "ignore",
        "should_panic",
        "no_run",
        "compile_fail",
        "standalone_crate",
        "test_harness",
        "allow_fail",
    ];
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .all(|t| RUSTDOC.contains(&t) || t.starts_with("edition"))
}

/// Marks fenced code as `text` and keeps indented lines from becoming code blocks, so that no
/// description is compiled as a doctest.
fn guard_code(text: &str) -> String {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if !in_fence && rust_fence(info) {
                out.push(format!("{}```text", &line[..line.len() - trimmed.len()]));
            } else {
                out.push(line.to_owned());
            }
            in_fence = !in_fence;
            continue;
        }
        if !in_fence && line.starts_with("    ") && !trimmed.starts_with(['-', '*']) {
            out.push(format!("  {trimmed}"));
        } else {
            out.push(line.to_owned());
        }
    }
    if in_fence {
        out.push("```".to_owned());
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_fences_become_text() {
        let out =
            guard_code("a\n```rust\npanic!()\n```\n``` rust,no_run\nx\n```\n```json\n{}\n```");
        assert_eq!(
            out,
            "a\n```text\npanic!()\n```\n```text\nx\n```\n```json\n{}\n```"
        );
    }

    fn known() -> BTreeSet<String> {
        ["CallToolRequest", "Tool", "MetaObject", "Result"]
            .into_iter()
            .map(String::from)
            .collect()
    }

    fn no_field(_: &str, _: &str) -> Option<String> {
        None
    }

    #[test]
    fn plain_link() {
        assert_eq!(
            rustdoc("see {@link Tool}.", &known(), &no_field),
            "see [`Tool`]."
        );
    }

    #[test]
    fn link_with_lost_bar() {
        assert_eq!(
            rustdoc(
                "a {@link CallToolRequesttools/call} request",
                &known(),
                &no_field
            ),
            "a [`tools/call`](CallToolRequest) request"
        );
        assert_eq!(
            rustdoc(
                "{@link MetaObject`_meta` key naming rules}",
                &known(),
                &no_field
            ),
            "[`_meta` key naming rules](MetaObject)"
        );
    }

    #[test]
    fn member_link() {
        let f = |t: &str, m: &str| (t == "Tool").then(|| format!("Tool::{m}"));
        assert_eq!(
            rustdoc("{@link Tool.outputSchema}", &known(), &f),
            "[`Tool.outputSchema`](Tool::outputSchema)"
        );
    }

    #[test]
    fn unknown_link_is_code() {
        assert_eq!(rustdoc("{@link Nope}", &known(), &no_field), "`Nope`");
    }

    #[test]
    fn urls_are_wrapped() {
        assert_eq!(
            rustdoc("see https://example.com/a.", &known(), &no_field),
            "see <https://example.com/a>."
        );
        assert_eq!(
            rustdoc("<https://x.y>", &known(), &no_field),
            "<https://x.y>"
        );
    }

    #[test]
    fn plain_text_has_no_link_syntax() {
        let plain = |t: &str| plain(t, &known());
        assert_eq!(plain("see {@link Tool}."), "see Tool.");
        assert_eq!(
            plain("a {@link CallToolRequesttools/call} request"),
            "a tools/call request"
        );
        assert_eq!(plain("{@link Tool.outputSchema}"), "Tool.outputSchema");
        assert_eq!(plain("{@link Tool | the tool}"), "the tool");
        assert_eq!(plain("{@link Nope} ```rust"), "Nope ```rust");
    }

    #[test]
    fn articles_follow_the_first_sound() {
        for (word, a) in [
            ("ImageContent", "an"),
            ("AudioContent", "an"),
            ("TextContent", "a"),
            ("EmbeddedResource", "an"),
            ("UntitledSingleSelectEnumSchema", "an"),
            ("URLElicitation", "a"),
            ("JSONRPCRequest", "a"),
            ("SSEStream", "an"),
            ("ResourceLink", "a"),
            ("", "a"),
        ] {
            assert_eq!(article(word), a, "{word}");
        }
    }

    #[test]
    fn no_doctests() {
        assert_eq!(
            rustdoc("```\nlet x;\n```", &known(), &no_field),
            "```text\nlet x;\n```"
        );
        assert_eq!(rustdoc("a\n\n    code", &known(), &no_field), "a\n\n  code");
    }
}
