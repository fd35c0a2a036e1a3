//! The system's equations at a state: mass matrix, right-hand side (loads − object terms),
//! constraint residuals, constraint Jacobian and the object Jacobians K, D.
//!
//! Sign conventions follow Exudyn (spec/solver.md §1): `M ä + C_qᵀλ = f`, `f = loads − LHS`.
//! All marker quantities come from the generated kernels; the rigid-body terms are Exudyn's
//! "version 1" EP equations (spec/items.md §3.3).

use nalgebra::{Matrix3, Vector3};

use crate::assemble::{BodyTopology, ConnectorKind, LoadKind, Rotation, Topology};
use crate::joints::{ConstraintLevel, JointKernel, JointTopology, SIZES_CHECKED, joint_kernel_rows};
use crate::kernels::marker_kinematics as mk;
use crate::linear::MatrixAccumulator;
use crate::markers::{MarkerModel, MarkerState};
use joint_core::MarkerKind;

fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

fn m3(a: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_row_slice(a.as_flattened())
}

/// Node-level kinematics kind of a rigid body's node.
fn node_kind(rotation: Rotation) -> MarkerKind {
    match rotation {
        Rotation::EulerParameters => MarkerKind::NodeEp,
        Rotation::TaitBryanXyz => MarkerKind::NodeRxyz,
    }
}

/// Rigid-body quantities at a state.
struct RigidState {
    /// Ḡ, 3 × nθ, row-major.
    g_local: [f64; 12],
    n_rot: usize,
    omega_local: Vector3<f64>,
    /// Ḡ_t·θ̇ (zero for Euler parameters).
    g_local_t_rates: Vector3<f64>,
}

/// Ḡ (ω̄ = Ḡθ̇) of a rigid node, row-major 3 × nθ.
fn rigid_g_local(rotation: Rotation, qt: &[f64]) -> [f64; 12] {
    let kind = node_kind(rotation).index();
    let n = qt.len();
    let n_rot = n - 3;
    let mut jac = [0.0; 21];
    mk::rotation_jacobian_local(kind, &[], qt, &mut jac[..3 * n]).expect("rigid node");
    let mut g_local = [0.0; 12];
    for r in 0..3 {
        for c in 0..n_rot {
            g_local[r * n_rot + c] = jac[r * n + 3 + c];
        }
    }
    g_local
}

fn rigid_state(rotation: Rotation, qt: &[f64], v: &[f64]) -> RigidState {
    let kind = node_kind(rotation).index();
    let n_rot = qt.len() - 3;
    let g_local = rigid_g_local(rotation, qt);
    let omega_local = v3(mk::angular_velocity_local(kind, &[], qt, v).expect("rigid node"));
    let g_local_t_rates = match rotation {
        // Exudyn omits Ḡ_t·θ̇ for EP nodes (it vanishes identically).
        Rotation::EulerParameters => Vector3::zeros(),
        Rotation::TaitBryanXyz => {
            v3(mk::angular_acceleration_local_rate_part(kind, &[], qt, v).expect("rigid node"))
        }
    };
    RigidState {
        g_local,
        n_rot,
        omega_local,
        g_local_t_rates,
    }
}

fn skew(v: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::new(0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0)
}

/// Mass matrix of a rigid body over its node's coordinates (row-major n × n, n = 3 + nθ).
pub fn rigid_mass_matrix(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    com: &[f64; 3],
    qt: &[f64],
    out: &mut [f64],
) {
    // only Ḡ (and A for a centre-of-mass offset): not the velocities rigid_state also computes
    let n = qt.len();
    let nr = n - 3;
    let g_local = rigid_g_local(rotation, qt);
    out.fill(0.0);
    for i in 0..3 {
        out[i * n + i] = mass;
    }
    let g = |r: usize, c: usize| g_local[r * nr + c];
    let m_theta = rigid_mass_theta(inertia, &g_local, nr);
    for i in 0..nr {
        out[(3 + i) * n + 3..(3 + i) * n + n].copy_from_slice(&m_theta[i * nr..(i + 1) * nr]);
    }
    if com.iter().any(|&c| c != 0.0) {
        // M_uθ = −m A skew(c) Ḡ
        let a = m3(mk::rotation(node_kind(rotation).index(), &[], qt).expect("rigid node"));
        let ask = -mass * a * skew(&v3(*com));
        for r in 0..3 {
            for j in 0..nr {
                let s: f64 = (0..3).map(|k| ask[(r, k)] * g(k, j)).sum();
                out[r * n + 3 + j] = s;
                out[(3 + j) * n + r] = s;
            }
        }
    }
}

/// M_θθ = Ḡᵀ J Ḡ (row-major nθ × nθ).
///
/// Summed as s_ij = Σ_a Σ_b (Ḡ_ai J_ab) Ḡ_bj, the order with which every reference case
/// reproduces Exudyn's Newton iteration counts: the products Ḡ_ai J_ab are formed once (the same
/// values), which halves the multiplications without changing a bit of the result.
fn rigid_mass_theta(inertia: &Matrix3<f64>, g_local: &[f64; 12], nr: usize) -> [f64; 16] {
    // The rotation parameter count as a constant, so the loops unroll; same sums either way.
    match nr {
        4 => mass_theta_n::<4>(inertia, g_local),
        3 => mass_theta_n::<3>(inertia, g_local),
        _ => unreachable!("rigid nodes have 3 or 4 rotation parameters, not {nr}"),
    }
}

#[inline(always)]
fn mass_theta_n<const NR: usize>(inertia: &Matrix3<f64>, g_local: &[f64; 12]) -> [f64; 16] {
    let mut gj = [[[0.0; 3]; 3]; NR];
    for (i, gj_i) in gj.iter_mut().enumerate() {
        for (a, gj_ia) in gj_i.iter_mut().enumerate() {
            let g_ai = g_local[a * NR + i];
            for (b, x) in gj_ia.iter_mut().enumerate() {
                *x = g_ai * inertia[(a, b)];
            }
        }
    }
    let mut m = [0.0; 16];
    for (i, gj_i) in gj.iter().enumerate() {
        for j in 0..NR {
            let mut s = 0.0;
            for gj_ia in gj_i {
                for (b, x) in gj_ia.iter().enumerate() {
                    s += x * g_local[b * NR + j];
                }
            }
            m[i * NR + j] = s;
        }
    }
    m
}

/// The rigid body's LHS vector (quadratic velocity terms), over its node's coordinates.
pub fn rigid_lhs(
    rotation: Rotation,
    mass: f64,
    inertia: &Matrix3<f64>,
    com: &[f64; 3],
    qt: &[f64],
    v: &[f64],
    out: &mut [f64],
) {
    let st = rigid_state(rotation, qt, v);
    let nr = st.n_rot;
    let w = st.omega_local;
    // LHS_θ = Ḡᵀ (ω̄ × J ω̄) + Ḡᵀ J (Ḡ_t θ̇)
    let mut t = w.cross(&(inertia * w));
    if rotation != Rotation::EulerParameters {
        t += inertia * st.g_local_t_rates;
    }
    for c in 0..nr {
        out[3 + c] = (0..3).map(|r| st.g_local[r * nr + c] * t[r]).sum();
    }
    if com.iter().any(|&c| c != 0.0) {
        // LHS_u = A [ω̄ × (U × ω̄) + U × (Ḡ_t θ̇)], U = −m c
        let u = -mass * v3(*com);
        // A only here: most bodies have their centre of mass at the node
        let a = m3(mk::rotation(node_kind(rotation).index(), &[], qt).expect("rigid node"));
        let lu = a * (w.cross(&u.cross(&w)) + u.cross(&st.g_local_t_rates));
        out[..3].copy_from_slice(lu.as_slice());
    } else {
        out[..3].fill(0.0);
    }
}

/// Scratch space for one evaluation (sized for the topology at construction; no allocation
/// afterwards).
#[derive(Clone, Debug)]
pub struct Scratch {
    pub jac_a: Vec<f64>,
    pub jac_b: Vec<f64>,
    pub jac_c: Vec<f64>,
    pub jac_d: Vec<f64>,
    pub block: Vec<f64>,
    pub lhs: Vec<f64>,
    pub lhs2: Vec<f64>,
    pub load: Vec<f64>,
    pub load2: Vec<f64>,
    pub columns: Vec<usize>,
    /// Forward differences of a kinematic tree's or FFRF object's LHS: perturbed coordinates
    /// and velocities, the LHS at the state and perturbed, the object's columns.
    pub fd_q: Vec<f64>,
    pub fd_v: Vec<f64>,
    pub fd_base: Vec<f64>,
    pub fd_out: Vec<f64>,
    pub fd_columns: Vec<usize>,
    /// The velocities, perturbed one at a time (a connector's numerical D).
    pub fd_velocities: Vec<f64>,
    /// A joint's kernel rows (residuals, λ per kernel row, a perturbed residual).
    pub rows: Vec<f64>,
    pub rows2: Vec<f64>,
    pub rows3: Vec<f64>,
    /// A marker-level Jacobian: ∂r/∂v_0, ∂r/∂ω_0, ∂r/∂v_1, ∂r/∂ω_1, each rows × 3.
    pub marker_level: Vec<f64>,
}

impl Scratch {
    /// Buffers for markers and bodies with at most `n` columns.
    /// Room for blocks over `n` columns and joints of up to `rows` kernel rows.
    pub fn with_size(n: usize, rows: usize) -> Self {
        let n = n.max(7);
        let rows = rows.max(3);
        Scratch {
            jac_a: vec![0.0; rows * n],
            jac_b: vec![0.0; rows * n],
            jac_c: vec![0.0; 3 * n],
            jac_d: vec![0.0; 3 * n],
            block: vec![0.0; n * n],
            lhs: vec![0.0; n],
            lhs2: vec![0.0; n],
            load: vec![0.0; n],
            load2: vec![0.0; n],
            columns: Vec::with_capacity(n),
            fd_q: vec![0.0; n],
            fd_v: vec![0.0; n],
            fd_base: vec![0.0; n],
            fd_out: vec![0.0; n],
            fd_columns: Vec::with_capacity(n),
            fd_velocities: Vec::new(),
            rows: vec![0.0; rows],
            rows2: vec![0.0; rows],
            rows3: vec![0.0; rows],
            marker_level: vec![0.0; 12 * rows],
        }
    }

    /// Sized for the topology: a joint's blocks span both of its markers' columns.
    pub fn for_topology(t: &Topology) -> Self {
        Self::with_size(2 * t.max_columns, t.max_kernel_rows)
    }

    pub fn new() -> Self {
        Self::with_size(7, 3)
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

impl Topology {
    /// Total coordinates `qt = reference + q`.
    pub fn total_coordinates(&self, q: &[f64], qt: &mut [f64]) {
        for i in 0..q.len() {
            qt[i] = self.reference[i] + q[i];
        }
    }

    /// Visit each body's mass matrix block: `visit(global columns, row-major n × n block)`.
    fn for_each_mass_block(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        visit: impl FnMut(&[usize], &[f64]),
    ) {
        self.mass_blocks(qt, scratch, false, visit);
    }

    /// [`Self::for_each_mass_block`], optionally without the rigid bodies whose centre of mass
    /// is at the node.
    fn mass_blocks(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        skip_centred_rigid: bool,
        mut visit: impl FnMut(&[usize], &[f64]),
    ) {
        for body in &self.bodies {
            match body {
                BodyTopology::Rigid {
                    center_of_mass: [0.0, 0.0, 0.0],
                    ..
                } if skip_centred_rigid => {}
                BodyTopology::MassPoint { ode2, mass } => {
                    let m = *mass;
                    let o = *ode2;
                    visit(&[o, o + 1, o + 2], &[m, 0.0, 0.0, 0.0, m, 0.0, 0.0, 0.0, m]);
                }
                BodyTopology::Rigid {
                    ode2,
                    rotation,
                    mass,
                    inertia,
                    center_of_mass,
                } => {
                    let n = ode2.len();
                    let block = &mut scratch.block[..n * n];
                    rigid_mass_matrix(
                        *rotation,
                        *mass,
                        inertia,
                        center_of_mass,
                        &qt[ode2.clone()],
                        block,
                    );
                    let mut cols = [0usize; 7];
                    for (i, c) in cols.iter_mut().enumerate().take(n) {
                        *c = ode2.start + i;
                    }
                    visit(&cols[..n], block);
                }
                BodyTopology::GenericODE2 { columns, mass, .. } => {
                    // nalgebra is column-major; the mass matrix is symmetric, but transpose
                    // anyway so that a non-symmetric M is applied as given.
                    let n = columns.len();
                    let block = &mut scratch.block[..n * n];
                    for i in 0..n {
                        for j in 0..n {
                            block[i * n + j] = mass[(i, j)];
                        }
                    }
                    visit(columns, block);
                }
                BodyTopology::KinematicTree { start, data, .. } => {
                    let n = data.links();
                    let block = &mut scratch.block[..n * n];
                    data.mass_matrix(&qt[*start..*start + n], block);
                    let cols = &mut scratch.columns;
                    cols.clear();
                    cols.extend(*start..*start + n);
                    visit(cols, block);
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    let nm = data.modes();
                    let n = 7 + nm;
                    let block = &mut scratch.block[..n * n];
                    crate::superelement::ffrf::mass_matrix(
                        data,
                        &qt[*frame..*frame + 7],
                        &qt[*modal..*modal + nm],
                        block,
                    );
                    let cols = &mut scratch.columns;
                    cols.clear();
                    cols.extend(*frame..*frame + 7);
                    cols.extend(*modal..*modal + nm);
                    visit(cols, block);
                }
            }
        }
    }

    /// Add the mass matrix into `m`, scaled by `factor`.
    pub fn add_mass_matrix(
        &self,
        qt: &[f64],
        factor: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        self.for_each_mass_block(qt, scratch, |cols, block| {
            let n = cols.len();
            for (i, &ci) in cols.iter().enumerate() {
                for (j, &cj) in cols.iter().enumerate() {
                    m.add(ci, cj, factor * block[i * n + j]);
                }
            }
        });
    }

    /// out += M(qt)·x
    pub fn add_mass_times(&self, qt: &[f64], x: &[f64], out: &mut [f64], scratch: &mut Scratch) {
        // Rigid bodies with the centre of mass at the node (the common case) skip the zero
        // blocks of M; the sums keep their order, so the result is the same to the bit.
        for body in &self.bodies {
            if let BodyTopology::Rigid {
                ode2,
                rotation,
                mass,
                inertia,
                center_of_mass: [0.0, 0.0, 0.0],
            } = body
            {
                let (o, nr) = (ode2.start, ode2.len() - 3);
                let g_local = rigid_g_local(*rotation, &qt[ode2.clone()]);
                let m_theta = rigid_mass_theta(inertia, &g_local, nr);
                for i in 0..3 {
                    out[o + i] += mass * x[o + i];
                }
                for i in 0..nr {
                    let mut s = 0.0;
                    for j in 0..nr {
                        s += m_theta[i * nr + j] * x[o + 3 + j];
                    }
                    out[o + 3 + i] += s;
                }
            }
        }
        self.mass_blocks(qt, scratch, true, |cols, block| {
            let n = cols.len();
            for (i, &ci) in cols.iter().enumerate() {
                let s: f64 = cols
                    .iter()
                    .enumerate()
                    .map(|(j, &cj)| block[i * n + j] * x[cj])
                    .sum();
                out[ci] += s;
            }
        });
    }

    /// Add the constraint blocks of an iteration matrix (ODE2 unknowns first, then AE):
    /// `cq_factor`·C_q in the AE rows, C_qᵀ in the ODE2 rows, and `lambda_factor`·∂g/∂λ on the AE diagonal (free axes, inactive joints).
    pub fn add_constraint_blocks(
        &self,
        qt: &[f64],
        cq_factor: f64,
        lambda_factor: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let n2 = self.n_ode2;
        self.for_each_constraint_jacobian_row(qt, scratch, |row, cols, vals| {
            let r = n2 + row;
            for (c, x) in cols.iter().zip(vals) {
                m.add(r, *c, cq_factor * x);
                m.add(*c, r, *x);
            }
        });
        for j in &self.joints {
            for k in 0..j.rows() {
                if !j.row_constrained(k) {
                    let r = n2 + j.ae + k;
                    m.add(r, r, lambda_factor);
                }
            }
        }
    }

    /// f = load_factor·loads − LHS(bodies, connectors), over the ODE2 coordinates.
    pub fn ode2_rhs(
        &self,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        f.fill(0.0);
        self.add_loads(qt, v, load_factor, f, scratch);
        for body in &self.bodies {
            if let BodyTopology::Rigid {
                ode2,
                rotation,
                mass,
                inertia,
                center_of_mass,
            } = body
            {
                let n = ode2.len();
                let lhs = &mut scratch.lhs[..n];
                rigid_lhs(
                    *rotation,
                    *mass,
                    inertia,
                    center_of_mass,
                    &qt[ode2.clone()],
                    &v[ode2.clone()],
                    lhs,
                );
                for i in 0..n {
                    f[ode2.start + i] -= lhs[i];
                }
            }
        }
        for body in &self.bodies {
            match body {
                BodyTopology::GenericODE2 {
                    columns,
                    stiffness,
                    damping,
                    force,
                    ..
                } => {
                    // LHS = K q + D q̇ − f, on displacements q (reference coordinates excluded)
                    for (i, &ci) in columns.iter().enumerate() {
                        let mut lhs = -force[i];
                        for (j, &cj) in columns.iter().enumerate() {
                            lhs += stiffness[(i, j)] * (qt[cj] - self.reference[cj])
                                + damping[(i, j)] * v[cj];
                        }
                        f[ci] -= lhs;
                    }
                }
                BodyTopology::Ffrf {
                    frame, modal, data, ..
                } => {
                    let nm = data.modes();
                    let out = &mut scratch.lhs[..7 + nm];
                    crate::superelement::ffrf::lhs(
                        data,
                        &qt[*frame..*frame + 7],
                        &v[*frame..*frame + 7],
                        &qt[*modal..*modal + nm],
                        &v[*modal..*modal + nm],
                        out,
                    );
                    for i in 0..7 {
                        f[frame + i] -= out[i];
                    }
                    for i in 0..nm {
                        f[modal + i] -= out[7 + i];
                    }
                }
                BodyTopology::KinematicTree { start, data, .. } => {
                    let n = data.links();
                    let out = &mut scratch.lhs[..n];
                    data.lhs(&qt[*start..*start + n], &v[*start..*start + n], out);
                    for i in 0..n {
                        f[start + i] -= out[i];
                    }
                }
                _ => {}
            }
        }
        for c in 0..self.connectors.len() {
            self.add_connector_lhs(c, qt, v, -1.0, f, scratch);
        }
    }

    /// Generalized load vector, scaled by `load_factor`, added into `f`.
    pub fn add_loads(
        &self,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        for l in &self.loads {
            self.add_load(l.load, qt, v, load_factor, f, scratch);
        }
    }

    /// One load's generalized force (by position in `self.loads`), added into `f`.
    pub fn add_load(
        &self,
        index: usize,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let marker = &self.markers[self.loads[index].marker];
        let n = marker.columns.len();
        if n == 0 {
            return; // loads on ground are skipped
        }
        let mut local = std::mem::take(&mut scratch.load);
        local.resize(n, 0.0);
        self.load_vector_local(index, qt, v, load_factor, &mut local, scratch);
        for (c, x) in marker.columns.iter().zip(&local) {
            f[*c] += x;
        }
        scratch.load = local;
    }

    /// A load's generalized force over its marker's columns.
    fn load_vector_local(
        &self,
        index: usize,
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        out: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let l = &self.loads[index];
        let marker = &self.markers[l.marker];
        let n = marker.columns.len();
        let ms = MarkerState::new(marker, qt, v);
        let vector = v3(l.vector) * load_factor;
        let jac = &mut scratch.jac_a[..3 * n];
        let (vec, factor) = match l.kind {
            LoadKind::MassProportional => {
                match &marker.model {
                    MarkerModel::FfrfMass { body } => {
                        let BodyTopology::Ffrf {
                            frame, modal, data, ..
                        } = &self.bodies[*body]
                        else {
                            unreachable!("FfrfMass markers point at FFRF bodies")
                        };
                        crate::superelement::ffrf::mass_proportional_jacobian(
                            data,
                            &qt[*frame..*frame + 7],
                            &qt[*modal..*modal + data.modes()],
                            jac,
                        );
                    }
                    _ => ms.position_jacobian(jac),
                }
                (vector, marker.mass)
            }
            LoadKind::Force => {
                ms.position_jacobian(jac);
                let f = if l.body_fixed {
                    ms.rotation() * vector
                } else {
                    vector
                };
                (f, 1.0)
            }
            LoadKind::Torque => {
                ms.rotation_jacobian(jac);
                let t = if l.body_fixed {
                    ms.rotation() * vector
                } else {
                    vector
                };
                (t, 1.0)
            }
        };
        for c in 0..n {
            let s: f64 = (0..3).map(|r| jac[r * n + c] * vec[r]).sum();
            out[c] = factor * s;
        }
    }

    /// Add `factor`·∂Q/∂q of every load by forward differences over its marker's columns
    /// (Exudyn's numerical load Jacobian, ε = relEps·max(minCoord, |q_i|)). `qt` is perturbed
    /// in place and restored.
    #[allow(clippy::too_many_arguments)]
    pub fn add_load_jacobians_fd(
        &self,
        q: &[f64],
        qt: &mut [f64],
        v: &[f64],
        load_factor: f64,
        factor: f64,
        rel_eps: f64,
        min_coord: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        let mut base = std::mem::take(&mut scratch.load);
        let mut pert = std::mem::take(&mut scratch.load2);
        for index in 0..self.loads.len() {
            let marker = &self.markers[self.loads[index].marker];
            let n = marker.columns.len();
            if n == 0 {
                continue;
            }
            base.resize(n, 0.0);
            pert.resize(n, 0.0);
            self.load_vector_local(index, qt, v, load_factor, &mut base, scratch);
            for (i, &col) in marker.columns.iter().enumerate() {
                let x = q[col];
                let eps = rel_eps * min_coord.max(x.abs());
                let saved = qt[col];
                qt[col] = self.reference[col] + (x + eps);
                self.load_vector_local(index, qt, v, load_factor, &mut pert, scratch);
                qt[col] = saved;
                for (row, &r) in marker.columns.iter().enumerate() {
                    m.add(r, col, factor * (pert[row] - base[row]) / eps);
                }
                let _ = i;
            }
        }
        scratch.load = base;
        scratch.load2 = pert;
    }

    /// Connector force on marker 1 (global), or None if inactive.
    pub fn connector_force(&self, c: usize, qt: &[f64], v: &[f64]) -> Option<ConnectorForce> {
        let con = &self.connectors[c];
        if !con.active {
            return None;
        }
        let m0 = MarkerState::new(&self.markers[con.markers[0]], qt, v);
        let m1 = MarkerState::new(&self.markers[con.markers[1]], qt, v);
        let dp = m1.position() - m0.position();
        let dv = m1.velocity() - m0.velocity();
        Some(match &con.kind {
            ConnectorKind::SpringDamper {
                reference_length,
                stiffness,
                damping,
                force,
                velocity_offset,
            } => {
                let length = dp.norm();
                let e = if length != 0.0 {
                    dp / length
                } else {
                    let nv = dv.norm();
                    if nv != 0.0 { dv / nv } else { dv }
                };
                let scalar = stiffness * (length - reference_length)
                    + damping * (dv.dot(&e) - velocity_offset)
                    + force;
                // ∂(F e)/∂Δp = F/L (I − e eᵀ) + e (k eᵀ + d Δvᵀ (I − e eᵀ)/L); ∂(F e)/∂Δv = d e eᵀ
                let (dfdp, dfdv) = if length != 0.0 {
                    let p = Matrix3::identity() - e * e.transpose();
                    let dfdp = p * (scalar / length)
                        + e * (*stiffness * e.transpose() + *damping * dv.transpose() * p / length);
                    (dfdp, *damping * e * e.transpose())
                } else {
                    (Matrix3::zeros(), Matrix3::zeros())
                };
                ConnectorForce {
                    force: e * scalar,
                    scalar,
                    delta_p: dp,
                    delta_v: dv,
                    d_force_d_delta_p: dfdp,
                    d_force_d_delta_v: dfdv,
                }
            }
            ConnectorKind::CartesianSpringDamper {
                stiffness,
                damping,
                offset,
            } => {
                let d = dp - v3(*offset);
                let force = Vector3::new(
                    stiffness[0] * d[0] + damping[0] * dv[0],
                    stiffness[1] * d[1] + damping[1] * dv[1],
                    stiffness[2] * d[2] + damping[2] * dv[2],
                );
                ConnectorForce {
                    force,
                    scalar: force.norm(),
                    delta_p: d,
                    delta_v: dv,
                    d_force_d_delta_p: Matrix3::from_diagonal(&v3(*stiffness)),
                    d_force_d_delta_v: Matrix3::from_diagonal(&v3(*damping)),
                }
            }
        })
    }

    /// The LHS of connector `c` over its markers' columns, marker 0's then marker 1's
    /// (−J_0ᵀf, then J_1ᵀf), into `out[..n_0 + n_1]`; `jac` holds a marker's position Jacobian.
    /// False (and `out` untouched) if the connector is inactive.
    fn connector_lhs_local(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        let Some(cf) = self.connector_force(c, qt, v) else {
            return false;
        };
        let con = &self.connectors[c];
        let mut offset = 0;
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let marker = &self.markers[con.markers[k]];
            let n = marker.columns.len();
            if n == 0 {
                continue;
            }
            let jac = &mut jac[..3 * n];
            MarkerState::new(marker, qt, v).position_jacobian(jac);
            for col in 0..n {
                let val: f64 = (0..3).map(|r| jac[r * n + col] * cf.force[r]).sum();
                out[offset + col] = s * val;
            }
            offset += n;
        }
        true
    }

    /// The columns of connector `c`'s markers, marker 0's then marker 1's.
    fn connector_columns(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.connectors[c]
            .markers
            .iter()
            .flat_map(|&m| self.markers[m].columns.iter().copied())
    }

    /// Add `sign`·LHS of connector `c` (+J1ᵀf, −J0ᵀf) into `f`.
    fn add_connector_lhs(
        &self,
        c: usize,
        qt: &[f64],
        v: &[f64],
        sign: f64,
        f: &mut [f64],
        scratch: &mut Scratch,
    ) {
        let local = &mut scratch.lhs2;
        if self.connector_lhs_local(c, qt, v, local, &mut scratch.jac_a) {
            for (row, g) in self.connector_columns(c).enumerate() {
                f[g] += sign * local[row];
            }
        }
    }

    /// Add `factor_k`·K + `factor_d`·D of the connectors (K = ∂LHS/∂q, D = ∂LHS/∂v) into the
    /// matrix `m`, analytically, for the connectors whose markers all provide the Jacobian
    /// derivative (the others are in [`Self::add_connector_jacobians_fd`]).
    #[allow(clippy::too_many_arguments)]
    pub fn add_connector_jacobians(
        &self,
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        for c in 0..self.connectors.len() {
            if !self.connectors[c].analytic_jacobian {
                continue;
            }
            let Some(cf) = self.connector_force(c, qt, v) else {
                continue;
            };
            let con = &self.connectors[c];
            let signs = [-1.0, 1.0];
            for a in 0..2 {
                let ma = &self.markers[con.markers[a]];
                let na = ma.columns.len();
                if na == 0 {
                    continue;
                }
                let sa = MarkerState::new(ma, qt, v);
                sa.position_jacobian(&mut scratch.jac_a[..3 * na]);
                // ∂(J_aᵀ f)/∂q_a with the sign of marker a
                let f_arr = [cf.force[0], cf.force[1], cf.force[2]];
                sa.position_jacobian_t_times_vector_q(&f_arr, &mut scratch.block[..na * na]);
                for (i, &gi) in ma.columns.iter().enumerate() {
                    for (j, &gj) in ma.columns.iter().enumerate() {
                        m.add(gi, gj, factor_k * signs[a] * scratch.block[i * na + j]);
                    }
                }
                for b in 0..2 {
                    let mb = &self.markers[con.markers[b]];
                    let nb = mb.columns.len();
                    if nb == 0 {
                        continue;
                    }
                    let sb = MarkerState::new(mb, qt, v);
                    sb.position_jacobian(&mut scratch.jac_b[..3 * nb]);
                    let s = signs[a] * signs[b];
                    for i in 0..na {
                        for j in 0..nb {
                            let mut kk = 0.0;
                            let mut dd = 0.0;
                            for r in 0..3 {
                                for t in 0..3 {
                                    let ja = scratch.jac_a[r * na + i];
                                    let jb = scratch.jac_b[t * nb + j];
                                    kk += ja * cf.d_force_d_delta_p[(r, t)] * jb;
                                    dd += ja * cf.d_force_d_delta_v[(r, t)] * jb;
                                }
                            }
                            m.add(
                                ma.columns[i],
                                mb.columns[j],
                                s * (factor_k * kk + factor_d * dd),
                            );
                        }
                    }
                }
            }
        }
    }

    /// Add `factor_k`·K + `factor_d`·D of the connectors with a superelement or kinematic-tree
    /// marker, by Exudyn's object-wise forward differences of the connector's LHS: Exudyn takes
    /// the analytic connector Jacobian only when every marker provides the Jacobian derivative,
    /// which those markers do not (spec/solver.md §2.5). The differences also hold the terms the
    /// analytic form lacks for them, ∂(J_q q̇)/∂q of a marker on a rotating frame among them.
    ///
    /// Each coordinate is perturbed once (ε = relEps·max(minCoord, |x|), x the displacement or
    /// the velocity) even when both markers read it; the connector's block is summed, K and D
    /// columns together, before it is added, as Exudyn adds an object's local Jacobian. `qt` is
    /// perturbed in place and restored.
    #[allow(clippy::too_many_arguments)]
    pub fn add_connector_jacobians_fd(
        &self,
        q: &[f64],
        qt: &mut [f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        rel_eps: f64,
        min_coord: f64,
        m: &mut impl MatrixAccumulator,
        scratch: &mut Scratch,
    ) {
        if self.connectors.iter().all(|c| c.analytic_jacobian) {
            return;
        }
        let mut velocities = std::mem::take(&mut scratch.fd_velocities);
        velocities.clear();
        velocities.extend_from_slice(v);
        for c in 0..self.connectors.len() {
            if self.connectors[c].analytic_jacobian || !self.connectors[c].active {
                continue;
            }
            let rows = self.connector_columns(c).count();
            let columns = &mut scratch.fd_columns;
            columns.clear();
            for g in self.connector_columns(c) {
                if !columns.contains(&g) {
                    columns.push(g);
                }
            }
            let n = columns.len();
            let (base, out) = (&mut scratch.fd_base[..rows], &mut scratch.fd_out[..rows]);
            self.connector_lhs_local(c, qt, &velocities, base, &mut scratch.jac_a);
            let block = &mut scratch.block[..rows * n];
            block.fill(0.0);
            for (which, factor) in [(0, factor_k), (1, factor_d)] {
                if factor == 0.0 {
                    continue;
                }
                for (j, &g) in columns.iter().enumerate() {
                    let x = if which == 0 { q[g] } else { v[g] };
                    let eps = rel_eps * min_coord.max(x.abs());
                    let saved = qt[g];
                    if which == 0 {
                        qt[g] = self.reference[g] + (x + eps);
                    } else {
                        velocities[g] = x + eps;
                    }
                    self.connector_lhs_local(c, qt, &velocities, out, &mut scratch.jac_a);
                    qt[g] = saved;
                    velocities[g] = v[g];
                    let scale = (1.0 / eps) * factor;
                    for row in 0..rows {
                        block[row * n + j] += (out[row] - base[row]) * scale;
                    }
                }
            }
            for (row, r) in self.connector_columns(c).enumerate() {
                for (j, &g) in columns.iter().enumerate() {
                    m.add(r, g, block[row * n + j]);
                }
            }
        }
        scratch.fd_velocities = velocities;
    }

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
        rel_eps: f64,
        min_coord: f64,
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
                        *frame, *modal, data, q, qt, v, factor_k, factor_d, rel_eps, min_coord, m,
                        scratch,
                    );
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
                            let eps = rel_eps * min_coord.max(x.abs());
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
                    let eps = rel_eps * min_coord.max(x.abs());
                    let out = &mut scratch.lhs2[..n];
                    if i < 3 {
                        out.copy_from_slice(&base[..n]);
                    } else {
                        let mut c2 = coords;
                        let mut v2 = vels;
                        if which == 0 {
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
    fn add_ffrf_jacobian_fd(
        &self,
        frame: usize,
        modal: usize,
        data: &crate::superelement::ffrf::FfrfData,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        rel_eps: f64,
        min_coord: f64,
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
                let eps = rel_eps * min_coord.max(x.abs());
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
        for j in &self.joints {
            let n = j.rows();
            let out = &mut g[j.ae..j.ae + n];
            if !j.active {
                out.copy_from_slice(&lambda[j.ae..j.ae + n]);
                continue;
            }
            let m0 = MarkerState::new(&self.markers[j.markers[0]], qt, v);
            let m1 = MarkerState::new(&self.markers[j.markers[1]], qt, v);
            let kernel_rows = &mut scratch.rows[..j.kernel_rows()];
            joint_kernel_rows(j, level, &m0, &m1, kernel_rows);
            for k in 0..n {
                out[k] = match j.row_kernel(k) {
                    Some(r) => kernel_rows[r],
                    None => lambda[j.ae + k],
                };
            }
        }
    }

    /// A joint's Jacobian blocks C_q (kernel rows × each marker's columns, row-major) into
    /// `scratch.jac_a` and `scratch.jac_b`: the pairing's kernel, or the marker-level kernel
    /// composed with the markers' own Jacobians, C_q,i = ∂r/∂v_i·J_pos,i + ∂r/∂ω_i·J_rot,i.
    fn joint_jacobian(&self, j: &JointTopology, qt: &[f64], scratch: &mut Scratch) {
        let mk0 = &self.markers[j.markers[0]];
        let mk1 = &self.markers[j.markers[1]];
        let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
        let rows = j.kernel_rows();
        // The Jacobian does not depend on velocities: pass the coordinates in their place.
        let m0 = MarkerState::new(mk0, qt, qt);
        let m1 = MarkerState::new(mk1, qt, qt);
        let (j0, j1) = (
            &mut scratch.jac_a[..rows * n0],
            &mut scratch.jac_b[..rows * n1],
        );
        match j.kernel {
            JointKernel::Pairing(p) => {
                (p.jacobian)(&j.parameters, m0.kernel_args(), m1.kernel_args(), j0, j1)
                    .expect(SIZES_CHECKED);
            }
            JointKernel::MarkerLevel => {
                let ml = &mut scratch.marker_level[..12 * rows];
                (j.definition.marker_level.jacobian)(
                    &j.parameters,
                    &m0.quantities(),
                    &m1.quantities(),
                    ml,
                )
                .expect(SIZES_CHECKED);
                let (ml0, ml1) = ml.split_at(6 * rows);
                for (ms, out, n, ml) in [(&m0, &mut *j0, n0, ml0), (&m1, &mut *j1, n1, ml1)] {
                    let (d_velocity, d_angular) = ml.split_at(3 * rows);
                    let mut jp = std::mem::take(&mut scratch.jac_c);
                    jp.resize(3 * n, 0.0);
                    ms.position_jacobian(&mut jp);
                    let rotational = d_angular.iter().any(|x| *x != 0.0);
                    let mut jr = std::mem::take(&mut scratch.jac_d);
                    jr.resize(3 * n, 0.0);
                    if rotational {
                        ms.rotation_jacobian(&mut jr);
                    }
                    for k in 0..rows {
                        for c in 0..n {
                            let mut x = 0.0;
                            for t in 0..3 {
                                x += d_velocity[3 * k + t] * jp[t * n + c];
                                if rotational {
                                    x += d_angular[3 * k + t] * jr[t * n + c];
                                }
                            }
                            out[k * n + c] = x;
                        }
                    }
                    scratch.jac_c = jp;
                    scratch.jac_d = jr;
                }
            }
        }
    }

    /// Visit every nonzero block of C_q: `visit(ae_row, global columns, row values)`. Rows of
    /// free axes and inactive joints are skipped (they are zero).
    pub fn for_each_constraint_jacobian_row(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        mut visit: impl FnMut(usize, &[usize], &[f64]),
    ) {
        for ep in &self.ep_constraints {
            let t = &qt[ep.ode2..ep.ode2 + 4];
            let row = [2.0 * t[0], 2.0 * t[1], 2.0 * t[2], 2.0 * t[3]];
            let cols = [ep.ode2, ep.ode2 + 1, ep.ode2 + 2, ep.ode2 + 3];
            visit(ep.ae, &cols, &row);
        }
        for j in &self.joints {
            if !j.active {
                continue;
            }
            self.joint_jacobian(j, qt, scratch);
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            for k in 0..j.rows() {
                let Some(r) = j.row_kernel(k) else {
                    continue;
                };
                if n0 > 0 {
                    visit(j.ae + k, &mk0.columns, &scratch.jac_a[r * n0..(r + 1) * n0]);
                }
                if n1 > 0 {
                    visit(j.ae + k, &mk1.columns, &scratch.jac_b[r * n1..(r + 1) * n1]);
                }
            }
        }
    }

    /// c = −(∂(C_q v)/∂q)·v, the convective term of the acceleration-level constraints, into
    /// `c` (one entry per AE equation; free axes and inactive joints get 0). Exact: the EP
    /// constraint's −2θ̇·θ̇ and the joints' generated ∂(C_q v)/∂q; joints without second-order
    /// kernels (marker-level ones, and custom joints defined without `second_order`) by forward
    /// differences of their velocity-level residual over their markers' columns.
    pub fn convective_constraint_term(
        &self,
        qt: &[f64],
        v: &[f64],
        c: &mut [f64],
        scratch: &mut Scratch,
    ) {
        c.fill(0.0);
        for ep in &self.ep_constraints {
            let tt = &v[ep.ode2..ep.ode2 + 4];
            c[ep.ae] = -2.0 * (tt[0] * tt[0] + tt[1] * tt[1] + tt[2] * tt[2] + tt[3] * tt[3]);
        }
        let mut qp = qt.to_vec();
        for j in &self.joints {
            if !j.active {
                continue;
            }
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let rows = j.kernel_rows();
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            let m0 = MarkerState::new(mk0, qt, v);
            let m1 = MarkerState::new(mk1, qt, v);
            let second_order = match j.kernel {
                JointKernel::Pairing(p) => p.second_order,
                JointKernel::MarkerLevel => None,
            };
            let row = &mut scratch.rows[..rows];
            if let Some(so) = second_order {
                let (b0, b1) = (
                    &mut scratch.jac_a[..rows * n0],
                    &mut scratch.jac_b[..rows * n1],
                );
                (so.velocity_residual_q)(&j.parameters, m0.kernel_args(), m1.kernel_args(), b0, b1)
                    .expect(SIZES_CHECKED);
                for (r, x) in row.iter_mut().enumerate() {
                    let a: f64 = mk0
                        .columns
                        .iter()
                        .enumerate()
                        .map(|(c, &g)| b0[r * n0 + c] * v[g])
                        .sum();
                    let b: f64 = mk1
                        .columns
                        .iter()
                        .enumerate()
                        .map(|(c, &g)| b1[r * n1 + c] * v[g])
                        .sum();
                    *x = -(a + b);
                }
            } else {
                row.fill(0.0);
                let base = &mut scratch.rows2[..rows];
                joint_kernel_rows(j, ConstraintLevel::Velocity, &m0, &m1, base);
                let pert = &mut scratch.rows3[..rows];
                for (i, &col) in mk0.columns.iter().chain(&mk1.columns).enumerate() {
                    // a column both markers share is perturbed once
                    if v[col] == 0.0 || (i >= mk0.columns.len() && mk0.columns.contains(&col)) {
                        continue;
                    }
                    let eps = 1e-7 * 0.01f64.max((qt[col] - self.reference[col]).abs());
                    qp[col] = qt[col] + eps;
                    let p0 = MarkerState::new(mk0, &qp, v);
                    let p1 = MarkerState::new(mk1, &qp, v);
                    joint_kernel_rows(j, ConstraintLevel::Velocity, &p0, &p1, pert);
                    qp[col] = qt[col];
                    for r in 0..rows {
                        row[r] -= (pert[r] - base[r]) / eps * v[col];
                    }
                }
            }
            for k in 0..j.rows() {
                if let Some(r) = j.row_kernel(k) {
                    c[j.ae + k] = row[r];
                }
            }
        }
    }

    /// Add `factor`·∂(C_qᵀλ)/∂q, the constraints' geometric stiffness, into the ODE2 block of
    /// `m`: 2λ·I on each Euler-parameter node's θ block, and each joint's generated
    /// `reaction_q` (free rows contribute nothing). Joints without second-order kernels
    /// (marker-level ones, and custom joints defined without `second_order`) take forward
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
            // λ per kernel row; rows no equation uses get 0
            let mut l = std::mem::take(&mut scratch.rows);
            l[..rows].fill(0.0);
            for k in 0..j.rows() {
                if let Some(r) = j.row_kernel(k) {
                    l[r] = lambda[j.ae + k];
                }
            }
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let (n0, n1) = (mk0.columns.len(), mk1.columns.len());
            let n = n0 + n1;
            let second_order = match j.kernel {
                JointKernel::Pairing(p) => p.second_order,
                JointKernel::MarkerLevel => None,
            };
            let mut block = std::mem::take(&mut scratch.block);
            block.resize(n * n, 0.0);
            if let Some(so) = second_order {
                let m0 = MarkerState::new(mk0, qt, qt);
                let m1 = MarkerState::new(mk1, qt, qt);
                (so.reaction_q)(
                    &j.parameters,
                    &l[..rows],
                    m0.kernel_args(),
                    m1.kernel_args(),
                    &mut block[..n * n],
                )
                .expect(SIZES_CHECKED);
            } else {
                self.reaction_q_by_differences(j, qt, &l[..rows], &mut block[..n * n], scratch);
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
    }

    /// ∂(C_qᵀλ)/∂q of joint `j` by forward differences of C_qᵀλ over its markers' columns, into
    /// the square `block` over the columns of m0 then m1 (a column both markers share gets the
    /// same difference in both places).
    fn reaction_q_by_differences(
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
        self.joint_jacobian(j, qt, scratch);
        let mut base = std::mem::take(&mut scratch.fd_base);
        base.resize(n, 0.0);
        reaction(scratch, &mut base);
        let mut pert = std::mem::take(&mut scratch.fd_out);
        pert.resize(n, 0.0);
        let mut qp = std::mem::take(&mut scratch.fd_q);
        qp.clear();
        qp.extend_from_slice(qt);
        for (ci, &col) in mk0.columns.iter().chain(&mk1.columns).enumerate() {
            let eps = 1e-7 * 0.01f64.max((qt[col] - self.reference[col]).abs());
            qp[col] = qt[col] + eps;
            self.joint_jacobian(j, &qp, scratch);
            qp[col] = qt[col];
            reaction(scratch, &mut pert);
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
    }

    /// Add C_qᵀ λ into `r` (ODE2).
    pub fn add_reaction_forces(
        &self,
        qt: &[f64],
        lambda: &[f64],
        r: &mut [f64],
        scratch: &mut Scratch,
    ) {
        self.for_each_constraint_jacobian_row(qt, scratch, |row, cols, vals| {
            let l = lambda[row];
            for (c, x) in cols.iter().zip(vals) {
                r[*c] += x * l;
            }
        });
    }
}

/// A connector's force and its derivatives with respect to the relative motion.
pub struct ConnectorForce {
    /// Force vector on marker 1 (global).
    pub force: Vector3<f64>,
    /// Signed scalar force (SpringDamper) or |f| (Cartesian).
    pub scalar: f64,
    pub delta_p: Vector3<f64>,
    pub delta_v: Vector3<f64>,
    pub d_force_d_delta_p: Matrix3<f64>,
    pub d_force_d_delta_v: Matrix3<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `add_body_jacobians_fd` skips evaluating a rigid body's LHS for perturbed positions and
    /// translational velocities, taking the unperturbed LHS instead. That is only exact if the
    /// LHS does not read them at all, with the centre of mass at the node or off it.
    #[test]
    fn rigid_lhs_ignores_translation_to_the_bit() {
        let inertia = Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.7);
        let cases: [(Rotation, Vec<f64>, Vec<f64>); 2] = [
            (
                Rotation::EulerParameters,
                vec![0.1, -0.2, 0.3, 0.9, 0.1, -0.3, 0.2],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.2, 0.9],
            ),
            (
                Rotation::TaitBryanXyz,
                vec![0.1, -0.2, 0.3, 0.4, -1.1, 2.0],
                vec![1.0, 2.0, -3.0, 0.4, -0.7, 0.9],
            ),
        ];
        let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (rotation, q, v) in cases {
            for com in [[0.0; 3], [0.1, -0.05, 0.2]] {
                let n = q.len();
                let mut base = vec![0.0; n];
                rigid_lhs(rotation, 2.5, &inertia, &com, &q, &v, &mut base);
                let translational = com != [0.0; 3];
                assert!(base[3..].iter().any(|x| *x != 0.0), "{rotation:?}: LHS_θ");
                assert_eq!(
                    base[..3].iter().any(|x| *x != 0.0),
                    translational,
                    "{rotation:?}: LHS_u is zero exactly when the centre of mass is at the node"
                );
                for i in 0..3 {
                    for (dq, dv) in [(1e-7, 0.0), (0.0, 1e-7), (3.0, -5.0)] {
                        let (mut q2, mut v2) = (q.clone(), v.clone());
                        q2[i] += dq;
                        v2[i] += dv;
                        let mut out = vec![f64::NAN; n];
                        rigid_lhs(rotation, 2.5, &inertia, &com, &q2, &v2, &mut out);
                        assert_eq!(
                            bits(&out),
                            bits(&base),
                            "{rotation:?} {com:?}, coordinate {i}"
                        );
                    }
                }
            }
        }
    }
}
