//! The naming pass: the Rust name of every `$def` and of every outcome enum, fixed before
//! lowering, so that lowering, the roles and the extension roles look them up in one table.
//! Two definitions that would get the same Rust name are an error here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{SchemaError, SchemaResult};
use crate::model::names::{RustName, SchemaName};
use crate::model::pointer;
use crate::rules::protocol::Protocol;
use crate::rules::results;

/// The Rust names of the `$def`s and the outcome enums of one schema.
#[derive(Debug, Clone, Default)]
pub struct DefNames {
    /// `$def` name -> Rust name.
    pub rust_of: BTreeMap<SchemaName, RustName>,
    /// The outcome enum of each `*ResultResponse` that has one.
    pub outcome_of: BTreeMap<SchemaName, RustName>,
    /// Every Rust name above (so that lowering finds a free name for an anonymous type in
    /// log time).
    pub taken: BTreeSet<RustName>,
}

impl DefNames {
    /// Names every `$def` of `defs` (the object under `defs_key`) and every outcome enum of
    /// `protocol`.
    pub fn assign(
        defs: &Map<String, Value>,
        defs_key: &str,
        protocol: &Protocol,
    ) -> SchemaResult<DefNames> {
        let mut rust_of = BTreeMap::new();
        let mut owner: BTreeMap<RustName, SchemaName> = BTreeMap::new();
        for name in defs.keys() {
            let name = SchemaName::new(name.clone());
            let rust = RustName::of_def(&name);
            if let Some(first) = owner.get(&rust) {
                return Err(SchemaError::new(
                    pointer::def(defs_key, name.as_str()),
                    format!("this $def and `{first}` would both be the Rust type `{rust}`"),
                ));
            }
            owner.insert(rust.clone(), name.clone());
            rust_of.insert(name, rust);
        }
        let mut outcome_of = BTreeMap::new();
        for (response, o) in &protocol.outcomes {
            let rust = results::outcome_name(&o.base);
            if let Some(def) = owner.get(&rust) {
                return Err(SchemaError::new(
                    pointer::def(defs_key, def.as_str()),
                    format!(
                        "this $def and the outcome enum of `{response}` would both be the Rust type `{rust}`"
                    ),
                ));
            }
            owner.insert(rust.clone(), response.clone());
            outcome_of.insert(response.clone(), rust);
        }
        Ok(DefNames {
            rust_of,
            outcome_of,
            taken: owner.into_keys().collect(),
        })
    }
}
