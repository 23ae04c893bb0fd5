//! The traits whose methods the generated types offer, for a glob import:
//!
//! ```
//! use mcp_runtime::prelude::*;
//! ```
//!
//! It holds traits only (imported anonymously, so their names cannot clash with the generated
//! types of the same name, such as `InputRequest`).

pub use crate::extension::ExtensionCapabilities as _;
pub use crate::mrtr::{
    CapabilityErrorResponse as _, InputRequest as _, InputRequired as _, InputResponse as _,
    Retry as _,
};
pub use crate::object_schema::ObjectSchema as _;
pub use crate::protocol::{ErrorResponse as _, Notification as _, Request as _, Respond as _};
pub use crate::response::Refuse as _;
pub use crate::wire::Wire as _;
