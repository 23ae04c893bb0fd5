//! Expansion of `#[derive(McpResult)]` on an enum: an outcome whose variant is chosen by
//! `resultType`, with compile-time checks that each variant holds a type of that resultType
//! and that an `input_required` variant answers a request that may require input; and, when
//! variants are `#[mcp(other)]` or name methods, a result union with `from_method`.

use crate::ast::{Container, Variant};
use crate::delegate;
use crate::tagged::{self, Arm, Dispatch, Unknown};
use crate::words::{self, COMPLETE, INPUT_REQUIRED, RESULT_TYPE};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

/// The variants by how they are chosen.
struct Variants<'a> {
    /// Chosen by their `resultType`, with the methods each lists (whose answers may have it).
    tagged: Vec<(Arm<'a>, &'a Variant<'a>)>,
    /// Chosen by `from_method` only: the complete result of the methods each names.
    by_method: Vec<&'a Variant<'a>>,
    /// `#[mcp(other)]`.
    other: Option<(&'a Ident, &'a Type)>,
}

impl<'a> Variants<'a> {
    fn of(cont: &'a Container<'a>) -> Self {
        let mut out = Variants {
            tagged: Vec::new(),
            by_method: Vec::new(),
            other: None,
        };
        for v in cont.variants() {
            let Some(ty) = v.ty else { continue };
            if v.attrs.other.is_some() {
                out.other = Some((v.ident, ty));
            } else if let Some(value) = v.result_type.clone() {
                let arm = Arm {
                    extension: !words::is_core(&value),
                    value,
                    variant: v.ident,
                    ty,
                };
                out.tagged.push((arm, v));
            } else if !v.attrs.methods.is_empty() {
                out.by_method.push(v);
            }
        }
        out
    }

    /// The variant a result without `resultType` (or with `"complete"`) reads, without a method.
    fn complete(&self) -> Option<(&'a Ident, &'a Type)> {
        let tagged = self.tagged.iter().find(|(a, _)| a.value == COMPLETE);
        tagged.map(|(a, _)| (a.variant, a.ty)).or(self.other)
    }

    /// The variant that names `method`.
    fn naming(&self, method: &str) -> Option<&'a Variant<'a>> {
        self.by_method
            .iter()
            .copied()
            .find(|v| v.attrs.methods.iter().any(|m| m.value() == method))
    }
}

pub fn expand(cont: &Container) -> TokenStream {
    let variants = Variants::of(cont);
    let dispatch = Dispatch {
        key: RESULT_TYPE.to_owned(),
        arms: variants.tagged.iter().map(|(a, _)| a.clone()).collect(),
        missing: variants.complete(),
        other: variants.other,
        unknown: Unknown::ResultType,
    };
    let body = tagged::visit_map_body(cont, &dispatch);
    let de = delegate::map_deserialize(cont, body);
    let ser = delegate::serialize(cont);
    let from = delegate::from_impls(cont);
    let asserts = assertions(cont, &variants);
    let from_method = if cont.is_result_union() {
        from_method(cont, &variants)
    } else {
        TokenStream::new()
    };
    quote! {
        #ser
        #de
        #from
        #from_method
        #asserts
    }
}

/// The `from_method` signature, with `body` (or the fallback's).
pub fn from_method_fn(cont: &Container, body: TokenStream) -> TokenStream {
    let ident = cont.ident;
    let serde = cont.serde();
    let doc = format!(
        " Reads the result of a response to `method` as the variant of `{}` that holds that method's result.",
        cont.name
    );
    quote! {
        #[automatically_derived]
        impl #ident {
            #[doc = #doc]
            ///
            /// # Errors
            ///
            /// When the input is not a valid result of `method`.
            pub fn from_method<'de, __D>(
                method: &str,
                deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error>
            where
                __D: #serde::Deserializer<'de>,
            {
                #body
            }
        }
    }
}

/// `from_method`: a method some tagged variant lists is dispatched by `resultType` (complete
/// reads the variant naming the method); a method a variant names reads that variant's type;
/// any other reads the `other` variant, or is an error.
fn from_method(cont: &Container, variants: &Variants) -> TokenStream {
    let ident = cont.ident;
    let serde = cont.serde();
    let krate = cont.krate();
    let name = &cont.name;
    let mut known: Vec<String> = Vec::new();
    let mut arms = Vec::new();
    for (method, read) in listed_groups(cont, variants) {
        arms.push(quote!(#(#method)|* => #read,));
        known.extend(method);
    }
    for v in &variants.by_method {
        let methods: Vec<String> = v
            .attrs
            .methods
            .iter()
            .map(syn::LitStr::value)
            .filter(|m| !known.contains(m))
            .collect();
        let (Some(ty), false) = (v.ty, methods.is_empty()) else {
            continue;
        };
        let variant = v.ident;
        let call = quote_spanned!(ty.span()=> <#ty as #serde::Deserialize<'de>>::deserialize);
        arms.push(quote! {
            #(#methods)|* => ::core::result::Result::map(#call(deserializer), #ident::#variant),
        });
        known.extend(methods);
    }
    let fallback = match variants.other {
        Some((variant, ty)) => {
            let call = quote_spanned!(ty.span()=> <#ty as #serde::Deserialize<'de>>::deserialize);
            quote!(::core::result::Result::map(#call(deserializer), #ident::#variant))
        }
        None => quote! {{
            let _ = deserializer;
            ::core::result::Result::Err(
                #krate::__private::de::unknown_method::<__D::Error>(#name, __method, &[#(#known),*]),
            )
        }},
    };
    let body = quote! {
        match method {
            #(#arms)*
            __method => #fallback,
        }
    };
    from_method_fn(cont, body)
}

/// The methods that tagged variants list, grouped by what reads them (the variants listing
/// each and its complete variant), each group with the read: a dispatch by `resultType`.
fn listed_groups(cont: &Container, variants: &Variants) -> Vec<(Vec<String>, TokenStream)> {
    let mut groups: Vec<(Vec<String>, Vec<String>, Dispatch)> = Vec::new();
    for (_, v) in &variants.tagged {
        for method in v.attrs.methods.iter().map(syn::LitStr::value) {
            if groups.iter().any(|(ms, ..)| ms.contains(&method)) {
                continue;
            }
            let Some(dispatch) = method_dispatch(variants, &method) else {
                continue;
            };
            let signature: Vec<String> = dispatch
                .arms
                .iter()
                .map(|a| format!("{}={}", a.value, a.variant))
                .collect();
            match groups.iter_mut().find(|(_, s, _)| *s == signature) {
                Some((methods, ..)) => methods.push(method),
                None => groups.push((vec![method], signature, dispatch)),
            }
        }
    }
    groups
        .into_iter()
        .map(|(methods, _, dispatch)| {
            let body = tagged::visit_map_body(cont, &dispatch);
            let read = delegate::map_visit(cont, body);
            let read = quote! {{
                let __deserializer = deserializer;
                #read
            }};
            (methods, read)
        })
        .collect()
}

/// How the answer to a method that tagged variants list is read: `"complete"` (or no
/// `resultType`) as the variant naming the method (else the enum's complete variant), each
/// listing variant's value as that variant, any other value an error.
fn method_dispatch<'a>(variants: &Variants<'a>, method: &str) -> Option<Dispatch<'a>> {
    let complete = match variants.naming(method) {
        Some(v) => (v.ident, v.ty?),
        None => variants.complete()?,
    };
    let mut arms = vec![Arm {
        value: COMPLETE.to_owned(),
        variant: complete.0,
        ty: complete.1,
        extension: false,
    }];
    for (arm, v) in &variants.tagged {
        if v.attrs.methods.iter().any(|m| m.value() == method) {
            arms.push(arm.clone());
        }
    }
    Some(Dispatch {
        key: RESULT_TYPE.to_owned(),
        arms,
        missing: Some(complete),
        other: None,
        unknown: Unknown::ResultType,
    })
}

/// Compile-time checks: each variant's type has the variant's `RESULT_TYPE`, and the request
/// (if given) may be answered with `input_required` when there is such a variant.
fn assertions(cont: &Container, variants: &Variants) -> TokenStream {
    let krate = cont.krate();
    let mut out = TokenStream::new();
    for (a, _) in &variants.tagged {
        let advice = format!(
            "hold a result type of resultType {:?}, or rename the variant or change its #[mcp(result_type = \"...\")]",
            a.value
        );
        out.extend(assert_result_type(cont, a.variant, a.ty, &a.value, &advice));
    }
    for v in &variants.by_method {
        let Some(ty) = v.ty else { continue };
        let advice = "a variant with #[mcp(method = \"...\")] holds the complete result of its methods; give a variant of another resultType #[mcp(result_type = \"...\")]";
        out.extend(assert_result_type(cont, v.ident, ty, COMPLETE, advice));
    }
    if let Some((_, request)) = &cont.attrs.request {
        for v in cont.variants() {
            if v.result_type.as_deref() != Some(INPUT_REQUIRED) {
                continue;
            }
            // The request's tokens take the variant's span, so that the unmet bound (and its
            // on_unimplemented message) points at the variant.
            let span = v.ident.span();
            let request = respan(request.to_token_stream(), span);
            let call = quote_spanned!(span=> __assert_may_require_input::<#request>);
            out.extend(quote! {
                const _: () = {
                    fn __assert_may_require_input<__R: #krate::MayRequireInput>() {}
                    let _ = #call;
                };
            });
        }
    }
    out
}

/// `const _: () = assert!(RESULT_TYPE == value)` at the variant's type.
fn assert_result_type(
    cont: &Container,
    variant: &Ident,
    ty: &Type,
    value: &str,
    advice: &str,
) -> TokenStream {
    let krate = cont.krate();
    let message = format!(
        "variant `{}` of `{}` holds `{}`, whose McpResultType::RESULT_TYPE is not {:?}: {}",
        variant,
        cont.name,
        quote!(#ty).to_string().replace(' ', ""),
        value,
        advice
    )
    .replace('{', "{{")
    .replace('}', "}}");
    let rt = quote_spanned!(ty.span()=> <#ty as #krate::McpResultType>::RESULT_TYPE);
    quote_spanned! {ty.span()=>
        const _: () = ::core::assert!(#krate::__private::de::str_eq(#rt, #value), #message);
    }
}

fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = proc_macro2::TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}
