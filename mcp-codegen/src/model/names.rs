//! Names, typed: a [`SchemaName`] is a `$def` name as the schema writes it; a [`RustName`] is
//! a Rust identifier, valid by construction, as is a [`RustPath`] (a path to a type of the
//! runtime). The two never mix: the lowering stage maps one to
//! the other, and everything after it (the IR, emission) sees only Rust names.

use std::fmt;

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span, TokenStream};
use serde::{Deserialize, Deserializer};

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

/// The names the Rust prelude (2021 and 2024 editions) brings into every module, and `Error`
/// (which most crates import): a glob import of a type of one of these names would shadow it.
pub const PRELUDE_CLASHES: &[&str] = &[
    "AsMut",
    "AsRef",
    "AsyncFn",
    "AsyncFnMut",
    "AsyncFnOnce",
    "Box",
    "Clone",
    "Copy",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "Error",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Future",
    "Into",
    "IntoFuture",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// A `$def` name exactly as the schema writes it (any string: spaces, punctuation, non-ASCII).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SchemaName(String);

impl SchemaName {
    /// The name as written.
    pub fn new(name: impl Into<String>) -> Self {
        SchemaName(name.into())
    }

    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Lets maps keyed by `$def` name be searched with the schema's own `&str` keys.
impl std::borrow::Borrow<str> for SchemaName {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SchemaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A Rust identifier (a raw one, `r#type`, for keywords). Only the constructors of this module
/// make one, and each makes a valid identifier of any input, so turning it into tokens
/// ([`RustName::ident`]) cannot fail.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RustName(String);

impl RustName {
    /// The identifier for a `$def`: the name itself where it is a valid identifier, so that
    /// every type can be found in the specification under the same name.
    pub fn of_def(name: &SchemaName) -> Self {
        RustName(finish(sanitize(name.as_str()), "Unnamed"))
    }

    /// A PascalCase type name built from a schema word (for types the schema does not name).
    pub fn pascal(raw: &str) -> Self {
        RustName(finish(sanitize(raw).to_upper_camel_case(), "Unnamed"))
    }

    /// A SCREAMING_SNAKE_CASE name for a constant.
    pub fn constant(raw: &str) -> Self {
        RustName(finish(sanitize(raw).to_shouty_snake_case(), "CONSTANT"))
    }

    /// The snake_case field name for a JSON member name.
    ///
    /// `_meta` becomes `meta`; a prefixed `_meta` key such as
    /// `io.modelcontextprotocol/clientCapabilities` becomes `client_capabilities`.
    pub fn field(json: &str) -> Self {
        let base = json.rsplit('/').next().unwrap_or(json);
        let base = base.trim_start_matches(['_', '$']);
        RustName(finish(sanitize(base).to_snake_case(), "field"))
    }

    /// This name with `suffix` appended (`CallTool` + `Outcome`), made valid again.
    pub fn suffixed(&self, suffix: impl fmt::Display) -> Self {
        RustName(finish(
            sanitize(&format!("{}{suffix}", self.unraw())),
            "Unnamed",
        ))
    }

    /// The `n`th field of this name (`name_2`; `self_` gives `self_2`, not `self__2`).
    pub fn numbered(&self, n: usize) -> Self {
        let base = self.unraw().trim_end_matches('_');
        RustName(finish(format!("{base}_{n}"), "field"))
    }

    /// This name with `prefix` put before it (`with_` + `name`), made valid again.
    pub fn prefixed(&self, prefix: &str) -> Self {
        // `with_` + `_1` is `with_1`: a doubled `_` is not snake case.
        let name = self.unraw().trim_start_matches('_');
        RustName(finish(sanitize(&format!("{prefix}{name}")), "field"))
    }

    /// The identifier as written in code (`r#type`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The identifier without its `r#` prefix (`type`): for docs and longer names.
    pub fn unraw(&self) -> &str {
        self.0.strip_prefix("r#").unwrap_or(&self.0)
    }

    /// The identifier token.
    pub fn ident(&self) -> Ident {
        match self.0.strip_prefix("r#") {
            Some(raw) => Ident::new_raw(raw, Span::call_site()),
            None => Ident::new(&self.0, Span::call_site()),
        }
    }

    /// Whether the name is UpperCamelCase (else the type needs `allow(non_camel_case_types)`).
    pub fn is_camel(&self) -> bool {
        let n = self.unraw();
        n.starts_with(|c: char| c.is_ascii_uppercase()) && !n.trim_start_matches('_').contains('_')
    }
}

impl fmt::Display for RustName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl quote::ToTokens for RustName {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        self.ident().to_tokens(tokens);
    }
}

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

/// The first name that `taken` does not hold: `base`, then `number(base, 2)`,
/// `number(base, 3)`, ... (the one loop that makes a generated name unique).
pub fn first_free(
    base: &RustName,
    number: impl Fn(&RustName, usize) -> RustName,
    taken: impl Fn(&RustName) -> bool,
) -> RustName {
    let mut name = base.clone();
    let mut i = 2usize;
    while taken(&name) {
        name = number(base, i);
        i += 1;
    }
    name
}

/// A Rust path (`::mcp_runtime::ResultType`), parsed with syn when it is made (from the overlay,
/// or a constant of the generator): text that is not a path is an error then, and the tokens
/// emitted later are those of the parsed path, never a silent nothing.
///
/// Shared (an `Rc`: a parsed path holds spans, which stay on their thread), so that the IR's types stay small and cloning one is cheap.
#[derive(Clone)]
pub struct RustPath(std::rc::Rc<ParsedPath>);

/// A path's text (trimmed) and its parse.
struct ParsedPath {
    text: String,
    path: syn::Path,
}

impl RustPath {
    /// Parses `text` (surrounding whitespace aside) as a Rust path.
    pub fn parse(text: &str) -> Result<RustPath, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("an empty string is not a Rust path".into());
        }
        let path = syn::parse_str::<syn::Path>(text)
            .map_err(|e| format!("{text:?} is not a Rust path: {e}"))?;
        Ok(RustPath(std::rc::Rc::new(ParsedPath {
            text: text.to_owned(),
            path,
        })))
    }

    /// The parsed path.
    pub fn path(&self) -> &syn::Path {
        &self.0.path
    }

    /// The path's tokens.
    pub fn tokens(&self) -> TokenStream {
        quote::ToTokens::to_token_stream(&self.0.path)
    }

    /// The path as written (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0.text
    }
}

impl fmt::Display for RustPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

impl fmt::Debug for RustPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RustPath({:?})", self.0.text)
    }
}

/// Paths compare and order by their text (as written, trimmed).
impl PartialEq for RustPath {
    fn eq(&self, other: &Self) -> bool {
        self.0.text == other.0.text
    }
}

impl Eq for RustPath {}

impl PartialOrd for RustPath {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for RustPath {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.text.cmp(&other.0.text)
    }
}

impl quote::ToTokens for RustPath {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.path.to_tokens(tokens);
    }
}

impl std::str::FromStr for RustPath {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        RustPath::parse(s)
    }
}

impl<'de> Deserialize<'de> for RustPath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        RustPath::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(json: &str) -> String {
        RustName::field(json).as_str().to_owned()
    }

    fn def(name: &str) -> String {
        RustName::of_def(&SchemaName::new(name)).as_str().to_owned()
    }

    #[test]
    fn field_names() {
        assert_eq!(field("_meta"), "meta");
        assert_eq!(
            field("io.modelcontextprotocol/clientCapabilities"),
            "client_capabilities"
        );
        assert_eq!(field("resultType"), "result_type");
        assert_eq!(field("type"), "r#type");
        assert_eq!(field("self"), "self_");
        assert_eq!(field("Self"), "self_");
        assert_eq!(field("crate"), "crate_");
        assert_eq!(field("$schema"), "schema");
        assert_eq!(field(""), "field");
        assert_eq!(field("2x"), "_2x");
        assert_eq!(field("héllo"), "h_llo");
        assert_eq!(field("fooBar"), "foo_bar");
        assert_eq!(field("foo_bar"), "foo_bar");
    }

    #[test]
    fn type_names() {
        assert_eq!(def("JSONRPCRequest"), "JSONRPCRequest");
        assert_eq!(def("Self"), "Self_");
        assert_eq!(def("type"), "r#type");
        assert_eq!(def(""), "Unnamed");
        assert_eq!(def("my tool"), "my_tool");
        assert_eq!(RustName::pascal("cacheScope").as_str(), "CacheScope");
        assert_eq!(RustName::pascal("Self").as_str(), "Self_");
        let t = RustName::of_def(&SchemaName::new("type"));
        assert_eq!(t.suffixed("Outcome").as_str(), "typeOutcome");
        assert_eq!(RustName::field("x").prefixed("with_").as_str(), "with_x");
        assert_eq!(RustName::field("1").prefixed("with_").as_str(), "with_1");
        assert_eq!(RustName::field("self").numbered(2).as_str(), "self_2");
        assert_eq!(RustName::field("type").numbered(3).as_str(), "type_3");
        assert_eq!(
            RustName::of_def(&SchemaName::new("se"))
                .suffixed("lf")
                .as_str(),
            "self_"
        );
    }

    /// Every constructor gives a name that `ident` turns into a token without panicking.
    #[test]
    fn any_input_gives_a_valid_identifier() {
        let inputs = [
            "", " ", "_", "__", "self", "Self", "crate", "super", "type", "1", "a b", "ä", "💥",
            "r#x", "Option", "Result", "-", "a-b/c~d", "gen", "try",
        ];
        for raw in inputs {
            for name in [
                RustName::of_def(&SchemaName::new(raw)),
                RustName::pascal(raw),
                RustName::field(raw),
                RustName::pascal("X").suffixed(raw),
                RustName::field("x").prefixed(raw),
            ] {
                let _ = name.ident();
            }
        }
    }
}
