//! The generated kernels embedded in a simulator of your own: a joint Exudyn does not have,
//! driven without the runtime, its typed kernels on fixed-size arrays inside a small integrator
//! of this file (for the runtime simulating such a joint, see examples/sliding_on_incline.rs).
//! The velocity level is written by hand here, with the global angular velocity; the compiler
//! checks it against the time derivative of the position level while it expands.
//!
//! `PointOnPlane` keeps a point (marker 1) on a plane through marker 0 whose normal is a run-time
//! parameter given in marker 0's frame. Here the plane is a ground frame tilted by α about y, the
//! point a mass under gravity; the exact motion slides down the incline with the tangential part
//! of g: x(t) = x0 + ½ g_t t². The integrator solves the index-1 system
//! `[m I, Cᵀ; C, 0]·[a; λ] = [f; 0]` with the generated Jacobian C (the plane is fixed, so
//! Ċ·v = 0) and steps it with classical Runge–Kutta, which is exact for this quadratic motion.
//! No allocation anywhere: arrays and nalgebra's static matrices only.

use joint::nalgebra::{Matrix4, Vector4};

joint::joint! {
    /// A point `m1` on the plane through `m0` with normal `normal` (in `m0`'s frame).
    pub joint PointOnPlane {
        // the one pairing embedded here, unrolled into typed kernels on fixed-size arrays
        marker m0: Rigid(GroundPoint);
        marker m1: Position(NodePoint);
        param normal: vector;
        axes [n = 1];
        position = [dot(m0.rotation * normal, m1.position - m0.position)];
        velocity = [dot(cross(m0.angular_velocity, m0.rotation * normal), m1.position - m0.position)
            + dot(m0.rotation * normal, m1.velocity - m0.velocity)];
    }
}

use point_on_plane::ground_point_to_node_point as kernel;

/// Ground marker parameters: the marker's point (3: the ground's position plus its rotation
/// times the local position), the ground's rotation row-major (9).
pub fn tilted_ground(alpha: f64) -> [f64; 12] {
    let (s, c) = alpha.sin_cos();
    [0.0, 0.0, 0.0, c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c]
}

pub struct Run {
    pub position: [f64; 3],
    pub velocity: [f64; 3],
    /// Largest |constraint residual| over all steps.
    pub max_residual: f64,
    /// Largest |velocity-level residual| over all steps.
    pub max_velocity_residual: f64,
}

/// Accelerations and λ from `[m I, Cᵀ; C, 0]·[a; λ] = [m g; 0]`.
fn accelerations(
    joint: &point_on_plane::Parameters,
    ground: &[f64; 12],
    q: &[f64; 3],
    mass: f64,
    g: &[f64; 3],
) -> [f64; 3] {
    let c = kernel::jacobian(joint, ground, q)[0];
    let mut k = Matrix4::zeros();
    for i in 0..3 {
        k[(i, i)] = mass;
        k[(i, 3)] = c[i];
        k[(3, i)] = c[i];
    }
    let rhs = Vector4::new(mass * g[0], mass * g[1], mass * g[2], 0.0);
    let x = k
        .lu()
        .solve(&rhs)
        .expect("the KKT matrix is regular for a non-zero normal");
    [x[0], x[1], x[2]]
}

/// Integrate `steps` RK4 steps of size `h` from rest at the origin.
pub fn simulate(alpha: f64, mass: f64, steps: usize, h: f64) -> Run {
    let joint = point_on_plane::Parameters {
        normal: [0.0, 0.0, 1.0],
    };
    let ground = tilted_ground(alpha);
    let g = [0.0, 0.0, -9.81];
    let (mut q, mut v) = ([0.0; 3], [0.0; 3]);
    let mut run = Run {
        position: q,
        velocity: v,
        max_residual: 0.0,
        max_velocity_residual: 0.0,
    };
    let add =
        |a: &[f64; 3], b: &[f64; 3], s: f64| [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
    for _ in 0..steps {
        let a1 = accelerations(&joint, &ground, &q, mass, &g);
        let (q2, v2) = (add(&q, &v, 0.5 * h), add(&v, &a1, 0.5 * h));
        let a2 = accelerations(&joint, &ground, &q2, mass, &g);
        let (q3, v3) = (add(&q, &v2, 0.5 * h), add(&v, &a2, 0.5 * h));
        let a3 = accelerations(&joint, &ground, &q3, mass, &g);
        let (q4, v4) = (add(&q, &v3, h), add(&v, &a3, h));
        let a4 = accelerations(&joint, &ground, &q4, mass, &g);
        for i in 0..3 {
            q[i] += h / 6.0 * (v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]);
            v[i] += h / 6.0 * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]);
        }
        let r = kernel::position_residual(&joint, &ground, &q)[0];
        let rv = kernel::velocity_residual(&joint, &ground, &q, &v)[0];
        run.max_residual = run.max_residual.max(r.abs());
        run.max_velocity_residual = run.max_velocity_residual.max(rv.abs());
    }
    run.position = q;
    run.velocity = v;
    run
}

/// The exact position after time t: ½ g_t t², g_t = g − (g·n)n with n the tilted normal.
pub fn analytic_position(alpha: f64, t: f64) -> [f64; 3] {
    let n = [alpha.sin(), 0.0, alpha.cos()];
    let g = [0.0, 0.0, -9.81];
    let gn = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
    [
        0.5 * (g[0] - gn * n[0]) * t * t,
        0.5 * (g[1] - gn * n[1]) * t * t,
        0.5 * (g[2] - gn * n[2]) * t * t,
    ]
}

#[allow(dead_code)]
fn main() {
    let (alpha, steps, h) = (0.3, 1000, 1e-3);
    let run = simulate(alpha, 2.0, steps, h);
    let exact = analytic_position(alpha, steps as f64 * h);
    println!("position after 1 s: {:?}", run.position);
    println!("analytic:           {exact:?}");
    println!(
        "largest |plane residual| over the run: {:e}",
        run.max_residual
    );
    println!(
        "operations per pairing (tree, emitted), ground–point: {:?}",
        point_on_plane::OPERATION_COUNTS
            .iter()
            .find(|c| c.0 == "GroundPoint" && c.1 == "NodePoint")
    );
}
