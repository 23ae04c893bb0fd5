//! The dispatch shared by outcome enums (`resultType`) and `#[mcp(tag = "...")]` unions.
//!
//! The variants' types implement `mcp_runtime::__private::de::Fields` (their derives do), so the union
//! reads the union of its variants' members in one pass: until the discriminator arrives, a
//! member that exactly one variant declares is read straight into that variant's partial
//! value; a member that several variants declare, or none, is kept as JSON. The discriminator
//! picks the variant; the members read for the other variants (written back as JSON) and the
//! kept ones are handed to it, then the discriminator, then the rest of the input streams into
//! it. When the discriminator comes first, which is how most writers order it, nothing is kept
//! or handed over. No variant is ever tried in turn.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
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

/// The index of `ty` in `slots`, added if new.
fn slot_of<'a>(ty: &'a Type, slots: &mut Vec<&'a Type>) -> usize {
    let text = quote!(#ty).to_string();
    if let Some(i) = slots.iter().position(|t| quote!(#t).to_string() == text) {
        return i;
    }
    slots.push(ty);
    slots.len() - 1
}

/// The body of `visit_map` (with `__map: __A` in scope).
pub fn visit_map_body(cont: &Container, d: &Dispatch) -> TokenStream {
    let krate = cont.krate();
    let serde = cont.serde();
    let ident = cont.ident;
    let name = &cont.name;
    let key = &d.key;
    let values: Vec<&str> = d.arms.iter().map(|a| a.value.as_str()).collect();
    let fields = quote!(#krate::__private::de::Fields);

    // One partial value per distinct variant type: the variants are the enum's, in order; a
    // type that two variants hold is one slot.
    let mut slots: Vec<&Type> = Vec::new();
    let mut arm_slots = Vec::new();
    for a in &d.arms {
        arm_slots.push(slot_of(a.ty, &mut slots));
    }
    let missing_slot = d.missing.map(|(_, ty)| slot_of(ty, &mut slots));

    let partials: Vec<Ident> = (0..slots.len())
        .map(|i| format_ident!("__p{}", i))
        .collect();
    let key_variants: Vec<Ident> = (0..slots.len())
        .map(|i| format_ident!("__v{}", i))
        .collect();
    let key_types = slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> <#ty as #fields>::Key));
    let lookups: Vec<Ident> = (0..slots.len())
        .map(|i| format_ident!("__k{}", i))
        .collect();
    let key_calls = slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> <#ty as #fields>::key(__value)));
    let keeps = slots.iter().map(|ty| quote!(<#ty as #fields>::KEEPS_EXTRA));
    // The partial values are made when a member of theirs arrives (most never are).
    let partial_types = slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> ::core::option::Option<<#ty as #fields>::Partial>));
    let slot_types: Vec<&&Type> = slots.iter().collect();

    // Finishing the variant held in slot `k`: hand over what the other slots read, what was
    // kept, the discriminator (when found), and the rest of the input.
    let finish = |variant: &Ident, k: usize, tag: Option<&str>| -> TokenStream {
        let ty = slots[k];
        let p = &partials[k];
        let others = (0..slots.len()).filter(|&j| j != k).map(|j| {
            let tj = slots[j];
            let pj = &partials[j];
            quote! {
                if let ::core::option::Option::Some(#pj) = #pj {
                    <#tj as #fields>::entries::<__A::Error>(#pj, &mut __kept)?;
                }
            }
        });
        let rest = match tag {
            Some(value) => quote! {
                #krate::__private::de::feed_tag::<#ty, __A::Error>(&mut #p, #key, #value)?;
                <#ty as #fields>::read_rest(&mut #p, &mut __map)?;
            },
            None => TokenStream::new(),
        };
        quote! {{
            let mut #p = ::core::option::Option::unwrap_or_else(#p, <#ty as #fields>::partial);
            #(#others)*
            #krate::__private::de::feed::<#ty, __A::Error>(&mut #p, __kept)?;
            #rest
            <#ty as #fields>::finish::<__A::Error, #ident>(#p, #ident::#variant)
        }}
    };

    let arms = d.arms.iter().zip(&arm_slots).map(|(a, &k)| {
        let value = &a.value;
        let read = finish(a.variant, k, Some(value));
        if a.extension {
            quote! {
                ::core::option::Option::Some(#value) => {
                    if #krate::result_type::is_accepted(#value) {
                        #read
                    } else {
                        ::core::result::Result::Err(
                            #krate::__private::de::unadvertised_result_type::<__A::Error>(#name, #value, &[#(#values),*]),
                        )
                    }
                }
            }
        } else {
            quote!(::core::option::Option::Some(#value) => #read,)
        }
    });

    // The discriminator came first: straight into the variant.
    let direct_arms = d.arms.iter().map(|a| {
        let value = &a.value;
        let ty = a.ty;
        let variant = a.variant;
        let read = quote! {{
            let mut __p = <#ty as #fields>::partial();
            #krate::__private::de::feed_tag::<#ty, __A::Error>(&mut __p, #key, #value)?;
            <#ty as #fields>::read_rest(&mut __p, &mut __map)?;
            <#ty as #fields>::finish::<__A::Error, #ident>(__p, #ident::#variant)
        }};
        if a.extension {
            quote! {
                #value => {
                    if #krate::result_type::is_accepted(#value) {
                        #read
                    } else {
                        ::core::result::Result::Err(
                            #krate::__private::de::unadvertised_result_type::<__A::Error>(#name, #value, &[#(#values),*]),
                        )
                    }
                }
            }
        } else {
            quote!(#value => #read,)
        }
    });
    let direct_unknown = match d.unknown {
        Unknown::ResultType => {
            quote!(#krate::__private::de::unknown_result_type::<__A::Error>(#name, __other, &[#(#values),*]))
        }
        Unknown::Tag => {
            quote!(#krate::__private::de::unknown_tag::<__A::Error>(#key, __other, &[#(#values),*]))
        }
    };

    let missing = match (d.missing, missing_slot) {
        (Some((variant, _)), Some(k)) => finish(variant, k, None),
        _ => quote! {{
            let _ = (#(#partials,)* __kept);
            ::core::result::Result::Err(<__A::Error as #serde::de::Error>::missing_field(#key))
        }},
    };
    let unknown = match d.unknown {
        Unknown::ResultType => {
            quote!(#krate::__private::de::unknown_result_type::<__A::Error>(#name, __other, &[#(#values),*]))
        }
        Unknown::Tag => {
            quote!(#krate::__private::de::unknown_tag::<__A::Error>(#key, __other, &[#(#values),*]))
        }
    };
    let read_arms = slot_types
        .iter()
        .zip(&key_variants)
        .zip(&partials)
        .map(|((ty, v), p)| {
            quote! {
                ::core::option::Option::Some(__UnionKey::#v(__key)) => {
                    #serde::de::MapAccess::next_value_seed(
                        &mut __map,
                        #krate::__private::de::FieldSeed::<#ty> {
                            partial: ::core::option::Option::get_or_insert_with(
                                &mut #p,
                                <#ty as #fields>::partial,
                            ),
                            key: __key,
                        },
                    )?;
                }
            }
        });
    let unique = lookups
        .iter()
        .zip(&key_variants)
        .enumerate()
        .map(|(i, (k, v))| {
            let others = lookups
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, o)| o);
            quote! {
                if let ::core::option::Option::Some(__key) = #k {
                    if true #(&& ::core::option::Option::is_none(&#others))* {
                        return ::core::result::Result::Ok(__UnionKey::#v(__key));
                    }
                }
            }
        });
    let any_lookup = lookups.iter();

    quote! {
        // A member read before the discriminator: the discriminator, a member that exactly one
        // variant type declares, one to keep as JSON, or one to skip.
        #[allow(non_camel_case_types)]
        enum __UnionKey {
            __tag,
            #(#key_variants(#key_types),)*
            __keep(#krate::__private::de::String),
            __skip,
        }

        struct __UnionKeySeed;

        impl<'de> #serde::de::DeserializeSeed<'de> for __UnionKeySeed {
            type Value = __UnionKey;

            #[inline]
            fn deserialize<__D>(self, __deserializer: __D) -> ::core::result::Result<__UnionKey, __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
                #serde::Deserializer::deserialize_identifier(__deserializer, self)
            }
        }

        impl<'de> #serde::de::Visitor<'de> for __UnionKeySeed {
            type Value = __UnionKey;

            fn expecting(
                &self,
                __formatter: &mut ::core::fmt::Formatter<'_>,
            ) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, "a member name")
            }

            #[inline]
            fn visit_str<__E>(self, __value: &str) -> ::core::result::Result<__UnionKey, __E>
            where
                __E: #serde::de::Error,
            {
                if __value == #key {
                    return ::core::result::Result::Ok(__UnionKey::__tag);
                }
                #(let #lookups = #key_calls;)*
                #(#unique)*
                let __declared = false #(|| ::core::option::Option::is_some(&#any_lookup))*;
                if __declared #(|| #keeps)* {
                    ::core::result::Result::Ok(__UnionKey::__keep(::core::convert::From::from(__value)))
                } else {
                    ::core::result::Result::Ok(__UnionKey::__skip)
                }
            }

            fn visit_bytes<__E>(self, __value: &[u8]) -> ::core::result::Result<__UnionKey, __E>
            where
                __E: #serde::de::Error,
            {
                match ::core::str::from_utf8(__value) {
                    ::core::result::Result::Ok(__s) => self.visit_str(__s),
                    ::core::result::Result::Err(_) => ::core::result::Result::Ok(__UnionKey::__keep(
                        #krate::__private::de::key_from_bytes(__value),
                    )),
                }
            }
        }

        let mut __next = #serde::de::MapAccess::next_key_seed(&mut __map, __UnionKeySeed)?;
        if let ::core::option::Option::Some(__UnionKey::__tag) = __next {
            let __tag = #serde::de::MapAccess::next_value_seed(
                &mut __map,
                #krate::__private::de::TagSeed { key: #key },
            )?;
            return match #krate::__private::de::Str::as_str(&__tag) {
                #(#direct_arms)*
                __other => ::core::result::Result::Err(#direct_unknown),
            };
        }
        #(let mut #partials: #partial_types = ::core::option::Option::None;)*
        let mut __kept: #krate::__private::de::Buffer = ::std::vec::Vec::new();
        let __tag = loop {
            match __next {
                ::core::option::Option::None => break ::core::option::Option::None,
                ::core::option::Option::Some(__UnionKey::__tag) => {
                    break ::core::option::Option::Some(#serde::de::MapAccess::next_value_seed(
                        &mut __map,
                        #krate::__private::de::TagSeed { key: #key },
                    )?);
                }
                #(#read_arms)*
                ::core::option::Option::Some(__UnionKey::__keep(__name)) => {
                    let __value = #serde::de::MapAccess::next_value::<
                        #krate::__private::serde_json::Value,
                    >(&mut __map)?;
                    __kept.push((__name, __value));
                }
                ::core::option::Option::Some(__UnionKey::__skip) => {
                    let _ = #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut __map)?;
                }
            }
            __next = #serde::de::MapAccess::next_key_seed(&mut __map, __UnionKeySeed)?;
        };
        match ::core::option::Option::map(
            ::core::option::Option::as_ref(&__tag),
            #krate::__private::de::Str::as_str,
        ) {
            ::core::option::Option::None => #missing,
            #(#arms)*
            ::core::option::Option::Some(__other) => ::core::result::Result::Err(#unknown),
        }
    }
}
