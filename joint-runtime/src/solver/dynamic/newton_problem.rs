//! The time step as a Newton problem: its residual, Jacobian and increments for Exudyn's Newton
//! (`NewtonProblem`) and for the fast mode's (`FastNewtonProblem`).

use super::*;

impl NewtonProblem for StepProblem<'_> {
    fn residual(&mut self) -> f64 {
        let topo = &self.sim.topology;
        let st = &self.sim.state;
        let n2 = topo.n_ode2;
        topo.total_coordinates(&st.q, &mut self.qt);
        // r_q = M ä − f + C_qᵀ λ
        let (rq, rest) = self.rhs.split_at_mut(n2);
        let (ry, rg) = rest.split_at_mut(topo.n_ode1);
        // r_y = f1(y) − ẏ (Exudyn's sign, opposite to r_q's)
        topo.ode1_rhs(&st.y, &mut self.f1, &mut self.scratch);
        for ((r, f1), y_t) in ry.iter_mut().zip(&self.f1).zip(&st.y_t) {
            *r = f1 - y_t;
        }
        if self.fast_path {
            topo.newton_euler_residual(
                &self.qt,
                &st.v,
                &st.a,
                &st.data,
                &mut self.f,
                rq,
                &mut self.scratch,
            );
        } else {
            topo.ode2_rhs(
                &self.qt,
                &st.v,
                &st.data,
                1.0,
                &mut self.f,
                &mut self.scratch,
            );
            for (r, f) in rq.iter_mut().zip(&self.f) {
                *r = -f;
            }
            topo.add_mass_times(&self.qt, &st.a, rq, &mut self.scratch);
        }
        if self.fast_path && !self.index2 {
            topo.constraint_residual_and_reaction_forces(
                &self.qt,
                &st.v,
                &st.lambda,
                rg,
                rq,
                &mut self.scratch,
            );
        } else {
            if self.fast_path {
                topo.add_reaction_forces_by_kernels(&self.qt, &st.lambda, rq, &mut self.scratch);
            } else {
                topo.add_reaction_forces(&self.qt, &st.lambda, rq, &mut self.scratch);
            }
            let level = if self.index2 {
                ConstraintLevel::Velocity
            } else {
                ConstraintLevel::Position
            };
            topo.constraint_residual(&self.qt, &st.v, &st.lambda, level, rg, &mut self.scratch);
        }
        let err = self.rhs.iter().map(|x| x * x).sum::<f64>().sqrt() / self.c_err;
        for x in &mut self.rhs[..n2] {
            *x *= self.s;
        }
        err
    }

    fn factorize_jacobian(&mut self) -> std::result::Result<(), SingularColumn> {
        let mut system = std::mem::replace(&mut self.system, LinearSystem::dense(0));
        assemble_into!(system.cleared_matrix(), |m| self
            .assemble_iteration_matrix(m, self.exact));
        self.system = system;
        self.anderson.reset();
        self.system.factorize()
    }

    fn apply_newton_step(&mut self) {
        self.system.solve_in_place(&mut self.rhs);
        let st = &mut self.sim.state;
        let n2 = st.q.len();
        self.increment = self.rhs[..n2].iter().fold(0.0, |m: f64, x| m.max(x.abs()));
        if self.fast_path {
            // qt: the total coordinates of the iterate the step was solved at
            self.increment_at_roundoff = increment_within_roundoff(&self.rhs[..n2], &self.qt);
        }
        self.applied_increment = if self.anderson.mix(&mut self.rhs) {
            self.rhs[..n2].iter().fold(0.0, |m: f64, x| m.max(x.abs()))
        } else {
            self.increment
        };
        if self.lie_column.is_empty() {
            // slices and factors held locally: through `self` the compiler reloads every
            // vector's address at every entry
            let (gp, bp) = (self.gamma_p, self.beta_p);
            let (q, v, a) = (&mut st.q[..n2], &mut st.v[..n2], &mut st.a[..n2]);
            for (((q, v), a), d) in q.iter_mut().zip(v).zip(a).zip(&self.rhs[..n2]) {
                *q -= d;
                *v -= gp * d;
                *a -= bp * d;
            }
        } else if self.lie_simplified {
            for i in 0..n2 {
                let d = self.rhs[i];
                if self.lie_column[i] == LieColumn::None {
                    st.q[i] -= d;
                }
                st.v[i] -= self.gamma_p * d;
                st.a[i] -= self.beta_p * d;
            }
            // θ −= Δ, q = q_n ∘ θ (always from the step's start)
            let topo = &self.sim.topology;
            for (k, &start) in topo.lie_nodes.iter().enumerate() {
                for j in 0..6 {
                    self.lie_theta[6 * k + j] -= self.rhs[start + j];
                }
            }
            compose_from_step_start(topo, &self.q_n, &self.lie_theta, &mut st.q);
        } else {
            for i in 0..n2 {
                let d = self.rhs[i];
                if self.lie_column[i] != LieColumn::Rotation {
                    st.q[i] -= d;
                }
                st.v[i] -= self.gamma_p * d;
                st.a[i] -= self.beta_p * d;
            }
            // a Lie node's rotation vector: ν ← (ν + ν_ref) ∘ (−Δ) − ν_ref
            let topo = &self.sim.topology;
            for &start in &topo.lie_nodes {
                let r = start + 3;
                let delta = -Vector3::new(self.rhs[r], self.rhs[r + 1], self.rhs[r + 2]);
                let nu = topo.compose_lie_rotation(start, &st.q, &delta);
                st.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        let n1 = st.y.len();
        for k in 0..n1 {
            let d = self.rhs[n2 + k];
            st.y[k] -= d;
            st.y_t[k] -= 2.0 / self.h * d;
        }
        for (k, l) in st.lambda.iter_mut().enumerate() {
            *l -= self.rhs[n2 + n1 + k] / self.s;
        }
    }

    fn diverged(&self, max_norm: f64) -> bool {
        let st = &self.sim.state;
        // in partial sums (`linear::dot`): three passes over every unknown at every iteration,
        // whose sums in order were most of `fast_newton`'s own 3.9 % in a time profile of
        // chain N = 1000; a NaN anywhere makes its sum NaN in any order
        let q2 = dot(&st.q, &st.q);
        let v2 = dot(&st.v, &st.v);
        q2 >= max_norm
            || v2 >= max_norm
            || q2.is_nan()
            || v2.is_nan()
            || dot(&st.lambda, &st.lambda).is_nan()
    }

    fn restart(&mut self) {
        self.restore_start_of_step();
        self.a_buf.copy_from_slice(&self.a_start);
        self.predictor();
    }
}

impl FastNewtonProblem for StepProblem<'_> {
    /// Exudyn's predictor q_P, v_P, then moved to the ä and λ extrapolated from the last steps:
    /// every iterate of the step satisfies ä = β'(q − q_P) and v = v_P + γ'(q − q_P)
    /// (spec/solver.md §2.3), so q = q_P + ä₀/β', v = v_P + (γ'/β')·ä₀.
    ///
    /// On uniform steps the extrapolation is the one of `solver/extrapolation.rs` that
    /// predicted best. Off them it is quadratic in time if that predicted the last step's ä
    /// better than the linear one did (max-norm), else linear; just ä_n, λ_n at the first
    /// step.
    ///
    /// The predictor writes all of q, v, ä, y and ẏ from the step's start, so nothing is
    /// restored first (a restart of the step comes here too).
    fn fast_start(&mut self) {
        self.anderson.reset();
        self.a_buf.copy_from_slice(&self.a_start);
        self.predictor();
        let (bp, gp) = (self.beta_p, self.gamma_p);
        let (h, h1, h2) = (self.h, self.h_prev, self.h_prev2);
        // on uniform steps the chosen extrapolations (solver/extrapolation.rs), else the
        // variable-step formulas: quadratic if that predicted the last step's ä better
        let acc_extrapolated = self
            .acc_extrapolation
            .predict(h, &mut self.acc_extrapolated);
        let lambda_extrapolated = self
            .lambda_extrapolation
            .predict(h, &mut self.lambda_extrapolated);
        let quadratic_known = h1 > 0.0 && h2 > 0.0;
        let quadratic = quadratic_known && self.variable_step_predictions && {
            let error = |predicted: &[f64]| {
                predicted
                    .iter()
                    .zip(&self.acc_n)
                    .fold(0.0, |m: f64, (p, a)| m.max((p - a).abs()))
            };
            // NaN (no quadratic prediction last step) compares false: linear
            error(&self.predicted_quadratic) < error(&self.predicted_linear)
        };
        self.variable_step_predictions = !acc_extrapolated;
        let st = &mut self.sim.state;
        for i in 0..st.q.len() {
            let a = if acc_extrapolated {
                self.acc_extrapolated[i]
            } else {
                let history = [self.acc_n[i], self.acc_prev[i], self.acc_prev2[i]];
                let linear = extrapolate_linear(history, h, h1);
                self.predicted_linear[i] = linear;
                self.predicted_quadratic[i] = if quadratic_known {
                    extrapolate_quadratic(history, h, h1, h2)
                } else {
                    f64::NAN
                };
                if quadratic {
                    self.predicted_quadratic[i]
                } else {
                    linear
                }
            };
            st.a[i] = a;
            if self.lie_column.is_empty() || self.lie_column[i] != LieColumn::Rotation {
                st.q[i] += a / bp;
            }
            st.v[i] += gp / bp * a;
        }
        let topo = &self.sim.topology;
        if self.lie_simplified {
            // θ moves as Newton's increments move it, and q follows from the step's start
            for (k, &start) in topo.lie_nodes.iter().enumerate() {
                for j in 0..6 {
                    self.lie_theta[6 * k + j] += st.a[start + j] / bp;
                }
            }
            compose_from_step_start(topo, &self.q_n, &self.lie_theta, &mut st.q);
        } else {
            // a Lie node's rotation moves by composition, as Newton's increments do
            for &start in &topo.lie_nodes {
                let r = start + 3;
                let theta = Vector3::new(st.a[r], st.a[r + 1], st.a[r + 2]) / bp;
                let nu = topo.compose_lie_rotation(start, &st.q, &theta);
                st.q[r..r + 3].copy_from_slice(nu.as_slice());
            }
        }
        if lambda_extrapolated {
            st.lambda.copy_from_slice(&self.lambda_extrapolated);
        } else {
            for (k, l) in st.lambda.iter_mut().enumerate() {
                let history = [self.lambda_n[k], self.lambda_prev[k], self.lambda_prev2[k]];
                *l = if quadratic {
                    extrapolate_quadratic(history, h, h1, h2)
                } else {
                    extrapolate_linear(history, h, h1)
                };
            }
        }
    }

    fn increment_at_roundoff(&self) -> bool {
        self.increment_at_roundoff
    }

    fn increment_norm(&self) -> f64 {
        self.increment
    }

    fn applied_increment_norm(&self) -> f64 {
        self.applied_increment
    }

    fn cheap_jacobian(&self) -> bool {
        !self.system.is_sparse()
    }

    fn coordinate_scale(&self) -> f64 {
        self.sim
            .state
            .q
            .iter()
            .fold(1.0, |m: f64, x| m.max(x.abs()))
    }

    fn force_norm(&self) -> f64 {
        self.f.iter().map(|x| x * x).sum::<f64>().sqrt() / self.c_err
    }
}
