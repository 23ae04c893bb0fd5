//! Elicitation forms from a Rust struct, and the accepted answer read back into it (feature
//! `form`).
//!
//! [`schema`] builds a form's requested schema (the generated
//! `ElicitRequestFormParamsRequestedSchema`, or any [`ObjectSchema`]) from a struct that
//! derives `schemars::JsonSchema`, limited to what a form may hold in the 2026-07-28 schema
//! (`ElicitRequestFormParams.requestedSchema`, `PrimitiveSchemaDefinition`): a flat object
//! whose members are strings (with `minLength`, `maxLength` and a `format` of `date`,
//! `date-time`, `email` or `uri`), numbers and integers (with `minimum` and `maximum`),
//! booleans, enums of strings (single select, titled when the variants carry doc comments) and
//! lists of such an enum (multi select), each with its title, description and default. A
//! member that does not fit (a nested struct, a list of anything else, a map) is an error
//! naming it. Members of type `Option<T>` or with `#[serde(default)]` are optional; the others
//! are required.
//!
//! [`read`] reads an accepted answer's `content` into the struct; a value that does not fit
//! (a wrong type, a missing required member) is an error naming the member.
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//! use mcp_runtime::form;
//!
//! /// Where to sit.
//! #[derive(schemars::JsonSchema, serde::Deserialize, Debug, PartialEq)]
//! struct Seat {
//!     /// Seat, e.g. 4C
//!     seat: String,
//!     /// How many seats
//!     count: Option<u8>,
//! }
//!
//! let requested: ElicitRequestFormParamsRequestedSchema = form::schema::<_, Seat>()?;
//! let wire = serde_json::to_value(&requested)?;
//! assert_eq!(wire["properties"]["count"]["type"], "integer");
//! assert_eq!(wire["required"], serde_json::json!(["seat"]));
//!
//! // The client's accepted answer, read back.
//! let content = [
//!     ("seat".to_owned(), ElicitResultContentValue::String("4C".into())),
//!     ("count".to_owned(), ElicitResultContentValue::Integer(2)),
//! ];
//! let seat: Seat = form::read(&content.into_iter().collect::<std::collections::BTreeMap<_, _>>())?;
//! assert_eq!(seat, Seat { seat: "4C".into(), count: Some(2) });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::ObjectSchema;

/// Why a struct cannot be a form, or an answer cannot be read into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormError {
    /// The type's schema is not an object with properties (a struct with named members).
    NotAnObject,
    /// A member a form cannot hold.
    Unsupported {
        /// The member's JSON name.
        member: String,
        /// What about it a form cannot hold.
        why: String,
    },
    /// The answer has a value that does not fit the struct.
    Answer {
        /// The member's JSON name (empty when the error concerns the whole answer).
        member: String,
        /// What does not fit.
        why: String,
    },
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormError::NotAnObject => {
                f.write_str("a form is built from a struct with named members")
            }
            FormError::Unsupported { member, why } => {
                write!(f, "member `{member}` cannot be in a form: {why}")
            }
            FormError::Answer { member, why } if member.is_empty() => {
                write!(f, "the answer does not fit: {why}")
            }
            FormError::Answer { member, why } => {
                write!(f, "the answer's member `{member}` does not fit: {why}")
            }
        }
    }
}

impl std::error::Error for FormError {}

/// An answer that does not fit is the client's:
/// [`INVALID_PARAMS`](crate::error_code::INVALID_PARAMS). A struct that cannot be a form is the
/// server's: [`INTERNAL_ERROR`](crate::error_code::INTERNAL_ERROR).
impl From<FormError> for crate::RpcError {
    fn from(error: FormError) -> Self {
        match error {
            FormError::Answer { .. } => crate::RpcError::invalid_params(error.to_string()),
            _ => crate::RpcError::internal_error(error.to_string()),
        }
    }
}

/// The requested schema of a form for `T`: one property per member of `T`, required unless
/// the member is optional (see the [module](self) docs for what a member may be).
pub fn schema<S, T>() -> Result<S, FormError>
where
    S: ObjectSchema,
    S::Property: DeserializeOwned,
    T: JsonSchema,
{
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
    });
    let root = settings.into_generator().into_root_schema_for::<T>();
    let root = root.as_object().ok_or(FormError::NotAnObject)?;
    let Some(Value::Object(members)) = root.get("properties") else {
        return Err(FormError::NotAnObject);
    };
    let mut properties = BTreeMap::new();
    for (name, member) in members {
        let property = primitive(member).map_err(|why| unsupported(name, why))?;
        let property = serde_json::from_value(Value::Object(property))
            .map_err(|e| unsupported(name, e.to_string()))?;
        properties.insert(name.clone(), property);
    }
    let required = match root.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    Ok(S::from_properties(
        properties,
        (!required.is_empty()).then_some(required),
    ))
}

/// Reads an accepted answer's `content` (the generated `ElicitResult`'s content map, or any
/// map that serializes to JSON) into `T`, naming the member that does not fit.
pub fn read<T: DeserializeOwned, V: Serialize>(
    content: &BTreeMap<String, V>,
) -> Result<T, FormError> {
    let value = serde_json::to_value(content).map_err(|e| answer(String::new(), e.to_string()))?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let why = e.inner().to_string();
        let member = if path == "." {
            missing_field(&why).unwrap_or_default()
        } else {
            path
        };
        answer(member, why)
    })
}

fn unsupported(member: &str, why: impl Into<String>) -> FormError {
    FormError::Unsupported {
        member: member.to_owned(),
        why: why.into(),
    }
}

fn answer(member: String, why: String) -> FormError {
    FormError::Answer { member, why }
}

/// The member a serde "missing field `x`" error names.
fn missing_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("missing field `")?;
    Some(rest.split('`').next()?.to_owned())
}

/// The annotations every primitive schema takes.
const ANNOTATIONS: &[&str] = &["title", "description", "default"];
/// The string formats a form allows.
const FORMATS: &[&str] = &["date", "date-time", "email", "uri"];

/// The primitive schema of one member, or why a form cannot hold it.
fn primitive(member: &Value) -> Result<Map<String, Value>, String> {
    let member = &non_null(member)?;
    let kind = single_type(member)?;
    match kind.as_str() {
        "string" if member.contains_key("enum") => keep(member, &["type", "enum"]),
        "string" => string(member),
        "integer" | "number" => keep(member, &["type", "minimum", "maximum"]),
        "boolean" => keep(member, &["type"]),
        "array" => multi_select(member),
        "" if member.contains_key("oneOf") => titled_single(member),
        other => Err(format!(
            "a form member is a string, a number, a boolean or an enum of strings, not {other}"
        )),
    }
}

/// The member's schema without the `null` an `Option` adds (`"type": ["string", "null"]`, or
/// an `anyOf` of the schema and `{"type": "null"}`).
fn non_null(member: &Value) -> Result<Map<String, Value>, String> {
    let mut object = member
        .as_object()
        .cloned()
        .ok_or("its schema is not an object")?;
    if let Some(Value::Array(types)) = object.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if let [only] = kept.as_slice() {
            object.insert("type".into(), only.clone());
        }
    }
    if let Some(Value::Array(any)) = object.remove("anyOf") {
        let mut kept = any
            .into_iter()
            .filter(|s| s.get("type") != Some(&"null".into()));
        let (Some(Value::Object(inner)), None) = (kept.next(), kept.next()) else {
            return Err("a choice between schemas (anyOf)".into());
        };
        object.extend(inner);
    }
    Ok(object)
}

/// The member's one JSON type (empty when it names none).
fn single_type(member: &Map<String, Value>) -> Result<String, String> {
    match member.get("type") {
        None => Ok(String::new()),
        Some(Value::String(t)) => Ok(t.clone()),
        Some(other) => Err(format!("more than one JSON type ({other})")),
    }
}

/// `member`'s keys among `keys` and the annotations; the rest left out.
fn keep(member: &Map<String, Value>, keys: &[&str]) -> Result<Map<String, Value>, String> {
    Ok(member
        .iter()
        .filter(|(k, _)| keys.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect())
}

/// A string, its format one a form allows.
fn string(member: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    if let Some(format) = member.get("format").and_then(Value::as_str)
        && !FORMATS.contains(&format)
    {
        return Err(format!(
            "the string format `{format}` is not one a form allows ({})",
            FORMATS.join(", ")
        ));
    }
    keep(member, &["type", "format", "minLength", "maxLength"])
}

/// An enum whose variants carry doc comments: `oneOf` of `{"const", "description"}`, written
/// as a titled single select (`oneOf` of `{"const", "title"}`).
fn titled_single(member: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let Some(Value::Array(variants)) = member.get("oneOf") else {
        return Err("a choice between schemas (oneOf)".into());
    };
    let options = titled_options(variants)?;
    let mut out = keep(member, &[])?;
    out.insert("type".into(), "string".into());
    out.insert("oneOf".into(), Value::Array(options));
    Ok(out)
}

/// Each variant as `{"const", "title"}` (the title from its title or description, else its
/// value), or why one is not a string constant.
fn titled_options(variants: &[Value]) -> Result<Vec<Value>, String> {
    variants
        .iter()
        .map(|v| {
            let value = v
                .get("const")
                .and_then(Value::as_str)
                .or_else(
                    || match v.get("enum").and_then(Value::as_array)?.as_slice() {
                        [Value::String(only)] => Some(only.as_str()),
                        _ => None,
                    },
                )
                .ok_or("an enum variant that is not a string constant")?;
            let title = ["title", "description"]
                .iter()
                .find_map(|k| v.get(*k).and_then(Value::as_str))
                .unwrap_or(value);
            Ok(serde_json::json!({ "const": value, "title": title }))
        })
        .collect()
}

/// A list of enum values: a multi select (`items` an enum of strings, or titled options).
fn multi_select(member: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let items = member
        .get("items")
        .and_then(Value::as_object)
        .ok_or("a list whose items have no schema")?;
    let items = match (items.get("enum"), items.get("oneOf")) {
        (Some(Value::Array(values)), _) if values.iter().all(Value::is_string) => {
            serde_json::json!({ "type": "string", "enum": values })
        }
        (_, Some(Value::Array(variants))) => {
            serde_json::json!({ "anyOf": titled_options(variants)? })
        }
        _ => return Err("a list is a form member only as a list of enum values".into()),
    };
    let mut out = keep(member, &["type", "minItems", "maxItems"])?;
    out.insert("items".into(), items);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal object schema: the properties as JSON, the required names.
    #[derive(Debug)]
    struct Form(BTreeMap<String, Value>, Option<Vec<String>>);

    impl ObjectSchema for Form {
        type Property = Value;
        fn from_properties(p: BTreeMap<String, Value>, r: Option<Vec<String>>) -> Self {
            Form(p, r)
        }
    }

    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Class {
        Window,
        Aisle,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Deserialize, Debug, PartialEq)]
    enum Meal {
        /// Vegetarian
        Veg,
        /// With meat
        Meat,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema, serde::Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Booking {
        /// Seat, e.g. 4C
        #[schemars(length(min = 2, max = 3))]
        seat: String,
        class: Class,
        meal: Option<Meal>,
        #[serde(default)]
        extras: Vec<Class>,
        count: u8,
        price: f64,
        #[serde(default = "yes")]
        #[schemars(default = "yes")]
        insured: bool,
        #[schemars(email)]
        contact_email: Option<String>,
    }

    fn yes() -> bool {
        true
    }

    #[test]
    fn every_primitive_kind_maps_to_its_form_schema() {
        let Form(p, required) = schema::<Form, Booking>().unwrap();
        assert_eq!(
            p["seat"],
            serde_json::json!({"type": "string", "description": "Seat, e.g. 4C", "minLength": 2, "maxLength": 3})
        );
        assert_eq!(
            p["class"],
            serde_json::json!({"type": "string", "enum": ["window", "aisle"]})
        );
        assert_eq!(
            p["meal"],
            serde_json::json!({"type": "string", "oneOf": [
                {"const": "Veg", "title": "Vegetarian"}, {"const": "Meat", "title": "With meat"}
            ]})
        );
        assert_eq!(p["extras"]["type"], "array");
        assert_eq!(
            p["extras"]["items"],
            serde_json::json!({"type": "string", "enum": ["window", "aisle"]})
        );
        assert_eq!(p["count"]["type"], "integer");
        assert_eq!(p["count"]["minimum"], 0);
        assert_eq!(p["price"]["type"], "number");
        assert_eq!(
            p["insured"],
            serde_json::json!({"type": "boolean", "default": true})
        );
        assert_eq!(
            p["contactEmail"],
            serde_json::json!({"type": "string", "format": "email"})
        );
        let required = required.unwrap();
        assert_eq!(required, ["seat", "class", "count", "price"]);
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Address {
        city: String,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Nested {
        name: String,
        address: Address,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Listed {
        tags: Vec<String>,
    }

    #[allow(dead_code)]
    #[derive(JsonSchema)]
    struct Id {
        #[schemars(url)]
        home: String,
        #[schemars(regex(pattern = "x"))]
        code: String,
        #[schemars(extend("format" = "uuid"))]
        id: String,
    }

    #[test]
    fn a_member_a_form_cannot_hold_is_named() {
        let nested = schema::<Form, Nested>().unwrap_err();
        assert!(
            matches!(&nested, FormError::Unsupported { member, .. } if member == "address"),
            "{nested}"
        );
        let listed = schema::<Form, Listed>().unwrap_err();
        assert!(
            matches!(&listed, FormError::Unsupported { member, .. } if member == "tags"),
            "{listed}"
        );
        let id = schema::<Form, Id>().unwrap_err();
        assert_eq!(
            id.to_string(),
            "member `id` cannot be in a form: the string format `uuid` is not one a form allows (date, date-time, email, uri)"
        );
        assert!(matches!(schema::<Form, u8>(), Err(FormError::NotAnObject)));
    }

    #[test]
    fn an_answer_is_read_back_or_the_member_named() {
        let content: BTreeMap<String, Value> = serde_json::from_value(serde_json::json!({
            "seat": "4C", "class": "aisle", "count": 2, "price": 9.5, "extras": ["window"]
        }))
        .unwrap();
        let booking: Booking = read(&content).unwrap();
        assert_eq!(booking.class, Class::Aisle);
        assert!(booking.insured);
        assert_eq!(booking.extras, [Class::Window]);

        let mut wrong = content.clone();
        wrong.insert("count".into(), "two".into());
        let error = read::<Booking, _>(&wrong).unwrap_err();
        assert!(
            matches!(&error, FormError::Answer { member, .. } if member == "count"),
            "{error}"
        );
        let mut missing = content;
        missing.remove("seat");
        let error = read::<Booking, _>(&missing).unwrap_err();
        assert_eq!(
            error,
            FormError::Answer {
                member: "seat".into(),
                why: "missing field `seat`".into()
            }
        );
        assert_eq!(crate::RpcError::from(error).code, -32602);
        let unsupported = schema::<Form, u8>().unwrap_err();
        assert_eq!(crate::RpcError::from(unsupported).code, -32603);
    }
}
