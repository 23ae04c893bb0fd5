//! The structural passes, from the schema's definitions to the IR and over it: naming
//! ([`def_names`]), lowering ([`lower`]), inline types of one structure merged
//! ([`same_shapes`]), cycles broken ([`cycles`]), large members boxed ([`sizes`], by
//! [`layout`]'s estimates), and the messages whose readers are compiled with the module
//! ([`precompile`]). None of them spells a protocol word: what they need of the protocol
//! comes from [`crate::rules`] (the protocol model, the roles) as arguments.

pub mod cycles;
pub mod def_names;
pub mod layout;
pub mod lower;
pub mod precompile;
pub mod same_shapes;
pub mod sizes;
