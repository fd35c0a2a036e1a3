//! The bodies' Jacobians ∂LHS/∂q and ∂LHS/∂q̇ by forward differences, as Exudyn computes them
//! (rigid bodies, GenericODE2, kinematic trees, and FFRF objects with their own increments); on
//! the fast path the rigid bodies' from the compiler's derivatives instead
//! (`marker_kinematics::rigid_body_terms`).

use nalgebra::Matrix3;

use super::ForwardDifference;
use super::Scratch;
use super::beam_2d::beam_2d_lhs_jacobian;
use super::rigid_body::rigid_lhs;
use super::rigid_body_2d::rigid_2d_lhs;
use crate::assemble::{BodyTopology, Rotation, Topology};
use crate::kernels::marker_kinematics::rigid_body_terms as terms;
use crate::linear::MatrixAccumulator;

impl Topology {
    /// Add `factor_k`·K + `factor_d`·D of the bodies by Exudyn's object-wise forward
    /// differences of their LHS (ε = relEps·max(minCoord, |x_i|), x the displacement); with
    /// `derived`, those of the rigid bodies with Euler parameters or Tait–Bryan angles from the
    /// compiler's exact derivatives instead.
    #[allow(clippy::too_many_arguments)]
    pub fn add_body_jacobians_fd(
        &self,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        derived: bool,
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
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    self.add_ffrf_jacobian_fd(
                        *frame, *modal, data, q, qt, v, factor_k, factor_d, fd, m, scratch,
                    );
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
                }
                BodyTopology::Rigid2D { .. } => {
                    self.add_rigid_2d_jacobian_fd(body, q, qt, v, factor_k, factor_d, fd, m);
                }
                BodyTopology::KinematicTree { .. } => {
                    self.add_tree_jacobian_fd(body, q, qt, v, factor_k, factor_d, fd, m, scratch);
                }
                BodyTopology::Rigid { .. } => self.add_rigid_jacobian(
                    body, q, qt, v, factor_k, factor_d, fd, derived, m, scratch,
                ),
                // a mass point has no LHS
                _ => {}
            }
        }
    }

    /// A planar rigid body: Exudyn has no Jacobian for one centred at its node (its LHS is 0)
    /// and differentiates the LHS numerically otherwise.
    #[allow(clippy::too_many_arguments)]
    fn add_rigid_2d_jacobian_fd(
        &self,
        body: &BodyTopology,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        m: &mut impl MatrixAccumulator,
    ) {
        let BodyTopology::Rigid2D {
            ode2,
            mass,
            center_of_mass,
            ..
        } = body
        else {
            unreachable!("called for planar rigid bodies")
        };
        if *center_of_mass == [0.0, 0.0] {
            return;
        }
        let o = *ode2;
        let lhs = |c: &[f64; 3], w: &[f64; 3]| rigid_2d_lhs(*mass, *center_of_mass, c[2], w[2]);
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
    }

    /// A kinematic tree: Exudyn differentiates its LHS numerically, object-wise.
    #[allow(clippy::too_many_arguments)]
    fn add_tree_jacobian_fd(
        &self,
        body: &BodyTopology,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let BodyTopology::KinematicTree { start, data, .. } = body else {
            unreachable!("called for kinematic trees")
        };
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
    }

    /// A rigid body: forward differences of its LHS (a Lie node's perturbed by composition), or
    /// with `derived` and a parametrization the compiler differentiates, its exact derivatives.
    #[allow(clippy::too_many_arguments)]
    fn add_rigid_jacobian(
        &self,
        body: &BodyTopology,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        fd: ForwardDifference,
        derived: bool,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let BodyTopology::Rigid {
            ode2,
            rotation,
            mass,
            inertia,
            center_of_mass,
        } = body
        else {
            unreachable!("called for rigid bodies")
        };
        let n = ode2.len();
        let r = ode2.clone();
        let lie = *rotation == Rotation::RotationVectorLieGroup;
        if derived && !lie {
            if factor_k == 0.0 && factor_d == 0.0 {
                return;
            }
            let block = rigid_lhs_derivatives(
                *rotation,
                *mass,
                inertia,
                center_of_mass,
                &qt[r.clone()],
                &v[r.clone()],
            );
            add_rigid_block(&block, r.start, n, factor_k, factor_d, m);
            return;
        }
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

/// ∂LHS/∂θ and ∂LHS/∂θ̇ of a rigid body with Euler parameters or Tait–Bryan angles, rows of
/// the body's LHS (translation, then rotation) by rotation parameters, from the generated
/// derivatives: the centred form when the centre of mass is at the node (its translational
/// rows are zero).
pub(crate) struct RigidLhsDerivatives {
    pub stiffness: [[f64; 4]; 7],
    pub damping: [[f64; 4]; 7],
}

pub(crate) fn rigid_lhs_derivatives(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    com: &[f64; 3],
    qt: &[f64],
    v: &[f64],
) -> RigidLhsDerivatives {
    let j = [0, 1, 2].map(|r| [0, 1, 2].map(|c| inertia[(r, c)]));
    let moment = com.map(|b| -mass * b);
    let centred = *com == [0.0; 3];
    let mut out = RigidLhsDerivatives {
        stiffness: [[0.0; 4]; 7],
        damping: [[0.0; 4]; 7],
    };
    // (rows, parameters) of the generated blocks, row-major
    fn unpack<const P: usize>(block: &[f64], first_row: usize, into: &mut [[f64; 4]; 7]) {
        for (row, values) in block.chunks_exact(P).enumerate() {
            into[first_row + row][..P].copy_from_slice(values);
        }
    }
    match rotation {
        Rotation::EulerParameters => {
            let theta = [qt[3], qt[4], qt[5], qt[6]];
            let theta_t = [v[3], v[4], v[5], v[6]];
            if centred {
                let (mut k, mut d) = ([0.0; 16], [0.0; 16]);
                terms::euler_parameters_centred(&theta, &theta_t, &j, &mut k, &mut d);
                unpack::<4>(&k, 3, &mut out.stiffness);
                unpack::<4>(&d, 3, &mut out.damping);
            } else {
                let (mut k, mut d) = ([0.0; 28], [0.0; 28]);
                terms::euler_parameters(&theta, &theta_t, &moment, &j, &mut k, &mut d);
                unpack::<4>(&k, 0, &mut out.stiffness);
                unpack::<4>(&d, 0, &mut out.damping);
            }
        }
        Rotation::TaitBryanXyz => {
            let theta = [qt[3], qt[4], qt[5]];
            let theta_t = [v[3], v[4], v[5]];
            if centred {
                let (mut k, mut d) = ([0.0; 9], [0.0; 9]);
                terms::tait_bryan_xyz_centred(&theta, &theta_t, &j, &mut k, &mut d);
                unpack::<3>(&k, 3, &mut out.stiffness);
                unpack::<3>(&d, 3, &mut out.damping);
            } else {
                let (mut k, mut d) = ([0.0; 18], [0.0; 18]);
                terms::tait_bryan_xyz(&theta, &theta_t, &moment, &j, &mut k, &mut d);
                unpack::<3>(&k, 0, &mut out.stiffness);
                unpack::<3>(&d, 0, &mut out.damping);
            }
        }
        Rotation::RotationVectorLieGroup => unreachable!("a Lie-group node is differenced"),
    }
    out
}

/// Add `factor_k`·K + `factor_d`·D over the body's whole (n × n) block at `start`, the
/// translational columns' zeros included, so that the matrix pattern is the forward
/// differences' (which add every column of the block).
fn add_rigid_block(
    block: &RigidLhsDerivatives,
    start: usize,
    n: usize,
    factor_k: f64,
    factor_d: f64,
    m: &mut impl MatrixAccumulator,
) {
    for row in 0..n {
        for column in 0..n {
            let value = match column.checked_sub(3) {
                Some(p) => factor_k * block.stiffness[row][p] + factor_d * block.damping[row][p],
                None => 0.0,
            };
            m.add(start + row, start + column, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated ∂LHS/∂θ and ∂LHS/∂θ̇ against central differences of the runtime's own
    /// LHS ([`rigid_lhs`], Exudyn's formulas written out): Euler parameters and Tait–Bryan
    /// angles, centre of mass at the node and off it, at an unnormalized θ and a velocity of
    /// order 1. The translational columns, which the LHS does not read, are not derived.
    #[test]
    fn generated_rigid_lhs_derivatives_are_the_lhs_derivatives() {
        let (inertia, cases) = super::super::rigid_body::tests::inertia_and_states();
        let mass = 2.5;
        for (rotation, q, v) in cases {
            for com in [[0.0; 3], [0.1, -0.05, 0.2]] {
                let n = q.len();
                let block = rigid_lhs_derivatives(rotation, mass, &inertia, &com, &q, &v);
                let lhs = |q: &[f64], v: &[f64]| {
                    let mut out = vec![0.0; n];
                    rigid_lhs(rotation, mass, &inertia, &com, q, v, &mut out);
                    out
                };
                let h = 1e-6;
                for p in 0..n - 3 {
                    for (velocity, derived) in [(false, &block.stiffness), (true, &block.damping)] {
                        let shifted = |s: f64| {
                            let (mut q2, mut v2) = (q.clone(), v.clone());
                            if velocity {
                                v2[3 + p] += s;
                            } else {
                                q2[3 + p] += s;
                            }
                            lhs(&q2, &v2)
                        };
                        let (plus, minus) = (shifted(h), shifted(-h));
                        for row in 0..n {
                            let fd = (plus[row] - minus[row]) / (2.0 * h);
                            let exact = derived[row][p];
                            assert!(
                                (fd - exact).abs() <= 1e-7 * (1.0 + exact.abs()),
                                "{rotation:?} com {com:?}: ∂LHS[{row}]/∂{}{p} {exact} against {fd}",
                                if velocity { "θ̇" } else { "θ" }
                            );
                        }
                    }
                }
            }
        }
    }
}
