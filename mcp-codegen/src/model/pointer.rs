//! JSON pointers (RFC 6901): checking one, and escaping and unescaping its reference tokens.
//! Every pointer the generator builds or reads goes through these.

/// Escapes one reference token of a JSON pointer: `~` becomes `~0`, `/` becomes `~1`.
pub(crate) fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// `pointer` with one more reference token, escaped.
pub(crate) fn join(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", escape_token(token))
}

/// The pointer of the schema's definitions object under its key `defs_key` (`/$defs`).
pub(crate) fn defs(defs_key: &str) -> String {
    format!("/{defs_key}")
}

/// The pointer of the definition `name` under the schema's definitions key `defs_key`
/// (`/$defs/<name>`).
pub(crate) fn def(defs_key: &str, name: &str) -> String {
    join(&defs(defs_key), name)
}

/// A `$ref` to the definition `name` (`#/$defs/<name>`, the name escaped).
pub(crate) fn reference(defs_key: &str, name: &str) -> String {
    format!("#{}", def(defs_key, name))
}

/// The definition name a `$ref` of the form `#/<defs_key>/<name>` gives (unescaped); `None`
/// for a reference elsewhere (another document, another part of this one). A pointer into a
/// definition (`#/$defs/A/properties/x`) gives a name no definition has, which the caller
/// reports as unresolvable.
pub(crate) fn referenced_def(reference: &str, defs_key: &str) -> Option<String> {
    let rest = reference
        .strip_prefix("#/")?
        .strip_prefix(defs_key)?
        .strip_prefix('/')?;
    Some(unescape_token(rest))
}

/// Whether `pointer` is inside a definition under `defs_key` (`/$defs/A/properties/x`), not
/// the definition itself (`/$defs/A`).
pub(crate) fn within_def(pointer: &str, defs_key: &str) -> bool {
    pointer
        .strip_prefix(&defs(defs_key))
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|rest| rest.contains('/'))
}

/// The last reference token of `pointer`, unescaped (empty for the empty pointer).
pub(crate) fn last_token(pointer: &str) -> String {
    unescape_token(pointer.rsplit('/').next().unwrap_or_default())
}

/// Unescapes one reference token of a JSON pointer (the inverse of [`escape_token`]).
pub(crate) fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Checks that `p` is a JSON pointer (RFC 6901): empty, or `/`-separated tokens whose `~` are
/// escapes (`~0`, `~1`).
pub(crate) fn check(p: &str) -> Result<(), String> {
    if !p.is_empty() && !p.starts_with('/') {
        return Err(format!(
            "{p:?} is not a JSON pointer (it must start with `/`)"
        ));
    }
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
            return Err(format!(
                "{p:?} is not a JSON pointer (`~` must be followed by `0` or `1`)"
            ));
        }
    }
    Ok(())
}
