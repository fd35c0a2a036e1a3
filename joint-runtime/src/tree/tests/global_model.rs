//! The independent model: plain Newton–Euler in global coordinates, and Lagrange.

use super::*;

// ------------------------------------------------------------------------------------------
// Independent model: plain forward kinematics, differentiated with num-dual

/// Rotation by q about the unit axis e_k (Rodrigues: c I + s ẽ + (1 − c) e eᵀ).
pub(super) fn joint_rotation<S: Scalar>(k: usize, q: S) -> M3<S> {
    let (s, c) = q.sin_cos();
    let e = unit(k);
    let k_tilde = skew(e);
    let mut out = [[cst::<S>(0.0); 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (col, x) in row.iter_mut().enumerate() {
            let delta = if r == col { 1.0 } else { 0.0 };
            *x = c * delta + s * k_tilde[r][col] + (cst::<S>(1.0) - c) * (e[r] * e[col]);
        }
    }
    out
}

/// Global link frames (R_i, p_i): T_i = T_π·HT(A_i, o_i)·J_i(q_i), T_base = HT(I, b).
pub(super) fn forward<S: Scalar>(tree: &Tree, q: &[S]) -> Vec<(M3<S>, V3<S>)> {
    let mut out: Vec<(M3<S>, V3<S>)> = Vec::with_capacity(tree.n());
    for i in 0..tree.n() {
        let (rp, pp) = match tree.parents[i] {
            -1 => (identity(), cvec(&tree.base)),
            p => out[p as usize],
        };
        let t = tree.types[i];
        let k = axis_index(t);
        let (rj, pj) = if is_revolute(t) {
            (joint_rotation(k, q[i]), [cst::<S>(0.0); 3])
        } else {
            (identity(), scale(cvec(&unit(k)), q[i]))
        };
        // T_π·HT(A, o)
        let r_ao = mat_mul(&rp, &cmat(&tree.a[i]));
        let p_ao = add(pp, mat_vec(&rp, cvec(&tree.o[i])));
        // ·HT(R_J, p_J)
        out.push((mat_mul(&r_ao, &rj), add(p_ao, mat_vec(&r_ao, pj))));
    }
    out
}

/// Frames and their exact derivatives w.r.t. each joint coordinate.
pub(super) struct Kin {
    pub(super) r: Vec<M3<f64>>,
    pub(super) p: Vec<V3<f64>>,
    /// dr[j][i] = ∂R_i/∂q_j, dp[j][i] = ∂p_i/∂q_j
    pub(super) dr: Vec<Vec<M3<f64>>>,
    pub(super) dp: Vec<Vec<V3<f64>>>,
}

impl Kin {
    pub(super) fn new(tree: &Tree, q: &[f64]) -> Kin {
        let n = tree.n();
        let frames = forward(tree, q);
        let mut kin = Kin {
            r: frames.iter().map(|f| f.0).collect(),
            p: frames.iter().map(|f| f.1).collect(),
            dr: Vec::with_capacity(n),
            dp: Vec::with_capacity(n),
        };
        for j in 0..n {
            let qd: Vec<Dual64> = (0..n)
                .map(|k| Dual64::new(q[k], if k == j { 1.0 } else { 0.0 }))
                .collect();
            let f = forward(tree, &qd);
            kin.dr
                .push(f.iter().map(|f| re_m(&f.0, |x| x.eps)).collect());
            kin.dp
                .push(f.iter().map(|f| re_v(&f.1, |x| x.eps)).collect());
        }
        kin
    }

    /// Columns j (given) of the Jacobians (J_p, J_ω) of the point with link coordinates `local`
    /// on link i: J_p = ∂p_i/∂q_j + ∂R_i/∂q_j·local, skew(J_ω) = ∂R_i/∂q_j·R_iᵀ.
    pub(super) fn columns(
        &self,
        i: usize,
        local: [f64; 3],
        joints: &[usize],
    ) -> Vec<(V3<f64>, V3<f64>)> {
        let rt = transpose(&self.r[i]);
        joints
            .iter()
            .map(|&j| {
                let dr = &self.dr[j][i];
                (
                    add(self.dp[j][i], mat_vec(dr, local)),
                    vee(&mat_mul(dr, &rt)),
                )
            })
            .collect()
    }
}

/// Global form of M: Σ_i m_i J_c,iᵀJ_c,i + J_ω,iᵀ I_g,i J_ω,i (row-major n × n). With
/// `only_path`, the sum over the columns of link i is restricted to i's path (for the large
/// chain); otherwise all n columns are used.
pub(super) fn mass_matrix_global(tree: &Tree, kin: &Kin, only_path: bool) -> Vec<f64> {
    let n = tree.n();
    let mut m = vec![0.0; n * n];
    let all: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let joints = if only_path { tree.path(i) } else { all.clone() };
        let cols = kin.columns(i, tree.com[i], &joints);
        let ig = tree.global_inertia(i, &kin.r[i]);
        let ig_jw: Vec<V3<f64>> = cols.iter().map(|c| mat_vec(&ig, c.1)).collect();
        for (a, &j) in joints.iter().enumerate() {
            for (b, &k) in joints.iter().enumerate() {
                m[j * n + k] += tree.mass[i] * dot(cols[a].0, cols[b].0) + dot(cols[a].1, ig_jw[b]);
            }
        }
    }
    m
}

/// Per-link global motion along q(t) = q + q̇t + ½q̈t² at t = 0 (from hyper-dual numbers).
pub(super) struct Motion {
    pub(super) r: M3<f64>,
    pub(super) p: V3<f64>,
    /// COM position, velocity, acceleration
    pub(super) xc: V3<f64>,
    pub(super) vc: V3<f64>,
    pub(super) ac: V3<f64>,
    /// origin velocity and acceleration
    pub(super) v: V3<f64>,
    pub(super) a: V3<f64>,
    pub(super) w: V3<f64>,
    pub(super) alpha: V3<f64>,
}

pub(super) fn motion(tree: &Tree, q: &[f64], q_t: &[f64], q_tt: &[f64]) -> Vec<Motion> {
    let qh: Vec<HyperDual64> = (0..tree.n())
        .map(|k| HyperDual64::new(q[k], q_t[k], q_t[k], q_tt[k]))
        .collect();
    forward(tree, &qh)
        .iter()
        .enumerate()
        .map(|(i, (r, p))| {
            let c = cvec::<HyperDual64>(&tree.com[i]);
            let xc = add(*p, mat_vec(r, c));
            let r0 = re_m(r, |x| x.re);
            let r1 = re_m(r, |x| x.eps1);
            let r2 = re_m(r, |x| x.eps1eps2);
            Motion {
                r: r0,
                p: re_v(p, |x| x.re),
                xc: re_v(&xc, |x| x.re),
                vc: re_v(&xc, |x| x.eps1),
                ac: re_v(&xc, |x| x.eps1eps2),
                v: re_v(p, |x| x.eps1),
                a: re_v(p, |x| x.eps1eps2),
                w: vee(&mat_mul(&r1, &transpose(&r0))),
                alpha: vee(&mat_add(
                    &mat_mul(&r2, &transpose(&r0)),
                    &mat_mul(&r1, &transpose(&r1)),
                )),
            }
        })
        .collect()
}

/// Global Newton–Euler form of the LHS (no external forces, no control):
/// Σ_i J_c,iᵀ m_i (a_c⁰ − g) + J_ω,iᵀ (I_g α⁰ + ω × I_g ω), accelerations at q̈ = 0.
pub(super) fn lhs_global(
    tree: &Tree,
    kin: &Kin,
    q: &[f64],
    q_t: &[f64],
    only_path: bool,
) -> Vec<f64> {
    let n = tree.n();
    let zero = vec![0.0; n];
    let mo = motion(tree, q, q_t, &zero);
    let mut out = vec![0.0; n];
    let all: Vec<usize> = (0..n).collect();
    for (i, m) in mo.iter().enumerate() {
        let joints = if only_path { tree.path(i) } else { all.clone() };
        let cols = kin.columns(i, tree.com[i], &joints);
        let ig = tree.global_inertia(i, &m.r);
        let f = scale(sub(m.ac, tree.gravity), tree.mass[i]);
        let t = add(mat_vec(&ig, m.alpha), cross(m.w, mat_vec(&ig, m.w)));
        for (c, &j) in cols.iter().zip(&joints) {
            out[j] += dot(c.0, f) + dot(c.1, t);
        }
    }
    out
}

/// Kinetic energy T(q, q̇) and gravity potential V(q) from the own forward kinematics
/// (velocities as time derivatives along q + q̇τ, an inner dual number).
pub(super) fn energies<S: Scalar>(tree: &Tree, q: &[S], q_t: &[S]) -> (S, S) {
    let qq: Vec<Dual<S>> = q.iter().zip(q_t).map(|(&a, &b)| Dual::new(a, b)).collect();
    let mut kinetic = cst::<S>(0.0);
    let mut potential = cst::<S>(0.0);
    for (i, (r, p)) in forward(tree, &qq).iter().enumerate() {
        let xc = add(*p, mat_vec(r, cvec(&tree.com[i])));
        let v = re_v(&xc, |x| x.eps);
        let r0 = re_m(r, |x| x.re);
        let r1 = re_m(r, |x| x.eps);
        let w_loc = vee(&mat_mul(&transpose(&r0), &r1));
        let jw = mat_vec(&cmat(&tree.inertia[i]), w_loc);
        kinetic += (dot(v, v) * tree.mass[i] + dot(w_loc, jw)) * 0.5;
        potential -= dot(cvec(&tree.gravity), re_v(&xc, |x| x.re)) * tree.mass[i];
    }
    (kinetic, potential)
}

/// d/dt(∂T/∂q̇) − ∂T/∂q + ∂V/∂q along q(t) = q + q̇t + ½q̈t² at t = 0.
pub(super) fn lagrange(tree: &Tree, q: &[f64], q_t: &[f64], q_tt: &[f64]) -> Vec<f64> {
    let n = tree.n();
    (0..n)
        .map(|j| {
            let e = |k: usize| if k == j { 1.0 } else { 0.0 };
            // ε1: time, ε2: q̇_j
            let qh: Vec<HyperDual64> = (0..n)
                .map(|k| HyperDual64::new(q[k], q_t[k], 0.0, 0.0))
                .collect();
            let qdh: Vec<HyperDual64> = (0..n)
                .map(|k| HyperDual64::new(q_t[k], q_tt[k], e(k), 0.0))
                .collect();
            let ddt = energies(tree, &qh, &qdh).0.eps1eps2;
            // ε: q_j
            let qd: Vec<Dual64> = (0..n).map(|k| Dual64::new(q[k], e(k))).collect();
            let qdd: Vec<Dual64> = (0..n).map(|k| Dual64::new(q_t[k], 0.0)).collect();
            let (t, v) = energies(tree, &qd, &qdd);
            ddt - t.eps + v.eps
        })
        .collect()
}

pub(super) fn mass_matrix(data: &KinematicTreeData, q: &[f64]) -> Vec<f64> {
    let n = q.len();
    let mut m = vec![f64::NAN; n * n];
    data.mass_matrix(q, &mut m);
    m
}

pub(super) fn lhs(data: &KinematicTreeData, q: &[f64], q_t: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; q.len()];
    data.lhs(q, q_t, &mut out);
    out
}
