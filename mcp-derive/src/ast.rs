//! The derive input, with its `#[mcp(...)]` attributes parsed: what the checks and the
//! expansions work on.

use crate::attr::{self, ContainerAttrs, FieldAttrs, VariantAttrs};
use crate::errors::Errors;
use crate::kind::{Derive, Kind};
use crate::words;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::{Data as SynData, DeriveInput, Fields, Ident, Type};

pub struct Container<'a> {
    pub ident: &'a Ident,
    /// The type's name without `r#`, for messages.
    pub name: String,
    pub kind: Kind,
    pub attrs: ContainerAttrs,
    pub data: Data<'a>,
    pub input: &'a DeriveInput,
}

pub enum Data<'a> {
    Fields(Vec<Field<'a>>),
    Variants(Vec<Variant<'a>>),
    /// The item has a shape the derive does not support (already reported).
    Invalid,
}

pub struct Field<'a> {
    pub member: &'a Ident,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    /// The JSON key.
    pub key: String,
    /// Where the key is written (the `rename` literal, else the field name).
    pub key_span: Span,
    /// The type's last path segment is `Option`.
    pub optional: bool,
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The field type of a one-field tuple variant; `None` for any other shape.
    pub ty: Option<&'a Type>,
    pub attrs: VariantAttrs,
    pub original: &'a syn::Variant,
    /// The variant's `resultType` in an outcome enum: its attribute, else from its name. A
    /// variant read by method (`method`) or for unclaimed values (`other`) has none unless
    /// its attribute gives one (which is an error for `other`). Worked out once, here.
    pub result_type: Option<String>,
}

impl<'a> Container<'a> {
    /// Parses the input for `derive`, reporting unsupported shapes and malformed attributes.
    pub fn from_ast(errors: &Errors, input: &'a DeriveInput, derive: Derive) -> Self {
        let kind = match (&input.data, derive) {
            (SynData::Enum(_), Derive::Result) => Kind::ResultEnum,
            (_, Derive::Result) => Kind::ResultStruct,
            (_, Derive::Object) => Kind::Object,
            (_, Derive::Union) => Kind::Union,
        };
        let attrs = attr::container(errors, &input.attrs, kind);
        let data = match (&input.data, kind) {
            (SynData::Struct(s), Kind::Object | Kind::ResultStruct) => match &s.fields {
                Fields::Named(named) => Data::Fields(
                    named
                        .named
                        .iter()
                        .map(|f| Field::from_ast(errors, f, kind))
                        .collect(),
                ),
                Fields::Unit => Data::Fields(Vec::new()),
                Fields::Unnamed(_) => {
                    errors.spanned(
                        &s.fields,
                        format!(
                            "#[derive({})] needs a struct with named fields (a JSON object); tuple structs are not supported",
                            derive.name()
                        ),
                    );
                    Data::Invalid
                }
            },
            (SynData::Enum(e), Kind::ResultEnum | Kind::Union) => Data::Variants(
                e.variants
                    .iter()
                    .map(|v| Variant::from_ast(errors, v, kind))
                    .collect(),
            ),
            (SynData::Enum(e), _) => {
                errors.spanned(
                    e.enum_token,
                    "#[derive(McpObject)] is for structs with named fields; for an enum use #[derive(McpUnion)] (anyOf unions) or #[derive(McpResult)] (outcomes)",
                );
                Data::Invalid
            }
            (SynData::Struct(s), _) => {
                errors.spanned(
                    s.struct_token,
                    "#[derive(McpUnion)] is for enums of one-field tuple variants; for a struct use #[derive(McpObject)]",
                );
                Data::Invalid
            }
            (SynData::Union(u), _) => {
                errors.spanned(
                    u.union_token,
                    format!(
                        "#[derive({})] does not support unions; use a struct or an enum",
                        derive.name()
                    ),
                );
                Data::Invalid
            }
        };
        Container {
            ident: &input.ident,
            name: input.ident.unraw().to_string(),
            kind,
            attrs,
            data,
            input,
        }
    }

    /// "a CallToolResult object" / "an InputRequiredResult object": what a visitor expects.
    pub fn expecting_object(&self) -> String {
        let article = match self.name.chars().next() {
            Some('A' | 'E' | 'I' | 'O' | 'U' | 'a' | 'e' | 'i' | 'o' | 'u') => "an",
            _ => "a",
        };
        format!("{article} {} object", self.name)
    }

    /// The path of the runtime crate: `#[mcp(crate = "...")]`, else `::mcp_runtime`.
    pub fn krate(&self) -> TokenStream {
        match &self.attrs.krate {
            Some(path) => quote!(#path),
            None => quote!(::mcp_runtime),
        }
    }

    /// `<krate>::__private::serde`.
    pub fn serde(&self) -> TokenStream {
        let krate = self.krate();
        quote!(#krate::__private::serde)
    }

    pub fn fields(&self) -> &[Field<'a>] {
        match &self.data {
            Data::Fields(f) => f,
            _ => &[],
        }
    }

    pub fn variants(&self) -> &[Variant<'a>] {
        match &self.data {
            Data::Variants(v) => v,
            _ => &[],
        }
    }

    /// Whether an enum deriving McpResult is a result union: a variant is `#[mcp(other)]` or
    /// names methods, so that the enum gets `from_method`.
    pub fn is_result_union(&self) -> bool {
        self.kind == Kind::ResultEnum
            && self
                .variants()
                .iter()
                .any(|v| v.attrs.other.is_some() || v.attrs.method_span.is_some())
    }

    /// The field marked `#[mcp(result_type)]`, if any.
    pub fn result_type_field(&self) -> Option<&Field<'a>> {
        self.fields().iter().find(|f| f.attrs.result_type.is_some())
    }

    /// The fixed `resultType` of a result struct (`"complete"` unless given).
    pub fn fixed_result_type(&self) -> String {
        self.attrs
            .result_type
            .as_ref()
            .map_or_else(|| words::COMPLETE.to_owned(), |l| l.value())
    }
}

impl<'a> Field<'a> {
    fn from_ast(errors: &Errors, field: &'a syn::Field, kind: Kind) -> Self {
        let member = field.ident.as_ref().expect("named fields have identifiers");
        let attrs = attr::field(errors, &field.attrs, kind);
        let (key, key_span) = match &attrs.rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (member.unraw().to_string(), member.span()),
        };
        Field {
            member,
            ty: &field.ty,
            optional: is_option(&field.ty),
            attrs,
            key,
            key_span,
        }
    }
}

impl<'a> Variant<'a> {
    fn from_ast(errors: &Errors, variant: &'a syn::Variant, kind: Kind) -> Self {
        let attrs = attr::variant(errors, &variant.attrs, kind);
        for field in &variant.fields {
            attr::forbid(errors, &field.attrs, kind.field_place());
        }
        let ty = match &variant.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => Some(&f.unnamed[0].ty),
            _ => None,
        };
        Variant {
            ident: &variant.ident,
            ty,
            result_type: result_type(&variant.ident, &attrs),
            attrs,
            original: variant,
        }
    }
}

/// The `resultType` of the outcome variant `ident` (see [`Variant::result_type`]).
fn result_type(ident: &Ident, attrs: &VariantAttrs) -> Option<String> {
    if let Some(lit) = &attrs.result_type {
        return Some(lit.value());
    }
    if attrs.other.is_some() || attrs.method_span.is_some() {
        return None;
    }
    words::implied_by_variant(&ident.unraw().to_string()).map(str::to_owned)
}

/// Whether the type's last path segment is `Option<...>` (a syntactic check).
pub fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
            s.ident == "Option" && matches!(s.arguments, syn::PathArguments::AngleBracketed(_))
        }),
        Type::Group(g) => is_option(&g.elem),
        Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}
