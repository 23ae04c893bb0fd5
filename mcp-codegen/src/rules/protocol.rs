//! The protocol model: which `$def`s are requests, notifications and results, which method
//! answers with which result, and which methods may answer `input_required` — read off the
//! schema (the `*ResultResponse` defs) and the revision's overlay, never from a list in code.
//!
//! It takes in every fact of the overlay that a later pass reads (the runtime types, the
//! at-least-one-of rules, the fixed results, the input requests and their capabilities) and
//! of the enabled extensions, so that lowering, the roles and the overview read this model
//! only, never the overlay's file model.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult};
use crate::input::extensions::Enabled;
use crate::input::overlay::{self, CapabilityWhen, Level, Overlay};
use crate::model::ir::{CapabilityRule, When};
use crate::model::names::{RustPath, SchemaName};

/// What the generator knows about the protocol of one schema, by `$def` name.
#[derive(Debug, Clone, Default)]
pub struct Protocol {
    /// Result `$def`s (those with a `resultType` member) and how each treats it.
    pub results: BTreeMap<SchemaName, ResultKind>,
    /// Request `$def`s (a constant `method`, not a notification).
    pub requests: BTreeMap<SchemaName, RequestInfo>,
    /// Notification `$def`s and their method.
    pub notifications: BTreeMap<SchemaName, String>,
    /// `*ResultResponse` `$def`s whose `result` may be `input_required`, and the outcome enum
    /// that types it.
    pub outcomes: BTreeMap<SchemaName, OutcomeInfo>,
    /// The `$def` that answers `input_required`.
    pub input_required: Option<SchemaName>,
    /// The extensions enabled.
    pub extensions: Vec<Enabled>,
    /// The revision whose overlay was applied; `None` for a schema of no known revision.
    pub revision: Option<String>,
    /// `$def`s the runtime implements, and the runtime type of each.
    pub rust_types: BTreeMap<SchemaName, RustPath>,
    /// `$def` -> the JSON keys of which at least one must be present.
    pub at_least_one_of: BTreeMap<SchemaName, Vec<String>>,
    /// `$def` -> the required members a reader accepts missing (a writer still writes them).
    pub lenient_on_read: BTreeMap<SchemaName, Vec<String>>,
    /// Request `$def` -> the member of its `params` its `Mcp-Name` header mirrors (the
    /// overlay's and the enabled extensions').
    pub mcp_name: BTreeMap<SchemaName, String>,
    /// The types of multi round-trip requests and the capability each kind needs, when the
    /// revision has them.
    pub input_requests: Option<InputRequests>,
}

/// The `$def`s of multi round-trip requests, and the capability rules of input requests.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequests {
    /// The input-required result (`InputRequiredResult`).
    pub result: SchemaName,
    /// One input request (`InputRequest`).
    pub request: SchemaName,
    /// One response (`InputResponse`).
    pub response: SchemaName,
    /// The client's capabilities (`ClientCapabilities`).
    pub capabilities: SchemaName,
    /// The error response for a missing capability.
    pub missing_capability_error: SchemaName,
    /// Which client capability each kind (and mode) of input request needs.
    pub rules: Vec<CapabilityRule>,
}

/// How a result `$def` treats `resultType`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultKind {
    /// It answers a method: one fixed value.
    Fixed(String),
    /// A base shape (`Result`, `PaginatedResult`, ...): the value is carried in a field.
    Generic,
}

/// The member that carries a result's discriminator.
pub const RESULT_TYPE: &str = "resultType";

/// The value `resultType` has in a result that answers a method and is not named otherwise.
pub const COMPLETE: &str = "complete";

/// A request's method and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestInfo {
    /// The method name.
    pub method: String,
    /// What a successful response's `result` is.
    pub result: Option<ResultOf>,
    /// Whether the method may answer `input_required`.
    pub may_require_input: bool,
    /// Its successful response, `<Base>ResultResponse`, when the schema has one.
    pub response: Option<SchemaName>,
}

/// What a successful response of a request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultOf {
    /// One result `$def`.
    Def(SchemaName),
    /// The outcome enum of this `*ResultResponse` `$def`.
    Outcome(SchemaName),
}

/// An outcome enum to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutcomeInfo {
    /// The name its Rust name is built from (the response's name less `ResultResponse`).
    pub base: String,
    /// The complete result `$def`.
    pub complete: SchemaName,
    /// The request `$def` it answers, when there is one.
    pub request: Option<SchemaName>,
    /// The results of enabled extensions the union also lists, in the union's order.
    pub extensions: Vec<SchemaName>,
}

fn const_str<'a>(def: &'a Value, key: &str) -> Option<&'a str> {
    def.get("properties")?.get(key)?.get("const")?.as_str()
}

/// The `$def` name a `$ref` to `#/<defs_key>/<name>` names (its pointer token unescaped).
fn ref_name(schema: &Value, defs_key: &str) -> Option<String> {
    crate::model::pointer::referenced_def(schema.get("$ref")?.as_str()?, defs_key)
}

impl Protocol {
    /// Reads the protocol model off `defs` (already patched, the extensions' definitions
    /// merged), the revision's overlay and the extensions enabled on it.
    pub fn read(
        defs: &Map<String, Value>,
        defs_key: &str,
        overlay: Option<&Overlay>,
        extensions: &[Enabled],
    ) -> SchemaResult<Protocol> {
        let mut reader = Reader {
            defs,
            defs_key,
            protocol: Protocol::default(),
            answers: BTreeMap::new(),
            answering: BTreeSet::new(),
        };
        reader.protocol.extensions = extensions.to_vec();
        if let Some(o) = overlay {
            reader.protocol.take_in(o);
        }
        let results_rule = overlay.and_then(|o| o.results.as_ref());
        if let Some(rule) = results_rule {
            if !defs.contains_key(&rule.input_required) {
                return Err(SchemaError::new(
                    reader.pointer(&rule.input_required),
                    "the overlay names this $def as the input_required result, but the schema has no such $def",
                ));
            }
            reader.protocol.input_required = Some(SchemaName::new(rule.input_required.clone()));
        }
        for (name, def) in defs {
            reader.response(name, def)?;
        }
        for (name, def) in defs {
            reader.method(name, def);
        }
        let fixed = fixed_results(results_rule, extensions);
        for (name, def) in defs {
            reader.result(name, def, &fixed);
        }
        for e in extensions {
            for (def, member) in &e.mcp_name {
                let def = SchemaName::new(def.clone());
                reader.protocol.mcp_name.insert(def, member.clone());
            }
        }
        reader.check_mcp_names()?;
        Ok(reader.protocol)
    }

    /// The overlay's facts that the passes after this one read.
    fn take_in(&mut self, overlay: &Overlay) {
        self.revision = Some(overlay.revision.clone());
        self.rust_types = overlay
            .rust_types
            .iter()
            .map(|(def, t)| (SchemaName::new(def.clone()), t.path.clone()))
            .collect();
        self.at_least_one_of = overlay
            .at_least_one_of
            .iter()
            .map(|(def, rule)| (SchemaName::new(def.clone()), rule.keys.clone()))
            .collect();
        self.lenient_on_read = overlay
            .lenient_on_read
            .iter()
            .map(|(def, rule)| (SchemaName::new(def.clone()), rule.keys.clone()))
            .collect();
        self.mcp_name = overlay
            .mcp_name
            .iter()
            .map(|(def, named)| (SchemaName::new(def.clone()), named.member.clone()))
            .collect();
        self.input_requests = overlay.input_requests.as_ref().map(|names| InputRequests {
            result: SchemaName::new(names.result.clone()),
            request: SchemaName::new(names.request.clone()),
            response: SchemaName::new(names.response.clone()),
            capabilities: SchemaName::new(names.capabilities.clone()),
            missing_capability_error: SchemaName::new(names.missing_capability_error.clone()),
            rules: overlay
                .input_capabilities
                .as_ref()
                .map(|c| c.rules.iter().map(capability_rule).collect())
                .unwrap_or_default(),
        });
    }
}

/// The result `$def`s whose `resultType` is fixed to a value other than `complete`: the
/// overlay's, and the results of the enabled extensions.
fn fixed_results(
    rule: Option<&overlay::Results>,
    extensions: &[Enabled],
) -> BTreeMap<String, String> {
    let mut fixed = rule.map(|r| r.fixed.clone()).unwrap_or_default();
    for extension in extensions {
        fixed.extend(extension.result_types.clone());
    }
    fixed
}

/// An overlay's capability rule, as the roles carry it.
fn capability_rule(rule: &overlay::CapabilityRule) -> CapabilityRule {
    let when = match &rule.when {
        Some(CapabilityWhen::OneOf { pointer, values }) => {
            When::OneOf(pointer.clone(), values.clone())
        }
        Some(CapabilityWhen::AnyPresent(pointers)) => When::AnyPresent(pointers.clone()),
        None => When::Always,
    };
    CapabilityRule {
        method: rule.method.clone(),
        when,
        needs: rule.needs.clone(),
        or_empty: rule.or_empty.clone(),
        should: rule.level == Level::Should,
        why: rule.why.clone(),
    }
}

/// The state of reading one schema's protocol model.
struct Reader<'a> {
    defs: &'a Map<String, Value>,
    defs_key: &'a str,
    protocol: Protocol,
    /// What the responses say each request base name is answered with.
    answers: BTreeMap<String, ResultOf>,
    /// The result `$def`s that answer a method.
    answering: BTreeSet<String>,
}

/// The `required` names of a schema object.
fn required(schema: &Value) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

impl Reader<'_> {
    fn pointer(&self, name: &str) -> String {
        crate::model::pointer::def(self.defs_key, name)
    }

    /// Each request an `mcp_name` names has required `params` (a `$ref` or an object) with
    /// the named member, required and a string; the error is at the request's `$def`. (That
    /// the `$def` exists was checked before: the overlay's names against the schema, an
    /// extension's against its own definitions.)
    fn check_mcp_names(&self) -> SchemaResult<()> {
        for (def, member) in &self.protocol.mcp_name {
            let name = def.as_str();
            if !self.defs.contains_key(name) {
                continue;
            }
            let refused = |why: &str| {
                Err(SchemaError::new(
                    self.pointer(name),
                    format!("the overlay's mcp_name names `{member}` of this $def: {why}"),
                ))
            };
            if !self.protocol.requests.contains_key(def) {
                return refused("it is not a request (a $def with a constant method)");
            }
            let request = &self.defs[name];
            if !required(request).any(|k| k == "params") {
                return refused("its params are not required");
            }
            let Some(params) = request.get("properties").and_then(|p| p.get("params")) else {
                return refused("it has no params");
            };
            let params = match ref_name(params, self.defs_key) {
                Some(target) => self.defs.get(&target).unwrap_or(params),
                None => params,
            };
            let is_string = params
                .get("properties")
                .and_then(|p| p.get(member))
                .and_then(|m| m.get("type"))
                .is_some_and(|t| t == "string");
            if !is_string || !required(params).any(|k| k == member) {
                return refused("it is not a required string member of its params");
            }
        }
        Ok(())
    }

    /// A `<Base>ResultResponse`: its `result` is a `$ref`, or an anyOf of the input-required
    /// result and one complete result (an outcome).
    fn response(&mut self, name: &str, def: &Value) -> SchemaResult<()> {
        let Some(base) = name.strip_suffix("ResultResponse") else {
            return Ok(());
        };
        let Some(result) = def.get("properties").and_then(|p| p.get("result")) else {
            return Ok(());
        };
        if let Some(target) = ref_name(result, self.defs_key) {
            self.answers.insert(
                base.to_owned(),
                ResultOf::Def(SchemaName::new(target.clone())),
            );
            // Only the response of a request with a method answers one: the generic
            // `JSONRPCResultResponse` carries the generic `Result`.
            let request = self.defs.get(&format!("{base}Request"));
            if request.is_some_and(|r| const_str(r, "method").is_some()) {
                self.answering.insert(target.to_owned());
            }
        } else if let Some(any) = result.get("anyOf").and_then(Value::as_array) {
            let pointer = format!("{}/properties/result", self.pointer(name));
            self.outcome(name, base, any, pointer)?;
        }
        Ok(())
    }

    /// A response whose result is a union: it must be the input-required result and one
    /// complete result.
    fn outcome(
        &mut self,
        name: &str,
        base: &str,
        any: &[Value],
        pointer: String,
    ) -> SchemaResult<()> {
        let targets: Vec<String> = any
            .iter()
            .filter_map(|s| ref_name(s, self.defs_key))
            .collect();
        if targets.len() != any.len() {
            return Err(SchemaError::new(
                pointer,
                "a result union must list $refs only",
            ));
        }
        if let Some(i) = targets.iter().position(|t| !self.defs.contains_key(t)) {
            return Err(SchemaError::new(
                format!("{pointer}/anyOf/{i}"),
                format!("unresolvable $ref: there is no $def named {:?}", targets[i]),
            ));
        }
        let Some(ir) = self
            .protocol
            .input_required
            .as_ref()
            .map(SchemaName::as_str)
            .filter(|ir| targets.iter().any(|t| t == ir))
        else {
            return Err(SchemaError::new(
                pointer,
                "a result union without the input_required result: the overlay does not say how to tell its members apart",
            ));
        };
        let (extensions, others): (Vec<&str>, Vec<&str>) = targets
            .iter()
            .map(String::as_str)
            .filter(|t| *t != ir)
            .partition(|t| self.is_extension_result(t));
        let [complete] = others.as_slice() else {
            return Err(SchemaError::new(
                pointer,
                "a result union must hold the input_required result and exactly one complete result (besides the results of enabled extensions)",
            ));
        };
        let request = format!("{base}Request");
        let request = self
            .defs
            .contains_key(&request)
            .then(|| SchemaName::new(request));
        let name = SchemaName::new(name);
        self.answering.insert((*complete).to_owned());
        self.answering.insert(ir.to_owned());
        self.answers
            .insert(base.to_owned(), ResultOf::Outcome(name.clone()));
        self.protocol.outcomes.insert(
            name,
            OutcomeInfo {
                base: base.to_owned(),
                complete: SchemaName::new(*complete),
                request,
                extensions: extensions.into_iter().map(SchemaName::new).collect(),
            },
        );
        Ok(())
    }

    /// Whether `$def` `name` is a result of an enabled extension.
    fn is_extension_result(&self, name: &str) -> bool {
        self.protocol
            .extensions
            .iter()
            .any(|e| e.result_types.contains_key(name))
    }

    /// A request or notification: a `$def` with a constant `method`.
    fn method(&mut self, name: &str, def: &Value) {
        let Some(method) = const_str(def, "method") else {
            return;
        };
        if name.ends_with("Notification") {
            self.protocol
                .notifications
                .insert(SchemaName::new(name), method.to_owned());
            return;
        }
        let base = name.strip_suffix("Request").unwrap_or(name);
        let result = self.answers.get(base).cloned().or_else(|| {
            let plain = format!("{base}Result");
            self.defs.contains_key(&plain).then(|| {
                self.answering.insert(plain.clone());
                ResultOf::Def(SchemaName::new(plain))
            })
        });
        let may_require_input = self
            .protocol
            .outcomes
            .values()
            .any(|o| o.request.as_ref().map(SchemaName::as_str) == Some(name));
        let response = format!("{base}ResultResponse");
        let response = self
            .defs
            .contains_key(&response)
            .then(|| SchemaName::new(response));
        self.protocol.requests.insert(
            SchemaName::new(name),
            RequestInfo {
                method: method.to_owned(),
                result,
                may_require_input,
                response,
            },
        );
    }

    /// A result: a `$def` with a `resultType` member. Its value is fixed when the overlay
    /// says so or it answers a method (`complete`); else it is carried in a field.
    fn result(&mut self, name: &str, def: &Value, fixed: &BTreeMap<String, String>) {
        let has = def
            .get("properties")
            .and_then(|p| p.get(RESULT_TYPE))
            .is_some();
        if !has {
            return;
        }
        let kind = match fixed.get(name) {
            Some(v) => ResultKind::Fixed(v.clone()),
            None if self.answering.contains(name) => ResultKind::Fixed(COMPLETE.to_owned()),
            None => ResultKind::Generic,
        };
        self.protocol.results.insert(SchemaName::new(name), kind);
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
        let p = Protocol::read(defs.as_object().unwrap(), "$defs", Some(&overlay()), &[]).unwrap();
        assert_eq!(p.outcomes["FooResultResponse"].base, "Foo");
        assert_eq!(
            p.outcomes["FooResultResponse"].complete.as_str(),
            "FooResult"
        );
        assert!(p.requests["FooRequest"].may_require_input);
        assert!(!p.requests["BarRequest"].may_require_input);
        assert_eq!(
            p.requests["FooRequest"].result,
            Some(ResultOf::Outcome(SchemaName::new("FooResultResponse")))
        );
        assert_eq!(
            p.requests["BarRequest"].result,
            Some(ResultOf::Def(SchemaName::new("BarResult")))
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
    fn an_enabled_extension_result_joins_the_outcome() {
        let defs = json!({
            "InputRequiredResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "FooResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "LaterResult": {"type": "object", "properties": {"resultType": {"type": "string"}}},
            "FooRequest": {"type": "object", "properties": {"method": {"const": "foo"}}},
            "FooResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                {"$ref": "#/$defs/InputRequiredResult"}, {"$ref": "#/$defs/FooResult"},
                {"$ref": "#/$defs/LaterResult"}]}}}
        });
        let defs = defs.as_object().unwrap();
        // Not enabled: two complete results, which the rules refuse.
        let err = Protocol::read(defs, "$defs", Some(&overlay()), &[]).unwrap_err();
        assert!(
            err.message.contains("exactly one complete result"),
            "{}",
            err.message
        );
        let later = Enabled {
            id: "com.example/later".into(),
            result_types: [("LaterResult".to_owned(), "later".to_owned())].into(),
            extends: vec!["FooResultResponse".into()],
            why: String::new(),
            defs: vec!["LaterResult".into()],
            declared_in: None,
            mcp_name: BTreeMap::new(),
        };
        let p = Protocol::read(defs, "$defs", Some(&overlay()), &[later]).unwrap();
        let outcome = &p.outcomes["FooResultResponse"];
        assert_eq!(outcome.complete.as_str(), "FooResult");
        assert_eq!(outcome.extensions, [SchemaName::new("LaterResult")]);
        assert_eq!(p.results["LaterResult"], ResultKind::Fixed("later".into()));
    }

    #[test]
    fn result_union_without_input_required_is_an_error() {
        let defs = json!({
            "InputRequiredResult": {"type": "object"},
            "A": {"type": "object"}, "B": {"type": "object"},
            "FooResultResponse": {"type": "object", "properties": {"result": {"anyOf": [
                {"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}}}
        });
        let err =
            Protocol::read(defs.as_object().unwrap(), "$defs", Some(&overlay()), &[]).unwrap_err();
        assert_eq!(err.pointer, "/$defs/FooResultResponse/properties/result");
    }
}
