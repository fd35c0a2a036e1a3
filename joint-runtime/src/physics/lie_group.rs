//! The Lie-group update of NodeRigidBodyRotVecLG rotation vectors: a body-frame increment θ
//! moves ν by composition, ν ← (ν + ν_ref) ∘ θ − ν_ref, never by addition; the positions of the
//! node and every other coordinate stay additive. Solvers call these where Exudyn composes
//! (docs/research/rotation_coordinate_and_rotvec_lie_group.md B3, B4).

use nalgebra::Vector3;

use crate::assemble::Topology;
use crate::markers::rotation_vector::compose_rotation_vectors;

impl Topology {
    /// The rotation vector (displacement) of the Lie node starting at ODE2 column `start` of `q`
    /// composed with the body-frame increment `theta`, relative to the reference again.
    pub fn compose_lie_rotation(&self, start: usize, q: &[f64], theta: &Vector3<f64>) -> Vector3<f64> {
        let r = start + 3;
        let reference = Vector3::new(self.reference[r], self.reference[r + 1], self.reference[r + 2]);
        let nu = Vector3::new(q[r], q[r + 1], q[r + 2]);
        compose_rotation_vectors(&(nu + reference), theta) - reference
    }

    /// `q` of the Lie node at `start` moved by the increment `theta` (its 6 entries: position,
    /// then body-frame rotation), in place.
    pub fn compose_lie_node(&self, start: usize, q: &mut [f64], theta: &[f64]) {
        for i in 0..3 {
            q[start + i] += theta[i];
        }
        let nu = self.compose_lie_rotation(start, q, &Vector3::new(theta[3], theta[4], theta[5]));
        q[start + 3..start + 6].copy_from_slice(nu.as_slice());
    }

    /// Whether ODE2 column `c` is a Lie node's rotation coordinate.
    pub fn is_lie_rotation(&self, c: usize) -> bool {
        self.lie_nodes.iter().any(|&s| (s + 3..s + 6).contains(&c))
    }
}
