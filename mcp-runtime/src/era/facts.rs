//! The era facts the schemas cannot state, as plain data: which methods one era has and the
//! other lacks or carries another way, what takes their place, and the error codes that
//! changed. The types are written here once; the generator lists the values (from the
//! project's `schema/eras.json`) as `METHOD_FACTS` and `ERROR_CODE_FACTS` in the module it
//! writes for 2025-11-25 and 2026-07-28 together, and the lookups below read those tables.
//!
//! ```
//! use mcp_runtime::era::{Carried, Era, ErrorCodeFact, MethodFact, Replacement};
//! # use mcp_tests::eras::{ERROR_CODE_FACTS, METHOD_FACTS};
//! let setlevel = MethodFact::find(METHOD_FACTS, "logging/setLevel").unwrap();
//! assert!(setlevel.exists_in(Era::Legacy) && !setlevel.exists_in(Era::Modern));
//! assert_eq!(setlevel.replaced_by, Some(Replacement::Meta("io.modelcontextprotocol/logLevel")));
//! let sampling = MethodFact::find(METHOD_FACTS, "sampling/createMessage").unwrap();
//! assert_eq!(sampling.carried(Era::Modern), Carried::InputRequest);
//! // The resource-not-found code of a legacy answer, as a modern peer expects it.
//! let modern = ErrorCodeFact::translate(ERROR_CODE_FACTS, -32002, Era::Legacy, Era::Modern);
//! assert_eq!(modern, mcp_runtime::error_code::INVALID_PARAMS);
//! ```

use super::Era;
use crate::error_code::JSON_RPC_DEFINED;

/// Whether a method is a request (answered) or a notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// Answered with a result or an error.
    Request,
    /// Not answered.
    Notification,
}

/// How an era carries a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Carried {
    /// The era has no such method.
    Absent,
    /// A JSON-RPC message of its own.
    Message,
    /// Only inside an `input_required` result's `inputRequests`, answered in the
    /// `inputResponses` of the retried request (the multi round-trip pattern).
    InputRequest,
}

/// What takes the place of a method in the era that lacks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// Another method.
    Method(&'static str),
    /// A `_meta` key of each request.
    Meta(&'static str),
}

/// One method that differs between the eras.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MethodFact {
    /// The method name.
    pub method: &'static str,
    /// Request or notification (as the schemas define it).
    pub kind: MessageKind,
    /// How the legacy era carries it.
    pub legacy: Carried,
    /// How the modern era carries it.
    pub modern: Carried,
    /// What takes its place where it is absent, when something does.
    pub replaced_by: Option<Replacement>,
    /// The fact, in the project's words.
    pub note: &'static str,
    /// The specification pages that state it.
    pub source: &'static str,
}

impl MethodFact {
    /// The entry of `method` in `table`, if the eras differ on it.
    pub fn find<'t>(table: &'t [MethodFact], method: &str) -> Option<&'t MethodFact> {
        table.iter().find(|f| f.method == method)
    }

    /// How `era` carries the method.
    pub fn carried(&self, era: Era) -> Carried {
        match era {
            Era::Legacy => self.legacy,
            Era::Modern => self.modern,
        }
    }

    /// Whether `era` has the method at all (as a message of its own or inside
    /// `inputRequests`).
    pub fn exists_in(&self, era: Era) -> bool {
        self.carried(era) != Carried::Absent
    }

    /// The methods of `table` that `era` sends as messages of their own and the other era
    /// does not (e.g. for a dual-era server: what only a legacy session may call).
    pub fn only_messages_of(table: &[MethodFact], era: Era) -> impl Iterator<Item = &MethodFact> {
        let other = match era {
            Era::Legacy => Era::Modern,
            Era::Modern => Era::Legacy,
        };
        table.iter().filter(move |f| {
            f.carried(era) == Carried::Message && f.carried(other) != Carried::Message
        })
    }
}

/// The [`ErrorCodeFact::name`] of an unknown resource: `resources/read` of a URI the server
/// does not have (`RpcError::invalid_params(..).means(RESOURCE_NOT_FOUND)` lets a legacy edge
/// answer it with that era's code). The generated `ERROR_CODE_FACTS` holds a fact of this name
/// (`schema/eras.json`; checked by `tests/tests/eras.rs`).
pub const RESOURCE_NOT_FOUND: &str = "resource_not_found";

/// An error code that differs between the eras, for one meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ErrorCodeFact {
    /// What the error means (`resource_not_found`).
    pub name: &'static str,
    /// The code in the legacy era.
    pub legacy: i64,
    /// The code in the modern era.
    pub modern: i64,
    /// The fact, in the project's words.
    pub note: &'static str,
    /// The specification pages that state it.
    pub source: &'static str,
}

impl ErrorCodeFact {
    /// The entry named `name` in `table`.
    pub fn find<'t>(table: &'t [ErrorCodeFact], name: &str) -> Option<&'t ErrorCodeFact> {
        table.iter().find(|f| f.name == name)
    }

    /// The code in `era`.
    pub fn code(&self, era: Era) -> i64 {
        match era {
            Era::Legacy => self.legacy,
            Era::Modern => self.modern,
        }
    }

    /// `code` of an answer in era `from`, as era `to` writes the same error: the other code
    /// where `table` says it changed, else unchanged. A code JSON-RPC defines for itself
    /// ([`JSON_RPC_DEFINED`], e.g. [`INVALID_PARAMS`](crate::error_code::INVALID_PARAMS))
    /// means more than the one error of a fact, so it is never translated: a modern invalid
    /// params stays invalid params for a legacy peer.
    pub fn translate(table: &[ErrorCodeFact], code: i64, from: Era, to: Era) -> i64 {
        if JSON_RPC_DEFINED.contains(&code) {
            return code;
        }
        table
            .iter()
            .find(|f| f.code(from) == code)
            .map_or(code, |f| f.code(to))
    }

    /// `code` of an error known to mean the fact named `name` (an unknown resource, not any
    /// invalid params), answered in era `from`, as era `to` writes it: the fact's code in `to`
    /// when `code` is its code in `from`, else unchanged (as is any code when `table` has no
    /// such fact). Unlike [`translate`](Self::translate) it also turns a JSON-RPC code into a
    /// specific one, since the caller knows which error it is: a modern unknown resource,
    /// [`INVALID_PARAMS`](crate::error_code::INVALID_PARAMS), becomes the legacy `-32002`.
    pub fn translate_named(
        table: &[ErrorCodeFact],
        name: &str,
        code: i64,
        from: Era,
        to: Era,
    ) -> i64 {
        match Self::find(table, name) {
            Some(fact) if fact.code(from) == code => fact.code(to),
            _ => code,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const METHODS: &[MethodFact] = &[
        MethodFact {
            method: "old/only",
            kind: MessageKind::Request,
            legacy: Carried::Message,
            modern: Carried::Absent,
            replaced_by: Some(Replacement::Method("new/only")),
            note: "",
            source: "",
        },
        MethodFact {
            method: "new/only",
            kind: MessageKind::Request,
            legacy: Carried::Absent,
            modern: Carried::Message,
            replaced_by: None,
            note: "",
            source: "",
        },
        MethodFact {
            method: "server/asks",
            kind: MessageKind::Request,
            legacy: Carried::Message,
            modern: Carried::InputRequest,
            replaced_by: None,
            note: "",
            source: "",
        },
    ];

    const CODES: &[ErrorCodeFact] = &[ErrorCodeFact {
        name: "not_found",
        legacy: -32002,
        modern: -32602,
        note: "",
        source: "",
    }];

    #[test]
    fn a_method_is_found_by_name_and_says_how_each_era_carries_it() {
        let old = MethodFact::find(METHODS, "old/only").unwrap();
        assert!(old.exists_in(Era::Legacy) && !old.exists_in(Era::Modern));
        assert_eq!(old.replaced_by, Some(Replacement::Method("new/only")));
        let asks = MethodFact::find(METHODS, "server/asks").unwrap();
        assert_eq!(asks.carried(Era::Modern), Carried::InputRequest);
        assert!(asks.exists_in(Era::Modern));
        assert!(MethodFact::find(METHODS, "tools/call").is_none());
    }

    #[test]
    fn only_messages_of_an_era_leaves_out_what_the_other_carries_too() {
        let legacy: Vec<_> = MethodFact::only_messages_of(METHODS, Era::Legacy)
            .map(|f| f.method)
            .collect();
        assert_eq!(legacy, ["old/only", "server/asks"]);
        let modern: Vec<_> = MethodFact::only_messages_of(METHODS, Era::Modern)
            .map(|f| f.method)
            .collect();
        assert_eq!(modern, ["new/only"]);
    }

    #[test]
    fn a_code_translates_only_from_the_era_where_it_is_specific() {
        let not_found = ErrorCodeFact::find(CODES, "not_found").unwrap();
        assert_eq!(not_found.code(Era::Legacy), -32002);
        assert_eq!(not_found.code(Era::Modern), -32602);
        assert_eq!(
            ErrorCodeFact::translate(CODES, -32002, Era::Legacy, Era::Modern),
            -32602
        );
        // -32602 is also plain invalid params: a modern one stays what it is.
        assert_eq!(
            ErrorCodeFact::translate(CODES, -32602, Era::Modern, Era::Legacy),
            -32602
        );
        // A code no fact names is unchanged, either way.
        assert_eq!(
            ErrorCodeFact::translate(CODES, -32601, Era::Legacy, Era::Modern),
            -32601
        );
        assert_eq!(
            ErrorCodeFact::translate(CODES, -32002, Era::Modern, Era::Legacy),
            -32002
        );
    }

    #[test]
    fn a_named_error_translates_from_either_era_when_its_code_is_the_fact_s() {
        let named =
            |code, from, to| ErrorCodeFact::translate_named(CODES, "not_found", code, from, to);
        // Known to be the fact's error, a modern invalid params code becomes the legacy code.
        assert_eq!(named(-32602, Era::Modern, Era::Legacy), -32002);
        assert_eq!(named(-32002, Era::Legacy, Era::Modern), -32602);
        // Another code than the fact's in that era, or another era's code, is unchanged.
        assert_eq!(named(-32603, Era::Modern, Era::Legacy), -32603);
        assert_eq!(named(-32002, Era::Modern, Era::Legacy), -32002);
        // A name the table lacks changes nothing.
        assert_eq!(
            ErrorCodeFact::translate_named(CODES, "gone", -32602, Era::Modern, Era::Legacy),
            -32602
        );
    }
}
