//! The pass list is written three times for readers (the crate docs in `src/lib.rs`, the
//! README's "How the pieces fit", and the `// name:` comments that open each pass in
//! `Builder::lower_source`) and run once: this test keeps the three and the code in step.

/// The passes a numbered list in `text` names, in order: each item's name (in bold) and
/// the function that runs it (its first code span), such as `("roles", "roles::assign")`.
fn listed_passes(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|line| line.trim_start_matches("//!").trim_start())
        .filter_map(|line| {
            let (number, item) = line.split_once(". **")?;
            number.parse::<usize>().ok()?;
            let (name, rest) = item.split_once("**")?;
            let function = rest.split('`').nth(1)?;
            Some((name.to_owned(), function.to_owned()))
        })
        .collect()
}

/// The part of `text` from `start` to the next `end` after it (to the text's end without
/// one).
fn between<'t>(text: &'t str, start: &str, end: &str) -> &'t str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start:?} is not there"));
    let rest = &text[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// The README's account of the generator's passes (the README holds other lists).
fn readme_passes_section() -> &'static str {
    let readme = include_str!("../README.md");
    between(readme, "- **mcp-codegen** runs one way", "- **mcp-derive**")
}

/// The source text of `Builder::lower_source`'s body.
fn lower_source_text() -> &'static str {
    between(
        include_str!("../src/builder.rs"),
        "    fn lower_source(",
        "\n    }\n",
    )
}

/// The labels of `lower_source`'s comments (`// roles: ...` opens the roles pass), in order.
fn pass_labels(body: &str) -> Vec<String> {
    body.lines()
        .filter_map(|line| line.trim_start().strip_prefix("// "))
        .filter_map(|comment| comment.split_once(':'))
        .map(|(label, _)| label.to_owned())
        .collect()
}

/// Where `body` calls the last segment of `function` (`roles::assign`: `::assign(` or
/// `.assign(`), from byte `from` on.
fn call_at(body: &str, function: &str, from: usize) -> Option<usize> {
    let name = function.rsplit("::").next()?;
    [format!("::{name}("), format!(".{name}(")]
        .iter()
        .filter_map(|call| body[from..].find(call.as_str()))
        .min()
        .map(|at| from + at)
}

/// The crate docs' and the README's pass lists are the one `lower_source` runs: the same
/// names in the same order, and each documented function called there, after the one
/// before it.
#[test]
fn the_documented_passes_are_the_ones_lower_source_runs_in_order() {
    let crate_docs = listed_passes(include_str!("../src/lib.rs"));
    assert_eq!(
        listed_passes(readme_passes_section()),
        crate_docs,
        "README against lib.rs"
    );
    check_against_lower_source(&crate_docs);
}

/// Asserts that `documented` names `lower_source`'s passes and calls, in order.
fn check_against_lower_source(documented: &[(String, String)]) {
    let body = lower_source_text();
    let names: Vec<String> = documented.iter().map(|(n, _)| n.clone()).collect();
    assert!(names.len() >= 10, "the docs list the passes: {names:?}");
    assert_eq!(
        pass_labels(body),
        names,
        "lib.rs's list against lower_source's comments"
    );
    let mut from = 0;
    for (name, function) in documented {
        let at = call_at(body, function, from);
        assert!(
            at.is_some(),
            "{name}: `{function}` is not called after the pass before it"
        );
        from = at.unwrap_or(from);
    }
}
