//! Emission: IR and protocol model to Rust tokens. The (de)serialization logic lives in the
//! derives of `mcp-runtime`; this stage writes declarations, attributes and trait impls.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::docs;
use crate::ir::{
    ConstValue, Field, Kind, Module, Outcome, Predicate, ResultMode, Select, Struct, Ty, TypeDef,
    Union, UnionMode,
};
use crate::names;
use crate::overlay::Overlay;
use crate::rules::Protocol;

/// Switches that change what is emitted.
#[derive(Debug, Clone, Default)]
pub struct EmitOptions {
    /// Also derive `schemars::JsonSchema`.
    pub json_schema: bool,
}

/// An identifier token for a name that may be raw (`r#type`).
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

struct Emitter<'a> {
    module: &'a Module,
    protocol: &'a Protocol,
    options: &'a EmitOptions,
    known: BTreeSet<String>,
}

/// Emits the whole module.
pub fn emit(
    module: &Module,
    protocol: &Protocol,
    overlay: Option<&Overlay>,
    options: &EmitOptions,
) -> TokenStream {
    let e = Emitter {
        module,
        protocol,
        options,
        known: module.types.keys().cloned().collect(),
    };
    let items = module.types.values().map(|d| e.item(d));
    let protocol_impls = e.protocol_impls();
    let mrtr = crate::emit_mrtr::emit(module, protocol, overlay);
    quote! {
        #(#items)*
        #protocol_impls
        #mrtr
    }
}

impl Emitter<'_> {
    fn doc(&self, text: Option<&str>) -> TokenStream {
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return TokenStream::new();
        };
        let field = |ty: &str, member: &str| -> Option<String> {
            let def = self.module.types.get(ty)?;
            let Kind::Struct(s) = &def.kind else {
                return None;
            };
            let f = s.fields.iter().find(|f| f.json == member)?;
            Some(format!("{ty}::{}", names::unraw(&f.rust)))
        };
        let md = docs::rustdoc(text, &self.known, &field);
        let lines = md.lines().map(|l| {
            let l = if l.is_empty() {
                String::new()
            } else {
                format!(" {l}")
            };
            quote!(#[doc = #l])
        });
        quote!(#(#lines)*)
    }

    fn ty(&self, t: &Ty) -> TokenStream {
        match t {
            Ty::Named(n) => {
                let i = ident(n);
                quote!(#i)
            }
            Ty::Path(p) => p.parse().expect("overlay paths are valid Rust paths"),
            Ty::String => quote!(::std::string::String),
            Ty::Bool => quote!(bool),
            Ty::I64 => quote!(i64),
            Ty::U64 => quote!(u64),
            Ty::F64 => quote!(f64),
            Ty::Value => quote!(::serde_json::Value),
            Ty::Object => quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>),
            Ty::Unit => quote!(()),
            Ty::Vec(inner) => {
                let i = self.ty(inner);
                quote!(::std::vec::Vec<#i>)
            }
            Ty::Map(inner) => {
                let i = self.ty(inner);
                quote!(::std::collections::BTreeMap<::std::string::String, #i>)
            }
            Ty::Boxed(inner) => {
                let i = self.ty(inner);
                quote!(::std::boxed::Box<#i>)
            }
        }
    }

    fn field_ty(&self, f: &Field) -> TokenStream {
        let t = self.ty(&f.ty);
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

    fn allow_case(name: &str) -> TokenStream {
        let n = names::unraw(name);
        let camel = n.starts_with(|c: char| c.is_ascii_uppercase())
            && !n.trim_start_matches('_').contains('_');
        if camel {
            TokenStream::new()
        } else {
            quote!(#[allow(non_camel_case_types)])
        }
    }

    fn item(&self, def: &TypeDef) -> TokenStream {
        let docs = self.doc(def.docs.as_deref());
        let name = ident(&def.name);
        let allow = Self::allow_case(&def.name);
        match &def.kind {
            Kind::Alias(t) => {
                let t = self.ty(t);
                quote! { #docs #allow pub type #name = #t; }
            }
            Kind::StringEnum(values) => {
                let variants = values.iter().map(|v| {
                    let i = ident(&v.rust);
                    let j = &v.json;
                    let doc = format!(" `{j}`");
                    quote!(#[doc = #doc] #[serde(rename = #j)] #i)
                });
                let arms = values.iter().map(|v| {
                    let i = ident(&v.rust);
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
            Kind::Union(u) if u.mode == UnionMode::Results => self.result_union(def, u, docs),
            Kind::Union(u) => self.union(def, u, docs),
            Kind::Outcome(o) => self.outcome(def, o, docs),
        }
    }

    fn structure(&self, def: &TypeDef, s: &Struct, docs: TokenStream) -> TokenStream {
        let name = ident(&def.name);
        let allow = Self::allow_case(&def.name);
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
        if let Some(ResultMode::Fixed(v)) = &s.result
            && v != "complete"
        {
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
            let f = ident(f);
            let js = self.json_schema_attrs(
                quote!(#[serde(rename = "resultType")] #[schemars(with = "::std::string::String")]),
            );
            fields.push(quote! {
                /// The result's `resultType`: `complete`, `input_required` or an accepted extension value.
                #[mcp(result_type)]
                #js
                #vis #f: ::mcp_runtime::ResultType
            });
        }
        for f in &s.fields {
            let fdocs = self.doc(f.docs.as_deref());
            let fname = ident(&f.rust);
            let rename = if names::unraw(&f.rust) == f.json {
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
            let e = ident(extra);
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
            TokenStream::new()
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
        let name = ident(&def.name);
        let one_of: Vec<&Field> = s
            .fields
            .iter()
            .filter(|f| s.at_least_one_of.contains(&f.json))
            .collect();
        let required: Vec<&Field> = s.fields.iter().filter(|f| f.required).collect();
        let params = one_of.iter().chain(&required).map(|f| {
            let n = ident(&f.rust);
            let t = self.field_ty(f);
            quote!(#n: #t)
        });
        let inits = s.fields.iter().map(|f| {
            let n = ident(&f.rust);
            if one_of.iter().any(|o| o.json == f.json) || f.required {
                quote!(#n)
            } else {
                quote!(#n: ::core::option::Option::None)
            }
        });
        let result_init = match &s.result {
            Some(ResultMode::Field(f)) => {
                let f = ident(f);
                quote!(#f: ::mcp_runtime::ResultType::Complete,)
            }
            _ => TokenStream::new(),
        };
        let extra_init = s.extra.as_ref().map(|e| {
            let e = ident(e);
            quote!(#e: ::mcp_runtime::Extra::new(),)
        });
        let checks = one_of.iter().map(|f| {
            let n = ident(&f.rust);
            quote!(#n.is_none())
        });
        let keys = &s.at_least_one_of;
        let type_name = &def.name;
        let accessors = s.fields.iter().map(|f| {
            let n = ident(&f.rust);
            let t = self.ty(&f.ty);
            let doc = format!(" The `{}` member.", f.json);
            if f.required {
                quote!(#[doc = #doc] pub fn #n(&self) -> &#t { &self.#n })
            } else {
                quote!(#[doc = #doc] pub fn #n(&self) -> ::core::option::Option<&#t> { self.#n.as_ref() })
            }
        });
        let setters = s.fields.iter().map(|f| {
            let n = ident(&f.rust);
            let with = ident(&format!("with_{}", names::unraw(&f.rust)));
            let t = self.ty(&f.ty);
            let doc = format!(" Sets the `{}` member.", f.json);
            let value = if f.required { quote!(value) } else { quote!(::core::option::Option::Some(value)) };
            quote!(#[doc = #doc] #[must_use] pub fn #with(mut self, value: #t) -> Self { self.#n = #value; self })
        });
        let extra_api = s.extra.as_ref().map(|e| {
            let e = ident(e);
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
                    ::core::result::Result::Ok(#name { #result_init #(#inits,)* #extra_init })
                }
                #(#accessors)*
                #(#setters)*
                #extra_api
            }
        }
    }

    fn union(&self, def: &TypeDef, u: &Union, docs: TokenStream) -> TokenStream {
        let name = ident(&def.name);
        let allow = Self::allow_case(&def.name);
        let mode = match &u.mode {
            UnionMode::Tag(key) => quote!(#[mcp(tag = #key)]),
            UnionMode::JsonType => quote!(#[mcp(by_json_type)]),
            UnionMode::Shape => quote!(#[mcp(by_shape)]),
            UnionMode::Results => unreachable!("emitted by result_union"),
        };
        let variants = u.variants.iter().map(|v| {
            let vname = ident(&v.name);
            let t = self.ty(&v.ty);
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
                Select::Result => TokenStream::new(),
            };
            let doc = match &v.ty {
                Ty::Named(n) => format!(" A [`{}`].", names::unraw(n)),
                _ => format!(" A JSON {}.", v.name.to_lowercase()),
            };
            quote!(#[doc = #doc] #sel #vname(#t))
        });
        let how = match &u.mode {
            UnionMode::Tag(key) => format!(" Read by the value of `{key}`."),
            UnionMode::JsonType => " Read by the JSON type of the value.".to_owned(),
            UnionMode::Shape => " The schema gives these members no discriminator: a value is read as the first variant (in the order listed) whose required members and constants it has and whose distinguishing members of the other variants it lacks.".to_owned(),
            UnionMode::Results => String::new(),
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

    /// A union of result types (`ServerResult`): without the method, only `resultType` can be
    /// told, so an input-required result becomes that variant and every other the generic one;
    /// `from_method` reads the concrete type.
    fn result_union(&self, def: &TypeDef, u: &Union, docs: TokenStream) -> TokenStream {
        let name = ident(&def.name);
        let generic = u.variants.iter().find_map(|v| {
            let Ty::Named(n) = &v.ty else { return None };
            match &self.module.types.get(n)?.kind {
                Kind::Struct(Struct {
                    result: Some(ResultMode::Field(f)),
                    ..
                }) => Some((v, f.clone())),
                _ => None,
            }
        });
        let ir = self.protocol.input_required.as_deref();
        let ir_variant = u
            .variants
            .iter()
            .find(|v| matches!(&v.ty, Ty::Named(n) if Some(n.as_str()) == ir));
        let variants = u.variants.iter().map(|v| {
            let vn = ident(&v.name);
            let t = self.ty(&v.ty);
            let doc = format!(" A [`{}`].", names::unraw(&v.name));
            quote!(#[doc = #doc] #vn(#t))
        });
        let ser_arms = u.variants.iter().map(|v| {
            let vn = ident(&v.name);
            quote!(#name::#vn(v) => ::serde::Serialize::serialize(v, serializer))
        });
        let de = match (generic.clone(), ir_variant) {
            (Some((g, field)), Some(irv)) => {
                let gv = ident(&g.name);
                let gt = self.ty(&g.ty);
                let irn = ident(&irv.name);
                let irt = self.ty(&irv.ty);
                let field = ident(&field);
                quote! {
                    let generic = <#gt as ::serde::Deserialize>::deserialize(deserializer)?;
                    if generic.#field == ::mcp_runtime::ResultType::InputRequired {
                        let value = ::serde_json::to_value(&generic).map_err(::serde::de::Error::custom)?;
                        let ir = <#irt as ::serde::Deserialize>::deserialize(value).map_err(::serde::de::Error::custom)?;
                        return ::core::result::Result::Ok(#name::#irn(ir));
                    }
                    ::core::result::Result::Ok(#name::#gv(generic))
                }
            }
            _ => quote! {
                let _ = deserializer;
                ::core::result::Result::Err(::serde::de::Error::custom(concat!(stringify!(#name), " can only be read with from_method")))
            },
        };
        let method_arms = self.protocol.requests.values().filter_map(|r| {
            let result = r.result.as_ref()?;
            let method = &r.method;
            if let Some(v) = u
                .variants
                .iter()
                .find(|v| matches!(&v.ty, Ty::Named(n) if n == result))
            {
                let vn = ident(&v.name);
                let t = self.ty(&v.ty);
                return Some(
                    quote!(#method => ::serde_json::from_value::<#t>(value).map(#name::#vn)),
                );
            }
            let Kind::Outcome(o) = &self.module.types.get(result)?.kind else {
                return None;
            };
            let c = u
                .variants
                .iter()
                .find(|v| matches!(&v.ty, Ty::Named(n) if *n == o.complete))?;
            let i = ir_variant?;
            let (cn, inn, on) = (ident(&c.name), ident(&i.name), ident(result));
            Some(
                quote!(#method => ::serde_json::from_value::<#on>(value).map(|o| match o {
                    #on::Complete(r) => #name::#cn(r),
                    #on::InputRequired(r) => #name::#inn(r),
                })),
            )
        });
        let fallback = match generic {
            Some((g, _)) => {
                let gv = ident(&g.name);
                quote!(_ => ::serde_json::from_value(value).map(#name::#gv))
            }
            None => quote!(_ => ::serde_json::from_value::<#name>(value)),
        };
        quote! {
            #docs
            #[doc = ""]
            #[doc = " A union of result types. `Deserialize` can tell only `resultType` apart: an input-required result is read as that variant, any other as the generic result (nothing is lost: undeclared members are kept). Use [`Self::from_method`] to read the concrete result of a method."]
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #[derive(Debug, Clone, PartialEq)]
            pub enum #name { #(#variants,)* }

            impl #name {
                /// Reads the result of a response to `method` as that method's result type.
                pub fn from_method(method: &str, value: ::serde_json::Value) -> ::core::result::Result<Self, ::serde_json::Error> {
                    match method {
                        #(#method_arms,)*
                        #fallback,
                    }
                }
            }

            #[automatically_derived]
            impl ::serde::Serialize for #name {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                    match self { #(#ser_arms,)* }
                }
            }

            #[automatically_derived]
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                    #de
                }
            }
        }
    }

    fn outcome(&self, def: &TypeDef, o: &Outcome, docs: TokenStream) -> TokenStream {
        let name = ident(&def.name);
        let complete = ident(&o.complete);
        let ir = ident(&o.input_required);
        let request = o.request.as_ref().map(|r| {
            let r = ident(r);
            quote!(#[mcp(request = #r)])
        });
        let schemars = self.schemars();
        let untagged = self.json_schema_attrs(quote!(#[serde(untagged)]));
        quote! {
            #docs
            // Variants are whole protocol messages, read once; boxing them would cost an allocation
            // each, and variant names are the schema's type names.
            #[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
            #[derive(Debug, Clone, PartialEq, ::mcp_runtime::McpResult #schemars)]
            #request
            #untagged
            pub enum #name {
                /// The request completed.
                Complete(#complete),
                /// The server needs more input from the client before it can complete.
                InputRequired(#ir),
            }
        }
    }

    fn params_ty(&self, def: &str) -> TokenStream {
        let params = self.module.types.get(def).and_then(|d| match &d.kind {
            Kind::Struct(s) => s.fields.iter().find(|f| f.json == "params"),
            _ => None,
        });
        match params {
            Some(f) => self.ty(&f.ty),
            None => quote!(()),
        }
    }

    fn protocol_impls(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for (def, r) in &self.protocol.requests {
            let rust = names::def_name(def);
            if !self.module.types.contains_key(&rust) {
                continue;
            }
            let name = ident(&rust);
            let method = &r.method;
            let params = self.params_ty(&rust);
            let result = match &r.result {
                Some(t) => {
                    let i = ident(t);
                    quote!(#i)
                }
                None if self.module.types.contains_key("Result") => quote!(Result),
                None => quote!(::serde_json::Value),
            };
            let may = if r.may_require_input {
                quote! {
                    #[automatically_derived]
                    impl ::mcp_runtime::MayRequireInput for #name {}
                }
            } else {
                TokenStream::new()
            };
            out.extend(quote! {
                impl #name {
                    /// The JSON-RPC method name.
                    pub const METHOD: &'static str = #method;
                }

                #[automatically_derived]
                impl ::mcp_runtime::Request for #name {
                    const METHOD: &'static str = #method;
                    type Params = #params;
                    type Result = #result;
                }
                #may
            });
        }
        for (def, method) in &self.protocol.notifications {
            let rust = names::def_name(def);
            if !self.module.types.contains_key(&rust) {
                continue;
            }
            let name = ident(&rust);
            let params = self.params_ty(&rust);
            out.extend(quote! {
                impl #name {
                    /// The JSON-RPC method name.
                    pub const METHOD: &'static str = #method;
                }

                #[automatically_derived]
                impl ::mcp_runtime::Notification for #name {
                    const METHOD: &'static str = #method;
                    type Params = #params;
                }
            });
        }
        out
    }
}
