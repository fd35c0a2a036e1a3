//! Force elements defined with `joint!` (`pub force Name { … }`): the compiler's derivatives of
//! a force against central differences of the generated force itself (positions, small global
//! rotations of the frames, velocities, angular velocities), the built-in SpringDamper's against
//! its closed form, and user force elements simulated against Exudyn's own connectors that
//! compute the same forces by other means (ConnectorSpringDamper with the analytic stiffness,
//! ConnectorLinearSpringDamper with forward differences), in code and from a model file.

mod against_exudyn;
mod derivatives;

use joint::core::{Force, ForceJacobian, MarkerQuantities};
use joint::runtime::{
    ForceObject, JointRegistry, Marker, MultibodySystem, Object, OutputVariable, RigidBodyInertia,
    RigidBodyOptions, SimulationSettings, connectors,
};
use nalgebra::{Matrix3, Rotation3, Vector3};

joint::joint! {
    /// Exudyn's SpringDamper written by a user: along the line, tension positive.
    pub force LineSpring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        param damping: scalar;
        param rest_length: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        let e = delta / length;
        let tension = stiffness * (length - rest_length) + damping * dot(m1.velocity - m0.velocity, e);
        force = tension * e;
        /// The spring's length.
        output length = length;
    }

    /// Exudyn's LinearSpringDamper written by a user: along marker 0's turned axis `A_0·axis`.
    pub force AxialSpring {
        marker m0: Rigid;
        marker m1: Position;
        param stiffness: scalar;
        param damping: scalar;
        param axis: vector;
        let a = m0.rotation * axis;
        force = (stiffness * dot(a, m1.position - m0.position)
            + damping * dot(a, m1.velocity - m0.velocity)) * a;
    }

    /// Exudyn's CoordinateSpringDamper with a cubic term: a scalar between two coordinates.
    pub force CubicCoordinateSpring {
        marker m0: Coordinate;
        marker m1: Coordinate;
        param stiffness: scalar;
        param cubic: scalar;
        param damping: scalar;
        let stretch = m1.coordinate - m0.coordinate;
        force = stiffness * stretch + cubic * stretch * stretch * stretch
            + damping * (m1.coordinate_velocity - m0.coordinate_velocity);
    }

    /// Everything a force may read, to exercise every derivative: both frames, both angular
    /// velocities, the local one too.
    pub force Tangle {
        marker m0: Rigid;
        marker m1: Rigid;
        param k: scalar;
        param b: vector;
        let d = m1.position - m0.position;
        let t = transpose(m0.rotation) * (m1.rotation * b);
        force = k * (cross(t, d) + dot(d, d) * col(m1.rotation, 1))
            + 0.7 * cross(m0.angular_velocity, m1.velocity - m0.velocity)
            + 0.2 * dot(m1.angular_velocity_local, d) * m0.velocity;
    }
}

joint::joint! {
    /// A rotary spring-damper with a torque: Exudyn's RigidBodySpringDamper with only its
    /// rotational diagonal, `τ = A₀(k·u_r + d·w)` with `u_r` the xyz Tait–Bryan angles of
    /// `A₀ᵀA₁` and `w = A₀ᵀΔω`, and no force.
    pub force RotarySpring {
        marker m0: Rigid;
        marker m1: Rigid;
        param stiffness: scalar;
        param damping: scalar;
        let relative = transpose(m0.rotation) * m1.rotation;
        let r12 = col(relative, 2)[1];
        let r22 = col(relative, 2)[2];
        let c = sqrt(r12 * r12 + r22 * r22);
        let u_r = [
            atan2(-r12, r22),
            atan2(col(relative, 2)[0], c),
            atan2(-col(relative, 1)[0], col(relative, 0)[0])
        ];
        let w = transpose(m0.rotation) * (m1.angular_velocity - m0.angular_velocity);
        force = 0.0 * m0.position;
        torque = m0.rotation * (stiffness * u_r + damping * w);
        /// u_r.
        output angles = u_r;
    }
}

joint::joint! {
    /// A one-sided contact: a spring that pushes the markers apart while they are closer than
    /// `gap`, nothing beyond.
    pub force ContactSpring {
        marker m0: Position;
        marker m1: Position;
        param stiffness: scalar;
        param gap: scalar;
        let delta = m1.position - m0.position;
        let length = norm(delta);
        force = if length < gap { stiffness * (length - gap) * (delta / length) } else { 0.0 * delta };
    }
}

/// A marker state with a proper rotation.
fn quantities(seed: f64) -> MarkerQuantities {
    let r = Rotation3::from_euler_angles(0.3 + seed, -0.7 * seed, 1.1 - seed);
    let m = r.matrix();
    MarkerQuantities {
        position: [0.2 + seed, -0.4 * seed, 0.9 - 0.3 * seed],
        velocity: [0.5 - seed, 0.3, -0.8 * seed],
        rotation: [
            [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
            [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
            [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
        ],
        angular_velocity: [1.5 * seed, -0.6, 2.0 - seed],
    }
}

/// Central differences of `F`'s force by every quantity of both markers, in the
/// [`ForceJacobian`] layout; rotations are perturbed by exact small global rotations.
fn differences<F: Force>(parameters: &[f64], m: [MarkerQuantities; 2]) -> ForceJacobian {
    differences_of(F::DEFINITION.force, parameters, m)
}

fn largest_difference(a: &ForceJacobian, b: &ForceJacobian) -> f64 {
    let blocks = |j: &ForceJacobian| {
        [
            j.d_position,
            j.d_rotation,
            j.d_velocity,
            j.d_angular_velocity,
        ]
    };
    blocks(a)
        .iter()
        .zip(blocks(b).iter())
        .flat_map(|(x, y)| {
            x.as_flattened()
                .as_flattened()
                .iter()
                .zip(y.as_flattened().as_flattened())
                .map(|(p, q)| (p - q).abs())
        })
        .fold(0.0, f64::max)
}

/// A row-major array as a matrix (nalgebra reads `[[f64; 3]; 3]` as columns).
fn row_major(rows: [[f64; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_fn(|r, c| rows[r][c])
}

/// Central differences of a force or torque kernel `f` by every quantity of both markers, in
/// the [`ForceJacobian`] layout; rotations are perturbed by exact small global rotations.
fn differences_of(
    f: joint::core::ForceFn,
    parameters: &[f64],
    m: [MarkerQuantities; 2],
) -> ForceJacobian {
    let h = 1e-6;
    let eval = |m: &[MarkerQuantities; 2]| {
        let mut out = [0.0; 3];
        f(parameters, &m[0], &m[1], &mut out).unwrap();
        Vector3::from(out)
    };
    let mut out = ForceJacobian::default();
    for i in 0..2 {
        for c in 0..3 {
            let central = |perturb: &dyn Fn(&mut MarkerQuantities, f64)| {
                let (mut plus, mut minus) = (m, m);
                perturb(&mut plus[i], h);
                perturb(&mut minus[i], -h);
                (eval(&plus) - eval(&minus)) / (2.0 * h)
            };
            let dp = central(&|q, e| q.position[c] += e);
            let dv = central(&|q, e| q.velocity[c] += e);
            let dw = central(&|q, e| q.angular_velocity[c] += e);
            let dr = central(&|q, e| {
                let mut axis = Vector3::zeros();
                axis[c] = e;
                // A ← exp(skew(δπ))·A; MarkerQuantities' rotation is row-major
                let turned = Rotation3::new(axis).matrix() * row_major(q.rotation);
                for (r, row) in q.rotation.iter_mut().enumerate() {
                    *row = [turned[(r, 0)], turned[(r, 1)], turned[(r, 2)]];
                }
            });
            for r in 0..3 {
                out.d_position[i][r][c] = dp[r];
                out.d_velocity[i][r][c] = dv[r];
                out.d_angular_velocity[i][r][c] = dw[r];
                out.d_rotation[i][r][c] = dr[r];
            }
        }
    }
    out
}

/// Evaluate a definition's Jacobian through its type-erased kernel.
trait JacobianWith {
    fn jacobian_with(&self, parameters: &[f64], m: [MarkerQuantities; 2]) -> ForceJacobian;
}
impl JacobianWith for joint::core::TorqueDefinition {
    fn jacobian_with(&self, parameters: &[f64], m: [MarkerQuantities; 2]) -> ForceJacobian {
        let mut j = ForceJacobian::default();
        (self.jacobian)(parameters, &m[0], &m[1], &mut j).unwrap();
        j
    }
}
impl JacobianWith for joint::core::ForceDefinition {
    fn jacobian_with(&self, parameters: &[f64], m: [MarkerQuantities; 2]) -> ForceJacobian {
        let mut j = ForceJacobian::default();
        (self.jacobian)(parameters, &m[0], &m[1], &mut j).unwrap();
        j
    }
}

/// A rigid body hanging from ground by a spring at an off-centre point, with both kinds of
/// spring: the runtime's ConnectorSpringDamper and a `LineSpring` force element; gravity
/// and a spin make the motion three-dimensional.
fn hanging_body(user: bool) -> (MultibodySystem, joint::runtime::ObjectIndex) {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [0.3, 0.1, 0.05]);
    let mut o = RigidBodyOptions::new(inertia);
    o.reference_position = [0.2, 0.0, -0.5];
    o.initial_angular_velocity = [0.5, 1.0, 2.0];
    o.gravity = [0.0, 0.0, -9.81];
    let body = mbs.create_rigid_body(&o).body;
    let m0 = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
    let m1 = mbs.add_marker(Marker::body_position(body, [0.15, 0.02, 0.0]));
    let (k, d, l0) = (2000.0, 5.0, 0.4);
    if user {
        mbs.add_object(Object::force::<LineSpring>(
            [m0, m1],
            line_spring::Parameters {
                stiffness: k,
                damping: d,
                rest_length: l0,
            },
        ));
    } else {
        mbs.add_object(
            connectors::SpringDamper {
                reference_length: l0,
                stiffness: k,
                damping: d,
                ..Default::default()
            }
            .between([m0, m1]),
        );
    }
    (mbs, body)
}

fn settings(steps: usize) -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.end_time = 0.5;
    s.time_integration.number_of_steps = steps;
    s
}

fn largest(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}
