//! The result rules, as lowering applies them: how a result struct carries `resultType`, the
//! outcome enum of a method that may answer `input_required`, and the union of result types.
//! Every `resultType` word of the generator is here or in [`crate::rules::protocol`].

use std::collections::BTreeMap;

use crate::error::{SchemaError, SchemaResult};
use crate::model::ir::{
    Field, Kind, ResultMode, ResultSelect, ResultVariant, Results, RustPath, Ty, TypeDef,
};
use crate::model::names::{RustName, SchemaName};
use crate::passes::lower::dispatch::Member;
use crate::rules::protocol::{COMPLETE, OutcomeInfo, Protocol, RESULT_TYPE, ResultKind, ResultOf};

/// The member of a `*ResultResponse` that holds the result.
pub const RESPONSE_RESULT: &str = "result";

/// The runtime type of a `resultType` carried in a field.
const RESULT_TYPE_PATH: &str = "::mcp_runtime::ResultType";

/// The name of the outcome enum of a `<base>ResultResponse`.
pub fn outcome_name(base: &str) -> RustName {
    RustName::of_def(&SchemaName::new(base)).suffixed("Outcome")
}

/// How a result struct of fixed `resultType` `value` is marked.
pub fn fixed_mode(value: &str) -> ResultMode {
    if value == COMPLETE {
        ResultMode::Default
    } else {
        ResultMode::Fixed(value.to_owned())
    }
}

/// The docs line of a result type with one `resultType` value.
pub fn fixed_note(value: &str) -> String {
    if value == COMPLETE {
        format!(
            "`\"{RESULT_TYPE}\": \"{COMPLETE}\"` is written for you; reading, a missing `{RESULT_TYPE}` means `\"{COMPLETE}\"` and any other value is refused."
        )
    } else {
        format!(
            "`\"{RESULT_TYPE}\": \"{value}\"` is written for you, and must be present when read."
        )
    }
}

/// The field of a generic result (`Result`, `PaginatedResult`) that carries `resultType`.
pub fn result_type_field(rust: RustName) -> Field {
    Field {
        json: RESULT_TYPE.to_owned(),
        rust,
        ty: RustPath::parse(RESULT_TYPE_PATH).map_or(Ty::Value, Ty::Path),
        required: true,
        written: true,
        docs: Some(
            "The result's `resultType`: `complete`, `input_required`, or a value an extension the client advertised defines."
                .to_owned(),
        ),
    }
}

/// The `resultType` of a result `$def` that answers a method with one fixed value.
fn fixed_value<'p>(protocol: &'p Protocol, def: &SchemaName) -> Option<&'p str> {
    match protocol.results.get(def)? {
        ResultKind::Fixed(v) => Some(v),
        ResultKind::Generic => None,
    }
}

/// The outcome enum of the `*ResultResponse` `info` describes: `Complete` or `InputRequired`.
pub fn outcome(
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
    name: &RustName,
    info: &OutcomeInfo,
    pointer: String,
) -> TypeDef {
    let complete = rust_of[&info.complete].clone();
    let request = info.request.as_ref().map(|r| rust_of[r].clone());
    let mut variants = vec![ResultVariant {
        name: RustName::pascal("Complete"),
        ty: complete.clone(),
        wrapper: None,
        select: ResultSelect::ResultType {
            value: COMPLETE.to_owned(),
            methods: Vec::new(),
        },
        docs: "The request completed.".to_owned(),
    }];
    let input_required = protocol.input_required.as_ref().map(|ir| {
        let value = fixed_value(protocol, ir).unwrap_or_default().to_owned();
        (rust_of[ir].clone(), value)
    });
    if let Some((ty, value)) = &input_required {
        variants.push(ResultVariant {
            name: RustName::pascal("InputRequired"),
            ty: ty.clone(),
            wrapper: None,
            select: ResultSelect::ResultType {
                value: value.clone(),
                methods: Vec::new(),
            },
            docs: "The server needs more input from the client before it can complete.".to_owned(),
        });
    }
    let extensions = extension_variants(protocol, rust_of, info);
    let extension_docs: String = extensions.iter().map(|v| format!(" {}", v.docs)).collect();
    variants.extend(extensions);
    let answers = request.as_ref().map_or_else(
        || "the request".to_owned(),
        |r| format!("{{@link {}}}", r.unraw()),
    );
    let docs = format!(
        "What a successful response to {answers} carries: the complete result, or an input-required result that asks the client for more input first.\n\nRead by `resultType`: `\"{COMPLETE}\"` (or no `resultType`) is {{@link {}}}, `\"{}\"` is {{@link {}}}.",
        complete.unraw(),
        input_required.as_ref().map_or("", |(_, v)| v.as_str()),
        input_required.as_ref().map_or("", |(t, _)| t.unraw()),
    ) + &extension_docs;
    TypeDef {
        name: name.clone(),
        pointer,
        docs: Some(docs),
        kind: Kind::Results(Results {
            request,
            variants,
            reading: String::new(),
        }),
    }
}

/// The variants of the results of enabled extensions that the outcome `info` lists: named
/// after the value (`"task"` is `Task`), holding the result in the runtime's [`GRANTED`] so
/// that only a server holding the proof that the client advertised the extension builds one.
fn extension_variants(
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
    info: &OutcomeInfo,
) -> Vec<ResultVariant> {
    let mut out = Vec::new();
    for def in &info.extensions {
        let Some(extension) = protocol
            .extensions
            .iter()
            .find(|e| e.result_types.contains_key(def.as_str()))
        else {
            continue;
        };
        let value = extension.result_types[def.as_str()].clone();
        let ty = rust_of[def].clone();
        let docs = format!(
            "`\"{value}\"` is [`{}`], from the extension `{}`: read only where the client advertised that extension on the request (else the value is invalid), and built only with the proof of it (`mcp_runtime::extension::Advertised::grant`).",
            ty.unraw(),
            extension.id
        );
        out.push(ResultVariant {
            name: RustName::pascal(&value),
            ty,
            wrapper: RustPath::parse(GRANTED).ok(),
            select: ResultSelect::ResultType {
                value,
                methods: Vec::new(),
            },
            docs,
        });
    }
    out
}

/// The runtime type an outcome holds an extension's result in.
const GRANTED: &str = "::mcp_runtime::extension::Granted";

/// A union that lists result types (`ServerResult`): read by `resultType` alone, the
/// input-required result is its own variant and every other value the generic result's; read
/// by method, each method's own result type.
pub fn union_of_results(
    protocol: &Protocol,
    rust_of: &BTreeMap<SchemaName, RustName>,
    members: &[Member<'_>],
    pointer: &str,
) -> SchemaResult<Kind> {
    let mut variants = Vec::new();
    let mut other_taken = false;
    for m in members {
        let Some(def) = m.def else {
            return Err(SchemaError::new(
                pointer,
                "a union of result types must list $refs only",
            ));
        };
        let def = SchemaName::new(def);
        let ty = rust_of[&def].clone();
        let select = select_result(protocol, &def, &mut other_taken);
        let a = format!(
            "{} [`{}`]",
            crate::model::docs::capitalised(crate::model::docs::article(ty.unraw())),
            ty.unraw()
        );
        let docs = match &select {
            ResultSelect::Other => {
                format!("{a}: any result whose `{RESULT_TYPE}` no other variant claims.")
            }
            ResultSelect::ResultType { value, .. } => format!("{a}: `{RESULT_TYPE}` `{value}`."),
            ResultSelect::Method(methods) if methods.is_empty() => {
                format!("{a} (no method answers with it).")
            }
            ResultSelect::Method(methods) => format!(
                "{a}: the result of `{}`, read by method.",
                methods.join("`, `")
            ),
        };
        variants.push(ResultVariant {
            name: m.name.clone(),
            ty,
            wrapper: None,
            select,
            docs,
        });
    }
    Ok(Kind::Results(Results {
        request: None,
        variants,
        reading: "Read without the method, only `resultType` tells results apart: an input-required result is read as that variant, any other as the generic result (nothing is lost: undeclared members are kept). `from_method` reads the concrete result of a method.".to_owned(),
    }))
}

/// What selects the variant of result `$def` `def` in a union of results.
fn select_result(protocol: &Protocol, def: &SchemaName, other_taken: &mut bool) -> ResultSelect {
    let is_input_required = protocol.input_required.as_ref() == Some(def);
    if is_input_required {
        let methods = protocol
            .requests
            .values()
            .filter(|r| r.may_require_input)
            .map(|r| r.method.clone())
            .collect();
        let value = fixed_value(protocol, def).unwrap_or_default().to_owned();
        return ResultSelect::ResultType { value, methods };
    }
    if protocol.results.get(def) == Some(&ResultKind::Generic) && !*other_taken {
        *other_taken = true;
        return ResultSelect::Other;
    }
    let methods = protocol
        .requests
        .values()
        .filter(|r| match &r.result {
            Some(ResultOf::Def(d)) => d == def,
            Some(ResultOf::Outcome(response)) => protocol
                .outcomes
                .get(response)
                .is_some_and(|o| &o.complete == def),
            None => false,
        })
        .map(|r| r.method.clone())
        .collect();
    ResultSelect::Method(methods)
}
