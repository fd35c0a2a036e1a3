//! Coordinate markers as loads and coordinate connectors see them: a scalar value, its velocity
//! and its Jacobian row. A MarkerNodeCoordinate's are its coordinate's displacement, velocity
//! and 1; a MarkerNodeRotationCoordinate's (Exudyn's) are the Tait–Bryan angle recomputed from
//! the node's rotation matrix, the global angular velocity's component and that component's row
//! of the node's rotation Jacobian, [0 | G]_i, which is ∂ω_i/∂q̇ and not the angle's derivative
//! (docs/research/rotation_coordinate_and_rotvec_lie_group.md A2).

use super::resolved::{MarkerModel, ResolvedMarker};
use super::state::MarkerState;
use crate::markers::rotation_vector::rotation_matrix_to_rot_xyz;

impl ResolvedMarker {
    /// The value and velocity of a coordinate marker at total coordinates `qt` and velocities
    /// `v` (0 on a ground node).
    pub fn coordinate_state(&self, qt: &[f64], v: &[f64]) -> (f64, f64) {
        self.coordinate_state_of(qt, None, v)
    }

    /// [`Self::coordinate_state`], a node coordinate's value read from the displacements `q`
    /// where they are given (a forward difference's, perturbed as Exudyn perturbs them: its
    /// coordinate markers read the displacement, not total minus reference).
    pub fn coordinate_state_of(&self, qt: &[f64], q: Option<&[f64]>, v: &[f64]) -> (f64, f64) {
        match (&self.model, self.columns.first()) {
            (MarkerModel::RotationCoordinate { node, index }, _) => {
                let ms = MarkerState::new(node, qt, v);
                let angles = rotation_matrix_to_rot_xyz(&ms.rotation());
                (angles[*index], ms.angular_velocity()[*index])
            }
            (MarkerModel::Kind { .. }, Some(&g)) if q.is_some() => (q.unwrap()[g], v[g]),
            // a node coordinate's kernel parameter is its reference value
            (MarkerModel::Kind { parameters, .. }, Some(&g)) => (qt[g] - parameters[0], v[g]),
            _ => (0.0, 0.0),
        }
    }

    /// The Jacobian row of a coordinate marker over its columns into `out[..columns]`; `jac`
    /// holds a rotation coordinate's 3 × columns rotation Jacobian.
    pub fn coordinate_jacobian(&self, qt: &[f64], v: &[f64], out: &mut [f64], jac: &mut [f64]) {
        let n = self.columns.len();
        if let MarkerModel::RotationCoordinate { node, index } = &self.model {
            let jac = &mut jac[..3 * n];
            MarkerState::new(node, qt, v).rotation_jacobian(jac);
            out[..n].copy_from_slice(&jac[index * n..(index + 1) * n]);
            return;
        }
        out[..n].fill(1.0);
    }
}
