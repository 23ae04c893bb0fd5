//! The URI templates a resource router matches (RFC 6570 level 1 and 2): literal text with
//! `{name}` variables, each matching one or more characters other than `/`, and `{+name}`
//! variables, matching one or more of any character. A template with any other expression is
//! refused when added, so that a template is never listed that the router cannot match.

use std::collections::BTreeMap;

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    /// A variable, and whether it may match `/` (`{+name}`).
    Var(String, bool),
}

/// A URI template the router cannot match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("URI template {template:?}: {why}")]
pub struct TemplateError {
    /// The template.
    pub template: String,
    /// What is wrong, and where.
    pub why: String,
}

impl Template {
    /// `text` parsed: an error naming the expression this router cannot match.
    pub fn parse(text: &str) -> Result<Self, TemplateError> {
        let refused = |why: String| TemplateError {
            template: text.to_owned(),
            why,
        };
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let close = rest[open..].find('}').ok_or_else(|| {
                refused(format!(
                    "the `{{` at byte {} is not closed",
                    text.len() - rest.len() + open
                ))
            })?;
            let expression = &rest[open + 1..open + close];
            let (name, reserved) = match expression.strip_prefix('+') {
                Some(name) => (name, true),
                None => (expression, false),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(refused(format!(
                    "`{{{expression}}}`: only `{{name}}` and `{{+name}}` are matched"
                )));
            }
            if matches!(parts.last(), Some(Part::Var(..))) {
                return Err(refused(format!(
                    "`{{{expression}}}` follows another variable with no text between"
                )));
            }
            parts.push(Part::Var(name.to_owned(), reserved));
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Template {
            text: text.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The variables of `uri` if it matches, by name.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut vars = BTreeMap::new();
        match_parts(&self.parts, uri, &mut vars).then_some(vars)
    }
}

/// Whether `uri` matches `parts`, the variables pushed into `vars` (backtracking over where
/// each variable ends).
fn match_parts(parts: &[Part], uri: &str, vars: &mut BTreeMap<String, String>) -> bool {
    match parts.split_first() {
        None => uri.is_empty(),
        Some((Part::Literal(text), rest)) => uri
            .strip_prefix(text.as_str())
            .is_some_and(|after| match_parts(rest, after, vars)),
        Some((Part::Var(name, reserved), rest)) => {
            let longest = if *reserved {
                uri.len()
            } else {
                uri.find('/').unwrap_or(uri.len())
            };
            let ends = uri[..longest].char_indices().map(|(i, c)| i + c.len_utf8());
            for end in ends.rev() {
                if match_parts(rest, &uri[end..], vars) {
                    vars.insert(name.clone(), uri[..end].to_owned());
                    return true;
                }
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        let t = Template::parse(template).unwrap();
        t.matches(uri).map(|v| v.into_iter().collect())
    }

    fn pair(name: &str, value: &str) -> (String, String) {
        (name.to_owned(), value.to_owned())
    }

    #[test]
    fn variables_match_up_to_a_slash_and_reserved_ones_across() {
        assert_eq!(
            vars("file:///{dir}/{name}.md", "file:///notes/today.md"),
            Some(vec![pair("dir", "notes"), pair("name", "today")])
        );
        assert_eq!(vars("file:///{name}", "file:///a/b"), None);
        assert_eq!(
            vars("file:///{+path}", "file:///a/b"),
            Some(vec![pair("path", "a/b")])
        );
        assert_eq!(
            vars("users://{id}/profile", "users://42/profile"),
            Some(vec![pair("id", "42")])
        );
        assert_eq!(
            vars("users://{id}/profile", "users:///profile"),
            None,
            "a variable is never empty"
        );
        assert_eq!(vars("static://x", "static://x"), Some(vec![]));
    }

    #[test]
    fn a_template_the_router_cannot_match_is_refused_saying_why() {
        for (template, why) in [
            ("file:///{?q}", "only `{name}` and `{+name}`"),
            ("file:///{a}{b}", "follows another variable"),
            ("file:///{a", "is not closed"),
        ] {
            let error = Template::parse(template).unwrap_err().to_string();
            assert!(error.contains(why), "{template}: {error}");
        }
    }
}
