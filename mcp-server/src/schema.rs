//! The binding between this crate and a generated module: the types the transport writes and
//! reads, named once by [`bind!`](crate::bind).

use std::fmt::Debug;

use mcp_runtime::ErrorResponse;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What the transport needs from the user's generated module. Implemented by [`bind!`](crate::bind)
/// for a marker type; a later version of the generator will emit the implementation itself.
pub trait Schema: Send + Sync + 'static {
    /// The JSON-RPC request id (`RequestId`: a string or an integer).
    type RequestId: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static;
    /// The JSON-RPC error response (`JSONRPCErrorResponse`), whose id may be left out when
    /// the request's could not be read.
    type ErrorResponse: ErrorResponse<Id = Option<Self::RequestId>> + Serialize;
}

/// Binds a generated module to this crate: `mcp_server::bind!(pub Mcp = crate::mcp);` declares
/// the marker type `Mcp` and implements [`Schema`] for it with the module's types.
///
/// ```
/// # use mcp_tests::mcp;
/// mcp_server::bind!(pub Mcp = mcp);
///
/// fn id_of<S: mcp_server::Schema>(text: &str) -> S::RequestId {
///     serde_json::from_str(text).unwrap()
/// }
/// assert_eq!(id_of::<Mcp>("7"), mcp::RequestId::Integer(7));
/// ```
#[macro_export]
macro_rules! bind {
    ($vis:vis $name:ident = $($m:ident)::+) => {
        /// The generated module, bound to `mcp_server` ([`mcp_server::Schema`]).
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        $vis struct $name;

        impl $crate::Schema for $name {
            type RequestId = $($m)::+::RequestId;
            type ErrorResponse = $($m)::+::JSONRPCErrorResponse;
        }
    };
}
