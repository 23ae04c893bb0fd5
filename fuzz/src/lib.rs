//! Fuzzing the dispatching deserializers of the generated MCP types (see `README.md`).

#[path = "target.rs"]
pub mod target;

#[path = "mutate.rs"]
pub mod mutate;

pub mod alloc;
