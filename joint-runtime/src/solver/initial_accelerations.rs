//! Exudyn's consistent initial accelerations of the implicit solvers (spec/solver.md §3): the
//! index-1 system at the start, with Exudyn's convective term.

use super::index1;
use crate::error::Result;
use crate::linear::{LinearSystem, assemble_into};
use crate::physics::{ConvectiveTerm, Scratch};
use crate::settings::{LinearSolverType, TimeIntegrationSettings};
use crate::simulation::Simulation;

impl Simulation {
    /// Consistent initial accelerations (spec/solver.md §3).
    pub(super) fn initial_accelerations(
        &mut self,
        ti: &TimeIntegrationSettings,
        solver_type: LinearSolverType,
    ) -> Result<()> {
        let ga = &ti.generalized_alpha;
        let n2 = self.topology.n_ode2;
        let nae = self.topology.n_ae;
        self.state.lambda.fill(0.0);
        if !ga.compute_initial_accelerations {
            if ga.reset_accelerations {
                self.state.a.fill(0.0);
            }
            return Ok(());
        }
        let n1 = self.topology.n_ode1;
        let ae = n2 + n1;
        let n = ae + nae;
        let topo = &self.topology;
        let mut scratch = Scratch::for_topology(&self.topology);
        let mut qt = vec![0.0; n2];
        topo.total_coordinates(&self.state.q, &mut qt);
        // [[M, C_qᵀ], [C_q, ∂g/∂λ]] [ä; λ] = [f; c]: the accurate mode's index-1 system
        let mut system = LinearSystem::for_solver_type(n, solver_type, |recorder| {
            index1::assemble(topo, &qt, recorder, &mut scratch)
        });
        assemble_into!(system.cleared_matrix(), |m| index1::assemble(
            topo,
            &qt,
            m,
            &mut scratch
        ));
        let mut diag = vec![0.0; nae];
        topo.constraint_lambda_diagonal(&mut diag);
        let mut b = vec![0.0; n];
        let data = &self.state.data;
        topo.ode2_rhs(&qt, &self.state.v, data, 1.0, &mut b[..n2], &mut scratch);
        let v = self.state.v.clone();
        let v_norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if v_norm > 1e-10 {
            // c = −(∂(C_q v)/∂q)·v: generated exactly (Exudyn takes finite differences here)
            let mut c = vec![0.0; nae];
            topo.convective_constraint_term(&qt, &v, ConvectiveTerm::Exudyn, &mut c, &mut scratch);
            // free axes and inactive joints: their equation is λ = 0
            for k in 0..nae {
                b[ae + k] = if diag[k] != 0.0 { 0.0 } else { c[k] };
            }
        }
        match system.factorize() {
            Ok(()) => {
                system.solve_in_place(&mut b);
                self.state.a.copy_from_slice(&b[..n2]);
                if ga.store_initial_algebraic_coordinates {
                    self.state.lambda.copy_from_slice(&b[ae..]);
                }
            }
            Err(_) => {
                // Exudyn warns and starts from zero accelerations.
                self.state.a.fill(0.0);
            }
        }
        Ok(())
    }
}
