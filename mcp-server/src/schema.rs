//! The binding between this crate and a generated module: the types the transport writes and
//! reads, named once by [`bind!`](crate::bind).

use std::fmt::Debug;

use mcp_runtime::era::{Era, ErrorCodeFact};
use mcp_runtime::{ErrorResponse, TaggedUnion};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The member of a request's `params` that its `Mcp-Name` header mirrors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// `name` (`tools/call`, `prompts/get`).
    Name,
    /// `uri` (`resources/read`).
    Uri,
    /// `taskId` (the tasks extension's methods).
    TaskId,
}

impl Named {
    /// The member a generated request's `Request::MCP_NAME` names, as the transport reads it
    /// from a body; `None` for a request that names none (or a member read no other way).
    pub const fn of(member: Option<&str>) -> Option<Named> {
        let Some(member) = member else {
            return None;
        };
        // Bytes: `==` on strings is not `const`, a match on byte strings is.
        match member.as_bytes() {
            b"name" => Some(Named::Name),
            b"uri" => Some(Named::Uri),
            b"taskId" => Some(Named::TaskId),
            _ => None,
        }
    }

    /// The entry of the generated request `R` among the methods a client may call: its method
    /// and the member its `Mcp-Name` header mirrors (from the generated `MCP_NAME`).
    pub const fn method<R: mcp_runtime::Request>() -> Method {
        (R::METHOD, Named::of(R::MCP_NAME))
    }
}

/// A method a client may call, and the member its `Mcp-Name` header mirrors, if any.
pub type Method = (&'static str, Option<Named>);

/// A `tools/call` as the header checks read it: the tool's name and its arguments.
pub struct ToolCall<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// Its arguments, if it has any.
    pub arguments: Option<&'a Map<String, Value>>,
}

/// What the transport needs from the user's generated module. Implemented by [`bind!`](crate::bind)
/// for a marker type; a later version of the generator will emit the implementation itself.
pub trait Schema: Send + Sync + 'static {
    /// The JSON-RPC request id (`RequestId`: a string or an integer).
    type RequestId: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// The JSON-RPC error response (`JSONRPCErrorResponse`), whose id may be left out when
    /// the request's could not be read.
    type ErrorResponse: ErrorResponse<Id = Option<Self::RequestId>> + Serialize;
    /// Every request a client may send (`ClientRequest`), read whole once it passed the
    /// checks of its envelope. Its tag values (the derive's `TaggedUnion`) are the methods a
    /// client may call.
    type ClientRequest: DeserializeOwned + TaggedUnion + Send + Sync + 'static;
    /// A request's `params._meta` (`RequestMetaObject`): its protocol version, the client's
    /// capabilities, its progress token and log level.
    type RequestMeta: DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// A notification (`JSONRPCNotification`): what a message without an id reads as.
    type Notification: DeserializeOwned;
    /// The `data` of an `UNSUPPORTED_PROTOCOL_VERSION` error
    /// (`UnsupportedProtocolVersionErrorErrorData`).
    type UnsupportedVersionData: Serialize;
    /// A request's progress token (`ProgressToken`).
    type ProgressToken: Clone + Debug + Send + Sync + 'static;
    /// The severity of a log message (`LoggingLevel`), ordered from the least severe
    /// (`debug`) to the most (the order the overlay gives the generated levels).
    type LoggingLevel: Copy + Ord + Debug + serde::de::DeserializeOwned + Send + Sync + 'static;

    /// The methods of [`Schema::ClientRequest`] whose `Mcp-Name` header mirrors a member of
    /// their `params`, from the generated request types' `METHOD` and `MCP_NAME` (Streamable
    /// HTTP, 2026-07-28: `tools/call` and `prompts/get` mirror `name`, `resources/read` `uri`).
    const NAMED: &'static [Method];

    /// The method of `notifications/cancelled` (the generated `CancelledNotification`'s).
    const CANCELLED: &'static str;

    /// The method of `tools/call` (the generated `CallToolRequest`'s): the request a tool's
    /// scopes guard (`Auth::tool_scope`).
    const CALL_TOOL: &'static str;

    /// The protocol version `meta` declares.
    fn protocol_version(meta: &Self::RequestMeta) -> &str;
    /// The progress token `meta` carries, if any.
    fn progress_token(meta: &Self::RequestMeta) -> Option<&Self::ProgressToken>;
    /// The lowest level of the log messages the request asks for, if any.
    fn log_level(meta: &Self::RequestMeta) -> Option<Self::LoggingLevel>;
    /// The `data` of an `UNSUPPORTED_PROTOCOL_VERSION` error: `requested`, and the versions
    /// `supported`.
    fn unsupported_version_data(
        requested: &str,
        supported: Vec<String>,
    ) -> Self::UnsupportedVersionData;
    /// The tool's name and arguments, if `request` is a `tools/call`.
    fn tool_call(request: &Self::ClientRequest) -> Option<ToolCall<'_>>;
    /// Whether `request` is a `subscriptions/listen`, answered with a stream.
    fn is_listen(request: &Self::ClientRequest) -> bool;
    /// The id and filter of `request`, if it is a `subscriptions/listen`
    /// ([`crate::listen`]).
    fn listen_filter(
        request: &Self::ClientRequest,
    ) -> Option<(Self::RequestId, crate::listen::Filter)>;
    /// `notifications/subscriptions/acknowledged` (JSON text) of subscription `id`, telling
    /// the client what it `honoured`.
    fn listen_acknowledged(
        id: &Self::RequestId,
        honoured: &crate::listen::Filter,
    ) -> Option<String>;
    /// The notification (JSON text) that tells subscription `id` of `change`: a list's
    /// `list_changed`, or `resources/updated`.
    fn listen_change(id: &Self::RequestId, change: &crate::changes::Change) -> Option<String>;
    /// The response (JSON text) that ends the `subscriptions/listen` request `id` (its
    /// `SubscriptionsListenResult`) when the server stops.
    fn listen_result(id: &Self::RequestId) -> Option<String>;
    /// `notifications/progress` as JSON text, in `era`'s types (none if the binding has no
    /// such era, or the era no such notification).
    fn progress(
        token: &Self::ProgressToken,
        progress: f64,
        total: f64,
        message: String,
        era: Era,
    ) -> Option<String>;
    /// `notifications/message` as JSON text, in `era`'s types (as [`Schema::progress`]).
    fn log(level: Self::LoggingLevel, data: Value, logger: &str, era: Era) -> Option<String>;
}

/// A server-to-client request of a legacy session, converted from a modern handler's input
/// request: what is sent, and how the client's result is read back.
pub struct LegacyInput {
    /// The legacy request's method (the generated type's `METHOD`).
    pub method: &'static str,
    /// Its params, in the legacy types, as JSON.
    pub params: Option<Value>,
    /// Converts the client's `result` (a legacy result) into the modern input response.
    pub answer: fn(Value) -> Result<Value, String>,
}

/// A request of a method the modern revision removed, answered by the legacy session itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LegacyOnly<L> {
    /// `ping`.
    Ping,
    /// `logging/setLevel`, with its level.
    SetLevel(L),
    /// `resources/subscribe`, with the resource's URI.
    Subscribe(String),
    /// `resources/unsubscribe`, with the resource's URI.
    Unsubscribe(String),
}

/// A legacy `initialize` request, read.
pub struct LegacyInitialize<S: LegacySchema> {
    /// Its id.
    pub id: S::RequestId,
    /// The protocol version the client asks for.
    pub protocol_version: String,
    /// The client's capabilities as the modern handlers read them, or why they could not be
    /// converted.
    pub capabilities: Result<S::ClientCapabilities, String>,
    /// The client's name and version.
    pub client_info: S::Implementation,
}

/// What legacy (2025-11-25) sessions need of the generated module besides [`Schema`]:
/// implemented by [`bind!`](crate::bind) when its `legacy = ...` module is given.
pub trait LegacySchema: Schema<RequestMeta: Serialize, ClientRequest: Serialize + Clone> {
    /// The client's capabilities of `initialize`, as the modern handlers read them (the
    /// modern `ClientCapabilities` of a request's `_meta`).
    type ClientCapabilities: Clone + Debug + Send + Sync + 'static;
    /// The client's name and version of `initialize`, as a modern `_meta` carries it
    /// (`Implementation`).
    type Implementation: Clone + Debug + Send + Sync + 'static;
    /// What the server offers, as the modern `server/discover` lists it (`ServerCapabilities`).
    type ServerCapabilities: Send + 'static;

    /// A modern handler's input request (`InputRequest`, as JSON) as the legacy
    /// server-to-client request that asks the client for it.
    fn input_to_legacy(request: Value) -> Result<LegacyInput, String>;

    /// The methods of the legacy requests the modern handlers answer once converted (the
    /// generated requests' `METHOD`); a session's request of any other is not found.
    const SHARED_METHODS: &'static [&'static str];
    /// The error codes that differ between the eras (the generated `ERROR_CODE_FACTS`).
    const ERROR_CODE_FACTS: &'static [ErrorCodeFact];

    /// A legacy request (JSON), read as the legacy `ClientRequest` and converted to the
    /// modern one.
    fn request_to_modern(message: Value) -> Result<Self::ClientRequest, String>;
    /// The modern `result` of a request of `method` (one of [`LegacySchema::SHARED_METHODS`])
    /// as the legacy result, without the members the legacy type does not declare; `None`
    /// for any other method.
    fn result_to_legacy(method: &str, result: Value) -> Option<Result<Value, String>>;

    /// `body` read as the legacy `InitializeRequest`, its capabilities as the modern ones
    /// without `extensions` (a 2026-07-28 mechanism a legacy session does not get).
    fn read_initialize(body: &[u8]) -> Result<LegacyInitialize<Self>, String>
    where
        Self: Sized;

    /// The legacy `InitializeResult` (JSON) of a server offering `capabilities` (modern: its
    /// extensions left out, resource subscriptions added, which a legacy session answers),
    /// named `server_info`, speaking `version`, with its `instructions`.
    fn initialize_result(
        capabilities: Self::ServerCapabilities,
        server_info: Self::Implementation,
        version: &str,
        instructions: Option<&str>,
    ) -> Result<Value, String>;

    /// The legacy notification (JSON text) that tells a session of `change`.
    fn change_notification(change: &crate::changes::Change) -> Option<String>;

    /// The method of the legacy `notifications/cancelled`.
    const LEGACY_CANCELLED: &'static str;
    /// The method of the legacy `notifications/initialized`.
    const LEGACY_INITIALIZED: &'static str;

    /// The legacy `notifications/cancelled` (JSON text) that tells the client the server's
    /// request `request_id` is cancelled, for `reason`.
    fn cancel_notification(request_id: &str, reason: &str) -> Option<String>;

    /// The request `message` of `method`, if it is one of the methods the modern revision
    /// removed ([`LegacyOnly`]): read as its legacy type, or why it could not be.
    fn legacy_only(
        method: &str,
        message: &Value,
    ) -> Option<Result<LegacyOnly<Self::LoggingLevel>, String>>;

    /// The `_meta` a modern client would send with each request of a session, made once when
    /// it opens: its client's `capabilities` and info, the `version` it speaks.
    fn session_meta(
        capabilities: Self::ClientCapabilities,
        client_info: Self::Implementation,
        version: &str,
    ) -> Self::RequestMeta;

    /// The smallest `_meta` of `version` (no capabilities, no client info): what a session's
    /// request is converted with before the session's own members are written in
    /// ([`crate::legacy::meta`]).
    fn stub_meta(version: &str) -> Self::RequestMeta;

    /// `meta` with the log `level` that `logging/setLevel` set.
    fn with_log_level(meta: &Self::RequestMeta, level: Self::LoggingLevel) -> Self::RequestMeta;

    /// `meta` with the request's own progress token (legacy JSON), if it reads as one.
    fn with_progress_token(meta: &Self::RequestMeta, token: &Value) -> Self::RequestMeta;
}

/// Binds a generated module to this crate: `mcp_server::bind!(pub Mcp = crate::mcp);` declares
/// the marker type `Mcp` and implements [`Schema`] for it with the module's types. With
/// `, legacy = crate::mcp::v2025_11_25` the legacy revision's module is bound too: the
/// notifications a handler sends to a legacy client are written in its types, and the marker
/// implements [`LegacySchema`] (the legacy sessions of [`crate::legacy`]).
///
/// ```
/// # use mcp_tests::mcp;
/// use mcp_server::Schema;
///
/// mcp_server::bind!(pub Mcp = mcp);
///
/// fn id_of<S: mcp_server::Schema>(text: &str) -> S::RequestId {
///     serde_json::from_str(text).unwrap()
/// }
/// assert_eq!(id_of::<Mcp>("7"), mcp::RequestId::Integer(7));
/// let read = <mcp::ReadResourceRequest as mcp_runtime::Request>::METHOD;
/// assert!(Mcp::NAMED.contains(&(read, Some(mcp_server::Named::Uri))));
/// ```
#[macro_export]
macro_rules! bind {
    ($vis:vis $name:ident = $($m:ident)::+) => {
        $crate::bind!(@declare $vis $name);
        const _: () = {
            use $($m)::+ as m;
            fn legacy_progress(_: m::ProgressNotification) -> Option<String> {
                None
            }
            fn legacy_log(_: m::LoggingMessageNotification) -> Option<String> {
                None
            }
            $crate::bind!(@impl $name);
        };
    };
    ($vis:vis $name:ident = $($m:ident)::+, legacy = $($l:ident)::+) => {
        $crate::bind!(@declare $vis $name);
        const _: () = {
            use $($m)::+ as m;
            use $($l)::+ as l;
            fn legacy_progress(n: m::ProgressNotification) -> Option<String> {
                let older = l::ProgressNotification::try_from(n).ok()?;
                ::serde_json::to_string(&older).ok()
            }
            fn legacy_log(n: m::LoggingMessageNotification) -> Option<String> {
                let older = l::LoggingMessageNotification::try_from(n).ok()?;
                ::serde_json::to_string(&older).ok()
            }
            $crate::bind!(@impl $name);
            $crate::bind!(@legacy $name);
        };
    };
    (@declare $vis:vis $name:ident) => {
        /// The generated module, bound to `mcp_server` ([`mcp_server::Schema`]).
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        $vis struct $name;
    };
    (@legacy $name:ident) => {
        impl $crate::LegacySchema for $name {
            type ClientCapabilities = m::ClientCapabilities;
            type Implementation = m::Implementation;
            type ServerCapabilities = m::ServerCapabilities;

            fn read_initialize(body: &[u8]) -> Result<$crate::LegacyInitialize<Self>, String> {
                let request: l::InitializeRequest =
                    ::serde_json::from_slice(body).map_err(|e| e.to_string())?;
                let params = request.params;
                // Extensions are a 2026-07-28 mechanism: whatever a legacy client declares
                // under that name, its session gets no extension's behaviour.
                let capabilities = m::ClientCapabilities::try_from(params.capabilities)
                    .map(|mut c| {
                        c.extensions = None;
                        c
                    })
                    .map_err(|e| e.to_string());
                Ok($crate::LegacyInitialize {
                    id: request.id,
                    protocol_version: params.protocol_version,
                    capabilities,
                    client_info: params.client_info,
                })
            }

            fn initialize_result(
                mut capabilities: m::ServerCapabilities,
                server_info: m::Implementation,
                version: &str,
                instructions: Option<&str>,
            ) -> Result<::serde_json::Value, String> {
                capabilities.extensions = None;
                let mut caps =
                    l::ServerCapabilities::try_from(capabilities).map_err(|e| e.to_string())?;
                caps.extra.clear();
                caps.resources.get_or_insert_with(Default::default).subscribe = Some(true);
                let mut result = l::InitializeResult::new(caps, version, server_info);
                if let Some(instructions) = instructions {
                    result = result.with_instructions(instructions);
                }
                ::serde_json::to_value(&result).map_err(|e| e.to_string())
            }

            const ERROR_CODE_FACTS: &'static [::mcp_runtime::era::ErrorCodeFact] =
                m::ERROR_CODE_FACTS;

            // The requests a session may send that the modern handlers answer, each with the
            // result type it is answered with (the same names in both revisions).
            $crate::bind!(@shared
                ListToolsRequest => ListToolsResult,
                CallToolRequest => CallToolResult,
                ListPromptsRequest => ListPromptsResult,
                GetPromptRequest => GetPromptResult,
                ListResourcesRequest => ListResourcesResult,
                ListResourceTemplatesRequest => ListResourceTemplatesResult,
                ReadResourceRequest => ReadResourceResult,
                CompleteRequest => CompleteResult,
            );

            fn change_notification(change: &$crate::changes::Change) -> Option<String> {
                use $crate::changes::Change as C;
                match change {
                    C::Tools => ::serde_json::to_string(&l::ToolListChangedNotification::new()),
                    C::Prompts => ::serde_json::to_string(&l::PromptListChangedNotification::new()),
                    C::Resources => {
                        ::serde_json::to_string(&l::ResourceListChangedNotification::new())
                    }
                    C::Resource(uri) => ::serde_json::to_string(&l::ResourceUpdatedNotification::new(
                        l::ResourceUpdatedNotificationParams::new(&**uri),
                    )),
                }
                .ok()
            }

            const LEGACY_CANCELLED: &'static str =
                <l::CancelledNotification as ::mcp_runtime::Notification>::METHOD;
            const LEGACY_INITIALIZED: &'static str =
                <l::InitializedNotification as ::mcp_runtime::Notification>::METHOD;

            fn cancel_notification(request_id: &str, reason: &str) -> Option<String> {
                let params = l::CancelledNotificationParams::new()
                    .with_request_id(l::RequestId::String(request_id.to_owned()))
                    .with_reason(reason);
                ::serde_json::to_string(&l::CancelledNotification::new(params)).ok()
            }

            fn legacy_only(
                method: &str,
                message: &::serde_json::Value,
            ) -> Option<Result<$crate::LegacyOnly<m::LoggingLevel>, String>> {
                use $crate::LegacyOnly as O;
                use ::mcp_runtime::Request as R;
                macro_rules! read {
                    ($t:ty) => {
                        ::serde_json::from_value::<$t>(message.clone()).map_err(|e| e.to_string())
                    };
                }
                Some(if method == <l::PingRequest as R>::METHOD {
                    Ok(O::Ping)
                } else if method == <l::SetLevelRequest as R>::METHOD {
                    read!(l::SetLevelRequest).map(|r| O::SetLevel(r.params.level.into()))
                } else if method == <l::SubscribeRequest as R>::METHOD {
                    read!(l::SubscribeRequest).map(|r| O::Subscribe(r.params.uri))
                } else if method == <l::UnsubscribeRequest as R>::METHOD {
                    read!(l::UnsubscribeRequest).map(|r| O::Unsubscribe(r.params.uri))
                } else {
                    return None;
                })
            }

            fn session_meta(
                capabilities: m::ClientCapabilities,
                client_info: m::Implementation,
                version: &str,
            ) -> m::RequestMetaObject {
                m::RequestMetaObject::new(capabilities, version).with_client_info(client_info)
            }

            fn stub_meta(version: &str) -> m::RequestMetaObject {
                m::RequestMetaObject::new(m::ClientCapabilities::new(), version)
            }

            fn with_log_level(
                meta: &m::RequestMetaObject,
                level: m::LoggingLevel,
            ) -> m::RequestMetaObject {
                meta.clone().with_log_level(level)
            }

            fn with_progress_token(
                meta: &m::RequestMetaObject,
                token: &::serde_json::Value,
            ) -> m::RequestMetaObject {
                match ::serde_json::from_value::<m::ProgressToken>(token.clone()) {
                    Ok(token) => meta.clone().with_progress_token(token),
                    Err(_) => meta.clone(),
                }
            }

            fn request_to_modern(message: ::serde_json::Value) -> Result<m::ClientRequest, String> {
                let request: l::ClientRequest =
                    ::serde_json::from_value(message).map_err(|e| e.to_string())?;
                m::ClientRequest::try_from(request).map_err(|e| e.to_string())
            }

            fn input_to_legacy(request: ::serde_json::Value) -> Result<$crate::LegacyInput, String> {
                use $crate::legacy::convert::{to_legacy, to_modern};
                use ::mcp_runtime::Request as R;
                let request: m::InputRequest = ::serde_json::from_value(request)
                    .map_err(|e| format!("not an input request: {e}"))?;
                Ok(match request {
                    m::InputRequest::ElicitRequest(r) => $crate::LegacyInput {
                        method: <l::ElicitRequest as R>::METHOD,
                        params: Some(to_legacy::<_, l::ElicitRequestParams>(r.params)?),
                        answer: to_modern::<l::ElicitResult, m::ElicitResult>,
                    },
                    m::InputRequest::CreateMessageRequest(r) => $crate::LegacyInput {
                        method: <l::CreateMessageRequest as R>::METHOD,
                        params: Some(to_legacy::<_, l::CreateMessageRequestParams>(*r.params)?),
                        answer: to_modern::<l::CreateMessageResult, m::CreateMessageResult>,
                    },
                    m::InputRequest::ListRootsRequest(_) => $crate::LegacyInput {
                        method: <l::ListRootsRequest as R>::METHOD,
                        params: None,
                        answer: to_modern::<l::ListRootsResult, m::ListRootsResult>,
                    },
                })
            }
        }
    };
    (@shared $($request:ident => $result:ident),* $(,)?) => {
        const SHARED_METHODS: &'static [&'static str] =
            &[$(<l::$request as ::mcp_runtime::Request>::METHOD),*];

        fn result_to_legacy(
            method: &str,
            result: ::serde_json::Value,
        ) -> Option<Result<::serde_json::Value, String>> {
            $(if method == <l::$request as ::mcp_runtime::Request>::METHOD {
                let fail = |e: String| format!("{} for a legacy client: {e}", stringify!($result));
                let convert = || {
                    let modern: m::$result =
                        ::serde_json::from_value(result).map_err(|e| fail(e.to_string()))?;
                    let mut older = l::$result::try_from(modern).map_err(|e| fail(e.to_string()))?;
                    older.extra.clear();
                    ::serde_json::to_value(&older).map_err(|e| fail(e.to_string()))
                };
                return Some(convert());
            })*
            None
        }
    };
    (@impl $name:ident) => {
        impl $crate::Schema for $name {
            type RequestId = m::RequestId;
            type ErrorResponse = m::JSONRPCErrorResponse;
            type ClientRequest = m::ClientRequest;
            type RequestMeta = m::RequestMetaObject;
            type Notification = m::JSONRPCNotification;
            type UnsupportedVersionData = m::UnsupportedProtocolVersionErrorErrorData;
            type ProgressToken = m::ProgressToken;
            type LoggingLevel = m::LoggingLevel;

            const CANCELLED: &'static str =
                <m::CancelledNotification as ::mcp_runtime::Notification>::METHOD;

            const CALL_TOOL: &'static str = <m::CallToolRequest as ::mcp_runtime::Request>::METHOD;

            const NAMED: &'static [$crate::Method] = &[
                $crate::Named::method::<m::CallToolRequest>(),
                $crate::Named::method::<m::GetPromptRequest>(),
                $crate::Named::method::<m::ReadResourceRequest>(),
            ];

            fn protocol_version(meta: &m::RequestMetaObject) -> &str {
                &meta.protocol_version
            }

            fn progress_token(meta: &m::RequestMetaObject) -> Option<&m::ProgressToken> {
                meta.progress_token.as_ref()
            }

            fn log_level(meta: &m::RequestMetaObject) -> Option<m::LoggingLevel> {
                meta.log_level
            }

            fn unsupported_version_data(
                requested: &str,
                supported: Vec<String>,
            ) -> m::UnsupportedProtocolVersionErrorErrorData {
                m::UnsupportedProtocolVersionErrorErrorData::new(requested, supported)
            }

            fn tool_call(request: &m::ClientRequest) -> Option<$crate::ToolCall<'_>> {
                match request {
                    m::ClientRequest::CallToolRequest(call) => Some($crate::ToolCall {
                        name: &call.params.name,
                        arguments: call.params.arguments.as_ref(),
                    }),
                    _ => None,
                }
            }

            fn is_listen(request: &m::ClientRequest) -> bool {
                matches!(request, m::ClientRequest::SubscriptionsListenRequest(_))
            }

            fn listen_filter(
                request: &m::ClientRequest,
            ) -> Option<(m::RequestId, $crate::listen::Filter)> {
                let m::ClientRequest::SubscriptionsListenRequest(listen) = request else {
                    return None;
                };
                let asked = &listen.params.notifications;
                let filter = $crate::listen::Filter {
                    tools_list_changed: asked.tools_list_changed == Some(true),
                    prompts_list_changed: asked.prompts_list_changed == Some(true),
                    resources_list_changed: asked.resources_list_changed == Some(true),
                    resource_subscriptions: asked.resource_subscriptions.clone(),
                    extensions: ::serde_json::Map::new(),
                };
                Some((listen.id.clone(), filter))
            }

            fn listen_acknowledged(
                id: &m::RequestId,
                honoured: &$crate::listen::Filter,
            ) -> Option<String> {
                let mut filter = m::SubscriptionFilter::new();
                filter.tools_list_changed = honoured.tools_list_changed.then_some(true);
                filter.prompts_list_changed = honoured.prompts_list_changed.then_some(true);
                filter.resources_list_changed = honoured.resources_list_changed.then_some(true);
                filter.resource_subscriptions = honoured.resource_subscriptions.clone();
                if !honoured.extensions.is_empty() {
                    // An extension's members, whether the module declares them or keeps them
                    // as undeclared members.
                    let mut members = match ::serde_json::to_value(&filter).ok()? {
                        ::serde_json::Value::Object(members) => members,
                        _ => return None,
                    };
                    members.extend(honoured.extensions.clone());
                    filter = ::serde_json::from_value(::serde_json::Value::Object(members)).ok()?;
                }
                let tag = m::NotificationMetaObject::new().with_subscription_id(id.clone());
                let ack = m::SubscriptionsAcknowledgedNotification::new(
                    m::SubscriptionsAcknowledgedNotificationParams::new(filter).with_meta(tag),
                );
                ::serde_json::to_string(&ack).ok()
            }

            fn listen_change(id: &m::RequestId, change: &$crate::changes::Change) -> Option<String> {
                use $crate::changes::Change;
                let tag = m::NotificationMetaObject::new().with_subscription_id(id.clone());
                let params = m::NotificationParams::new().with_meta(tag.clone());
                match change {
                    Change::Tools => ::serde_json::to_string(
                        &m::ToolListChangedNotification::new().with_params(params),
                    ),
                    Change::Prompts => ::serde_json::to_string(
                        &m::PromptListChangedNotification::new().with_params(params),
                    ),
                    Change::Resources => ::serde_json::to_string(
                        &m::ResourceListChangedNotification::new().with_params(params),
                    ),
                    Change::Resource(uri) => ::serde_json::to_string(
                        &m::ResourceUpdatedNotification::new(
                            m::ResourceUpdatedNotificationParams::new(&**uri).with_meta(tag),
                        ),
                    ),
                }
                .ok()
            }

            fn listen_result(id: &m::RequestId) -> Option<String> {
                let result = m::SubscriptionsListenResult::new(
                    m::SubscriptionsListenResultMetaObject::new(id.clone()),
                );
                ::serde_json::to_string(&m::SubscriptionsListenResultResponse::new(id.clone(), result))
                    .ok()
            }

            fn progress(
                token: &m::ProgressToken,
                progress: f64,
                total: f64,
                message: String,
                era: ::mcp_runtime::era::Era,
            ) -> Option<String> {
                let note = m::ProgressNotification::new(
                    m::ProgressNotificationParams::new(progress, token.clone())
                        .with_message(message)
                        .with_total(total),
                );
                match era {
                    ::mcp_runtime::era::Era::Modern => ::serde_json::to_string(&note).ok(),
                    ::mcp_runtime::era::Era::Legacy => legacy_progress(note),
                }
            }

            fn log(
                level: m::LoggingLevel,
                data: ::serde_json::Value,
                logger: &str,
                era: ::mcp_runtime::era::Era,
            ) -> Option<String> {
                let note = m::LoggingMessageNotification::new(
                    m::LoggingMessageNotificationParams::new(data, level).with_logger(logger),
                );
                match era {
                    ::mcp_runtime::era::Era::Modern => ::serde_json::to_string(&note).ok(),
                    ::mcp_runtime::era::Era::Legacy => legacy_log(note),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tests::mcp;

    crate::bind!(Mcp = mcp);

    #[test]
    fn a_legacy_note_needs_a_legacy_binding() {
        let token = mcp::ProgressToken::Integer(3);
        let modern = Mcp::progress(&token, 1.0, 2.0, "half".into(), Era::Modern).unwrap();
        let note: Value = serde_json::from_str(&modern).unwrap();
        assert_eq!(note["method"], "notifications/progress");
        assert_eq!(note["params"]["progressToken"], 3);
        assert_eq!(
            Mcp::progress(&token, 1.0, 2.0, "half".into(), Era::Legacy),
            None
        );
    }

    #[test]
    fn only_the_named_methods_mirror_a_name() {
        assert_eq!(
            Mcp::NAMED,
            [
                ("tools/call", Some(Named::Name)),
                ("prompts/get", Some(Named::Name)),
                ("resources/read", Some(Named::Uri))
            ]
        );
    }
}
