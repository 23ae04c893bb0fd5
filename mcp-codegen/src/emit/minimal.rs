//! For tests of the generated constructors: each generated type of a `$def` built by its
//! constructor from the least arguments it takes (empty strings and lists, zero, `false`, the
//! first variant of a union or an enum, the same again for a generated argument), written as
//! JSON beside the `$def`'s name, so that a test can validate what the constructors write
//! against the official schema. The code is meant to be included in the generated module.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::ty;
use crate::model::ir::{Kind, Module, RustName, Struct, Ty, TypeDef};

/// How deep arguments may nest before a type is left out (no constructor argument of a finite
/// JSON value nests further in the official schemas).
const DEPTH: usize = 24;

/// `fn minimal_instances()`: every definition of `module` (under `$defs` or `definitions`)
/// whose generated type a constructor builds, by name, as JSON.
pub fn instances(module: &Module) -> TokenStream {
    let built = module.types.values().filter_map(|def| {
        let p = &def.pointer;
        let name = p
            .strip_prefix("/$defs/")
            .or_else(|| p.strip_prefix("/definitions/"))?;
        if name.contains('/') {
            return None;
        }
        let value = Minimal { module }.named(&def.name, 0)?;
        let n = &def.name;
        Some(quote!((#name, ::serde_json::to_value::<#n>(#value))))
    });
    quote! {
        /// Every `$def` a constructor builds, from its least arguments, as JSON (or the error
        /// writing it).
        pub fn minimal_instances()
            -> ::std::vec::Vec<(&'static str, ::serde_json::Result<::serde_json::Value>)> {
            ::std::vec![#(#built),*]
        }
    }
}

/// The least values of a module's types.
struct Minimal<'m> {
    module: &'m Module,
}

impl Minimal<'_> {
    /// The least value of `t`, as an argument that takes `impl Into<t>` (a `Box` is made by the
    /// constructor); `None` when there is none within [`DEPTH`].
    fn of(&self, t: &Ty, depth: usize) -> Option<TokenStream> {
        Some(match t {
            Ty::Named(n) => self.named(n, depth)?,
            Ty::Path(_) => {
                let t = ty(t);
                quote!(<#t as ::core::default::Default>::default())
            }
            Ty::String => quote!(::std::string::String::new()),
            Ty::Bool => quote!(false),
            Ty::I64 => quote!(0i64),
            Ty::U64 => quote!(0u64),
            Ty::F64 => quote!(0.0f64),
            Ty::Value => quote!(::serde_json::json!({})),
            Ty::Raw => quote!(::mcp_runtime::RawJson::null()),
            Ty::Unit => quote!(()),
            // Empty, of its type (a top-level alias of one is written as it is).
            Ty::Object | Ty::Vec(_) | Ty::Map(_) => {
                let t = ty(t);
                quote!(<#t as ::core::default::Default>::default())
            }
            Ty::Boxed(inner) => self.of(inner, depth)?,
        })
    }

    /// The least value of the generated type `n`.
    fn named(&self, n: &RustName, depth: usize) -> Option<TokenStream> {
        if depth > DEPTH {
            return None;
        }
        let def: &TypeDef = self.module.types.get(n)?;
        let depth = depth + 1;
        Some(match &def.kind {
            Kind::Struct(s) => self.built(n, s, depth)?,
            Kind::StringEnum(values) => {
                let v = &values.first()?.rust;
                quote!(#n::#v)
            }
            Kind::Union(u) => {
                let v = u.variants.first()?;
                let (name, value) = (&v.name, self.of(&v.ty, depth)?);
                let value = match &v.ty {
                    Ty::Boxed(_) => quote!(::std::boxed::Box::new(#value)),
                    _ => value,
                };
                quote!(#n::#name(#value))
            }
            Kind::Alias(t) => self.of(t, depth)?,
            Kind::Results(r) => {
                let v = r.variants.iter().find(|v| v.wrapper.is_none())?;
                let (name, value) = (&v.name, self.named(&v.ty, depth)?);
                quote!(#n::#name(#value))
            }
        })
    }

    /// `n::new` of the members it takes, or for a struct with an at-least-one-of rule its
    /// `from_<member>` of the first of those members.
    fn built(&self, n: &RustName, s: &Struct, depth: usize) -> Option<TokenStream> {
        // A sealed struct's `from_<member>` takes its required members (it has none that a
        // reader may miss: the lowering refuses `lenient_on_read` there), as `new` would.
        let args: Vec<TokenStream> = s
            .fields
            .iter()
            .filter(|f| f.written)
            .map(|f| self.of(&f.ty, depth))
            .collect::<Option<_>>()?;
        if !s.sealed {
            return Some(quote!(#n::new(#(#args),*)));
        }
        let one = s
            .fields
            .iter()
            .find(|f| s.at_least_one_of.contains(&f.json))?;
        let from = one.rust.prefixed("from_");
        let first = self.of(&one.ty, depth)?;
        Some(quote!(#n::#from(#first, #(#args),*)))
    }
}
