//! The intermediate representation: one [`TypeDef`] per generated Rust item, and the
//! protocol roles those items play, independent of JSON Schema syntax and of Rust tokens.
//! Every name in it is a [`RustName`]; every fact of the schema and the protocol model that
//! emission needs is spelled out here, so that emission reads no schema and no overlay (it
//! knows only the runtime's traits it implements).

use std::collections::BTreeMap;

pub use crate::model::names::{RustName, RustPath};

/// One schema's IR and what the header says of it.
pub struct Lowered {
    /// The IR.
    pub module: Module,
    /// The methods its schema defines (the era facts are checked against them).
    pub methods: Methods,
    /// The revision whose overlay was applied.
    pub revision: Option<String>,
    /// The schema file's SHA-256.
    pub sha256: String,
    /// The extensions enabled on it.
    pub extensions: Vec<String>,
}

/// Whether a method is a request or a notification, as a schema defines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// A `$def` with a constant `method` that is answered.
    Request,
    /// A `*Notification` `$def` with a constant `method`.
    Notification,
}

/// The methods one schema defines (requests and notifications), by name.
pub type Methods = std::collections::BTreeMap<String, MessageKind>;

/// Every type to generate, keyed (and so ordered) by Rust name, and what the passes found
/// each is to the protocol: the IR that emission and the join read. Built once, after the
/// passes, from the values they return (see `Builder::lower_source`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    /// The type definitions, in name order (the output order, so output is deterministic).
    pub types: Types,
    /// What the types are to the protocol (`roles::assign`).
    pub roles: Roles,
    /// The enabled extensions' marker types (`markers::assign`).
    pub markers: Markers,
    /// The module's overview for the docs (markdown): what it is, its revision, how to read a
    /// message, the rules its types enforce.
    pub overview: String,
    /// The types whose JSON reader and writer are compiled with the module
    /// (`mcp_runtime::Wire`), in name order; empty unless asked for (see `precompile`).
    pub precompiled: Vec<RustName>,
    /// The requests a server answers, as a service trait; `None` unless asked for (see
    /// `rules/service.rs`).
    pub service: Option<ServiceRole>,
    /// The requests a client sends, as a client trait; `None` unless asked for (see
    /// `rules/client.rs`).
    pub client: Option<ClientRole>,
}

/// A client trait: one method per request a client sends, each ending with the request's
/// complete result.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientRole {
    /// The trait's name.
    pub name: RustName,
    /// One method per request, in the union's order.
    pub methods: Vec<ClientMethod>,
}

/// One method of a client trait.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientMethod {
    /// The method's name (`call_tool`).
    pub name: RustName,
    /// The request type.
    pub request: RustName,
    /// The type of its parameters (`()` when it has none).
    pub params: Ty,
    /// What a call ends with: the complete result.
    pub done: Ty,
}

/// A service trait: one method per request a server answers, and the function that
/// dispatches a request of the union to its method.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceRole {
    /// The trait's name.
    pub name: RustName,
    /// The dispatching function's name.
    pub dispatch: RustName,
    /// The name of the constant that holds `revision`.
    pub revision_const: RustName,
    /// The revision whose requests the trait answers.
    pub revision: String,
    /// The union of the requests a client sends.
    pub requests: RustName,
    /// One method per variant of `requests` whose response is built from its request, in
    /// the union's order.
    pub methods: Vec<ServiceMethod>,
    /// The other variants, each with its request's method: answered as not found.
    pub unanswered: Vec<(RustName, String)>,
}

/// One method of a service trait.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceMethod {
    /// The method's name (`call_tool`).
    pub name: RustName,
    /// The variant of the union that holds the request.
    pub variant: RustName,
    /// The request type.
    pub request: RustName,
    /// The request's method (`tools/call`), answered as not found by default.
    pub method: String,
    /// The type of its parameters.
    pub params: Ty,
}

/// The type definitions, keyed (and so ordered) by Rust name: what lowering makes and the
/// structural passes rewrite, before and after the roles are known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Types(BTreeMap<RustName, TypeDef>);

/// The protocol roles of the types, as `roles::assign` returns them: the later passes that
/// need them (sizes, precompile, overview) take them as an argument, so none of them can run
/// before the roles are known.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roles {
    /// The request types, in name order.
    pub requests: Vec<RequestRole>,
    /// The notification types, in name order.
    pub notifications: Vec<NotificationRole>,
    /// The multi round-trip types, when the schema and overlay describe them.
    pub input: Option<InputRole>,
    /// The JSON-RPC error response built from its parts, when its shape allows.
    pub error_response: Option<ErrorBuild>,
    /// The structs that describe a JSON object schema by its properties, in name order.
    pub object_schemas: Vec<ObjectSchemaRole>,
    /// Names of an earlier release kept as deprecated aliases of the types they were renamed
    /// to, in name order.
    pub renamed: Vec<Renamed>,
}

/// A type renamed: its earlier name, kept as a deprecated alias for one release.
#[derive(Debug, Clone, PartialEq)]
pub struct Renamed {
    /// The earlier name.
    pub old: RustName,
    /// The type it names now.
    pub new: RustName,
    /// The deprecation note: the new name and why.
    pub note: String,
}

/// The enabled extensions' roles, as `markers::assign` returns them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Markers {
    /// The enabled extensions, in the order they were enabled.
    pub extensions: Vec<ExtensionRole>,
    /// Where capabilities declare extensions, when an extension is enabled: the client
    /// capabilities, and those of the other peer when an enabled extension is declared there.
    pub capabilities: Vec<ExtensionCapabilitiesRole>,
}

/// An enabled extension: a marker type with its identifier and `resultType` values.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtensionRole {
    /// The marker type.
    pub ty: RustName,
    /// The extension's identifier, its key in the client's `capabilities.extensions`.
    pub id: String,
    /// Its result types and the `resultType` value of each.
    pub results: Vec<(RustName, String)>,
    /// The requests whose outcome has a variant for one of its results.
    pub supported: Vec<RustName>,
    /// Its own definitions, in name order (among them the requests it adds).
    pub defs: Vec<RustName>,
    /// The marker's docs.
    pub docs: String,
}

/// The map of advertised extensions in the client capabilities.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtensionCapabilitiesRole {
    /// The capabilities struct.
    pub ty: RustName,
    /// Its optional map member of extensions, by identifier.
    pub field: RustName,
    /// The type of one extension's settings.
    pub settings: Ty,
}

/// A struct that describes a JSON object schema: a required map of property schemas and an
/// optional list of the required property names; every other member optional.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectSchemaRole {
    /// The struct that has the shape of an object schema.
    pub ty: RustName,
    /// Its map of property schemas.
    pub properties: RustName,
    /// The type of one property's schema.
    pub property: Ty,
    /// Its list of required property names.
    pub required: RustName,
}

/// One generated item.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// The Rust name.
    pub name: RustName,
    /// JSON pointer of the schema node it comes from.
    pub pointer: String,
    /// The schema's description.
    pub docs: Option<String>,
    /// What kind of item it is.
    pub kind: Kind,
}

/// The shape of a generated item.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A JSON object with known members.
    Struct(Struct),
    /// A closed set of strings.
    StringEnum(Vec<EnumValue>),
    /// An anyOf / oneOf, or a multi-type `type` list.
    Union(Union),
    /// `pub type Name = ...;`
    Alias(Ty),
    /// An enum whose variant is chosen by the result's `resultType` (an outcome, or a union
    /// of result types).
    Results(Results),
}

/// A struct for a JSON object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Struct {
    /// Members with a constant value: checked when read, written when serialized.
    pub constants: Vec<Constant>,
    /// The declared members, in schema order.
    pub fields: Vec<Field>,
    /// The field that keeps undeclared members, if lossless.
    pub extra: Option<RustName>,
    /// Set for result types.
    pub result: Option<ResultMode>,
    /// JSON keys of which at least one must be present.
    pub at_least_one_of: Vec<String>,
    /// Fields are private with accessors, and construction goes through `new`.
    pub sealed: bool,
    /// Paragraphs for the docs only (not the JSON Schema description): what the protocol model
    /// says of the type that its fields do not show.
    pub notes: Vec<String>,
}

impl Struct {
    /// The declared member with JSON key `json`.
    pub fn field(&self, json: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.json == json)
    }
}

/// How a result struct treats `resultType`.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultMode {
    /// The derive's default value (`complete`).
    Default,
    /// The type has one fixed value other than the default.
    Fixed(String),
    /// The value is carried in this field (of the runtime's result-type type).
    Field(Field),
}

/// A member with a `const` value.
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    /// The JSON key.
    pub json: String,
    /// The fixed value, written for the user and checked when read.
    pub value: ConstValue,
    /// Whether the member may be missing.
    pub optional: bool,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// A string constant.
    Str(String),
    /// An integer constant.
    Int(i64),
}

/// A declared member.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The JSON key.
    pub json: String,
    /// The Rust field name.
    pub rust: RustName,
    /// The field's type, without the `Option` of an optional member.
    pub ty: Ty,
    /// Whether the member must be present.
    pub required: bool,
    /// Whether `new` takes it: a required member, or one a reader may miss but a writer
    /// writes (the overlay's `lenient_on_read`).
    pub written: bool,
    /// The schema's description.
    pub docs: Option<String>,
}

#[cfg(test)]
impl Field {
    /// A member `name` of type `ty` with no description (for the passes' unit tests).
    pub fn for_test(name: &str, ty: Ty, required: bool) -> Field {
        Field {
            json: name.to_owned(),
            rust: RustName::field(name),
            ty,
            required,
            written: required,
            docs: None,
        }
    }
}

/// One value of a string enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// The wire value.
    pub json: String,
    /// The Rust variant name.
    pub rust: RustName,
}

/// A union type.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// How a value picks its variant.
    pub mode: UnionMode,
    /// The variants, in the order the schema lists them (shape unions: the order they are tried).
    pub variants: Vec<Variant>,
}

/// How a union is read.
#[derive(Debug, Clone, PartialEq)]
pub enum UnionMode {
    /// By the constant value of one member.
    Tag(String),
    /// By the JSON type of the value.
    JsonType,
    /// By predicates on the object's members (unions with no discriminator).
    Shape,
}

/// One variant of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The Rust variant name.
    pub name: RustName,
    /// The wrapped type.
    pub ty: Ty,
    /// What selects it.
    pub select: Select,
}

/// What selects a union variant.
#[derive(Debug, Clone, PartialEq)]
pub enum Select {
    /// The tag value, and whether a missing tag selects this variant.
    Tag {
        /// The constant.
        value: String,
        /// Selected when the tag is missing.
        default: bool,
    },
    /// The JSON type (`"string"`, `"integer"`, `"number"`, `"boolean"`, `"array"`, `"object"`,
    /// `"null"`).
    JsonType(String),
    /// Every predicate must hold.
    Shape(Vec<Predicate>),
}

/// A test on an object's members.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Predicate {
    /// The member equals a string.
    Equals(String, String),
    /// The member is one of these strings.
    OneOf(String, Vec<String>),
    /// The member is present.
    Has(String),
    /// The member is absent.
    Lacks(String),
}

/// An enum read by `resultType`: an outcome (`Complete` or `InputRequired`) or a union of
/// result types (`ServerResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// The request type it answers (outcomes), checked at compile time.
    pub request: Option<RustName>,
    /// The variants.
    pub variants: Vec<ResultVariant>,
    /// A sentence on how a value is read, for the docs.
    pub reading: String,
}

/// One variant of a [`Results`] enum.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultVariant {
    /// The Rust variant name.
    pub name: RustName,
    /// The wrapped result type.
    pub ty: RustName,
    /// The runtime type the variant holds the result in (`Granted<T>` for an extension's
    /// result, which only a proof builds), when not the result type itself.
    pub wrapper: Option<RustPath>,
    /// What selects it.
    pub select: ResultSelect,
    /// The variant's docs.
    pub docs: String,
}

/// What selects a [`ResultVariant`].
#[derive(Debug, Clone, PartialEq)]
pub enum ResultSelect {
    /// This `resultType` value; a method list makes the variant the answer of those methods
    /// to that value when read by method.
    ResultType {
        /// The `resultType` value that selects the variant.
        value: String,
        /// The methods (read by method) that may answer with it.
        methods: Vec<String>,
    },
    /// Every `resultType` no other variant claims.
    Other,
    /// Only reading by method picks it: the complete answer of these methods (of none: it is
    /// only ever written).
    Method(Vec<String>),
}

/// A request type and what the protocol says of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestRole {
    /// The request type.
    pub ty: RustName,
    /// The method name.
    pub method: String,
    /// The type of its parameters (`()` when it has none).
    pub params: Ty,
    /// The type of a successful response's result.
    pub result: Ty,
    /// Whether it may be answered with the input-required result.
    pub may_require_input: bool,
    /// How it is retried after an input-required answer, when it can be.
    pub retry: Option<RetryRole>,
    /// How its successful response is built from it, when it can be.
    pub response: Option<ResponseRole>,
    /// The union of its successful response and the error response, when generated.
    pub reply: Option<RustName>,
    /// The member of its params that its `Mcp-Name` header mirrors, if any.
    pub mcp_name: Option<McpNameRole>,
}

/// The member of a request's params that its `Mcp-Name` header mirrors (a required string of
/// required params).
#[derive(Debug, Clone, PartialEq)]
pub struct McpNameRole {
    /// The member's JSON key.
    pub member: String,
    /// The request's params field.
    pub params: RustName,
    /// The member's field in the params.
    pub field: RustName,
}

/// A successful response built from its request: its id copied, the result given; its other
/// members are optional and start unset.
#[derive(Debug, Clone, PartialEq)]
pub struct ResponseRole {
    /// The response type.
    pub ty: RustName,
    /// The request's id field.
    pub request_id: RustName,
    /// The response's id field (of the same type).
    pub id: RustName,
    /// The response's result field.
    pub result_field: RustName,
    /// The type of a successful result.
    pub result: Ty,
}

/// A struct value built as nested struct literals: each member named in `parts` gets its
/// part; the other members are optional and start unset, the kept-members bag empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Literal {
    /// The struct the literal builds.
    pub ty: RustName,
    /// The members given a value, by field.
    pub parts: Vec<(RustName, Part)>,
}

/// The value of one member of a [`Literal`].
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// A parameter of the building function, as is.
    Param(Slot),
    /// An optional parameter of the building function, its value converted with `Into` (to a
    /// member of another type than the parameter's).
    ParamInto(Slot),
    /// A nested struct.
    Literal(Literal),
}

/// The parameters of the runtime's error-building functions (`ErrorResponse::from_error`,
/// `CapabilityErrorResponse::from_parts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The JSON-RPC id, of the response's id member's type (`Option` when it is optional).
    Id,
    /// The error code (`i64`).
    Code,
    /// The error message (`String`).
    Message,
    /// The optional error data (`Option<Value>`).
    Data,
    /// The capabilities the client lacks (the capabilities type).
    Required,
}

/// An error response built from its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorBuild {
    /// The type of the id parameter: the response's id member's type.
    pub id: Ty,
    /// Whether the id member is optional (the parameter is then an `Option`).
    pub id_optional: bool,
    /// The response.
    pub build: Literal,
}

/// The missing-capability error response built from its parts, and how each capability a
/// rule names is set in the capabilities type.
#[derive(Debug, Clone, PartialEq)]
pub struct CapabilityErrorBuild {
    /// The response, from the id, the message and the required capabilities.
    pub response: ErrorBuild,
    /// The capabilities type.
    pub capabilities: RustName,
    /// For each capability the rules name (dotted), the members to fill in, outermost first.
    pub requires: Vec<(String, Vec<Step>)>,
}

/// One step into a capabilities value.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// An optional member of a struct, filled with its default when unset.
    Member(RustName),
    /// A key of a map, filled with the default value when missing.
    Key(String),
    /// The last step: a key of any JSON object, set to an empty object when missing.
    ObjectKey(String),
}

/// The members a retry rewrites.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryRole {
    /// The request id field.
    pub id: RustName,
    /// The request id's type.
    pub id_ty: Ty,
    /// The params field.
    pub params: RustName,
    /// The params' field of input responses.
    pub responses: RustName,
    /// The params' field of the request state.
    pub state: RustName,
}

/// A notification type.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationRole {
    /// The notification type.
    pub ty: RustName,
    /// The method name.
    pub method: String,
    /// The type of its parameters (`()` when it has none).
    pub params: Ty,
}

/// The types of multi round-trip requests and the capability rules of input requests.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRole {
    /// The input-required result type.
    pub result: RustName,
    /// Its field of input requests (a map of [`InputRole::request`]).
    pub requests_field: RustName,
    /// Its field of the request state.
    pub state_field: RustName,
    /// The request state's type.
    pub state_ty: Ty,
    /// The union of input requests.
    pub request: RustName,
    /// The union of input responses.
    pub response: RustName,
    /// The client capabilities type.
    pub capabilities: RustName,
    /// Each request variant: its method, and the response variant (with its type) that
    /// answers it, where one does.
    pub kinds: Vec<InputKind>,
    /// Every response variant and its type name.
    pub responses: Vec<(RustName, RustName)>,
    /// The error response for a missing capability, built from its parts.
    pub capability_error: Option<CapabilityErrorBuild>,
    /// The capability rules, in order.
    pub rules: Vec<CapabilityRule>,
    /// The name of the rules constant.
    pub rules_name: RustName,
    /// The rules constant's docs.
    pub rules_docs: String,
    /// The name of the capability-checked builder.
    pub builder_name: RustName,
    /// The builder's docs.
    pub builder_docs: String,
}

/// One kind of input request.
#[derive(Debug, Clone, PartialEq)]
pub struct InputKind {
    /// The request variant.
    pub variant: RustName,
    /// Its method.
    pub method: String,
    /// The type name of the response that answers it, where the schema pairs one.
    pub answer: Option<RustName>,
}

/// One capability rule (see `mcp_runtime::capability::Rule`).
#[derive(Debug, Clone, PartialEq)]
pub struct CapabilityRule {
    /// The input request's method.
    pub method: String,
    /// When it applies.
    pub when: When,
    /// The capability needed, dotted.
    pub needs: String,
    /// A capability that, declared as an empty object, also satisfies the rule.
    pub or_empty: Option<String>,
    /// Whether it is a SHOULD rule (else MUST).
    pub should: bool,
    /// Why, for the docs.
    pub why: String,
}

/// When a capability rule applies.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// Always.
    Always,
    /// The member at the pointer is one of the values (`None`: missing).
    OneOf(String, Vec<Option<String>>),
    /// Any of the members at the pointers is present.
    AnyPresent(Vec<String>),
}

/// A field or alias type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ty {
    /// A generated type.
    Named(RustName),
    /// A type outside the generated module, by full path (e.g. `::mcp_runtime::ResultType`).
    Path(RustPath),
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// `i64`.
    I64,
    /// `u64` (integers with `minimum >= 0`).
    U64,
    /// `f64`.
    F64,
    /// Any JSON value.
    Value,
    /// Any JSON value, kept as its text (the runtime's raw JSON type).
    Raw,
    /// Any JSON object.
    Object,
    /// `()` for `type: null`.
    Unit,
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`.
    Map(Box<Ty>),
    /// `Box<T>`: breaks a recursive containment, or keeps a large member out of its holder.
    Boxed(Box<Ty>),
}

impl std::ops::Deref for Types {
    type Target = BTreeMap<RustName, TypeDef>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Types {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl FromIterator<(RustName, TypeDef)> for Types {
    fn from_iter<I: IntoIterator<Item = (RustName, TypeDef)>>(iter: I) -> Self {
        Types(iter.into_iter().collect())
    }
}

impl<'t> IntoIterator for &'t Types {
    type Item = (&'t RustName, &'t TypeDef);
    type IntoIter = std::collections::btree_map::Iter<'t, RustName, TypeDef>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Types {
    /// The struct named `name`, if it is one.
    pub fn structure(&self, name: &RustName) -> Option<&Struct> {
        match &self.get(name)?.kind {
            Kind::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The type `ty` stands for, aliases followed (a cycle of aliases stops where it began).
    pub fn resolve<'t>(&'t self, mut ty: &'t Ty) -> &'t Ty {
        for _ in 0..self.len() + 1 {
            let Ty::Named(n) = ty else { return ty };
            match self.get(n).map(|d| &d.kind) {
                Some(Kind::Alias(target)) => ty = target,
                _ => return ty,
            }
        }
        ty
    }

    /// `ty` with every alias in it replaced by what it stands for, inside a `Vec`, map or
    /// `Box` too: the Rust type it is, whatever it is called.
    pub fn expand(&self, ty: &Ty) -> Ty {
        match self.resolve(ty) {
            Ty::Vec(inner) => Ty::Vec(Box::new(self.expand(inner))),
            Ty::Map(inner) => Ty::Map(Box::new(self.expand(inner))),
            Ty::Boxed(inner) => Ty::Boxed(Box::new(self.expand(inner))),
            other => other.clone(),
        }
    }

    /// `kind`'s structure: without its descriptions and notes, every alias in its members'
    /// and variants' types followed. Two items of the same structure are the same Rust type
    /// under two names.
    pub fn shape(&self, kind: &Kind) -> Kind {
        let mut kind = kind.clone();
        match &mut kind {
            Kind::Struct(s) => {
                s.notes.clear();
                s.fields.iter_mut().for_each(|f| {
                    f.docs = None;
                    f.ty = self.expand(&f.ty);
                });
                if let Some(ResultMode::Field(f)) = &mut s.result {
                    f.docs = None;
                }
            }
            Kind::Results(r) => {
                r.reading.clear();
                r.variants.iter_mut().for_each(|v| v.docs.clear());
            }
            Kind::Union(u) => u
                .variants
                .iter_mut()
                .for_each(|v| v.ty = self.expand(&v.ty)),
            Kind::Alias(t) => *t = self.expand(t),
            Kind::StringEnum(_) => {}
        }
        kind
    }

    /// Whether a value of `ty` can be read from JSON `null`: any JSON value, `()`, an alias of
    /// one, or a union with a variant for `null`. An optional member of such a type keeps a
    /// present `null` (`#[mcp(keep_null)]`) instead of reading it as missing.
    pub fn accepts_null(&self, ty: &Ty) -> bool {
        let mut seen = std::collections::BTreeSet::new();
        let mut ty = ty;
        loop {
            match ty {
                Ty::Value | Ty::Raw | Ty::Unit => return true,
                Ty::Boxed(inner) => ty = inner,
                Ty::Named(name) => {
                    if !seen.insert(name) {
                        return false;
                    }
                    match self.get(name).map(|d| &d.kind) {
                        Some(Kind::Alias(target)) => ty = target,
                        Some(Kind::Union(u)) => {
                            return u
                                .variants
                                .iter()
                                .any(|v| matches!(&v.select, Select::JsonType(t) if t == "null"));
                        }
                        _ => return false,
                    }
                }
                _ => return false,
            }
        }
    }
}

impl Kind {
    /// The generated types this definition names (its members', variants' and results' types).
    pub fn references(&self) -> Vec<&RustName> {
        let mut out = Vec::new();
        match self {
            Kind::Struct(s) => {
                let result = match &s.result {
                    Some(ResultMode::Field(f)) => Some(&f.ty),
                    _ => None,
                };
                for t in s.fields.iter().map(|f| &f.ty).chain(result) {
                    t.named(&mut out);
                }
            }
            Kind::Union(u) => u.variants.iter().for_each(|v| v.ty.named(&mut out)),
            Kind::Alias(t) => t.named(&mut out),
            Kind::Results(r) => {
                out.extend(r.variants.iter().map(|v| &v.ty));
                out.extend(&r.request);
            }
            Kind::StringEnum(_) => {}
        }
        out
    }
}

impl Ty {
    /// The generated types this one names (inside a Vec, map or Box too), into `out`.
    fn named<'t>(&'t self, out: &mut Vec<&'t RustName>) {
        match self {
            Ty::Named(n) => out.push(n),
            Ty::Vec(inner) | Ty::Map(inner) | Ty::Boxed(inner) => inner.named(out),
            _ => {}
        }
    }

    /// The generated types this one holds by value (not behind a Vec, map or Box).
    pub fn by_value(&self) -> Option<&RustName> {
        match self {
            Ty::Named(n) => Some(n),
            _ => None,
        }
    }

    /// The type a `Box` holds, or this type when it is not boxed: what a constructor takes
    /// and an accessor returns for a member of this type.
    pub fn unboxed(&self) -> &Ty {
        match self {
            Ty::Boxed(inner) => inner,
            t => t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust(name: &str) -> RustName {
        RustName::pascal(name)
    }

    fn def(name: &str, kind: Kind) -> (RustName, TypeDef) {
        let def = TypeDef {
            name: rust(name),
            pointer: format!("/$defs/{name}"),
            docs: None,
            kind,
        };
        (rust(name), def)
    }

    fn variant(name: &str, ty: Ty, json: &str) -> Variant {
        Variant {
            name: rust(name),
            ty,
            select: Select::JsonType(json.to_owned()),
        }
    }

    #[test]
    fn accepts_null_follows_aliases_and_json_type_unions() {
        let union = |with_null: bool| {
            let mut variants = vec![variant("String", Ty::String, "string")];
            if with_null {
                variants.push(variant("Null", Ty::Unit, "null"));
            }
            Kind::Union(Union {
                mode: UnionMode::JsonType,
                variants,
            })
        };
        let types: Types = [
            def("JSONValue", Kind::Alias(Ty::Value)),
            def("Again", Kind::Alias(Ty::Named(rust("JSONValue")))),
            def("Loop", Kind::Alias(Ty::Named(rust("Loop")))),
            def("Nullable", union(true)),
            def("NotNullable", union(false)),
            def("Object", Kind::Struct(Struct::default())),
        ]
        .into_iter()
        .collect();
        let named = |n: &str| Ty::Named(rust(n));
        for yes in [
            Ty::Value,
            Ty::Unit,
            named("JSONValue"),
            named("Again"),
            Ty::Boxed(Box::new(named("Nullable"))),
        ] {
            assert!(types.accepts_null(&yes), "{yes:?}");
        }
        for no in [
            Ty::String,
            Ty::Object,
            Ty::Vec(Box::new(Ty::Value)),
            named("Loop"),
            named("NotNullable"),
            named("Object"),
            named("Missing"),
        ] {
            assert!(!types.accepts_null(&no), "{no:?}");
        }
    }
}

/// A constant slice of plain data the generated code lists for the runtime to read (the era
/// facts of `schema/eras.json`): its item type is a runtime type, written by hand once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataTable {
    /// The constant's name (`METHOD_FACTS`).
    pub name: String,
    /// Its doc comment.
    pub doc: String,
    /// The item type's path from the crate root (`["mcp_runtime", "era", "MethodFact"]`).
    pub item: Vec<String>,
    /// The items, each a [`DataValue::Struct`] of the item type.
    pub rows: Vec<DataValue>,
}

/// A value of a [`DataTable`], built from literals, paths and struct expressions only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataValue {
    /// A `&'static str`.
    Str(String),
    /// An `i64`.
    Int(i64),
    /// A unit variant or a constant, by its path from the crate root.
    Path(Vec<String>),
    /// A tuple variant (or function) by its path, applied to its arguments.
    Call(Vec<String>, Vec<DataValue>),
    /// `Option::None`.
    None,
    /// `Option::Some` of the value.
    Some(Box<DataValue>),
    /// A struct expression: the type's path and each field's name and value.
    Struct(Vec<String>, Vec<(String, DataValue)>),
}
