//! The build-script entry point: a prost-build-style `Builder` that runs every stage and
//! writes the output only when it changed.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::emit::{EmitOptions, emit};
use crate::error::{Error, SchemaError};
use crate::input::extensions::{Enabled, ExtensionDef};
use crate::input::load::{self, Source};
use crate::input::overlay::Overlay;
use crate::join::side_by_side;
use crate::model::ir::{Lowered, MessageKind, Methods, Module};
use crate::model::pointer;
use crate::output::Generated;
use crate::output::file::{format_file, holds_exactly, same_file};
use crate::passes::def_names::DefNames;
use crate::passes::lower::{Lowerer, Options};
use crate::passes::precompile;
use crate::passes::{cycles, layout, same_shapes, sizes};
use crate::rules::protocol::Protocol;
use crate::rules::{client, markers, overview, roles, service};

/// Configures and runs the generator.
///
/// ```no_run
/// let code = mcp_codegen::Builder::new()
///     .schema("schema.json")
///     .revision("2026-07-28")
///     .generate_string()
///     .unwrap();
/// assert!(code.text.contains("pub struct CallToolRequest"));
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    /// One schema per revision (two: both generated side by side, see `crate::join::side_by_side`).
    schemas: Vec<Source>,
    revision: Option<String>,
    overlay: Option<PathBuf>,
    extensions: Vec<String>,
    lossless: bool,
    raw_json: bool,
    json_schema: bool,
    precompile: bool,
    server: bool,
    client: bool,
    cargo: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder with the defaults: lossless types, no `JsonSchema` derives, the built-in
    /// overlay of the schema's revision.
    pub fn new() -> Self {
        Builder {
            schemas: Vec::new(),
            revision: None,
            overlay: None,
            extensions: Vec::new(),
            lossless: true,
            raw_json: false,
            json_schema: false,
            precompile: false,
            server: false,
            client: false,
            cargo: std::env::var_os("CARGO").is_some() && std::env::var_os("OUT_DIR").is_some(),
        }
    }

    /// The schema.json to read. A relative path is resolved from the current directory
    /// (in a build script: the package's root).
    ///
    /// Each call adds a revision: with two (a legacy and a modern one, e.g. 2025-11-25 and
    /// 2026-07-28) the output holds a module per revision (`v2025_11_25`, `v2026_07_28`), the
    /// types identical in both defined once and reachable under both paths, and `From` or
    /// `TryFrom` in each direction for every other type name both define. Each revision is
    /// then recognised from its schema's content or folder ([`Builder::revision`] and
    /// [`Builder::overlay`] name one schema's).
    pub fn schema(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.schemas.push(Source::File(path.as_ref().to_owned()));
        self
    }

    /// The schema's text, from memory (errors name it `<memory>`; no rerun-if-changed line
    /// is printed for it). The revision is recognised by its SHA-256, else give
    /// [`Builder::revision`].
    ///
    /// ```
    /// let schema = r#"{"$defs": {"Ping": {"type": "object", "properties": {"n": {"type": "integer"}}}}}"#;
    /// let code = mcp_codegen::Builder::new().schema_str(schema).generate_string().unwrap();
    /// assert!(code.text.contains("pub struct Ping"));
    /// ```
    pub fn schema_str(&mut self, text: &str) -> &mut Self {
        self.schema_bytes(text.as_bytes())
    }

    /// The schema's bytes, from memory (see [`Builder::schema_str`]).
    pub fn schema_bytes(&mut self, bytes: impl Into<Vec<u8>>) -> &mut Self {
        self.schemas.push(Source::Memory {
            name: PathBuf::from("<memory>"),
            bytes: bytes.into(),
        });
        self
    }

    /// The protocol revision (e.g. `"2026-07-28"`), which picks the built-in overlay (a
    /// revision without one is an error that lists the known ones). By default it is
    /// recognised from the schema's content (the file's SHA-256, then a fingerprint of the
    /// parsed document that formatting and line endings do not change), then from the name of
    /// the folder that holds it.
    pub fn revision(&mut self, revision: impl Into<String>) -> &mut Self {
        self.revision = Some(revision.into());
        self
    }

    /// An overlay file to use instead of the built-in one.
    pub fn overlay(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.overlay = Some(path.as_ref().to_owned());
        self
    }

    /// Enables a protocol extension by its identifier (e.g. `"io.modelcontextprotocol/tasks"`,
    /// SEP-2663): its definitions (written from its specification, in `schema/extensions/`)
    /// are generated with the schema's, its `resultType` values join the outcomes of the
    /// requests it extends (read only where the client advertised it), and a marker type
    /// implements `mcp_runtime::extension::Extension`. An unknown identifier is an error that
    /// lists the known ones, as is an extension not defined for the schema's revision.
    /// Without any, the output is that of the revision alone.
    ///
    /// ```no_run
    /// // build.rs
    /// let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap());
    /// mcp_codegen::Builder::new()
    ///     .schema("schema/2026-07-28/schema.json")
    ///     .extension("io.modelcontextprotocol/tasks")
    ///     .generate(out.join("mcp.rs"))
    ///     .unwrap();
    /// ```
    ///
    /// ```
    /// let unknown = mcp_codegen::Builder::new()
    ///     .schema_str(r#"{"$defs": {}}"#)
    ///     .extension("com.example/nope")
    ///     .generate_string()
    ///     .unwrap_err();
    /// assert!(unknown.to_string().contains("unknown extension \"com.example/nope\""));
    /// ```
    pub fn extension(&mut self, id: impl Into<String>) -> &mut Self {
        let id = id.into();
        if !self.extensions.contains(&id) {
            self.extensions.push(id);
        }
        self
    }

    /// Whether types keep members they do not declare (default `true`). With `false`,
    /// unknown members are skipped when reading.
    pub fn lossless(&mut self, on: bool) -> &mut Self {
        self.lossless = on;
        self
    }

    /// Whether members holding JSON that the protocol does not interpret (any JSON value; an
    /// open object such as a tool's `inputSchema` or call `arguments`) are read as
    /// `mcp_runtime::RawJson`, their text kept as is, instead of `serde_json::Value` trees
    /// and typed structs (default `false`). For gateways, proxies and registries that pass
    /// them through; the README lists the members it selects. The generated code needs
    /// `mcp-runtime`'s feature `raw_json`.
    pub fn raw_json(&mut self, on: bool) -> &mut Self {
        self.raw_json = on;
        self
    }

    /// Also derive `schemars::JsonSchema` (the consuming crate then needs `schemars` 1.x and
    /// `mcp-runtime`'s `schemars` feature). The schemas describe the wire: JSON names, constants
    /// and fixed `resultType`s as `const` (required as they are when read), at-least-one-of
    /// rules as an `anyOf` of `required` sets, unions as an `anyOf` of their variants, and the
    /// schema's descriptions as plain text.
    pub fn json_schema(&mut self, on: bool) -> &mut Self {
        self.json_schema = on;
        self
    }

    /// Whether the messages' JSON readers are compiled with the generated module (default
    /// `false`). With `true`, every message type (requests, their responses, notifications,
    /// the error response, the unions of them, the union of every message) implements
    /// `mcp_runtime::Wire` with a reader that is not generic: a crate that depends on the
    /// crate holding the module reads a message with `CallToolResultResponse::from_json_str(text)`
    /// without compiling its reader again, which is what a release rebuild of that crate
    /// spends most of its time on (BENCHMARKS.md, section 11); writing (`.to_json_string()`)
    /// stays `serde_json`'s, compiled where it is called. The module's own crate then
    /// compiles the readers once: worth it when the module has a crate of its own, as in the
    /// README's Quickstart.
    pub fn precompile(&mut self, on: bool) -> &mut Self {
        self.precompile = on;
        self
    }

    /// Whether to write the service trait (default `false`): `Server<C>`, one `async` method
    /// per request a client sends (`call_tool`, `list_tools`, ...), each taking the request's
    /// params and a context `C` of the transport's and returning the request's result or a
    /// JSON-RPC error (`mcp_runtime::Response`), by default that the method is not found; and
    /// `serve`, which dispatches a `ClientRequest` to its method (`mcp-server` serves any
    /// implementation over both transports). With two schemas, the newer revision's only.
    pub fn server(&mut self, on: bool) -> &mut Self {
        self.server = on;
        self
    }

    /// Whether to write the client trait (default `false`): `Client`, one `async` method per
    /// request a client sends (`call_tool`, `list_tools`, ...), each taking the request's
    /// params and ending with its complete result (after any `input_required` rounds), for
    /// every sender of requests (`mcp_runtime::client::Calls`, which `mcp_client::Client`
    /// implements). With two schemas, the newer revision's only.
    pub fn client(&mut self, on: bool) -> &mut Self {
        self.client = on;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines (default: when run by cargo in a build
    /// script).
    pub fn cargo_metadata(&mut self, on: bool) -> &mut Self {
        self.cargo = on;
        self
    }

    /// Generates the code and writes it to `out`, unless `out` already holds exactly it.
    ///
    /// Refuses (with [`Error::OutputIsInput`], before generating) an `out` that is the schema
    /// file or the overlay file: the same canonical path (through `..` or a symbolic link), or
    /// on Unix the same file under another name (a hard link).
    pub fn generate(&self, out: impl AsRef<Path>) -> Result<Generated, Error> {
        let out = out.as_ref();
        self.refuse_overwriting_input(out)?;
        let generated = self.generate_string()?;
        let same = holds_exactly(out, generated.text.as_bytes());
        if !same {
            std::fs::write(out, &generated.text).map_err(|source| Error::Write {
                path: out.to_owned(),
                source,
            })?;
        }
        Ok(generated)
    }

    /// [`Error::OutputIsInput`] if `out` names a schema or the overlay file.
    fn refuse_overwriting_input(&self, out: &Path) -> Result<(), Error> {
        let schemas = self.schemas.iter().filter_map(|s| match s {
            Source::File(path) => Some(("schema", path)),
            Source::Memory { .. } => None,
        });
        let overlay = self.overlay.iter().map(|path| ("overlay", path));
        for (input, path) in schemas.chain(overlay) {
            if same_file(out, path) {
                return Err(Error::OutputIsInput {
                    path: out.to_owned(),
                    input,
                });
            }
        }
        Ok(())
    }

    fn pick_overlay(
        &self,
        source: &Source,
        loaded: &load::Loaded,
    ) -> Result<Option<Overlay>, Error> {
        if let Some(path) = &self.overlay {
            let bytes = load::read_bounded(path)?;
            let text = String::from_utf8(bytes).map_err(|e| Error::Read {
                path: path.clone(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })?;
            return Overlay::parse(&text)
                .map(Some)
                .map_err(|e| e.in_file(Some(path.clone())));
        }
        if let Some(rev) = &self.revision {
            return Overlay::builtin(rev)
                .map(Some)
                .ok_or_else(|| Error::UnknownRevision {
                    revision: rev.clone(),
                    known: Overlay::known_revisions(),
                });
        }
        let recognised = Overlay::for_sha256(&loaded.sha256)
            .or_else(|| Overlay::for_fingerprint(&loaded.fingerprint));
        if recognised.is_some() {
            return Ok(recognised);
        }
        let in_memory = matches!(source, Source::Memory { .. });
        if in_memory {
            return Ok(None);
        }
        let dir = loaded
            .path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        Ok(dir.and_then(Overlay::builtin))
    }

    /// Generates the code and returns it.
    ///
    /// The stages run on a thread of their own with a 256 MiB stack: a schema
    /// may nest up to [`load::MAX_NESTING`] deep, and the stages that follow the nesting
    /// recurse, so the caller's stack (a test thread has 2 MiB) must not be what limits them.
    pub fn generate_string(&self) -> Result<Generated, Error> {
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("mcp-codegen".into())
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, || self.generate_here());
            match worker {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                // No thread to be had (a platform without threads): this one's stack it is.
                Err(_) => self.generate_here(),
            }
        })
    }

    /// Runs the passes, in order, each on what the one before made.
    fn generate_here(&self) -> Result<Generated, Error> {
        match self.schemas.as_slice() {
            [] => Err(Error::NoSchema),
            [source] => self.generate_one(source),
            sources => self.generate_eras(sources),
        }
    }

    /// One schema's passes up to the IR, in the order the crate docs list them (a test checks
    /// that the two agree; each `// name:` comment opens a pass). With several schemas
    /// (`own_extensions`), an extension defined for another revision is left out.
    fn lower_source(&self, source: &Source, own_extensions: bool) -> Result<Lowered, Error> {
        self.print_rerun_lines(source);
        // load: the schema's bytes, parsed; the revision's overlay, picked.
        let mut loaded = source.load()?;
        let overlay = self.pick_overlay(source, &loaded)?;
        // patch: the overlay's corrections of the schema.
        if let Some(o) = &overlay {
            o.apply(&mut loaded.root)
                .map_err(|e| e.in_file(&loaded.path))?;
        }
        // extensions: their definitions and patches merged into the schema.
        let ids = self.extensions_for(overlay.as_ref(), own_extensions);
        let extensions = self.enable_extensions(&ids, overlay.as_ref(), &mut loaded)?;
        let in_schema =
            |e: SchemaError| unrecognised_hint(e.in_file(&loaded.path), overlay.is_none());
        let (defs, defs_key) = (definitions(&loaded).map_err(in_schema)?, loaded.defs_key);
        self.check_overlay_names(overlay.as_ref(), defs)?;
        // protocol: requests, results, outcomes, and every overlay fact later passes read.
        let protocol =
            Protocol::read(defs, defs_key, overlay.as_ref(), &extensions).map_err(in_schema)?;
        // names: a Rust name for every definition and outcome enum.
        let names = DefNames::assign(defs, defs_key, &protocol).map_err(in_schema)?;
        // lower: the types.
        let mut types = Lowerer::new(defs, defs_key, &protocol, &names, &self.options())
            .lower()
            .map_err(in_schema)?;
        // same_shapes: inline types of one structure generated once, the other names aliases.
        same_shapes::merge(&mut types, |p| pointer::within_def(p, defs_key));
        // cycles: a Box where a type would contain itself.
        let acyclic = cycles::break_cycles(&mut types).map_err(in_schema)?;
        // roles: requests, notifications, results, multi round-trip types.
        let roles = roles::assign(&mut types, &protocol, &names.rust_of, &names.outcome_of);
        // markers: a marker type per enabled extension.
        let markers = markers::assign(&types, &protocol, &names.rust_of);
        // sizes: a Box on the large members clippy would have the user box.
        sizes::bound(&mut types, &roles, acyclic);
        // precompile: the messages whose reader the module compiles.
        let precompiled = if self.precompile {
            precompile::select(&types, &roles)
        } else {
            Vec::new()
        };
        // overview: the generated module's docs.
        let overview = overview::text(&types, &roles, &markers, defs, &protocol);
        // service: with `server`, the requests a server answers, a trait method each.
        let revision = protocol.revision.as_deref();
        let service = match self.server {
            true => Some(service::select(&types, &roles, revision, defs_key).map_err(in_schema)?),
            false => None,
        };
        // client: with `client`, the requests a client sends, a trait method each.
        let client = match self.client {
            true => Some(client::select(&types, &roles, &markers, defs_key).map_err(in_schema)?),
            false => None,
        };
        let module = Module {
            types,
            roles,
            markers,
            overview,
            precompiled,
            service,
            client,
        };
        let methods = methods_of(&protocol);
        Ok(Lowered {
            module,
            methods,
            revision: protocol.revision,
            sha256: loaded.sha256,
            extensions: ids,
        })
    }

    /// The extensions to enable on a schema of `overlay`'s revision: all of them, or with
    /// `own_only` those defined for that revision.
    fn extensions_for(&self, overlay: Option<&Overlay>, own_only: bool) -> Vec<String> {
        let defined_here = |id: &&String| {
            let revision = overlay.map(|o| o.revision.as_str());
            ExtensionDef::builtin(id)
                .is_none_or(|d| d.revisions.iter().any(|r| Some(r.as_str()) == revision))
        };
        self.extensions
            .iter()
            .filter(|id| !own_only || defined_here(id))
            .cloned()
            .collect()
    }

    /// The options emission takes.
    fn emit_options(&self) -> EmitOptions {
        EmitOptions {
            json_schema: self.json_schema,
        }
    }

    /// For tests of the constructors (`mcp-tests`): `fn minimal_instances()`, to include in
    /// the module generated from the one schema given, which builds the type of every
    /// definition from its constructor's least arguments and writes it as JSON (the
    /// generator's `emit::minimal`), on a thread of its own as [`Builder::generate_string`].
    #[doc(hidden)]
    pub fn minimal_instances(&self) -> Result<String, Error> {
        let [source] = self.schemas.as_slice() else {
            return Err(Error::Eras("minimal_instances takes one schema".to_owned()));
        };
        let here = || {
            let lowered = self.lower_source(source, false)?;
            format_file(crate::emit::minimal::instances(&lowered.module))
        };
        std::thread::scope(|scope| {
            match std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, here)
            {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => here(),
            }
        })
    }

    /// The passes for one schema, then emit: the IR as formatted Rust, under a header.
    fn generate_one(&self, source: &Source) -> Result<Generated, Error> {
        let lowered = self.lower_source(source, false)?;
        let body = self.emit(&lowered.module)?;
        let header = self.header(source.path(), lowered.revision.as_deref(), &lowered.sha256);
        Ok(Generated {
            text: header + &body,
            revision: lowered.revision,
            types: lowered.module.types.len(),
            eras: None,
            sizes: layout::estimate(&lowered.module.types)
                .into_iter()
                .map(|(name, l)| (name.unraw().to_owned(), l.size))
                .collect(),
        })
    }

    /// The passes for each of several schemas, then the join of their IRs and one file with a
    /// module per revision (see [`side_by_side::generate`]).
    fn generate_eras(&self, sources: &[Source]) -> Result<Generated, Error> {
        let Ok(sources) = <&[Source; 2]>::try_from(sources) else {
            return Err(Error::Eras(format!(
                "{} schemas given; two revisions (an older and a newer one) are generated side by side",
                sources.len()
            )));
        };
        if self.revision.is_some() || self.overlay.is_some() {
            return Err(Error::Eras(
                "Builder::revision and Builder::overlay name the revision of one schema; with two, each revision is recognised from its schema's content or folder".to_owned(),
            ));
        }
        side_by_side::generate(
            sources,
            |source| self.lower_source(source, true),
            &self.extensions,
            &self.emit_options(),
        )
    }

    /// With [`Builder::cargo_metadata`]: a `cargo:rerun-if-changed` line for the schema file and
    /// the overlay file.
    fn print_rerun_lines(&self, source: &Source) {
        if !self.cargo {
            return;
        }
        if let Source::File(path) = source {
            println!("cargo:rerun-if-changed={}", path.display());
        }
        if let Some(o) = &self.overlay {
            println!("cargo:rerun-if-changed={}", o.display());
        }
    }

    /// Checks that every `$def` the overlay names is in the (patched) definitions.
    fn check_overlay_names(
        &self,
        overlay: Option<&Overlay>,
        defs: &Map<String, Value>,
    ) -> Result<(), Error> {
        match overlay {
            Some(o) => o
                .check_names(defs)
                .map_err(|e| e.in_file(self.overlay.clone())),
            None => Ok(()),
        }
    }

    /// The switches of the lowering pass.
    fn options(&self) -> Options {
        Options {
            lossless: self.lossless,
            raw_json: self.raw_json,
        }
    }

    /// The emit pass: the IR to tokens, parsed and formatted as a Rust file.
    fn emit(&self, module: &Module) -> Result<String, Error> {
        format_file(emit(module, &self.emit_options()))
    }

    /// The two lines at the top of the output: what made it, from what.
    fn header(&self, schema: &Path, revision: Option<&str>, sha256: &str) -> String {
        let name = schema
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let extension_list = if self.extensions.is_empty() {
            String::new()
        } else {
            format!(", extensions {}", self.extensions.join(", "))
        };
        format!(
            "// @generated by mcp-codegen {} from {name} (revision {}, sha256 {sha256}{extension_list}).\n// Do not edit: regenerate instead.\n\n",
            env!("CARGO_PKG_VERSION"),
            revision.unwrap_or("unknown"),
        )
    }
}

impl Builder {
    /// Enables every extension asked for: known, defined for the overlay's revision, its
    /// definitions merged into the loaded schema. Returns what the protocol model needs of each.
    fn enable_extensions(
        &self,
        extensions: &[String],
        overlay: Option<&Overlay>,
        loaded: &mut load::Loaded,
    ) -> Result<Vec<Enabled>, Error> {
        let mut enabled = Vec::new();
        for id in extensions {
            let def = ExtensionDef::builtin(id).ok_or_else(|| Error::UnknownExtension {
                name: id.clone(),
                known: ExtensionDef::known(),
            })?;
            let Some(o) = overlay else {
                return Err(Error::Extension {
                    id: id.clone(),
                    message: format!(
                        "the schema's revision is not known, and the extension is defined for {}: say which with Builder::revision(\"...\") or --revision",
                        def.revisions.join(", ")
                    ),
                });
            };
            o.check_extension(&def).map_err(|e| Error::Extension {
                id: id.clone(),
                message: e.message,
            })?;
            def.apply(&mut loaded.root, loaded.defs_key)
                .map_err(|e| e.in_file(&loaded.path))?;
            enabled.push(def.enabled());
        }
        Ok(enabled)
    }
}

/// The definitions object of a loaded (patched) schema.
fn definitions(loaded: &load::Loaded) -> Result<&Map<String, Value>, SchemaError> {
    loaded
        .root
        .get(loaded.defs_key)
        .and_then(Value::as_object)
        .ok_or_else(|| {
            SchemaError::new(
                crate::model::pointer::defs(loaded.defs_key),
                "the overlay's patches left no definitions object",
            )
        })
}

/// The requests and notifications of the protocol model, by method.
fn methods_of(protocol: &Protocol) -> Methods {
    let requests = protocol
        .requests
        .values()
        .map(|r| (r.method.clone(), MessageKind::Request));
    let notifications = protocol
        .notifications
        .values()
        .map(|m| (m.clone(), MessageKind::Notification));
    requests.chain(notifications).collect()
}

/// A schema error from a schema no overlay was applied to: it may be a revision saved under
/// another name whose content differs (an edited copy), so the message says how to name it.
fn unrecognised_hint(error: Error, no_overlay: bool) -> Error {
    match error {
        Error::Schema {
            path,
            pointer,
            message,
        } if no_overlay => Error::Schema {
            path,
            pointer,
            message: format!(
                "{message} (no overlay was applied: the schema is none of the known revisions {}, by content or folder name; if it is one of them, say which with Builder::revision(\"...\") or --revision)",
                Overlay::known_revisions().join(", ")
            ),
        },
        other => other,
    }
}

/// The stack size of the thread the stages run on: room for [`load::MAX_NESTING`] levels of
/// nesting in a debug build (reserved address space; only the pages used are ever touched).
const STACK_SIZE: usize = 256 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = r#"{"$defs": {"Call": {"type": "object", "properties": {
        "name": {"type": "string"},
        "data": {"description": "anything"},
        "arguments": {"type": "object", "additionalProperties": {}},
        "schema": {"type": "object", "additionalProperties": {},
                   "properties": {"type": {"type": "string", "const": "object"}}, "required": ["type"]},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}}
    }, "required": ["name", "schema"]}}}"#;

    fn generate(raw: bool) -> String {
        let mut b = Builder::new();
        b.schema_str(SCHEMA).cargo_metadata(false).raw_json(raw);
        b.generate_string().map(|g| g.text).unwrap_or_default()
    }

    #[test]
    fn raw_json_keeps_uninterpreted_members_as_text() {
        let text = generate(true);
        for member in ["data", "arguments"] {
            let want = format!("pub {member}: ::core::option::Option<::mcp_runtime::RawJson>,");
            assert!(text.contains(&want), "{member}:\n{text}");
        }
        assert!(
            text.contains("pub schema: ::mcp_runtime::RawJson,"),
            "{text}"
        );
        assert!(text.contains("::std::collections::BTreeMap<"), "{text}");
        assert!(!text.contains("CallSchema"), "{text}");
    }

    #[test]
    fn raw_json_output_checks_the_runtime_feature_first() {
        let check = "::mcp_runtime::__require_raw_json!();";
        assert!(generate(true).contains(check));
        assert!(!generate(false).contains("__require_raw_json"));
    }

    #[test]
    fn without_raw_json_nothing_is_raw() {
        let text = generate(false);
        assert!(!text.contains("RawJson"), "{text}");
        assert!(text.contains("pub struct CallSchema"), "{text}");
    }
}
