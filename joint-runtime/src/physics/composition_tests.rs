//! The runtime's composition of joints with their markers (`physics::marker_level`) against
//! central differences of its own first-order terms, on two Euler-parameter bodies whose rigid
//! markers carry local rotations, the joint across two bodies and within one (shared columns):
//! a user's joint in its default form with and without `second_order;`, and JointGeneric (an
//! unrolled pairing, whose frame parameters hold the local rotations). Checked: the geometric
//! stiffness ∂(C_qᵀλ)/∂q against differences of C_qᵀλ; the convective term against differences
//! of the velocity level along v; the position level's own Jacobian against differences of g;
//! the fast path's fused residual and reaction forces against the exact path's.

use crate::items::joints::ConstraintLevel;
use crate::linear::MatrixAccumulator;
use crate::physics::Scratch;
use crate::{JointObject, Marker, MultibodySystem, Node, Object, RigidBodyInertia};

joint_core::joint! {
    pub joint MixSo {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [a, b];
        second_order;
        position = [
            dot(m0.rotation * [1.0, 0.0, 0.0], m1.position - m0.position) - 0.2,
            dot(m0.rotation * [0.0, 1.0, 0.0], m1.rotation * [0.0, 0.0, 1.0])
        ];
    }
}
joint_core::joint! {
    pub joint MixFd {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [a, b];
        position = [
            dot(m0.rotation * [1.0, 0.0, 0.0], m1.position - m0.position) - 0.2,
            dot(m0.rotation * [0.0, 1.0, 0.0], m1.rotation * [0.0, 0.0, 1.0])
        ];
    }
}

fn rot(a: f64, b: f64) -> [[f64; 3]; 3] {
    let (ca, sa, cb, sb) = (a.cos(), a.sin(), b.cos(), b.sin());
    // Rz(a)·Rx(b)
    let rz = nalgebra::Matrix3::new(ca, -sa, 0.0, sa, ca, 0.0, 0.0, 0.0, 1.0);
    let rx = nalgebra::Matrix3::new(1.0, 0.0, 0.0, 0.0, cb, -sb, 0.0, sb, cb);
    let m = rz * rx;
    std::array::from_fn(|i| std::array::from_fn(|j| m[(i, j)]))
}

enum Which {
    So,
    Fd,
    Generic,
}

/// markers on (body a, body a) if `shared`, else (body a, body b); local rotations on both.
fn build(which: Which, shared: bool) -> crate::simulation::Simulation {
    let mut mbs = MultibodySystem::new();
    let _ground = mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.1, 0.1]);
    let mut bodies = Vec::new();
    for x in [0.0, 1.0] {
        let e = crate::EULER_PARAMETERS_0;
        let node = mbs.add_node(Node::rigid_body_ep([x, 0.1, 0.0, e[0], e[1], e[2], e[3]]));
        bodies.push(mbs.add_object(Object::RigidBody {
            name: String::new(),
            mass: inertia.mass,
            inertia: inertia.inertia_6d(),
            center_of_mass: [0.0; 3],
            node,
        }));
    }
    let m0 = mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: bodies[0],
        local_position: [0.3, 0.1, -0.2],
        local_rotation: rot(0.4, -0.3),
    });
    let m1 = mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: bodies[if shared { 0 } else { 1 }],
        local_position: [-0.2, 0.4, 0.1],
        local_rotation: rot(-0.7, 0.5),
    });
    let obj = match which {
        Which::So => Object::joint::<MixSo>([m0, m1], mix_so::Parameters {}),
        Which::Fd => Object::joint::<MixFd>([m0, m1], mix_fd::Parameters {}),
        Which::Generic => Object::Joint(JointObject::generic(
            [m0, m1],
            [1, 1, 1, 1, 0, 1],
            rot(0.2, 0.1),
            rot(-0.1, 0.3),
        )),
    };
    mbs.add_object(obj);
    mbs.assemble().unwrap()
}

fn state(n: usize, reference: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut qt: Vec<f64> = (0..n)
        .map(|i| reference[i] + 0.05 * ((i as f64) * 1.3).sin())
        .collect();
    let mut v: Vec<f64> = (0..n)
        .map(|i| 0.7 * ((i as f64) * 0.9 + 0.4).cos())
        .collect();
    // on the Euler-parameter manifold (θ̇ ⟂ θ), where the velocity level is the position's rate
    for s in [3usize, 10] {
        let norm = (s..s + 4).map(|i| qt[i] * qt[i]).sum::<f64>().sqrt();
        for x in &mut qt[s..s + 4] {
            *x /= norm;
        }
        let d: f64 = (s..s + 4).map(|i| qt[i] * v[i]).sum();
        for i in s..s + 4 {
            v[i] -= d * qt[i];
        }
    }
    (qt, v)
}

/// A dense square matrix, row-major.
struct Dense {
    n: usize,
    values: Vec<f64>,
}

impl MatrixAccumulator for Dense {
    fn add(&mut self, row: usize, column: usize, x: f64) {
        self.values[row * self.n + column] += x;
    }
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn check(which: Which, shared: bool, label: &str) {
    let fd_path = matches!(which, Which::Fd);
    let sim = build(which, shared);
    let t = &sim.topology;
    let n = t.n_ode2;
    let (qt, v) = state(n, &t.reference);
    let mut scratch = Scratch::for_topology(t);
    let lambda: Vec<f64> = (0..t.n_ae).map(|k| 1.0 + k as f64 * 0.5).collect();
    let name = t.joints[0].kernel_name();
    // geometric stiffness against central differences of C_qᵀλ (Exudyn rows)
    let mut k = Dense {
        n,
        values: vec![0.0; n * n],
    };
    t.add_constraint_geometric_stiffness(&qt, &lambda, 1.0, &mut k, &mut scratch);
    // remove EP parts: compare only full thing against FD of add_reaction_forces + EP 2θλ
    let mut fd = vec![0.0; n * n];
    for c in 0..n {
        let h = 1e-6;
        let (mut qp, mut qm) = (qt.clone(), qt.clone());
        qp[c] += h;
        qm[c] -= h;
        let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
        t.add_reaction_forces(&qp, &lambda, &mut rp, &mut scratch);
        t.add_reaction_forces(&qm, &lambda, &mut rm, &mut scratch);
        for r in 0..n {
            fd[r * n + c] = (rp[r] - rm[r]) / (2.0 * h);
        }
    }
    let scale = fd.iter().map(|x| x.abs()).fold(1.0, f64::max);
    let d = max_diff(&k.values, &fd);
    assert!(
        d <= 1e-6 * scale,
        "{label} [{name}]: ∂(C_qᵀλ)/∂q differs from differences by {d:e} (scale {scale:e})"
    );
    // convective against central differences of the velocity level along v
    let mut c = vec![0.0; t.n_ae];
    t.convective_constraint_term(&qt, &v, super::ConvectiveTerm::Exudyn, &mut c, &mut scratch);
    let h = 1e-6;
    let qp: Vec<f64> = qt.iter().zip(&v).map(|(q, v)| q + h * v).collect();
    let qm: Vec<f64> = qt.iter().zip(&v).map(|(q, v)| q - h * v).collect();
    let (mut gp, mut gm) = (vec![0.0; t.n_ae], vec![0.0; t.n_ae]);
    t.constraint_residual(
        &qp,
        &v,
        &lambda,
        ConstraintLevel::Velocity,
        &mut gp,
        &mut scratch,
    );
    t.constraint_residual(
        &qm,
        &v,
        &lambda,
        ConstraintLevel::Velocity,
        &mut gm,
        &mut scratch,
    );
    let want: Vec<f64> = gp
        .iter()
        .zip(&gm)
        .map(|(p, m)| -(p - m) / (2.0 * h))
        .collect();
    // the position level's own Jacobian against central differences of g
    let mut jac = vec![0.0; t.n_ae * n];
    t.for_each_constraint_jacobian_row(
        &qt,
        crate::physics::ConstraintJacobian::PositionLevel,
        &mut scratch,
        |row, cols, vals| {
            for (c, x) in cols.iter().zip(vals) {
                jac[row.ae * n + c] += x;
            }
        },
    );
    let mut jfd = vec![0.0; t.n_ae * n];
    for col in 0..n {
        let (mut qp, mut qm) = (qt.clone(), qt.clone());
        qp[col] += 1e-6;
        qm[col] -= 1e-6;
        let (mut gp, mut gm) = (vec![0.0; t.n_ae], vec![0.0; t.n_ae]);
        t.constraint_residual(
            &qp,
            &v,
            &lambda,
            ConstraintLevel::Position,
            &mut gp,
            &mut scratch,
        );
        t.constraint_residual(
            &qm,
            &v,
            &lambda,
            ConstraintLevel::Position,
            &mut gm,
            &mut scratch,
        );
        for r in 0..t.n_ae {
            jfd[r * n + col] = (gp[r] - gm[r]) / 2e-6;
        }
    }
    let d = max_diff(&jac, &jfd);
    assert!(
        d <= 1e-7,
        "{label} [{name}]: ∂g/∂q differs from differences by {d:e}"
    );
    // the fast path's fused residual and reaction against the exact path's
    let (mut g1, mut r1) = (vec![0.0; t.n_ae], vec![0.0; n]);
    t.constraint_residual_and_reaction_forces(&qt, &v, &lambda, &mut g1, &mut r1, &mut scratch);
    let (mut g2, mut r2) = (vec![0.0; t.n_ae], vec![0.0; n]);
    t.constraint_residual(
        &qt,
        &v,
        &lambda,
        ConstraintLevel::Position,
        &mut g2,
        &mut scratch,
    );
    t.add_reaction_forces(&qt, &lambda, &mut r2, &mut scratch);
    assert_eq!(g1, g2, "{label} [{name}]: the fused residual");
    let d = max_diff(&r1, &r2);
    assert!(
        d <= 1e-12,
        "{label} [{name}]: the fused C_qᵀλ differs by {d:e}"
    );
    // exact where the joint has second-order terms, forward differences otherwise
    let tol = if fd_path { 1e-5 } else { 1e-7 };
    let d = max_diff(&c, &want);
    assert!(
        d <= tol,
        "{label} [{name}]: the convective term {c:?}, differences {want:?}"
    );
}

#[test]
fn composed_terms_equal_differences_of_the_first_order_ones() {
    check(
        Which::So,
        false,
        "second_order, two bodies, local rotations",
    );
    check(
        Which::Fd,
        false,
        "no second_order, two bodies, local rotations",
    );
    check(
        Which::Generic,
        false,
        "JointGeneric (pairing, folded), two bodies",
    );
    check(Which::So, true, "second_order, same body");
    check(Which::Fd, true, "no second_order, same body");
    check(
        Which::Generic,
        true,
        "JointGeneric (pairing, folded), same body",
    );
}
