//! Joint definitions: grammar (`parse`), checked model (`model`), symbolic lowering (`lower`),
//! and the error collector.

pub mod errors;
pub mod lower;
pub mod model;
pub mod parse;
