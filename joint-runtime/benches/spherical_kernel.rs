//! The generated spherical-joint kernel for the EP–EP pairing (`MarkerBodyPosition` on two
//! `ObjectRigidBody`s with `NodeRigidBodyEP`) against the same math written the way a generic
//! multibody code computes it: dynamic nalgebra matrices built at run time — A(θ) and Ḡ(θ) from
//! the Euler parameters, each marker's position p = x + A·b and position Jacobian
//! `[I | −A·skew(b)·Ḡ]`, then `C = p1 − p0` and `C_q = [−J0 | J1]` (the generated kernel's sign
//! convention: its Jacobian is ∂(v1 − v0)/∂q̇).
//!
//!     cargo bench -p joint-runtime --bench spherical_kernel
//!
//! The generic benchmarks free their results inside the timed closure (a generic code allocates
//! and frees them on every call); the generated kernels return fixed-size arrays, which the
//! closures pass to `black_box` by reference and do not return: divan keeps a returned value to
//! drop it after timing, and copying the Jacobian's 336 bytes there was 18 % of what it timed
//! (`perf record` of the benchmark: `memmove` beside the kernel).
//!
//! Beside them, the joint's default form as the runtime evaluates it for a pairing it has not
//! unrolled (`marker_level_*`): each marker's quantities from its kind's generated kinematics
//! (position, velocity, rotation, angular velocity, as `MarkerState::quantities` computes them),
//! the joint's marker-level kernel, and its composition with the markers' position Jacobians
//! (`physics::marker_level`).
//!
//! Before benchmarking, `main` checks that the generic version and the marker-level form equal
//! the generated kernel to 1e-12 at a few states (also run by `cargo test --benches`, where divan runs every benchmark
//! once), so that both sides compute the same thing.

use divan::{Bencher, black_box};
use joint_runtime::kernels::marker_kinematics::rigid_ep_point as kind;
use joint_runtime::kernels::spherical::marker_level as ml;
use joint_runtime::kernels::spherical::rigid_ep_point_to_rigid_ep_point as ep_ep;
use nalgebra::DVector;

/// One marker: local position `b` (the kernel's parameters) and its node's coordinates
/// `[x, y, z, θ0, θ1, θ2, θ3]` (reference plus displacement).
#[derive(Clone, Copy)]
struct Marker {
    b: [f64; 3],
    q: [f64; 7],
}

/// A marker on a body at `x` turned by the unit quaternion along `axis` by `angle`.
fn marker(b: [f64; 3], x: [f64; 3], axis: [f64; 3], angle: f64) -> Marker {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let (s, c) = (0.5 * angle).sin_cos();
    Marker {
        b,
        q: [
            x[0],
            x[1],
            x[2],
            c,
            s * axis[0] / n,
            s * axis[1] / n,
            s * axis[2] / n,
        ],
    }
}

/// Pairs of markers (the chain's joint between the right end of one link and the left end of the
/// next, and a few general states).
fn states() -> Vec<(Marker, Marker)> {
    vec![
        (
            marker([0.25, 0.0, 0.0], [0.25, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0),
            marker([-0.25, 0.0, 0.0], [0.75, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0),
        ),
        (
            marker([0.25, 0.0, 0.0], [0.2, 0.01, -0.1], [0.3, -1.0, 0.2], 0.4),
            marker([-0.25, 0.0, 0.0], [0.6, 0.05, -0.3], [-0.1, 0.7, 0.5], 1.3),
        ),
        (
            marker([0.1, -0.2, 0.3], [1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 2.5),
            marker(
                [-0.4, 0.5, 0.05],
                [-0.5, 0.25, 0.75],
                [0.2, -0.4, 0.9],
                -2.0,
            ),
        ),
        (
            marker([0.0, 0.3, -0.7], [0.0, 0.0, 0.0], [-1.0, 0.2, 0.1], 3.0),
            marker([0.6, 0.0, 0.2], [0.1, -0.2, 0.3], [0.0, 1.0, 0.0], -0.7),
        ),
    ]
}

// ------------------------------------------------------------------------------------------------
// The generic version: dynamic matrices, built at run time.

/// A marker as a generic code holds it: dynamic vectors.
struct DynMarker {
    b: DVector<f64>,
    q: DVector<f64>,
}

impl DynMarker {
    fn new(m: &Marker) -> Self {
        Self {
            b: DVector::from_column_slice(&m.b),
            q: DVector::from_column_slice(&m.q),
        }
    }
}

mod generic {
    use nalgebra::{DMatrix, DVector};

    /// A(θ) for Euler parameters θ = q[3..7] (Exudyn's `EP2RotationMatrix`).
    pub fn rotation(q: &DVector<f64>) -> DMatrix<f64> {
        let t = q.rows(3, 4);
        let (e0, e1, e2, e3) = (t[0], t[1], t[2], t[3]);
        DMatrix::from_row_slice(
            3,
            3,
            &[
                1.0 - 2.0 * (e2 * e2 + e3 * e3),
                2.0 * (e1 * e2 - e0 * e3),
                2.0 * (e1 * e3 + e0 * e2),
                2.0 * (e1 * e2 + e0 * e3),
                1.0 - 2.0 * (e1 * e1 + e3 * e3),
                2.0 * (e2 * e3 - e0 * e1),
                2.0 * (e1 * e3 - e0 * e2),
                2.0 * (e2 * e3 + e0 * e1),
                1.0 - 2.0 * (e1 * e1 + e2 * e2),
            ],
        )
    }

    /// Ḡ(θ), the local angular velocity ω̄ = Ḡ·θ̇.
    pub fn g_bar(q: &DVector<f64>) -> DMatrix<f64> {
        let t = q.rows(3, 4);
        let (e0, e1, e2, e3) = (t[0], t[1], t[2], t[3]);
        DMatrix::from_row_slice(
            3,
            4,
            &[-e1, e0, e3, -e2, -e2, -e3, e0, e1, -e3, e2, -e1, e0],
        ) * 2.0
    }

    /// skew(v)·w = v × w.
    pub fn skew(v: &DVector<f64>) -> DMatrix<f64> {
        DMatrix::from_row_slice(
            3,
            3,
            &[0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0],
        )
    }

    /// p = x + A·b.
    pub fn position(q: &DVector<f64>, a: &DMatrix<f64>, b: &DVector<f64>) -> DVector<f64> {
        q.rows(0, 3) + a * b
    }

    /// The position Jacobian `[I | −A·skew(b)·Ḡ]` (3 × 7).
    pub fn position_jacobian(q: &DVector<f64>, a: &DMatrix<f64>, b: &DVector<f64>) -> DMatrix<f64> {
        let mut j = DMatrix::zeros(3, 7);
        j.view_mut((0, 0), (3, 3))
            .copy_from(&DMatrix::identity(3, 3));
        let rot = -(a * skew(b) * g_bar(q));
        j.view_mut((0, 3), (3, 4)).copy_from(&rot);
        j
    }

    /// C = p1 − p0.
    pub fn residual(
        q0: &DVector<f64>,
        b0: &DVector<f64>,
        q1: &DVector<f64>,
        b1: &DVector<f64>,
    ) -> DVector<f64> {
        position(q1, &rotation(q1), b1) - position(q0, &rotation(q0), b0)
    }

    /// C_q = [−J0 | J1] (3 × 14).
    pub fn jacobian(
        q0: &DVector<f64>,
        b0: &DVector<f64>,
        q1: &DVector<f64>,
        b1: &DVector<f64>,
    ) -> DMatrix<f64> {
        let j0 = position_jacobian(q0, &rotation(q0), b0);
        let j1 = position_jacobian(q1, &rotation(q1), b1);
        let mut c_q = DMatrix::zeros(3, 14);
        c_q.view_mut((0, 0), (3, 7)).copy_from(&(-j0));
        c_q.view_mut((0, 7), (3, 7)).copy_from(&j1);
        c_q
    }

    /// Both, with each marker's A(θ) computed once.
    pub fn residual_and_jacobian(
        q0: &DVector<f64>,
        b0: &DVector<f64>,
        q1: &DVector<f64>,
        b1: &DVector<f64>,
    ) -> (DVector<f64>, DMatrix<f64>) {
        let (a0, a1) = (rotation(q0), rotation(q1));
        let c = position(q1, &a1, b1) - position(q0, &a0, b0);
        let mut c_q = DMatrix::zeros(3, 14);
        c_q.view_mut((0, 0), (3, 7))
            .copy_from(&(-position_jacobian(q0, &a0, b0)));
        c_q.view_mut((0, 7), (3, 7))
            .copy_from(&position_jacobian(q1, &a1, b1));
        (c, c_q)
    }
}

// ------------------------------------------------------------------------------------------------
// The default form: marker-level kernels composed with the markers' kinematics.

mod marker_level_form {
    use super::{Blocks, Marker, kind, ml};
    use joint_core::MarkerQuantities;

    /// The position level reads no velocity: the runtime passes the coordinates in their place.
    pub fn quantities(m: &Marker) -> MarkerQuantities {
        MarkerQuantities {
            position: kind::position(&m.b, &m.q),
            velocity: kind::velocity(&m.b, &m.q, &m.q),
            rotation: kind::rotation(&m.b, &m.q),
            angular_velocity: kind::angular_velocity(&m.b, &m.q, &m.q),
        }
    }

    pub fn residual(m0: &Marker, m1: &Marker) -> [f64; 3] {
        ml::position_residual(&quantities(m0), &quantities(m1))
    }

    /// C_q,i = ∂ṙ/∂v_i·J_pos,i (the spherical joint reads no rotation).
    pub fn jacobian(m0: &Marker, m1: &Marker) -> Blocks {
        let d = ml::jacobian(&quantities(m0), &quantities(m1));
        let compose = |i: usize, m: &Marker| {
            let jp = kind::position_jacobian(&m.b, &m.q);
            std::array::from_fn(|r| {
                std::array::from_fn(|c| (0..3).map(|t| d.d_velocity[i][r][t] * jp[t][c]).sum())
            })
        };
        (compose(0, m0), compose(1, m1))
    }

    /// The fast path's residual and C_qᵀλ = J_pos,iᵀ·f_i (no torque: no rotation read).
    pub fn residual_and_reaction_forces(
        lambda: &[f64; 3],
        m0: &Marker,
        m1: &Marker,
    ) -> ([f64; 3], ([f64; 7], [f64; 7])) {
        let (g, r) =
            ml::position_residual_and_reaction_forces(lambda, &quantities(m0), &quantities(m1));
        let f0 = kind::position_jacobian_t_times(&m0.b, &m0.q, &r.force[0]);
        let f1 = kind::position_jacobian_t_times(&m1.b, &m1.q, &r.force[1]);
        (g, (f0, f1))
    }
}

// ------------------------------------------------------------------------------------------------
// The check

type Blocks = ([[f64; 7]; 3], [[f64; 7]; 3]);

fn generated(m0: &Marker, m1: &Marker) -> ([f64; 3], Blocks) {
    (
        ep_ep::position_residual(&m0.b, &m0.q, &m1.b, &m1.q),
        ep_ep::jacobian(&m0.b, &m0.q, &m1.b, &m1.q),
    )
}

/// The generic version equals the generated kernel (residual, Jacobian, and the combined call).
fn check_generic_matches_generated() {
    const TOL: f64 = 1e-12;
    for (k, (m0, m1)) in states().iter().enumerate() {
        let (c, (jac0, jac1)) = generated(m0, m1);
        assert_eq!(
            ep_ep::position_residual_and_jacobian(&m0.b, &m0.q, &m1.b, &m1.q),
            (c, (jac0, jac1)),
            "state {k}: the fused kernel differs from the two separate ones"
        );
        assert_eq!(
            ep_ep::position_residual_and_reaction_forces(&LAMBDA, &m0.b, &m0.q, &m1.b, &m1.q),
            (
                c,
                ep_ep::reaction_forces(&LAMBDA, &m0.b, &m0.q, &m1.b, &m1.q)
            ),
            "state {k}: the fused fast-path kernel differs from the two separate ones"
        );
        assert_eq!(
            ep_ep::position_residual_and_position_jacobian(&m0.b, &m0.q, &m1.b, &m1.q),
            (c, ep_ep::position_jacobian(&m0.b, &m0.q, &m1.b, &m1.q)),
            "state {k}: the fused position Jacobian kernel differs from the two separate ones"
        );
        let close = |a: &[f64], b: &[f64], what: &str| {
            for (x, y) in a.iter().zip(b) {
                assert!(
                    (x - y).abs() <= TOL,
                    "state {k}: marker level {what}: {x} vs {y}"
                );
            }
        };
        close(&marker_level_form::residual(m0, m1), &c, "residual");
        let (ml0, ml1) = marker_level_form::jacobian(m0, m1);
        close(ml0.as_flattened(), jac0.as_flattened(), "jacobian (m0)");
        close(ml1.as_flattened(), jac1.as_flattened(), "jacobian (m1)");
        let (mg, (mf0, mf1)) = marker_level_form::residual_and_reaction_forces(&LAMBDA, m0, m1);
        let (f0, f1) = ep_ep::reaction_forces(&LAMBDA, &m0.b, &m0.q, &m1.b, &m1.q);
        close(&mg, &c, "fused residual");
        close(&mf0, &f0, "reaction forces (m0)");
        close(&mf1, &f1, "reaction forces (m1)");
        let (d0, d1) = (DynMarker::new(m0), DynMarker::new(m1));
        let gc = generic::residual(&d0.q, &d0.b, &d1.q, &d1.b);
        let gj = generic::jacobian(&d0.q, &d0.b, &d1.q, &d1.b);
        let (gc2, gj2) = generic::residual_and_jacobian(&d0.q, &d0.b, &d1.q, &d1.b);
        assert_eq!((gj.nrows(), gj.ncols()), (3, 14));
        for r in 0..3 {
            for (g, label) in [(&gc, "residual"), (&gc2, "residual (combined)")] {
                assert!(
                    (g[r] - c[r]).abs() <= TOL,
                    "state {k}: {label} row {r}: generic {} generated {}",
                    g[r],
                    c[r]
                );
            }
            for col in 0..14 {
                let want = if col < 7 {
                    jac0[r][col]
                } else {
                    jac1[r][col - 7]
                };
                for (g, label) in [(&gj, "jacobian"), (&gj2, "jacobian (combined)")] {
                    assert!(
                        (g[(r, col)] - want).abs() <= TOL,
                        "state {k}: {label} ({r}, {col}): generic {} generated {want}",
                        g[(r, col)]
                    );
                }
            }
        }
    }
}

fn main() {
    check_generic_matches_generated();
    println!(
        "generic nalgebra DMatrix version and the marker-level form equal the generated EP–EP kernel to 1e-12 at {} states",
        states().len()
    );
    divan::main();
}

// ------------------------------------------------------------------------------------------------
// Benchmarks (state 1: two turned links)

fn bench_state() -> (Marker, Marker) {
    states()[1]
}

#[divan::bench]
fn generated_residual(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = ep_ep::position_residual(
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        black_box(&out);
    });
}

#[divan::bench]
fn generated_jacobian(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = ep_ep::jacobian(
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        black_box(&out);
    });
}

#[divan::bench]
fn generated_residual_and_jacobian(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let (b0, q0, b1, q1) = (
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        let out = (
            ep_ep::position_residual(b0, q0, b1, q1),
            ep_ep::jacobian(b0, q0, b1, q1),
        );
        black_box(&out);
    });
}

/// The same two results from the fused kernel, which computes their common subexpressions once.
#[divan::bench]
fn generated_residual_and_jacobian_fused(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = ep_ep::position_residual_and_jacobian(
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        black_box(&out);
    });
}

// The fast solver path's forms: every Newton iteration evaluates the residual with C_qᵀλ, and
// a renewed Jacobian is the residual's own ∂g/∂q.

/// Multipliers of state 1 (a few newtons, as a chain's joint carries).
const LAMBDA: [f64; 3] = [3.5, -12.25, 0.75];

#[divan::bench]
fn fast_residual_and_reaction_forces(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let (l, b0, q0, b1, q1) = (
            black_box(&LAMBDA),
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        let out = (
            ep_ep::position_residual(b0, q0, b1, q1),
            ep_ep::reaction_forces(l, b0, q0, b1, q1),
        );
        black_box(&out);
    });
}

/// The same two results from the fused kernel the fast path calls.
#[divan::bench]
fn fast_residual_and_reaction_forces_fused(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = ep_ep::position_residual_and_reaction_forces(
            black_box(&LAMBDA),
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        black_box(&out);
    });
}

/// The position residual and its consistent Jacobian ∂g/∂q, fused.
#[divan::bench]
fn fast_residual_and_position_jacobian_fused(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = ep_ep::position_residual_and_position_jacobian(
            black_box(&m0.b),
            black_box(&m0.q),
            black_box(&m1.b),
            black_box(&m1.q),
        );
        black_box(&out);
    });
}

#[divan::bench]
fn generic_residual(bencher: Bencher) {
    let (m0, m1) = bench_state();
    let (d0, d1) = (DynMarker::new(&m0), DynMarker::new(&m1));
    bencher.bench_local(|| {
        drop(black_box(generic::residual(
            black_box(&d0.q),
            black_box(&d0.b),
            black_box(&d1.q),
            black_box(&d1.b),
        )));
    });
}

#[divan::bench]
fn generic_jacobian(bencher: Bencher) {
    let (m0, m1) = bench_state();
    let (d0, d1) = (DynMarker::new(&m0), DynMarker::new(&m1));
    bencher.bench_local(|| {
        drop(black_box(generic::jacobian(
            black_box(&d0.q),
            black_box(&d0.b),
            black_box(&d1.q),
            black_box(&d1.b),
        )));
    });
}

#[divan::bench]
fn generic_residual_and_jacobian(bencher: Bencher) {
    let (m0, m1) = bench_state();
    let (d0, d1) = (DynMarker::new(&m0), DynMarker::new(&m1));
    bencher.bench_local(|| {
        drop(black_box(generic::residual_and_jacobian(
            black_box(&d0.q),
            black_box(&d0.b),
            black_box(&d1.q),
            black_box(&d1.b),
        )));
    });
}

#[divan::bench]
fn marker_level_residual(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = marker_level_form::residual(black_box(&m0), black_box(&m1));
        black_box(&out);
    });
}

#[divan::bench]
fn marker_level_residual_and_jacobian(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let (a, b) = (black_box(&m0), black_box(&m1));
        let out = (
            marker_level_form::residual(a, b),
            marker_level_form::jacobian(a, b),
        );
        black_box(&out);
    });
}

#[divan::bench]
fn marker_level_fast_residual_and_reaction_forces(bencher: Bencher) {
    let (m0, m1) = bench_state();
    bencher.bench_local(|| {
        let out = marker_level_form::residual_and_reaction_forces(
            black_box(&LAMBDA),
            black_box(&m0),
            black_box(&m1),
        );
        black_box(&out);
    });
}
