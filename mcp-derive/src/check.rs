//! The rules that need more than one attribute to judge: each broken rule is one error, at the
//! item that breaks it, saying what to do.

use crate::ast::{Container, Data, Variant};
use crate::attr::UnionMode;
use crate::errors::Errors;
use crate::kind::Kind;
use crate::words::{COMPLETE, RESULT_TYPE};
use proc_macro2::Span;
use std::collections::HashMap;

pub fn check(errors: &Errors, cont: &Container) {
    check_generics(errors, cont);
    if matches!(cont.data, Data::Invalid) {
        return;
    }
    match cont.kind {
        Kind::Object | Kind::ResultStruct => check_struct(errors, cont),
        Kind::ResultEnum => check_outcome(errors, cont),
        Kind::Union => check_union(errors, cont),
    }
}

fn check_generics(errors: &Errors, cont: &Container) {
    let generics = &cont.input.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        errors.spanned(
            generics,
            "MCP derives do not support generic parameters: protocol types are concrete",
        );
    }
}

fn check_struct(errors: &Errors, cont: &Container) {
    let result = cont.kind == Kind::ResultStruct;
    // Every JSON key the type writes, with what claims it.
    let mut keys: HashMap<String, String> = HashMap::new();
    let mut claim = |key: &str, span: Span, what: String| {
        if let Some(first) = keys.get(key) {
            errors.at(
                span,
                format!("duplicate JSON key `{key}`: {what} and {first} both use it"),
            );
        } else {
            keys.insert(key.to_owned(), what);
        }
    };

    for c in &cont.attrs.constants {
        let name = c.name.value();
        if result && name == RESULT_TYPE {
            errors.spanned(
                &c.name,
                "the `resultType` member is written and checked by #[derive(McpResult)]: use #[mcp(result_type = \"...\")] on the struct instead of a constant",
            );
            continue;
        }
        claim(&name, c.name.span(), format!("constant `{name}`"));
    }

    let mut extra_seen = false;
    let mut result_field_seen = false;
    for f in cont.fields() {
        let a = &f.attrs;
        if let Some(span) = a.extra {
            if extra_seen {
                errors.at(span, "only one field may be #[mcp(extra)]");
            }
            extra_seen = true;
            if a.rename.is_some()
                || a.default.is_some()
                || a.result_type.is_some()
                || a.keep_null.is_some()
            {
                errors.at(
                    span,
                    "an #[mcp(extra)] field holds the undeclared members; it takes no `rename`, `default`, `keep_null` or `result_type`",
                );
            }
            if f.optional {
                errors.spanned(
                    f.ty,
                    "an #[mcp(extra)] field has type ::mcp_runtime::Extra (empty when there are no extra members), not an Option",
                );
            }
            continue;
        }
        if let Some(span) = a.result_type {
            if result_field_seen {
                errors.at(span, "only one field may be #[mcp(result_type)]");
            }
            result_field_seen = true;
            if let Some(lit) = &cont.attrs.result_type {
                errors.spanned(
                    lit,
                    "a struct with an #[mcp(result_type)] field reads its resultType from that field; remove #[mcp(result_type = \"...\")] from the struct (or the field attribute)",
                );
            }
            if a.rename.is_some() || a.default.is_some() || a.keep_null.is_some() || f.optional {
                errors.at(
                    span,
                    "the #[mcp(result_type)] field is always the `resultType` member (missing reads as Complete): it takes no `rename`, `default` or `keep_null` and is not an Option",
                );
            }
            claim(RESULT_TYPE, span, format!("field `{}`", f.member));
            continue;
        }
        if let (Some(span), true) = (a.default, f.optional) {
            errors.at(
                span,
                "an Option field is already optional (missing or null reads as None, None is not written); remove #[mcp(default)]",
            );
        }
        if let (Some(span), false) = (a.keep_null, f.optional) {
            errors.at(
                span,
                "#[mcp(keep_null)] goes on an `Option<T>` field whose `T` reads `null` (such as serde_json::Value): a present `null` then reads as `Some(T)`",
            );
        }
        if result && f.key == RESULT_TYPE {
            errors.at(
                f.key_span,
                "the `resultType` member is handled by #[derive(McpResult)]: mark this field #[mcp(result_type)] (of type ::mcp_runtime::ResultType) to carry it, or remove the field",
            );
            continue;
        }
        claim(&f.key, f.key_span, format!("field `{}`", f.member));
    }

    for (_, list) in &cont.attrs.at_least_one_of {
        for lit in list {
            let key = lit.value();
            let field = cont
                .fields()
                .iter()
                .find(|f| f.key == key && f.attrs.extra.is_none());
            match field {
                Some(f) if f.optional => {}
                Some(f) => errors.spanned(
                    lit,
                    format!(
                        "at_least_one_of lists `{key}`, but field `{}` is not an Option: it is always present",
                        f.member
                    ),
                ),
                None => errors.spanned(
                    lit,
                    format!("at_least_one_of lists `{key}`, which is not the JSON key of any field"),
                ),
            }
        }
    }
}

/// Reports the second of two variants that claim the same value.
struct Unique<'a> {
    seen: HashMap<String, String>,
    errors: &'a Errors,
    what: &'static str,
}

impl<'a> Unique<'a> {
    fn new(errors: &'a Errors, what: &'static str) -> Self {
        Unique {
            seen: HashMap::new(),
            errors,
            what,
        }
    }

    fn claim(&mut self, value: &str, variant: &Variant, span: Span) {
        let name = variant.ident.to_string();
        if let Some(first) = self.seen.get(value) {
            self.errors.at(
                span,
                format!(
                    "variants `{first}` and `{name}` both have {} {value:?}: each value selects exactly one variant; change or remove one",
                    self.what
                ),
            );
        } else {
            self.seen.insert(value.to_owned(), name);
        }
    }
}

fn newtype(errors: &Errors, v: &Variant, derive: &str, example: &str) {
    if v.ty.is_none() {
        let (ident, fields) = (v.ident, &v.original.fields);
        errors.spanned(
            quote::quote!(#ident #fields),
            format!(
                "every variant of an enum deriving {derive} is a one-field tuple variant, e.g. `{example}`"
            ),
        );
    }
}

fn check_outcome(errors: &Errors, cont: &Container) {
    let mut unique = Unique::new(errors, RESULT_TYPE);
    let mut has_complete = false;
    let mut other = None;
    for v in cont.variants() {
        newtype(errors, v, "McpResult", "Complete(CallToolResult)");
        if let Some(span) = v.attrs.other {
            check_other(errors, v, span, &mut other);
            continue;
        }
        let span = v
            .attrs
            .result_type
            .as_ref()
            .map_or_else(|| v.ident.span(), |l| l.span());
        match &v.result_type {
            Some(rt) => {
                has_complete |= rt == COMPLETE;
                if let (true, Some(span)) = (rt == COMPLETE, v.attrs.method_span) {
                    errors.at(
                        span,
                        "the resultType \"complete\" variant is what a result without a method reads; the complete result of a method is a variant of its own: #[mcp(method = \"...\")] without `result_type`",
                    );
                }
                unique.claim(rt, v, span);
            }
            None if v.attrs.method_span.is_some() => {}
            None => errors.spanned(
                v.ident,
                format!(
                    "cannot tell which resultType variant `{}` stands for: rename it `Complete` or `InputRequired`, or add #[mcp(result_type = \"...\")]",
                    v.ident
                ),
            ),
        }
    }
    check_methods(errors, cont);
    if !has_complete && other.is_none() {
        errors.spanned(
            cont.ident,
            "an enum deriving McpResult needs a variant for resultType \"complete\" (what a result without resultType is): add a `Complete(...)` variant",
        );
    }
}

/// An `#[mcp(other)]` variant: one per enum, chosen by no value or method of its own.
fn check_other<'v, 'a>(
    errors: &Errors,
    v: &'v Variant<'a>,
    span: Span,
    first: &mut Option<&'v Variant<'a>>,
) {
    if let Some(first) = first {
        errors.at(
            span,
            format!(
                "variants `{}` and `{}` are both #[mcp(other)]: at most one variant reads the resultTypes and methods that no other variant claims",
                first.ident, v.ident
            ),
        );
    } else {
        *first = Some(v);
    }
    if let Some(lit) = &v.attrs.result_type {
        errors.spanned(
            lit,
            "an #[mcp(other)] variant reads every resultType that no variant claims (its type checks the value): it takes no `result_type`",
        );
    }
    if let Some(span) = v.attrs.method_span {
        errors.at(
            span,
            "an #[mcp(other)] variant reads the results of the methods that no variant names: it takes no `method` or `methods`",
        );
    }
}

/// Each method is named by at most one variant read by method, and listed at most once per
/// variant; methods and `other` make a result union, which answers no single request.
fn check_methods(errors: &Errors, cont: &Container) {
    let mut named: HashMap<String, String> = HashMap::new();
    for v in cont.variants() {
        let by_method = v.attrs.other.is_none() && v.attrs.result_type.is_none();
        let mut own: Vec<String> = Vec::new();
        for lit in &v.attrs.methods {
            let method = lit.value();
            if own.contains(&method) {
                errors.spanned(
                    lit,
                    format!("method {method:?} is named twice on variant `{}`", v.ident),
                );
                continue;
            }
            own.push(method.clone());
            if !by_method {
                continue;
            }
            if let Some(first) = named.get(&method) {
                errors.spanned(
                    lit,
                    format!(
                        "variants `{first}` and `{}` both name method {method:?}: each method's complete result is one variant; remove one",
                        v.ident
                    ),
                );
            } else {
                named.insert(method, v.ident.to_string());
            }
        }
    }
    if let (Some((span, _)), true) = (&cont.attrs.request, cont.is_result_union()) {
        errors.at(
            *span,
            "#[mcp(request = ...)] makes the enum the outcome of one request; `other`, `method` and `methods` make a result union of many methods: use one or the other",
        );
    }
}

fn check_union(errors: &Errors, cont: &Container) {
    let modes = &cont.attrs.modes;
    let Some((_, mode)) = modes.first() else {
        errors.spanned(
            cont.ident,
            "#[derive(McpUnion)] needs one of #[mcp(tag = \"...\")], #[mcp(by_json_type)] or #[mcp(by_shape)] on the enum",
        );
        return;
    };
    for (span, _) in &modes[1..] {
        errors.at(
            *span,
            "an McpUnion has exactly one of `tag`, `by_json_type` and `by_shape`",
        );
    }
    if cont.variants().is_empty() {
        errors.spanned(
            cont.ident,
            "an enum deriving McpUnion needs at least one variant",
        );
    }
    let not_here = |span: Option<Span>, key: &str, mode: &str| {
        if let Some(span) = span {
            errors.at(span, format!("`{key}` is only used with #[mcp({mode})]"));
        }
    };
    let json_span = |v: &Variant| v.attrs.json.map(|(_, s)| s);
    let tag_span = |v: &Variant| v.attrs.tag_value.as_ref().map(|l| l.span());

    match mode {
        UnionMode::Tag(tag) => {
            let mut values = Unique::new(errors, "tag_value");
            let mut default: Option<String> = None;
            for v in cont.variants() {
                newtype(errors, v, "McpUnion", "Text(TextContent)");
                not_here(json_span(v), "json", "by_json_type");
                not_here(v.attrs.when_span, "when", "by_shape");
                match &v.attrs.tag_value {
                    Some(lit) => values.claim(&lit.value(), v, lit.span()),
                    None => errors.spanned(
                        v.ident,
                        format!(
                            "variant `{}` needs #[mcp(tag_value = \"...\")]: the value of `{}` that selects it",
                            v.ident,
                            tag.value()
                        ),
                    ),
                }
                if let Some(span) = v.attrs.default {
                    if let Some(first) = &default {
                        errors.at(
                            span,
                            format!(
                                "variants `{first}` and `{}` are both #[mcp(default)]: at most one variant is read when `{}` is missing",
                                v.ident,
                                tag.value()
                            ),
                        );
                    } else {
                        default = Some(v.ident.to_string());
                    }
                }
            }
        }
        UnionMode::ByJsonType => {
            let mut types = Unique::new(errors, "JSON type");
            for v in cont.variants() {
                newtype(errors, v, "McpUnion", "String(String)");
                not_here(tag_span(v), "tag_value", "tag = \"...\"");
                not_here(v.attrs.default, "default", "tag = \"...\"");
                not_here(v.attrs.when_span, "when", "by_shape");
                match v.attrs.json {
                    Some((ty, span)) => types.claim(ty.name(), v, span),
                    None => errors.spanned(
                        v.ident,
                        format!(
                            "variant `{}` needs #[mcp(json = \"...\")]: the JSON type it is read from (string, integer, number, boolean, array, object or null)",
                            v.ident
                        ),
                    ),
                }
            }
        }
        UnionMode::ByShape => {
            for v in cont.variants() {
                newtype(errors, v, "McpUnion", "String(StringSchema)");
                not_here(tag_span(v), "tag_value", "tag = \"...\"");
                not_here(v.attrs.default, "default", "tag = \"...\"");
                not_here(json_span(v), "json", "by_json_type");
            }
        }
    }
}
