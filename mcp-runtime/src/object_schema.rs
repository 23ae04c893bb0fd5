//! Object schemas built from named fields: an elicitation form's requested schema, say, as
//! a list of fields, each required or optional, instead of a map and a list of names kept in
//! step by hand.
//!
//! The generator implements [`ObjectSchema`] for every struct shaped like a JSON object
//! schema (a map of property schemas and a list of required names).
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//!
//! let form = ElicitRequestFormParamsRequestedSchema::fields()
//!     .required("name", StringSchema::new().with_description("Your name"))
//!     .optional("subscribe", BooleanSchema::new())
//!     .build();
//! let request = ElicitRequest::new(ElicitRequestFormParams::new("Who are you?", form));
//! let wire = serde_json::to_value(&request)?;
//! assert_eq!(wire["params"]["requestedSchema"]["required"], serde_json::json!(["name"]));
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

/// A struct that describes a JSON object schema by its properties.
pub trait ObjectSchema: Sized {
    /// The schema of one property.
    type Property;

    /// The object schema with `properties` and the `required` names (none: no list).
    fn from_properties(
        properties: BTreeMap<String, Self::Property>,
        required: Option<Vec<String>>,
    ) -> Self;

    /// An empty list of fields, to fill with [`Fields::required`] and [`Fields::optional`].
    fn fields() -> Fields<Self> {
        Fields {
            properties: BTreeMap::new(),
            required: Vec::new(),
        }
    }
}

/// The fields of an object schema being built (see [`ObjectSchema::fields`]).
pub struct Fields<S: ObjectSchema> {
    properties: BTreeMap<String, S::Property>,
    required: Vec<String>,
}

impl<S: ObjectSchema> fmt::Debug for Fields<S>
where
    S::Property: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fields")
            .field("properties", &self.properties)
            .field("required", &self.required)
            .finish()
    }
}

impl<S: ObjectSchema> Fields<S> {
    /// Adds a field the answer must have (a field of the same name is replaced).
    #[must_use]
    pub fn required(self, name: impl Into<String>, schema: impl Into<S::Property>) -> Self {
        self.field(name.into(), schema.into(), true)
    }

    /// Adds a field the answer may leave out (a field of the same name is replaced).
    #[must_use]
    pub fn optional(self, name: impl Into<String>, schema: impl Into<S::Property>) -> Self {
        self.field(name.into(), schema.into(), false)
    }

    fn field(mut self, name: String, schema: S::Property, required: bool) -> Self {
        self.required.retain(|n| *n != name);
        if required {
            self.required.push(name.clone());
        }
        self.properties.insert(name, schema);
        self
    }

    /// The object schema: the required names in the order they were added, no list when
    /// there are none.
    #[must_use]
    pub fn build(self) -> S {
        let required = (!self.required.is_empty()).then_some(self.required);
        S::from_properties(self.properties, required)
    }
}
