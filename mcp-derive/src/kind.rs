//! Which derive runs on which shape of item: what the attribute parser (`attr.rs`) and the
//! parsed input (`ast.rs`) both need, kept apart so that neither imports the other for it.

/// Which derive macro was invoked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Derive {
    Object,
    Result,
    Union,
}

impl Derive {
    pub fn name(self) -> &'static str {
        match self {
            Derive::Object => "McpObject",
            Derive::Result => "McpResult",
            Derive::Union => "McpUnion",
        }
    }
}

/// What is being derived: the derive macro and the shape of the item together.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `McpObject` on a struct.
    Object,
    /// `McpResult` on a struct.
    ResultStruct,
    /// `McpResult` on an enum (an outcome).
    ResultEnum,
    /// `McpUnion` on an enum.
    Union,
}

impl Kind {
    /// "a struct deriving McpObject", for messages about container attributes.
    pub fn place(self) -> &'static str {
        match self {
            Kind::Object => "a struct deriving McpObject",
            Kind::ResultStruct => "a struct deriving McpResult",
            Kind::ResultEnum => "an enum deriving McpResult",
            Kind::Union => "an enum deriving McpUnion",
        }
    }

    pub fn field_place(self) -> &'static str {
        match self {
            Kind::Object => "a field of a struct deriving McpObject",
            Kind::ResultStruct => "a field of a struct deriving McpResult",
            Kind::ResultEnum | Kind::Union => "a field of an enum variant",
        }
    }

    pub fn variant_place(self) -> &'static str {
        match self {
            Kind::ResultEnum => "a variant of an enum deriving McpResult",
            _ => "a variant of an enum deriving McpUnion",
        }
    }
}
