//! The items: one declaration (with its derive attributes) per IR type, and the inherent API
//! of sealed structs.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::EmitOptions;
use super::prose;
use super::tokens::{Docs, allow_case, doc_lines, ty};
use crate::model::ir::{
    ConstValue, Field, Kind, Module, Predicate, ResultMode, ResultSelect, Results, Select, Struct,
    Ty, TypeDef, Union, UnionMode,
};

struct Emitter<'a> {
    module: &'a Module,
    options: &'a EmitOptions,
    docs: Docs<'a>,
}

/// Every item of the module but those `left_out` names (the types another revision's module
/// defines, with two revisions), in name order.
pub fn emit(
    module: &Module,
    options: &EmitOptions,
    left_out: &std::collections::BTreeSet<crate::model::ir::RustName>,
) -> TokenStream {
    let e = Emitter {
        module,
        options,
        docs: Docs::new(module),
    };
    let items = module
        .types
        .values()
        .filter(|d| !left_out.contains(&d.name))
        .map(|d| e.item(d));
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

    /// An item's doc attributes: the schema's description (else a generated summary) and the
    /// paragraphs in `extra`; and, after the derive, its JSON Schema description.
    fn item_docs(&self, def: &TypeDef, extra: &[String]) -> (TokenStream, TokenStream) {
        let mut text = self.docs.rustdoc(def.docs.as_deref());
        if text.is_empty() {
            text = prose::summary(def, &self.docs);
        }
        for paragraph in extra {
            text.push_str("\n\n");
            text.push_str(paragraph);
        }
        let plain = self.docs.plain(def.docs.as_deref());
        (doc_lines(&text), self.schema_description(&text, &plain))
    }

    /// `#[schemars(description = plain)]` where the JSON Schema description would otherwise be
    /// taken from doc text that differs from `plain` (rustdoc links, generated sentences).
    fn schema_description(&self, rustdoc: &str, plain: &str) -> TokenStream {
        if self.options.json_schema && rustdoc.trim() != plain {
            quote!(#[schemars(description = #plain)])
        } else {
            TokenStream::new()
        }
    }

    /// A field's doc attributes and JSON Schema description.
    fn field_docs(&self, f: &Field) -> TokenStream {
        let description = self.docs.rustdoc(f.docs.as_deref());
        let text = prose::field(&f.json, description.trim(), &f.ty, &self.docs);
        let plain = self.docs.plain(f.docs.as_deref());
        let lines = doc_lines(&text);
        let schema = self.schema_description(&text, &plain);
        quote!(#lines #schema)
    }

    fn item(&self, def: &TypeDef) -> TokenStream {
        let name = &def.name;
        let allow = allow_case(std::iter::once(name));
        match &def.kind {
            Kind::Alias(t) => {
                let (docs, _) = self.item_docs(def, &[]);
                let t = ty(t);
                quote! { #docs #allow pub type #name = #t; }
            }
            Kind::StringEnum(values) => {
                let allow = allow_case(std::iter::once(name).chain(values.iter().map(|v| &v.rust)));
                let variants = values.iter().map(|v| {
                    let i = &v.rust;
                    let j = &v.json;
                    let doc = format!(" The string `\"{j}\"`.");
                    quote!(#[doc = #doc] #[serde(rename = #j)] #i)
                });
                let (docs, schema_docs) = self.item_docs(def, &[]);
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
                    #schema_docs
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
            Kind::Struct(s) => self.structure(def, s),
            Kind::Union(u) => self.union(def, u),
            Kind::Results(r) => self.results(def, r),
        }
    }

    fn structure(&self, def: &TypeDef, s: &Struct) -> TokenStream {
        let mut extra: Vec<String> = s.notes.clone();
        extra.extend(prose::constants(&s.constants));
        let (docs, schema_docs) = self.item_docs(def, &extra);
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
            let value = const_literal(&c.value);
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
            let fdocs = self.field_docs(f);
            let t = self.field_ty(f);
            let js = self.json_schema_attrs(
                quote!(#[serde(rename = #j)] #[schemars(with = "::std::string::String")]),
            );
            fields.push(quote!(#fdocs #[mcp(result_type)] #js #vis #fname: #t));
        }
        for f in &s.fields {
            let fdocs = self.field_docs(f);
            let fname = &f.rust;
            let rename = if f.rust.unraw() == f.json {
                TokenStream::new()
            } else {
                let j = &f.json;
                quote!(#[mcp(rename = #j)])
            };
            // An optional member that may be `null` keeps the `null` (`Some`), so that a
            // present `null` and a missing member are written back as they came.
            let keep_null = if !f.required && self.module.types.accepts_null(&f.ty) {
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
        let wire = self.wire_schema(def, s);
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
            #schema_docs
            #wire
            pub struct #name { #(#fields,)* }
            #sealed
        }
    }

    /// `#[schemars(transform = ...)]`s with what the derived JSON Schema cannot see in the
    /// fields: a fixed result type, each constant, the at-least-one-of keys.
    fn wire_schema(&self, def: &TypeDef, s: &Struct) -> TokenStream {
        let fixed = matches!(s.result, Some(ResultMode::Default | ResultMode::Fixed(_)));
        let plain = s.constants.is_empty() && !fixed && s.at_least_one_of.is_empty();
        if !self.options.json_schema || plain {
            return TokenStream::new();
        }
        let name = &def.name;
        let result_type = fixed.then(
            || quote!(#[schemars(transform = ::mcp_runtime::json_schema::result_type::<#name>)]),
        );
        let constants = s.constants.iter().map(|c| {
            let key = &c.json;
            let value = const_literal(&c.value);
            let call = if c.optional {
                quote!(optional)
            } else {
                quote!(constant)
            };
            quote!(#[schemars(transform = ::mcp_runtime::json_schema::#call(#key, #value))])
        });
        let keys = &s.at_least_one_of;
        let one_of = (!keys.is_empty()).then(|| {
            quote!(#[schemars(transform = ::mcp_runtime::json_schema::at_least_one_of(&[#(#keys),*]))])
        });
        quote!(#result_type #(#constants)* #one_of)
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
            let t = param_ty(f);
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
        let singles = one_of.iter().map(|one| single(name, s, one, &required));
        // A boxed member (large, or closing a cycle) is read and set as what the box holds.
        let accessors = s.fields.iter().map(|f| {
            let n = &f.rust;
            let doc = format!(" The `{}` member.", f.json);
            match (&f.ty, f.required) {
                (Ty::Boxed(inner), true) => {
                    let t = ty(inner);
                    quote!(#[doc = #doc] pub fn #n(&self) -> &#t { &self.#n })
                }
                (Ty::Boxed(inner), false) => {
                    let t = ty(inner);
                    quote!(#[doc = #doc] pub fn #n(&self) -> ::core::option::Option<&#t> { self.#n.as_deref() })
                }
                (t, true) => {
                    let t = ty(t);
                    quote!(#[doc = #doc] pub fn #n(&self) -> &#t { &self.#n })
                }
                (t, false) => {
                    let t = ty(t);
                    quote!(#[doc = #doc] pub fn #n(&self) -> ::core::option::Option<&#t> { self.#n.as_ref() })
                }
            }
        });
        let setters = s.fields.iter().map(|f| {
            let n = &f.rust;
            let with = f.rust.prefixed("with_");
            let doc = format!(" Sets the `{}` member.", f.json);
            let (t, value) = match &f.ty {
                Ty::Boxed(inner) => (ty(inner), quote!(::std::boxed::Box::new(value))),
                t => (ty(t), quote!(value)),
            };
            let value = if f.required { value } else { quote!(::core::option::Option::Some(#value)) };
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
            " Creates {} `{type_name}`; at least one of {} must be given.",
            crate::model::docs::article(type_name),
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
                #(#singles)*
                #(#accessors)*
                #(#setters)*
                #extra_api
            }
        }
    }

    fn union(&self, def: &TypeDef, u: &Union) -> TokenStream {
        let (docs, schema_docs) = self.item_docs(def, &[prose::dispatch(u)]);
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
            let doc = doc_lines(&prose::variant(v, &u.mode, &self.docs));
            // The variant's own type carries its description in a JSON Schema.
            let schema_doc = self.schema_description("-", "");
            quote!(#doc #sel #schema_doc #vname(#t))
        });
        let schemars = self.schemars();
        let untagged = self.json_schema_attrs(quote!(#[serde(untagged)]));
        quote! {
            #docs
            #allow
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #[derive(Debug, Clone, PartialEq, ::mcp_runtime::McpUnion #schemars)]
            #mode
            #untagged
            #schema_docs
            pub enum #name { #(#variants,)* }
        }
    }

    /// An enum read by `resultType` (an outcome or a union of results), through the derive.
    fn results(&self, def: &TypeDef, r: &Results) -> TokenStream {
        let reading: Vec<String> = Some(r.reading.clone())
            .filter(|t| !t.is_empty())
            .into_iter()
            .collect();
        let (docs, schema_docs) = self.item_docs(def, &reading);
        let name = &def.name;
        let allow = allow_case(std::iter::once(name).chain(r.variants.iter().map(|v| &v.name)));
        let request = r.request.as_ref().map(|r| quote!(#[mcp(request = #r)]));
        let variants = r.variants.iter().map(|v| {
            let vn = &v.name;
            let t = match &v.wrapper {
                Some(w) => {
                    let (w, t) = (w.tokens(), &v.ty);
                    quote!(#w<#t>)
                }
                None => {
                    let t = &v.ty;
                    quote!(#t)
                }
            };
            let doc = doc_lines(&v.docs);
            let schema_doc = self.schema_description("-", "");
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
            quote!(#doc #select #schema_doc #vn(#t))
        });
        let schemars = self.schemars();
        let untagged = self.json_schema_attrs(quote!(#[serde(untagged)]));
        quote! {
            #docs
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #allow
            #[derive(Debug, Clone, PartialEq, ::mcp_runtime::McpResult #schemars)]
            #request
            #untagged
            #schema_docs
            pub enum #name { #(#variants,)* }
        }
    }
}

/// A constant's value as a Rust literal (`"text"`, or an unsuffixed integer).
fn const_literal(value: &ConstValue) -> TokenStream {
    match value {
        ConstValue::Str(v) => quote!(#v),
        ConstValue::Int(i) => Literal::i64_unsuffixed(*i).into_token_stream(),
    }
}

/// The infallible constructor of an at-least-one-of struct from one of those members (`from_<member>`,
/// with the required members): the rule is met by construction, so it returns the value itself.
/// The type of a sealed constructor's parameter for member `f`: what its `Box` holds (the
/// constructor boxes it), in an `Option` when the member is optional.
fn param_ty(f: &Field) -> TokenStream {
    let t = ty(f.ty.unboxed());
    if f.required {
        t
    } else {
        quote!(::core::option::Option<#t>)
    }
}

fn single(
    name: &crate::model::names::RustName,
    s: &Struct,
    one: &Field,
    required: &[&Field],
) -> TokenStream {
    let (n, t) = (&one.rust, super::construct::param_ty(&one.ty));
    let from = one.rust.prefixed("from_");
    let params = required.iter().map(|f| {
        let (n, t) = (&f.rust, param_ty(f));
        quote!(#n: #t)
    });
    let members = super::construct::members(s, |f| {
        let n = &f.rust;
        if f.json == one.json {
            let value = super::construct::convert(&one.ty, n);
            Some(quote!(::core::option::Option::Some(#value)))
        } else {
            f.required.then(|| quote!(#n))
        }
    });
    let doc = format!(
        " Creates {} `{}` with `{}` set, which meets its at-least-one-of rule (cannot fail; set the others with `with_`).",
        crate::model::docs::article(name.unraw()),
        name.unraw(),
        one.json
    );
    quote! {
        #[doc = #doc]
        #[must_use]
        pub fn #from(#n: #t #(, #params)*) -> Self {
            #name { #members }
        }
    }
}
