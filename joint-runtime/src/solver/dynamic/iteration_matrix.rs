//! The step's iteration matrix as Exudyn scales it (spec/solver.md §4), with the tangent
//! operators of Lie-group nodes folded into their rotation columns.

use super::*;

impl StepProblem<'_> {
    /// J̄ = ∂r/∂q scaled as Exudyn scales it (spec/solver.md §4): s·(βʹM + K + γʹD) + C_qᵀ in
    /// the ODE2 rows, C_q (index 3) or γʹ·C_q (index 2) in the AE rows; with
    /// `geometric_stiffness`, also s·∂(C_qᵀλ)/∂q.
    pub(super) fn assemble_iteration_matrix(
        &mut self,
        m: &mut impl MatrixAccumulator,
        geometric_stiffness: bool,
    ) {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        let (s, bp, gp) = (self.s, self.beta_p, self.gamma_p);
        topo.total_coordinates(&st.q, &mut self.qt);
        topo.add_mass_matrix(&self.qt, s * bp, m, &mut self.scratch);
        let tangent = self.lie_simplified && self.lie_tangent;
        if tangent {
            for (k, t) in self.lie_tangents.iter_mut().enumerate() {
                let th = &self.lie_theta[6 * k + 3..6 * k + 6];
                *t = t_exp_so3(&Vector3::new(th[0], th[1], th[2]));
            }
        }
        // the stiffness parts (times T(θ) on Lie rotation columns with the tangent operator)
        // and the damping parts; one pass each without it, as Exudyn sums them
        let (factor_d, damping_apart) = if tangent {
            (0.0, true)
        } else {
            (s * gp, false)
        };
        {
            let mut k_acc = TangentColumns {
                inner: &mut *m,
                nodes: if tangent { &topo.lie_nodes } else { &[] },
                tangents: &self.lie_tangents,
            };
            topo.add_body_jacobians_fd(
                &st.q,
                &self.qt,
                &st.v,
                s,
                factor_d,
                self.fd,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
            topo.add_connector_jacobians(
                &self.qt,
                &st.v,
                s,
                factor_d,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
            topo.add_connector_jacobians_fd(
                &st.q,
                &mut self.qt,
                &st.v,
                &st.data,
                s,
                factor_d,
                self.fd,
                self.fast_path,
                &mut k_acc,
                &mut self.scratch,
            );
        }
        if damping_apart {
            topo.add_body_jacobians_fd(
                &st.q,
                &self.qt,
                &st.v,
                0.0,
                s * gp,
                self.fd,
                self.fast_path,
                m,
                &mut self.scratch,
            );
            topo.add_connector_jacobians(
                &self.qt,
                &st.v,
                0.0,
                s * gp,
                self.fast_path,
                m,
                &mut self.scratch,
            );
            topo.add_connector_jacobians_fd(
                &st.q,
                &mut self.qt,
                &st.v,
                &st.data,
                0.0,
                s * gp,
                self.fd,
                self.fast_path,
                m,
                &mut self.scratch,
            );
        }
        // ODE1 rows: ∂(f1 − ẏ)/∂y = ∂f1/∂y − (2/h)·I
        let n2 = topo.n_ode2;
        self.y_fd.copy_from_slice(&st.y);
        topo.add_ode1_jacobian_fd(&mut self.y_fd, self.fd, n2, m, &mut self.scratch);
        topo.add_ode1_diagonal(-2.0 / self.h, m);
        // AE rows: C_q (index 3) or γ'·C_q (index 2), rows written at velocity level γ'·C in
        // either; free axes: (1/s)·∂g/∂λ̄
        let factors = ConstraintRowFactors {
            position: if self.index2 { gp } else { 1.0 },
            velocity: gp,
        };
        // C_q's Lie rotation columns times T(θ) with the tangent operator (C_qᵀ's columns are
        // the AE ones: untouched)
        let mut c_acc = TangentColumns {
            inner: m,
            nodes: if tangent { &topo.lie_nodes } else { &[] },
            tangents: &self.lie_tangents,
        };
        topo.add_constraint_blocks(
            &self.qt,
            factors,
            1.0 / s,
            self.constraint_rows,
            &mut c_acc,
            &mut self.scratch,
        );
        if geometric_stiffness {
            // s·∂(C_qᵀλ)/∂q: the ODE2 rows are scaled by s
            topo.add_constraint_geometric_stiffness(
                &self.qt,
                &st.lambda,
                s,
                &mut c_acc,
                &mut self.scratch,
            );
        }
    }
}

/// `m` with the entries of a Lie node's rotation columns multiplied by its tangent operator
/// from the right, (K·T)[r, j] = Σ_k K[r, k]·T[k, j]: the simplified relations' iteration
/// matrix for K and C_q (Exudyn's lieGroupAddTangentOperator).
struct TangentColumns<'a, M> {
    inner: &'a mut M,
    nodes: &'a [usize],
    tangents: &'a [Matrix3<f64>],
}

impl<M: MatrixAccumulator> MatrixAccumulator for TangentColumns<'_, M> {
    /// Without tangent operators (all but Lie-group models) a plain add, inlined into the
    /// assembly loops: as an out-of-line call it was a tenth of a Jacobian-heavy run.
    #[inline(always)]
    fn add(&mut self, row: usize, column: usize, value: f64) {
        if self.nodes.is_empty() {
            self.inner.add(row, column, value);
        } else {
            self.add_with_tangents(row, column, value);
        }
    }
}

impl<M: MatrixAccumulator> TangentColumns<'_, M> {
    #[inline(never)]
    fn add_with_tangents(&mut self, row: usize, column: usize, value: f64) {
        for (node, &start) in self.nodes.iter().enumerate() {
            if (start + 3..start + 6).contains(&column) {
                let k = column - start - 3;
                let t = &self.tangents[node];
                for j in 0..3 {
                    self.inner.add(row, start + 3 + j, value * t[(k, j)]);
                }
                return;
            }
        }
        self.inner.add(row, column, value);
    }
}
