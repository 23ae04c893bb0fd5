//! What a run produces: the formatted Rust file ([`file`](mod@file): formatting, and the
//! checks that let `Builder::generate` write only a changed file and never over an input),
//! and what the [`Generated`] value says of it (with two revisions, what they share and how
//! the other types convert).

pub mod file;

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
