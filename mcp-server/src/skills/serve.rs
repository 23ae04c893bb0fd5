//! A [`Catalog`] served: the extension's three methods (`skills/list`, `skills/get`,
//! `resources/directory/read`), its declaration in the server's capabilities, and its files
//! as resources, for the generated module bound by [`bind_skills!`](crate::bind_skills).
//!
//! [`Served::skills`](crate::Served::skills) serves a catalog this way; a server with its own
//! [`Service`](crate::Service) calls [`Skills`] from its `extension_methods`, `extension`,
//! `resources/list` and `resources/read`.

use std::sync::Arc;

use mcp_runtime::RpcError;
use mcp_runtime::error_code::INVALID_PARAMS;

use super::{Catalog, Child, DirectoryError, File, Page, SkillEntry};
use crate::Method;

/// Skills per `skills/list` page: small, so that a client's pagination is exercised by a few
/// skills.
pub const SKILLS_PER_PAGE: usize = 2;
/// Children per `resources/directory/read` page.
pub const CHILDREN_PER_PAGE: usize = 100;
/// How long a client may keep a listing, an entry or a file (a catalog is read once).
pub const TTL_MS: u64 = 60_000;

/// What serving skills needs of a generated module generated with the skills extension
/// (`Builder::extension("io.modelcontextprotocol/skills")`): implemented by
/// [`bind_skills!`](crate::bind_skills) with the module's own types and method names.
pub trait SkillTypes {
    /// The server capabilities, where the extension is declared.
    type Capabilities;
    /// A listed resource (`Resource`).
    type Resource;
    /// The result of `resources/read` (`ReadResourceResult`).
    type ReadResult;

    /// The extension's methods and the member each one's `Mcp-Name` mirrors (from the
    /// generated requests' `METHOD` and `MCP_NAME`: none, as the extension names none).
    const METHODS: &'static [Method];

    /// The response (JSON text) to the request of `method` (one of [`SkillTypes::METHODS`]),
    /// of which `body` is the whole message, from `catalog`; or the error to refuse it with.
    fn answer(catalog: &Catalog, method: &str, body: &[u8]) -> Result<String, RpcError>;

    /// A skill file as a listed resource: a `SKILL.md` named and described from its
    /// frontmatter.
    fn resource(file: &File) -> Self::Resource;

    /// A skill file's contents as the result of `resources/read`: text when it is UTF-8,
    /// else a blob.
    fn read(file: &File) -> Self::ReadResult;

    /// Declares the extension in `capabilities`, with `directoryRead` (the catalog answers
    /// `resources/directory/read`).
    fn declare(capabilities: &mut Self::Capabilities);
}

/// A catalog served for the module bound as `S`.
pub struct Skills<S: SkillTypes> {
    catalog: Arc<Catalog>,
    _module: std::marker::PhantomData<fn() -> S>,
}

impl<S: SkillTypes> Clone for Skills<S> {
    fn clone(&self) -> Self {
        Skills {
            catalog: Arc::clone(&self.catalog),
            _module: std::marker::PhantomData,
        }
    }
}

impl<S: SkillTypes> Skills<S> {
    /// `catalog`, served.
    pub fn new(catalog: impl Into<Arc<Catalog>>) -> Self {
        Skills {
            catalog: catalog.into(),
            _module: std::marker::PhantomData,
        }
    }

    /// The catalog served.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The extension's methods, for [`Service::extension_methods`](crate::Service::extension_methods).
    pub fn methods(&self) -> &'static [Method] {
        S::METHODS
    }

    /// Whether `method` is one of the extension's.
    pub fn serves(&self, method: &str) -> bool {
        S::METHODS.iter().any(|(m, _)| *m == method)
    }

    /// The response (JSON text) to a request of the extension's `method` (whole message
    /// `body`), or its error: `-32602` for params that are not the method's, an unknown skill
    /// or directory, or a cursor this catalog did not give.
    pub fn answer(&self, method: &str, body: &[u8]) -> Result<String, RpcError> {
        S::answer(&self.catalog, method, body)
    }

    /// Every skill file as a listed resource.
    pub fn resources(&self) -> Vec<S::Resource> {
        self.catalog.resources().map(S::resource).collect()
    }

    /// The `resources/read` result of the skill file at `uri`, if the catalog has one.
    pub fn read(&self, uri: &str) -> Option<S::ReadResult> {
        self.catalog.file(uri).map(S::read)
    }

    /// Declares the extension in `capabilities`.
    pub fn declare(&self, capabilities: &mut S::Capabilities) {
        S::declare(capabilities);
    }
}

/// `-32602` with `message`.
fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(INVALID_PARAMS, message.into())
}

/// The request's params could not be read as the method's: `-32602` saying why.
pub fn bad_params(error: impl std::fmt::Display) -> RpcError {
    invalid(format!("Invalid params: {error}"))
}

/// A page of `skills/list` after `cursor`, [`SKILLS_PER_PAGE`] entries long.
pub fn list_page<'c>(
    catalog: &'c Catalog,
    cursor: Option<&str>,
) -> Result<Page<&'c SkillEntry>, RpcError> {
    catalog.entries(cursor, SKILLS_PER_PAGE).map_err(bad_params)
}

/// The entry `skills/get` answers for the `SKILL.md` at `uri`; `-32602` naming `uri` when no
/// skill is served there.
pub fn entry<'c>(catalog: &'c Catalog, uri: &str) -> Result<&'c SkillEntry, RpcError> {
    catalog
        .get(uri)
        .ok_or_else(|| invalid(format!("No skill is served at {uri}")))
}

/// A page of the children of the directory at `uri` after `cursor`, [`CHILDREN_PER_PAGE`]
/// long; `-32602` naming `uri` when it is no directory of the catalog.
pub fn children(
    catalog: &Catalog,
    uri: &str,
    cursor: Option<&str>,
) -> Result<Page<Child>, RpcError> {
    catalog
        .directory(uri, cursor, CHILDREN_PER_PAGE)
        .map_err(|e| match e {
            DirectoryError::NotFound => invalid(format!("No directory is served at {uri}")),
            DirectoryError::NotADirectory => invalid(format!("{uri} is not a directory resource")),
            DirectoryError::BadCursor => bad_params(e),
        })
}

/// `-32601` for a method that is not the extension's (never called by the transports, which
/// dispatch only [`SkillTypes::METHODS`]).
pub fn not_a_method(method: &str) -> RpcError {
    RpcError::method_not_found(method)
}

/// Implements [`SkillTypes`](crate::skills::serve::SkillTypes) for the marker `$name` with the
/// types of the generated module `$m`, generated with the skills extension
/// (`Builder::extension("io.modelcontextprotocol/skills")`): its requests' `METHOD`s, its
/// `Skill`, `Resource` and `ReadResourceResult`, its `SkillsExtension` declared in
/// `ServerCapabilities` with `SkillsExtensionSettings::with_directory_read`.
#[macro_export]
macro_rules! bind_skills {
    ($name:ident = $($m:ident)::+) => {
        const _: () = {
            use $($m)::+::{self as m};
            use $crate::skills::serve as serve;

            /// A catalog entry as the generated `Skill`.
            fn skill(entry: &$crate::skills::SkillEntry) -> m::Skill {
                let files = entry
                    .files
                    .iter()
                    .map(|f| m::SkillResource::new(f.digest.clone(), f.size, f.uri.clone()))
                    .collect::<::std::vec::Vec<_>>();
                m::Skill::new(
                    entry.frontmatter.clone(),
                    m::SkillFiles::SkillFileList(files),
                    entry.uri.clone(),
                )
            }

            /// A directory's child as a resource (a subdirectory's MIME type is
            /// `inode/directory`).
            fn child(child: &$crate::skills::Child) -> m::Resource {
                let resource = m::Resource::new(child.name.clone(), child.uri.clone())
                    .with_mime_type(child.mime_type);
                match child.size {
                    ::core::option::Option::Some(size) => resource.with_size(size as i64),
                    ::core::option::Option::None => resource,
                }
            }

            use $crate::ctx::written;

            impl serve::SkillTypes for $name {
                type Capabilities = m::ServerCapabilities;
                type Resource = m::Resource;
                type ReadResult = m::ReadResourceResult;

                const METHODS: &'static [$crate::Method] = &[
                    $crate::Named::method::<m::ListSkillsRequest>(),
                    $crate::Named::method::<m::GetSkillRequest>(),
                    $crate::Named::method::<m::ReadResourceDirectoryRequest>(),
                ];

                fn answer(
                    catalog: &$crate::skills::Catalog,
                    method: &str,
                    body: &[u8],
                ) -> ::core::result::Result<::std::string::String, ::mcp_runtime::RpcError> {
                    if method == m::ListSkillsRequest::METHOD {
                        let r: m::ListSkillsRequest =
                            ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                        let page = serve::list_page(catalog, r.params.cursor.as_deref())?;
                        let skills = page.items.into_iter().map(skill).collect::<::std::vec::Vec<_>>();
                        let mut result =
                            m::ListSkillsResult::new(m::CacheScope::Public, skills, serve::TTL_MS);
                        result.next_cursor = page.next_cursor;
                        written(&r, result)
                    } else if method == m::GetSkillRequest::METHOD {
                        let r: m::GetSkillRequest =
                            ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                        let entry = serve::entry(catalog, &r.params.uri)?;
                        written(
                            &r,
                            m::GetSkillResult::new(m::CacheScope::Public, skill(entry), serve::TTL_MS),
                        )
                    } else if method == m::ReadResourceDirectoryRequest::METHOD {
                        let r: m::ReadResourceDirectoryRequest =
                            ::serde_json::from_slice(body).map_err(serve::bad_params)?;
                        let page = serve::children(catalog, &r.params.uri, r.params.cursor.as_deref())?;
                        let children = page.items.iter().map(child).collect::<::std::vec::Vec<_>>();
                        // Cache hints the specification does not define here but the
                        // TypeScript SDK requires.
                        let mut result = m::ReadResourceDirectoryResult::new(children)
                            .with_ttl_ms(serve::TTL_MS)
                            .with_cache_scope(m::CacheScope::Public);
                        result.next_cursor = page.next_cursor;
                        written(&r, result)
                    } else {
                        ::core::result::Result::Err(serve::not_a_method(method))
                    }
                }

                fn resource(file: &$crate::skills::File) -> m::Resource {
                    let resource = m::Resource::new(file.name.clone(), file.uri.clone())
                        .with_mime_type(file.mime_type)
                        .with_size(file.size() as i64);
                    match &file.skill {
                        ::core::option::Option::Some(summary) => m::Resource {
                            name: summary.name.clone(),
                            ..resource
                        }
                        .with_description(summary.description.clone()),
                        ::core::option::Option::None => resource,
                    }
                }

                fn read(file: &$crate::skills::File) -> m::ReadResourceResult {
                    let uri = file.uri.as_str();
                    let contents: m::EmbeddedResourceResource = match file.text() {
                        ::core::option::Option::Some(text) => m::TextResourceContents::new(text, uri)
                            .with_mime_type(file.mime_type)
                            .into(),
                        ::core::option::Option::None => {
                            m::BlobResourceContents::new($crate::skills::serve::base64(&file.bytes), uri)
                                .with_mime_type(file.mime_type)
                                .into()
                        }
                    };
                    m::ReadResourceResult::new(m::CacheScope::Public, ::std::vec![contents], serve::TTL_MS)
                }

                fn declare(capabilities: &mut m::ServerCapabilities) {
                    use ::mcp_runtime::extension::{Extension as _, ExtensionCapabilities as _};
                    let settings = m::SkillsExtensionSettings::new().with_directory_read(true);
                    let settings = match ::serde_json::to_value(settings) {
                        ::core::result::Result::Ok(::serde_json::Value::Object(object)) => {
                            object.into_iter().collect()
                        }
                        _ => ::core::default::Default::default(),
                    };
                    capabilities
                        .extensions_mut()
                        .insert(::std::string::ToString::to_string(m::SkillsExtension::ID), settings);
                }
            }
        };
    };
}

/// `bytes` in standard base64 (a blob's contents).
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A catalog as [`Served`](crate::Served) holds it: the module's functions for it, its
/// resource types those of the module's resources router (`R`, `O`), its capabilities `C`.
pub(crate) struct Hooks<R, O, C> {
    catalog: Arc<Catalog>,
    methods: &'static [Method],
    answer: fn(&Catalog, &str, &[u8]) -> Result<String, RpcError>,
    resource: fn(&File) -> R,
    read: fn(&File) -> O,
    declared: fn(&C) -> bool,
}

impl<R, O, C> Hooks<R, O, C> {
    /// `catalog`, served with the functions of `S`.
    pub(crate) fn of<S>(catalog: Arc<Catalog>) -> Self
    where
        S: SkillTypes<Resource = R, Capabilities = C>,
        S::ReadResult: Into<O>,
        C: mcp_runtime::extension::ExtensionCapabilities,
    {
        Hooks {
            catalog,
            methods: S::METHODS,
            answer: S::answer,
            resource: S::resource,
            read: read_into::<S, O>,
            declared: declares::<S, C>,
        }
    }

    /// The extension's methods.
    pub(crate) fn methods(&self) -> &'static [Method] {
        self.methods
    }

    /// The answer to the extension's `method`.
    pub(crate) fn answer(&self, method: &str, body: &[u8]) -> Result<String, RpcError> {
        (self.answer)(&self.catalog, method, body)
    }

    /// Every skill file as a listed resource.
    pub(crate) fn resources(&self) -> impl Iterator<Item = R> + '_ {
        self.catalog.resources().map(self.resource)
    }

    /// The read of the skill file at `uri`, if the catalog has one.
    pub(crate) fn read(&self, uri: &str) -> Option<O> {
        self.catalog.file(uri).map(self.read)
    }

    /// Whether `capabilities` declare the extension.
    pub(crate) fn declared(&self, capabilities: &C) -> bool {
        (self.declared)(capabilities)
    }
}

/// [`SkillTypes::read`] converted into `O` (the module's `ReadResourceOutcome`).
fn read_into<S: SkillTypes, O>(file: &File) -> O
where
    S::ReadResult: Into<O>,
{
    S::read(file).into()
}

/// Whether `capabilities` declare the skills extension: whether [`SkillTypes::declare`]
/// finds it there already.
fn declares<S, C>(capabilities: &C) -> bool
where
    S: SkillTypes<Capabilities = C>,
    C: mcp_runtime::extension::ExtensionCapabilities,
{
    let mut declared = C::default();
    S::declare(&mut declared);
    let ids = declared.extensions().into_iter().flat_map(|e| e.keys());
    ids.into_iter().all(|id| {
        capabilities
            .extensions()
            .is_some_and(|there| there.contains_key(id))
    })
}
