//! The structural passes, from the schema's definitions to the IR and over it: naming
//! ([`def_names`]), lowering ([`lower`]), inline types of one structure merged
//! ([`same_shapes`]), cycles broken ([`cycles`]), large members boxed ([`sizes`], by
//! [`layout`]'s estimates), and the messages whose readers are compiled with the module
//! ([`precompile`]). What they need of the protocol comes from [`crate::rules`] as
//! arguments: the protocol model, the roles.

pub mod cycles;
pub mod def_names;
pub mod layout;
pub mod lower;
pub mod precompile;
pub mod same_shapes;
pub mod sizes;
