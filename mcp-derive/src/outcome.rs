//! Expansion of `#[derive(McpResult)]` on an enum: an outcome whose variant is chosen by
//! `resultType`, with compile-time checks that each variant holds a type of that resultType
//! and that an `input_required` variant answers a request that may require input.

use crate::ast::Container;
use crate::delegate;
use crate::tagged::{self, Arm, Dispatch, Unknown};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

const CORE: [&str; 2] = ["complete", "input_required"];

pub fn expand(cont: &Container) -> TokenStream {
    let mut arms = Vec::new();
    for v in cont.variants() {
        let (Some(ty), Some(value)) = (v.ty, v.result_type()) else {
            continue;
        };
        arms.push(Arm {
            extension: !CORE.contains(&value.as_str()),
            value,
            variant: v.ident,
            ty,
        });
    }
    let missing = arms
        .iter()
        .find(|a| a.value == "complete")
        .map(|a| (a.variant, a.ty));
    let dispatch = Dispatch {
        key: "resultType".to_owned(),
        arms,
        missing,
        unknown: Unknown::ResultType,
    };
    let body = tagged::visit_map_body(cont, &dispatch);
    let de = delegate::map_deserialize(cont, body);
    let ser = delegate::serialize(cont);
    let from = delegate::from_impls(cont);
    let asserts = assertions(cont, &dispatch);
    quote! {
        #ser
        #de
        #from
        #asserts
    }
}

/// Compile-time checks: each variant's type has the variant's `RESULT_TYPE`, and the request
/// (if given) may be answered with `input_required` when there is such a variant.
fn assertions(cont: &Container, d: &Dispatch) -> TokenStream {
    let krate = cont.krate();
    let mut out = TokenStream::new();
    for a in &d.arms {
        let ty = a.ty;
        let value = &a.value;
        let message = format!(
            "variant `{}` of `{}` holds `{}`, whose McpResultType::RESULT_TYPE is not {:?}: hold a result type of resultType {:?}, or rename the variant or change its #[mcp(result_type = \"...\")]",
            a.variant,
            cont.name,
            quote!(#ty).to_string().replace(' ', ""),
            value,
            value
        )
        .replace('{', "{{")
        .replace('}', "}}");
        let rt = quote_spanned!(ty.span()=> <#ty as #krate::McpResultType>::RESULT_TYPE);
        out.extend(quote_spanned! {ty.span()=>
            const _: () = ::core::assert!(#krate::__private::de::str_eq(#rt, #value), #message);
        });
    }
    if let Some((_, request)) = &cont.attrs.request {
        for v in cont.variants() {
            if v.result_type().as_deref() != Some("input_required") {
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
