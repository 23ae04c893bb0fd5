//! The protocol model: which `$def`s are requests, notifications and results, which method
//! answers with which result, and which methods may answer `input_required` — read off the
//! schema (the `*ResultResponse` defs) and the revision's overlay, never from a list in code.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult, escape_token};
use crate::overlay::Overlay;

/// What the generator knows about the protocol of one schema.
#[derive(Debug, Clone, Default)]
pub struct Protocol {
    /// Result `$def`s (those with a `resultType` member) and how each treats it.
    pub results: BTreeMap<String, ResultKind>,
    /// Request `$def`s (a constant `method`, not a notification).
    pub requests: BTreeMap<String, RequestInfo>,
    /// Notification `$def`s and their method.
    pub notifications: BTreeMap<String, String>,
    /// `*ResultResponse` `$def`s whose `result` may be `input_required`, and the outcome enum
    /// that types it.
    pub outcomes: BTreeMap<String, OutcomeInfo>,
    /// The `$def` that answers `input_required`.
    pub input_required: Option<String>,
}

/// How a result `$def` treats `resultType`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    /// It answers a method: one fixed value.
    Fixed(String),
    /// A base shape (`Result`, `PaginatedResult`, ...): the value is carried in a field.
    Generic,
}

/// A request's method and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestInfo {
    /// The method name.
    pub method: String,
    /// The Rust type of a successful response's `result`.
    pub result: Option<String>,
    /// Whether the method may answer `input_required`.
    pub may_require_input: bool,
}

/// An outcome enum to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeInfo {
    /// Its name, `<Base>Outcome`.
    pub name: String,
    /// The complete result `$def`.
    pub complete: String,
    /// The request `$def` it answers, when there is one.
    pub request: Option<String>,
}

fn const_str<'a>(def: &'a Value, key: &str) -> Option<&'a str> {
    def.get("properties")?.get(key)?.get("const")?.as_str()
}

fn ref_name<'a>(schema: &'a Value, defs_key: &str) -> Option<&'a str> {
    schema
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/")?
        .strip_prefix(defs_key)?
        .strip_prefix('/')
}

impl Protocol {
    /// Reads the protocol model off `defs` (already patched).
    pub fn read(
        defs: &Map<String, Value>,
        defs_key: &str,
        overlay: Option<&Overlay>,
    ) -> SchemaResult<Protocol> {
        let ptr = |name: &str| format!("/{defs_key}/{}", escape_token(name));
        let mut p = Protocol::default();
        let results_rule = overlay.and_then(|o| o.results.as_ref());
        if let Some(rule) = results_rule {
            if !defs.contains_key(&rule.input_required) {
                return Err(SchemaError::new(
                    ptr(&rule.input_required),
                    "the overlay names this $def as the input_required result, but the schema has no such $def",
                ));
            }
            p.input_required = Some(rule.input_required.clone());
        }

        // Responses: `<Base>ResultResponse.result` is a $ref, or an anyOf with InputRequiredResult.
        let mut answers: BTreeMap<String, String> = BTreeMap::new(); // base -> result Rust type
        let mut answering: Vec<String> = Vec::new(); // result defs that answer a method
        for (name, def) in defs {
            let Some(base) = name.strip_suffix("ResultResponse") else {
                continue;
            };
            let Some(result) = def.get("properties").and_then(|p| p.get("result")) else {
                continue;
            };
            let rptr = format!("{}/properties/result", ptr(name));
            if let Some(target) = ref_name(result, defs_key) {
                answers.insert(base.to_owned(), target.to_owned());
                // Only the response of a request with a method answers one: the generic
                // `JSONRPCResultResponse` carries the generic `Result`.
                let request = defs.get(&format!("{base}Request"));
                if request.is_some_and(|r| const_str(r, "method").is_some()) {
                    answering.push(target.to_owned());
                }
            } else if let Some(any) = result.get("anyOf").and_then(Value::as_array) {
                let targets: Vec<&str> = any.iter().filter_map(|s| ref_name(s, defs_key)).collect();
                if targets.len() != any.len() {
                    return Err(SchemaError::new(
                        rptr,
                        "a result union must list $refs only",
                    ));
                }
                let Some(ir) = p
                    .input_required
                    .as_deref()
                    .filter(|ir| targets.contains(ir))
                else {
                    return Err(SchemaError::new(
                        rptr,
                        "a result union without the input_required result: the overlay does not say how to tell its members apart",
                    ));
                };
                let others: Vec<&str> = targets.iter().copied().filter(|t| *t != ir).collect();
                let [complete] = others.as_slice() else {
                    return Err(SchemaError::new(
                        rptr,
                        "a result union must hold the input_required result and exactly one complete result",
                    ));
                };
                let outcome = format!("{base}Outcome");
                if defs.contains_key(&outcome) {
                    return Err(SchemaError::new(
                        ptr(&outcome),
                        format!(
                            "the outcome enum of {name} would be named {outcome}, which is already a $def"
                        ),
                    ));
                }
                let request = format!("{base}Request");
                p.outcomes.insert(
                    name.clone(),
                    OutcomeInfo {
                        name: outcome.clone(),
                        complete: (*complete).to_owned(),
                        request: defs.contains_key(&request).then_some(request),
                    },
                );
                answers.insert(base.to_owned(), outcome);
                answering.push((*complete).to_owned());
                answering.push(ir.to_owned());
            }
        }

        // Requests and notifications: a constant `method`.
        for (name, def) in defs {
            let Some(method) = const_str(def, "method") else {
                continue;
            };
            if name.ends_with("Notification") {
                p.notifications.insert(name.clone(), method.to_owned());
                continue;
            }
            let base = name.strip_suffix("Request").unwrap_or(name);
            let result = answers.get(base).cloned().or_else(|| {
                let plain = format!("{base}Result");
                defs.contains_key(&plain).then(|| {
                    answering.push(plain.clone());
                    plain
                })
            });
            let may_require_input = p
                .outcomes
                .values()
                .any(|o| o.request.as_deref() == Some(name.as_str()));
            p.requests.insert(
                name.clone(),
                RequestInfo {
                    method: method.to_owned(),
                    result,
                    may_require_input,
                },
            );
        }

        // Results: a `resultType` member.
        for (name, def) in defs {
            let has = def
                .get("properties")
                .and_then(|p| p.get("resultType"))
                .is_some();
            if !has {
                continue;
            }
            let fixed = results_rule.and_then(|r| r.fixed.get(name)).cloned();
            let kind = match fixed {
                Some(v) => ResultKind::Fixed(v),
                None if answering.iter().any(|a| a == name) => {
                    ResultKind::Fixed("complete".to_owned())
                }
                None => ResultKind::Generic,
            };
            p.results.insert(name.clone(), kind);
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn overlay() -> Overlay {
        Overlay::builtin("2026-07-28").unwrap()
    }

    #[test]
    fn outcomes_are_read_off_responses() {
        let defs = json!({
            "InputRequiredResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "FooResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "BarResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "Result": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "FooRequest": {"type": "object", "properties": {"method": {"const": "foo"}}},
            "BarRequest": {"type": "object", "properties": {"method": {"const": "bar"}}},
            "FooResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                {"$ref": "#/$defs/InputRequiredResult"}, {"$ref": "#/$defs/FooResult"}]}}},
            "BarResultResponse": {"type": "object", "properties": {"result": {"$ref": "#/$defs/BarResult"}}},
            "ThingNotification": {"type": "object", "properties": {"method": {"const": "notifications/thing"}}}
        });
        let p = Protocol::read(defs.as_object().unwrap(), "$defs", Some(&overlay())).unwrap();
        assert_eq!(p.outcomes["FooResultResponse"].name, "FooOutcome");
        assert_eq!(p.outcomes["FooResultResponse"].complete, "FooResult");
        assert!(p.requests["FooRequest"].may_require_input);
        assert!(!p.requests["BarRequest"].may_require_input);
        assert_eq!(
            p.requests["FooRequest"].result.as_deref(),
            Some("FooOutcome")
        );
        assert_eq!(
            p.requests["BarRequest"].result.as_deref(),
            Some("BarResult")
        );
        assert_eq!(
            p.results["InputRequiredResult"],
            ResultKind::Fixed("input_required".into())
        );
        assert_eq!(p.results["FooResult"], ResultKind::Fixed("complete".into()));
        assert_eq!(p.results["Result"], ResultKind::Generic);
        assert_eq!(p.notifications["ThingNotification"], "notifications/thing");
    }

    #[test]
    fn result_union_without_input_required_is_an_error() {
        let defs = json!({
            "InputRequiredResult": {"type": "object"},
            "A": {"type": "object"}, "B": {"type": "object"},
            "FooResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                {"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}}}
        });
        let err = Protocol::read(defs.as_object().unwrap(), "$defs", Some(&overlay())).unwrap_err();
        assert_eq!(err.pointer, "/$defs/FooResultResponse/properties/result");
    }
}
