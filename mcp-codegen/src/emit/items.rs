//! The items: one declaration (with its derive attributes) per IR type, and the inherent API
//! of sealed structs.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::EmitOptions;
use super::tokens::{Docs, allow_case, doc_lines, ty};
use crate::ir::{
    ConstValue, Field, Kind, Module, Predicate, ResultMode, ResultSelect, Results, Select, Struct,
    Ty, TypeDef, Union, UnionMode,
};

struct Emitter<'a> {
    module: &'a Module,
    options: &'a EmitOptions,
    docs: Docs<'a>,
}

/// Every item of the module, in name order.
pub fn emit(module: &Module, options: &EmitOptions) -> TokenStream {
    let e = Emitter {
        module,
        options,
        docs: Docs::new(module),
    };
    let items = module.types.values().map(|d| e.item(d));
    quote!(#(#items)*)
}

impl Emitter<'_> {
    fn field_ty(&self, f: &Field) -> TokenStream {
        let t = ty(&f.ty);
        if f.required {
            t
        } else {
            quote!(::core::option::Option<#t>)
        }
    }

    /// `attrs` when `JsonSchema` is derived (schemars reads serde's attributes), else nothing.
    fn json_schema_attrs(&self, attrs: TokenStream) -> TokenStream {
        if self.options.json_schema {
            attrs
        } else {
            TokenStream::new()
        }
    }

    fn schemars(&self) -> TokenStream {
        if self.options.json_schema {
            quote!(, ::schemars::JsonSchema)
        } else {
            TokenStream::new()
        }
    }

    fn item(&self, def: &TypeDef) -> TokenStream {
        let docs = self.docs.schema(def.docs.as_deref());
        let name = &def.name;
        let allow = allow_case(std::iter::once(name));
        match &def.kind {
            Kind::Alias(t) => {
                let t = ty(t);
                quote! { #docs #allow pub type #name = #t; }
            }
            Kind::StringEnum(values) => {
                let allow = allow_case(std::iter::once(name).chain(values.iter().map(|v| &v.rust)));
                let variants = values.iter().map(|v| {
                    let i = &v.rust;
                    let j = &v.json;
                    let doc = format!(" `{j}`");
                    quote!(#[doc = #doc] #[serde(rename = #j)] #i)
                });
                let arms = values.iter().map(|v| {
                    let i = &v.rust;
                    let j = &v.json;
                    quote!(#name::#i => #j)
                });
                let schemars = self.schemars();
                quote! {
                    #docs
                    #allow
                    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize #schemars)]
                    pub enum #name { #(#variants,)* }

                    impl #name {
                        /// The wire value.
                        pub const fn as_str(&self) -> &'static str {
                            match self { #(#arms,)* }
                        }
                    }

                    impl ::core::fmt::Display for #name {
                        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(self.as_str())
                        }
                    }
                }
            }
            Kind::Struct(s) => self.structure(def, s, docs),
            Kind::Union(u) => self.union(def, u, docs),
            Kind::Results(r) => self.results(def, r, docs),
        }
    }

    fn structure(&self, def: &TypeDef, s: &Struct, docs: TokenStream) -> TokenStream {
        let name = &def.name;
        let allow = allow_case(std::iter::once(name));
        let derive = if s.result.is_some() {
            quote!(::mcp_runtime::McpResult)
        } else {
            quote!(::mcp_runtime::McpObject)
        };
        let defaultable = !s.sealed && s.fields.iter().all(|f| !f.required);
        let default = if defaultable {
            quote!(Default,)
        } else {
            TokenStream::new()
        };
        let mut attrs = Vec::new();
        for c in &s.constants {
            let key = &c.json;
            let value = match &c.value {
                ConstValue::Str(v) => quote!(#v),
                ConstValue::Int(i) => {
                    let lit = Literal::i64_unsuffixed(*i);
                    quote!(#lit)
                }
            };
            let optional = if c.optional {
                quote!(, optional)
            } else {
                TokenStream::new()
            };
            attrs.push(quote!(#[mcp(constant(name = #key, value = #value #optional))]));
        }
        if let Some(ResultMode::Fixed(v)) = &s.result {
            attrs.push(quote!(#[mcp(result_type = #v)]));
        }
        if !s.at_least_one_of.is_empty() {
            let keys = &s.at_least_one_of;
            attrs.push(quote!(#[mcp(at_least_one_of(#(#keys),*))]));
        }
        let vis = if s.sealed {
            TokenStream::new()
        } else {
            quote!(pub)
        };
        let mut fields: Vec<TokenStream> = Vec::new();
        if let Some(ResultMode::Field(f)) = &s.result {
            let (fname, j) = (&f.rust, &f.json);
            let fdocs = self.docs.schema(f.docs.as_deref());
            let t = self.field_ty(f);
            let js = self.json_schema_attrs(
                quote!(#[serde(rename = #j)] #[schemars(with = "::std::string::String")]),
            );
            fields.push(quote!(#fdocs #[mcp(result_type)] #js #vis #fname: #t));
        }
        for f in &s.fields {
            let fdocs = self.docs.schema(f.docs.as_deref());
            let fname = &f.rust;
            let rename = if f.rust.unraw() == f.json {
                TokenStream::new()
            } else {
                let j = &f.json;
                quote!(#[mcp(rename = #j)])
            };
            // An optional member that may be `null` keeps the `null` (`Some`), so that a
            // present `null` and a missing member are written back as they came.
            let keep_null = if !f.required && self.module.accepts_null(&f.ty) {
                quote!(#[mcp(keep_null)])
            } else {
                TokenStream::new()
            };
            let t = self.field_ty(f);
            let j = &f.json;
            let js = self.json_schema_attrs(quote!(#[serde(rename = #j)]));
            fields.push(quote!(#fdocs #rename #keep_null #js #vis #fname: #t));
        }
        if let Some(extra) = &s.extra {
            let e = extra;
            let js = self.json_schema_attrs(quote!(#[serde(flatten)]));
            fields.push(quote! {
                /// Members the schema does not declare, kept so that they are written back unchanged.
                #[mcp(extra)]
                #js
                #vis #e: ::mcp_runtime::Extra
            });
        }
        let schemars = self.schemars();
        let sealed = if s.sealed {
            self.sealed_api(def, s)
        } else {
            super::construct::constructors(def, s)
        };
        quote! {
            #docs
            #allow
            #[derive(Debug, Clone, PartialEq, #default #derive #schemars)]
            #(#attrs)*
            pub struct #name { #(#fields,)* }
            #sealed
        }
    }

    /// Constructor and accessors of a struct whose fields are private because of an
    /// at-least-one-of rule.
    fn sealed_api(&self, def: &TypeDef, s: &Struct) -> TokenStream {
        let name = &def.name;
        let one_of: Vec<&Field> = s
            .fields
            .iter()
            .filter(|f| s.at_least_one_of.contains(&f.json))
            .collect();
        let required: Vec<&Field> = s.fields.iter().filter(|f| f.required).collect();
        let params = one_of.iter().chain(&required).map(|f| {
            let n = &f.rust;
            let t = self.field_ty(f);
            quote!(#n: #t)
        });
        let members = super::construct::members(s, |f| {
            let n = &f.rust;
            (one_of.iter().any(|o| o.json == f.json) || f.required).then(|| quote!(#n))
        });
        let checks = one_of.iter().map(|f| {
            let n = &f.rust;
            quote!(#n.is_none())
        });
        let keys = &s.at_least_one_of;
        let type_name = def.name.unraw();
        let accessors = s.fields.iter().map(|f| {
            let n = &f.rust;
            let t = ty(&f.ty);
            let doc = format!(" The `{}` member.", f.json);
            if f.required {
                quote!(#[doc = #doc] pub fn #n(&self) -> &#t { &self.#n })
            } else {
                quote!(#[doc = #doc] pub fn #n(&self) -> ::core::option::Option<&#t> { self.#n.as_ref() })
            }
        });
        let setters = s.fields.iter().map(|f| {
            let n = &f.rust;
            let with = f.rust.prefixed("with_");
            let t = ty(&f.ty);
            let doc = format!(" Sets the `{}` member.", f.json);
            let value = if f.required { quote!(value) } else { quote!(::core::option::Option::Some(value)) };
            quote!(#[doc = #doc] #[must_use] pub fn #with(mut self, value: #t) -> Self { self.#n = #value; self })
        });
        let extra_api = s.extra.as_ref().map(|e| {
            quote! {
                /// Members the schema does not declare.
                pub fn extra(&self) -> &::mcp_runtime::Extra { &self.#e }
                /// Members the schema does not declare, to change.
                pub fn extra_mut(&mut self) -> &mut ::mcp_runtime::Extra { &mut self.#e }
            }
        });
        let new_doc = format!(
            " Creates a `{type_name}`; at least one of {} must be given.",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        quote! {
            impl #name {
                #[doc = #new_doc]
                pub fn new(#(#params),*) -> ::core::result::Result<Self, ::mcp_runtime::AtLeastOneOf> {
                    if #(#checks)&&* {
                        return ::core::result::Result::Err(::mcp_runtime::AtLeastOneOf {
                            type_name: #type_name,
                            keys: &[#(#keys),*],
                        });
                    }
                    ::core::result::Result::Ok(#name { #members })
                }
                #(#accessors)*
                #(#setters)*
                #extra_api
            }
        }
    }

    fn union(&self, def: &TypeDef, u: &Union, docs: TokenStream) -> TokenStream {
        let name = &def.name;
        let allow = allow_case(std::iter::once(name).chain(u.variants.iter().map(|v| &v.name)));
        let mode = match &u.mode {
            UnionMode::Tag(key) => quote!(#[mcp(tag = #key)]),
            UnionMode::JsonType => quote!(#[mcp(by_json_type)]),
            UnionMode::Shape => quote!(#[mcp(by_shape)]),
        };
        let variants = u.variants.iter().map(|v| {
            let vname = &v.name;
            let t = ty(&v.ty);
            let sel = match &v.select {
                Select::Tag { value, default } => {
                    let d = if *default {
                        quote!(, default)
                    } else {
                        TokenStream::new()
                    };
                    quote!(#[mcp(tag_value = #value #d)])
                }
                Select::JsonType(j) => quote!(#[mcp(json = #j)]),
                Select::Shape(preds) => {
                    let ps = preds.iter().map(|p| match p {
                        Predicate::Equals(k, v) => quote!(when(key = #k, equals = #v)),
                        Predicate::OneOf(k, vs) => quote!(when(key = #k, one_of(#(#vs),*))),
                        Predicate::Has(k) => quote!(when(has = #k)),
                        Predicate::Lacks(k) => quote!(when(lacks = #k)),
                    });
                    quote!(#[mcp(#(#ps),*)])
                }
            };
            let doc = match &v.ty {
                Ty::Named(n) => format!(" A [`{}`].", n.unraw()),
                _ => format!(" A JSON {}.", v.name.unraw().to_lowercase()),
            };
            quote!(#[doc = #doc] #sel #vname(#t))
        });
        let how = match &u.mode {
            UnionMode::Tag(key) => format!(" Read by the value of `{key}`."),
            UnionMode::JsonType => " Read by the JSON type of the value.".to_owned(),
            UnionMode::Shape => " The schema gives these members no discriminator: a value is read as the first variant (in the order listed) whose required members and constants it has and whose distinguishing members of the other variants it lacks.".to_owned(),
        };
        let sep = if docs.is_empty() {
            TokenStream::new()
        } else {
            quote!(#[doc = ""])
        };
        let schemars = self.schemars();
        let untagged = self.json_schema_attrs(quote!(#[serde(untagged)]));
        quote! {
            #docs
            #sep
            #[doc = #how]
            #allow
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #[derive(Debug, Clone, PartialEq, ::mcp_runtime::McpUnion #schemars)]
            #mode
            #untagged
            pub enum #name { #(#variants,)* }
        }
    }

    /// An enum read by `resultType` (an outcome or a union of results), through the derive.
    fn results(&self, def: &TypeDef, r: &Results, docs: TokenStream) -> TokenStream {
        let name = &def.name;
        let allow = allow_case(std::iter::once(name).chain(r.variants.iter().map(|v| &v.name)));
        let request = r.request.as_ref().map(|r| quote!(#[mcp(request = #r)]));
        let variants = r.variants.iter().map(|v| {
            let (vn, t) = (&v.name, &v.ty);
            let doc = doc_lines(&v.docs);
            let select = match &v.select {
                ResultSelect::ResultType { value, methods } if methods.is_empty() => {
                    quote!(#[mcp(result_type = #value)])
                }
                ResultSelect::ResultType { value, methods } => {
                    quote!(#[mcp(result_type = #value, methods(#(#methods),*))])
                }
                ResultSelect::Other => quote!(#[mcp(other)]),
                ResultSelect::Method(methods) if methods.is_empty() => TokenStream::new(),
                ResultSelect::Method(methods) => quote!(#[mcp(methods(#(#methods),*))]),
            };
            quote!(#doc #select #vn(#t))
        });
        let reading = if r.reading.is_empty() {
            TokenStream::new()
        } else {
            let sep = if docs.is_empty() {
                TokenStream::new()
            } else {
                quote!(#[doc = ""])
            };
            let text = doc_lines(&r.reading);
            quote!(#sep #text)
        };
        let schemars = self.schemars();
        let untagged = self.json_schema_attrs(quote!(#[serde(untagged)]));
        quote! {
            #docs
            #reading
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #allow
            #[derive(Debug, Clone, PartialEq, ::mcp_runtime::McpResult #schemars)]
            #request
            #untagged
            pub enum #name { #(#variants,)* }
        }
    }
}
