//! Properties of every generated kernel of every joint (the built-in ones and the example
//! joints of `examples/custom_joints/mod.rs`, `examples/custom_joint_pendulum.rs` and the
//! hand-written velocity level of `examples/point_on_plane.rs`), for every pairing of marker kinds, at random states
//! and random joint parameters (proptest), through the type-erased `JointDefinition` a runtime
//! uses:
//!
//! 1. the velocity-level residual is the Jacobian times the coordinate velocities,
//!    `g_vel(q, q̇) = C(q)·q̇` (all joints' velocity levels are linear in q̇);
//! 2. the velocity level — derived by the compiler, or written by hand — is the time derivative
//!    of the position level, `g_vel = d/dt g(q(t))`, by central differences along `q + t·q̇`, on
//!    the Euler-parameter manifold for EP kinds (|θ| = 1, θ̇ ⟂ θ), where Exudyn's velocity
//!    kinematics are exact;
//! 3. the composed convective term is −(∂(C q̇)/∂q)·q̇, by central differences of C along q̇;
//! 4. the composed `reaction_q` is ∂(Cᵀλ)/∂q, by central differences of C;
//!
//! for every joint's composed marker-level kernels (every kind pair: a user's joint's default
//! form) and its unrolled pairings, where it has them.
//!
//! The built-in joints also have their own, independent num-dual oracles
//! (tests/joint_dual_oracles/, tests/kernel_jacobians/).

#[allow(dead_code)]
#[path = "../examples/custom_joints/mod.rs"]
mod custom_joints;
#[allow(dead_code)]
#[path = "../examples/custom_joint_pendulum.rs"]
mod pendulum;
// its velocity level is written by hand
#[allow(dead_code)]
#[path = "../examples/point_on_plane.rs"]
mod embedded;

use joint::core::{JointDefinition, MarkerArgs, MarkerKind, Pairing, ParameterShape};
use joint::runtime::composed::{self, KindArgs};
use joint::runtime::kernels::{
    coordinate_constraint, distance, generic_rows, prismatic_2d, prismatic_x, revolute_2d,
    revolute_z, spherical,
};
use proptest::prelude::*;

joint::joint! {
    /// A coordinate constraint nonlinear in its coordinates, with second-order terms: a
    /// coordinate marker's value moves with its velocity (its rate ċ), which the convective term
    /// reads.
    pub joint SquaredCoordinate {
        marker m0: Coordinate;
        marker m1: Coordinate;
        axes [c];
        second_order;
        position = [m1.coordinate * m1.coordinate - 0.5 * m0.coordinate];
    }
}

/// Every joint the test covers.
fn joints() -> Vec<&'static JointDefinition> {
    let mut all = vec![
        &spherical::DEFINITION,
        &distance::DEFINITION,
        &revolute_z::DEFINITION,
        &prismatic_x::DEFINITION,
        &generic_rows::DEFINITION,
        &revolute_2d::DEFINITION,
        &prismatic_2d::DEFINITION,
        &coordinate_constraint::DEFINITION,
    ];
    all.extend(custom_joints::definitions());
    all.push(&pendulum::my_spherical::DEFINITION);
    all.push(&squared_coordinate::DEFINITION);
    all.push(&embedded::point_on_plane::DEFINITION);
    all
}

/// Random parameter values of a joint: scalars in [0.5, 1.1), vectors in [−1, 1)³, matrices
/// rotations.
fn parameters(definition: &JointDefinition, pool: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for (i, p) in definition.parameters.iter().enumerate() {
        let x = &pool[3 * (i % 4)..3 * (i % 4) + 3];
        match p.shape {
            ParameterShape::Scalar => out.push(0.8 + 0.3 * x[0]),
            ParameterShape::Vector => out.extend_from_slice(x),
            ParameterShape::Matrix => {
                out.extend_from_slice(rotation([x[0], x[1], x[2]]).as_flattened())
            }
        }
    }
    out
}

fn args<'a>(p: &'a [f64], q: &'a [f64], v: &'a [f64]) -> MarkerArgs<'a> {
    MarkerArgs {
        parameters: p,
        coordinates: q,
        velocities: v,
    }
}

/// A rotation matrix (row-major) from three angles, for joint and ground parameters.
fn rotation(a: [f64; 3]) -> [[f64; 3]; 3] {
    let (s0, c0) = a[0].sin_cos();
    let (s1, c1) = a[1].sin_cos();
    let (s2, c2) = a[2].sin_cos();
    let rx = nalgebra::Matrix3::new(1.0, 0.0, 0.0, 0.0, c0, -s0, 0.0, s0, c0);
    let ry = nalgebra::Matrix3::new(c1, 0.0, s1, 0.0, 1.0, 0.0, -s1, 0.0, c1);
    let rz = nalgebra::Matrix3::new(c2, -s2, 0.0, s2, c2, 0.0, 0.0, 0.0, 1.0);
    let r = rx * ry * rz;
    std::array::from_fn(|i| std::array::from_fn(|j| r[(i, j)]))
}

/// A marker state of kind `kind` (the order of `MARKER_KINDS`) from random numbers `x`:
/// (parameters, coordinates, velocities). Euler parameters are unit, their rates tangent.
fn marker(kind: MarkerKind, x: &[f64]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let name = kind.name();
    let (np, nq) = (kind.parameter_count(), kind.coordinate_count());
    let mut p: Vec<f64> = x[..np].to_vec();
    if name == "GroundPoint" {
        // position, rotation (row-major), local position
        let r = rotation([x[3], x[4], x[5]]);
        p[3..12].copy_from_slice(r.as_flattened());
    }
    let mut q: Vec<f64> = x[20..20 + nq].to_vec();
    let mut v: Vec<f64> = x[30..30 + nq].to_vec();
    if nq == 7 {
        // away from θ = 0, where shrinking would otherwise lead
        q[3] += 2.0;
        let n = q[3..7].iter().map(|t| t * t).sum::<f64>().sqrt();
        q[3..7].iter_mut().for_each(|t| *t /= n);
        let d: f64 = (3..7).map(|i| q[i] * v[i]).sum();
        for i in 3..7 {
            v[i] -= d * q[i];
        }
    }
    (p, q, v)
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// One pairing's kernels on slices, the joint's parameters bound: an unrolled pairing's, or the
/// joint's marker-level kernels composed with the two kinds' kinematics.
struct Kernels<'a> {
    name: String,
    kinds: [MarkerKind; 2],
    rows: usize,
    definition: &'static JointDefinition,
    jp: &'a [f64],
    pairing: Option<&'static Pairing>,
}

impl Kernels<'_> {
    fn kind_args<'b>(&self, m0: MarkerArgs<'b>, m1: MarkerArgs<'b>) -> [KindArgs<'b>; 2] {
        [
            KindArgs {
                kind: self.kinds[0],
                args: m0,
            },
            KindArgs {
                kind: self.kinds[1],
                args: m1,
            },
        ]
    }

    fn position(&self, m0: MarkerArgs, m1: MarkerArgs, out: &mut [f64]) {
        match self.pairing {
            Some(p) => (p.position_residual)(self.jp, m0, m1, out),
            None => {
                composed::position_residual(self.definition, self.jp, self.kind_args(m0, m1), out)
            }
        }
        .expect("position_residual takes correct slices");
    }

    fn velocity(&self, m0: MarkerArgs, m1: MarkerArgs, out: &mut [f64]) {
        match self.pairing {
            Some(p) => (p.velocity_residual)(self.jp, m0, m1, out),
            None => {
                composed::velocity_residual(self.definition, self.jp, self.kind_args(m0, m1), out)
            }
        }
        .expect("velocity_residual takes correct slices");
    }

    fn jacobian(&self, m0: MarkerArgs, m1: MarkerArgs, j0: &mut [f64], j1: &mut [f64]) {
        match self.pairing {
            Some(p) => (p.jacobian)(self.jp, m0, m1, j0, j1),
            None => composed::jacobian(self.definition, self.jp, self.kind_args(m0, m1), j0, j1),
        }
        .expect("jacobian takes correct slices");
    }
}

fn check_pairing(k: &Kernels, x: &[f64]) -> Result<(), TestCaseError> {
    let name = &k.name;
    let (p0, q0, v0) = marker(k.kinds[0], &x[..40]);
    let (mut p1, mut q1, v1) = marker(k.kinds[1], &x[40..80]);
    // keep the markers apart (the distance joint's direction is undefined at Δp = 0)
    // (a ground coordinate has neither: nothing to move)
    if let Some(x) = q1.first_mut() {
        *x += 3.0;
    } else if let Some(x) = p1.first_mut() {
        *x += 3.0;
    }
    let (n0, n1, rows) = (q0.len(), q1.len(), k.rows);
    let n = n0 + n1;
    let lambda: Vec<f64> = (0..rows).map(|r| x[80 + r % 12]).collect();
    let h = 1e-6;

    let jac = |q0: &[f64], q1: &[f64]| {
        let (mut j0, mut j1) = (vec![0.0; rows * n0], vec![0.0; rows * n1]);
        k.jacobian(args(&p0, q0, &v0), args(&p1, q1, &v1), &mut j0, &mut j1);
        (j0, j1)
    };
    let times_v = |j0: &[f64], j1: &[f64], r: usize| -> f64 {
        (0..n0).map(|c| j0[r * n0 + c] * v0[c]).sum::<f64>()
            + (0..n1).map(|c| j1[r * n1 + c] * v1[c]).sum::<f64>()
    };
    let transposed = |j0: &[f64], j1: &[f64], c: usize| -> f64 {
        (0..rows)
            .map(|r| {
                lambda[r]
                    * if c < n0 {
                        j0[r * n0 + c]
                    } else {
                        j1[r * n1 + c - n0]
                    }
            })
            .sum()
    };
    let (j0, j1) = jac(&q0, &q1);

    // 1: g_vel = C q̇
    let mut g_vel = vec![0.0; rows];
    k.velocity(args(&p0, &q0, &v0), args(&p1, &q1, &v1), &mut g_vel);
    for (r, &g) in g_vel.iter().enumerate() {
        let cv = times_v(&j0, &j1, r);
        prop_assert!(
            close(g, cv, 1e-12),
            "{name}: row {r}: g_vel {g} vs C·q̇ {cv}"
        );
    }

    // 2: g_vel = d/dt g along q + t·q̇
    let position = |a: &[f64], b: &[f64]| {
        let mut g = vec![0.0; rows];
        k.position(args(&p0, a, &v0), args(&p1, b, &v1), &mut g);
        g
    };
    let along = |t: f64| {
        let a: Vec<f64> = q0.iter().zip(&v0).map(|(q, v)| q + t * v).collect();
        let b: Vec<f64> = q1.iter().zip(&v1).map(|(q, v)| q + t * v).collect();
        position(&a, &b)
    };
    let (gp, gm) = (along(h), along(-h));
    for r in 0..rows {
        let d = (gp[r] - gm[r]) / (2.0 * h);
        prop_assert!(
            close(g_vel[r], d, 1e-6),
            "{name}: row {r}: g_vel {} vs d/dt g {}",
            g_vel[r],
            d
        );
    }

    // 3, 4: the composed second-order terms against central differences of C: the convective
    // term −(∂(C q̇)/∂q)·q̇ along q̇, ∂(Cᵀλ)/∂q along each coordinate
    if !k.definition.second_order {
        return Ok(());
    }
    let m = k.kind_args(args(&p0, &q0, &v0), args(&p1, &q1, &v1));
    let mut convective = vec![0.0; rows];
    composed::convective(k.definition, k.jp, m, &mut convective)
        .expect("convective takes correct slices");
    let (ja, jb) = jac(
        &q0.iter()
            .zip(&v0)
            .map(|(q, v)| q + h * v)
            .collect::<Vec<_>>(),
        &q1.iter()
            .zip(&v1)
            .map(|(q, v)| q + h * v)
            .collect::<Vec<_>>(),
    );
    let (jc, jd) = jac(
        &q0.iter()
            .zip(&v0)
            .map(|(q, v)| q - h * v)
            .collect::<Vec<_>>(),
        &q1.iter()
            .zip(&v1)
            .map(|(q, v)| q - h * v)
            .collect::<Vec<_>>(),
    );
    for (r, &c) in convective.iter().enumerate() {
        let fd = -(times_v(&ja, &jb, r) - times_v(&jc, &jd, r)) / (2.0 * h);
        prop_assert!(
            close(c, fd, 1e-6),
            "{name}: −(∂(C q̇)/∂q)·q̇ [{r}] {c} vs {fd}"
        );
    }
    let mut rq = vec![0.0; n * n];
    composed::reaction_q(k.definition, k.jp, &lambda, m, &mut rq)
        .expect("reaction_q takes correct slices");
    for col in 0..n {
        let shifted = |s: f64| {
            let (mut a, mut b) = (q0.clone(), q1.clone());
            if col < n0 {
                a[col] += s;
            } else {
                b[col - n0] += s;
            }
            jac(&a, &b)
        };
        let ((jp0, jp1), (jm0, jm1)) = (shifted(h), shifted(-h));
        for row in 0..n {
            let fd = (transposed(&jp0, &jp1, row) - transposed(&jm0, &jm1, row)) / (2.0 * h);
            let ours = rq[row * n + col];
            prop_assert!(
                close(ours, fd, 1e-6),
                "{name}: ∂(Cᵀλ)/∂q [{row}, {col}] {ours} vs {fd}"
            );
        }
    }
    Ok(())
}

/// Every ordered pair of kinds `definition` takes (but two without coordinates): its unrolled
/// pairing where it has one, and its composed marker-level kernels always.
fn kernels<'a>(definition: &'static JointDefinition, jp: &'a [f64]) -> Vec<Kernels<'a>> {
    let takes = |i: usize, k: MarkerKind| k.provides(definition.markers[i].capability);
    let mut out = Vec::new();
    for k0 in MarkerKind::ALL {
        for k1 in MarkerKind::ALL {
            if !takes(0, k0) || !takes(1, k1) || k0.coordinate_count() + k1.coordinate_count() == 0
            {
                continue;
            }
            let composed = Kernels {
                name: format!(
                    "{}::composed({} – {})",
                    definition.module,
                    k0.name(),
                    k1.name()
                ),
                kinds: [k0, k1],
                rows: definition.rows(),
                definition,
                jp,
                pairing: None,
            };
            if let Some(p) = definition.pairing(k0, k1) {
                out.push(Kernels {
                    name: p.path(),
                    pairing: Some(p),
                    ..composed
                });
            }
            out.push(composed);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_joint_kernel_is_consistent_at_random_states(
        x in proptest::collection::vec(-1.0f64..1.0, 92)
    ) {
        for definition in joints() {
            let jp = parameters(definition, &x[..12]);
            for k in kernels(definition, &jp) {
                check_pairing(&k, &x)?;
            }
        }
    }
}

/// The built-in joints' unrolled pairings: every ordered pair of the kinds each lists but
/// ground–ground (3D joints: the 7 kinds of ground, mass points, rigid bodies and their nodes with
/// a position, the 5 with an orientation; 2D joints: ground and the 2D kinds); 3 for the
/// coordinate constraint. A user's joint in its default form has none.
#[test]
fn built_in_joints_unroll_the_pairings_they_list() {
    assert_eq!(spherical::DEFINITION.pairings.len(), 48);
    assert_eq!(distance::DEFINITION.pairings.len(), 48);
    assert_eq!(revolute_2d::DEFINITION.pairings.len(), 24);
    assert_eq!(coordinate_constraint::DEFINITION.pairings.len(), 3);
    assert_eq!(revolute_z::DEFINITION.pairings.len(), 24);
    assert_eq!(prismatic_x::DEFINITION.pairings.len(), 24);
    assert_eq!(generic_rows::DEFINITION.pairings.len(), 24);
    assert_eq!(prismatic_2d::DEFINITION.pairings.len(), 8);
    assert_eq!(pendulum::my_spherical::DEFINITION.pairings.len(), 0);
    for definition in joints() {
        for k in definition.pairings {
            assert_eq!(
                definition.pairing(k.kinds[0], k.kinds[1]).map(|p| p.name),
                Some(k.name)
            );
        }
    }
}
