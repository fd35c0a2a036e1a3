//! Joint definitions, in serde_derive's layers: the grammar (`parse`), the internal model
//! (`model`), the checks that need no lowering (`check`), symbolic lowering of the expression
//! language with time derivatives (`value`, `lower`), the check of a hand-written velocity level
//! against the derived one (`velocity_check`), and the one error collector (`errors`).

pub mod check;
mod collect;
pub mod coordinate_vector;
pub mod errors;
pub mod lower;
pub mod model;
pub mod parse;
pub mod value;
pub mod velocity_check;
