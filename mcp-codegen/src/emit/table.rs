//! A [`DataTable`] as a `pub const NAME: &[Item] = &[...];`: literals, paths and struct
//! expressions written as the table holds them, nothing decided here.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::model::ir::{DataTable, DataValue};

/// The constant of `table`.
pub fn table(table: &DataTable) -> TokenStream {
    let name = Ident::new(&table.name, Span::call_site());
    let doc = table.doc.lines().map(|l| format!(" {l}"));
    let item = path(&table.item);
    let rows = table.rows.iter().map(value);
    quote! {
        #(#[doc = #doc])*
        pub const #name: &[#item] = &[#(#rows),*];
    }
}

/// One value as an expression.
fn value(v: &DataValue) -> TokenStream {
    match v {
        DataValue::Str(s) => quote!(#s),
        DataValue::Int(i) => {
            let magnitude = proc_macro2::Literal::u64_unsuffixed(i.unsigned_abs());
            if *i < 0 {
                quote!(-#magnitude)
            } else {
                quote!(#magnitude)
            }
        }
        DataValue::Path(p) => path(p),
        DataValue::Call(p, args) => {
            let (p, args) = (path(p), args.iter().map(value));
            quote!(#p(#(#args),*))
        }
        DataValue::None => quote!(::core::option::Option::None),
        DataValue::Some(inner) => {
            let inner = value(inner);
            quote!(::core::option::Option::Some(#inner))
        }
        DataValue::Struct(p, fields) => {
            let p = path(p);
            let fields = fields.iter().map(|(name, v)| {
                let (name, v) = (Ident::new(name, Span::call_site()), value(v));
                quote!(#name: #v)
            });
            quote!(#p { #(#fields),* })
        }
    }
}

/// `::a::b::C` from its segments.
fn path(segments: &[String]) -> TokenStream {
    let segments = segments.iter().map(|s| Ident::new(s, Span::call_site()));
    quote!(#(::#segments)*)
}
