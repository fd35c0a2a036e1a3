//! Markers: how assembly resolves them ([`ResolvedMarker`]), their kinematics at a state
//! ([`MarkerState`], one [`kinematics::MarkerKinematics`] per model), and the models with run-time
//! structure (superelement and kinematic-tree markers, rotation-vector helpers).

pub mod coordinate;
pub mod kind;
pub mod kinematic_tree;
pub mod kinematics;
pub mod lie_group;
pub mod resolved;
pub mod rotation_vector;
pub mod state;
pub mod super_element;

#[cfg(test)]
mod tests;

pub use resolved::{MarkerModel, ResolvedMarker};
pub use state::MarkerState;
