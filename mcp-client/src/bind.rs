//! [`bind!`](crate::bind): the [`Binding`](crate::Binding) of a generated module, and the
//! [`Outgoing`](crate::Outgoing) of the requests the client sends, written once for the names
//! `mcp-codegen` gives (a later generator release emits it itself).

/// Binds a module generated from the 2025-11-25 and 2026-07-28 schemas side by side (with the
/// tasks extension, `io.modelcontextprotocol/tasks`) to the client: `bind!(Mcp = mcp)` declares
/// `pub enum Mcp {}` and implements [`Binding`](crate::Binding) for it, from the module `mcp`
/// (in scope where the macro is called, with the modern revision's names as its own and the
/// legacy ones under `mcp::v2025_11_25`), and [`Outgoing`](crate::Outgoing) for the requests
/// the client sends. A client is then a `Client<Mcp>`.
///
/// ```
/// // In a crate whose build script generated both revisions into `$OUT_DIR/mcp.rs`:
/// // mod mcp {
/// //     include!(concat!(env!("OUT_DIR"), "/mcp.rs")); // the newest revision's names at its root
/// // }
/// use mcp_client_test_types::mcp;
///
/// mcp_client::bind!(Mcp = mcp);
///
/// fn client(config: mcp_client::Config<Mcp>) -> Result<mcp_client::Client<Mcp>, mcp_client::ClientError> {
///     mcp_client::Client::new("http://127.0.0.1:8080/mcp", config)
/// }
/// ```
#[macro_export]
macro_rules! bind {
    ($binding:ident = $m:ident, skills) => {
        $crate::bind!($binding = $m);
        $crate::__bind_skills!($binding, $m);
    };
    ($binding:ident = $m:ident) => {
        /// The generated module, bound to `mcp_client` (`mcp_client::bind!`).
        pub enum $binding {}

        $crate::__bind_outgoing!($binding, $m);
        $crate::__bind_elicit!($binding, $m);
        $crate::__bind_headless!($binding, $m);

        impl $crate::Binding for $binding {
            type RequestId = $m::RequestId;
            type Capabilities = $m::ClientCapabilities;
            type Meta = $m::RequestMetaObject;
            type Implementation = $m::Implementation;
            type ServerCapabilities = $m::ServerCapabilities;
            type InputRequired = $m::InputRequiredResult;
            type InputRequest = $m::InputRequest;
            type InputResponse = $m::InputResponse;
            type Tool = $m::Tool;
            type CreateTask = $m::CreateTaskResult;
            type Task = $m::GetTaskResult;
            type Discover = $m::DiscoverRequest;
            type Discovered = $m::DiscoverResult;
            type ListTools = $m::ListToolsRequest;
            type CallTool = $m::CallToolRequest;
            type GetTask = $m::GetTaskRequest;
            type UpdateTask = $m::UpdateTaskRequest;
            type CancelTask = $m::CancelTaskRequest;

            const INITIALIZED: &'static str = $m::v2025_11_25::InitializedNotification::METHOD;

            fn request_id(n: i64) -> $m::RequestId {
                $m::RequestId::Integer(n)
            }

            fn meta(
                capabilities: $m::ClientCapabilities,
                version: &str,
                info: $m::Implementation,
                progress: ::core::option::Option<::std::string::String>,
            ) -> $m::RequestMetaObject {
                let mut meta =
                    $m::RequestMetaObject::new(capabilities, version).with_client_info(info);
                meta.progress_token = progress.map($m::ProgressToken::String);
                meta
            }

            fn declare_tasks(capabilities: &mut $m::ClientCapabilities) {
                use $crate::__private::ExtensionCapabilities as _;
                capabilities.declare::<$m::TasksExtension>();
            }

            fn read_answer<T: $crate::__private::DeserializeOwned>(
                capabilities: ::core::option::Option<&$m::ClientCapabilities>,
                text: &str,
            ) -> $crate::__private::serde_json::Result<T> {
                match capabilities {
                    ::core::option::Option::Some(caps) => $crate::__private::Reader::new(caps)
                        .extension::<$m::TasksExtension>()
                        .from_str(text),
                    ::core::option::Option::None => $crate::__private::serde_json::from_str(text),
                }
            }

            fn discover(id: $m::RequestId, meta: $m::RequestMetaObject) -> $m::DiscoverRequest {
                $m::DiscoverRequest::new(id, $m::RequestParams::new(meta))
            }

            fn discovered(found: $m::DiscoverResult) -> $crate::Connected<Self> {
                $crate::Connected {
                    era: $crate::Era::Modern,
                    server: found
                        .meta
                        .as_ref()
                        .and_then(|m| m.server_info.as_ref())
                        .map(|i| i.name.clone()),
                    versions: found.supported_versions,
                    capabilities: *found.capabilities,
                }
            }

            fn list_tools(
                id: $m::RequestId,
                meta: $m::RequestMetaObject,
                cursor: ::core::option::Option<::std::string::String>,
            ) -> $m::ListToolsRequest {
                let mut params = $m::PaginatedRequestParams::new(meta);
                params.cursor = cursor;
                $m::ListToolsRequest::new(id, params)
            }

            fn tools_page(
                page: $m::ListToolsResult,
            ) -> (
                ::std::vec::Vec<$m::Tool>,
                ::core::option::Option<::std::string::String>,
            ) {
                (page.tools, page.next_cursor)
            }

            fn tool_name(tool: &$m::Tool) -> &str {
                &tool.name
            }

            fn tool_schema(
                tool: &$m::Tool,
            ) -> &$crate::__private::serde_json::Map<
                ::std::string::String,
                $crate::__private::serde_json::Value,
            > {
                &tool.input_schema.extra
            }

            fn call_tool(
                id: $m::RequestId,
                meta: $m::RequestMetaObject,
                name: &str,
                arguments: $crate::__private::serde_json::Map<
                    ::std::string::String,
                    $crate::__private::serde_json::Value,
                >,
            ) -> $m::CallToolRequest {
                let params = $m::CallToolRequestParams::new(meta, name).with_arguments(arguments);
                $m::CallToolRequest::new(id, params)
            }

            fn get_task(
                id: $m::RequestId,
                meta: $m::RequestMetaObject,
                task: &str,
            ) -> $m::GetTaskRequest {
                $m::GetTaskRequest::new(id, $m::GetTaskRequestParams::new(task).with_meta(meta))
            }

            fn update_task(
                id: $m::RequestId,
                meta: $m::RequestMetaObject,
                task: &str,
                responses: $m::InputResponses,
            ) -> $m::UpdateTaskRequest {
                let params = $m::UpdateTaskRequestParams::new(responses, task).with_meta(meta);
                $m::UpdateTaskRequest::new(id, params)
            }

            fn cancel_task(
                id: $m::RequestId,
                meta: $m::RequestMetaObject,
                task: &str,
            ) -> $m::CancelTaskRequest {
                let params = $m::CancelTaskRequestParams::new(task).with_meta(meta);
                $m::CancelTaskRequest::new(id, params)
            }

            fn created(task: &$m::CreateTaskResult) -> $crate::Created {
                $crate::Created {
                    task_id: task.task_id.clone(),
                    poll_interval_ms: task.poll_interval_ms,
                    ttl_ms: match task.ttl_ms {
                        $m::TaskTtlMs::Integer(ms) => {
                            ::core::option::Option::Some(u64::try_from(ms).unwrap_or(0))
                        }
                        $m::TaskTtlMs::Null(()) => ::core::option::Option::None,
                    },
                }
            }

            fn task_state(task: $m::GetTaskResult) -> $crate::TaskState<Self> {
                let json = |object: $m::JSONObject| {
                    $crate::__private::serde_json::to_value(object).unwrap_or_default()
                };
                $crate::TaskState {
                    task_id: task.task_id,
                    status: match task.status {
                        $m::TaskStatus::Working => $crate::TaskStatus::Working,
                        $m::TaskStatus::InputRequired => $crate::TaskStatus::InputRequired,
                        $m::TaskStatus::Completed => $crate::TaskStatus::Completed,
                        $m::TaskStatus::Failed => $crate::TaskStatus::Failed,
                        $m::TaskStatus::Cancelled => $crate::TaskStatus::Cancelled,
                    },
                    poll_interval_ms: task.poll_interval_ms,
                    input_requests: task.input_requests.unwrap_or_default(),
                    result: task.result.map(json),
                    error: task.error.map(json),
                }
            }

            fn input_required(
                requests: $m::InputRequests,
            ) -> ::core::result::Result<$m::InputRequiredResult, ::std::string::String> {
                $m::InputRequiredResult::new(::core::option::Option::Some(requests), None)
                    .map_err(|e| e.to_string())
            }

            fn request_to_legacy(
                modern: $crate::__private::serde_json::Value,
            ) -> ::core::result::Result<$crate::__private::serde_json::Value, ::std::string::String>
            {
                let request: $m::ClientRequest = $crate::__private::read(modern)?;
                let older =
                    $m::v2025_11_25::ClientRequest::try_from(request).map_err(|e| e.to_string())?;
                $crate::__private::to_json(&older)
            }

            fn result_to_modern(
                method: &str,
                result: $crate::__private::serde_json::Value,
            ) -> ::core::result::Result<$crate::__private::serde_json::Value, ::std::string::String>
            {
                $crate::__to_modern!($m, method, result;
                    ListToolsRequest => ListToolsResult, no_caching;
                    CallToolRequest => CallToolResult, as_is;
                    ListResourcesRequest => ListResourcesResult, no_caching;
                    ReadResourceRequest => ReadResourceResult, no_caching;
                    ListPromptsRequest => ListPromptsResult, no_caching;
                    GetPromptRequest => GetPromptResult, as_is;
                    ListResourceTemplatesRequest => ListResourceTemplatesResult, no_caching;
                    CompleteRequest => CompleteResult, as_is;
                )
            }

            fn initialize(
                id: $m::RequestId,
                capabilities: &$m::ClientCapabilities,
                info: $m::Implementation,
                version: &str,
            ) -> ::core::result::Result<$crate::__private::serde_json::Value, ::std::string::String>
            {
                let capabilities =
                    $m::v2025_11_25::ClientCapabilities::try_from(capabilities.clone())
                        .map_err(|e| e.to_string())?;
                let params =
                    $m::v2025_11_25::InitializeRequestParams::new(capabilities, info, version);
                $crate::__private::to_json(&$m::v2025_11_25::InitializeRequest::new(id, params))
            }

            fn initialized(
                result: $crate::__private::serde_json::Value,
            ) -> ::core::result::Result<$crate::Initialized<Self>, ::std::string::String> {
                let result: $m::v2025_11_25::InitializeResult = $crate::__private::read(result)?;
                ::core::result::Result::Ok($crate::Initialized {
                    protocol_version: result.protocol_version,
                    server: result.server_info.name,
                    capabilities: $m::ServerCapabilities::try_from(result.capabilities)
                        .map_err(|e| e.to_string())?,
                })
            }

            fn legacy_input_request(
                method: &str,
                message: $crate::__private::serde_json::Value,
            ) -> ::core::result::Result<
                ::core::option::Option<$m::InputRequest>,
                $crate::LegacyRequestError,
            > {
                use $crate::LegacyRequestError::{Invalid, Unknown};
                let invalid = |e: ::std::string::String| Invalid(e);
                let era = |e: $crate::__private::EraError| Invalid(e.to_string());
                ::core::result::Result::Ok(::core::option::Option::Some(match method {
                    m if m == $m::v2025_11_25::PingRequest::METHOD => {
                        return ::core::result::Result::Ok(::core::option::Option::None);
                    }
                    m if m == $m::v2025_11_25::ElicitRequest::METHOD => {
                        $m::InputRequest::ElicitRequest(
                            $crate::__private::read::<$m::v2025_11_25::ElicitRequest>(message)
                                .map_err(invalid)?
                                .into(),
                        )
                    }
                    m if m == $m::v2025_11_25::CreateMessageRequest::METHOD => {
                        $m::InputRequest::CreateMessageRequest(
                            $crate::__private::read::<$m::v2025_11_25::CreateMessageRequest>(
                                message,
                            )
                            .map_err(invalid)?
                            .try_into()
                            .map_err(era)?,
                        )
                    }
                    m if m == $m::v2025_11_25::ListRootsRequest::METHOD => {
                        $m::InputRequest::ListRootsRequest(
                            $crate::__private::read::<$m::v2025_11_25::ListRootsRequest>(message)
                                .map_err(invalid)?
                                .into(),
                        )
                    }
                    _ => return ::core::result::Result::Err(Unknown),
                }))
            }

            fn response_to_legacy(
                response: $m::InputResponse,
            ) -> ::core::result::Result<$crate::__private::serde_json::Value, ::std::string::String>
            {
                let era = |e: $crate::__private::EraError| e.to_string();
                match response {
                    $m::InputResponse::ElicitResult(r) => $crate::__private::to_json(
                        &$m::v2025_11_25::ElicitResult::try_from(r).map_err(era)?,
                    ),
                    $m::InputResponse::CreateMessageResult(r) => $crate::__private::to_json(
                        &$m::v2025_11_25::CreateMessageResult::try_from(*r).map_err(era)?,
                    ),
                    $m::InputResponse::ListRootsResult(r) => $crate::__private::to_json(
                        &$m::v2025_11_25::ListRootsResult::try_from(r).map_err(era)?,
                    ),
                }
            }
        }
    };
}

/// Reads a legacy `result` as the legacy result type of the request it answers, completed by
/// a filler of `mcp_client::__private`, and converts it to the modern one (JSON).
#[doc(hidden)]
#[macro_export]
macro_rules! __to_modern {
    ($m:ident, $method:expr, $result:expr; $($req:ident => $t:ident, $fill:ident);* $(;)?) => {{
        match $method {
            $(m if m == $m::$req::METHOD => {
                let mut result = $result;
                $crate::__private::$fill(&mut result);
                let older: $m::v2025_11_25::$t = $crate::__private::read(result)?;
                $crate::__private::to_json(&$m::$t::try_from(older).map_err(|e| e.to_string())?)
            })*
            other => ::core::result::Result::Err(::std::format!(
                "{other} is not a request this client sends to a legacy server"
            )),
        }
    }};
}

/// The [`Outgoing`](crate::Outgoing) impls of the requests the client sends.
#[doc(hidden)]
#[macro_export]
macro_rules! __bind_outgoing {
    ($b:ident, $m:ident) => {
        $crate::__outgoing!($b, $m, DiscoverRequest => DiscoverResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, ListToolsRequest => ListToolsResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, ListResourcesRequest => ListResourcesResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, ListPromptsRequest => ListPromptsResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, ListResourceTemplatesRequest => ListResourceTemplatesResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, CompleteRequest => CompleteResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, CallToolRequest => CallToolResultResponse;
            meta: required, tasks: true, progress: true;
            |r| match r.result {
                $m::CallToolOutcome::Complete(done) => $crate::Outcome::Done(done),
                $m::CallToolOutcome::InputRequired(ask) => $crate::Outcome::NeedsInput(::std::boxed::Box::new(ask)),
                $m::CallToolOutcome::Task(created) => $crate::Outcome::Task(created.into_inner()),
            };
            retry);
        $crate::__outgoing!($b, $m, ReadResourceRequest => ReadResourceResultResponse;
            meta: required, tasks: false, progress: false;
            |r| match r.result {
                $m::ReadResourceOutcome::Complete(done) => $crate::Outcome::Done(done),
                $m::ReadResourceOutcome::InputRequired(ask) => $crate::Outcome::NeedsInput(::std::boxed::Box::new(ask)),
            };
            retry);
        $crate::__outgoing!($b, $m, GetPromptRequest => GetPromptResultResponse;
            meta: required, tasks: false, progress: false;
            |r| match r.result {
                $m::GetPromptOutcome::Complete(done) => $crate::Outcome::Done(done),
                $m::GetPromptOutcome::InputRequired(ask) => $crate::Outcome::NeedsInput(::std::boxed::Box::new(ask)),
            };
            retry);
        $crate::__outgoing!($b, $m, GetTaskRequest => GetTaskResultResponse;
            meta: optional, tasks: true, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, UpdateTaskRequest => UpdateTaskResultResponse;
            meta: optional, tasks: true, progress: false;
            |r| $crate::Outcome::Done(r.result));
        $crate::__outgoing!($b, $m, CancelTaskRequest => CancelTaskResultResponse;
            meta: optional, tasks: true, progress: false;
            |r| $crate::Outcome::Done(r.result));
    };
}

/// The [`Outgoing`](crate::Outgoing) impls of the skills extension's requests
/// (`io.modelcontextprotocol/skills`), for a module generated with that extension: bound with
/// `mcp_client::bind!(Mcp = mcp, skills)`. A client sends them only to a server that declared
/// the extension (`resources/directory/read` only when it declared `directoryRead`); a legacy
/// server is refused them, as any request it does not know.
#[cfg(feature = "skills")]
#[doc(hidden)]
#[macro_export]
macro_rules! __bind_skills {
    ($b:ident, $m:ident) => {
        $crate::__outgoing!($b, $m, ListSkillsRequest => ListSkillsResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result),
            allowed: |caps| $crate::skills::declared::<$m::SkillsExtension, _>(caps));
        $crate::__outgoing!($b, $m, GetSkillRequest => GetSkillResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result),
            allowed: |caps| $crate::skills::declared::<$m::SkillsExtension, _>(caps));
        $crate::__outgoing!($b, $m, ReadResourceDirectoryRequest => ReadResourceDirectoryResultResponse;
            meta: required, tasks: false, progress: false;
            |r| $crate::Outcome::Done(r.result),
            allowed: |caps| $crate::skills::reads_directories::<$m::SkillsExtension, _>(caps));

        impl $crate::skills::SkillsBinding for $b {
            type Skill = $m::Skill;
            type Resource = $m::Resource;
            type ListSkills = $m::ListSkillsRequest;
            type GetSkill = $m::GetSkillRequest;
            type ReadResource = $m::ReadResourceRequest;
            type ReadDirectory = $m::ReadResourceDirectoryRequest;

            fn list_skills(
                meta: $m::RequestMetaObject,
                cursor: ::core::option::Option<::std::string::String>,
            ) -> $m::PaginatedRequestParams {
                let mut params = $m::PaginatedRequestParams::new(meta);
                params.cursor = cursor;
                params
            }

            fn skills_page(
                page: $m::ListSkillsResult,
            ) -> (
                ::std::vec::Vec<$m::Skill>,
                ::core::option::Option<::std::string::String>,
            ) {
                (page.skills, page.next_cursor)
            }

            fn get_skill(meta: $m::RequestMetaObject, uri: &str) -> $m::GetSkillRequestParams {
                $m::GetSkillRequestParams::new(meta, uri)
            }

            fn got_skill(got: $m::GetSkillResult) -> $m::Skill {
                got.skill
            }

            fn read_resource(
                meta: $m::RequestMetaObject,
                uri: &str,
            ) -> $m::ReadResourceRequestParams {
                $m::ReadResourceRequestParams::new(meta, uri)
            }

            fn read_directory(
                meta: $m::RequestMetaObject,
                uri: &str,
                cursor: ::core::option::Option<::std::string::String>,
            ) -> $m::ReadResourceDirectoryRequestParams {
                let mut params = $m::ReadResourceDirectoryRequestParams::new(meta, uri);
                params.cursor = cursor;
                params
            }

            fn directory_page(
                page: $m::ReadResourceDirectoryResult,
            ) -> (
                ::std::vec::Vec<$m::Resource>,
                ::core::option::Option<::std::string::String>,
            ) {
                (page.resources, page.next_cursor)
            }
        }
    };
}

/// One [`Outgoing`](crate::Outgoing) impl.
#[doc(hidden)]
#[macro_export]
macro_rules! __outgoing {
    ($b:ident, $m:ident, $req:ident => $resp:ident;
     meta: $meta:ident, tasks: $tasks:literal, progress: $progress:literal;
     |$r:ident| $outcome:expr $(; $retry:ident)? $(, allowed: |$caps:ident| $allowed:expr)?) => {
        impl $crate::Outgoing<$b> for $m::$req {
            type Response = $m::$resp;
            const TASKS: bool = $tasks;
            const PROGRESS: bool = $progress;

            $(
                fn allowed_by(
                    $caps: &$m::ServerCapabilities,
                ) -> ::core::result::Result<(), ::std::string::String> {
                    $allowed
                }
            )?

            fn build(
                id: $m::RequestId,
                params: <Self as $crate::__private::Request>::Params,
            ) -> Self {
                $m::$req::new(id, params)
            }

            fn reset(&mut self, id: $m::RequestId, meta: $m::RequestMetaObject) {
                self.id = id;
                $crate::__set_meta!($meta, self.params.meta, meta);
            }

            fn id(&self) -> &$m::RequestId {
                &self.id
            }

            fn capabilities(&self) -> ::core::option::Option<&$m::ClientCapabilities> {
                $crate::__get_meta!($meta, self.params.meta).map(|m| &m.client_capabilities)
            }

            fn outcome(
                $r: $m::$resp,
            ) -> $crate::Outcome<$b, <Self as $crate::__private::Call>::Done> {
                $outcome
            }

            $($crate::__retry!($retry, $m);)?
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __set_meta {
    (required, $field:expr, $meta:expr) => {
        $field = $meta
    };
    (optional, $field:expr, $meta:expr) => {
        $field = ::core::option::Option::Some($meta)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __get_meta {
    (required, $field:expr) => {
        ::core::option::Option::Some(&$field)
    };
    (optional, $field:expr) => {
        $field.as_ref()
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __retry {
    (retry, $m:ident) => {
        fn retry(
            &self,
            id: $m::RequestId,
            ask: &$m::InputRequiredResult,
            responses: $m::InputResponses,
        ) -> ::core::option::Option<::core::result::Result<Self, $crate::__private::RetryError>> {
            ::core::option::Option::Some($crate::__private::Retry::retry(self, id, ask, responses))
        }
    };
}
