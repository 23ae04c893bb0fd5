//! The tokens every part of emission shares: types and doc attributes.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::ir::{Kind, Module, RustName, Struct, Ty};

/// The tokens of a field or alias type.
pub fn ty(t: &Ty) -> TokenStream {
    match t {
        Ty::Named(n) => quote!(#n),
        Ty::Path(p) => p.tokens(),
        Ty::String => quote!(::std::string::String),
        Ty::Bool => quote!(bool),
        Ty::I64 => quote!(i64),
        Ty::U64 => quote!(u64),
        Ty::F64 => quote!(f64),
        Ty::Value => quote!(::serde_json::Value),
        Ty::Raw => quote!(::mcp_runtime::RawJson),
        Ty::Object => quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>),
        Ty::Unit => quote!(()),
        Ty::Vec(inner) => {
            let i = ty(inner);
            quote!(::std::vec::Vec<#i>)
        }
        Ty::Map(inner) => {
            let i = ty(inner);
            quote!(::std::collections::BTreeMap<::std::string::String, #i>)
        }
        Ty::Boxed(inner) => {
            let i = ty(inner);
            quote!(::std::boxed::Box<#i>)
        }
    }
}

/// `#[doc = ...]` lines for `text`, one per line.
pub fn doc_lines(text: &str) -> TokenStream {
    let lines = text.lines().map(|l| {
        let l = if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        };
        quote!(#[doc = #l])
    });
    quote!(#(#lines)*)
}

/// Turns schema descriptions into doc text, with links resolved against the module's types
/// and members (looked up once, so that docs cost log time per link).
pub struct Docs<'m> {
    known: BTreeSet<String>,
    structs: BTreeMap<&'m str, &'m Struct>,
    /// Each type's own description, by Rust name.
    descriptions: BTreeMap<&'m str, &'m str>,
    /// The types that come from a whole definition (not from inside one), by pointer.
    by_pointer: BTreeMap<&'m str, &'m RustName>,
}

impl<'m> Docs<'m> {
    /// The lookups for `module`.
    pub fn new(module: &'m Module) -> Self {
        let known = module.types.keys().map(|k| k.as_str().to_owned()).collect();
        let structs = module
            .types
            .iter()
            .filter_map(|(k, d)| match &d.kind {
                Kind::Struct(s) => Some((k.as_str(), s)),
                _ => None,
            })
            .collect();
        let descriptions = module
            .types
            .iter()
            .filter_map(|(k, d)| Some((k.as_str(), d.docs.as_deref()?)))
            .collect();
        let by_pointer = module
            .types
            .values()
            .map(|d| (d.pointer.as_str(), &d.name))
            .collect();
        Docs {
            known,
            structs,
            descriptions,
            by_pointer,
        }
    }

    /// A schema description as rustdoc (empty for a missing or blank one).
    pub fn rustdoc(&self, text: Option<&str>) -> String {
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return String::new();
        };
        let field = |ty: &str, member: &str| -> Option<String> {
            let f = self
                .structs
                .get(ty)?
                .fields
                .iter()
                .find(|f| f.json == member)?;
            Some(format!("{ty}::{}", f.rust.unraw()))
        };
        crate::model::docs::rustdoc(text, &self.known, &field)
    }

    /// A schema description as plain text (empty for a missing or blank one).
    pub fn plain(&self, text: Option<&str>) -> String {
        match text.filter(|t| !t.trim().is_empty()) {
            Some(text) => crate::model::docs::plain(text, &self.known)
                .trim()
                .to_owned(),
            None => String::new(),
        }
    }

    /// The description of type `name`, if it has one.
    pub fn description_of(&self, name: &RustName) -> Option<&'m str> {
        self.descriptions.get(name.as_str()).copied()
    }

    /// The type whose pointer is the longest proper prefix of `pointer` (the definition an
    /// inline type comes from), and the rest of the pointer.
    pub fn parent<'p>(&self, pointer: &'p str) -> Option<(&'m RustName, &'p str)> {
        let mut cut = pointer.len();
        while let Some(i) = pointer[..cut].rfind('/') {
            cut = i;
            if let Some(name) = self.by_pointer.get(&pointer[..cut]) {
                return Some((name, &pointer[cut..]));
            }
        }
        None
    }
}

/// `#[allow(non_camel_case_types)]` for an item whose name, or any of whose variants' names,
/// is not UpperCamelCase.
pub fn allow_case<'n>(mut names: impl Iterator<Item = &'n RustName>) -> TokenStream {
    if names.all(RustName::is_camel) {
        TokenStream::new()
    } else {
        quote!(#[allow(non_camel_case_types)])
    }
}
