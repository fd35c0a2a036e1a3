//! ObjectKinematicTree: minimal-coordinate chains and trees of links (spec
//! superelements-and-kinematic-trees.md §6–7).

pub mod dynamics;

pub use dynamics::KinematicTreeData;
