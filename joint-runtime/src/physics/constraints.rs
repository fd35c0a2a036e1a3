//! Constraints: the joints' and Euler-parameter constraints' residuals, Jacobian rows and
//! blocks, the convective term ∂(C_q v)/∂q, the geometric stiffness ∂(C_qᵀλ)/∂q (generated
//! where the joint has second-order terms, by differences otherwise) and the reaction forces
//! C_qᵀλ.

use super::{Scratch, marker_level};
use crate::assemble::Topology;
use crate::items::joints::{
    ConstraintLevel, JointKernel, JointTopology, SIZES_CHECKED, joint_kernel_rows,
};
use crate::linear::MatrixAccumulator;
use crate::markers::MarkerState;
use crate::markers::state::kernel_args_at;

/// Joint `j`'s markers as its marker-level kernels see them: their frames, but for a joint with
/// an unrolled pairing, whose frame parameters hold the markers' local rotations (assembly
/// folds them in), the bodies' frames.
fn composition_states<'a>(
    j: &JointTopology,
    markers: [&'a crate::markers::ResolvedMarker; 2],
    qt: &'a [f64],
    v: &'a [f64],
) -> [MarkerState<'a>; 2] {
    markers.map(|m| {
        let state = MarkerState::new(m, qt, v);
        match j.kernel {
            JointKernel::Pairing(_) => state.without_local_rotation(),
            JointKernel::MarkerLevel => state,
        }
    })
}

/// The factors that turn C into the constraint rows of an iteration matrix, the rows'
/// derivatives by the Newton unknowns (the positions): C for a position-level row g(q), γ'·C for
/// its index-2 form ġ, and ∂g/∂q̇·∂q̇/∂q = γ'·C for a row written at velocity level in a time
/// step (Exudyn neglects its ∂g/∂q at fixed q̇ there, as it does C_q's derivative in index 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstraintRowFactors {
    /// Position-level rows (joints and Euler-parameter constraints): 1 in index 3, γ' in index 2.
    pub position: f64,
    /// Rows of joints written at velocity level: γ' in a time step (either index, as Exudyn),
    /// 1 in statics and for the initial accelerations.
    pub velocity: f64,
}

impl ConstraintRowFactors {
    /// C as it is: statics, initial accelerations.
    pub const UNIT: ConstraintRowFactors = ConstraintRowFactors {
        position: 1.0,
        velocity: 1.0,
    };

    /// The factor of `row`.
    pub fn of(self, row: ConstraintRow) -> f64 {
        if row.velocity_level {
            self.velocity
        } else {
            self.position
        }
    }
}

/// One AE row of C, as [`Topology::for_each_constraint_jacobian_row`] visits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstraintRow {
    /// The AE equation.
    pub ae: usize,
    /// Whether it is a row of a joint written at velocity level (C = ∂g/∂q̇).
    pub velocity_level: bool,
}

/// How [`Topology::convective_constraint_term`] forms the terms it does not have generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvectiveTerm {
    /// As Exudyn's initial accelerations: rows of joints written at velocity level C·q̈ = 0,
    /// forward differences (relative error about 1e-7).
    Exudyn,
    /// The accurate mode's: rows written at velocity level −∂(C q̇ + b)/∂q·q̇ too (without it
    /// their velocity error grows by h·that term per step), central differences (about 1e-10).
    Accurate,
}

/// Which constraint Jacobian the AE rows get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintJacobian {
    /// Exudyn's C_q (`[I | −A·skew(b)·Ḡ]` for rigid markers): for Euler parameters ∂g/∂q only
    /// along tangents of |θ| = 1. Every Exudyn path uses it.
    Exudyn,
    /// ∂g/∂q of the position-level residual for joints with generated pairings (the fast path:
    /// Newton converges quadratically with it; Exudyn's linearly, by about 0.1 per iteration,
    /// off the unit sphere).
    PositionLevel,
}

impl Topology {
    /// Add the constraint blocks of an iteration matrix (ODE2 unknowns first, then ODE1, then
    /// AE):
    /// `factors`·C_q in the AE rows, C_qᵀ in the ODE2 rows, and `lambda_factor`·∂g/∂λ on the AE
    /// diagonal (free axes, inactive joints). A joint written at velocity level has C = ∂g/∂q̇
    /// in both places, as Exudyn.
    ///
    /// With [`ConstraintJacobian::PositionLevel`], the AE rows get ∂g/∂q of the position
    /// level where the joints' kernels have it (every unrolled pairing, and marker-level joints
    /// on markers with generated kinematics; others keep Exudyn's rows), and the ODE2 columns keep Exudyn's C_qᵀ, the direction the
    /// residual's reaction forces act in.
    pub fn add_constraint_blocks(
        &self,
        qt: &[f64],
        factors: ConstraintRowFactors,
        lambda_factor: f64,
        rows: ConstraintJacobian,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        // the AE unknowns follow the ODE2 and ODE1 ones
        let n2 = self.ae_start();
        match rows {
            ConstraintJacobian::Exudyn => {
                self.for_each_constraint_jacobian_row(qt, rows, scratch, |row, cols, vals| {
                    let r = n2 + row.ae;
                    let f = factors.of(row);
                    for (c, x) in cols.iter().zip(vals) {
                        m.add(r, *c, f * x);
                        m.add(*c, r, *x);
                    }
                });
            }
            ConstraintJacobian::PositionLevel => {
                let exudyn = ConstraintJacobian::Exudyn;
                self.for_each_constraint_jacobian_row(qt, exudyn, scratch, |row, cols, vals| {
                    for (c, x) in cols.iter().zip(vals) {
                        m.add(*c, n2 + row.ae, *x);
                    }
                });
                self.for_each_constraint_jacobian_row(qt, rows, scratch, |row, cols, vals| {
                    let f = factors.of(row);
                    for (c, x) in cols.iter().zip(vals) {
                        m.add(n2 + row.ae, *c, f * x);
                    }
                });
            }
        }
        for j in &self.joints {
            for k in 0..j.rows() {
                if !j.row_constrained(k) {
                    let r = n2 + j.ae + k;
                    m.add(r, r, lambda_factor);
                }
            }
        }
        for c in self.coordinate_vectors.iter().filter(|c| !c.active) {
            for k in 0..c.rows {
                let r = n2 + c.ae + k;
                m.add(r, r, lambda_factor);
            }
        }
    }

    /// Constraint residuals `g` (all AE equations) at the given level.
    pub fn constraint_residual(
        &self,
        qt: &[f64],
        v: &[f64],
        lambda: &[f64],
        level: ConstraintLevel,
        g: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.ep_residuals(qt, v, level, g);
        for j in &self.joints {
            self.joint_residual(j, qt, v, lambda, level, g, scratch);
        }
        for c in &self.coordinate_vectors {
            self.coordinate_vector_residual(c, qt, v, lambda, level, g, scratch);
        }
    }

    /// The Euler-parameter normalizations' rows of `g`: θ·θ − 1, or 2θ·θ̇ at velocity level.
    fn ep_residuals(&self, qt: &[f64], v: &[f64], level: ConstraintLevel, g: &mut [f64]) {
        for ep in &self.ep_constraints {
            let t = &qt[ep.ode2..ep.ode2 + 4];
            g[ep.ae] = match level {
                ConstraintLevel::Position => {
                    t[0] * t[0] + t[1] * t[1] + t[2] * t[2] + t[3] * t[3] - 1.0
                }
                ConstraintLevel::Velocity => {
                    let tt = &v[ep.ode2..ep.ode2 + 4];
                    2.0 * (t[0] * tt[0] + t[1] * tt[1] + t[2] * tt[2] + t[3] * tt[3])
                }
            };
        }
    }

    /// One joint's rows of `g`: its kernel's rows where an axis is constrained, `λ` on free
    /// axes and for an inactive joint.
    #[allow(clippy::too_many_arguments)]
    fn joint_residual(
        &self,
        j: &JointTopology,
        qt: &[f64],
        v: &[f64],
        lambda: &[f64],
        level: ConstraintLevel,
        g: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let n = j.rows();
        if !j.active {
            g[j.ae..j.ae + n].copy_from_slice(&lambda[j.ae..j.ae + n]);
            return;
        }
        let m0 = MarkerState::new(&self.markers[j.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[j.markers[1]], qt, v);
        let kernel_rows = &mut scratch.rows[..j.kernel_rows()];
        joint_kernel_rows(j, level, &m0, &m1, kernel_rows);
        j.scatter_rows(kernel_rows, lambda, g);
    }

    /// The fast path's position-level constraint work of one Newton residual: `g` (all AE
    /// equations, position level) and C_qᵀλ added into `r` (ODE2), in one pass over the joints.
    /// A pairing written at position level goes through its fused
    /// `position_residual_and_reaction_forces` kernel, which computes the markers' rotation
    /// matrices once for both; the others as [`Topology::constraint_residual`] and
    /// [`Topology::add_reaction_forces_by_kernels`]. The same bits as those two.
    pub fn constraint_residual_and_reaction_forces(
        &self,
        qt: &[f64],
        v: &[f64],
        lambda: &[f64],
        g: &mut [f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.ep_residuals(qt, v, ConstraintLevel::Position, g);
        self.add_ep_reaction_forces(qt, lambda, r);
        for j in &self.joints {
            match j.kernel {
                JointKernel::Pairing(p) if j.active && !j.velocity_level() => {
                    let mk0 = &self.markers[j.markers[0]];
                    let mk1 = &self.markers[j.markers[1]];
                    let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
                    let rows = j.kernel_rows();
                    let (f0, f1) = (&mut scratch.jac_a[..n0], &mut scratch.jac_b[..n1]);
                    let (m0, m1) = (kernel_args_at(mk0, qt, v), kernel_args_at(mk1, qt, v));
                    let fused = p.position_residual_and_reaction_forces;
                    if j.rows_are_kernel_rows {
                        // the joint's λ and g are the kernel's multipliers and rows
                        let (l, out) = (&lambda[j.ae..j.ae + rows], &mut g[j.ae..j.ae + rows]);
                        fused(&j.parameters, l, m0, m1, out, f0, f1).expect(SIZES_CHECKED);
                    } else {
                        j.kernel_row_multipliers(lambda, &mut scratch.rows);
                        let l = &scratch.rows[..rows];
                        let kernel_rows = &mut scratch.rows2[..rows];
                        fused(&j.parameters, l, m0, m1, kernel_rows, f0, f1).expect(SIZES_CHECKED);
                        j.scatter_rows(kernel_rows, lambda, g);
                    }
                    // a kind marker's columns are contiguous (`kernel_args_at`)
                    for (cols, f) in [(&mk0.columns, &*f0), (&mk1.columns, &*f1)] {
                        debug_assert!(cols.windows(2).all(|w| w[1] == w[0] + 1));
                        if let Some(&first) = cols.first() {
                            for (r, x) in r[first..first + f.len()].iter_mut().zip(f) {
                                *r += x;
                            }
                        }
                    }
                }
                JointKernel::MarkerLevel if j.active && !j.velocity_level() => {
                    let m0 = MarkerState::new(&self.markers[j.markers[0]], qt, v);
                    let m1 = MarkerState::new(&self.markers[j.markers[1]], qt, v);
                    let rows = j.kernel_rows();
                    let mut l = std::mem::take(&mut scratch.rows);
                    let mut kernel_rows = std::mem::take(&mut scratch.rows2);
                    j.kernel_row_multipliers(lambda, &mut l);
                    marker_level::residual_and_reaction_forces(
                        j.into(),
                        [&m0, &m1],
                        &l[..rows],
                        &mut kernel_rows[..rows],
                        r,
                        scratch,
                    );
                    j.scatter_rows(&kernel_rows[..rows], lambda, g);
                    scratch.rows = l;
                    scratch.rows2 = kernel_rows;
                }
                _ => {
                    self.joint_residual(j, qt, v, lambda, ConstraintLevel::Position, g, scratch);
                    self.add_joint_reaction_forces_by_kernels(j, qt, lambda, r, scratch);
                }
            }
        }
        for c in &self.coordinate_vectors {
            let level = ConstraintLevel::Position;
            self.coordinate_vector_residual(c, qt, v, lambda, level, g, scratch);
            self.add_coordinate_vector_reaction_forces(c, qt, lambda, r, scratch);
        }
    }

    /// A joint's Jacobian blocks C_q (kernel rows × each marker's columns, row-major) into
    /// `scratch.jac_a` and `scratch.jac_b`: the pairing's kernel, or the marker-level kernel
    /// composed with the markers' own Jacobians, C_q,i = ∂r/∂v_i·J_pos,i + ∂r/∂ω_i·J_rot,i.
    pub(super) fn joint_jacobian(
        &self,
        j: &JointTopology,
        qt: &[f64],
        form: ConstraintJacobian,
        scratch: &mut Scratch,
    ) {
        let mk0 = &self.markers[j.markers[0]];
        let mk1 = &self.markers[j.markers[1]];
        let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
        let rows = j.kernel_rows();
        // The Jacobian does not depend on velocities: pass the coordinates in their place.
        let m0 = MarkerState::new(mk0, qt, qt);
        let m1 = MarkerState::new(mk1, qt, qt);
        match j.kernel {
            JointKernel::Pairing(p) => {
                let (j0, j1) = (
                    &mut scratch.jac_a[..rows * n0],
                    &mut scratch.jac_b[..rows * n1],
                );
                // a joint written at velocity level has no position level: its rows keep C
                let jacobian = match form {
                    ConstraintJacobian::PositionLevel if !j.velocity_level() => p.position_jacobian,
                    _ => p.jacobian,
                };
                jacobian(&j.parameters, m0.kernel_args(), m1.kernel_args(), j0, j1)
                    .expect(SIZES_CHECKED);
            }
            JointKernel::MarkerLevel => {
                let m = [&m0, &m1];
                let consistent = form == ConstraintJacobian::PositionLevel
                    && !j.velocity_level()
                    && marker_level::position_jacobian(j.into(), m, scratch);
                if !consistent {
                    marker_level::jacobian(j.into(), m, scratch);
                }
            }
        }
    }

    /// Visit every nonzero block of C_q: `visit(row, global columns, row values)`. Rows of
    /// free axes and inactive joints are skipped (they are zero).
    pub fn for_each_constraint_jacobian_row(
        &self,
        qt: &[f64],
        form: ConstraintJacobian,
        scratch: &mut Scratch,
        mut visit: impl FnMut(ConstraintRow, &[usize], &[f64]),
    ) {
        for ep in &self.ep_constraints {
            let t = &qt[ep.ode2..ep.ode2 + 4];
            let row = [2.0 * t[0], 2.0 * t[1], 2.0 * t[2], 2.0 * t[3]];
            let cols = [ep.ode2, ep.ode2 + 1, ep.ode2 + 2, ep.ode2 + 3];
            let at = ConstraintRow {
                ae: ep.ae,
                velocity_level: false,
            };
            visit(at, &cols, &row);
        }
        for j in &self.joints {
            if !j.active {
                continue;
            }
            self.joint_jacobian(j, qt, form, scratch);
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            let velocity_level = j.velocity_level();
            for k in 0..j.rows() {
                let Some(r) = j.row_kernel(k) else {
                    continue;
                };
                let at = ConstraintRow {
                    ae: j.ae + k,
                    velocity_level,
                };
                if n0 > 0 {
                    visit(at, &mk0.columns, &scratch.jac_a[r * n0..(r + 1) * n0]);
                }
                if n1 > 0 {
                    visit(at, &mk1.columns, &scratch.jac_b[r * n1..(r + 1) * n1]);
                }
            }
        }
        for c in &self.coordinate_vectors {
            if !c.active {
                continue;
            }
            // as for the joints, the coordinates stand in for the velocities: for rows written
            // at velocity level through a function of q̇ (Y·q̇²) that is Exudyn's Jacobian,
            // X + 2·Y·diag(q)
            self.coordinate_vector_jacobian(c, qt, qt, scratch);
            let mk0 = &self.markers[c.markers[0]];
            let mk1 = &self.markers[c.markers[1]];
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            for r in 0..c.rows {
                let at = ConstraintRow {
                    ae: c.ae + r,
                    velocity_level: c.velocity_level(),
                };
                if n0 > 0 {
                    visit(at, &mk0.columns, &scratch.jac_a[r * n0..(r + 1) * n0]);
                }
                if n1 > 0 {
                    visit(at, &mk1.columns, &scratch.jac_b[r * n1..(r + 1) * n1]);
                }
            }
        }
    }

    /// c = −(∂(C_q v)/∂q)·v, the convective term of the acceleration-level constraints, into
    /// `c` (one entry per AE equation; free axes and inactive joints get 0). Exact: the EP
    /// constraint's −2θ̇·θ̇ and the joints' marker-level rate composed with their markers' rates
    /// (`physics::marker_level`; 0 for joints written at velocity level, as in Exudyn); joints
    /// defined without `second_order`, or on markers without generated kinematics, by forward
    /// differences of their velocity-level residual over their markers' columns.
    ///
    /// With [`ConvectiveTerm::Accurate`], the rows of joints written at velocity level get
    /// their −∂(C q̇ + b)/∂q·q̇ too, and the differences are central.
    pub fn convective_constraint_term(
        &self,
        qt: &[f64],
        v: &[f64],
        term: ConvectiveTerm,
        c: &mut [f64],
        scratch: &mut Scratch,
    ) {
        c.fill(0.0);
        for ep in &self.ep_constraints {
            let tt = &v[ep.ode2..ep.ode2 + 4];
            c[ep.ae] = -2.0 * (tt[0] * tt[0] + tt[1] * tt[1] + tt[2] * tt[2] + tt[3] * tt[3]);
        }
        // the perturbed coordinates of the forward differences, from the scratch (no allocation
        // per call), filled only if a joint needs them
        let mut qp = std::mem::take(&mut scratch.fd_q);
        let mut qp_filled = false;
        for j in &self.joints {
            // rows written at velocity level are C·q̈ = 0 at acceleration level (Exudyn neglects
            // their ∂(C q̇ + b)/∂q·q̇, as it says: only their C enters)
            if !j.active || (j.velocity_level() && term == ConvectiveTerm::Exudyn) {
                continue;
            }
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let rows = j.kernel_rows();
            let m0 = MarkerState::new(mk0, qt, v);
            let m1 = MarkerState::new(mk1, qt, v);
            let [c0, c1] = composition_states(j, [mk0, mk1], qt, v);
            let row = &mut scratch.rows[..rows];
            if j.velocity_level() || !marker_level::convective(j.into(), [&c0, &c1], row) {
                if !qp_filled {
                    qp.clear();
                    qp.extend_from_slice(qt);
                    qp_filled = true;
                }
                let base = &mut scratch.rows2[..rows];
                joint_kernel_rows(j, ConstraintLevel::Velocity, &m0, &m1, base);
                self.difference_convective(
                    [&mk0.columns, &mk1.columns],
                    qt,
                    v,
                    term == ConvectiveTerm::Accurate,
                    &mut qp,
                    base,
                    &mut scratch.rows3[..rows],
                    row,
                    |qp, pert| {
                        let p0 = MarkerState::new(mk0, qp, v);
                        let p1 = MarkerState::new(mk1, qp, v);
                        joint_kernel_rows(j, ConstraintLevel::Velocity, &p0, &p1, pert);
                    },
                );
            }
            for k in 0..j.rows() {
                if let Some(r) = j.row_kernel(k) {
                    c[j.ae + k] = row[r];
                }
            }
        }
        scratch.fd_q = qp;
        for cv in &self.coordinate_vectors {
            self.coordinate_vector_convective(cv, qt, v, c, scratch);
        }
    }

    /// −(∂g/∂q)·v of velocity-level rows g into `out`, by differences over two markers'
    /// columns, a column both markers read perturbed once, columns at rest skipped. Forward
    /// (Exudyn's): ε = 10⁻⁷·max(0.01, |q|) (q without its reference value), `base` holding g at
    /// `qt`. Central (`central`, the accurate mode: an error of order ε² instead of ε):
    /// ε = 6·10⁻⁶·max(1, |q|) (q with its reference value), `base` then a buffer. `rows_at`
    /// evaluates g at the perturbed total coordinates into its second argument; `qp` is a copy
    /// of `qt`, restored on return.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn difference_convective(
        &self,
        columns: [&[usize]; 2],
        qt: &[f64],
        v: &[f64],
        central: bool,
        qp: &mut [f64],
        base: &mut [f64],
        pert: &mut [f64],
        out: &mut [f64],
        mut rows_at: impl FnMut(&[f64], &mut [f64]),
    ) {
        out.fill(0.0);
        for (i, &col) in columns[0].iter().chain(columns[1]).enumerate() {
            if v[col] == 0.0 || (i >= columns[0].len() && columns[0].contains(&col)) {
                continue;
            }
            if central {
                let eps = 6e-6 * qt[col].abs().max(1.0);
                qp[col] = qt[col] + eps;
                rows_at(qp, pert);
                qp[col] = qt[col] - eps;
                rows_at(qp, base);
                qp[col] = qt[col];
                for ((o, p), b) in out.iter_mut().zip(pert.iter()).zip(base.iter()) {
                    *o -= (p - b) / (2.0 * eps) * v[col];
                }
                continue;
            }
            let eps = 1e-7 * 0.01f64.max((qt[col] - self.reference[col]).abs());
            qp[col] = qt[col] + eps;
            rows_at(qp, pert);
            qp[col] = qt[col];
            for ((o, p), b) in out.iter_mut().zip(pert.iter()).zip(base.iter()) {
                *o -= (p - b) / eps * v[col];
            }
        }
    }

    /// Add `factor`·∂(C_qᵀλ)/∂q, the constraints' geometric stiffness, into the ODE2 block of
    /// `m`: 2λ·I on each Euler-parameter node's θ block, and each joint's marker-level
    /// derivatives composed with its markers' kinematics (free rows contribute nothing). Joints
    /// defined without `second_order`, or on markers without generated kinematics, take forward
    /// differences of C_qᵀλ over their markers' columns.
    pub fn add_constraint_geometric_stiffness(
        &self,
        qt: &[f64],
        lambda: &[f64],
        factor: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        for ep in &self.ep_constraints {
            for i in 0..4 {
                m.add(ep.ode2 + i, ep.ode2 + i, factor * 2.0 * lambda[ep.ae]);
            }
        }
        for j in &self.joints {
            if !j.active {
                continue;
            }
            let rows = j.kernel_rows();
            let mut l = std::mem::take(&mut scratch.rows);
            j.kernel_row_multipliers(lambda, &mut l);
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            let n = n0 + n1;
            let mut block = std::mem::take(&mut scratch.block);
            // grow only: the mass-matrix blocks use the same buffer at their own (larger) size
            if block.len() < n * n {
                block.resize(n * n, 0.0);
            }
            let [c0, c1] = composition_states(j, [mk0, mk1], qt, qt);
            let l_rows = &l[..rows];
            if !marker_level::reaction_q(j.into(), [&c0, &c1], l_rows, &mut block[..n * n], scratch)
            {
                self.reaction_q_by_differences(j, qt, l_rows, &mut block[..n * n], scratch);
            }
            let cols = || mk0.columns.iter().chain(&mk1.columns);
            for (r, &gr) in cols().enumerate() {
                for (c, &gc) in cols().enumerate() {
                    m.add(gr, gc, factor * block[r * n + c]);
                }
            }
            scratch.block = block;
            scratch.rows = l;
        }
        for c in &self.coordinate_vectors {
            self.add_coordinate_vector_geometric_stiffness(c, qt, lambda, factor, m, scratch);
        }
    }

    /// ∂(C_qᵀλ)/∂q of joint `j` by forward differences of C_qᵀλ over its markers' columns, into
    /// the square `block` over the columns of m0 then m1 (a column both markers share is
    /// perturbed once: its derivative in m0's block column, zero in m1's, since the caller adds
    /// both into the same global column).
    pub(super) fn reaction_q_by_differences(
        &self,
        j: &JointTopology,
        qt: &[f64],
        l: &[f64],
        block: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let mk0 = &self.markers[j.markers[0]];
        let mk1 = &self.markers[j.markers[1]];
        let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
        let n = n0 + n1;
        let reaction = |scratch: &Scratch, out: &mut [f64]| {
            let (out0, out1) = out.split_at_mut(n0);
            for (c, x) in out0.iter_mut().enumerate() {
                *x = l
                    .iter()
                    .enumerate()
                    .map(|(r, l)| l * scratch.jac_a[r * n0 + c])
                    .sum();
            }
            for (c, x) in out1.iter_mut().enumerate() {
                *x = l
                    .iter()
                    .enumerate()
                    .map(|(r, l)| l * scratch.jac_b[r * n1 + c])
                    .sum();
            }
        };
        self.joint_jacobian(j, qt, ConstraintJacobian::Exudyn, scratch);
        // grow only: the bodies' forward differences slice the same buffers at their own sizes
        let mut base = std::mem::take(&mut scratch.fd_base);
        if base.len() < n {
            base.resize(n, 0.0);
        }
        reaction(scratch, &mut base[..n]);
        let mut pert = std::mem::take(&mut scratch.fd_out);
        if pert.len() < n {
            pert.resize(n, 0.0);
        }
        let mut qp = std::mem::take(&mut scratch.fd_q);
        qp.clear();
        qp.extend_from_slice(qt);
        for (ci, &col) in mk0.columns.iter().chain(&mk1.columns).enumerate() {
            if ci >= n0 && mk0.columns.contains(&col) {
                // a column both markers read: its derivative is in m0's block column already,
                // and the caller adds both block columns into the same global one
                for r in 0..n {
                    block[r * n + ci] = 0.0;
                }
                continue;
            }
            let eps = 1e-7 * 0.01f64.max((qt[col] - self.reference[col]).abs());
            qp[col] = qt[col] + eps;
            self.joint_jacobian(j, &qp, ConstraintJacobian::Exudyn, scratch);
            qp[col] = qt[col];
            reaction(scratch, &mut pert[..n]);
            for r in 0..n {
                block[r * n + ci] = (pert[r] - base[r]) / eps;
            }
        }
        scratch.fd_base = base;
        scratch.fd_out = pert;
        scratch.fd_q = qp;
    }

    /// ∂g/∂λ diagonal: 1 for free axes and inactive joints, 0 elsewhere.
    pub fn constraint_lambda_diagonal(&self, d: &mut [f64]) {
        d.fill(0.0);
        for j in &self.joints {
            for k in 0..j.rows() {
                if !j.row_constrained(k) {
                    d[j.ae + k] = 1.0;
                }
            }
        }
        for c in self.coordinate_vectors.iter().filter(|c| !c.active) {
            d[c.ae..c.ae + c.rows].fill(1.0);
        }
    }

    /// Add C_qᵀ λ into `r` (ODE2): each Jacobian row formed, times its λ, in Exudyn's order of
    /// summation (the exact path).
    pub fn add_reaction_forces(
        &self,
        qt: &[f64],
        lambda: &[f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.for_each_constraint_jacobian_row(
            qt,
            ConstraintJacobian::Exudyn,
            scratch,
            |row, cols, vals| {
                let l = lambda[row.ae];
                for (c, x) in cols.iter().zip(vals) {
                    r[*c] += x * l;
                }
            },
        );
    }

    /// Add C_qᵀ λ into `r` (ODE2) by the pairings' generated `reaction_forces` kernels, which
    /// never form C_q (marker-level joints by their marker-level reaction, J_posᵀf + J_rotᵀτ):
    /// the same forces in another order of rounding, for the fast path.
    pub fn add_reaction_forces_by_kernels(
        &self,
        qt: &[f64],
        lambda: &[f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.add_ep_reaction_forces(qt, lambda, r);
        for j in &self.joints {
            self.add_joint_reaction_forces_by_kernels(j, qt, lambda, r, scratch);
        }
        for c in &self.coordinate_vectors {
            self.add_coordinate_vector_reaction_forces(c, qt, lambda, r, scratch);
        }
    }

    /// The Euler-parameter normalizations' 2θ·λ.
    fn add_ep_reaction_forces(&self, qt: &[f64], lambda: &[f64], r: &mut [f64]) {
        for ep in &self.ep_constraints {
            let l = 2.0 * lambda[ep.ae];
            for i in 0..4 {
                r[ep.ode2 + i] += l * qt[ep.ode2 + i];
            }
        }
    }

    /// One joint's C_qᵀλ by its pairing's `reaction_forces`, or its marker-level reaction
    /// composed with its markers' Jacobians; nothing for an inactive joint.
    fn add_joint_reaction_forces_by_kernels(
        &self,
        j: &JointTopology,
        qt: &[f64],
        lambda: &[f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        if !j.active {
            return;
        }
        let mk0 = &self.markers[j.markers[0]];
        let mk1 = &self.markers[j.markers[1]];
        let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
        let JointKernel::Pairing(p) = j.kernel else {
            let (m0, m1) = (MarkerState::new(mk0, qt, qt), MarkerState::new(mk1, qt, qt));
            let rows = j.kernel_rows();
            let mut l = std::mem::take(&mut scratch.rows);
            j.kernel_row_multipliers(lambda, &mut l);
            marker_level::add_reaction_forces(j.into(), [&m0, &m1], &l[..rows], r, scratch);
            scratch.rows = l;
            return;
        };
        let rows = j.kernel_rows();
        j.kernel_row_multipliers(lambda, &mut scratch.rows);
        let l = &scratch.rows[..rows];
        let m0 = MarkerState::new(mk0, qt, qt);
        let m1 = MarkerState::new(mk1, qt, qt);
        let (f0, f1) = (&mut scratch.jac_a[..n0], &mut scratch.jac_b[..n1]);
        (p.reaction_forces)(&j.parameters, l, m0.kernel_args(), m1.kernel_args(), f0, f1)
            .expect(SIZES_CHECKED);
        for (cols, f) in [(&mk0.columns, &*f0), (&mk1.columns, &*f1)] {
            for (c, x) in cols.iter().zip(f) {
                r[*c] += x;
            }
        }
    }
}
