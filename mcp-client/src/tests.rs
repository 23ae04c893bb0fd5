//! The client against scripted servers on a loopback port (no suite needed), bound to the
//! generated types of `mcp-client-test-types`.

mod era;
pub(crate) mod fixture;
mod generated;
mod legacy;
mod modern;
pub(crate) mod redirect;
mod scripted;
#[cfg(feature = "skills")]
mod skills;
mod stdio;
