//! The dispatch shared by outcome enums and result unions (`resultType`) and by
//! `#[mcp(tag = "...")]` unions.
//!
//! The variants' types implement `mcp_runtime::__private::de::Fields` (their derives do), so
//! the union reads the union of its variants' members in one pass: until the discriminator
//! arrives, a member that exactly one variant declares is read straight into that variant's
//! partial value; a member that several variants declare, or none, is kept as JSON. The
//! discriminator picks the variant; the members read for the other variants (written back as
//! JSON) and the kept ones are handed to it, then the discriminator, then the rest of the input
//! streams into it. When the discriminator comes first, which is how most writers order it,
//! nothing is kept or handed over. No variant is ever tried in turn.

use crate::ast::Container;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

/// A value of the discriminator and the variant it selects.
#[derive(Clone)]
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
    /// The variant that reads every value no arm claims, handed the value as its member `key`
    /// (`#[mcp(other)]`); `None`: such a value is an error, worded after `unknown`.
    pub other: Option<(&'a Ident, &'a Type)>,
    pub unknown: Unknown,
}

/// What the generated code names, computed once for the pieces below.
struct Gen<'c, 'a> {
    cont: &'c Container<'a>,
    d: &'c Dispatch<'a>,
    krate: TokenStream,
    serde: TokenStream,
    fields: TokenStream,
    /// The distinct variant types, in order: one partial value (slot) each.
    slots: Vec<&'a Type>,
    /// `__p{i}`: the partial value of slot `i`.
    partials: Vec<Ident>,
    /// `__v{i}`: the `__UnionKey` variant of a member only slot `i` declares.
    key_variants: Vec<Ident>,
    /// `__k{i}`: slot `i`'s key for a member name.
    lookups: Vec<Ident>,
}

impl<'c, 'a> Gen<'c, 'a> {
    fn new(cont: &'c Container<'a>, d: &'c Dispatch<'a>) -> Self {
        let krate = cont.krate();
        let mut slots: Vec<&'a Type> = Vec::new();
        let types = d.arms.iter().map(|a| a.ty);
        for ty in types
            .chain(d.missing.map(|m| m.1))
            .chain(d.other.map(|o| o.1))
        {
            slot_of(ty, &mut slots);
        }
        let ids = |prefix: &str| -> Vec<Ident> {
            (0..slots.len())
                .map(|i| format_ident!("{}{}", prefix, i))
                .collect()
        };
        Gen {
            cont,
            d,
            serde: cont.serde(),
            fields: quote!(#krate::__private::de::Fields),
            partials: ids("__p"),
            key_variants: ids("__v"),
            lookups: ids("__k"),
            krate,
            slots,
        }
    }

    fn slot(&self, ty: &Type) -> usize {
        let text = quote!(#ty).to_string();
        self.slots
            .iter()
            .position(|t| quote!(#t).to_string() == text)
            .unwrap_or_default()
    }

    /// `&["complete", "input_required"]`: the values, for messages.
    fn values(&self) -> TokenStream {
        let values = self.d.arms.iter().map(|a| a.value.as_str());
        quote!(&[#(#values),*])
    }
}

/// Adds `ty` to `slots` unless a variant type written the same is there.
fn slot_of<'a>(ty: &'a Type, slots: &mut Vec<&'a Type>) {
    let text = quote!(#ty).to_string();
    if !slots.iter().any(|t| quote!(#t).to_string() == text) {
        slots.push(ty);
    }
}

/// The body of `visit_map` (with `__map: __A` in scope).
pub fn visit_map_body(cont: &Container, d: &Dispatch) -> TokenStream {
    let g = Gen::new(cont, d);
    let key_enum = key_enum(&g);
    let direct = direct_match(&g);
    let read_loop = read_loop(&g);
    let buffered = buffered_match(&g);
    let serde = &g.serde;
    quote! {
        #key_enum
        let mut __next = #serde::de::MapAccess::next_key_seed(&mut __map, __UnionKeySeed)?;
        #direct
        #read_loop
        #buffered
    }
}

/// `arm`'s read, behind the acceptance check when its value is an extension's.
fn guarded(g: &Gen, arm: &Arm, read: TokenStream) -> TokenStream {
    if !arm.extension {
        return read;
    }
    let krate = &g.krate;
    let name = &g.cont.name;
    let value = &arm.value;
    let values = g.values();
    quote! {
        if #krate::result_type::is_accepted(#value) {
            #read
        } else {
            ::core::result::Result::Err(
                #krate::__private::de::unadvertised_result_type::<__A::Error>(#name, #value, #values),
            )
        }
    }
}

/// The error for a value no arm claims (`__other` in scope), when there is no `other` variant.
fn unknown_value(g: &Gen) -> TokenStream {
    let krate = &g.krate;
    let values = g.values();
    match g.d.unknown {
        Unknown::ResultType => {
            let name = &g.cont.name;
            quote!(#krate::__private::de::unknown_result_type::<__A::Error>(#name, __other, #values))
        }
        Unknown::Tag => {
            let key = &g.d.key;
            quote!(#krate::__private::de::unknown_tag::<__A::Error>(#key, __other, #values))
        }
    }
}

/// The discriminator came first (its value, `__tag`, in scope): straight into the variant.
fn direct_match(g: &Gen) -> TokenStream {
    let (krate, serde, fields, key) = (&g.krate, &g.serde, &g.fields, &g.d.key);
    let ident = g.cont.ident;
    let direct = |variant: &Ident, ty: &Type, value: TokenStream| {
        quote! {{
            let mut __p = <#ty as #fields>::partial();
            #krate::__private::de::feed_tag::<#ty, __A::Error>(&mut __p, #key, #value)?;
            <#ty as #fields>::read_rest(&mut __p, &mut __map)?;
            <#ty as #fields>::finish::<__A::Error, #ident>(__p, #ident::#variant)
        }}
    };
    let arms = g.d.arms.iter().map(|a| {
        let value = &a.value;
        let read = guarded(g, a, direct(a.variant, a.ty, quote!(#value)));
        quote!(#value => #read,)
    });
    let other = match g.d.other {
        Some((variant, ty)) => direct(variant, ty, quote!(__other)),
        None => {
            let unknown = unknown_value(g);
            quote!(::core::result::Result::Err(#unknown))
        }
    };
    quote! {
        if let ::core::option::Option::Some(__UnionKey::__tag) = __next {
            let __tag = #serde::de::MapAccess::next_value_seed(
                &mut __map,
                #krate::__private::de::TagSeed { key: #key },
            )?;
            return match #krate::__private::de::Str::as_str(&__tag) {
                #(#arms)*
                __other => #other,
            };
        }
    }
}

/// Finishing the variant held in slot `k` after members were read before the discriminator:
/// hand over what the other slots read, what was kept, the discriminator `tag` (when found),
/// and the rest of the input.
fn finish_slot(g: &Gen, variant: &Ident, ty: &Type, tag: Option<TokenStream>) -> TokenStream {
    let (krate, fields, key) = (&g.krate, &g.fields, &g.d.key);
    let ident = g.cont.ident;
    let k = g.slot(ty);
    let p = &g.partials[k];
    let others = (0..g.slots.len()).filter(|&j| j != k).map(|j| {
        let tj = g.slots[j];
        let pj = &g.partials[j];
        quote! {
            if let ::core::option::Option::Some(#pj) = #pj {
                <#tj as #fields>::entries::<__A::Error>(#pj, &mut __kept)?;
            }
        }
    });
    let rest = tag.map(|value| {
        quote! {
            #krate::__private::de::feed_tag::<#ty, __A::Error>(&mut #p, #key, #value)?;
            <#ty as #fields>::read_rest(&mut #p, &mut __map)?;
        }
    });
    quote! {{
        let mut #p = ::core::option::Option::unwrap_or_else(#p, <#ty as #fields>::partial);
        #(#others)*
        #krate::__private::de::feed::<#ty, __A::Error>(&mut #p, __kept)?;
        #rest
        <#ty as #fields>::finish::<__A::Error, #ident>(#p, #ident::#variant)
    }}
}

/// After the loop (`__tag`, the partials and `__kept` in scope): finish the chosen variant.
fn buffered_match(g: &Gen) -> TokenStream {
    let (krate, serde, key) = (&g.krate, &g.serde, &g.d.key);
    let partials = &g.partials;
    let arms = g.d.arms.iter().map(|a| {
        let value = &a.value;
        let read = guarded(g, a, finish_slot(g, a.variant, a.ty, Some(quote!(#value))));
        quote!(::core::option::Option::Some(#value) => #read,)
    });
    let missing = match g.d.missing {
        Some((variant, ty)) => finish_slot(g, variant, ty, None),
        None => quote! {{
            let _ = (#(#partials,)* __kept);
            ::core::result::Result::Err(<__A::Error as #serde::de::Error>::missing_field(#key))
        }},
    };
    let other = match g.d.other {
        Some((variant, ty)) => finish_slot(g, variant, ty, Some(quote!(__other))),
        None => {
            let unknown = unknown_value(g);
            quote!(::core::result::Result::Err(#unknown))
        }
    };
    quote! {
        match ::core::option::Option::map(
            ::core::option::Option::as_ref(&__tag),
            #krate::__private::de::Str::as_str,
        ) {
            ::core::option::Option::None => #missing,
            #(#arms)*
            ::core::option::Option::Some(__other) => #other,
        }
    }
}

/// Reads members until the discriminator (then `__tag` is its value) or the end of the map
/// (then `__tag` is `None`), streaming each into the partials or keeping it.
fn read_loop(g: &Gen) -> TokenStream {
    let (krate, serde, fields, key) = (&g.krate, &g.serde, &g.fields, &g.d.key);
    let partials = &g.partials;
    let partial_types = g
        .slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> ::core::option::Option<<#ty as #fields>::Partial>));
    let read_arms = g
        .slots
        .iter()
        .zip(&g.key_variants)
        .zip(partials)
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
    quote! {
        // The partial values are made when a member of theirs arrives (most never are).
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
                    #krate::__private::de::keep(&mut __kept, __name, __value);
                }
                ::core::option::Option::Some(__UnionKey::__skip) => {
                    let _ = #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(&mut __map)?;
                }
            }
            __next = #serde::de::MapAccess::next_key_seed(&mut __map, __UnionKeySeed)?;
        };
    }
}

/// `__UnionKey` and its seed: what a member name read before the discriminator is.
fn key_enum(g: &Gen) -> TokenStream {
    let (krate, serde, fields, key) = (&g.krate, &g.serde, &g.fields, &g.d.key);
    let key_variants = &g.key_variants;
    let lookups = &g.lookups;
    let key_types = g
        .slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> <#ty as #fields>::Key));
    let key_calls = g
        .slots
        .iter()
        .map(|ty| quote_spanned!(ty.span()=> <#ty as #fields>::key(__value)));
    let keeps = g
        .slots
        .iter()
        .map(|ty| quote!(<#ty as #fields>::KEEPS_EXTRA));
    let unique = lookups
        .iter()
        .zip(key_variants)
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
                let __declared = false #(|| ::core::option::Option::is_some(&#lookups))*;
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
    }
}
