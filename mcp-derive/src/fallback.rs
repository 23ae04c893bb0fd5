//! What is emitted next to the errors when the input is rejected: the impls the derive would
//! have produced, with bodies that are never run, so that the user sees the derive's error
//! and not a cascade of "trait not implemented" errors where the type is used.

use crate::ast::{Container, Kind};
use crate::delegate;
use proc_macro2::TokenStream;
use quote::quote;

pub fn fallback(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let serde = cont.serde();
    let krate = cont.krate();
    let generics = &cont.input.generics;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let mut de_generics = generics.clone();
    de_generics.params.insert(0, syn::parse_quote!('de));
    let (de_impl_generics, _, _) = de_generics.split_for_impl();

    let mut out = quote! {
        #[automatically_derived]
        impl #impl_generics #serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S>(
                &self,
                __serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error>
            where
                __S: #serde::Serializer,
            {
                ::core::unreachable!("the derive reported an error")
            }
        }

        #[automatically_derived]
        impl #de_impl_generics #serde::Deserialize<'de> for #ident #ty_generics #where_clause {
            fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
                ::core::unreachable!("the derive reported an error")
            }
        }
    };
    if cont.kind == Kind::ResultStruct && cont.result_type_field().is_none() {
        let value = cont.fixed_result_type();
        out.extend(quote! {
            #[automatically_derived]
            impl #impl_generics #krate::McpResultType for #ident #ty_generics #where_clause {
                const RESULT_TYPE: &'static str = #value;
            }
        });
    }
    if matches!(cont.kind, Kind::ResultEnum | Kind::Union) && generics.params.is_empty() {
        out.extend(delegate::from_impls(cont));
    }
    out
}
