//! Expansion of `#[derive(McpObject)]` and of `#[derive(McpResult)]` on a struct: a JSON object
//! with constants, declared fields and (optionally) extra members, plus the `resultType` rules
//! for results.

use crate::ast::{Container, Field};
use crate::attr::{Constant, Literal};
use crate::shell;
use crate::words::{COMPLETE, RESULT_TYPE};
use proc_macro2::{Ident, TokenStream};
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
        keys.push(RESULT_TYPE.to_owned());
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
            writes.push(quote!(#entry(&mut __map, #RESULT_TYPE, #value)?;));
        }
        ResultMode::Field(f) => {
            fixed += 1;
            let member = f.member;
            writes.push(quote!(#entry(&mut __map, #RESULT_TYPE, &self.#member)?;));
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

    let body = quote! {
        #extra_decl
        let __len: usize = #fixed #(#counted)* #extra_len;
        let mut __map = #serde::Serializer::serialize_map(
            __serializer,
            ::core::option::Option::Some(__len),
        )?;
        #(#writes)*
        #extra_write
        #serde::ser::SerializeMap::end(__map)
    };
    shell::serialize(cont, body)
}

/// What one declared member (`resultType`, a constant, a field) or the extra members add to
/// the generated `Fields` impl. Empty pieces add nothing.
#[derive(Default)]
struct Member {
    /// The JSON key and its `__Key` variant.
    key: Option<(String, Ident)>,
    /// The `__Partial` member and its initial value.
    slot: TokenStream,
    init: TokenStream,
    /// The arm of `read`'s match.
    read: TokenStream,
    /// The statement of `entries` that writes what was read back as JSON.
    entry: TokenStream,
    /// `finish`: a check once everything is read (before any field is unwrapped).
    check: TokenStream,
    /// `finish`: the field's value taken from the partial (`let __fN = ...`).
    take: TokenStream,
    /// The struct expression's member.
    build: TokenStream,
}

/// What the generated code names, computed once.
struct Ctx<'c, 'a> {
    cont: &'c Container<'a>,
    krate: TokenStream,
    serde: TokenStream,
    /// `<__E as serde::de::Error>`.
    error: TokenStream,
}

/// `impl Fields` (reading member by member, what unions stream into) and `impl Deserialize`
/// on top of it.
fn deserialize(cont: &Container, mode: &ResultMode) -> TokenStream {
    let serde = cont.serde();
    let cx = Ctx {
        cont,
        krate: cont.krate(),
        error: quote!(<__E as #serde::de::Error>),
        serde,
    };
    let extra_field = cont.fields().iter().find(|f| f.attrs.extra.is_some());
    let mut members: Vec<Member> = Vec::new();
    members.extend(result_type_member(&cx, mode));
    members.extend(
        cont.attrs
            .constants
            .iter()
            .enumerate()
            .map(|(i, c)| constant_member(&cx, i, c)),
    );
    members.extend(
        cont.fields()
            .iter()
            .enumerate()
            .filter_map(|(i, f)| field_member(&cx, i, f)),
    );
    members.extend(extra_field.map(|f| extra_member(&cx, f)));
    let keys = key_types(&members);
    let fields = fields_impl(&cx, &members, extra_field.is_some());
    let de = deserialize_impl(&cx);
    quote! {
        #keys
        #fields
        #de
    }
}

/// `resultType`: checked against the fixed value, or read into the `#[mcp(result_type)]` field.
fn result_type_member(cx: &Ctx, mode: &ResultMode) -> Option<Member> {
    let krate = &cx.krate;
    let name = &cx.cont.name;
    let var = format_ident!("__result_type");
    let key = Some((RESULT_TYPE.to_owned(), var.clone()));
    match mode {
        ResultMode::None => None,
        ResultMode::Fixed(value) => Some(Member {
            key,
            slot: quote!(#var: bool,),
            init: quote!(#var: false,),
            read: quote! {
                __Key::#var => #krate::__private::de::read_checked(
                    &mut __partial.#var,
                    #RESULT_TYPE,
                    #krate::__private::de::ResultTypeIs { type_name: #name, expected: #value },
                    __value,
                ),
            },
            entry: quote! {
                if __partial.#var {
                    #krate::__private::de::entry::<str, __E>(__out, #RESULT_TYPE, #value)?;
                }
            },
            check: if value == COMPLETE {
                TokenStream::new()
            } else {
                quote! {
                    if !__partial.#var {
                        #krate::__private::de::missing_result_type::<__E>(#name, #value)?;
                    }
                }
            },
            ..Member::default()
        }),
        ResultMode::Field(f) => {
            let (ty, member) = (f.ty, f.member);
            Some(Member {
                key,
                slot: quote!(#var: ::core::option::Option<#ty>,),
                init: quote!(#var: ::core::option::Option::None,),
                read: quote! {
                    __Key::#var => #krate::__private::de::read_slot(&mut __partial.#var, #RESULT_TYPE, __value),
                },
                entry: quote! {
                    #krate::__private::de::entry_of::<_, __E>(__out, #RESULT_TYPE, &__partial.#var)?;
                },
                build: quote_spanned! {ty.span()=>
                    #member: match __partial.#var {
                        ::core::option::Option::Some(__value) => __value,
                        ::core::option::Option::None => #krate::ResultType::Complete,
                    },
                },
                ..Member::default()
            })
        }
    }
}

/// A `constant(...)`: checked when read, required unless `optional`.
fn constant_member(cx: &Ctx, i: usize, c: &Constant) -> Member {
    let (krate, error) = (&cx.krate, &cx.error);
    let var = format_ident!("__c{}", i);
    let key = c.name.value();
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
    Member {
        read: quote! {
            __Key::#var => #krate::__private::de::read_checked(&mut __partial.#var, #key, #seed, __value),
        },
        entry: quote! {
            if __partial.#var {
                #json
            }
        },
        check: if c.optional {
            TokenStream::new()
        } else {
            quote! {
                if !__partial.#var {
                    return ::core::result::Result::Err(#error::missing_field(#key));
                }
            }
        },
        slot: quote!(#var: bool,),
        init: quote!(#var: false,),
        key: Some((key, var)),
        ..Member::default()
    }
}

/// A declared field (required, optional or defaulted); `None` for the extra and resultType
/// fields, which are members of their own.
fn field_member(cx: &Ctx, i: usize, f: &Field) -> Option<Member> {
    let krate = &cx.krate;
    let var = format_ident!("__f{}", i);
    let (member, ty, key) = (f.member, f.ty, &f.key);
    let take = match role(f) {
        Role::ResultType | Role::Extra => return None,
        Role::Required => {
            quote!(#krate::__private::de::required::<_, __E>(__partial.#var, #key)?)
        }
        // `None` for an optional field, `Default::default()` for a defaulted one.
        Role::Optional | Role::Default => {
            quote_spanned!(ty.span()=> ::core::option::Option::unwrap_or_default(__partial.#var))
        }
    };
    // `keep_null`: a present member is read as the `T` of `Option<T>`, so `null` is kept.
    let read_fn = if f.attrs.keep_null.is_some() && f.optional {
        quote!(read_present_slot)
    } else {
        quote!(read_slot)
    };
    Some(Member {
        read: quote! {
            __Key::#var => #krate::__private::de::#read_fn(&mut __partial.#var, #key, __value),
        },
        // A present `null` of an optional member is `Some(None)` here, and written as `null`.
        entry: quote! {
            #krate::__private::de::entry_of::<_, __E>(__out, #key, &__partial.#var)?;
        },
        take: quote! {
            let #var = #take;
        },
        build: quote!(#member: #var,),
        slot: quote!(#var: ::core::option::Option<#ty>,),
        init: quote!(#var: ::core::option::Option::None,),
        key: Some((key.clone(), var)),
        ..Member::default()
    })
}

/// The `#[mcp(extra)]` field: the undeclared members, kept in order of arrival.
fn extra_member(cx: &Ctx, f: &Field) -> Member {
    let krate = &cx.krate;
    let (member, ty) = (f.member, f.ty);
    Member {
        slot: quote!(__extra: #krate::Extra,),
        init: quote!(__extra: #krate::Extra::new(),),
        entry: quote! {
            for (__name, __value) in __partial.__extra {
                #krate::__private::de::keep(__out, __name, __value);
            }
        },
        build: quote_spanned! {ty.span()=>
            #member: <#ty as #krate::__private::de::ExtraField>::from_extra(__partial.__extra),
        },
        ..Member::default()
    }
}

/// `finish`'s `at_least_one_of` checks, after the fields are taken.
fn at_least_one_of_checks(cx: &Ctx) -> Vec<TokenStream> {
    let (cont, error) = (cx.cont, &cx.error);
    let mut checks = Vec::new();
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
    checks
}

/// `__Key` (the declared members) and `__Partial` (what was read of them).
fn key_types(members: &[Member]) -> TokenStream {
    let key_vars = members
        .iter()
        .filter_map(|m| m.key.as_ref())
        .map(|(_, v)| v);
    let slots = members.iter().map(|m| &m.slot);
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
    }
}

/// `impl Fields`: the members' pieces in place.
fn fields_impl(cx: &Ctx, members: &[Member], keeps_extra: bool) -> TokenStream {
    let (krate, serde) = (&cx.krate, &cx.serde);
    let ident = cx.cont.ident;
    let inits = members.iter().map(|m| &m.init);
    let arms = members.iter().map(|m| &m.read);
    let keys: Vec<&(String, Ident)> = members.iter().filter_map(|m| m.key.as_ref()).collect();
    let key_vars = keys.iter().map(|(_, v)| v);
    let str_pats = keys.iter().map(|(k, _)| k);
    // Undeclared members: kept in the extra field, or dropped (`read_rest` skips them).
    let other = if keeps_extra {
        quote!(#krate::__private::de::insert_extra::<__E>(&mut __partial.__extra, __key, __value))
    } else {
        quote! {{
            let _ = (__partial, __key, __value);
            ::core::result::Result::Ok(())
        }}
    };
    let finish = finish_and_entries_fns(cx, members);
    quote! {
        #[automatically_derived]
        impl #krate::__private::de::Fields for #ident {
            type Key = __Key;
            type Partial = __Partial;
            const KEEPS_EXTRA: bool = #keeps_extra;

            #[inline]
            fn partial() -> __Partial {
                __Partial { #(#inits)* }
            }

            #[inline]
            fn key(__name: &str) -> ::core::option::Option<__Key> {
                match __name {
                    #(#str_pats => ::core::option::Option::Some(__Key::#key_vars),)*
                    _ => ::core::option::Option::None,
                }
            }

            #[inline]
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

            #finish
        }
    }
}

/// `Fields::finish` (checks, then the struct) and `Fields::entries` (what was read, as JSON).
fn finish_and_entries_fns(cx: &Ctx, members: &[Member]) -> TokenStream {
    let (krate, serde) = (&cx.krate, &cx.serde);
    let ident = cx.cont.ident;
    let entries = members.iter().map(|m| &m.entry);
    let after = members.iter().map(|m| &m.check);
    let takes = members.iter().map(|m| &m.take);
    let checks = at_least_one_of_checks(cx);
    let init = members.iter().map(|m| &m.build);
    // `finish` and `entries` may use none of the members.
    let unpack = quote!(let _ = &__partial;);
    quote! {
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
            #(#takes)*
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
}

/// `impl Deserialize`: a map read with the `Fields` impl.
fn deserialize_impl(cx: &Ctx) -> TokenStream {
    let krate = &cx.krate;
    let expecting = cx.cont.expecting_object();
    let body =
        quote!(#krate::__private::de::deserialize_fields::<Self, __D>(__deserializer, #expecting));
    shell::deserialize(cx.cont, quote!(#[inline]), body)
}
