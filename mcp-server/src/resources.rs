//! Resources without boilerplate: a [`Resources`] router that answers `resources/list` and
//! `resources/templates/list` and dispatches `resources/read` by URI to plain `async`
//! functions: a resource of one URI, or a template (`file:///{path}`) whose variables the
//! function is handed. A URI no resource or template matches is the protocol error the
//! revision names for an unknown resource (`-32602` in 2026-07-28; a legacy session gets
//! `-32002`, through the era facts).
//!
//! A URI longer than a bound ([`MAX_URI_BYTES`] unless [`Resources::read_within`] is given
//! another, such as [`Config::max_uri_bytes`](crate::Config::max_uri_bytes)) is refused with
//! `-32602` naming the bound before it is looked up or matched; a template is matched in time
//! linear in the URI's length ([`crate::uri_template`]).
//!
//! [`Served::resources`](crate::Served::resources) puts a router in front of a server's
//! `resources/list`, `resources/templates/list` and `resources/read` (and advertises the
//! `resources` capability).
//!
//! ```
//! use mcp_server::resources::{Entry, Read, Resources};
//! use mcp_tests::eras as mcp;
//!
//! mcp_server::bind!(pub Mcp = mcp, legacy = mcp::v2025_11_25);
//! mcp_server::bind_server!(Mcp = mcp);
//!
//! let readme = Entry::new("docs://readme", "readme").mime_type("text/markdown");
//! let page = Entry::new("docs://pages/{+path}", "page").description("A page of the docs");
//! let resources = Resources::<Mcp, mcp_server::Ctx<Mcp>>::new()
//!     .add(readme, async |_: Read<Mcp, _>| Ok("# Read me"))?
//!     .template(page, async |read: Read<Mcp, _>| Ok(format!("page {}", read.vars["path"])))?;
//! let info = mcp::Implementation::new("docs", "1.0.0");
//! let _served = mcp_server::Served::<Mcp, _>::new((), info).resources(resources); // advertises `resources`
//! # Ok::<(), mcp_server::resources::ResourceError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use mcp_runtime::RpcError;

use crate::LegacySchema;
use crate::routers::{ByName, WithState};
use crate::uri_template::{Template, TemplateError};

/// What the router needs of the generated module: implemented by
/// [`bind_server!`](crate::bind_server).
pub trait ResourceTypes: LegacySchema {
    /// A resource as `resources/list` lists it (`Resource`).
    type Resource: Clone + Send + Sync + 'static;
    /// A template as `resources/templates/list` lists it (`ResourceTemplate`).
    type Template: Clone + Send + Sync + 'static;
    /// The params of `resources/read` (`ReadResourceRequestParams`).
    type ReadParams: Clone + Send + Sync + 'static;
    /// What `resources/read` answers (`ReadResourceOutcome`).
    type ReadOutcome: Send + 'static;
    /// What `resources/list` answers (`ListResourcesResult`).
    type ListResult: Send + 'static;
    /// What `resources/templates/list` answers (`ListResourceTemplatesResult`).
    type TemplatesResult: Send + 'static;

    /// The resource `entry` (its `uri` a URI), or why it cannot be one.
    fn resource(entry: &Entry) -> Result<Self::Resource, String>;
    /// The template `entry` (its `uri` a URI template), or why it cannot be one.
    fn template(entry: &Entry) -> Result<Self::Template, String>;
    /// The URI `params` read.
    fn uri(params: &Self::ReadParams) -> &str;
    /// A result of one text content: `text` at `uri`, of type `mime_type`.
    fn text_outcome(uri: &str, mime_type: Option<&str>, text: String) -> Self::ReadOutcome;
    /// The list of `resources`.
    fn list_result(resources: Vec<Self::Resource>) -> Self::ListResult;
    /// The list of `templates`.
    fn templates_result(templates: Vec<Self::Template>) -> Self::TemplatesResult;
    /// `capabilities` with the `resources` capability added; whether they had it already.
    fn advertise_resources(capabilities: &mut Self::ServerCapabilities) -> bool;
}

/// What is listed of a resource or a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its URI, or URI template.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// What it holds.
    pub description: Option<String>,
    /// Its media type.
    pub mime_type: Option<String>,
}

impl Entry {
    /// The resource (or template) `uri` named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Entry {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
        }
    }

    /// With `description`.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// With the media type `mime_type`.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// What a resource function may answer: a text (`String`, `&'static str`: one text content at
/// the URI read, of the entry's media type, with the cache hints that promise nothing: `ttlMs`
/// 0 and `cacheScope` `private`), or the generated `ReadResourceResult` / `ReadResourceOutcome`
/// (implemented by [`bind_server!`](crate::bind_server)), whose `new` takes the hints.
pub trait ResourceOutput<S: ResourceTypes> {
    /// The answer as the outcome of `resources/read` of `uri`, listed with `mime_type`.
    fn into_outcome(self, uri: &str, mime_type: Option<&str>) -> S::ReadOutcome;
}

impl<S: ResourceTypes> ResourceOutput<S> for String {
    fn into_outcome(self, uri: &str, mime_type: Option<&str>) -> S::ReadOutcome {
        S::text_outcome(uri, mime_type, self)
    }
}

impl<S: ResourceTypes> ResourceOutput<S> for &'static str {
    fn into_outcome(self, uri: &str, mime_type: Option<&str>) -> S::ReadOutcome {
        S::text_outcome(uri, mime_type, self.to_owned())
    }
}

/// One read: the context of the request, the URI, the template's variables (none for a
/// resource of one URI), and the request's params.
pub struct Read<S: ResourceTypes, C> {
    /// The context the transport handed the request.
    pub ctx: C,
    /// The variables of the template the URI matched, by name.
    pub vars: BTreeMap<String, String>,
    /// The request's params (the URI, input responses and request state).
    pub params: S::ReadParams,
}

impl<S: ResourceTypes, C> Read<S, C> {
    /// The URI read.
    pub fn uri(&self) -> &str {
        S::uri(&self.params)
    }
}

/// The longest URI [`Resources::read`] matches, in bytes (8 KiB): the default of
/// [`Config::max_uri_bytes`](crate::Config::max_uri_bytes).
pub const MAX_URI_BYTES: usize = 8 * 1024;

type Answer<S> = Result<<S as ResourceTypes>::ReadOutcome, RpcError>;
type Handler<S, C> =
    Arc<dyn Fn(Read<S, C>) -> Pin<Box<dyn Future<Output = Answer<S>> + Send>> + Send + Sync>;

/// Resources by URI and templates in the order they were added, each read by a function.
pub struct Resources<S: ResourceTypes, C> {
    by_uri: ByName<S::Resource, Handler<S, C>>,
    templates: Vec<(Template, S::Template, Handler<S, C>)>,
}

/// A resource or template that cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResourceError {
    /// Two resources of one URI, or two templates of one URI template.
    #[error("{0:?} added twice")]
    Duplicate(String),
    /// A URI template this router cannot match.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The entry is not a valid resource or template.
    #[error("{uri:?}: {why}")]
    Invalid {
        /// The URI or URI template.
        uri: String,
        /// What is wrong.
        why: String,
    },
}

impl<S: ResourceTypes, C: Send + 'static> Default for Resources<S, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: ResourceTypes, C: Send + 'static> Resources<S, C> {
    /// No resources yet.
    pub fn new() -> Self {
        Resources {
            by_uri: ByName::new(),
            templates: Vec::new(),
        }
    }

    /// Adds the resource `entry` (its `uri` a URI), read by `function`.
    pub fn add<F, Fut, O>(mut self, entry: Entry, function: F) -> Result<Self, ResourceError>
    where
        F: Fn(Read<S, C>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
        O: ResourceOutput<S>,
    {
        if self.by_uri.contains(&entry.uri) {
            return Err(ResourceError::Duplicate(entry.uri));
        }
        let resource = S::resource(&entry).map_err(|why| invalid(&entry, why))?;
        let uri = entry.uri.clone();
        self.by_uri.insert(&uri, resource, handler(entry, function));
        Ok(self)
    }

    /// Adds the template `entry` (its `uri` a URI template of `{name}` and `{+name}`
    /// variables), whose matching URIs `function` reads.
    pub fn template<F, Fut, O>(mut self, entry: Entry, function: F) -> Result<Self, ResourceError>
    where
        F: Fn(Read<S, C>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
        O: ResourceOutput<S>,
    {
        if self.templates.iter().any(|(t, ..)| t.text() == entry.uri) {
            return Err(ResourceError::Duplicate(entry.uri));
        }
        let parsed = Template::parse(&entry.uri)?;
        let listed = S::template(&entry).map_err(|why| invalid(&entry, why))?;
        self.templates
            .push((parsed, listed, handler(entry, function)));
        Ok(self)
    }

    /// Whether there are no resources and no templates.
    pub fn is_empty(&self) -> bool {
        self.by_uri.is_empty() && self.templates.is_empty()
    }

    /// Every resource of one URI, as `resources/list` lists them.
    pub fn listed(&self) -> Vec<S::Resource> {
        self.by_uri.listed()
    }

    /// `resources/list`: every resource of one URI.
    pub fn list(&self) -> S::ListResult {
        S::list_result(self.by_uri.listed())
    }

    /// `resources/templates/list`: every template.
    pub fn list_templates(&self) -> S::TemplatesResult {
        S::templates_result(self.templates.iter().map(|(_, t, _)| t.clone()).collect())
    }

    /// `resources/read`: the resource of the URI `params` read, else the first template it
    /// matches; else the unknown-resource error. A URI longer than [`MAX_URI_BYTES`] is
    /// refused ([`Resources::read_within`]).
    pub fn read(
        &self,
        ctx: C,
        params: &S::ReadParams,
    ) -> impl Future<Output = Answer<S>> + Send + use<S, C> {
        self.read_within(MAX_URI_BYTES, ctx, params)
    }

    /// [`Resources::read`] of URIs up to `max_uri_bytes` long: a longer one is refused with
    /// invalid params (`-32602`) naming the bound, before it is looked up or matched.
    pub fn read_within(
        &self,
        max_uri_bytes: usize,
        ctx: C,
        params: &S::ReadParams,
    ) -> impl Future<Output = Answer<S>> + Send + use<S, C> {
        let uri = S::uri(params);
        let too_long = (uri.len() > max_uri_bytes).then(|| over_bound(uri.len(), max_uri_bytes));
        let found = match too_long {
            Some(_) => None,
            None => self.find(uri),
        };
        let read = found.map(|(handler, vars)| {
            handler(Read {
                ctx,
                vars,
                params: params.clone(),
            })
        });
        let refused = too_long.unwrap_or_else(|| not_found(uri));
        async move {
            match read {
                Some(read) => read.await,
                None => Err(refused),
            }
        }
    }
}

impl<S: ResourceTypes, C> Resources<S, C> {
    /// Whether `uri` is read here: a resource of that URI, or a URI a template matches.
    pub fn serves(&self, uri: &str) -> bool {
        self.by_uri.contains(uri)
            || self
                .templates
                .iter()
                .any(|(t, ..)| t.matches(uri).is_some())
    }

    /// The handler of `uri` and the variables it is handed: the resource of that URI, else
    /// the first template it matches.
    fn find(&self, uri: &str) -> Option<(Handler<S, C>, BTreeMap<String, String>)> {
        match self.by_uri.get(uri) {
            Some(handler) => Some((Arc::clone(handler), BTreeMap::new())),
            None => self.templates.iter().find_map(|(template, _, handler)| {
                template
                    .matches(uri)
                    .map(|vars| (Arc::clone(handler), vars))
            }),
        }
    }
}

impl<S, C, T> Resources<S, WithState<C, T>>
where
    S: ResourceTypes,
    C: 'static,
    T: Clone + Send + Sync + 'static,
{
    /// The router with `state` handed to every read function (in its context,
    /// [`WithState::state`]), as [`Tools::with_state`](crate::tools::Tools::with_state).
    pub fn with_state(self, state: T) -> Resources<S, C> {
        let wrap = |handler: Handler<S, WithState<C, T>>| -> Handler<S, C> {
            let state = state.clone();
            Arc::new(move |read: Read<S, C>| {
                handler(Read {
                    ctx: WithState {
                        ctx: read.ctx,
                        state: state.clone(),
                    },
                    vars: read.vars,
                    params: read.params,
                })
            })
        };
        Resources {
            by_uri: self.by_uri.map_handlers(&wrap),
            templates: self
                .templates
                .into_iter()
                .map(|(template, listed, handler)| (template, listed, wrap(handler)))
                .collect(),
        }
    }
}

impl<S: ResourceTypes, C> fmt::Debug for Resources<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let templates: Vec<&str> = self.templates.iter().map(|(t, ..)| t.text()).collect();
        f.debug_struct("Resources")
            .field("uris", &self.by_uri)
            .field("templates", &templates)
            .finish()
    }
}

/// The unknown-resource error for `uri`: invalid params, known to mean an unknown resource so
/// that a legacy edge recodes it (`mcp_runtime::era::RESOURCE_NOT_FOUND`).
fn not_found(uri: &str) -> RpcError {
    RpcError::invalid_params(format!("Resource not found: {uri}"))
        .means(mcp_runtime::era::RESOURCE_NOT_FOUND)
        .with_data(serde_json::json!({ "uri": uri }))
}

/// The error for a URI of `len` bytes, over the bound of `max` (the URI itself is not echoed).
fn over_bound(len: usize, max: usize) -> RpcError {
    RpcError::invalid_params(format!(
        "the URI is {len} bytes long, over the bound of {max} bytes (max_uri_bytes)"
    ))
    .with_data(serde_json::json!({ "uriBytes": len, "maxUriBytes": max }))
}

fn invalid(entry: &Entry, why: String) -> ResourceError {
    ResourceError::Invalid {
        uri: entry.uri.clone(),
        why,
    }
}

/// `function` as a handler answering for `entry`.
fn handler<S, C, F, Fut, O>(entry: Entry, function: F) -> Handler<S, C>
where
    S: ResourceTypes,
    C: Send + 'static,
    F: Fn(Read<S, C>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, RpcError>> + Send + 'static,
    O: ResourceOutput<S>,
{
    let function = Arc::new(function);
    let mime_type: Option<Arc<str>> = entry.mime_type.map(Arc::from);
    Arc::new(move |read: Read<S, C>| {
        let function = Arc::clone(&function);
        let mime_type = mime_type.clone();
        Box::pin(async move {
            let uri = read.uri().to_owned();
            let answered = function(read).await?;
            Ok(answered.into_outcome(&uri, mime_type.as_deref()))
        })
    })
}

#[cfg(test)]
mod tests {
    use mcp_runtime::error_code::INVALID_PARAMS;
    use serde_json::json;

    use super::*;
    use crate::test_support::eras::{Eras, mcp};

    crate::bind_server!(Eras = crate::test_support::eras::mcp);

    fn params(uri: &str) -> mcp::ReadResourceRequestParams {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}});
        serde_json::from_value(json!({ "uri": uri, "_meta": meta })).unwrap()
    }

    /// A router of `x://{+a}/{+b}.json`, answering with its variables.
    fn pages() -> Resources<Eras, ()> {
        let entry = Entry::new("x://{+a}/{+b}.json", "page");
        Resources::new()
            .template(entry, async |read: Read<Eras, ()>| {
                Ok(format!("{} {}", read.vars["a"].len(), read.vars["b"]))
            })
            .unwrap()
    }

    /// A URI of the template, `len` bytes long, of slashes between its two variables.
    fn uri_of(len: usize) -> String {
        let slashes = len - "x://a".len() - "b.json".len();
        format!("x://a{}b.json", "/".repeat(slashes))
    }

    #[tokio::test]
    async fn a_uri_up_to_the_bound_is_matched() {
        let uri = uri_of(MAX_URI_BYTES);
        assert_eq!(uri.len(), MAX_URI_BYTES);
        let read = pages().read((), &params(&uri)).await;
        assert!(read.is_ok(), "{:?}", read.err());
    }

    #[tokio::test]
    async fn a_uri_over_the_bound_is_refused_naming_it_before_any_matching() {
        let resources = pages();
        let uri = uri_of(MAX_URI_BYTES + 1);
        let error = resources.read((), &params(&uri)).await.err().unwrap();
        assert_eq!(error.code, INVALID_PARAMS);
        assert!(error.message.contains("8192 bytes"), "{}", error.message);
        assert!(error.message.contains("max_uri_bytes"), "{}", error.message);
        assert!(!error.message.contains("x://"), "the URI is not echoed");

        let error = resources
            .read_within(64, (), &params(&uri_of(65)))
            .await
            .err()
            .unwrap();
        assert_eq!(error.code, INVALID_PARAMS);
        assert!(
            error.message.contains("bound of 64 bytes"),
            "{}",
            error.message
        );
        assert!(
            resources
                .read_within(64, (), &params(&uri_of(64)))
                .await
                .is_ok()
        );
    }
}
