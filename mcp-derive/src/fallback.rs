//! What is emitted next to the errors when the input is rejected: the impls the derive would
//! have produced, with bodies that are never run, so that the user sees the derive's error
//! and not a cascade of "trait not implemented" errors where the type is used.

use crate::ast::Container;
use crate::delegate;
use crate::kind::Kind;
use crate::outcome;
use crate::shell;
use proc_macro2::TokenStream;
use quote::quote;

pub fn fallback(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let serde = cont.serde();
    let krate = cont.krate();
    let generics = &cont.input.generics;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let never = quote!(::core::unreachable!("the derive reported an error"));
    let mut out = shell::serialize(cont, never.clone());
    out.extend(shell::deserialize(cont, quote!(), never));
    if matches!(cont.kind, Kind::Object | Kind::ResultStruct) {
        out.extend(quote! {
            #[automatically_derived]
            impl #impl_generics #krate::__private::de::Fields for #ident #ty_generics #where_clause {
                type Key = #krate::__private::de::NoKey;
                type Partial = ();
                const KEEPS_EXTRA: bool = false;

                fn partial() {}

                fn key(_: &str) -> ::core::option::Option<#krate::__private::de::NoKey> {
                    ::core::option::Option::None
                }

                fn read<'de, __D>(
                    _: &mut (),
                    __key: #krate::__private::de::NoKey,
                    _: __D,
                ) -> ::core::result::Result<(), __D::Error>
                where
                    __D: #serde::Deserializer<'de>,
                {
                    match __key {}
                }

                fn other<__E>(
                    _: &mut (),
                    _: #krate::__private::de::String,
                    _: #krate::__private::serde_json::Value,
                ) -> ::core::result::Result<(), __E>
                where
                    __E: #serde::de::Error,
                {
                    ::core::unreachable!("the derive reported an error")
                }

                fn read_rest<'de, __A>(
                    _: &mut (),
                    _: &mut __A,
                ) -> ::core::result::Result<(), __A::Error>
                where
                    __A: #serde::de::MapAccess<'de>,
                {
                    ::core::unreachable!("the derive reported an error")
                }

                fn finish<__E, __R>(
                    _: (),
                    _: impl ::core::ops::FnOnce(Self) -> __R,
                ) -> ::core::result::Result<__R, __E>
                where
                    __E: #serde::de::Error,
                {
                    ::core::unreachable!("the derive reported an error")
                }

                fn entries<__E>(
                    _: (),
                    _: &mut #krate::__private::de::Buffer,
                ) -> ::core::result::Result<(), __E>
                where
                    __E: #serde::de::Error,
                {
                    ::core::unreachable!("the derive reported an error")
                }
            }
        });
    }
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
    if cont.is_result_union() && generics.params.is_empty() {
        out.extend(outcome::from_method_fn(
            cont,
            quote! {
                let _ = (method, deserializer);
                ::core::unreachable!("the derive reported an error")
            },
        ));
    }
    out
}
