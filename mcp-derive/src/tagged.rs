//! The buffer-until-discriminator dispatch shared by outcome enums (`resultType`) and
//! `#[mcp(tag = "...")]` unions: read entries into a buffer until the discriminator key, pick
//! the variant by its value, then deserialize the variant's type from a replay of the
//! discriminator, the buffer and the rest of the live map. No variant is ever tried in turn.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

/// A value of the discriminator and the variant it selects.
pub struct Arm<'a> {
    pub value: String,
    pub variant: &'a Ident,
    pub ty: &'a Type,
    /// An extension `resultType`: selected only while `is_accepted(value)`.
    pub extension: bool,
}

/// What an unknown value is reported as.
pub enum Unknown {
    ResultType,
    Tag,
}

pub struct Dispatch<'a> {
    pub key: String,
    pub arms: Vec<Arm<'a>>,
    /// The variant read when the key is missing; `None`: missing is an error.
    pub missing: Option<(&'a Ident, &'a Type)>,
    pub unknown: Unknown,
}

/// The body of `visit_map` (with `__map: __A` in scope).
pub fn visit_map_body(cont: &Container, d: &Dispatch) -> TokenStream {
    let krate = cont.krate();
    let serde = cont.serde();
    let ident = cont.ident;
    let name = &cont.name;
    let key = &d.key;
    let values: Vec<&str> = d.arms.iter().map(|a| a.value.as_str()).collect();

    let read = |variant: &Ident, ty: &Type, replay: TokenStream| {
        let call = quote_spanned!(ty.span()=> <#ty as #serde::Deserialize<'de>>::deserialize);
        quote! {
            ::core::result::Result::map(
                #call(#serde::de::value::MapAccessDeserializer::new(#replay)),
                #ident::#variant,
            )
        }
    };

    let arms = d.arms.iter().map(|a| {
        let value = &a.value;
        let replay = quote!(#krate::de::Replay::after_tag(#key, #value, __buffer, __map));
        let read = read(a.variant, a.ty, replay);
        if a.extension {
            quote! {
                ::core::option::Option::Some(#value) => {
                    if #krate::result_type::is_accepted(#value) {
                        #read
                    } else {
                        ::core::result::Result::Err(
                            #krate::de::unadvertised_result_type::<__A::Error>(#name, #value, &[#(#values),*]),
                        )
                    }
                }
            }
        } else {
            quote!(::core::option::Option::Some(#value) => #read,)
        }
    });

    let missing = match d.missing {
        Some((variant, ty)) => read(
            variant,
            ty,
            quote!(#krate::de::Replay::after_end(__buffer, __map)),
        ),
        None => quote! {
            ::core::result::Result::Err(<__A::Error as #serde::de::Error>::missing_field(#key))
        },
    };
    let unknown = match d.unknown {
        Unknown::ResultType => {
            quote!(#krate::de::unknown_result_type::<__A::Error>(#name, __other, &[#(#values),*]))
        }
        Unknown::Tag => {
            quote!(#krate::de::unknown_tag::<__A::Error>(#key, __other, &[#(#values),*]))
        }
    };

    quote! {
        let mut __buffer = #krate::de::Buffer::new();
        let __tag = #krate::de::read_discriminator(&mut __map, #key, &mut __buffer)?;
        match ::core::option::Option::map(
            ::core::option::Option::as_ref(&__tag),
            #krate::de::Str::as_str,
        ) {
            ::core::option::Option::None => #missing,
            #(#arms)*
            ::core::option::Option::Some(__other) => ::core::result::Result::Err(#unknown),
        }
    }
}
