//! Superelements: Exudyn's flexible bodies given by reduced (modal) data.

pub mod ffrf;
