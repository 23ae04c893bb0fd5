//! What a run produces: the formatted Rust file, and what the [`Generated`] value says of it
//! (with two revisions, what they share and how the other types convert).

use std::path::Path;

use crate::error::Error;

/// The result of a generation.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The formatted Rust source.
    pub text: String,
    /// The protocol revision whose overlay was applied, if any.
    pub revision: Option<String>,
    /// Number of generated types.
    pub types: usize,
    /// With two schemas: what the revisions share and how the other types convert.
    pub eras: Option<Eras>,
    /// With one schema: each generated type's estimated size in bytes on a 64-bit target, by
    /// name (an upper bound of `size_of`; the generator boxes large members by it). Empty
    /// with two schemas.
    pub sizes: std::collections::BTreeMap<String, usize>,
}

/// How a type converts to the other revision's type of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConversionKind {
    /// Every value converts: `From`.
    From,
    /// Some values do not: `TryFrom`, whose error names the members that differ.
    TryFrom,
}

/// A type name both revisions define, differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertedType {
    /// The name.
    pub name: String,
    /// From the older revision to the newer.
    pub older_to_newer: ConversionKind,
    /// From the newer revision to the older.
    pub newer_to_older: ConversionKind,
}

/// What a generation from two schemas shares and converts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Eras {
    /// The older and the newer revision.
    pub revisions: Vec<String>,
    /// The types both revisions share (one Rust type each), in name order.
    pub shared: Vec<String>,
    /// The other type names both define, in name order.
    pub converted: Vec<ConvertedType>,
}

/// Parses the emitted tokens and prints them formatted, items spaced.
pub(crate) fn format_file(tokens: proc_macro2::TokenStream) -> Result<String, Error> {
    let file = syn::parse2::<syn::File>(tokens).map_err(|e| Error::Internal(e.to_string()))?;
    Ok(space_items(&prettyplease::unparse(&file)))
}

/// Puts a blank line between top-level items (prettyplease leaves none).
fn space_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    let mut prev_ended_item = false;
    for line in code.lines() {
        let top = !line.is_empty() && !line.starts_with([' ', '}', ')', ']']);
        if prev_ended_item && top {
            out.push('\n');
        }
        let code_line = !line.starts_with("//") && !line.starts_with('#');
        prev_ended_item = line == "}" || (top && code_line && line.ends_with([';', '}']));
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Whether the file `path` holds exactly `text`, reading at most one byte more than `text` (an
/// endless file such as `/dev/zero` is not read to the end).
pub fn holds_exactly(path: &Path, text: &[u8]) -> bool {
    use std::io::Read as _;
    let mut old = Vec::with_capacity(text.len() + 1);
    std::fs::File::open(path)
        .and_then(|f| f.take(text.len() as u64 + 1).read_to_end(&mut old))
        .is_ok()
        && old == text
}
