//! Parsing `#[mcp(...)]` attributes into plain data.
//!
//! Which keys are accepted depends on where the attribute is and which derive reads it
//! ([`Kind`]); an unknown key is an error that lists the accepted ones. Cross-attribute rules
//! (one `extra`, unique tag values, ...) are checked later, in `check.rs`.

use crate::errors::Errors;
use crate::kind::Kind;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, Lit, LitInt, LitStr, Path, Token, Type};

/// The value of a `constant(...)` or of a `when(key = ..., equals = ...)`.
#[derive(Clone)]
pub enum Literal {
    Str(LitStr),
    Int(i64),
    Bool(bool, Span),
}

impl Literal {
    /// How the value is written in JSON (for messages).
    pub fn to_json(&self) -> String {
        match self {
            Literal::Str(s) => format!("{:?}", s.value()),
            Literal::Int(v) => v.to_string(),
            Literal::Bool(v, _) => v.to_string(),
        }
    }
}

/// `#[mcp(constant(name = "jsonrpc", value = "2.0", optional))]`.
pub struct Constant {
    pub name: LitStr,
    pub value: Literal,
    pub optional: bool,
}

/// The discriminating rule of an `McpUnion`.
pub enum UnionMode {
    Tag(LitStr),
    ByJsonType,
    ByShape,
}

/// Attributes on the struct or enum itself.
#[derive(Default)]
pub struct ContainerAttrs {
    pub constants: Vec<Constant>,
    pub at_least_one_of: Vec<(Span, Vec<LitStr>)>,
    pub krate: Option<Path>,
    pub result_type: Option<LitStr>,
    pub request: Option<(Span, Type)>,
    /// Every mode given, so that the check can point at a second one.
    pub modes: Vec<(Span, UnionMode)>,
}

/// Attributes on a named field of a struct.
#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<LitStr>,
    pub default: Option<Span>,
    pub extra: Option<Span>,
    pub result_type: Option<Span>,
    /// `#[mcp(keep_null)]`: a present `null` reads as `Some(T)` of the `Option<T>` field.
    pub keep_null: Option<Span>,
}

/// A JSON type, for `#[mcp(json = "...")]`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum JsonType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    Null,
}

impl JsonType {
    pub const ALL: [(&'static str, JsonType); 7] = [
        ("string", JsonType::String),
        ("integer", JsonType::Integer),
        ("number", JsonType::Number),
        ("boolean", JsonType::Boolean),
        ("array", JsonType::Array),
        ("object", JsonType::Object),
        ("null", JsonType::Null),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("?", |(n, _)| n)
    }
}

/// One `when(...)` of a `#[mcp(by_shape)]` variant.
pub enum Predicate {
    Equals { key: LitStr, value: Literal },
    OneOf { key: LitStr, values: Vec<LitStr> },
    Has(LitStr),
    Lacks(LitStr),
}

/// Attributes on an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub result_type: Option<LitStr>,
    pub tag_value: Option<LitStr>,
    pub default: Option<Span>,
    pub json: Option<(JsonType, Span)>,
    pub when: Vec<Predicate>,
    /// Where the first `when` was written (for "not in this mode" errors).
    pub when_span: Option<Span>,
    /// `#[mcp(other)]`: the variant of a result union that every unclaimed `resultType` reads.
    pub other: Option<Span>,
    /// `method = "..."` and `methods("...", ...)`, in order, with repeats (checked later).
    pub methods: Vec<LitStr>,
    /// Where the first `method` or `methods` was written.
    pub method_span: Option<Span>,
}

/// A key of `#[mcp(...)]` and how its value is read into the attributes `T`. The table of a
/// place is the one list of the keys accepted there: it both dispatches and names them in the
/// unknown-key error.
type Key<T> = (
    &'static str,
    fn(&mut T, &ParseNestedMeta) -> syn::Result<()>,
);

const CONTAINER_OBJECT: &[Key<ContainerAttrs>] = &[
    ("constant", container_constant),
    ("at_least_one_of", container_at_least_one_of),
    ("crate", container_crate),
];
const CONTAINER_RESULT_STRUCT: &[Key<ContainerAttrs>] = &[
    ("result_type", container_result_type),
    ("constant", container_constant),
    ("at_least_one_of", container_at_least_one_of),
    ("crate", container_crate),
];
const CONTAINER_RESULT_ENUM: &[Key<ContainerAttrs>] =
    &[("request", container_request), ("crate", container_crate)];
const CONTAINER_UNION: &[Key<ContainerAttrs>] = &[
    ("tag", container_tag),
    ("by_json_type", container_by_json_type),
    ("by_shape", container_by_shape),
    ("crate", container_crate),
];
const FIELD_OBJECT: &[Key<FieldAttrs>] = &[
    ("rename", field_rename),
    ("default", field_default),
    ("extra", field_extra),
    ("keep_null", field_keep_null),
];
const FIELD_RESULT_STRUCT: &[Key<FieldAttrs>] = &[
    ("rename", field_rename),
    ("default", field_default),
    ("extra", field_extra),
    ("keep_null", field_keep_null),
    ("result_type", field_result_type),
];
const VARIANT_RESULT_ENUM: &[Key<VariantAttrs>] = &[
    ("result_type", variant_result_type),
    ("method", variant_method),
    ("methods", variant_methods),
    ("other", variant_other),
];
const VARIANT_UNION: &[Key<VariantAttrs>] = &[
    ("tag_value", variant_tag_value),
    ("default", variant_default),
    ("json", variant_json),
    ("when", variant_when),
];

/// Reads every key of every `#[mcp(...)]` in `attrs` with its entry in `keys`; an unknown key,
/// or an error from its parser, ends that attribute (the others are still read).
fn parse_keys<T: Default>(errors: &Errors, attrs: &[Attribute], keys: &[Key<T>], place: &str) -> T {
    let mut out = T::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("mcp")) {
        let result = attr.parse_nested_meta(|meta| {
            let entry = meta
                .path
                .get_ident()
                .and_then(|ident| keys.iter().find(|(name, _)| ident == name));
            match entry {
                Some((_, parse)) => parse(&mut out, &meta),
                None => Err(unknown_key(&meta, keys, place)),
            }
        });
        if let Err(e) = result {
            errors.push(e);
        }
    }
    out
}

fn unknown_key<T>(meta: &ParseNestedMeta, keys: &[Key<T>], place: &str) -> syn::Error {
    let shown = path_text(&meta.path);
    meta.error(if keys.is_empty() {
        format!("unknown attribute `{shown}`: #[mcp(...)] takes no keys on {place}")
    } else {
        let names: Vec<&str> = keys.iter().map(|(name, _)| *name).collect();
        format!(
            "unknown attribute `{shown}` on {place}; expected one of: {}",
            names.join(", ")
        )
    })
}

/// The span of the key's name.
fn key_span(meta: &ParseNestedMeta) -> Span {
    meta.path
        .get_ident()
        .map_or_else(|| syn::spanned::Spanned::span(&meta.path), Ident::span)
}

/// Sets `slot` to what `read` reads, unless the key was given already.
fn once<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta,
    name: &str,
    read: impl FnOnce() -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate(meta, name));
    }
    *slot = Some(read()?);
    Ok(())
}

fn path_text(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

fn duplicate(meta: &ParseNestedMeta, name: &str) -> syn::Error {
    meta.error(format!("duplicate `{name}` attribute"))
}

/// A key without a value, like `default`.
fn flag(meta: &ParseNestedMeta, name: &str) -> syn::Result<Span> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!("`{name}` takes no value: write just `{name}`")));
    }
    Ok(meta.path.segments[0].ident.span())
}

/// `key = "string"`.
fn lit_str(meta: &ParseNestedMeta, name: &str) -> syn::Result<LitStr> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected a value: `{name} = \"...\"`")));
    }
    let input = meta.value()?;
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        // A JSON member may be named "" (a hostile but valid schema has one): only the values
        // that name something else must not be empty.
        let json_key = matches!(name, "rename" | "name" | "key" | "has" | "lacks" | "tag");
        if lit.value().is_empty() && !json_key {
            return Err(syn::Error::new(
                lit.span(),
                format!("`{name}` must not be empty"),
            ));
        }
        Ok(lit)
    } else {
        Err(input.error(format!("expected a string literal: `{name} = \"...\"`")))
    }
}

/// A string, integer (possibly negative) or boolean literal.
fn literal(input: syn::parse::ParseStream, what: &str) -> syn::Result<Literal> {
    if input.peek(Token![-]) {
        input.parse::<Token![-]>()?;
        let lit: LitInt = input.parse()?;
        let value: i128 = lit.base10_parse()?;
        return i64::try_from(-value)
            .map(Literal::Int)
            .map_err(|_| syn::Error::new(lit.span(), "integer out of range for i64"));
    }
    match input.parse::<Lit>() {
        Ok(Lit::Str(s)) => Ok(Literal::Str(s)),
        Ok(Lit::Int(i)) => Ok(Literal::Int(i.base10_parse()?)),
        Ok(Lit::Bool(b)) => Ok(Literal::Bool(b.value, b.span)),
        Ok(other) => Err(syn::Error::new(
            other.span(),
            format!("expected a string or integer literal for {what}"),
        )),
        Err(e) => Err(syn::Error::new(
            e.span(),
            format!("expected a string or integer literal for {what}"),
        )),
    }
}

fn parse_crate(meta: &ParseNestedMeta) -> syn::Result<Path> {
    let input = meta.value()?;
    if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        lit.parse::<Path>()
    } else {
        Path::parse_mod_style(input)
    }
}

fn parse_constant(meta: &ParseNestedMeta) -> syn::Result<Constant> {
    let mut name = None;
    let mut value = None;
    let mut optional = false;
    meta.parse_nested_meta(|m| {
        if m.path.is_ident("name") {
            if name.is_some() {
                return Err(duplicate(&m, "name"));
            }
            name = Some(lit_str(&m, "name")?);
        } else if m.path.is_ident("value") {
            if value.is_some() {
                return Err(duplicate(&m, "value"));
            }
            value = Some(literal(m.value()?, "`value`")?);
        } else if m.path.is_ident("optional") {
            flag(&m, "optional")?;
            optional = true;
        } else {
            return Err(m.error(format!(
                "unknown key `{}` in constant(...); expected `name`, `value` or `optional`",
                path_text(&m.path)
            )));
        }
        Ok(())
    })?;
    let (Some(name), Some(value)) = (name, value) else {
        return Err(meta.error(
            "constant(...) needs both `name = \"key\"` and `value = \"...\"` (or an integer)",
        ));
    };
    if let Literal::Bool(_, span) = value {
        return Err(syn::Error::new(
            span,
            "a constant's value is a string or an integer literal",
        ));
    }
    Ok(Constant {
        name,
        value,
        optional,
    })
}

fn parse_key_list(meta: &ParseNestedMeta, name: &str) -> syn::Result<Vec<LitStr>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let keys = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
    if keys.is_empty() {
        return Err(meta.error(format!(
            "{name}(...) needs at least one string, e.g. {name}(\"a\", \"b\")"
        )));
    }
    Ok(keys.into_iter().collect())
}

fn parse_when(meta: &ParseNestedMeta) -> syn::Result<Predicate> {
    let mut key = None;
    let mut equals = None;
    let mut one_of = None;
    let mut has = None;
    let mut lacks = None;
    meta.parse_nested_meta(|m| {
        if m.path.is_ident("key") {
            once(&mut key, &m, "key", || lit_str(&m, "key"))
        } else if m.path.is_ident("equals") {
            once(&mut equals, &m, "equals", || literal(m.value()?, "`equals`"))
        } else if m.path.is_ident("one_of") {
            once(&mut one_of, &m, "one_of", || parse_key_list(&m, "one_of"))
        } else if m.path.is_ident("has") {
            once(&mut has, &m, "has", || lit_str(&m, "has"))
        } else if m.path.is_ident("lacks") {
            once(&mut lacks, &m, "lacks", || lit_str(&m, "lacks"))
        } else {
            Err(m.error(format!(
                "unknown key `{}` in when(...); expected `key` with `equals` or `one_of(...)`, `has` or `lacks`",
                path_text(&m.path)
            )))
        }
    })?;
    match (key, equals, one_of, has, lacks) {
        (Some(key), Some(value), None, None, None) => Ok(Predicate::Equals { key, value }),
        (Some(key), None, Some(values), None, None) => Ok(Predicate::OneOf { key, values }),
        (None, None, None, Some(k), None) => Ok(Predicate::Has(k)),
        (None, None, None, None, Some(k)) => Ok(Predicate::Lacks(k)),
        _ => Err(meta.error(
            "a when(...) is one of: when(key = \"k\", equals = \"v\"), when(key = \"k\", one_of(\"a\", \"b\")), when(has = \"k\"), when(lacks = \"k\")",
        )),
    }
}

fn container_constant(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    out.constants.push(parse_constant(meta)?);
    Ok(())
}

fn container_at_least_one_of(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let keys = parse_key_list(meta, "at_least_one_of")?;
    out.at_least_one_of.push((key_span(meta), keys));
    Ok(())
}

fn container_crate(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.krate, meta, "crate", || parse_crate(meta))
}

fn container_result_type(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.result_type, meta, "result_type", || {
        lit_str(meta, "result_type")
    })
}

fn container_request(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.request, meta, "request", || {
        let input = meta.value()?;
        let ty = if input.peek(LitStr) {
            input.parse::<LitStr>()?.parse::<Type>()?
        } else {
            input.parse::<Type>()?
        };
        Ok((key_span(meta), ty))
    })
}

fn container_tag(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    let tag = lit_str(meta, "tag")?;
    out.modes.push((key_span(meta), UnionMode::Tag(tag)));
    Ok(())
}

fn container_by_json_type(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    out.modes
        .push((flag(meta, "by_json_type")?, UnionMode::ByJsonType));
    Ok(())
}

fn container_by_shape(out: &mut ContainerAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    out.modes
        .push((flag(meta, "by_shape")?, UnionMode::ByShape));
    Ok(())
}

fn field_rename(out: &mut FieldAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.rename, meta, "rename", || lit_str(meta, "rename"))
}

fn field_default(out: &mut FieldAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.default, meta, "default", || flag(meta, "default"))
}

fn field_extra(out: &mut FieldAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.extra, meta, "extra", || flag(meta, "extra"))
}

fn field_keep_null(out: &mut FieldAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.keep_null, meta, "keep_null", || {
        flag(meta, "keep_null")
    })
}

fn field_result_type(out: &mut FieldAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.result_type, meta, "result_type", || {
        if meta.input.peek(Token![=]) {
            return Err(meta.error(
                "on a field, write just `#[mcp(result_type)]` (the field's type is ::mcp_runtime::ResultType); a fixed value goes on the struct: #[mcp(result_type = \"...\")]",
            ));
        }
        flag(meta, "result_type")
    })
}

fn variant_result_type(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.result_type, meta, "result_type", || {
        lit_str(meta, "result_type")
    })
}

fn variant_method(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    // Noted before the value is read, so that a malformed value is the only error.
    out.method_span.get_or_insert(key_span(meta));
    out.methods.push(lit_str(meta, "method")?);
    Ok(())
}

fn variant_methods(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    out.method_span.get_or_insert(key_span(meta));
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error("expected a list: `methods(\"tools/call\", \"prompts/get\")`"));
    }
    let methods = parse_key_list(meta, "methods")?;
    if let Some(empty) = methods.iter().find(|m| m.value().is_empty()) {
        return Err(syn::Error::new(
            empty.span(),
            "a method name must not be empty",
        ));
    }
    out.methods.extend(methods);
    Ok(())
}

fn variant_other(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    if out.other.is_some() {
        return Err(duplicate(meta, "other"));
    }
    // Noted before the value is checked, so that a malformed `other` is the only error.
    out.other = Some(key_span(meta));
    flag(meta, "other").map(drop)
}

fn variant_tag_value(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.tag_value, meta, "tag_value", || {
        lit_str(meta, "tag_value")
    })
}

fn variant_default(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.default, meta, "default", || flag(meta, "default"))
}

fn variant_json(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    once(&mut out.json, meta, "json", || {
        let lit = lit_str(meta, "json")?;
        let value = lit.value();
        let Some((_, ty)) = JsonType::ALL.iter().find(|(n, _)| *n == value) else {
            let names: Vec<_> = JsonType::ALL.iter().map(|(n, _)| *n).collect();
            return Err(syn::Error::new(
                lit.span(),
                format!(
                    "unknown JSON type \"{value}\"; expected one of: {}",
                    names.join(", ")
                ),
            ));
        };
        Ok((*ty, lit.span()))
    })
}

fn variant_when(out: &mut VariantAttrs, meta: &ParseNestedMeta) -> syn::Result<()> {
    out.when_span.get_or_insert(key_span(meta));
    out.when.push(parse_when(meta)?);
    Ok(())
}

/// Reads the container's `#[mcp(...)]`.
pub fn container(errors: &Errors, attrs: &[Attribute], kind: Kind) -> ContainerAttrs {
    let keys = match kind {
        Kind::Object => CONTAINER_OBJECT,
        Kind::ResultStruct => CONTAINER_RESULT_STRUCT,
        Kind::ResultEnum => CONTAINER_RESULT_ENUM,
        Kind::Union => CONTAINER_UNION,
    };
    parse_keys(errors, attrs, keys, kind.place())
}

/// Reads a named field's `#[mcp(...)]`.
pub fn field(errors: &Errors, attrs: &[Attribute], kind: Kind) -> FieldAttrs {
    let keys = match kind {
        Kind::ResultStruct => FIELD_RESULT_STRUCT,
        _ => FIELD_OBJECT,
    };
    parse_keys(errors, attrs, keys, kind.field_place())
}

/// Reads a variant's `#[mcp(...)]`.
pub fn variant(errors: &Errors, attrs: &[Attribute], kind: Kind) -> VariantAttrs {
    let keys = match kind {
        Kind::ResultEnum => VARIANT_RESULT_ENUM,
        _ => VARIANT_UNION,
    };
    parse_keys(errors, attrs, keys, kind.variant_place())
}

/// Reports any `#[mcp(...)]` where none is read (fields of enum variants).
pub fn forbid(errors: &Errors, attrs: &[Attribute], place: &str) {
    let none: &[Key<()>] = &[];
    parse_keys(errors, attrs, none, place);
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn container_of(
        tokens: proc_macro2::TokenStream,
        kind: Kind,
    ) -> (ContainerAttrs, syn::Result<()>) {
        let input: syn::DeriveInput = syn::parse2(tokens).unwrap();
        let errors = Errors::new();
        let attrs = container(&errors, &input.attrs, kind);
        (attrs, errors.finish())
    }

    #[test]
    fn negative_integer_constants_parse_as_punct_and_literal_or_as_one_literal() {
        // From source text, `-32020` is a `-` and a literal; from a generator's TokenStream it
        // may be one negative literal.
        let one_literal = proc_macro2::Literal::i64_unsuffixed(-32020);
        for value in [quote!(-32020), quote!(#one_literal)] {
            let (attrs, result) = container_of(
                quote!(
                    #[mcp(constant(name = "code", value = #value))]
                    struct S {}
                ),
                Kind::Object,
            );
            result.unwrap();
            assert!(matches!(attrs.constants[0].value, Literal::Int(-32020)));
        }
    }

    #[test]
    fn every_error_of_one_attribute_list_is_reported_once() {
        let (_, result) = container_of(
            quote! {
                #[mcp(tag = "type")]
                #[mcp(constant(name = "a"))]
                #[mcp(crate = "x", crate = "y")]
                struct S {}
            },
            Kind::Object,
        );
        let messages: Vec<String> = result
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(
            messages[0].starts_with("unknown attribute `tag`"),
            "{messages:?}"
        );
        assert!(messages[1].contains("needs both `name"), "{messages:?}");
        assert_eq!(messages[2], "duplicate `crate` attribute");
    }

    #[test]
    fn when_predicates_parse_each_form() {
        let input: syn::DeriveInput = syn::parse2(quote! {
            enum E {
                #[mcp(when(key = "type", equals = "string"), when(has = "enum"))]
                #[mcp(when(lacks = "x"), when(key = "t", one_of("a", "b")), when(key = "v", equals = -1))]
                A(u8),
            }
        })
        .unwrap();
        let syn::Data::Enum(e) = &input.data else {
            unreachable!()
        };
        let errors = Errors::new();
        let attrs = variant(&errors, &e.variants[0].attrs, Kind::Union);
        errors.finish().unwrap();
        assert_eq!(attrs.when.len(), 5);
        assert!(
            matches!(&attrs.when[0], Predicate::Equals { value: Literal::Str(s), .. } if s.value() == "string")
        );
        assert!(matches!(&attrs.when[1], Predicate::Has(k) if k.value() == "enum"));
        assert!(matches!(&attrs.when[2], Predicate::Lacks(k) if k.value() == "x"));
        assert!(matches!(&attrs.when[3], Predicate::OneOf { values, .. } if values.len() == 2));
        assert!(matches!(
            &attrs.when[4],
            Predicate::Equals {
                value: Literal::Int(-1),
                ..
            }
        ));
    }
}
