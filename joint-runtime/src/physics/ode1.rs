//! The first-order equations ẏ = f1(y, t): every ObjectGenericODE1's A·y + f, summed into the
//! ODE1 coordinates of its nodes (Exudyn's `ComputeSystemODE1RHS`; the displacements y, not
//! y_ref + y), and their Jacobian ∂f1/∂y by Exudyn's forward differences.

use super::{ForwardDifference, Scratch};
use crate::assemble::{Ode1System, Topology};
use crate::linear::MatrixAccumulator;

/// One object's right-hand side A·y_obj + f into `out` (its local rows), as Exudyn's
/// `ComputeODE1RHS`: the matrix product summed column by column, then the vector added.
fn object_rhs(system: &Ode1System, y: &[f64], out: &mut [f64]) {
    for (i, value) in out.iter_mut().enumerate() {
        *value = 0.0;
        if let Some(a) = &system.matrix {
            for (j, &column) in system.columns.iter().enumerate() {
                *value += a[(i, j)] * y[column];
            }
        }
        if let Some(f) = &system.rhs {
            *value += f[i];
        }
    }
}

impl Topology {
    /// `f1 = f1(y)`: each object's rows computed first, then added into `f1`, as Exudyn sums
    /// objects' local right-hand sides.
    pub fn ode1_rhs(&self, y: &[f64], f1: &mut [f64], scratch: &mut Scratch) {
        f1.fill(0.0);
        for system in &self.ode1_systems {
            let local = &mut scratch.fd_base[..system.columns.len()];
            object_rhs(system, y, local);
            for (&row, value) in system.columns.iter().zip(local.iter()) {
                f1[row] += value;
            }
        }
    }

    /// Add ∂f1/∂y at rows and columns `offset + ODE1 index`, by Exudyn's object-wise forward
    /// differences (`NumericalJacobianODE1RHS`): column j is (f0 − f1)·(−1/ε) with
    /// ε = relativeEpsilon·max(minimumCoordinateSize, |y_j|). For the linear objects this is A
    /// up to the differences' round-off, which Exudyn's Newton path carries (its first
    /// iteration then leaves ~1e-9 relative, below the tolerance).
    pub fn add_ode1_jacobian_fd(
        &self,
        y: &mut [f64],
        fd: ForwardDifference,
        offset: usize,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        for system in &self.ode1_systems {
            let n = system.columns.len();
            let (f0, f1) = (&mut scratch.fd_base[..n], &mut scratch.fd_out[..n]);
            object_rhs(system, y, f0);
            for &column in &system.columns {
                let stored = y[column];
                let eps = fd.increment(stored);
                y[column] += eps;
                object_rhs(system, y, f1);
                y[column] = stored;
                let factor = -(1.0 / eps);
                for (i, &row) in system.columns.iter().enumerate() {
                    m.add(offset + row, offset + column, (f0[i] - f1[i]) * factor);
                }
            }
        }
    }

    /// Add `value` on the ODE1 block's diagonal of a `[ODE2 | ODE1 | AE]` system: −2/h (ẏ's
    /// part of the implicit Jacobian), or 1 where the ODE1 rows are held.
    pub fn add_ode1_diagonal(&self, value: f64, m: &mut impl MatrixAccumulator) {
        for i in self.n_ode2..self.ae_start() {
            m.add(i, i, value);
        }
    }

    /// The first AE unknown of the solvers' systems `[ODE2 | ODE1 | AE]`.
    pub fn ae_start(&self) -> usize {
        self.n_ode2 + self.n_ode1
    }
}

#[cfg(test)]
mod tests {
    use crate::items::{Node, NodeIndex, Object};
    use crate::system::MultibodySystem;

    /// Two objects on one node add their right-hand sides; y is the displacement.
    #[test]
    fn objects_on_one_node_add_their_right_hand_sides() {
        let mut mbs = MultibodySystem::new();
        mbs.add_node(Node::GenericODE1 {
            name: String::new(),
            reference_coordinates: vec![10.0, 20.0],
            initial_coordinates: vec![1.0, 2.0],
        });
        mbs.add_object(Object::GenericODE1 {
            name: String::new(),
            nodes: vec![NodeIndex(0)],
            system_matrix: nalgebra::DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -4.0, 0.5]),
            rhs_vector: vec![],
        });
        mbs.add_object(Object::GenericODE1 {
            name: String::new(),
            nodes: vec![NodeIndex(0)],
            system_matrix: nalgebra::DMatrix::zeros(0, 0),
            rhs_vector: vec![3.0, -1.0],
        });
        let sim = mbs.assemble().unwrap();
        let mut f1 = [0.0; 2];
        let mut scratch = crate::physics::Scratch::for_topology(&sim.topology);
        sim.topology.ode1_rhs(&sim.state.y, &mut f1, &mut scratch);
        assert_eq!(f1, [2.0 + 3.0, -4.0 + 1.0 - 1.0]);
    }
}
