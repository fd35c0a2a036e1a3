//! ObjectKinematicTree dynamics and MarkerKinematicTreeRigid kinematics (spec
//! superelements-and-kinematic-trees.md §6–7), checked on seeded random chains, branched trees
//! and forests with all six joint types, random proper jointTransformations, offsets, COMs,
//! masses, SPD COM inertias, gravity and baseOffset, against an independent model written here:
//!
//! * plain forward kinematics T_i = T_π·HT(A_i, o_i)·J_i(q) (joint rotations by Rodrigues'
//!   formula), differentiated exactly with num-dual: Jacobians ∂x/∂q_j and J_ω from
//!   ∂R/∂q_j·Rᵀ, velocities and accelerations along q(t) = q + q̇t + ½q̈t² from hyper-dual
//!   numbers (ω from ṘRᵀ, α from R̈Rᵀ + ṘṘᵀ);
//! * M against the global form Σ m J_cᵀJ_c + J_ωᵀ I_g J_ω (and M symmetric positive definite);
//! * LHS against the global Newton–Euler form Σ J_cᵀ m(a_c⁰ − g) + J_ωᵀ(I_g α⁰ + ω × I_g ω), and
//!   M q̈ + LHS against Lagrange's equations d/dt(∂T/∂q̇) − ∂T/∂q + ∂V/∂q built from T and V of
//!   the own kinematics;
//! * jointForceVector and P/D control: the exact difference of LHS with and without them;
//! * linkForces/linkTorques: LHS += Σ J_p,i(b)ᵀ f_i + J_ω,iᵀ τ_i (Exudyn's convention, b the base
//!   offset);
//! * `point_jacobian` and the marker's state and Jacobians against finite differences of the
//!   runtime's frames and against the exact own Jacobians;
//! * `accelerations` against finite differences in time of the runtime's frame velocities and
//!   against the own hyper-dual accelerations;
//! * CRBA on a 500-link chain against the global form.

#![allow(clippy::needless_range_loop)] // index loops read best in the matrix code

use std::sync::Arc;

use joint::runtime::kernels::marker_kinematics::kinematic_tree::LinkFrame;
use joint::runtime::markers::kinematic_tree::KinematicTreeMarker;
use joint::runtime::tree::KinematicTreeData;
use num_dual::{Dual, Dual64, DualNum, HyperDual64};

// ------------------------------------------------------------------------------------------
// Tolerances

/// Identities that hold up to round-off (relative to max(1, scale)).
const TOL_EXACT: f64 = 1e-12;
/// Central finite differences.
const TOL_FD: f64 = 1e-7;
/// Central-difference step.
const H: f64 = 1e-5;
/// Random states per tree.
const STATES: usize = 3;

fn assert_close(got: f64, want: f64, tol: f64, scale: f64, what: impl Fn() -> String) {
    let bound = tol * scale.max(1.0);
    let diff = (got - want).abs();
    assert!(
        diff <= bound,
        "{}: got {got:.17e}, expected {want:.17e} (|diff| = {diff:.3e} > {bound:.3e})",
        what()
    );
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

// ------------------------------------------------------------------------------------------
// Small generic linear algebra over num-dual scalars (row-major 3 × 3)

trait Scalar: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> Scalar for T {}

type V3<S> = [S; 3];
type M3<S> = [[S; 3]; 3];

fn cst<S: Scalar>(x: f64) -> S {
    S::from(x)
}

fn cvec<S: Scalar>(v: &[f64; 3]) -> V3<S> {
    v.map(cst)
}

fn cmat<S: Scalar>(m: &[[f64; 3]; 3]) -> M3<S> {
    m.map(|r| r.map(cst))
}

fn add<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale<S: Scalar>(a: V3<S>, s: S) -> V3<S> {
    [a[0] * s, a[1] * s, a[2] * s]
}

fn dot<S: Scalar>(a: V3<S>, b: V3<S>) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross<S: Scalar>(a: V3<S>, b: V3<S>) -> V3<S> {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn mat_vec<S: Scalar>(m: &M3<S>, v: V3<S>) -> V3<S> {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

fn mat_mul<S: Scalar>(a: &M3<S>, b: &M3<S>) -> M3<S> {
    let mut out = [[cst::<S>(0.0); 3]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
        }
    }
    out
}

fn transpose<S: Scalar>(a: &M3<S>) -> M3<S> {
    let mut out = *a;
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = a[c][r];
        }
    }
    out
}

fn mat_add<S: Scalar>(a: &M3<S>, b: &M3<S>) -> M3<S> {
    let mut out = *a;
    for (r, row) in out.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x += b[r][c];
        }
    }
    out
}

fn identity<S: Scalar>() -> M3<S> {
    cmat(&[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
}

/// The axial vector of the skew-symmetric part of `w`.
fn vee<S: Scalar>(w: &M3<S>) -> V3<S> {
    [
        (w[2][1] - w[1][2]) * 0.5,
        (w[0][2] - w[2][0]) * 0.5,
        (w[1][0] - w[0][1]) * 0.5,
    ]
}

fn skew(v: [f64; 3]) -> M3<f64> {
    [[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]]
}

fn unit(k: usize) -> [f64; 3] {
    let mut e = [0.0; 3];
    e[k] = 1.0;
    e
}

fn re_v<T: Copy, S>(v: &V3<T>, f: impl Fn(T) -> S) -> V3<S> {
    [f(v[0]), f(v[1]), f(v[2])]
}

fn re_m<T: Copy, S: Copy>(m: &M3<T>, f: impl Fn(T) -> S) -> M3<S> {
    [re_v(&m[0], &f), re_v(&m[1], &f), re_v(&m[2], &f)]
}

// ------------------------------------------------------------------------------------------
// Deterministic random numbers (splitmix64)

struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn vec3(&mut self, lo: f64, hi: f64) -> [f64; 3] {
        [
            self.uniform(lo, hi),
            self.uniform(lo, hi),
            self.uniform(lo, hi),
        ]
    }

    /// A random proper rotation matrix (from a random unit quaternion).
    fn rotation(&mut self) -> [[f64; 3]; 3] {
        let mut e = [0.0; 4];
        loop {
            for x in e.iter_mut() {
                *x = self.uniform(-1.0, 1.0);
            }
            let n2: f64 = e.iter().map(|x| x * x).sum();
            if n2 > 0.01 && n2 <= 1.0 {
                let n = n2.sqrt();
                e.iter_mut().for_each(|x| *x /= n);
                break;
            }
        }
        let [w, x, y, z] = e;
        [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - w * z),
                2.0 * (x * z + w * y),
            ],
            [
                2.0 * (x * y + w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - w * x),
            ],
            [
                2.0 * (x * z - w * y),
                2.0 * (y * z + w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ]
    }
}

// ------------------------------------------------------------------------------------------
// Test trees

#[derive(Clone, Debug)]
struct Tree {
    name: String,
    types: Vec<u8>,
    parents: Vec<isize>,
    a: Vec<[[f64; 3]; 3]>,
    o: Vec<[f64; 3]>,
    com: Vec<[f64; 3]>,
    inertia: Vec<[[f64; 3]; 3]>,
    mass: Vec<f64>,
    gravity: [f64; 3],
    base: [f64; 3],
}

fn is_revolute(t: u8) -> bool {
    (1..=3).contains(&t)
}

fn axis_index(t: u8) -> usize {
    (t as usize - 1) % 3
}

impl Tree {
    fn n(&self) -> usize {
        self.types.len()
    }

    /// The joints on the path from link i to the base: i, π(i), π(π(i)), …
    fn path(&self, i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut j = i;
        while self.parents[j] >= 0 {
            j = self.parents[j] as usize;
            out.push(j);
        }
        out
    }

    fn data(&self) -> KinematicTreeData {
        KinematicTreeData {
            joint_types: self.types.clone(),
            parents: self.parents.clone(),
            transformations: self.a.clone(),
            offsets: self.o.clone(),
            // nalgebra's From<[[T; R]; C]> takes columns
            inertias_com: self.inertia.iter().map(|j| transpose(j).into()).collect(),
            coms: self.com.iter().map(|&c| c.into()).collect(),
            masses: self.mass.clone(),
            link_forces: Vec::new(),
            link_torques: Vec::new(),
            joint_forces: Vec::new(),
            position_offsets: Vec::new(),
            p_control: Vec::new(),
            velocity_offsets: Vec::new(),
            d_control: Vec::new(),
            gravity: self.gravity.into(),
            base_offset: self.base,
        }
    }

    /// The global COM inertia R_i J_i R_iᵀ.
    fn global_inertia(&self, i: usize, r: &M3<f64>) -> M3<f64> {
        mat_mul(&mat_mul(r, &self.inertia[i]), &transpose(r))
    }
}

fn random_tree(name: &str, rng: &mut Rng, parents: Vec<isize>, types: Option<Vec<u8>>) -> Tree {
    let n = parents.len();
    for (i, &p) in parents.iter().enumerate() {
        assert!(p >= -1 && p < i as isize, "bad test tree {name}");
    }
    let types = types.unwrap_or_else(|| {
        // every joint type at least once (n ≥ 6), shuffled
        let mut t: Vec<u8> = (0..n)
            .map(|k| {
                if k < 6 {
                    k as u8 + 1
                } else {
                    rng.below(6) as u8 + 1
                }
            })
            .collect();
        for k in (1..n).rev() {
            let j = rng.below(k + 1);
            t.swap(k, j);
        }
        t
    });
    assert_eq!(types.len(), n);
    let mut tree = Tree {
        name: name.to_string(),
        types,
        parents,
        a: Vec::new(),
        o: Vec::new(),
        com: Vec::new(),
        inertia: Vec::new(),
        mass: Vec::new(),
        gravity: rng.vec3(-10.0, 10.0),
        base: rng.vec3(-1.0, 1.0),
    };
    for _ in 0..n {
        tree.a.push(rng.rotation());
        tree.o.push(rng.vec3(-1.0, 1.0));
        tree.com.push(rng.vec3(-0.5, 0.5));
        let m = rng.uniform(0.5, 2.0);
        tree.mass.push(m);
        // a box of random size in random principal axes
        let [x, y, z] = rng.vec3(0.1, 1.0);
        let d = [
            m * (y * y + z * z) / 12.0,
            m * (x * x + z * z) / 12.0,
            m * (x * x + y * y) / 12.0,
        ];
        let q = rng.rotation();
        let mut j = [[0.0; 3]; 3];
        for (r, row) in j.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (0..3).map(|k| q[r][k] * d[k] * q[c][k]).sum();
            }
        }
        // exactly symmetric
        for r in 0..3 {
            for c in 0..r {
                j[c][r] = j[r][c];
            }
        }
        tree.inertia.push(j);
    }
    tree
}

fn chain(n: usize) -> Vec<isize> {
    (0..n as isize).map(|i| i - 1).collect()
}

fn trees() -> Vec<Tree> {
    let mut rng = Rng(0x6b74_5f64_796e_616d);
    let mut out = vec![
        random_tree("chain6", &mut rng, chain(6), None),
        random_tree("chain9", &mut rng, chain(9), None),
        random_tree("branched8", &mut rng, vec![-1, 0, 1, 1, 0, 4, 2, 5], None),
        random_tree(
            "forest10",
            &mut rng,
            vec![-1, 0, -1, 2, 1, 3, -1, 6, 4, 0],
            None,
        ),
    ];
    let parents: Vec<isize> = (0..12).map(|i| rng.below(i + 1) as isize - 1).collect();
    out.push(random_tree("random12", &mut rng, parents, None));
    for t in 1..=6u8 {
        out.push(random_tree(
            &format!("single_type{t}"),
            &mut rng,
            vec![-1],
            Some(vec![t]),
        ));
    }
    // two-link chains of every ordered pair of joint types
    let types: Vec<u8> = (1..=6)
        .flat_map(|a| (1..=6).flat_map(move |b| [a, b]))
        .collect();
    let parents: Vec<isize> = (0..72)
        .map(|i| if i % 2 == 0 { -1 } else { i - 1 })
        .collect();
    out.push(random_tree("pairs72", &mut rng, parents, Some(types)));
    out
}

struct State {
    q: Vec<f64>,
    q_t: Vec<f64>,
    q_tt: Vec<f64>,
}

fn states(tree: &Tree) -> Vec<State> {
    let mut rng = Rng(0x7374_6174_6573 ^ tree.name.len() as u64 ^ (tree.n() as u64) << 20);
    (0..STATES)
        .map(|_| State {
            q: tree
                .types
                .iter()
                .map(|&t| {
                    if is_revolute(t) {
                        rng.uniform(-3.1, 3.1)
                    } else {
                        rng.uniform(-1.0, 1.0)
                    }
                })
                .collect(),
            q_t: (0..tree.n()).map(|_| rng.uniform(-2.0, 2.0)).collect(),
            q_tt: (0..tree.n()).map(|_| rng.uniform(-3.0, 3.0)).collect(),
        })
        .collect()
}

// ------------------------------------------------------------------------------------------
// Independent model: plain forward kinematics, differentiated with num-dual

/// Rotation by q about the unit axis e_k (Rodrigues: c I + s ẽ + (1 − c) e eᵀ).
fn joint_rotation<S: Scalar>(k: usize, q: S) -> M3<S> {
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
fn forward<S: Scalar>(tree: &Tree, q: &[S]) -> Vec<(M3<S>, V3<S>)> {
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
struct Kin {
    r: Vec<M3<f64>>,
    p: Vec<V3<f64>>,
    /// dr[j][i] = ∂R_i/∂q_j, dp[j][i] = ∂p_i/∂q_j
    dr: Vec<Vec<M3<f64>>>,
    dp: Vec<Vec<V3<f64>>>,
}

impl Kin {
    fn new(tree: &Tree, q: &[f64]) -> Kin {
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
    fn columns(&self, i: usize, local: [f64; 3], joints: &[usize]) -> Vec<(V3<f64>, V3<f64>)> {
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
fn mass_matrix_global(tree: &Tree, kin: &Kin, only_path: bool) -> Vec<f64> {
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
struct Motion {
    r: M3<f64>,
    p: V3<f64>,
    /// COM position, velocity, acceleration
    xc: V3<f64>,
    vc: V3<f64>,
    ac: V3<f64>,
    /// origin velocity and acceleration
    v: V3<f64>,
    a: V3<f64>,
    w: V3<f64>,
    alpha: V3<f64>,
}

fn motion(tree: &Tree, q: &[f64], q_t: &[f64], q_tt: &[f64]) -> Vec<Motion> {
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
fn lhs_global(tree: &Tree, kin: &Kin, q: &[f64], q_t: &[f64], only_path: bool) -> Vec<f64> {
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
fn energies<S: Scalar>(tree: &Tree, q: &[S], q_t: &[S]) -> (S, S) {
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
fn lagrange(tree: &Tree, q: &[f64], q_t: &[f64], q_tt: &[f64]) -> Vec<f64> {
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

fn mass_matrix(data: &KinematicTreeData, q: &[f64]) -> Vec<f64> {
    let n = q.len();
    let mut m = vec![f64::NAN; n * n];
    data.mass_matrix(q, &mut m);
    m
}

fn lhs(data: &KinematicTreeData, q: &[f64], q_t: &[f64]) -> Vec<f64> {
    let mut out = vec![f64::NAN; q.len()];
    data.lhs(q, q_t, &mut out);
    out
}

// ------------------------------------------------------------------------------------------
// 1. Mass matrix

fn check_mass_matrix(tree: &Tree, s: usize, st: &State, only_path: bool) {
    let n = tree.n();
    let data = tree.data();
    let m = mass_matrix(&data, &st.q);
    let kin = Kin::new(tree, &st.q);
    let want = mass_matrix_global(tree, &kin, only_path);
    let sc = max_abs(&want);
    for j in 0..n {
        for k in 0..n {
            assert_close(m[j * n + k], want[j * n + k], TOL_EXACT, sc, || {
                format!(
                    "{} state {s}: M[{j}][{k}] (joint types {}, {}) vs global form",
                    tree.name, tree.types[j], tree.types[k]
                )
            });
            assert_close(m[j * n + k], m[k * n + j], 1e-14, sc, || {
                format!(
                    "{} state {s}: M symmetric, M[{j}][{k}] vs M[{k}][{j}]",
                    tree.name
                )
            });
        }
    }
    // positive definite: Cholesky pivots
    let mut l = m.clone();
    for j in 0..n {
        for k in 0..j {
            let f = l[j * n + k];
            for r in j..n {
                l[r * n + j] -= f * l[r * n + k];
            }
        }
        let d = l[j * n + j];
        assert!(
            d > 1e-12 * sc,
            "{} state {s}: M not positive definite, Cholesky pivot {j} = {d:e}",
            tree.name
        );
        let d = d.sqrt();
        for r in j..n {
            l[r * n + j] /= d;
        }
    }
}

#[test]
fn mass_matrix_matches_global_form_and_is_spd() {
    for tree in trees() {
        for (s, st) in states(&tree).iter().enumerate() {
            check_mass_matrix(&tree, s, st, false);
        }
    }
}

#[test]
fn mass_matrix_of_500_link_chain_matches_global_form() {
    let mut rng = Rng(500);
    let tree = random_tree("chain500", &mut rng, chain(500), None);
    let st = &states(&tree)[0];
    check_mass_matrix(&tree, 0, st, true);
    // and the velocity/gravity terms of the long chain
    let kin = Kin::new(&tree, &st.q);
    let got = lhs(&tree.data(), &st.q, &st.q_t);
    let want = lhs_global(&tree, &kin, &st.q, &st.q_t, true);
    let sc = max_abs(&want);
    for j in 0..tree.n() {
        assert_close(got[j], want[j], TOL_EXACT, sc, || {
            format!(
                "chain500: LHS[{j}] (joint type {}) vs global form",
                tree.types[j]
            )
        });
    }
}

// ------------------------------------------------------------------------------------------
// 2. LHS: global Newton–Euler form and Lagrange's equations

#[test]
fn lhs_matches_global_newton_euler_form() {
    for tree in trees() {
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let kin = Kin::new(&tree, &st.q);
            let got = lhs(&data, &st.q, &st.q_t);
            let want = lhs_global(&tree, &kin, &st.q, &st.q_t, false);
            let sc = max_abs(&want);
            for j in 0..tree.n() {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!(
                        "{} state {s}: LHS[{j}] (joint type {}) vs global Newton–Euler form",
                        tree.name, tree.types[j]
                    )
                });
            }
            // at rest only gravity remains: LHS = −Σ m J_cᵀ g
            let rest = vec![0.0; tree.n()];
            let got = lhs(&data, &st.q, &rest);
            let mut want = vec![0.0; tree.n()];
            let all: Vec<usize> = (0..tree.n()).collect();
            for i in 0..tree.n() {
                for (c, &j) in kin.columns(i, tree.com[i], &all).iter().zip(&all) {
                    want[j] -= tree.mass[i] * dot(c.0, tree.gravity);
                }
            }
            let sc = max_abs(&want);
            for j in 0..tree.n() {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!("{} state {s}: LHS[{j}] at q̇ = 0 vs −Σ m J_cᵀ g", tree.name)
                });
            }
        }
    }
}

#[test]
fn equations_of_motion_match_lagrange() {
    for tree in trees() {
        let data = tree.data();
        let n = tree.n();
        for (s, st) in states(&tree).iter().enumerate() {
            let m = mass_matrix(&data, &st.q);
            let l = lhs(&data, &st.q, &st.q_t);
            let got: Vec<f64> = (0..n)
                .map(|j| (0..n).map(|k| m[j * n + k] * st.q_tt[k]).sum::<f64>() + l[j])
                .collect();
            let want = lagrange(&tree, &st.q, &st.q_t, &st.q_tt);
            let sc = max_abs(&want);
            for j in 0..n {
                assert_close(got[j], want[j], TOL_EXACT, sc, || {
                    format!(
                        "{} state {s}: (M q̈ + LHS)[{j}] (joint type {}) vs Lagrange \
                         d/dt(∂T/∂q̇) − ∂T/∂q + ∂V/∂q",
                        tree.name, tree.types[j]
                    )
                });
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// 3. jointForceVector and P/D control

#[test]
fn joint_forces_and_pd_control_enter_lhs_exactly() {
    for tree in trees() {
        let n = tree.n();
        let base = tree.data();
        let mut rng = Rng(0xc0_47_01 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let l0 = lhs(&base, &st.q, &st.q_t);
            let f: Vec<f64> = (0..n).map(|_| rng.uniform(-5.0, 5.0)).collect();
            let u: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
            let p: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 50.0)).collect();
            let v: Vec<f64> = (0..n).map(|_| rng.uniform(-1.0, 1.0)).collect();
            let d: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 5.0)).collect();
            let variants: [(&str, bool, bool, bool); 4] = [
                ("jointForceVector", true, false, false),
                ("P control", false, true, false),
                ("D control", false, false, true),
                ("jointForceVector + P + D", true, true, true),
            ];
            for (label, with_f, with_p, with_d) in variants {
                let mut data = base.clone();
                if with_f {
                    data.joint_forces = f.clone();
                }
                if with_p {
                    data.position_offsets = u.clone();
                    data.p_control = p.clone();
                }
                if with_d {
                    data.velocity_offsets = v.clone();
                    data.d_control = d.clone();
                }
                let l = lhs(&data, &st.q, &st.q_t);
                for j in 0..n {
                    let mut want = 0.0;
                    if with_f {
                        want -= f[j];
                    }
                    if with_p {
                        want -= p[j] * (u[j] - st.q[j]);
                    }
                    if with_d {
                        want -= d[j] * (v[j] - st.q_t[j]);
                    }
                    let sc = l0[j].abs() + want.abs();
                    assert_close(l[j] - l0[j], want, 1e-14, sc, || {
                        format!(
                            "{} state {s}: {label} contribution to LHS[{j}] (joint type {})",
                            tree.name, tree.types[j]
                        )
                    });
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// 4. linkForces / linkTorques

#[test]
fn link_forces_and_torques_follow_exudyn_convention() {
    for tree in trees() {
        let n = tree.n();
        let base = tree.data();
        let mut rng = Rng(0x11_4b_f0 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let l0 = lhs(&base, &st.q, &st.q_t);
            let kin = Kin::new(&tree, &st.q);
            let f: Vec<[f64; 3]> = (0..n).map(|_| rng.vec3(-3.0, 3.0)).collect();
            let tau: Vec<[f64; 3]> = (0..n).map(|_| rng.vec3(-3.0, 3.0)).collect();
            let all: Vec<usize> = (0..n).collect();
            // Jacobians of the point of each link at the global base offset b
            let cols: Vec<Vec<(V3<f64>, V3<f64>)>> = (0..n)
                .map(|i| {
                    let local = mat_vec(&transpose(&kin.r[i]), sub(tree.base, kin.p[i]));
                    kin.columns(i, local, &all)
                })
                .collect();
            for (label, with_f, with_t) in [
                ("linkForces", true, false),
                ("linkTorques", false, true),
                ("linkForces + linkTorques", true, true),
            ] {
                let mut data = base.clone();
                if with_f {
                    data.link_forces = f.iter().map(|&x| x.into()).collect();
                }
                if with_t {
                    data.link_torques = tau.iter().map(|&x| x.into()).collect();
                }
                let l = lhs(&data, &st.q, &st.q_t);
                let want: Vec<f64> = (0..n)
                    .map(|j| {
                        (0..n)
                            .map(|i| {
                                let (jp, jw) = cols[i][j];
                                (if with_f { dot(jp, f[i]) } else { 0.0 })
                                    + if with_t { dot(jw, tau[i]) } else { 0.0 }
                            })
                            .sum()
                    })
                    .collect();
                let sc = max_abs(&want).max(max_abs(&l0));
                for j in 0..n {
                    assert_close(l[j] - l0[j], want[j], TOL_EXACT, sc, || {
                        format!(
                            "{} state {s}: {label} contribution to LHS[{j}] (joint type {}) vs \
                             +Σ J_p,i(b)ᵀ f_i + J_ω,iᵀ τ_i",
                            tree.name, tree.types[j]
                        )
                    });
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// 5. Frames, point Jacobians, marker

#[test]
fn frames_match_forward_kinematics() {
    for tree in trees() {
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            for (i, (f, m)) in frames.iter().zip(&mo).enumerate() {
                let what = |e: &str| format!("{} state {s}: link {i} frame {e}", tree.name);
                for r in 0..3 {
                    for c in 0..3 {
                        assert_close(f.rotation[r][c], m.r[r][c], TOL_EXACT, 1.0, || {
                            what(&format!("rotation[{r}][{c}]"))
                        });
                    }
                    assert_close(f.position[r], m.p[r], TOL_EXACT, max_abs(&m.p), || {
                        what(&format!("position[{r}]"))
                    });
                    assert_close(
                        f.angular_velocity[r],
                        m.w[r],
                        TOL_EXACT,
                        max_abs(&m.w),
                        || what(&format!("angular_velocity[{r}]")),
                    );
                    assert_close(f.velocity[r], m.v[r], TOL_EXACT, max_abs(&m.v), || {
                        what(&format!("velocity[{r}]"))
                    });
                }
            }
        }
    }
}

/// Runtime frames at q ± h e_j.
fn frames_shifted(
    data: &KinematicTreeData,
    q: &[f64],
    q_t: &[f64],
    j: usize,
    h: f64,
) -> Vec<LinkFrame> {
    let mut qs = q.to_vec();
    qs[j] += h;
    data.frames(&qs, q_t)
}

#[test]
fn point_jacobian_matches_finite_differences() {
    for tree in trees() {
        let n = tree.n();
        let data = tree.data();
        let mut rng = Rng(0x9017 + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let kin = Kin::new(&tree, &st.q);
            let plus: Vec<_> = (0..n)
                .map(|j| frames_shifted(&data, &st.q, &st.q_t, j, H))
                .collect();
            let minus: Vec<_> = (0..n)
                .map(|j| frames_shifted(&data, &st.q, &st.q_t, j, -H))
                .collect();
            let all: Vec<usize> = (0..n).collect();
            for i in 0..n {
                let local = rng.vec3(-1.0, 1.0);
                let point_at = |f: &LinkFrame| add(f.position, mat_vec(&f.rotation, local));
                let x = point_at(&frames[i]);
                let (path, jp, jr) = data.point_jacobian(&frames, i, &x);
                assert_eq!(
                    path,
                    tree.path(i),
                    "{} state {s}: link {i} point_jacobian path",
                    tree.name
                );
                let own = kin.columns(i, local, &all);
                let rt = transpose(&frames[i].rotation);
                for j in 0..n {
                    let col = path.iter().position(|&k| k == j);
                    let (gp, gr) = col.map_or(([0.0; 3], [0.0; 3]), |c| (jp[c], jr[c]));
                    // central differences of the runtime frames
                    let dx = scale(sub(point_at(&plus[j][i]), point_at(&minus[j][i])), 0.5 / H);
                    let mut dr = [[0.0; 3]; 3];
                    for (r, row) in dr.iter_mut().enumerate() {
                        for (c, v) in row.iter_mut().enumerate() {
                            *v = (plus[j][i].rotation[r][c] - minus[j][i].rotation[r][c])
                                * (0.5 / H);
                        }
                    }
                    let w = mat_mul(&dr, &rt); // ≈ skew(J_r[:, j])
                    let sw = skew(gr);
                    let what = |e: &str| {
                        format!(
                            "{} state {s}: link {i}, joint {j} (type {}, {}): {e}",
                            tree.name,
                            tree.types[j],
                            if col.is_some() { "on path" } else { "off path" }
                        )
                    };
                    for k in 0..3 {
                        assert_close(gp[k], dx[k], TOL_FD, max_abs(&dx), || {
                            what(&format!("J_p[{k}] vs central difference"))
                        });
                        assert_close(gp[k], own[j].0[k], TOL_EXACT, max_abs(&own[j].0), || {
                            what(&format!("J_p[{k}] vs exact own Jacobian"))
                        });
                        assert_close(gr[k], own[j].1[k], TOL_EXACT, 1.0, || {
                            what(&format!("J_r[{k}] vs exact own Jacobian"))
                        });
                        for c in 0..3 {
                            assert_close(sw[k][c], w[k][c], TOL_FD, 1.0, || {
                                what(&format!(
                                    "skew(J_r)[{k}][{c}] vs dR/dq_j·Rᵀ (central difference)"
                                ))
                            });
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn marker_state_and_jacobians() {
    const START: usize = 2;
    for tree in trees() {
        let n = tree.n();
        let data = Arc::new(tree.data());
        let mut rng = Rng(0x3a7c + n as u64);
        for (s, st) in states(&tree).iter().enumerate() {
            // the tree's node in the middle of a larger ODE2 vector
            let mut qt = vec![0.3, -0.7];
            qt.extend(&st.q);
            qt.push(1.1);
            let mut v = vec![-2.0, 0.4];
            v.extend(&st.q_t);
            v.push(0.9);
            let kin = Kin::new(&tree, &st.q);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            for i in 0..n {
                let local = rng.vec3(-1.0, 1.0);
                let marker = KinematicTreeMarker {
                    tree: data.clone(),
                    start: START,
                    link: i,
                    local_position: local.into(),
                };
                let state = marker.state(&qt, &v);
                let m = &mo[i];
                let x = add(m.p, mat_vec(&m.r, local));
                let xv = add(m.v, cross(m.w, mat_vec(&m.r, local)));
                let what = |e: &str| format!("{} state {s}: marker on link {i}: {e}", tree.name);
                for k in 0..3 {
                    assert_close(state.position[k], x[k], TOL_EXACT, max_abs(&x), || {
                        what(&format!("position[{k}]"))
                    });
                    assert_close(state.velocity[k], xv[k], TOL_EXACT, max_abs(&xv), || {
                        what(&format!("velocity[{k}]"))
                    });
                    assert_close(
                        state.angular_velocity[k],
                        m.w[k],
                        TOL_EXACT,
                        max_abs(&m.w),
                        || what(&format!("angular_velocity[{k}] (global)")),
                    );
                    for c in 0..3 {
                        assert_close(state.rotation[(k, c)], m.r[k][c], TOL_EXACT, 1.0, || {
                            what(&format!("rotation[{k}][{c}]"))
                        });
                    }
                }
                let path = tree.path(i);
                let np = path.len();
                let (mut jp, mut jr) = (vec![f64::NAN; 3 * np], vec![f64::NAN; 3 * np]);
                marker.jacobians(&qt, &v, &mut jp, &mut jr);
                let own = kin.columns(i, local, &path);
                for (c, &j) in path.iter().enumerate() {
                    // central differences of the marker position in the global coordinates
                    let mut qp = qt.clone();
                    qp[START + j] += H;
                    let xp = marker.state(&qp, &v).position;
                    qp[START + j] -= 2.0 * H;
                    let xm = marker.state(&qp, &v).position;
                    for k in 0..3 {
                        let what = |e: &str| {
                            what(&format!(
                                "column {c} (joint {j}, type {}): {e}",
                                tree.types[j]
                            ))
                        };
                        let fd = (xp[k] - xm[k]) / (2.0 * H);
                        assert_close(jp[k * np + c], fd, TOL_FD, max_abs(&own[c].0), || {
                            what(&format!("position Jacobian[{k}] vs central difference"))
                        });
                        assert_close(
                            jp[k * np + c],
                            own[c].0[k],
                            TOL_EXACT,
                            max_abs(&own[c].0),
                            || what(&format!("position Jacobian[{k}] vs exact own")),
                        );
                        assert_close(jr[k * np + c], own[c].1[k], TOL_EXACT, 1.0, || {
                            what(&format!("rotation Jacobian[{k}] vs exact own"))
                        });
                    }
                }
                // coordinates outside the tree's node do not matter
                let mut qp = qt.clone();
                qp[0] += 0.5;
                qp[START + n] -= 0.5;
                let other = marker.state(&qp, &v).position;
                for k in 0..3 {
                    assert_eq!(
                        other[k], state.position[k],
                        "{} state {s}: marker on link {i}: position[{k}] depends on foreign \
                         coordinates",
                        tree.name
                    );
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// 6. accelerations

#[test]
fn accelerations_match_time_derivatives() {
    for tree in trees() {
        let n = tree.n();
        let data = tree.data();
        for (s, st) in states(&tree).iter().enumerate() {
            let frames = data.frames(&st.q, &st.q_t);
            let acc = data.accelerations(&frames, &st.q_t, &st.q_tt);
            assert_eq!(acc.len(), n, "{}: accelerations length", tree.name);
            let mo = motion(&tree, &st.q, &st.q_t, &st.q_tt);
            // frames along q(t) = q + q̇t + ½q̈t², q̇(t) = q̇ + q̈t at t = ±H
            let at = |t: f64| {
                let q: Vec<f64> = (0..n)
                    .map(|k| st.q[k] + st.q_t[k] * t + 0.5 * st.q_tt[k] * t * t)
                    .collect();
                let q_t: Vec<f64> = (0..n).map(|k| st.q_t[k] + st.q_tt[k] * t).collect();
                data.frames(&q, &q_t)
            };
            let (fp, fm) = (at(H), at(-H));
            for i in 0..n {
                let fd_alpha: [f64; 3] = std::array::from_fn(|k| {
                    (fp[i].angular_velocity[k] - fm[i].angular_velocity[k]) / (2.0 * H)
                });
                let fd_acc: [f64; 3] =
                    std::array::from_fn(|k| (fp[i].velocity[k] - fm[i].velocity[k]) / (2.0 * H));
                let what = |e: &str| {
                    format!(
                        "{} state {s}: link {i} (joint type {}): {e}",
                        tree.name, tree.types[i]
                    )
                };
                for k in 0..3 {
                    let (alpha, a) = (acc[i].0[k], acc[i].1[k]);
                    assert_close(alpha, fd_alpha[k], TOL_FD, max_abs(&fd_alpha), || {
                        what(&format!("angular acceleration[{k}] vs central difference"))
                    });
                    assert_close(a, fd_acc[k], TOL_FD, max_abs(&fd_acc), || {
                        what(&format!("origin acceleration[{k}] vs central difference"))
                    });
                    assert_close(
                        alpha,
                        mo[i].alpha[k],
                        TOL_EXACT,
                        max_abs(&mo[i].alpha),
                        || what(&format!("angular acceleration[{k}] vs exact own")),
                    );
                    assert_close(a, mo[i].a[k], TOL_EXACT, max_abs(&mo[i].a), || {
                        what(&format!("origin acceleration[{k}] vs exact own"))
                    });
                }
                // COM acceleration from the runtime's origin quantities
                let r = frames[i].rotation;
                let arm = mat_vec(&r, tree.com[i]);
                let w = frames[i].angular_velocity;
                let ac: [f64; 3] = add(
                    add(acc[i].1.into(), cross(acc[i].0.into(), arm)),
                    cross(w, cross(w, arm)),
                );
                for k in 0..3 {
                    assert_close(ac[k], mo[i].ac[k], TOL_EXACT, max_abs(&mo[i].ac), || {
                        what(&format!("COM acceleration[{k}] vs exact own"))
                    });
                    assert_close(
                        frames[i].velocity[k] + cross(w, arm)[k],
                        mo[i].vc[k],
                        TOL_EXACT,
                        max_abs(&mo[i].vc),
                        || what(&format!("COM velocity[{k}] vs exact own")),
                    );
                    assert_close(
                        frames[i].position[k] + arm[k],
                        mo[i].xc[k],
                        TOL_EXACT,
                        max_abs(&mo[i].xc),
                        || what(&format!("COM position[{k}] vs exact own")),
                    );
                }
            }
        }
    }
}
