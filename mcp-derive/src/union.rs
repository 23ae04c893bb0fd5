//! Expansion of `#[derive(McpUnion)]`: anyOf unions, told apart by a tag member, by the JSON
//! type of the value, or by the shape of the object.

use crate::ast::Container;
use crate::attr::{JsonType, Literal, Predicate, UnionMode};
use crate::delegate;
use crate::shell;
use crate::tagged::{self, Arm, Dispatch, Unknown};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

pub fn expand(cont: &Container) -> TokenStream {
    let de = match &cont.attrs.modes[0].1 {
        UnionMode::Tag(tag) => by_tag(cont, &tag.value()),
        UnionMode::ByJsonType => by_json_type(cont),
        UnionMode::ByShape => by_shape(cont),
    };
    let ser = delegate::serialize(cont);
    let from = delegate::from_impls(cont);
    quote! {
        #ser
        #de
        #from
    }
}

/// The variants that are one-field tuple variants (all of them, once checked).
fn newtypes<'c>(
    cont: &'c Container,
) -> impl Iterator<Item = (&'c crate::ast::Variant<'c>, &'c Type)> {
    cont.variants()
        .iter()
        .filter_map(|v| v.ty.map(|ty| (v, ty)))
}

fn by_tag(cont: &Container, key: &str) -> TokenStream {
    let mut arms = Vec::new();
    let mut missing = None;
    for (v, ty) in newtypes(cont) {
        if let Some(lit) = &v.attrs.tag_value {
            arms.push(Arm {
                value: lit.value(),
                variant: v.ident,
                ty,
                extension: false,
            });
        }
        if v.attrs.default.is_some() {
            missing = Some((v.ident, ty));
        }
    }
    let tagged = tagged_union(cont, key, &arms);
    let dispatch = Dispatch {
        key: key.to_owned(),
        arms,
        missing,
        other: None,
        unknown: Unknown::Tag,
    };
    let de = delegate::map_deserialize(cont, tagged::visit_map_body(cont, &dispatch));
    quote!(#de #tagged)
}

/// `impl TaggedUnion`: the tag member and the values that select a variant.
fn tagged_union(cont: &Container, key: &str, arms: &[Arm]) -> TokenStream {
    let ident = cont.ident;
    let krate = cont.krate();
    let values = arms.iter().map(|a| &a.value);
    quote! {
        #[automatically_derived]
        impl #krate::TaggedUnion for #ident {
            const TAG: &'static str = #key;
            const TAG_VALUES: &'static [&'static str] = &[#(#values),*];
        }
    }
}

fn by_json_type(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let krate = cont.krate();
    let serde = cont.serde();
    let value = quote!(#serde::de::value);
    let find = |json: JsonType| -> Option<(&Ident, &Type)> {
        newtypes(cont)
            .find(|(v, _)| v.attrs.json.map(|(t, _)| t) == Some(json))
            .map(|(v, ty)| (v.ident, ty))
    };
    let read = |(variant, ty): (&Ident, &Type), deserializer: TokenStream| {
        let call = quote_spanned!(ty.span()=> <#ty as #serde::Deserialize<'de>>::deserialize);
        quote!(::core::result::Result::map(#call(#deserializer), #ident::#variant))
    };
    let scalar = |name: &str, arg: TokenStream, de: TokenStream, target| -> TokenStream {
        let Some(target) = target else {
            return TokenStream::new();
        };
        let method = Ident::new(name, proc_macro2::Span::call_site());
        let body = read(target, de);
        quote! {
            fn #method<__E>(self, __value: #arg) -> ::core::result::Result<Self::Value, __E>
            where
                __E: #serde::de::Error,
            {
                #body
            }
        }
    };

    let string = find(JsonType::String);
    let integer = find(JsonType::Integer).or_else(|| find(JsonType::Number));
    let number = find(JsonType::Number);
    let mut methods = vec![
        scalar(
            "visit_str",
            quote!(&str),
            quote!(#value::StrDeserializer::<__E>::new(__value)),
            string,
        ),
        scalar(
            "visit_string",
            quote!(#krate::__private::de::String),
            quote!(#value::StringDeserializer::<__E>::new(__value)),
            string,
        ),
        scalar(
            "visit_i64",
            quote!(i64),
            quote!(#value::I64Deserializer::<__E>::new(__value)),
            integer,
        ),
        scalar(
            "visit_u64",
            quote!(u64),
            quote!(#value::U64Deserializer::<__E>::new(__value)),
            integer,
        ),
        scalar(
            "visit_f64",
            quote!(f64),
            quote!(#value::F64Deserializer::<__E>::new(__value)),
            number,
        ),
        scalar(
            "visit_bool",
            quote!(bool),
            quote!(#value::BoolDeserializer::<__E>::new(__value)),
            find(JsonType::Boolean),
        ),
    ];
    if let Some(target) = string {
        let body = read(
            target,
            quote!(#value::BorrowedStrDeserializer::<__E>::new(__value)),
        );
        methods.push(quote! {
            fn visit_borrowed_str<__E>(self, __value: &'de str) -> ::core::result::Result<Self::Value, __E>
            where
                __E: #serde::de::Error,
            {
                #body
            }
        });
    }
    if let Some(target) = find(JsonType::Null) {
        let body = read(target, quote!(#value::UnitDeserializer::<__E>::new()));
        methods.push(quote! {
            fn visit_unit<__E>(self) -> ::core::result::Result<Self::Value, __E>
            where
                __E: #serde::de::Error,
            {
                #body
            }

            fn visit_none<__E>(self) -> ::core::result::Result<Self::Value, __E>
            where
                __E: #serde::de::Error,
            {
                #serde::de::Visitor::visit_unit(self)
            }
        });
    }
    if let Some(target) = find(JsonType::Array) {
        let body = read(target, quote!(#value::SeqAccessDeserializer::new(__seq)));
        methods.push(quote! {
            fn visit_seq<__A>(self, __seq: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: #serde::de::SeqAccess<'de>,
            {
                #body
            }
        });
    }
    if let Some(target) = find(JsonType::Object) {
        let body = read(target, quote!(#value::MapAccessDeserializer::new(__map)));
        methods.push(quote! {
            fn visit_map<__A>(self, __map: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: #serde::de::MapAccess<'de>,
            {
                #body
            }
        });
    }

    // "a JSON string or integer (RequestId)"
    let mut names: Vec<&str> = JsonType::ALL
        .iter()
        .filter(|(_, t)| find(*t).is_some())
        .map(|(n, _)| *n)
        .collect();
    let expecting = {
        let last = names.pop().unwrap_or("value");
        let list = if names.is_empty() {
            last.to_owned()
        } else {
            format!("{} or {}", names.join(", "), last)
        };
        format!("a JSON {list} ({})", cont.name)
    };

    let read = shell::visit(
        cont,
        &expecting,
        quote!(#(#methods)*),
        quote!(deserialize_any),
    );
    shell::deserialize(cont, quote!(), read)
}

fn predicate(krate: &TokenStream, p: &Predicate) -> TokenStream {
    match p {
        Predicate::Equals { key, value } => match value {
            Literal::Str(s) => quote!(#krate::__private::de::key_is_str(&__object, #key, #s)),
            Literal::Int(v) => quote!(#krate::__private::de::key_is_i64(&__object, #key, #v)),
            Literal::Bool(v, _) => quote!(#krate::__private::de::key_is_bool(&__object, #key, #v)),
        },
        Predicate::OneOf { key, values } => {
            quote!(#krate::__private::de::key_in(&__object, #key, &[#(#values),*]))
        }
        Predicate::Has(key) => quote!(#krate::__private::de::has_key(&__object, #key)),
        Predicate::Lacks(key) => quote!(!#krate::__private::de::has_key(&__object, #key)),
    }
}

fn describe(p: &Predicate) -> String {
    match p {
        Predicate::Equals { key, value } => format!("`{}` is {}", key.value(), value.to_json()),
        Predicate::OneOf { key, values } => format!(
            "`{}` is one of {}",
            key.value(),
            values
                .iter()
                .map(|v| format!("{:?}", v.value()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Predicate::Has(key) => format!("has `{}`", key.value()),
        Predicate::Lacks(key) => format!("lacks `{}`", key.value()),
    }
}

fn by_shape(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let name = &cont.name;
    let krate = cont.krate();
    let mut tries = Vec::new();
    let mut descriptions = Vec::new();
    for (v, ty) in newtypes(cont) {
        let variant = v.ident;
        let conditions: Vec<_> = v.attrs.when.iter().map(|p| predicate(&krate, p)).collect();
        let condition = if conditions.is_empty() {
            quote!(true)
        } else {
            quote!(#(#conditions)&&*)
        };
        let call =
            quote_spanned!(ty.span()=> #krate::__private::de::from_object::<#ty, __D::Error>);
        tries.push(quote! {
            if #condition {
                return ::core::result::Result::map(#call(__object), #ident::#variant);
            }
        });
        let when: Vec<_> = v.attrs.when.iter().map(describe).collect();
        descriptions.push(if when.is_empty() {
            format!("{} (any object)", v.ident)
        } else {
            format!("{} ({})", v.ident, when.join(", "))
        });
    }
    let described = descriptions.join("; ");
    let body = quote! {
        let __object = #krate::__private::de::deserialize_object(__deserializer, #name)?;
        #(#tries)*
        ::core::result::Result::Err(#krate::__private::de::no_shape_match::<__D::Error>(#name, #described))
    };
    shell::deserialize(cont, quote!(), body)
}
