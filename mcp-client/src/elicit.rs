//! A headless host's answer to a form elicitation: accept it with a default value for each
//! field ([`default_for`], [`accept_with_defaults`]), for a host with no user to ask (a test
//! harness, a batch job, the conformance client). Generic over the bound module: `bind!`
//! implements [`ElicitBinding`].
//!
//! ```
//! use mcp_client_test_types::mcp;
//!
//! mcp_client::bind!(Mcp = mcp);
//!
//! use mcp::PrimitiveSchemaDefinition as Schema;
//! let email = mcp::StringSchema::new().with_format(mcp::StringSchemaFormat::Email);
//! let value = mcp_client::elicit::default_for::<Mcp>(&Schema::StringSchema(email));
//! assert_eq!(value, mcp::ElicitResultContentValue::String("user@example.com".into()));
//!
//! let mut count = mcp::NumberSchema::new(mcp::NumberSchemaType::Integer);
//! count.minimum = Some(3.0);
//! let value = mcp_client::elicit::default_for::<Mcp>(&Schema::NumberSchema(count));
//! assert_eq!(value, mcp::ElicitResultContentValue::Integer(3));
//! ```

use crate::binding::Binding;

/// The types of a form elicitation and its answer, and the defaults a headless host answers
/// with. Implemented by [`bind!`](crate::bind).
pub trait ElicitBinding: Binding {
    /// A field's schema (`PrimitiveSchemaDefinition`).
    type PrimitiveSchema;
    /// A field's value in the answer (`ElicitResultContentValue`).
    type ContentValue;
    /// An elicitation (`ElicitRequest`).
    type Elicit;
    /// Its answer (`ElicitResult`).
    type Elicited;

    /// See [`default_for`].
    fn default_for(schema: &Self::PrimitiveSchema) -> Self::ContentValue;
    /// See [`accept_with_defaults`].
    fn accept_with_defaults(request: &Self::Elicit) -> Self::Elicited;
}

/// The value a headless host gives a field of schema `schema`: the schema's `default` when it
/// has one; otherwise a string of the declared format (`user@example.com`,
/// `https://example.com/`, `2026-07-28`, `2026-07-28T12:00:00Z`, or `conformance` without a
/// format), a number's `minimum` (or 0; an integer rounded), `true`, the first option of a
/// single-select enum and a one-option list of a multi-select one.
pub fn default_for<B: ElicitBinding>(schema: &B::PrimitiveSchema) -> B::ContentValue {
    B::default_for(schema)
}

/// `accept` for a form elicitation, each field of its requested schema given its
/// [`default_for`]; `accept` with no content for a URL one (the user is taken to have opened
/// the URL: nothing comes back in the result).
pub fn accept_with_defaults<B: ElicitBinding>(request: &B::Elicit) -> B::Elicited {
    B::accept_with_defaults(request)
}

/// The [`ElicitBinding`] impl of `bind!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __bind_elicit {
    ($b:ident, $m:ident) => {
        impl $crate::elicit::ElicitBinding for $b {
            type PrimitiveSchema = $m::PrimitiveSchemaDefinition;
            type ContentValue = $m::ElicitResultContentValue;
            type Elicit = $m::ElicitRequest;
            type Elicited = $m::ElicitResult;

            fn default_for(schema: &$m::PrimitiveSchemaDefinition) -> $m::ElicitResultContentValue {
                use ::std::borrow::ToOwned as _;
                use $m::ElicitResultContentValue as V;
                use $m::PrimitiveSchemaDefinition as S;
                let first = |options: &[::std::string::String]| {
                    options.first().cloned().unwrap_or_default()
                };
                match schema {
                    S::StringSchema(s) => V::String(s.default.clone().unwrap_or_else(|| {
                        match s.format {
                            ::core::option::Option::Some($m::StringSchemaFormat::Email) => {
                                "user@example.com"
                            }
                            ::core::option::Option::Some($m::StringSchemaFormat::Uri) => {
                                "https://example.com/"
                            }
                            ::core::option::Option::Some($m::StringSchemaFormat::Date) => {
                                "2026-07-28"
                            }
                            ::core::option::Option::Some($m::StringSchemaFormat::DateTime) => {
                                "2026-07-28T12:00:00Z"
                            }
                            ::core::option::Option::None => $crate::headless::PLACEHOLDER_TEXT,
                        }
                        .to_owned()
                    })),
                    S::NumberSchema(n) => {
                        let value = n.default.or(n.minimum).unwrap_or(0.0);
                        match n.r#type {
                            $m::NumberSchemaType::Integer => V::Integer(value.round() as i64),
                            $m::NumberSchemaType::Number => V::Number(value),
                        }
                    }
                    S::BooleanSchema(b) => V::Boolean(b.default.unwrap_or(true)),
                    S::UntitledSingleSelectEnumSchema(e) => {
                        V::String(e.default.clone().unwrap_or_else(|| first(&e.r#enum)))
                    }
                    S::TitledSingleSelectEnumSchema(e) => V::String(
                        e.default
                            .clone()
                            .or_else(|| e.one_of.first().map(|o| o.r#const.clone()))
                            .unwrap_or_default(),
                    ),
                    S::LegacyTitledEnumSchema(e) => {
                        V::String(e.default.clone().unwrap_or_else(|| first(&e.r#enum)))
                    }
                    S::UntitledMultiSelectEnumSchema(e) => V::Array(
                        e.default
                            .clone()
                            .unwrap_or_else(|| e.items.r#enum.iter().take(1).cloned().collect()),
                    ),
                    S::TitledMultiSelectEnumSchema(e) => {
                        V::Array(e.default.clone().unwrap_or_else(|| {
                            e.items
                                .any_of
                                .iter()
                                .take(1)
                                .map(|o| o.r#const.clone())
                                .collect()
                        }))
                    }
                }
            }

            fn accept_with_defaults(request: &$m::ElicitRequest) -> $m::ElicitResult {
                let accepted = $m::ElicitResult::new($m::ElicitResultAction::Accept);
                match &request.params {
                    $m::ElicitRequestParams::ElicitRequestFormParams(form) => accepted
                        .with_content(
                            form.requested_schema
                                .properties
                                .iter()
                                .map(|(k, s)| {
                                    (
                                        k.clone(),
                                        <$b as $crate::elicit::ElicitBinding>::default_for(s),
                                    )
                                })
                                .collect::<::std::collections::BTreeMap<_, _>>(),
                        ),
                    $m::ElicitRequestParams::ElicitRequestURLParams(_) => accepted,
                }
            }
        }
    };
}
