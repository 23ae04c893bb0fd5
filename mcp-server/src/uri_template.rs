//! The URI templates a resource router matches (RFC 6570 level 1 and 2): literal text with
//! `{name}` variables, each matching one or more characters other than `/`, and `{+name}`
//! variables, matching one or more of any character. A template with any other expression is
//! refused when added, so that a template is never listed that the router cannot match.
//!
//! Where two or more variables could end at several places, the first variable takes the
//! longest text that still lets the rest of the template match, then the next, and so on
//! (`x://{+a}/{+b}` reads `x://1/2/3` as `a = 1/2`, `b = 3`). A name given twice takes the
//! value of its first place.
//!
//! A template is matched in time linear in the URI's length: it is compiled once, when it is
//! parsed, into a regular expression of the [`regex`] crate (its literal text escaped, `{name}`
//! as `([^/]+)`, `{+name}` as `(.+)`, anchored at both ends), whose engines simulate the
//! automaton position by position and never backtrack without bound. Its greedy, leftmost-first
//! groups give the same variables as trying the longest end of each variable first would, at a
//! cost that does not grow with the number of ways a URI could be split (a hand-written
//! backtracking matcher took seconds for `x://{+a}/{+b}.json` against a few thousand slashes).

use std::collections::BTreeMap;

use regex::Regex;

/// A parsed URI template, compiled for matching.
#[derive(Debug, Clone)]
pub struct Template {
    text: String,
    /// The names of the variables, in the order of the regex's capture groups.
    names: Vec<String>,
    /// The whole template: literal text escaped, one capture group per variable.
    regex: Regex,
}

impl PartialEq for Template {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Template {}

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
        let mut pattern = String::from(r"(?s)\A");
        let mut names = Vec::new();
        let mut last_was_var = false;
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                pattern.push_str(&regex::escape(&rest[..open]));
                last_was_var = false;
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
            if last_was_var {
                return Err(refused(format!(
                    "`{{{expression}}}` follows another variable with no text between"
                )));
            }
            pattern.push_str(if reserved { "(.+)" } else { "([^/]+)" });
            names.push(name.to_owned());
            last_was_var = true;
            rest = &rest[open + close + 1..];
        }
        pattern.push_str(&regex::escape(rest));
        pattern.push_str(r"\z");
        let regex = Regex::new(&pattern)
            .map_err(|e| refused(format!("cannot be compiled for matching: {e}")))?;
        Ok(Template {
            text: text.to_owned(),
            names,
            regex,
        })
    }

    /// The template as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The variables of `uri` if it matches, by name (in time linear in `uri`'s length).
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let groups = self.regex.captures(uri)?;
        let mut vars = BTreeMap::new();
        for (name, value) in self.names.iter().zip(groups.iter().skip(1)) {
            // Every group takes part in a match: each variable lies on the one path.
            let value = value.map_or("", |m| m.as_str());
            vars.entry(name.clone()).or_insert_with(|| value.to_owned());
        }
        Some(vars)
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
    fn the_first_variable_takes_the_longest_text_the_rest_allows() {
        assert_eq!(
            vars("x://{+a}/{+b}", "x://1/2/3"),
            Some(vec![pair("a", "1/2"), pair("b", "3")])
        );
        assert_eq!(
            vars("x://{a}.{b}", "x://f.tar.gz"),
            Some(vec![pair("a", "f.tar"), pair("b", "gz")])
        );
        assert_eq!(
            vars("x://{a}/{a}", "x://1/2"),
            Some(vec![pair("a", "1")]),
            "a name given twice keeps its first value"
        );
        assert_eq!(
            vars("x://{+a}", "x://line\nbreak"),
            Some(vec![pair("a", "line\nbreak")])
        );
        assert_eq!(
            vars("x://{a}.json", "x://é.json"),
            Some(vec![pair("a", "é")])
        );
        assert_eq!(
            vars("x://a.b/{a}", "x://aXb/1"),
            None,
            "literal text is literal"
        );
    }

    /// What a backtracking matcher (the router's before it was linear) makes of `uri`: the
    /// reference the compiled templates are checked against.
    fn backtracked(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        enum Part {
            Literal(String),
            Var(String, bool),
        }
        let mut parts = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let close = open + rest[open..].find('}').unwrap();
            let expression = &rest[open + 1..close];
            parts.push(match expression.strip_prefix('+') {
                Some(name) => Part::Var(name.to_owned(), true),
                None => Part::Var(expression.to_owned(), false),
            });
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        fn walk(parts: &[Part], uri: &str, vars: &mut BTreeMap<String, String>) -> bool {
            match parts.split_first() {
                None => uri.is_empty(),
                Some((Part::Literal(text), rest)) => uri
                    .strip_prefix(text.as_str())
                    .is_some_and(|after| walk(rest, after, vars)),
                Some((Part::Var(name, reserved), rest)) => {
                    let longest = if *reserved {
                        uri.len()
                    } else {
                        uri.find('/').unwrap_or(uri.len())
                    };
                    let ends = uri[..longest].char_indices().map(|(i, c)| i + c.len_utf8());
                    for end in ends.rev() {
                        if walk(rest, &uri[end..], vars) {
                            vars.insert(name.clone(), uri[..end].to_owned());
                            return true;
                        }
                    }
                    false
                }
            }
        }
        let mut vars = BTreeMap::new();
        walk(&parts, uri, &mut vars).then(|| vars.into_iter().collect())
    }

    /// Every string of `alphabet` up to `longest` characters.
    fn strings(alphabet: &[char], longest: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..longest {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn compiled_templates_match_as_the_backtracking_matcher_did() {
        let templates = [
            "x://{a}",
            "x://{+a}",
            "x://{a}/{b}",
            "x://{+a}/{+b}",
            "x://{+a}/{b}",
            "x://{a}/{+b}",
            "x://{+a}.{b}",
            "x://{a}.{+b}/.",
            "x://{+a}/.{+b}.",
            "x://{a}/{a}",
        ];
        let tails = strings(&['/', '.', 'a', 'é'], 6);
        let mut matched = 0;
        for template in templates {
            let compiled = Template::parse(template).unwrap();
            for tail in &tails {
                let uri = format!("x://{tail}");
                let got = compiled.matches(&uri).map(|v| v.into_iter().collect());
                let expected = backtracked(template, &uri);
                matched += usize::from(expected.is_some());
                assert_eq!(got, expected, "{template} against {uri:?}");
            }
        }
        assert!(
            matched > 1000,
            "only {matched} URIs matched: too few to compare"
        );
    }

    #[test]
    fn a_uri_of_many_slashes_is_matched_in_one_pass() {
        // 64 KiB of slashes between two reserved variables: a backtracking matcher tries every
        // split of the slashes for each variable (seconds at 8 KiB, far longer here).
        let middle = "/".repeat(64 * 1024);
        let template = Template::parse("x://{+a}/{+b}.json").unwrap();
        let started = std::time::Instant::now();
        let matched = template.matches(&format!("x://a{middle}b.json"));
        let missed = template.matches(&format!("x://a{middle}b.jsonx"));
        eprintln!(
            "64 KiB of slashes matched and missed in {:?}",
            started.elapsed()
        );
        let matched = matched.expect("the URI matches");
        assert_eq!(matched["a"], format!("a{}", &middle[1..]));
        assert_eq!(matched["b"], "b");
        assert_eq!(missed, None);
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
