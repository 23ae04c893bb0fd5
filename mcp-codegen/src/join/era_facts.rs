//! The era facts: what the schemas of a legacy and a modern revision cannot state (methods one
//! era lacks or carries another way, what replaces them, error codes that changed), read from
//! the project's `schema/eras.json` (embedded like the overlays), checked against the two
//! schemas, and turned into the data tables the two-revision module lists for
//! `mcp_runtime::era::{MethodFact, ErrorCodeFact}`.

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::error::{Error, OverlayError};
use crate::model::ir::{DataTable, DataValue, MessageKind, Methods};

/// The facts file, compiled in through the `mcp-codegen/schema` symlink (see `input/overlay.rs`).
const BUILTIN: &str = include_str!("../../schema/eras.json");

/// The facts file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EraFacts {
    /// Why the file exists (read so that a key of another name is refused; not generated).
    #[serde(rename = "why")]
    _why: String,
    /// The legacy revision the facts were written against.
    legacy: String,
    /// The modern revision they were written against.
    modern: String,
    methods: Vec<MethodEntry>,
    error_codes: Vec<CodeEntry>,
}

/// One method the eras differ on.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MethodEntry {
    method: String,
    legacy: Carried,
    modern: Carried,
    #[serde(default)]
    replaced_by: Option<Replacement>,
    note: String,
    source: String,
}

/// How an era carries a method (`mcp_runtime::era::Carried`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Carried {
    Absent,
    Message,
    InputRequest,
}

/// What replaces a method where it is absent (`mcp_runtime::era::Replacement`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Replacement {
    Method(String),
    Meta(String),
}

/// One error code the eras differ on.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CodeEntry {
    name: String,
    legacy: i64,
    modern: i64,
    note: String,
    source: String,
}

/// The file's name in errors.
const FILE: &str = "schema/eras.json";

/// An error at `key` (a JSON pointer into the facts file).
fn error(key: String, message: String) -> Error {
    Error::EraFacts { key, message }
}

impl EraFacts {
    /// The built-in facts.
    pub fn builtin() -> Result<EraFacts, Error> {
        EraFacts::parse(BUILTIN)
    }

    /// Reads a facts file's text: its JSON and keys, then what serde cannot check (one entry
    /// per method and per error name, a replacement only where one era lacks the method).
    pub fn parse(text: &str) -> Result<EraFacts, Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let facts: EraFacts = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let e = OverlayError::from_serde(e);
            let at = e
                .position
                .map(|(l, c)| format!(" (line {l}, column {c})"))
                .unwrap_or_default();
            error(e.key, format!("{}{at}", e.message))
        })?;
        de.end()
            .map_err(|_| error(String::new(), "trailing characters after the facts".into()))?;
        facts.validate()?;
        Ok(facts)
    }

    /// The checks of the file alone.
    fn validate(&self) -> Result<(), Error> {
        let mut seen = BTreeSet::new();
        for (i, m) in self.methods.iter().enumerate() {
            if !seen.insert(m.method.as_str()) {
                return Err(error(
                    format!("/methods/{i}/method"),
                    format!("{:?} is listed twice", m.method),
                ));
            }
            if m.legacy == m.modern {
                return Err(error(
                    format!("/methods/{i}"),
                    format!(
                        "{:?}: both eras carry it the same way, so there is no fact to state",
                        m.method
                    ),
                ));
            }
            let one_absent = m.legacy == Carried::Absent || m.modern == Carried::Absent;
            if m.replaced_by.is_some() && !one_absent {
                return Err(error(
                    format!("/methods/{i}/replaced_by"),
                    "a replacement is for a method one era lacks".into(),
                ));
            }
        }
        let mut names = BTreeSet::new();
        for (i, c) in self.error_codes.iter().enumerate() {
            if !names.insert(c.name.as_str()) {
                return Err(error(
                    format!("/error_codes/{i}/name"),
                    format!("{:?} is listed twice", c.name),
                ));
            }
            if c.legacy == c.modern {
                return Err(error(
                    format!("/error_codes/{i}"),
                    format!("{:?}: the same code in both eras", c.name),
                ));
            }
        }
        Ok(())
    }

    /// Whether the facts are about this pair of revisions (they hold for no other pair).
    pub fn applies(&self, legacy: &str, modern: &str) -> bool {
        self.legacy == legacy && self.modern == modern
    }

    /// Checks every method entry against the methods of the legacy and the modern schema: an
    /// era said to carry it defines it (an input request as a request), an era said to lack
    /// it does not, both define it as the same kind, and a replacing method is one the era
    /// lacking the method defines.
    pub fn check(&self, legacy: &Methods, modern: &Methods) -> Result<(), Error> {
        for (i, m) in self.methods.iter().enumerate() {
            for (key, carried, methods, revision) in [
                ("legacy", m.legacy, legacy, &self.legacy),
                ("modern", m.modern, modern, &self.modern),
            ] {
                check_carried(&m.method, carried, methods.get(&m.method)).map_err(|e| {
                    error(format!("/methods/{i}/{key}"), format!("{revision}: {e}"))
                })?;
            }
            if let (Some(l), Some(n)) = (legacy.get(&m.method), modern.get(&m.method))
                && l != n
            {
                return Err(error(
                    format!("/methods/{i}/method"),
                    format!(
                        "{:?} is a {l:?} in {} and a {n:?} in {}",
                        m.method, self.legacy, self.modern
                    ),
                ));
            }
            if let Some(Replacement::Method(by)) = &m.replaced_by {
                let (methods, revision) = if m.modern == Carried::Absent {
                    (modern, &self.modern)
                } else {
                    (legacy, &self.legacy)
                };
                if !methods.contains_key(by) {
                    return Err(error(
                        format!("/methods/{i}/replaced_by/method"),
                        format!("the {revision} schema has no request or notification {by:?}"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The two tables (`METHOD_FACTS`, `ERROR_CODE_FACTS`), each method's kind taken from
    /// the schema that defines it. Call after [`EraFacts::check`].
    pub fn tables(&self, legacy: &Methods, modern: &Methods) -> Vec<DataTable> {
        let methods = self
            .methods
            .iter()
            .map(|m| {
                let kind = legacy.get(&m.method).or_else(|| modern.get(&m.method));
                method_row(m, kind.copied().unwrap_or(MessageKind::Request))
            })
            .collect();
        let codes = self.error_codes.iter().map(code_row).collect();
        vec![
            DataTable {
                name: "METHOD_FACTS".into(),
                doc: format!(
                    "The methods {} and {} carry differently, and what replaces them (from the\nproject's `{FILE}`; read with `MethodFact::find`).",
                    self.legacy, self.modern
                ),
                item: runtime("MethodFact"),
                rows: methods,
            },
            DataTable {
                name: "ERROR_CODE_FACTS".into(),
                doc: format!(
                    "The error codes that differ between {} and {} (from the project's\n`{FILE}`; read with `ErrorCodeFact::translate`).",
                    self.legacy, self.modern
                ),
                item: runtime("ErrorCodeFact"),
                rows: codes,
            },
        ]
    }
}

/// Whether `found` (the schema's definition of `method`) agrees with `carried`.
fn check_carried(
    method: &str,
    carried: Carried,
    found: Option<&MessageKind>,
) -> Result<(), String> {
    match (carried, found) {
        (Carried::Absent, Some(_)) => Err(format!(
            "the schema defines {method:?}, which the file says this era lacks"
        )),
        (Carried::Message | Carried::InputRequest, None) => Err(format!(
            "the schema has no request or notification {method:?}"
        )),
        (Carried::InputRequest, Some(MessageKind::Notification)) => Err(format!(
            "{method:?} is a notification, and only a request is an input request"
        )),
        _ => Ok(()),
    }
}

/// `::mcp_runtime::era::<name>`.
fn runtime(name: &str) -> Vec<String> {
    ["mcp_runtime", "era", name].map(String::from).to_vec()
}

/// A `MethodFact` value.
fn method_row(m: &MethodEntry, kind: MessageKind) -> DataValue {
    let kind = match kind {
        MessageKind::Request => "Request",
        MessageKind::Notification => "Notification",
    };
    let replaced_by = match &m.replaced_by {
        None => DataValue::None,
        Some(r) => {
            let (variant, value) = match r {
                Replacement::Method(v) => ("Method", v),
                Replacement::Meta(v) => ("Meta", v),
            };
            let call = DataValue::Call(
                variant_of("Replacement", variant),
                vec![DataValue::Str(value.clone())],
            );
            DataValue::Some(Box::new(call))
        }
    };
    DataValue::Struct(
        runtime("MethodFact"),
        vec![
            ("method".into(), DataValue::Str(m.method.clone())),
            (
                "kind".into(),
                DataValue::Path(variant_of("MessageKind", kind)),
            ),
            ("legacy".into(), carried(m.legacy)),
            ("modern".into(), carried(m.modern)),
            ("replaced_by".into(), replaced_by),
            ("note".into(), DataValue::Str(m.note.clone())),
            ("source".into(), DataValue::Str(m.source.clone())),
        ],
    )
}

/// An `ErrorCodeFact` value.
fn code_row(c: &CodeEntry) -> DataValue {
    DataValue::Struct(
        runtime("ErrorCodeFact"),
        vec![
            ("name".into(), DataValue::Str(c.name.clone())),
            ("legacy".into(), DataValue::Int(c.legacy)),
            ("modern".into(), DataValue::Int(c.modern)),
            ("note".into(), DataValue::Str(c.note.clone())),
            ("source".into(), DataValue::Str(c.source.clone())),
        ],
    )
}

/// A `Carried` value.
fn carried(c: Carried) -> DataValue {
    let variant = match c {
        Carried::Absent => "Absent",
        Carried::Message => "Message",
        Carried::InputRequest => "InputRequest",
    };
    DataValue::Path(variant_of("Carried", variant))
}

/// `::mcp_runtime::era::<ty>::<variant>`.
fn variant_of(ty: &str, variant: &str) -> Vec<String> {
    let mut path = runtime(ty);
    path.push(variant.to_owned());
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn methods(list: &[(&str, MessageKind)]) -> Methods {
        list.iter().map(|(m, k)| ((*m).to_owned(), *k)).collect()
    }

    fn facts(methods: &str) -> Result<EraFacts, Error> {
        EraFacts::parse(&format!(
            r#"{{"why": "", "legacy": "L", "modern": "M", "methods": {methods}, "error_codes": []}}"#
        ))
    }

    const HELLO: &str = r#"[{"method": "hello", "legacy": "message", "modern": "absent",
        "replaced_by": {"method": "discover"}, "note": "", "source": ""}]"#;

    #[test]
    fn the_builtin_facts_parse() {
        let f = EraFacts::builtin().unwrap();
        assert!(f.applies("2025-11-25", "2026-07-28"));
        assert!(!f.applies("2025-06-18", "2026-07-28"));
    }

    #[test]
    fn a_mistake_in_the_file_names_its_pointer() {
        let e = facts(
            r#"[{"method": "x", "legacy": "sent", "modern": "absent", "note": "", "source": ""}]"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("#/methods/0/legacy") && e.contains("sent"),
            "{e}"
        );
        let e = facts(r#"[{"method": "x", "legacy": "message", "modern": "message", "note": "", "source": ""}]"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("#/methods/0:") && e.contains("the same way"),
            "{e}"
        );
        let e = facts(r#"[{"method": "x", "legacy": "message", "modern": "absent", "note": "", "source": "", "extra": 1}]"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("#/methods/0") && e.contains("extra"), "{e}");
    }

    #[test]
    fn a_method_the_schema_lacks_or_has_against_the_file_is_an_error() {
        let f = facts(HELLO).unwrap();
        let modern = methods(&[("discover", MessageKind::Request)]);
        f.check(&methods(&[("hello", MessageKind::Request)]), &modern)
            .unwrap();
        let e = f.check(&methods(&[]), &modern).unwrap_err().to_string();
        assert!(
            e.contains("#/methods/0/legacy")
                && e.contains("L: the schema has no request or notification \"hello\""),
            "{e}"
        );
        let both = methods(&[
            ("hello", MessageKind::Request),
            ("discover", MessageKind::Request),
        ]);
        let e = f.check(&both, &both).unwrap_err().to_string();
        assert!(
            e.contains("#/methods/0/modern") && e.contains("which the file says this era lacks"),
            "{e}"
        );
        let e = f
            .check(&methods(&[("hello", MessageKind::Request)]), &methods(&[]))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("#/methods/0/replaced_by/method") && e.contains("\"discover\""),
            "{e}"
        );
    }

    #[test]
    fn the_tables_hold_the_runtime_types_with_the_schemas_kinds() {
        let f = facts(HELLO).unwrap();
        let tables = f.tables(
            &methods(&[("hello", MessageKind::Notification)]),
            &methods(&[]),
        );
        assert_eq!(tables[0].name, "METHOD_FACTS");
        let DataValue::Struct(path, fields) = &tables[0].rows[0] else {
            panic!("{:?}", tables[0].rows)
        };
        assert_eq!(path.last().map(String::as_str), Some("MethodFact"));
        assert!(fields.contains(&(
            "kind".into(),
            DataValue::Path(variant_of("MessageKind", "Notification"))
        )));
        assert!(tables[1].rows.is_empty());
    }
}
