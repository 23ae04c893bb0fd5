//! The impl blocks the derives write around their own logic: `Serialize`, `Deserialize`, and
//! the visitor a `Deserialize` drives. Each function takes the body; the signatures, bounds,
//! generics and attributes are written here once.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::quote;

/// `impl Serialize` for the container, around `body`, which writes `self` to
/// `__serializer: __S`.
pub fn serialize(cont: &Container, body: TokenStream) -> TokenStream {
    let (ident, serde) = (cont.ident, cont.serde());
    let (impl_generics, ty_generics, where_clause) = cont.input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S>(
                &self,
                __serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error>
            where
                __S: #serde::Serializer,
            {
                #body
            }
        }
    }
}

/// `impl Deserialize<'de>` for the container, around `body`, which reads
/// `__deserializer: __D`; `attrs` are put on the `deserialize` function.
pub fn deserialize(cont: &Container, attrs: TokenStream, body: TokenStream) -> TokenStream {
    let (ident, serde) = (cont.ident, cont.serde());
    let mut de_generics = cont.input.generics.clone();
    de_generics.params.insert(0, syn::parse_quote!('de));
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    let (_, ty_generics, where_clause) = cont.input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #de_impl_generics #serde::Deserialize<'de> for #ident #ty_generics #where_clause {
            #attrs
            fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
                #body
            }
        }
    }
}

/// A block that hands `__deserializer` to its `entry` method (`deserialize_map`,
/// `deserialize_any`) with a visitor of the container's type: it says it expects `expecting`,
/// and `methods` are its `visit_*` functions. The block's value is `Result<Self, __D::Error>`.
pub fn visit(
    cont: &Container,
    expecting: &str,
    methods: TokenStream,
    entry: TokenStream,
) -> TokenStream {
    let (ident, serde) = (cont.ident, cont.serde());
    quote! {{
        #[doc(hidden)]
        struct __Visitor;

        #[automatically_derived]
        impl<'de> #serde::de::Visitor<'de> for __Visitor {
            type Value = #ident;

            fn expecting(
                &self,
                __formatter: &mut ::core::fmt::Formatter<'_>,
            ) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, #expecting)
            }

            #methods
        }

        #serde::Deserializer::#entry(__deserializer, __Visitor)
    }}
}
