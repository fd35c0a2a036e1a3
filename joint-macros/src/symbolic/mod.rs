//! The symbolic engine: a hash-consed scalar DAG, differentiation, vector algebra, emission.

pub mod diff;
pub mod emit;
pub mod graph;
pub mod vector;

pub use graph::{Graph, Id};
