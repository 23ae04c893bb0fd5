//! Expansion of `#[derive(McpObject)]` and of `#[derive(McpResult)]` on a struct: a JSON object
//! with constants, declared fields and (optionally) extra members, plus the `resultType` rules
//! for results.

use crate::ast::{Container, Field};
use crate::attr::{Constant, Literal};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// How a result struct carries `resultType`.
enum ResultMode<'f> {
    /// Not a result (McpObject).
    None,
    /// `#[mcp(result_type = "...")]` on the struct (default "complete").
    Fixed(String),
    /// The field marked `#[mcp(result_type)]`.
    Field(&'f Field<'f>),
}

/// The role of a field in (de)serialization.
enum Role {
    Required,
    Optional,
    Default,
    Extra,
    ResultType,
}

fn role(f: &Field) -> Role {
    if f.attrs.extra.is_some() {
        Role::Extra
    } else if f.attrs.result_type.is_some() {
        Role::ResultType
    } else if f.optional {
        Role::Optional
    } else if f.attrs.default.is_some() {
        Role::Default
    } else {
        Role::Required
    }
}

pub fn expand(cont: &Container) -> TokenStream {
    let mode = if cont.kind == crate::kind::Kind::ResultStruct {
        match cont.result_type_field() {
            Some(f) => ResultMode::Field(f),
            None => ResultMode::Fixed(cont.fixed_result_type()),
        }
    } else {
        ResultMode::None
    };
    let ser = serialize(cont, &mode);
    let de = deserialize(cont, &mode);
    let result_type = match &mode {
        ResultMode::Fixed(value) => {
            let ident = cont.ident;
            let krate = cont.krate();
            quote! {
                #[automatically_derived]
                impl #krate::McpResultType for #ident {
                    const RESULT_TYPE: &'static str = #value;
                }
            }
        }
        _ => TokenStream::new(),
    };
    quote! {
        #result_type
        #ser
        #de
    }
}

/// Every JSON key the type declares (what `extra` must not repeat).
fn declared_keys(cont: &Container, mode: &ResultMode) -> Vec<String> {
    let mut keys = Vec::new();
    if !matches!(mode, ResultMode::None) {
        keys.push("resultType".to_owned());
    }
    keys.extend(cont.attrs.constants.iter().map(|c| c.name.value()));
    keys.extend(
        cont.fields()
            .iter()
            .filter(|f| matches!(role(f), Role::Required | Role::Optional | Role::Default))
            .map(|f| f.key.clone()),
    );
    keys
}

fn constant_value(c: &Constant) -> TokenStream {
    match &c.value {
        Literal::Str(s) => quote!(#s),
        Literal::Int(v) => quote!(&#v),
        Literal::Bool(v, _) => quote!(&#v),
    }
}

fn serialize(cont: &Container, mode: &ResultMode) -> TokenStream {
    let ident = cont.ident;
    let krate = cont.krate();
    let serde = cont.serde();
    let entry = quote!(#serde::ser::SerializeMap::serialize_entry);
    let declared = declared_keys(cont, mode);

    let mut fixed = cont.attrs.constants.len();
    let mut counted = Vec::new();
    let mut writes = Vec::new();

    match mode {
        ResultMode::None => {}
        ResultMode::Fixed(value) => {
            fixed += 1;
            writes.push(quote!(#entry(&mut __map, "resultType", #value)?;));
        }
        ResultMode::Field(f) => {
            fixed += 1;
            let member = f.member;
            writes.push(quote!(#entry(&mut __map, "resultType", &self.#member)?;));
        }
    }
    for c in &cont.attrs.constants {
        let name = &c.name;
        let value = constant_value(c);
        writes.push(quote!(#entry(&mut __map, #name, #value)?;));
    }
    let mut extra = None;
    for f in cont.fields() {
        let member = f.member;
        let key = &f.key;
        match role(f) {
            Role::Required | Role::Default => {
                fixed += 1;
                writes.push(quote!(#entry(&mut __map, #key, &self.#member)?;));
            }
            Role::Optional => {
                counted.push(quote! {
                    + ::core::primitive::usize::from(::core::option::Option::is_some(&self.#member))
                });
                writes.push(quote! {
                    if let ::core::option::Option::Some(__value) = &self.#member {
                        #entry(&mut __map, #key, __value)?;
                    }
                });
            }
            Role::Extra => extra = Some(f),
            Role::ResultType => {}
        }
    }
    let (extra_decl, extra_len, extra_write) = match extra {
        Some(f) => {
            let member = f.member;
            let ty = f.ty;
            let field = quote_spanned!(ty.span()=>
                <#ty as #krate::__private::de::ExtraField>::as_extra(&self.#member)
            );
            // Most values have no extra members: test for that here, not in a call.
            (
                quote! {
                    const __DECLARED: &[&str] = &[#(#declared),*];
                    let __extra = #field;
                    let __has_extra = !#krate::Extra::is_empty(__extra);
                },
                quote! {
                    + if __has_extra {
                        #krate::__private::de::extra_len(__extra, __DECLARED)
                    } else {
                        0
                    }
                },
                quote! {
                    if __has_extra {
                        #krate::__private::de::serialize_extra(&mut __map, __extra, __DECLARED)?;
                    }
                },
            )
        }
        None => Default::default(),
    };

    quote! {
        #[automatically_derived]
        impl #serde::Serialize for #ident {
            fn serialize<__S>(
                &self,
                __serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error>
            where
                __S: #serde::Serializer,
            {
                #extra_decl
                let __len: usize = #fixed #(#counted)* #extra_len;
                let mut __map = #serde::Serializer::serialize_map(
                    __serializer,
                    ::core::option::Option::Some(__len),
                )?;
                #(#writes)*
                #extra_write
                #serde::ser::SerializeMap::end(__map)
            }
        }
    }
}

/// `impl Fields` (reading member by member, what unions stream into) and `impl Deserialize`
/// on top of it.
fn deserialize(cont: &Container, mode: &ResultMode) -> TokenStream {
    let ident = cont.ident;
    let name = &cont.name;
    let krate = cont.krate();
    let serde = cont.serde();
    let error = quote!(<__E as #serde::de::Error>);
    let derror = quote!(<__D::Error as #serde::de::Error>);
    let extra_field = cont.fields().iter().find(|f| f.attrs.extra.is_some());
    let has_extra = extra_field.is_some();

    // (JSON key, __Key variant) for the key match.
    let mut keys: Vec<(String, proc_macro2::Ident)> = Vec::new();
    // Members of __Partial, their initial values, `read` arms, `entries` statements.
    let mut slots = Vec::new();
    let mut inits = Vec::new();
    let mut arms = Vec::new();
    let mut entries = Vec::new();
    // `finish`: checks after reading, per-field unwrapping, the struct's members.
    let mut after = Vec::new();
    let mut checks = Vec::new();
    let mut init = Vec::new();

    match mode {
        ResultMode::None => {}
        ResultMode::Fixed(value) => {
            let var = format_ident!("__result_type");
            keys.push(("resultType".to_owned(), var.clone()));
            slots.push(quote!(#var: bool,));
            inits.push(quote!(#var: false,));
            arms.push(quote! {
                __Key::#var => {
                    if __partial.#var {
                        return ::core::result::Result::Err(#derror::duplicate_field("resultType"));
                    }
                    #serde::de::DeserializeSeed::deserialize(
                        #krate::__private::de::ResultTypeIs { type_name: #name, expected: #value },
                        __value,
                    )?;
                    __partial.#var = true;
                }
            });
            entries.push(quote! {
                if __partial.#var {
                    #krate::__private::de::entry::<str, __E>(__out, "resultType", #value)?;
                }
            });
            if value != "complete" {
                after.push(quote! {
                    if !__partial.#var {
                        #krate::__private::de::missing_result_type::<__E>(#name, #value)?;
                    }
                });
            }
        }
        ResultMode::Field(f) => {
            let var = format_ident!("__result_type");
            let ty = f.ty;
            let member = f.member;
            keys.push(("resultType".to_owned(), var.clone()));
            slots.push(quote!(#var: ::core::option::Option<#ty>,));
            inits.push(quote!(#var: ::core::option::Option::None,));
            arms.push(quote! {
                __Key::#var => {
                    if ::core::option::Option::is_some(&__partial.#var) {
                        return ::core::result::Result::Err(#derror::duplicate_field("resultType"));
                    }
                    __partial.#var = ::core::option::Option::Some(
                        <#ty as #serde::Deserialize<'de>>::deserialize(__value)?,
                    );
                }
            });
            entries.push(quote! {
                if let ::core::option::Option::Some(__v) = &__partial.#var {
                    #krate::__private::de::entry::<#ty, __E>(__out, "resultType", __v)?;
                }
            });
            init.push(quote_spanned! {ty.span()=>
                #member: match __partial.#var {
                    ::core::option::Option::Some(__value) => __value,
                    ::core::option::Option::None => #krate::ResultType::Complete,
                },
            });
        }
    }

    for (i, c) in cont.attrs.constants.iter().enumerate() {
        let var = format_ident!("__c{}", i);
        let key = c.name.value();
        keys.push((key.clone(), var.clone()));
        let (seed, json) = match &c.value {
            Literal::Str(s) => (
                quote!(#krate::__private::de::ConstStr { key: #key, expected: #s }),
                quote!(#krate::__private::de::entry::<str, __E>(__out, #key, #s)?;),
            ),
            Literal::Int(v) => (
                quote!(#krate::__private::de::ConstInt { key: #key, expected: #v }),
                quote!(#krate::__private::de::entry::<i64, __E>(__out, #key, &#v)?;),
            ),
            Literal::Bool(..) => unreachable!("rejected when parsed"),
        };
        slots.push(quote!(#var: bool,));
        inits.push(quote!(#var: false,));
        arms.push(quote! {
            __Key::#var => {
                if __partial.#var {
                    return ::core::result::Result::Err(#derror::duplicate_field(#key));
                }
                #serde::de::DeserializeSeed::deserialize(#seed, __value)?;
                __partial.#var = true;
            }
        });
        entries.push(quote! {
            if __partial.#var {
                #json
            }
        });
        if !c.optional {
            after.push(quote! {
                if !__partial.#var {
                    return ::core::result::Result::Err(#error::missing_field(#key));
                }
            });
        }
    }

    for (i, f) in cont.fields().iter().enumerate() {
        let var = format_ident!("__f{}", i);
        let member = f.member;
        let ty = f.ty;
        let key = &f.key;
        match role(f) {
            Role::ResultType | Role::Extra => continue,
            Role::Required | Role::Optional | Role::Default => {}
        }
        keys.push((key.clone(), var.clone()));
        slots.push(quote!(#var: ::core::option::Option<#ty>,));
        inits.push(quote!(#var: ::core::option::Option::None,));
        // `keep_null`: a present member is read as the `T` of `Option<T>`, so `null` is kept.
        let read = if f.attrs.keep_null.is_some() && f.optional {
            quote!(#krate::__private::de::present(__value)?)
        } else {
            quote!(<#ty as #serde::Deserialize<'de>>::deserialize(__value)?)
        };
        arms.push(quote! {
            __Key::#var => {
                if ::core::option::Option::is_some(&__partial.#var) {
                    return ::core::result::Result::Err(#derror::duplicate_field(#key));
                }
                __partial.#var = ::core::option::Option::Some(#read);
            }
        });
        // A present `null` of an optional member is `Some(None)` here, and written as `null`.
        entries.push(quote! {
            if let ::core::option::Option::Some(__v) = &__partial.#var {
                #krate::__private::de::entry::<#ty, __E>(__out, #key, __v)?;
            }
        });
        let missing = match role(f) {
            Role::Required => {
                quote!(return ::core::result::Result::Err(#error::missing_field(#key)))
            }
            Role::Optional => quote!(::core::option::Option::None),
            _ => quote!(::core::default::Default::default()),
        };
        checks.push(quote! {
            let #var = match __partial.#var {
                ::core::option::Option::Some(__value) => __value,
                ::core::option::Option::None => #missing,
            };
        });
        init.push(quote!(#member: #var,));
    }

    for (_, list) in &cont.attrs.at_least_one_of {
        let vars: Vec<_> = list
            .iter()
            .filter_map(|lit| {
                let key = lit.value();
                cont.fields()
                    .iter()
                    .position(|f| f.key == key && f.attrs.extra.is_none())
                    .map(|i| format_ident!("__f{}", i))
            })
            .collect();
        let message = format!(
            "at least one of {} must be present",
            list.iter()
                .map(|l| format!("`{}`", l.value()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        checks.push(quote! {
            if #(::core::option::Option::is_none(&#vars))&&* {
                return ::core::result::Result::Err(#error::custom(#message));
            }
        });
    }

    let (other_variant, other, other_arm, str_fallback, bytes_fallback, string_visitor) =
        if let Some(f) = extra_field {
            let member = f.member;
            let ty = f.ty;
            slots.push(quote!(__extra: #krate::Extra,));
            inits.push(quote!(__extra: #krate::Extra::new(),));
            entries.push(quote! {
                if !#krate::Extra::is_empty(&__partial.__extra) {
                    ::core::iter::Extend::extend(__out, __partial.__extra);
                }
            });
            init.push(quote_spanned! {ty.span()=>
                #member: <#ty as #krate::__private::de::ExtraField>::from_extra(__partial.__extra),
            });
            (
                quote!(__other(#krate::__private::de::String)),
                quote!(#krate::__private::de::insert_extra::<__E>(&mut __partial.__extra, __key, __value)),
                quote! {
                    __Field::__other(__key) => {
                        let __value = #serde::de::MapAccess::next_value::<
                            #krate::__private::serde_json::Value,
                        >(__map)?;
                        #krate::__private::de::insert_extra::<__A::Error>(&mut __partial.__extra, __key, __value)?;
                    }
                },
                quote!(__Field::__other(::core::convert::From::from(__value))),
                quote!(__Field::__other(#krate::__private::de::key_from_bytes(__value))),
                quote! {
                    fn visit_string<__E>(
                        self,
                        __value: #krate::__private::de::String,
                    ) -> ::core::result::Result<__Field, __E>
                    where
                        __E: #serde::de::Error,
                    {
                        ::core::result::Result::Ok(match __key_of(__value.as_str()) {
                            ::core::option::Option::Some(__key) => __Field::__key(__key),
                            ::core::option::Option::None => __Field::__other(__value),
                        })
                    }
                },
            )
        } else {
            (
                quote!(__ignore),
                quote! {{
                    let _ = (__partial, __key, __value);
                    ::core::result::Result::Ok(())
                }},
                quote! {
                    __Field::__ignore => {
                        let _ = #serde::de::MapAccess::next_value::<#serde::de::IgnoredAny>(__map)?;
                    }
                },
                quote!(__Field::__ignore),
                quote!(__Field::__ignore),
                TokenStream::new(),
            )
        };
    let key_vars: Vec<_> = keys.iter().map(|(_, v)| v).collect();
    let str_pats = keys.iter().map(|(k, _)| k);
    let byte_pats = keys
        .iter()
        .map(|(k, _)| syn::LitByteStr::new(k.as_bytes(), proc_macro2::Span::call_site()));
    let byte_vars = key_vars.clone();
    let expecting = cont.expecting_object();
    // `finish` and `entries` may use none of the members.
    let unpack = quote!(let _ = &__partial;);

    quote! {
        #[allow(non_camel_case_types)]
        #[doc(hidden)]
        #[derive(Clone, Copy)]
        pub enum __Key {
            #(#key_vars,)*
        }

        #[doc(hidden)]
        pub struct __Partial {
            #(#slots)*
        }

        #[inline]
        fn __key_of(__name: &str) -> ::core::option::Option<__Key> {
            match __name {
                #(#str_pats => ::core::option::Option::Some(__Key::#key_vars),)*
                _ => ::core::option::Option::None,
            }
        }

        #[allow(non_camel_case_types)]
        #[doc(hidden)]
        enum __Field {
            __key(__Key),
            #other_variant,
        }

        #[doc(hidden)]
        struct __FieldVisitor;

        #[automatically_derived]
        impl<'de> #serde::de::Visitor<'de> for __FieldVisitor {
            type Value = __Field;

            fn expecting(
                &self,
                __formatter: &mut ::core::fmt::Formatter<'_>,
            ) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, "a member name")
            }

            #[inline]
            fn visit_str<__E>(self, __value: &str) -> ::core::result::Result<__Field, __E>
            where
                __E: #serde::de::Error,
            {
                ::core::result::Result::Ok(match __key_of(__value) {
                    ::core::option::Option::Some(__key) => __Field::__key(__key),
                    ::core::option::Option::None => #str_fallback,
                })
            }

            fn visit_bytes<__E>(self, __value: &[u8]) -> ::core::result::Result<__Field, __E>
            where
                __E: #serde::de::Error,
            {
                ::core::result::Result::Ok(match __value {
                    #(#byte_pats => __Field::__key(__Key::#byte_vars),)*
                    _ => #bytes_fallback,
                })
            }

            #string_visitor
        }

        #[automatically_derived]
        impl<'de> #serde::Deserialize<'de> for __Field {
            #[inline]
            fn deserialize<__D2>(
                __deserializer: __D2,
            ) -> ::core::result::Result<Self, __D2::Error>
            where
                __D2: #serde::Deserializer<'de>,
            {
                #serde::Deserializer::deserialize_identifier(__deserializer, __FieldVisitor)
            }
        }

        #[automatically_derived]
        impl #krate::__private::de::Fields for #ident {
            type Key = __Key;
            type Partial = __Partial;
            const KEEPS_EXTRA: bool = #has_extra;

            #[inline]
            fn partial() -> __Partial {
                __Partial { #(#inits)* }
            }

            #[inline]
            fn key(__name: &str) -> ::core::option::Option<__Key> {
                __key_of(__name)
            }

            #[inline]
            #[allow(unreachable_code)]
            fn read<'de, __D>(
                __partial: &mut __Partial,
                __key: __Key,
                __value: __D,
            ) -> ::core::result::Result<(), __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
                match __key {
                    #(#arms)*
                }
                ::core::result::Result::Ok(())
            }

            fn other<__E>(
                __partial: &mut __Partial,
                __key: #krate::__private::de::String,
                __value: #krate::__private::serde_json::Value,
            ) -> ::core::result::Result<(), __E>
            where
                __E: #serde::de::Error,
            {
                #other
            }

            #[inline]
            fn read_rest<'de, __A>(
                __partial: &mut __Partial,
                __map: &mut __A,
            ) -> ::core::result::Result<(), __A::Error>
            where
                __A: #serde::de::MapAccess<'de>,
            {
                while let ::core::option::Option::Some(__field) =
                    #serde::de::MapAccess::next_key::<__Field>(__map)?
                {
                    match __field {
                        __Field::__key(__key) => {
                            #serde::de::MapAccess::next_value_seed(
                                __map,
                                #krate::__private::de::FieldSeed::<#ident> { partial: __partial, key: __key },
                            )?;
                        }
                        #other_arm
                    }
                }
                ::core::result::Result::Ok(())
            }

            #[inline]
            fn finish<__E, __R>(
                __partial: __Partial,
                __wrap: impl ::core::ops::FnOnce(Self) -> __R,
            ) -> ::core::result::Result<__R, __E>
            where
                __E: #serde::de::Error,
            {
                #unpack
                #(#after)*
                #(#checks)*
                ::core::result::Result::Ok(__wrap(#ident { #(#init)* }))
            }

            fn entries<__E>(
                __partial: __Partial,
                __out: &mut #krate::__private::de::Buffer,
            ) -> ::core::result::Result<(), __E>
            where
                __E: #serde::de::Error,
            {
                #unpack
                #(#entries)*
                let _ = __out;
                ::core::result::Result::Ok(())
            }
        }

        #[automatically_derived]
        impl<'de> #serde::Deserialize<'de> for #ident {
            fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
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

                    #[inline]
                    fn visit_map<__A>(
                        self,
                        mut __map: __A,
                    ) -> ::core::result::Result<Self::Value, __A::Error>
                    where
                        __A: #serde::de::MapAccess<'de>,
                    {
                        let mut __partial = <#ident as #krate::__private::de::Fields>::partial();
                        <#ident as #krate::__private::de::Fields>::read_rest(&mut __partial, &mut __map)?;
                        <#ident as #krate::__private::de::Fields>::finish(__partial, ::core::convert::identity)
                    }
                }

                #serde::Deserializer::deserialize_map(__deserializer, __Visitor)
            }
        }
    }
}
