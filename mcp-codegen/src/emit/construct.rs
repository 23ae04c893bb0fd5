//! The construction API of an open struct: `new` with the required members (in schema order,
//! with those a reader may miss but a writer writes, the overlay's `lenient_on_read`;
//! constants are never parameters, the kept-members bag starts empty), and a chainable
//! `with_<member>` per optional member. Parameters take `impl Into<T>`, so a `&str` makes a
//! `String` and a variant makes its union, and an `f64` member takes any Rust integer or float
//! (`impl mcp_runtime::IntoNumber`); being generic, none of it is compiled unless used.

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::ty;
use crate::model::ir::{Field, ResultMode, Struct, Ty, TypeDef};

/// Clippy's `too_many_arguments` threshold.
const MANY_ARGUMENTS: usize = 7;

/// `new` and the `with_` methods of `s`.
pub fn constructors(def: &TypeDef, s: &Struct) -> TokenStream {
    let name = &def.name;
    // The members `new` takes: the required ones, and those a reader may miss but a writer
    // writes (optional fields, set here).
    let required: Vec<&Field> = s.fields.iter().filter(|f| f.written).collect();
    let params = required.iter().map(|f| {
        let (n, t) = (&f.rust, param_ty(&f.ty));
        quote!(#n: #t)
    });
    let members = members(s, |f| {
        let value = convert(&f.ty, &f.rust);
        match (f.required, f.written) {
            (true, _) => Some(value),
            (false, true) => Some(quote!(::core::option::Option::Some(#value))),
            (false, false) => None,
        }
    });
    let many =
        (required.len() > MANY_ARGUMENTS).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let new_doc = new_doc(def, &required);
    let setters = s.fields.iter().filter(|f| !f.required).map(setter);
    quote! {
        impl #name {
            #[doc = #new_doc]
            #many
            #[must_use]
            pub fn new(#(#params),*) -> Self {
                #name { #members }
            }
            #(#setters)*
        }
    }
}

/// The members of a struct literal of `s`: each field's value from `value` (`None` when it
/// gives none; a value that is the field's own name is written as the shorthand), the
/// result-type field at its default, the kept-members bag empty.
pub fn members(s: &Struct, value: impl Fn(&Field) -> Option<TokenStream>) -> TokenStream {
    let fields = s.fields.iter().map(|f| {
        let n = &f.rust;
        match value(f).map(|v| into_box(f, v)) {
            // A parameter of the field's name: the shorthand (clippy: redundant_field_names).
            Some(v) if v.to_string() == n.to_string() => quote!(#n,),
            Some(v) => quote!(#n: #v,),
            None => quote!(#n: ::core::option::Option::None,),
        }
    });
    let result = match &s.result {
        Some(ResultMode::Field(f)) => {
            let f = &f.rust;
            quote!(#f: ::core::default::Default::default(),)
        }
        _ => TokenStream::new(),
    };
    let extra = s
        .extra
        .as_ref()
        .map(|e| quote!(#e: ::mcp_runtime::Extra::new(),));
    quote!(#result #(#fields)* #extra)
}

/// `value`, of the member's type without its `Box`, put in the `Box` of a boxed member (a
/// large one, see the generator's `sizes` pass, or one that closes a cycle).
fn into_box(f: &Field, value: TokenStream) -> TokenStream {
    match (&f.ty, f.required) {
        (Ty::Boxed(_), true) => quote!(::std::boxed::Box::new(#value)),
        (Ty::Boxed(_), false) => {
            quote!(::core::option::Option::map(#value, ::std::boxed::Box::new))
        }
        _ => value,
    }
}

fn new_doc(def: &TypeDef, required: &[&Field]) -> String {
    let name = def.name.unraw();
    let a = crate::model::docs::capitalised(crate::model::docs::article(name));
    if required.is_empty() {
        return format!(" {a} `{name}` with every member unset (the `with_` methods set them).");
    }
    let members: Vec<String> = required.iter().map(|f| format!("`{}`", f.json)).collect();
    format!(
        " {a} `{name}` from its required members ({}); the optional ones start unset (the `with_` methods set them).",
        members.join(", ")
    )
}

/// `with_<member>(value)`: sets an optional member.
fn setter(f: &Field) -> TokenStream {
    let n = &f.rust;
    let with = f.rust.prefixed("with_");
    let t = param_ty(&f.ty);
    let value = convert(&f.ty, &quote!(value));
    let value = match &f.ty {
        Ty::Boxed(_) => quote!(::std::boxed::Box::new(#value)),
        _ => value,
    };
    let doc = format!(" Sets `{}`.", f.json);
    quote! {
        #[doc = #doc]
        #[must_use]
        pub fn #with(mut self, value: #t) -> Self {
            self.#n = ::core::option::Option::Some(#value);
            self
        }
    }
}

/// The type of a parameter that sets a member of type `t`: `impl Into<t>`, or for a JSON
/// number (`f64`, which `Into` reaches only from the small integers) any Rust integer or float.
/// A boxed member takes what its `Box` holds.
pub fn param_ty(t: &Ty) -> TokenStream {
    let t = t.unboxed();
    match t {
        Ty::F64 => quote!(impl ::mcp_runtime::IntoNumber),
        _ => {
            let t = ty(t);
            quote!(impl ::core::convert::Into<#t>)
        }
    }
}

/// The member's value from the parameter `name` of type [`param_ty`]`(t)`, not yet boxed.
pub fn convert(t: &Ty, name: &impl quote::ToTokens) -> TokenStream {
    match t.unboxed() {
        Ty::F64 => quote!(::mcp_runtime::IntoNumber::into_number(#name)),
        _ => quote!(::core::convert::Into::into(#name)),
    }
}
