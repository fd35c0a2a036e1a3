//! The system's equations at a state: mass matrix, right-hand side (loads − object terms),
//! constraint residuals, constraint Jacobian and the object Jacobians K, D.
//!
//! Sign conventions follow Exudyn (spec/solver.md §1): `M ä + C_qᵀλ = f`, `f = loads − LHS`.
//! All marker quantities come from the generated kernels; the rigid-body terms are Exudyn's
//! "version 1" EP equations (spec/items.md §3.3).

use nalgebra::{Matrix3, Vector3};

use crate::assemble::{BodyTopology, ConnectorKind, LoadKind, ResolvedMarker, Rotation, Topology};
use crate::kernels::{KinematicsKind, marker_kinematics as mk, spherical};

/// Which level the constraints are evaluated at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintLevel {
    Position,
    Velocity,
}

fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

fn m3(a: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_row_slice(a.as_flattened())
}

/// Kinematics of one marker at a state (`qt` total coordinates, `v` velocities, both global).
pub struct MarkerState<'a> {
    pub marker: &'a ResolvedMarker,
    pub coordinates: &'a [f64],
    pub velocities: &'a [f64],
}

impl<'a> MarkerState<'a> {
    pub fn new(marker: &'a ResolvedMarker, qt: &'a [f64], v: &'a [f64]) -> Self {
        MarkerState {
            marker,
            coordinates: &qt[marker.ode2.clone()],
            velocities: &v[marker.ode2.clone()],
        }
    }

    fn kind(&self) -> usize {
        self.marker.kind.index()
    }

    pub fn position(&self) -> Vector3<f64> {
        v3(
            mk::position(self.kind(), &self.marker.parameters, self.coordinates)
                .expect("resolved marker"),
        )
    }

    pub fn velocity(&self) -> Vector3<f64> {
        v3(mk::velocity(
            self.kind(),
            &self.marker.parameters,
            self.coordinates,
            self.velocities,
        )
        .expect("resolved marker"))
    }

    /// Rotation matrix; identity for kinds without orientation (mass points, point nodes).
    pub fn rotation(&self) -> Matrix3<f64> {
        mk::rotation(self.kind(), &self.marker.parameters, self.coordinates)
            .map_or_else(Matrix3::identity, m3)
    }

    pub fn angular_velocity(&self) -> Vector3<f64> {
        mk::angular_velocity(
            self.kind(),
            &self.marker.parameters,
            self.coordinates,
            self.velocities,
        )
        .map_or_else(Vector3::zeros, v3)
    }

    pub fn angular_velocity_local(&self) -> Vector3<f64> {
        mk::angular_velocity_local(
            self.kind(),
            &self.marker.parameters,
            self.coordinates,
            self.velocities,
        )
        .map_or_else(Vector3::zeros, v3)
    }

    /// Position Jacobian, row-major 3 × n, into `out`.
    pub fn position_jacobian(&self, out: &mut [f64]) {
        mk::position_jacobian(self.kind(), &self.marker.parameters, self.coordinates, out)
            .expect("resolved marker");
    }

    pub fn rotation_jacobian(&self, out: &mut [f64]) {
        mk::rotation_jacobian(self.kind(), &self.marker.parameters, self.coordinates, out)
            .expect("orientation marker");
    }

    pub fn position_jacobian_t_times_vector_q(&self, f: &[f64; 3], out: &mut [f64]) {
        mk::position_jacobian_t_times_vector_q(
            self.kind(),
            &self.marker.parameters,
            self.coordinates,
            f,
            out,
        )
        .expect("resolved marker");
    }

    pub fn kernel_args(&self) -> spherical::MarkerArgs<'a> {
        spherical::MarkerArgs {
            parameters: &self.marker.parameters,
            coordinates: self.coordinates,
            velocities: self.velocities,
        }
    }
}

/// Node-level kinematics kind of a rigid body's node.
fn node_kind(rotation: Rotation) -> KinematicsKind {
    match rotation {
        Rotation::EulerParameters => KinematicsKind::NodeEp,
        Rotation::TaitBryanXyz => KinematicsKind::NodeRxyz,
    }
}

/// Rigid-body quantities at a state.
struct RigidState {
    a: Matrix3<f64>,
    /// Ḡ, 3 × nθ, row-major.
    g_local: [f64; 12],
    n_rot: usize,
    omega_local: Vector3<f64>,
    /// Ḡ_t·θ̇ (zero for Euler parameters).
    g_local_t_rates: Vector3<f64>,
}

fn rigid_state(rotation: Rotation, qt: &[f64], v: &[f64]) -> RigidState {
    let kind = node_kind(rotation).index();
    let n = qt.len();
    let n_rot = n - 3;
    let a = m3(mk::rotation(kind, &[], qt).expect("rigid node"));
    let mut jac = [0.0; 21];
    mk::rotation_jacobian_local(kind, &[], qt, &mut jac[..3 * n]).expect("rigid node");
    let mut g_local = [0.0; 12];
    for r in 0..3 {
        for c in 0..n_rot {
            g_local[r * n_rot + c] = jac[r * n + 3 + c];
        }
    }
    let omega_local = v3(mk::angular_velocity_local(kind, &[], qt, v).expect("rigid node"));
    let g_local_t_rates = match rotation {
        // Exudyn omits Ḡ_t·θ̇ for EP nodes (it vanishes identically).
        Rotation::EulerParameters => Vector3::zeros(),
        Rotation::TaitBryanXyz => {
            v3(mk::angular_acceleration_local_rate_part(kind, &[], qt, v).expect("rigid node"))
        }
    };
    RigidState {
        a,
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
    let zeros = [0.0; 7];
    let st = rigid_state(rotation, qt, &zeros[..qt.len()]);
    let n = qt.len();
    let nr = st.n_rot;
    out.fill(0.0);
    for i in 0..3 {
        out[i * n + i] = mass;
    }
    let g = |r: usize, c: usize| st.g_local[r * nr + c];
    // M_θθ = Ḡᵀ J Ḡ
    for i in 0..nr {
        for j in 0..nr {
            let mut s = 0.0;
            for a in 0..3 {
                for b in 0..3 {
                    s += g(a, i) * inertia[(a, b)] * g(b, j);
                }
            }
            out[(3 + i) * n + 3 + j] = s;
        }
    }
    if com.iter().any(|&c| c != 0.0) {
        // M_uθ = −m A skew(c) Ḡ
        let ask = -mass * st.a * skew(&v3(*com));
        for r in 0..3 {
            for j in 0..nr {
                let s: f64 = (0..3).map(|k| ask[(r, k)] * g(k, j)).sum();
                out[r * n + 3 + j] = s;
                out[(3 + j) * n + r] = s;
            }
        }
    }
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
        let lu = st.a * (w.cross(&u.cross(&w)) + u.cross(&st.g_local_t_rates));
        out[..3].copy_from_slice(lu.as_slice());
    } else {
        out[..3].fill(0.0);
    }
}

/// Scratch space for one evaluation (sized at construction; no allocation afterwards).
#[derive(Clone, Debug)]
pub struct Scratch {
    pub jac_a: Vec<f64>,
    pub jac_b: Vec<f64>,
    pub block: Vec<f64>,
    pub lhs: Vec<f64>,
    pub lhs2: Vec<f64>,
    pub coords: Vec<f64>,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch {
            jac_a: vec![0.0; 3 * 7],
            jac_b: vec![0.0; 3 * 7],
            block: vec![0.0; 7 * 7],
            lhs: vec![0.0; 7],
            lhs2: vec![0.0; 7],
            coords: vec![0.0; 7],
        }
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

    /// Visit each body's mass matrix block: `visit(first ODE2 index, n, row-major n × n block)`.
    fn for_each_mass_block(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        mut visit: impl FnMut(usize, usize, &[f64]),
    ) {
        for body in &self.bodies {
            match body {
                BodyTopology::MassPoint { ode2, mass } => {
                    let m = *mass;
                    visit(*ode2, 3, &[m, 0.0, 0.0, 0.0, m, 0.0, 0.0, 0.0, m]);
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
                    visit(ode2.start, n, block);
                }
            }
        }
    }

    /// Add the mass matrix into row-major `m` (leading dimension `ld`), scaled by `factor`.
    pub fn add_mass_matrix(
        &self,
        qt: &[f64],
        factor: f64,
        m: &mut [f64],
        ld: usize,
        scratch: &mut Scratch,
    ) {
        self.for_each_mass_block(qt, scratch, |start, n, block| {
            for i in 0..n {
                for j in 0..n {
                    m[(start + i) * ld + start + j] += factor * block[i * n + j];
                }
            }
        });
    }

    /// out += M(qt)·x
    pub fn add_mass_times(&self, qt: &[f64], x: &[f64], out: &mut [f64], scratch: &mut Scratch) {
        self.for_each_mass_block(qt, scratch, |start, n, block| {
            for i in 0..n {
                let s: f64 = (0..n).map(|j| block[i * n + j] * x[start + j]).sum();
                out[start + i] += s;
            }
        });
    }

    /// Add the constraint blocks of an iteration matrix (row-major, leading dimension `ld`,
    /// ODE2 unknowns first, then AE): `cq_factor`·C_q in the AE rows, C_qᵀ in the ODE2 rows,
    /// and `lambda_factor`·∂g/∂λ on the AE diagonal (free axes, inactive joints).
    pub fn add_constraint_blocks(
        &self,
        qt: &[f64],
        cq_factor: f64,
        lambda_factor: f64,
        m: &mut [f64],
        ld: usize,
        scratch: &mut Scratch,
    ) {
        let n2 = self.n_ode2;
        self.for_each_constraint_jacobian_row(qt, scratch, |row, col, vals| {
            let r = n2 + row;
            for (i, x) in vals.iter().enumerate() {
                m[r * ld + col + i] += cq_factor * x;
                m[(col + i) * ld + r] += x;
            }
        });
        for j in &self.joints {
            for k in 0..3 {
                if !j.active || !j.constrained[k] {
                    let r = n2 + j.ae + k;
                    m[r * ld + r] += lambda_factor;
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
        let n = marker.ode2.len();
        if n == 0 {
            return; // loads on ground are skipped
        }
        let mut local = [0.0; 7];
        self.load_vector_local(
            index,
            &qt[marker.ode2.clone()],
            &v[marker.ode2.clone()],
            load_factor,
            &mut local[..n],
            scratch,
        );
        for c in 0..n {
            f[marker.ode2.start + c] += local[c];
        }
    }

    /// A load's generalized force over its marker's coordinates (`qt`, `v` are those
    /// coordinates only).
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
        let n = marker.ode2.len();
        let ms = MarkerState {
            marker,
            coordinates: qt,
            velocities: v,
        };
        let vector = v3(l.vector) * load_factor;
        let jac = &mut scratch.jac_a[..3 * n];
        let (vec, factor) = match l.kind {
            LoadKind::MassProportional => {
                ms.position_jacobian(jac);
                (vector, marker.mass)
            }
            LoadKind::Force => {
                ms.position_jacobian(jac);
                (
                    if l.body_fixed {
                        ms.rotation() * vector
                    } else {
                        vector
                    },
                    1.0,
                )
            }
            LoadKind::Torque => {
                ms.rotation_jacobian(jac);
                (
                    if l.body_fixed {
                        ms.rotation() * vector
                    } else {
                        vector
                    },
                    1.0,
                )
            }
        };
        for c in 0..n {
            let s: f64 = (0..3).map(|r| jac[r * n + c] * vec[r]).sum();
            out[c] = factor * s;
        }
    }

    /// Add `factor`·∂Q/∂q of every load by forward differences over its marker's coordinates
    /// (Exudyn's numerical load Jacobian, ε = relEps·max(minCoord, |q_i|)).
    #[allow(clippy::too_many_arguments)]
    pub fn add_load_jacobians_fd(
        &self,
        q: &[f64],
        qt: &[f64],
        v: &[f64],
        load_factor: f64,
        factor: f64,
        rel_eps: f64,
        min_coord: f64,
        m: &mut [f64],
        ld: usize,
        scratch: &mut Scratch,
    ) {
        for index in 0..self.loads.len() {
            let marker = &self.markers[self.loads[index].marker];
            let r = marker.ode2.clone();
            let n = r.len();
            if n == 0 {
                continue;
            }
            let mut base = [0.0; 7];
            let mut pert = [0.0; 7];
            let mut coords = [0.0; 7];
            coords[..n].copy_from_slice(&qt[r.clone()]);
            self.load_vector_local(
                index,
                &coords[..n],
                &v[r.clone()],
                load_factor,
                &mut base[..n],
                scratch,
            );
            for i in 0..n {
                let x = q[r.start + i];
                let eps = rel_eps * min_coord.max(x.abs());
                let mut c2 = coords;
                c2[i] = self.reference[r.start + i] + (x + eps);
                self.load_vector_local(
                    index,
                    &c2[..n],
                    &v[r.clone()],
                    load_factor,
                    &mut pert[..n],
                    scratch,
                );
                for row in 0..n {
                    m[(r.start + row) * ld + r.start + i] += factor * (pert[row] - base[row]) / eps;
                }
            }
        }
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
        let Some(cf) = self.connector_force(c, qt, v) else {
            return;
        };
        let con = &self.connectors[c];
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let marker = &self.markers[con.markers[k]];
            let n = marker.ode2.len();
            if n == 0 {
                continue;
            }
            let ms = MarkerState::new(marker, qt, v);
            let jac = &mut scratch.jac_a[..3 * n];
            ms.position_jacobian(jac);
            for col in 0..n {
                let val: f64 = (0..3).map(|r| jac[r * n + col] * cf.force[r]).sum();
                f[marker.ode2.start + col] += sign * s * val;
            }
        }
    }

    /// Add `factor_k`·K + `factor_d`·D of the connectors (K = ∂LHS/∂q, D = ∂LHS/∂v) into the
    /// row-major matrix `m` (leading dimension `ld`).
    #[allow(clippy::too_many_arguments)]
    pub fn add_connector_jacobians(
        &self,
        qt: &[f64],
        v: &[f64],
        factor_k: f64,
        factor_d: f64,
        m: &mut [f64],
        ld: usize,
        scratch: &mut Scratch,
    ) {
        for c in 0..self.connectors.len() {
            let Some(cf) = self.connector_force(c, qt, v) else {
                continue;
            };
            let con = &self.connectors[c];
            let signs = [-1.0, 1.0];
            for a in 0..2 {
                let ma = &self.markers[con.markers[a]];
                let na = ma.ode2.len();
                if na == 0 {
                    continue;
                }
                let sa = MarkerState::new(ma, qt, v);
                sa.position_jacobian(&mut scratch.jac_a[..3 * na]);
                // ∂(J_aᵀ f)/∂q_a with the sign of marker a
                let f_arr = [cf.force[0], cf.force[1], cf.force[2]];
                sa.position_jacobian_t_times_vector_q(&f_arr, &mut scratch.block[..na * na]);
                for i in 0..na {
                    for j in 0..na {
                        m[(ma.ode2.start + i) * ld + ma.ode2.start + j] +=
                            factor_k * signs[a] * scratch.block[i * na + j];
                    }
                }
                for b in 0..2 {
                    let mb = &self.markers[con.markers[b]];
                    let nb = mb.ode2.len();
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
                            m[(ma.ode2.start + i) * ld + mb.ode2.start + j] +=
                                s * (factor_k * kk + factor_d * dd);
                        }
                    }
                }
            }
        }
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
        m: &mut [f64],
        ld: usize,
        scratch: &mut Scratch,
    ) {
        for body in &self.bodies {
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
                    let mut c2 = coords;
                    let mut v2 = vels;
                    if which == 0 {
                        // perturb the displacement, as Exudyn does, then form the total
                        c2[i] = self.reference[r.start + i] + (x + eps);
                    } else {
                        v2[i] = x + eps;
                    }
                    let out = &mut scratch.lhs2[..n];
                    rigid_lhs(
                        *rotation,
                        *mass,
                        inertia,
                        center_of_mass,
                        &c2[..n],
                        &v2[..n],
                        out,
                    );
                    for row in 0..n {
                        m[(r.start + row) * ld + r.start + i] +=
                            factor * (out[row] - base[row]) / eps;
                    }
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
            let out: &mut [f64; 3] = (&mut g[j.ae..j.ae + 3]).try_into().expect("3 rows");
            if !j.active {
                out.copy_from_slice(&lambda[j.ae..j.ae + 3]);
                continue;
            }
            let m0 = MarkerState::new(&self.markers[j.markers[0]], qt, v);
            let m1 = MarkerState::new(&self.markers[j.markers[1]], qt, v);
            let f = match level {
                ConstraintLevel::Position => j.kernel.position_residual,
                ConstraintLevel::Velocity => j.kernel.velocity_residual,
            };
            f(m0.kernel_args(), m1.kernel_args(), out).expect("kernel sizes checked at assemble");
            for k in 0..3 {
                if !j.constrained[k] {
                    out[k] = lambda[j.ae + k];
                }
            }
        }
    }

    /// Visit every nonzero block of C_q: `visit(ae_row, ode2_col_start, row_values)`. Rows of
    /// free axes and inactive joints are skipped (they are zero).
    pub fn for_each_constraint_jacobian_row(
        &self,
        qt: &[f64],
        scratch: &mut Scratch,
        mut visit: impl FnMut(usize, usize, &[f64]),
    ) {
        for ep in &self.ep_constraints {
            let t = &qt[ep.ode2..ep.ode2 + 4];
            let row = [2.0 * t[0], 2.0 * t[1], 2.0 * t[2], 2.0 * t[3]];
            visit(ep.ae, ep.ode2, &row);
        }
        for j in &self.joints {
            if !j.active {
                continue;
            }
            let mk0 = &self.markers[j.markers[0]];
            let mk1 = &self.markers[j.markers[1]];
            let (n0, n1) = (mk0.ode2.len(), mk1.ode2.len());
            // The Jacobian does not depend on velocities: pass the coordinates in their place.
            let m0 = MarkerState::new(mk0, qt, qt);
            let m1 = MarkerState::new(mk1, qt, qt);
            let (j0, j1) = (&mut scratch.jac_a[..3 * n0], &mut scratch.jac_b[..3 * n1]);
            (j.kernel.jacobian)(m0.kernel_args(), m1.kernel_args(), j0, j1)
                .expect("kernel sizes checked at assemble");
            for k in 0..3 {
                if !j.constrained[k] {
                    continue;
                }
                if n0 > 0 {
                    visit(j.ae + k, mk0.ode2.start, &j0[k * n0..(k + 1) * n0]);
                }
                if n1 > 0 {
                    visit(j.ae + k, mk1.ode2.start, &j1[k * n1..(k + 1) * n1]);
                }
            }
        }
    }

    /// ∂g/∂λ diagonal: 1 for free axes and inactive joints, 0 elsewhere.
    pub fn constraint_lambda_diagonal(&self, d: &mut [f64]) {
        d.fill(0.0);
        for j in &self.joints {
            for k in 0..3 {
                if !j.active || !j.constrained[k] {
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
        self.for_each_constraint_jacobian_row(qt, scratch, |row, col, vals| {
            let l = lambda[row];
            for (i, x) in vals.iter().enumerate() {
                r[col + i] += x * l;
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
