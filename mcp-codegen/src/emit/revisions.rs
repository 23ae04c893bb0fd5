//! Two revisions in one file: a module per revision, the types they share defined once (in
//! the newer revision's module, re-exported by the older one), and a `From` or `TryFrom` impl
//! in each direction for every other type name both define, as the join decided. Each impl is
//! data (the type's name, the revisions, why it may fail, where a default `resultType` is
//! dropped) handed to `mcp_runtime::era`. Then the data tables the caller gives (the era
//! facts), as constants.

use proc_macro2::TokenStream;
use quote::quote;

use super::EmitOptions;
use crate::join::{Conversion, Join};
use crate::model::ir::{DataTable, Module, RustName};

/// One revision's module in the file.
#[derive(Debug, Clone, Copy)]
pub struct EraModule<'m> {
    /// The module's name (`v2025_11_25`).
    pub name: &'m RustName,
    /// The revision.
    pub revision: &'m str,
    /// Its IR.
    pub module: &'m Module,
}

/// The file's items: the newer revision's module (its items also re-exported at the file's
/// root), the older one's, the conversions and the `tables`.
pub fn emit(
    old: EraModule<'_>,
    new: EraModule<'_>,
    join: &Join,
    tables: &[DataTable],
    options: &EmitOptions,
) -> TokenStream {
    let new_body = super::emit(new.module, options);
    let old_body = super::emit_without(old.module, options, &join.shared);
    let (old_name, new_name) = (old.name, new.name);
    let shared = join.shared.iter();
    let reexport = (!join.shared.is_empty()).then(|| {
        quote! {
            /// The types this revision shares with the other (the same Rust types).
            pub use super::#new_name::{#(#shared),*};
        }
    });
    // An outer doc comment of a module resolves its links in the parent's scope; the label is
    // not a path, so the link is not redundant where the parent re-exports the module's items.
    let old_doc = format!(
        " The types of revision {} (see [its overview]({old_name}::overview)).",
        old.revision
    );
    let new_doc = format!(
        " The types of revision {} (see [its overview]({new_name}::overview)).",
        new.revision
    );
    let conversions = join.pairs.iter().map(|p| {
        let forward = conversion(&p.name, old, new, &p.forward);
        let backward = conversion(&p.name, new, old, &p.backward);
        quote!(#forward #backward)
    });
    let tables = tables.iter().map(super::table::table);
    quote! {
        #[doc = #old_doc]
        pub mod #old_name {
            #reexport
            #old_body
        }

        #[doc = #new_doc]
        pub mod #new_name {
            #new_body
        }

        // The newer revision's names are also the file's own, so that code written against
        // it alone keeps compiling once the older revision is added beside it.
        pub use #new_name::*;

        #(#conversions)*

        #(#tables)*
    }
}

/// The impl converting `name` of `from` to `name` of `to`: `From` where every value converts,
/// else `TryFrom`. The function is `#[inline]`, so that it is compiled only where a conversion
/// is used (each instantiates writing and reading both types through `serde_json::Value`; a
/// crate including the module and converting nothing paid for all of them, issue 19 item 7).
fn conversion(
    name: &RustName,
    from: EraModule<'_>,
    to: EraModule<'_>,
    c: &Conversion,
) -> TokenStream {
    let (f, t) = (from.name, to.name);
    let direction = direction(name, from.revision, to.revision, c);
    if c.total() {
        quote! {
            impl ::core::convert::From<#f::#name> for #t::#name {
                #[inline]
                fn from(value: #f::#name) -> Self {
                    ::mcp_runtime::era::widen(&value, #direction)
                }
            }
        }
    } else {
        quote! {
            impl ::core::convert::TryFrom<#f::#name> for #t::#name {
                type Error = ::mcp_runtime::era::EraError;
                #[inline]
                fn try_from(value: #f::#name) -> ::core::result::Result<Self, Self::Error> {
                    ::mcp_runtime::era::convert(&value, #direction)
                }
            }
        }
    }
}

/// The `mcp_runtime::era::Direction` of a conversion, as a constant expression.
fn direction(name: &RustName, from: &str, to: &str, c: &Conversion) -> TokenStream {
    let type_name = name.unraw();
    let members = &c.partial;
    let defaults = c.defaults.iter().map(|path| quote!(&[#(#path),*]));
    quote! {
        &::mcp_runtime::era::Direction {
            type_name: #type_name,
            from: #from,
            to: #to,
            members: &[#(#members),*],
            defaults: &[#(#defaults),*],
        }
    }
}
