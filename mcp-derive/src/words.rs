//! The protocol's words the derives know: the `resultType` member and its two core values.
//! Every other module names them through these (error messages aside, which quote them).

/// The member that carries a result's discriminator.
pub const RESULT_TYPE: &str = "resultType";

/// The `resultType` of a complete result, and what a result without the member reads as.
pub const COMPLETE: &str = "complete";

/// The `resultType` of a result that asks the client for input first.
pub const INPUT_REQUIRED: &str = "input_required";

/// Whether `value` is a `resultType` of the core protocol (not one an extension adds).
pub fn is_core(value: &str) -> bool {
    value == COMPLETE || value == INPUT_REQUIRED
}

/// The `resultType` that an outcome variant's name implies (`Complete`, `InputRequired`).
pub fn implied_by_variant(name: &str) -> Option<&'static str> {
    match name {
        "Complete" => Some(COMPLETE),
        "InputRequired" => Some(INPUT_REQUIRED),
        _ => None,
    }
}
