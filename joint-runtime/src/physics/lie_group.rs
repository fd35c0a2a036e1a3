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
    pub fn compose_lie_rotation(
        &self,
        start: usize,
        q: &[f64],
        theta: &Vector3<f64>,
    ) -> Vector3<f64> {
        let r = start + 3;
        let reference = Vector3::new(
            self.reference[r],
            self.reference[r + 1],
            self.reference[r + 2],
        );
        let nu = Vector3::new(q[r], q[r + 1], q[r + 2]);
        compose_rotation_vectors(&(nu + reference), theta) - reference
    }

    /// `qt` (the total coordinates of the displacements `q`) with column `g` perturbed by
    /// `eps` as Exudyn's numerical differentiation does: `qt[g] = ref + (q[g] + ε)`, or, for a
    /// column of a Lie node, q ∘ (ε·e_i) over the node's 6 coordinates — which moves ν by
    /// round-off even for a position column (SetNumDiffObjectLieGroup; research doc B4).
    /// [`Topology::restore_total`] undoes it.
    pub fn perturb_total(&self, q: &[f64], qt: &mut [f64], g: usize, eps: f64) {
        match self.lie_node_of(g) {
            None => qt[g] = self.reference[g] + (q[g] + eps),
            Some(start) => {
                self.lie_perturbed_totals(q, start, g - start, eps, &mut qt[start..start + 6])
            }
        }
    }

    /// The 6 total coordinates of the Lie node at `start` after q ∘ (ε·e_i) into `out`.
    pub fn lie_perturbed_totals(
        &self,
        q: &[f64],
        start: usize,
        i: usize,
        eps: f64,
        out: &mut [f64],
    ) {
        let mut theta = Vector3::zeros();
        for k in 0..3 {
            out[k] = self.reference[start + k] + q[start + k];
        }
        if i >= 3 {
            theta[i - 3] = eps;
        } else {
            out[i] = self.reference[start + i] + (q[start + i] + eps);
        }
        let nu = self.compose_lie_rotation(start, q, &theta);
        for k in 0..3 {
            out[3 + k] = self.reference[start + 3 + k] + nu[k];
        }
    }

    /// The totals [`Topology::perturb_total`] changed for column `g`, from `q` again.
    pub fn restore_total(&self, q: &[f64], qt: &mut [f64], g: usize) {
        let columns = match self.lie_node_of(g) {
            None => g..g + 1,
            Some(start) => start..start + 6,
        };
        for c in columns {
            qt[c] = self.reference[c] + q[c];
        }
    }

    /// The first column of the Lie node ODE2 column `c` belongs to, if any.
    pub fn lie_node_of(&self, c: usize) -> Option<usize> {
        self.lie_nodes
            .iter()
            .copied()
            .find(|&s| (s..s + 6).contains(&c))
    }
}
