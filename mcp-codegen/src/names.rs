//! Rust names for schema names: field idents (snake_case, keywords escaped) and type idents
//! (PascalCase for generated helper types; `$def` names are kept as they are).

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Words that can never be identifiers, not even raw ones.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Rust keywords (2015–2024 editions, strict and reserved).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield", "try",
];

/// Keeps ASCII letters, digits and `_`; anything else becomes `_`.
fn sanitize(raw: &str) -> String {
    raw.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Makes `candidate` usable as an identifier: a leading digit or an empty name gets a
/// prefix; keywords become raw identifiers (or get a `_` suffix where raw ones are not
/// allowed).
fn finish(candidate: String, empty: &str) -> String {
    let mut s = candidate;
    if s.is_empty() || s.chars().all(|c| c == '_') {
        s = empty.to_owned();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if NOT_RAW.contains(&s.as_str()) {
        s.push('_');
    } else if KEYWORDS.contains(&s.as_str()) {
        s.insert_str(0, "r#");
    }
    s
}

/// The snake_case field name for a JSON member name.
///
/// `_meta` becomes `meta`; a prefixed `_meta` key such as
/// `io.modelcontextprotocol/clientCapabilities` becomes `client_capabilities`.
pub fn field_name(json: &str) -> String {
    let base = json.rsplit('/').next().unwrap_or(json);
    let base = base.trim_start_matches(['_', '$']);
    finish(sanitize(base).to_snake_case(), "field")
}

/// A PascalCase type name built from a schema name (for types the schema does not name).
pub fn type_name(raw: &str) -> String {
    finish(sanitize(raw).to_upper_camel_case(), "Unnamed")
}

/// The Rust identifier for a `$def` name: the name itself where it is a valid identifier, so
/// that every type can be found in the specification under the same name.
pub fn def_name(raw: &str) -> String {
    let s = sanitize(raw);
    finish(s, "Unnamed")
}

/// The identifier without its `r#` prefix (for building longer names from it).
pub fn unraw(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names() {
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(
            field_name("io.modelcontextprotocol/clientCapabilities"),
            "client_capabilities"
        );
        assert_eq!(field_name("resultType"), "result_type");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("Self"), "self_");
        assert_eq!(field_name("crate"), "crate_");
        assert_eq!(field_name("$schema"), "schema");
        assert_eq!(field_name(""), "field");
        assert_eq!(field_name("2x"), "_2x");
        assert_eq!(field_name("héllo"), "h_llo");
        assert_eq!(field_name("fooBar"), "foo_bar");
        assert_eq!(field_name("foo_bar"), "foo_bar");
    }

    #[test]
    fn type_names() {
        assert_eq!(def_name("JSONRPCRequest"), "JSONRPCRequest");
        assert_eq!(def_name("Self"), "Self_");
        assert_eq!(def_name("type"), "r#type");
        assert_eq!(def_name(""), "Unnamed");
        assert_eq!(type_name("cacheScope"), "CacheScope");
        assert_eq!(type_name("Self"), "Self_");
    }
}
