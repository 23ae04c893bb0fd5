//! What every stage speaks: the intermediate representation ([`ir`]), typed names
//! ([`names`]), JSON pointers ([`pointer`](mod@pointer)), and rustdoc text from the schema's
//! descriptions ([`docs`]).

pub mod docs;
pub mod ir;
pub mod names;
pub mod pointer;
