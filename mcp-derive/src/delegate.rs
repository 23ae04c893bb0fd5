//! What every enum derive shares: `Serialize` by delegating to the variant's value, and a
//! `From` impl per variant type.

use crate::ast::Container;
use crate::shell;
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use std::collections::HashMap;
use syn::spanned::Spanned;

/// `impl Serialize`: write the inner value as it is.
pub fn serialize(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let serde = cont.serde();
    let arms = cont.variants().iter().filter_map(|v| {
        let ty = v.ty?;
        let variant = v.ident;
        let call = quote_spanned!(ty.span()=> <#ty as #serde::Serialize>::serialize);
        Some(quote!(#ident::#variant(__value) => #call(__value, __serializer),))
    });
    shell::serialize(cont, quote!(match self { #(#arms)* }))
}

/// `impl From<T> for Enum` for each variant whose type no other variant has, `From<&str>`
/// beside `From<String>`, so that a string literal makes the union (a progress token, a
/// request id) as it makes a `String` member, and `From<T>` beside `From<Box<T>>`, so that a
/// boxed variant (a large one, as generated code boxes it) is made from its value.
pub fn from_impls(cont: &Container) -> TokenStream {
    let ident = cont.ident;
    let mut count: HashMap<String, usize> = HashMap::new();
    for v in cont.variants() {
        if let Some(ty) = v.ty {
            *count.entry(quote!(#ty).to_string()).or_default() += 1;
            if let Some(inner) = boxed(ty) {
                *count.entry(quote!(#inner).to_string()).or_default() += 1;
            }
        }
    }
    let impls = cont.variants().iter().filter_map(|v| {
        let ty = v.ty?;
        if count[&quote!(#ty).to_string()] > 1 {
            return None;
        }
        let variant = v.ident;
        let from_inner = boxed(ty)
            .filter(|inner| count[&quote!(#inner).to_string()] == 1)
            .map(|inner| {
                quote! {
                    #[automatically_derived]
                    impl ::core::convert::From<#inner> for #ident {
                        #[inline]
                        fn from(__value: #inner) -> Self {
                            #ident::#variant(::std::boxed::Box::new(__value))
                        }
                    }
                }
            });
        let from_str = is_string(ty).then(|| {
            quote! {
                #[automatically_derived]
                impl ::core::convert::From<&str> for #ident {
                    #[inline]
                    fn from(__value: &str) -> Self {
                        #ident::#variant(::core::convert::From::from(__value))
                    }
                }
            }
        });
        Some(quote! {
            #[automatically_derived]
            impl ::core::convert::From<#ty> for #ident {
                #[inline]
                fn from(__value: #ty) -> Self {
                    #ident::#variant(__value)
                }
            }
            #from_str
            #from_inner
        })
    });
    quote!(#(#impls)*)
}

/// The `T` of a type spelled `::std::boxed::Box<T>` or `::alloc::boxed::Box<T>` (as generated
/// code spells it; another spelling may name a type of the user's own).
fn boxed(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let segments: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
    let [root, module, last] = segments.as_slice() else {
        return None;
    };
    let absolute = path.qself.is_none() && path.path.leading_colon.is_some();
    let named = (root.ident == "std" || root.ident == "alloc")
        && module.ident == "boxed"
        && last.ident == "Box"
        && root.arguments.is_none()
        && module.arguments.is_none();
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [syn::GenericArgument::Type(inner)] if absolute && named => Some(inner),
        _ => None,
    }
}

/// Whether `ty` is spelled as the standard `String` by its absolute path,
/// `::std::string::String` or `::alloc::string::String` (as generated code spells it). Any
/// other spelling (`String`, `std::string::String`) may name a type of the user's own, which
/// need not convert from `&str`.
fn is_string(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let plain = path.qself.is_none()
        && path.path.leading_colon.is_some()
        && path.path.segments.iter().all(|s| s.arguments.is_none());
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    plain
        && matches!(names.as_slice(), [root, string, name] if (root == "std" || root == "alloc") && string == "string" && name == "String")
}

/// `impl Deserialize` whose visitor accepts only maps, running `body` in `visit_map` (with
/// `__map: __A` in scope).
pub fn map_deserialize(cont: &Container, body: TokenStream) -> TokenStream {
    shell::deserialize(cont, quote!(), map_visit(cont, body))
}

/// A block that reads `__deserializer` as a map with a visitor running `body` in `visit_map`
/// (with `__map: __A` in scope), giving `Result<Enum, __D::Error>`.
pub fn map_visit(cont: &Container, body: TokenStream) -> TokenStream {
    let serde = cont.serde();
    let visit_map = quote! {
        fn visit_map<__A>(
            self,
            mut __map: __A,
        ) -> ::core::result::Result<Self::Value, __A::Error>
        where
            __A: #serde::de::MapAccess<'de>,
        {
            #body
        }
    };
    shell::visit(
        cont,
        &cont.expecting_object(),
        visit_map,
        quote!(deserialize_map),
    )
}
