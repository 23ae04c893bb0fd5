//! Shared by the `proptest_*` tests: proptest strategies that walk an official schema and give
//! JSON instances valid by construction for one `$def`, and the round-trip property:
//!
//! 1. the instance validates against the patched schema (the strategy's own check);
//! 2. the generated type reads it (`serde_json::from_str`);
//! 3. what it writes validates against the official `schema.json` (the `jsonschema` crate),
//!    except where the overlay's patches, listed by each test as the prose-over-schema
//!    exceptions, relax it: then it validates against the patched schema;
//! 4. what it writes equals the instance (lossless, numbers by value);
//! 5. `deserialize(serialize(x)) == x`, through `Value` and through text.
//!
//! Where the prose narrows what the schema allows (resultType's closed set, at least one of
//! inputRequests / requestState), the strategy follows the prose: [`Walker::new`] lists those.

#![allow(dead_code)]

pub mod run_seed;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;

use mcp_codegen::__internals::Overlay;
use mcp_codegen::__internals::{Protocol, ResultKind};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// Marks a `resultType` the strategy left out (a result without one reads as complete): the
/// checked copy of the instance has `"resultType": "complete"` there, the input has nothing.
const OMITTED_RESULT_TYPE: &str = "\u{0}omitted resultType";

/// How many `$ref`s deep a generated instance goes before only required members are made.
pub const DEPTH: u32 = 5;

/// One revision's schemas, validators and strategies.
pub struct Walker {
    pub revision: String,
    /// The official document.
    pub official: Value,
    /// With the overlay's patches applied: what the generated types implement.
    pub patched: Value,
    pub defs_key: &'static str,
    protocol: Protocol,
    /// `$def`s whose members the prose requires at least one of.
    at_least_one_of: BTreeMap<String, Vec<String>>,
    /// The `$def` of `resultType` values, implemented by `mcp_runtime::ResultType`.
    closed_result_type: Option<String>,
    cache: RefCell<HashMap<(String, u32), BoxedStrategy<Value>>>,
    validators: RefCell<HashMap<(String, bool), jsonschema::Validator>>,
}

/// What one check found, for the report.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub cases: usize,
    /// Outputs valid against the official schema only with the exceptions.
    pub needed_exceptions: usize,
    pub omitted_result_types: usize,
}

impl Walker {
    /// Reads `$MCP_SCHEMA_DIR/<revision>/schema.json` and applies the built-in overlay.
    pub fn new(revision: &str) -> Walker {
        let path = mcp_tests::schema_dir().join(revision).join("schema.json");
        let official: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let overlay = Overlay::builtin(revision).expect("a built-in overlay");
        let mut patched = official.clone();
        overlay.apply(&mut patched).unwrap();
        let defs_key = if patched.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        let protocol = Protocol::read(
            patched[defs_key].as_object().unwrap(),
            defs_key,
            Some(&overlay),
            &[],
        )
        .unwrap();
        let at_least_one_of = overlay
            .at_least_one_of
            .iter()
            .map(|(k, v)| (k.clone(), v.keys.clone()))
            .collect();
        let closed_result_type = overlay
            .rust_types
            .iter()
            .find(|(_, t)| t.path.as_str() == "::mcp_runtime::ResultType")
            .map(|(name, _)| name.clone());
        Walker {
            closed_result_type,
            revision: revision.to_owned(),
            official,
            patched,
            defs_key,
            protocol,
            at_least_one_of,
            cache: RefCell::new(HashMap::new()),
            validators: RefCell::new(HashMap::new()),
        }
    }

    pub fn defs(&self) -> Vec<String> {
        self.patched[self.defs_key]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    fn def(&self, name: &str) -> &Value {
        &self.patched[self.defs_key][name]
    }

    fn resolve(&self, r: &str) -> String {
        let prefix = format!("#/{}/", self.defs_key);
        r.strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("unsupported $ref {r}"))
            .replace("~1", "/")
            .replace("~0", "~")
    }

    /// The strategy for instances of `$def` `name`.
    pub fn strategy(&self, name: &str) -> BoxedStrategy<Value> {
        self.def_strategy(name, DEPTH)
    }

    fn def_strategy(&self, name: &str, depth: u32) -> BoxedStrategy<Value> {
        let key = (name.to_owned(), depth);
        if let Some(s) = self.cache.borrow().get(&key) {
            return s.clone();
        }
        let s = if self.closed_result_type.as_deref() == Some(name) {
            // Prose (SPEC-NOTES A.2): a closed set, a plain string in the schema. Extension
            // values are accepted only when advertised, which no instance here is.
            proptest::sample::select(vec![json!("complete"), json!("input_required")]).boxed()
        } else {
            self.schema(self.def(name), Some(name), depth)
        };
        self.cache.borrow_mut().insert(key, s.clone());
        s
    }

    /// `def` is the `$def` whose own schema `s` is (not a member's), for the prose rules.
    fn schema(&self, s: &Value, def: Option<&str>, depth: u32) -> BoxedStrategy<Value> {
        let Some(m) = s.as_object() else {
            return match s {
                Value::Bool(true) => any_json(2),
                _ => panic!("unsupported schema {s}"),
            };
        };
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = self.resolve(r);
            return self.def_strategy(&target, depth.saturating_sub(1));
        }
        if let Some(c) = m.get("const") {
            return Just(c.clone()).boxed();
        }
        if let Some(values) = m.get("enum").and_then(Value::as_array) {
            return proptest::sample::select(values.clone()).boxed();
        }
        if let Some(any) = m
            .get("anyOf")
            .or_else(|| m.get("oneOf"))
            .and_then(Value::as_array)
        {
            let members: Vec<_> = any.iter().map(|x| self.schema(x, None, depth)).collect();
            return proptest::strategy::Union::new(members).boxed();
        }
        if let Some(all) = m.get("allOf").and_then(Value::as_array) {
            let merged = self.merge_all_of(all);
            return self.object(&merged, def, depth);
        }
        match m.get("type") {
            Some(Value::Array(types)) => {
                let members: Vec<_> = types
                    .iter()
                    .map(|t| {
                        let mut one = m.clone();
                        one.insert("type".into(), t.clone());
                        self.schema(&Value::Object(one), def, depth)
                    })
                    .collect();
                proptest::strategy::Union::new(members).boxed()
            }
            Some(Value::String(t)) => match t.as_str() {
                "object" => self.object(m, def, depth),
                "array" => {
                    let items = m
                        .get("items")
                        .map(|i| self.schema(i, None, depth))
                        .unwrap_or_else(|| any_json(2));
                    let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
                    let max = m
                        .get("maxItems")
                        .and_then(Value::as_u64)
                        .map_or(min + 3, |x| x as usize);
                    let max = if depth == 0 { min } else { max };
                    proptest::collection::vec(items, min..=max)
                        .prop_map(Value::Array)
                        .boxed()
                }
                "string" => string(m.get("format").and_then(Value::as_str)),
                "integer" => integer(m),
                "number" => number(m),
                "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
                "null" => Just(Value::Null).boxed(),
                other => panic!("unsupported type {other}"),
            },
            None if m.contains_key("properties") || m.contains_key("additionalProperties") => {
                self.object(m, def, depth)
            }
            None => any_json(2),
            Some(other) => panic!("unsupported type {other}"),
        }
    }

    /// The object schemas of an allOf merged: properties (a later member's refining an
    /// earlier's) and required members.
    fn merge_all_of(&self, all: &[Value]) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required: Vec<Value> = Vec::new();
        for member in all {
            let mut m = member.as_object().unwrap().clone();
            while let Some(r) = m.get("$ref").and_then(Value::as_str) {
                let target = self.resolve(r);
                m = self.def(&target).as_object().unwrap().clone();
            }
            if let Some(inner) = m.get("allOf").and_then(Value::as_array) {
                m = self.merge_all_of(inner);
            }
            for (k, v) in m
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                properties.insert(k.clone(), v.clone());
            }
            for r in m
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !required.contains(r) {
                    required.push(r.clone());
                }
            }
        }
        let mut out = Map::new();
        out.insert("type".into(), "object".into());
        out.insert("properties".into(), Value::Object(properties));
        out.insert("required".into(), Value::Array(required));
        out
    }

    fn object(
        &self,
        m: &Map<String, Value>,
        def: Option<&str>,
        depth: u32,
    ) -> BoxedStrategy<Value> {
        let empty = Map::new();
        let props = m
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: BTreeSet<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let result_kind = def.and_then(|d| self.protocol.results.get(d)).cloned();
        let one_of = def.and_then(|d| self.at_least_one_of.get(d)).cloned();
        let mut members: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        for (key, schema) in props {
            let k = key.clone();
            if key == "resultType"
                && let Some(kind) = &result_kind
            {
                // Prose (SPEC-NOTES A.2, A.3): the closed set, and a missing resultType
                // reads as "complete" on a result that is complete.
                let s = match kind {
                    ResultKind::Fixed(v) if v == "complete" => prop_oneof![
                        3 => Just(Some((k, json!("complete")))),
                        1 => Just(Some((OMITTED_RESULT_TYPE.to_owned(), json!("complete")))),
                    ]
                    .boxed(),
                    ResultKind::Fixed(v) => Just(Some((k, json!(v)))).boxed(),
                    ResultKind::Generic => Just(Some((k, json!("complete")))).boxed(),
                };
                members.push(s);
                continue;
            }
            let value = self.schema(schema, None, depth);
            let is_required = required.contains(key.as_str())
                || one_of
                    .as_ref()
                    .is_some_and(|keys| keys.first() == Some(key));
            if is_required {
                members.push(value.prop_map(move |v| Some((k.clone(), v))).boxed());
            } else if depth == 0 {
                members.push(Just(None).boxed());
            } else {
                members.push(
                    proptest::option::weighted(0.6, value)
                        .prop_map(move |v| v.map(|v| (k.clone(), v)))
                        .boxed(),
                );
            }
        }
        // Members the schema does not declare, where it allows them: kept and written back.
        let declared: BTreeSet<String> = props.keys().cloned().collect();
        let extra: BoxedStrategy<Vec<(String, Value)>> = match m.get("additionalProperties") {
            Some(Value::Bool(false)) => Just(Vec::new()).boxed(),
            _ if depth == 0 => Just(Vec::new()).boxed(),
            Some(Value::Object(s)) if !s.is_empty() => {
                let value = self.schema(&Value::Object(s.clone()), None, depth);
                proptest::collection::vec(("[a-z][a-zA-Z0-9_.-]{0,8}", value), 0..3).boxed()
            }
            // Declared members, or none: extension members under names no schema uses.
            _ if !props.is_empty() => {
                proptest::collection::vec(("x-[a-z]{1,6}", any_json(2)), 0..2).boxed()
            }
            _ => {
                proptest::collection::vec(("[a-z][a-zA-Z0-9_./-]{0,8}", any_json(2)), 0..3).boxed()
            }
        };
        (members, extra)
            .prop_map(move |(members, extra)| {
                let mut out = Map::new();
                for (k, v) in extra {
                    if !declared.contains(&k) && k != OMITTED_RESULT_TYPE {
                        out.insert(k, v);
                    }
                }
                for (k, v) in members.into_iter().flatten() {
                    out.insert(k, v);
                }
                Value::Object(out)
            })
            .boxed()
    }

    /// A validator for `$def` `name` against the official (`relaxed: false`) or the patched
    /// document.
    fn valid(&self, name: &str, relaxed: bool, value: &Value) -> Result<(), String> {
        let key = (name.to_owned(), relaxed);
        let mut validators = self.validators.borrow_mut();
        let v = validators.entry(key).or_insert_with(|| {
            let mut doc = if relaxed {
                self.patched.clone()
            } else {
                self.official.clone()
            };
            doc["$ref"] = json!(format!(
                "#/{}/{}",
                self.defs_key,
                name.replace('~', "~0").replace('/', "~1")
            ));
            jsonschema::validator_for(&doc).unwrap()
        });
        let errors: Vec<String> = v
            .iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    /// `count` instances of `$def` `name` (the same every run), each as checked (`full`: an
    /// omitted `resultType` present as `"complete"`) and as read (`input`).
    pub fn samples(&self, name: &str, count: usize) -> Vec<(Value, Value)> {
        let seed = seed(&format!("{}/{name}/samples", self.revision));
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
        );
        let strategy = self.strategy(name);
        (0..count)
            .map(|_| split_omitted(&strategy.new_tree(&mut runner).unwrap().current()))
            .collect()
    }

    /// Runs the round-trip property for `$def` `name`, read as `T`, on `cases` instances (the
    /// random numbers seeded from the revision and the name: every run makes the same ones).
    pub fn check<T>(&self, name: &str, cases: u32) -> Result<Tally, String>
    where
        T: Serialize + DeserializeOwned + PartialEq + Debug,
    {
        let config = Config {
            cases,
            failure_persistence: None,
            max_shrink_iters: 512,
            ..Config::default()
        };
        let seed = seed(&format!("{}/{name}", self.revision));
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        let tally = RefCell::new(Tally::default());
        let result = runner.run(&self.strategy(name), |generated| {
            let (full, input) = split_omitted(&generated);
            let t = &mut *tally.borrow_mut();
            t.cases += 1;
            if full != input {
                t.omitted_result_types += 1;
            }
            self.valid(name, true, &full)
                .map_err(|e| fail(format!("the strategy made an invalid instance: {e}\n{full}")))?;
            let text = serde_json::to_string(&input).unwrap();
            let x: T = serde_json::from_str(&text)
                .map_err(|e| fail(format!("the generated type rejects it: {e}\n{text}")))?;
            let out = serde_json::to_value(&x).map_err(|e| fail(format!("serialize: {e}")))?;
            if let Err(official) = self.valid(name, false, &out) {
                self.valid(name, true, &out).map_err(|e| {
                    fail(format!("the output is invalid even with the exceptions: {e}\n(official: {official})\n{out}"))
                })?;
                t.needed_exceptions += 1;
            }
            // Lossless: every member comes back as it came, a `null` one included.
            if let Some(at) = mcp_tests::json_diff(&full, &out, String::new()) {
                return Err(fail(format!(
                    "the output differs from the input at {at}\n  input: {full}\n  output: {out}"
                )));
            }
            let back: T = serde_json::from_value(out.clone())
                .map_err(|e| fail(format!("the type rejects its own output: {e}\n{out}")))?;
            prop_assert_eq!(&back, &x);
            let again: T = serde_json::from_str(&serde_json::to_string(&x).unwrap())
                .map_err(|e| fail(format!("the type rejects its own text: {e}")))?;
            prop_assert_eq!(&again, &x);
            Ok(())
        });
        match result {
            Ok(()) => Ok(tally.into_inner()),
            Err(e) => Err(format!("{}: {name}: {e}", self.revision)),
        }
    }
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

/// The random numbers' seed for `text` (a revision and a `$def`): stable per name, so every
/// run makes the same instances, unless `MCP_PROPTEST_SEED` is set (scripts/proptest-random.sh
/// sets it to a new value each run): then that value is mixed in, and the same value makes the
/// same instances again.
fn seed(text: &str) -> [u8; 32] {
    match run_seed::run_seed() {
        Some(run) => fnv_seed(&format!("{run}/{text}")),
        None => fnv_seed(text),
    }
}

fn fnv_seed(text: &str) -> [u8; 32] {
    // FNV-1a, spread over 32 bytes.
    let mut out = [0u8; 32];
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, chunk) in out.chunks_mut(8).enumerate() {
        for b in text.bytes().chain([i as u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        chunk.copy_from_slice(&h.to_le_bytes());
    }
    out
}

/// The instance with omitted resultTypes present (`full`, what is checked) and left out
/// (`input`, what is read).
fn split_omitted(v: &Value) -> (Value, Value) {
    match v {
        Value::Object(m) => {
            let (mut full, mut input) = (Map::new(), Map::new());
            for (k, x) in m {
                let (f, i) = split_omitted(x);
                if k == OMITTED_RESULT_TYPE {
                    full.insert("resultType".into(), f);
                } else {
                    full.insert(k.clone(), f);
                    input.insert(k.clone(), i);
                }
            }
            (Value::Object(full), Value::Object(input))
        }
        Value::Array(a) => {
            let (f, i) = a.iter().map(split_omitted).unzip();
            (Value::Array(f), Value::Array(i))
        }
        other => (other.clone(), other.clone()),
    }
}

fn string(format: Option<&str>) -> BoxedStrategy<Value> {
    match format {
        Some("uri") => "(https|file|mcp)://[a-z]{1,8}(/[a-zA-Z0-9._-]{0,8}){0,3}"
            .prop_map(Value::String)
            .boxed(),
        Some("uri-template") => "(https|file)://[a-z]{1,8}/\\{[a-z]{1,5}\\}"
            .prop_map(Value::String)
            .boxed(),
        Some("byte") => proptest::collection::vec(any::<u8>(), 0..12)
            .prop_map(|b| Value::String(base64(&b)))
            .boxed(),
        _ => prop_oneof![
            3 => "[a-zA-Z0-9 ._:/-]{0,12}",
            1 => "\\PC{0,8}",
            1 => "[\"\\\\\n\t\u{0}\u{7f}é😀]{0,4}",
        ]
        .prop_map(Value::String)
        .boxed(),
    }
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
        out.push_str(&"=".repeat(3 - chunk.len()));
    }
    out
}

fn integer(m: &Map<String, Value>) -> BoxedStrategy<Value> {
    let min = m.get("minimum").and_then(Value::as_i64);
    let max = m.get("maximum").and_then(Value::as_i64);
    match (min, max) {
        (Some(lo), Some(hi)) => (lo..=hi).prop_map(|i| json!(i)).boxed(),
        (Some(lo), None) if lo >= 0 => prop_oneof![
            3 => (lo as u64..1000).prop_map(|i| json!(i)),
            1 => (lo as u64..=u64::MAX).prop_map(|i| json!(i)),
        ]
        .boxed(),
        (Some(lo), None) => (lo..=i64::MAX).prop_map(|i| json!(i)).boxed(),
        (None, Some(hi)) => (i64::MIN..=hi).prop_map(|i| json!(i)).boxed(),
        (None, None) => prop_oneof![
            3 => (-1000i64..1000).prop_map(|i| json!(i)),
            1 => any::<i64>().prop_map(|i| json!(i)),
        ]
        .boxed(),
    }
}

fn number(m: &Map<String, Value>) -> BoxedStrategy<Value> {
    let min = m.get("minimum").and_then(Value::as_f64);
    let max = m.get("maximum").and_then(Value::as_f64);
    match (min, max) {
        (Some(lo), Some(hi)) => (lo..=hi).prop_map(|f| json!(f)).boxed(),
        _ => prop_oneof![
            2 => (-1000i64..1000).prop_map(|i| json!(i)),
            2 => (-1e6f64..1e6).prop_map(|f| json!(f)),
            1 => proptest::num::f64::NORMAL.prop_map(|f| json!(f)),
        ]
        .prop_filter("within the schema's bounds", {
            let (min, max) = (min, max);
            move |v| {
                let f = v.as_f64().unwrap();
                min.is_none_or(|lo| f >= lo) && max.is_none_or(|hi| f <= hi)
            }
        })
        .boxed(),
    }
}

/// Any JSON value, nested at most `depth` deep.
pub fn any_json(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(depth, 12, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z_]{0,6}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}
