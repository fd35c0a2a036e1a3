//! The bodies' Jacobians ∂LHS/∂q and ∂LHS/∂q̇ by forward differences, as Exudyn computes them
//! (rigid bodies, GenericODE2, kinematic trees, and FFRF objects with their own increments).


use super::ForwardDifference;
use super::rigid_body::rigid_lhs;
use super::Scratch;
use super::beam_2d::beam_2d_lhs_jacobian;
use super::rigid_body_2d::rigid_2d_lhs;
use crate::assemble::{BodyTopology, Rotation, Topology};
use crate::linear::MatrixAccumulator;

impl Topology {
    /// Add `factor_k`·K + `factor_d`·D of the rigid bodies by Exudyn's object-wise forward
    /// differences of their LHS (ε = relEps·max(minCoord, |x_i|), x the displacement).
    #[allow(clippy::too_many_arguments)]
    pub fn add_body_jacobians_fd(
        &self,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        for body in &self.bodies {
            match body {
                BodyTopology::GenericODE2 {
                    columns,
                    stiffness,
                    damping,
                    ..
                } => {
                    // linear: K and D exactly
                    for (i, &ci) in columns.iter().enumerate() {
                        for (j, &cj) in columns.iter().enumerate() {
                            m.add(
                                ci,
                                cj,
                                factor_k * stiffness[(i, j)] + factor_d * damping[(i, j)],
                            );
                        }
                    }
                    continue;
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    self.add_ffrf_jacobian_fd(
                        *frame, *modal, data, q, qt, v, factor_k, factor_d, fd, m,
                        scratch,
                    );
                    continue;
                }
                BodyTopology::Beam2D { columns, beam } => {
                    // Exudyn differentiates the beam's LHS automatically: exact
                    let jac = beam_2d_lhs_jacobian(
                        beam,
                        &columns.map(|c| self.reference[c]),
                        &columns.map(|c| qt[c]),
                        &columns.map(|c| v[c]),
                        factor_k,
                        factor_d,
                    );
                    for (i, &ci) in columns.iter().enumerate() {
                        for (j, &cj) in columns.iter().enumerate() {
                            m.add(ci, cj, jac[i * 6 + j]);
                        }
                    }
                    continue;
                }
                BodyTopology::Rigid2D {
                    ode2,
                    mass,
                    center_of_mass,
                    ..
                } => {
                    // Exudyn has no Jacobian for a body centred at its node (its LHS is 0)
                    // and differentiates the LHS numerically otherwise
                    if *center_of_mass == [0.0, 0.0] {
                        continue;
                    }
                    let o = *ode2;
                    let lhs = |c: &[f64; 3], w: &[f64; 3]| {
                        rigid_2d_lhs(*mass, *center_of_mass, c[2], w[2])
                    };
                    let coords = [qt[o], qt[o + 1], qt[o + 2]];
                    let vels = [v[o], v[o + 1], v[o + 2]];
                    let base = lhs(&coords, &vels);
                    for (which, factor) in [(0, factor_k), (1, factor_d)] {
                        if factor == 0.0 {
                            continue;
                        }
                        for i in 0..3 {
                            let c = o + i;
                            let (mut c2, mut v2) = (coords, vels);
                            let x = if which == 0 { q[c] } else { v[c] };
                            let eps = fd.increment(x);
                            if which == 0 {
                                c2[i] = self.reference[c] + (x + eps);
                            } else {
                                v2[i] = x + eps;
                            }
                            let out = lhs(&c2, &v2);
                            for row in 0..3 {
                                m.add(o + row, c, factor * (out[row] - base[row]) / eps);
                            }
                        }
                    }
                    continue;
                }
                BodyTopology::KinematicTree { start, data, .. } => {
                    // Exudyn differentiates the tree's LHS numerically, object-wise
                    let n = data.links();
                    let r = *start..*start + n;
                    let (cq, cv) = (&mut scratch.fd_q[..n], &mut scratch.fd_v[..n]);
                    cq.copy_from_slice(&qt[r.clone()]);
                    cv.copy_from_slice(&v[r]);
                    let (base, out) = (&mut scratch.fd_base[..n], &mut scratch.fd_out[..n]);
                    data.lhs(cq, cv, base);
                    for (which, factor) in [(0, factor_k), (1, factor_d)] {
                        if factor == 0.0 {
                            continue;
                        }
                        for i in 0..n {
                            let c = start + i;
                            let x = if which == 0 { q[c] } else { v[c] };
                            let eps = fd.increment(x);
                            if which == 0 {
                                cq[i] = self.reference[c] + (x + eps);
                            } else {
                                cv[i] = x + eps;
                            }
                            data.lhs(cq, cv, out);
                            cq[i] = qt[c];
                            cv[i] = v[c];
                            for row in 0..n {
                                m.add(start + row, c, factor * (out[row] - base[row]) / eps);
                            }
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let BodyTopology::Rigid {
                ode2,
                rotation,
                mass,
                inertia,
                center_of_mass,
            } = body
            else {
                continue; // a mass point has no LHS
            };
            let n = ode2.len();
            let r = ode2.clone();
            let lie = *rotation == Rotation::RotationVectorLieGroup;
            let base = &mut scratch.lhs[..n];
            rigid_lhs(
                *rotation,
                *mass,
                inertia,
                center_of_mass,
                &qt[r.clone()],
                &v[r.clone()],
                base,
            );
            let base: [f64; 7] = {
                let mut b = [0.0; 7];
                b[..n].copy_from_slice(&scratch.lhs[..n]);
                b
            };
            let mut coords = [0.0; 7];
            let mut vels = [0.0; 7];
            coords[..n].copy_from_slice(&qt[r.clone()]);
            vels[..n].copy_from_slice(&v[r.clone()]);
            // A rigid body's LHS (quadratic velocity terms) reads neither the position nor the
            // translational velocity: perturbing them would return `base` to the bit, so it is not
            // evaluated. The differences (zeros) are still added, so the pattern is unchanged.
            for (which, factor) in [(0, factor_k), (1, factor_d)] {
                if factor == 0.0 {
                    continue;
                }
                for i in 0..n {
                    let x = if which == 0 {
                        q[r.start + i]
                    } else {
                        v[r.start + i]
                    };
                    let eps = fd.increment(x);
                    let out = &mut scratch.lhs2[..n];
                    // a Lie node's position column moves its rotation vector by round-off
                    if i < 3 && !(lie && which == 0) {
                        out.copy_from_slice(&base[..n]);
                    } else {
                        let mut c2 = coords;
                        let mut v2 = vels;
                        if which == 0 && lie {
                            // q ∘ (ε·e_i), as Exudyn perturbs a Lie node
                            self.lie_perturbed_totals(q, r.start, i, eps, &mut c2[..6]);
                        } else if which == 0 {
                            // perturb the displacement, as Exudyn does, then form the total
                            c2[i] = self.reference[r.start + i] + (x + eps);
                        } else {
                            v2[i] = x + eps;
                        }
                        rigid_lhs(
                            *rotation,
                            *mass,
                            inertia,
                            center_of_mass,
                            &c2[..n],
                            &v2[..n],
                            out,
                        );
                    }
                    for row in 0..n {
                        m.add(
                            r.start + row,
                            r.start + i,
                            factor * (out[row] - base[row]) / eps,
                        );
                    }
                }
            }
        }
    }

    /// Forward differences of the FFRF object's LHS over its 7 + n_m coordinates, as Exudyn
    /// differentiates the object numerically.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_ffrf_jacobian_fd(
        &self,
        frame: usize,
        modal: usize,
        data: &crate::superelement::ffrf::FfrfData,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let nm = data.modes();
        let n = 7 + nm;
        let cols = &mut scratch.fd_columns;
        cols.clear();
        cols.extend(frame..frame + 7);
        cols.extend(modal..modal + nm);
        let (cq, cv) = (&mut scratch.fd_q[..n], &mut scratch.fd_v[..n]);
        for (i, &c) in cols.iter().enumerate() {
            cq[i] = qt[c];
            cv[i] = v[c];
        }
        let (base, out) = (&mut scratch.fd_base[..n], &mut scratch.fd_out[..n]);
        let eval = |cq: &[f64], cv: &[f64], out: &mut [f64]| {
            crate::superelement::ffrf::lhs(data, &cq[..7], &cv[..7], &cq[7..], &cv[7..], out);
        };
        eval(cq, cv, base);
        for (which, factor) in [(0, factor_k), (1, factor_d)] {
            if factor == 0.0 {
                continue;
            }
            for (i, &ci) in cols.iter().enumerate() {
                let x = if which == 0 { q[ci] } else { v[ci] };
                let eps = fd.increment(x);
                if which == 0 {
                    cq[i] = self.reference[ci] + (x + eps);
                } else {
                    cv[i] = x + eps;
                }
                eval(cq, cv, out);
                if which == 0 {
                    cq[i] = qt[ci];
                } else {
                    cv[i] = v[ci];
                }
                for (row, &cr) in cols.iter().enumerate() {
                    m.add(cr, ci, factor * (out[row] - base[row]) / eps);
                }
            }
        }
    }
}
