//! Conversions between the types of two protocol revisions generated side by side
//! (`Builder::schema` called once per revision): the behaviour behind the `From` and `TryFrom`
//! impls the generator writes for every type name whose shape differs between the revisions.
//!
//! A conversion goes through the wire form: the source value is written as JSON, the
//! `resultType` members the target revision does not know are dropped where they hold the
//! value a missing member means (`"complete"`), and the target type reads the rest. Members the
//! target does not declare land in its lossless `extra` and are written back from it, so a
//! conversion that succeeds can be undone: converting back gives the same JSON. An explicit
//! `null` the target type reads as absent (a member optional there whose schema does not allow
//! `null`) would not come back: [`convert`] refuses it.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::result_type::COMPLETE;

/// The member a result's kind is read from; a revision before 2026-07-28 has none.
const RESULT_TYPE: &str = "resultType";

/// What the generator knows of one direction of one conversion (written as a constant in the
/// generated impl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Direction {
    /// The type's name (the same in both revisions).
    pub type_name: &'static str,
    /// The source revision.
    pub from: &'static str,
    /// The target revision.
    pub to: &'static str,
    /// Why the conversion may fail, one entry per member (empty for a `From`): found by
    /// comparing the two schemas.
    pub members: &'static [&'static str],
    /// The places (member keys from the value's root; `*` for every item of an array or
    /// value of a map) of results whose `resultType` the target revision does not declare:
    /// there a `"complete"` is dropped, as a missing one means it.
    pub defaults: &'static [&'static [&'static str]],
}

/// A value of one revision's type that the other revision's type of the same name cannot
/// hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{type_name} of revision {from} does not convert to revision {to}: {reason} (members that differ: {members})",
    type_name = .direction.type_name,
    from = .direction.from,
    to = .direction.to,
    members = .direction.members.join("; ")
)]
pub struct EraError {
    /// The conversion that failed.
    pub direction: Direction,
    /// What the target type could not read.
    pub reason: String,
}

/// Converts `value` to the other revision's type of the same name, through its JSON; refuses
/// a value the target cannot hold, and one with an explicit `null` the target would read as
/// absent (converting back would not give it again).
pub fn convert<S: Serialize, T: Serialize + DeserializeOwned>(
    value: &S,
    direction: &Direction,
) -> Result<T, EraError> {
    let (json, target) = read_across::<S, T>(value, direction)?;
    // Most messages hold no null: only those are written again to be compared.
    if has_null(&json) {
        let back = serde_json::to_value(&target).map_err(|e| fail(direction, e.to_string()))?;
        if let Some(at) = dropped_null(&json, &back) {
            let reason = format!(
                "{at} is null, which revision {} reads as absent",
                direction.to
            );
            return Err(fail(direction, reason));
        }
    }
    Ok(target)
}

/// `value`'s JSON (with the defaults the target does not know dropped) and the target type
/// read from it.
fn read_across<S: Serialize, T: DeserializeOwned>(
    value: &S,
    direction: &Direction,
) -> Result<(Value, T), EraError> {
    let mut json = serde_json::to_value(value).map_err(|e| fail(direction, e.to_string()))?;
    for path in direction.defaults {
        drop_default(&mut json, path);
    }
    // Through text, not `from_value`: a target that keeps members as raw JSON text reads only
    // from text.
    let text = json.to_string();
    let target = serde_json::from_str(&text).map_err(|e| fail(direction, without_position(&e)))?;
    Ok((json, target))
}

/// The error of `direction` for `reason`.
fn fail(direction: &Direction, reason: String) -> EraError {
    EraError {
        direction: *direction,
        reason,
    }
}

/// Whether `json` holds a `null` anywhere.
fn has_null(json: &Value) -> bool {
    match json {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(members) => members.values().any(has_null),
        _ => false,
    }
}

/// The JSON pointer of the first member that is `null` in `source` and missing in `target`;
/// the pointer is written only once such a member is found.
fn dropped_null(source: &Value, target: &Value) -> Option<String> {
    let mut steps = Vec::new();
    dropped_null_steps(source, target, &mut steps).then(|| {
        steps
            .iter()
            .rev()
            .map(|step| format!("/{}", step.replace('~', "~0").replace('/', "~1")))
            .collect()
    })
}

/// Whether `source` holds a `null` member that `target` lacks; if so, its keys and indices
/// are pushed on `steps`, innermost first.
fn dropped_null_steps(source: &Value, target: &Value, steps: &mut Vec<String>) -> bool {
    let found = match (source, target) {
        (Value::Object(s), Value::Object(t)) => s.iter().find_map(|(key, value)| {
            let dropped = match t.get(key) {
                None => value.is_null(),
                Some(kept) => dropped_null_steps(value, kept, steps),
            };
            dropped.then(|| key.clone())
        }),
        (Value::Array(s), Value::Array(t)) => {
            s.iter().zip(t).enumerate().find_map(|(i, (value, kept))| {
                dropped_null_steps(value, kept, steps).then(|| i.to_string())
            })
        }
        _ => None,
    };
    found.map(|step| steps.push(step)).is_some()
}

/// The error's message without its line and column (of a text the caller never sees).
fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&position).unwrap_or(&text).to_owned()
}

/// Converts `value` where the comparison of the two schemas found that every value converts
/// (the generated `From` impls).
///
/// # Panics
///
/// Only when a value cannot be read back as its own type either (its `extra` holds a member
/// its type declares, with a value of another shape): such a value has no JSON form that any
/// type reads.
pub fn widen<S: Serialize, T: DeserializeOwned>(value: &S, direction: &Direction) -> T {
    match read_across(value, direction) {
        Ok((_, target)) => target,
        Err(e) => panic!("{e}"),
    }
}

/// Drops `resultType: "complete"` from the object(s) at `path` under `json`.
fn drop_default(json: &mut Value, path: &[&str]) {
    let Some((step, rest)) = path.split_first() else {
        if let Value::Object(object) = json
            && object.get(RESULT_TYPE).and_then(Value::as_str) == Some(COMPLETE)
        {
            object.remove(RESULT_TYPE);
        }
        return;
    };
    match (json, *step) {
        (Value::Array(items), "*") => items.iter_mut().for_each(|v| drop_default(v, rest)),
        (Value::Object(map), "*") => map.values_mut().for_each(|v| drop_default(v, rest)),
        (Value::Object(map), key) => {
            if let Some(v) = map.get_mut(key) {
                drop_default(v, rest);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIRECTION: Direction = Direction {
        type_name: "Thing",
        from: "2026-07-28",
        to: "2025-11-25",
        members: &["`n`: required in 2025-11-25, missing in 2026-07-28"],
        defaults: &[&["result"], &["items", "*"]],
    };

    #[test]
    fn drops_complete_where_the_paths_say() {
        let source = serde_json::json!({
            "result": {"resultType": "complete", "a": 1},
            "items": [{"resultType": "complete"}, {"resultType": "input_required"}],
            "other": {"resultType": "complete"}
        });
        let out: Value = convert(&source, &DIRECTION).unwrap();
        assert_eq!(
            out,
            serde_json::json!({
                "result": {"a": 1},
                "items": [{}, {"resultType": "input_required"}],
                "other": {"resultType": "complete"}
            })
        );
    }

    #[test]
    fn a_null_the_target_reads_as_absent_is_refused() {
        #[derive(Debug, serde::Deserialize, serde::Serialize)]
        struct Thing {
            #[serde(skip_serializing_if = "Option::is_none")]
            data: Option<serde_json::Map<String, Value>>,
            #[serde(default)]
            items: Vec<Value>,
        }
        let e = convert::<_, Thing>(&serde_json::json!({"data": null}), &DIRECTION).unwrap_err();
        assert_eq!(
            e.reason,
            "/data is null, which revision 2025-11-25 reads as absent"
        );
        // A null the target keeps (here inside a member it reads as any value) converts.
        let kept = serde_json::json!({"items": [null, {"a/b": null}]});
        let thing: Thing = convert(&kept, &DIRECTION).unwrap();
        assert_eq!(thing.items, [Value::Null, serde_json::json!({"a/b": null})]);
        assert_eq!(
            dropped_null(&kept, &serde_json::json!({"items": [null, {}]})),
            Some("/items/1/a~1b".to_owned())
        );
        // Absent stays absent.
        let none: Thing = convert(&serde_json::json!({}), &DIRECTION).unwrap();
        assert!(none.data.is_none());
    }

    #[test]
    fn a_failure_names_the_type_both_revisions_and_the_members() {
        #[derive(Debug, serde::Deserialize, serde::Serialize)]
        #[allow(dead_code)]
        struct Thing {
            n: i64,
        }
        let e = convert::<_, Thing>(&serde_json::json!({}), &DIRECTION).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Thing of revision 2026-07-28 does not convert to revision 2025-11-25: missing field `n` (members that differ: `n`: required in 2025-11-25, missing in 2026-07-28)"
        );
    }
}
