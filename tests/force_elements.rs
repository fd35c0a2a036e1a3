//! Force elements defined with `joint!` (`pub force Name { … }`): the compiler's derivatives of
//! a force against central differences of the generated force itself (positions, small global
//! rotations of the frames, velocities, angular velocities), the built-in SpringDamper's against
//! its closed form, and user force elements simulated against Exudyn's own connectors that
//! compute the same forces by other means (ConnectorSpringDamper with the analytic stiffness,
//! ConnectorLinearSpringDamper with forward differences), in code and from a model file.

use joint::core::{Force, ForceJacobian, MarkerQuantities};
use joint::runtime::{
    ForceObject, JointRegistry, Marker, MultibodySystem, Object, OutputVariable, RigidBodyInertia,
    RigidBodyOptions, SimulationSettings,
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

#[test]
fn force_jacobians_match_central_differences() {
    let m = [quantities(0.1), quantities(0.45)];
    // between coordinates: the coordinates are p0, their velocities v0
    let cubic = [50.0, 300.0, 2.0];
    let g = CubicCoordinateSpring::DEFINITION.jacobian_with(&cubic, m);
    let fd = differences::<CubicCoordinateSpring>(&cubic, m);
    let c = m[1].position[0] - m[0].position[0];
    let k = 50.0 + 3.0 * 300.0 * c * c;
    assert!(
        (g.d_position[1][0][0] - k).abs() < 1e-12 * k
            && g.d_position[0][0][0] == -g.d_position[1][0][0]
    );
    assert!(g.d_velocity[1][0][0] == 2.0 && g.d_velocity[0][0][0] == -2.0);
    assert!(largest_difference(&g, &fd) < 1e-6 * k, "{g:?}\n{fd:?}");

    let line = [120.0, 3.0, 0.4];
    let axial = [80.0, 2.0, 0.0, 0.6, 0.8];
    let cases: [(&str, ForceJacobian, ForceJacobian); 3] = [
        (
            "LineSpring",
            LineSpring::DEFINITION.jacobian_with(&line, m),
            differences::<LineSpring>(&line, m),
        ),
        (
            "AxialSpring",
            AxialSpring::DEFINITION.jacobian_with(&axial, m),
            differences::<AxialSpring>(&axial, m),
        ),
        (
            "Tangle",
            Tangle::DEFINITION.jacobian_with(&[5.0, 0.3, -0.2, 0.5], m),
            differences::<Tangle>(&[5.0, 0.3, -0.2, 0.5], m),
        ),
    ];
    for (name, generated, fd) in &cases {
        let scale = largest_difference(fd, &ForceJacobian::default());
        let diff = largest_difference(generated, fd);
        assert!(
            diff < 1e-7 * scale.max(1.0),
            "{name}: generated and central differences differ by {diff} (scale {scale})\n{generated:?}\n{fd:?}"
        );
    }
    // a Position marker's rotation does not enter: its blocks are exactly zero
    let j = &cases[0].1;
    assert_eq!(j.d_rotation, [[[0.0; 3]; 3]; 2]);
    assert_eq!(j.d_angular_velocity, [[[0.0; 3]; 3]; 2]);
    // and the rotation of AxialSpring's marker 0 does: ∂f/∂δπ_0 = ∂(k(a·Δp) a)/∂δπ
    assert!(
        cases[1].1.d_rotation[0]
            .as_flattened()
            .iter()
            .any(|x| x.abs() > 1.0)
    );
    assert!(
        cases[2].1.d_angular_velocity[1]
            .as_flattened()
            .iter()
            .any(|x| *x != 0.0)
    );
}

/// The runtime's ConnectorGravity (a force element with `if`: regularized at or below
/// `min_distance`) and a one-sided contact spring: the derivatives are the taken branch's, on
/// either side of each switch.
#[test]
fn piecewise_force_jacobians_match_central_differences() {
    use joint::runtime::kernels::Gravity;
    let m = [quantities(0.1), quantities(0.45)];
    let dp: Vector3<f64> = Vector3::from(m[1].position) - Vector3::from(m[0].position);
    let length = dp.norm();
    // min_distance below and above the markers' distance: the plain and the regularized law
    for min_distance in [0.5 * length, 2.0 * length] {
        let p = [3.0, min_distance];
        let generated = Gravity::DEFINITION.jacobian_with(&p, m);
        let fd = differences::<Gravity>(&p, m);
        let scale = largest_difference(&fd, &ForceJacobian::default());
        let diff = largest_difference(&generated, &fd);
        assert!(
            diff < 1e-7 * scale.max(1.0),
            "Gravity (d = {min_distance}): {diff} (scale {scale})"
        );
        let mut f = [0.0; 3];
        (Gravity::DEFINITION.force)(&p, &m[0], &m[1], &mut f).unwrap();
        let law = if length > min_distance {
            3.0 / (length * length)
        } else {
            3.0 / (length * length + (length - min_distance).powi(2))
        };
        assert!((Vector3::from(f) - law * dp / length).norm() < 1e-12 * law);
    }
    // the contact spring pushes only when the gap closes: zero force and derivatives when open
    for (gap, closed) in [(length + 0.1, true), (length - 0.1, false)] {
        let p = [400.0, gap];
        let generated = ContactSpring::DEFINITION.jacobian_with(&p, m);
        let fd = differences::<ContactSpring>(&p, m);
        let scale = largest_difference(&fd, &ForceJacobian::default());
        assert_eq!(scale > 1.0, closed, "scale {scale}");
        assert!(largest_difference(&generated, &fd) < 1e-7 * scale.max(1.0));
    }
}

/// The torque of a force element with `torque = …;` and of the runtime's
/// RigidBodySpringDamper (force and torque, full K and D, turned joint frames): the compiler's
/// derivatives against central differences of the generated torque and force.
#[test]
fn torque_jacobians_match_central_differences() {
    use joint::runtime::kernels::RigidBodySpringDamper;
    let m = [quantities(0.1), quantities(0.45)];
    let rotary = [30.0, 0.7];
    let torque = RotarySpring::DEFINITION.torque.as_ref().expect("a torque");
    let generated = torque.jacobian_with(&rotary, m);
    let fd = differences_of(torque.torque, &rotary, m);
    let scale = largest_difference(&fd, &ForceJacobian::default());
    assert!(scale > 1.0, "{fd:?}");
    assert!(
        largest_difference(&generated, &fd) < 1e-7 * scale,
        "{generated:?}\n{fd:?}"
    );
    // the force element's force is zero, and so are its derivatives
    let force = RotarySpring::DEFINITION.jacobian_with(&rotary, m);
    assert_eq!(largest_difference(&force, &ForceJacobian::default()), 0.0);

    // RigidBodySpringDamper: K, D (3 × 3 blocks pp, pr, rp, rr), offsets, joint frames
    let block = |s: f64| -> Vec<f64> { (0..9).map(|i| s * (1.0 + 0.1 * i as f64)).collect() };
    let turn = |a: f64| {
        let r = Rotation3::from_euler_angles(a, 0.5 * a, -a);
        (0..9)
            .map(move |i| r.matrix()[(i / 3, i % 3)])
            .collect::<Vec<f64>>()
    };
    let mut p = Vec::new();
    for s in [400.0, 20.0, 15.0, 90.0, 3.0, 0.2, 0.3, 0.9] {
        p.extend(block(s));
    }
    p.extend([0.01, -0.02, 0.03, 0.1, -0.05, 0.02]);
    p.extend(turn(0.3));
    p.extend(turn(-0.6));
    let def = &RigidBodySpringDamper::DEFINITION;
    assert_eq!(p.len(), def.parameter_len());
    let torque = def.torque.as_ref().expect("a torque");
    for (name, generated, fd) in [
        (
            "force",
            def.jacobian_with(&p, m),
            differences_of(def.force, &p, m),
        ),
        (
            "torque",
            torque.jacobian_with(&p, m),
            differences_of(torque.torque, &p, m),
        ),
    ] {
        let scale = largest_difference(&fd, &ForceJacobian::default());
        let diff = largest_difference(&generated, &fd);
        assert!(
            diff < 1e-7 * scale,
            "{name}: {diff} (scale {scale})\n{generated:?}\n{fd:?}"
        );
    }
}

/// A body spinning on a RotarySpring to ground against Exudyn's
/// ConnectorRigidBodySpringDamper with the same rotational K and D (both differentiated
/// analytically, the user's by the compiler, the built-in by its definition in joint-kernels):
/// the same iterations, results equal to round-off.
#[test]
fn user_rotary_spring_moves_as_exudyns_rigid_body_spring_damper() {
    let (k, d) = (40.0, 0.3);
    let mut results = Vec::new();
    for user in [false, true] {
        let mut mbs = MultibodySystem::new();
        let ground = mbs.add_object(Object::ground());
        let inertia = RigidBodyInertia::cuboid(1000.0, [0.3, 0.1, 0.05]);
        let mut o = RigidBodyOptions::new(inertia);
        o.initial_angular_velocity = [0.5, 1.0, 2.0];
        let body = mbs.create_rigid_body(&o).body;
        let m0 = mbs.add_marker(Marker::body_rigid(ground, [0.0; 3]));
        let m1 = mbs.add_marker(Marker::body_rigid(body, [0.0; 3]));
        if user {
            mbs.add_object(Object::force::<RotarySpring>(
                [m0, m1],
                rotary_spring::Parameters {
                    stiffness: k,
                    damping: d,
                },
            ));
        } else {
            let diagonal = |x: f64| {
                let mut m = [[0.0; 6]; 6];
                for (i, row) in m.iter_mut().enumerate().skip(3) {
                    row[i] = x;
                }
                Box::new(m)
            };
            let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
            mbs.add_object(Object::ConnectorRigidBodySpringDamper {
                name: String::new(),
                markers: [m0, m1],
                stiffness: diagonal(k),
                damping: diagonal(d),
                rotation_marker0: identity,
                rotation_marker1: identity,
                offset: [0.0; 6],
                intrinsic: false,
                active: true,
            });
        }
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&settings(500)).unwrap();
        let angles = sim
            .body_output(body, [0.0; 3], OutputVariable::Rotation)
            .unwrap();
        let w = sim
            .body_output(body, [0.0; 3], OutputVariable::AngularVelocity)
            .unwrap();
        let newton = sim.statistics.newton;
        results.push((angles, w, newton.iterations, newton.jacobians));
    }
    let (builtin, user) = (&results[0], &results[1]);
    // the spring turned the body back: not the free spin's angular velocity
    assert!(largest(&builtin.1, &[0.5, 1.0, 2.0]) > 0.1, "{builtin:?}");
    assert!(
        largest(&builtin.0, &user.0) < 1e-11,
        "{builtin:?} vs {user:?}"
    );
    assert!(
        largest(&builtin.1, &user.1) < 1e-10,
        "{builtin:?} vs {user:?}"
    );
    assert_eq!(builtin.2, user.2);
    assert_eq!(builtin.3, user.3);
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

/// The runtime's SpringDamper (`kernels::SpringDamper`) against the closed form of its
/// stiffness, ∂(F e)/∂Δp = F/L·(I − e eᵀ) + e·(k eᵀ + d Δvᵀ(I − e eᵀ)/L), and its damping
/// d·e eᵀ.
#[test]
fn spring_damper_derivatives_are_the_closed_form() {
    use joint::runtime::kernels::spring_damper;
    let p = spring_damper::Parameters {
        reference_length: 0.3,
        stiffness: 200.0,
        damping: 4.0,
        force_offset: 1.5,
        velocity_offset: 0.2,
    };
    let (m0, m1) = (quantities(0.1), quantities(0.6));
    let j = spring_damper::marker_level::jacobian(&p, &m0, &m1);
    let dp = Vector3::from(m1.position) - Vector3::from(m0.position);
    let dv = Vector3::from(m1.velocity) - Vector3::from(m0.velocity);
    let l = dp.norm();
    let e = dp / l;
    let f = p.stiffness * (l - p.reference_length)
        + p.damping * (dv.dot(&e) - p.velocity_offset)
        + p.force_offset;
    let projector = Matrix3::identity() - e * e.transpose();
    let k = projector * (f / l)
        + e * (p.stiffness * e.transpose() + p.damping * dv.transpose() * projector / l);
    let d = p.damping * e * e.transpose();
    for r in 0..3 {
        for c in 0..3 {
            assert!((j.d_position[1][r][c] - k[(r, c)]).abs() < 1e-12 * k.norm());
            assert!((j.d_position[0][r][c] + k[(r, c)]).abs() < 1e-12 * k.norm());
            assert!((j.d_velocity[1][r][c] - d[(r, c)]).abs() < 1e-13);
            assert!((j.d_velocity[0][r][c] + d[(r, c)]).abs() < 1e-13);
        }
    }
    let force = spring_damper::marker_level::force(&p, &m0, &m1);
    for r in 0..3 {
        assert!((force[r] - f * e[r]).abs() < 1e-13 * f.abs());
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
        mbs.add_object(Object::ConnectorSpringDamper {
            name: String::new(),
            markers: [m0, m1],
            reference_length: l0,
            stiffness: k,
            damping: d,
            force: 0.0,
            velocity_offset: 0.0,
            active: true,
        });
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

#[test]
fn user_line_spring_moves_as_exudyns_spring_damper() {
    let mut results = Vec::new();
    for user in [false, true] {
        let (mbs, body) = hanging_body(user);
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&settings(500)).unwrap();
        let p = sim
            .body_output(body, [0.15, 0.02, 0.0], OutputVariable::Position)
            .unwrap();
        let newton = sim.statistics.newton;
        results.push((p, newton.iterations, newton.jacobians));
    }
    let (builtin, user) = (&results[0], &results[1]);
    // the same force and the same derivatives (the built-in is the same definition with
    // Exudyn's parameters): the same iterations, results equal to round-off
    assert!(
        largest(&builtin.0, &user.0) < 1e-12,
        "{builtin:?} vs {user:?}"
    );
    assert_eq!(builtin.1, user.1);
    assert_eq!(builtin.2, user.2);
}

/// A body on an axial spring along a turned axis of a rotating frame: the user force element
/// (derivatives from the compiler, the frame's rotation among them) against Exudyn's
/// ConnectorLinearSpringDamper (differentiated numerically, as Exudyn): the same motion to the
/// Newton tolerance.
#[test]
fn user_axial_spring_moves_as_exudyns_linear_spring_damper() {
    let mut results = Vec::new();
    for user in [false, true] {
        let mut mbs = MultibodySystem::new();
        let inertia = RigidBodyInertia::cuboid(500.0, [0.2, 0.2, 0.2]);
        let mut frame = RigidBodyOptions::new(inertia);
        frame.initial_angular_velocity = [0.0, 0.0, 3.0];
        let frame_body = mbs.create_rigid_body(&frame).body;
        // Exudyn's connector asks for two rigid markers: a small body, its centre marked
        let mut tip = RigidBodyOptions::new(RigidBodyInertia::cuboid(100.0, [0.1, 0.1, 0.1]));
        tip.reference_position = [0.3, 0.1, 0.05];
        let tip_body = mbs.create_rigid_body(&tip).body;
        let m0 = mbs.add_marker(Marker::body_rigid(frame_body, [0.0; 3]));
        let m1 = mbs.add_marker(Marker::body_rigid(tip_body, [0.0; 3]));
        let axis = [0.6, 0.8, 0.0];
        let (k, d) = (400.0, 2.0);
        if user {
            mbs.add_object(Object::force::<AxialSpring>(
                [m0, m1],
                axial_spring::Parameters {
                    stiffness: k,
                    damping: d,
                    axis,
                },
            ));
        } else {
            mbs.add_object(Object::ConnectorLinearSpringDamper {
                name: String::new(),
                markers: [m0, m1],
                stiffness: k,
                damping: d,
                axis_marker0: axis,
                offset: 0.0,
                velocity_offset: 0.0,
                force: 0.0,
                active: true,
            });
        }
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&settings(1000)).unwrap();
        let p = sim
            .body_output(tip_body, [0.0; 3], OutputVariable::Position)
            .unwrap();
        let w = sim
            .body_output(frame_body, [0.0; 3], OutputVariable::AngularVelocity)
            .unwrap();
        results.push((p, w));
    }
    let (builtin, user) = (&results[0], &results[1]);
    // the point moved: the spring acted
    assert!(largest(&builtin.0, &[0.3, 0.1, 0.05]) > 1e-3, "{builtin:?}");
    assert!(
        largest(&builtin.0, &user.0) < 1e-8,
        "{builtin:?} vs {user:?}"
    );
    assert!(
        largest(&builtin.1, &user.1) < 1e-7,
        "{builtin:?} vs {user:?}"
    );
}

#[test]
fn force_element_outputs() {
    let (mbs, _) = hanging_body(true);
    let object = joint::runtime::ObjectIndex(mbs.objects.len() - 1);
    let sim = mbs.assemble().unwrap();
    let length = sim
        .object_output(object, OutputVariable::Named("length"))
        .unwrap();
    let distance = sim.object_output(object, OutputVariable::Distance).unwrap();
    let force = sim.object_output(object, OutputVariable::Force).unwrap();
    let displacement = sim
        .object_output(object, OutputVariable::Displacement)
        .unwrap();
    let velocity = sim.object_output(object, OutputVariable::Velocity).unwrap();
    let (dp, dv) = (
        Vector3::from_column_slice(&displacement),
        Vector3::from_column_slice(&velocity),
    );
    let l = dp.norm();
    assert!((length[0] - l).abs() < 1e-15 && (distance[0] - l).abs() < 1e-15);
    // the body spins at the start, so the damper acts too: F = k(L − L0) + d·Δv·e along e
    assert!(dv.norm() > 0.1);
    let e = dp / l;
    let expected = e * (2000.0 * (l - 0.4) + 5.0 * dv.dot(&e));
    for r in 0..3 {
        assert!(
            (force[r] - expected[r]).abs() < 1e-10,
            "{force:?} vs {expected:?}"
        );
    }
}

/// The same system from a model file through a registry with the force element: its keys are
/// its parameters' names; a missing one, a name Exudyn's items have, a Position-only marker
/// where the definition asks for Rigid are errors naming the item and key.
#[test]
fn force_elements_in_model_files() {
    use joint::runtime::model::read_model_with;
    let registry = JointRegistry::exudyn()
        .with_force::<LineSpring>()
        .unwrap()
        .with_force::<AxialSpring>()
        .unwrap();
    let model = |object: &str| {
        format!(
            r#"{{"nodes": [{{"nodeType": "Point", "referenceCoordinates": [0, 0, -1]}}],
            "objects": [{{"objectType": "Ground"}},
                        {{"objectType": "MassPoint", "physicsMass": 2, "nodeNumber": 0}},
                        {object}],
            "markers": [{{"markerType": "BodyPosition", "bodyNumber": 0, "localPosition": [0, 0, 0]}},
                        {{"markerType": "BodyPosition", "bodyNumber": 1, "localPosition": [0, 0, 0]}},
                        {{"markerType": "BodyMass", "bodyNumber": 1}}],
            "loads": [{{"loadType": "MassProportional", "markerNumber": 2, "loadVector": [0, 0, -9.81]}}]}}"#
        )
    };
    let good = model(
        r#"{"objectType": "LineSpring", "markerNumbers": [0, 1], "stiffness": 100, "damping": 1, "rest_length": 0.8, "name": "spring"}"#,
    );
    let m = read_model_with(&good, &registry).unwrap();
    let Object::Force(f) = &m.mbs.objects[2] else {
        panic!("a force element: {:?}", m.mbs.objects[2]);
    };
    assert_eq!(f.parameters, [100.0, 1.0, 0.8]);
    assert_eq!(f.name, "spring");
    let mut sim = m.mbs.assemble().unwrap();
    sim.solve_dynamic(&settings(200)).unwrap();

    let missing = model(
        r#"{"objectType": "LineSpring", "markerNumbers": [0, 1], "stiffness": 100, "damping": 1}"#,
    );
    let e = read_model_with(&missing, &registry)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("objects[2] (LineSpring)") && e.contains("rest_length"),
        "{e}"
    );

    let unknown_key = model(
        r#"{"objectType": "LineSpring", "markerNumbers": [0, 1], "stiffness": 100, "damping": 1, "rest_length": 1, "stifness": 3}"#,
    );
    let e = read_model_with(&unknown_key, &registry)
        .unwrap_err()
        .to_string();
    assert!(e.contains("stifness"), "{e}");

    let not_rigid = model(
        r#"{"objectType": "AxialSpring", "markerNumbers": [0, 1], "stiffness": 100, "damping": 1, "axis": [1, 0, 0]}"#,
    );
    let m = read_model_with(&not_rigid, &registry).unwrap();
    let e = m.mbs.assemble().unwrap_err().to_string();
    assert!(
        e.contains("objects[2] (AxialSpring)")
            && e.contains("markerNumbers")
            && e.contains("orientation"),
        "{e}"
    );

    // names Exudyn's items answer to are refused when a model is read
    joint::joint! {
        pub force SpringDamper {
            marker m0: Position;
            marker m1: Position;
            force = m1.position - m0.position;
        }
    }
    let shadowing = JointRegistry::exudyn()
        .with_force::<SpringDamper>()
        .unwrap();
    let e = read_model_with(&good, &shadowing).unwrap_err().to_string();
    assert!(
        e.contains("`SpringDamper`") && e.contains("ConnectorSpringDamper") && e.contains("rename"),
        "{e}"
    );
    let e = JointRegistry::exudyn()
        .with_force::<LineSpring>()
        .unwrap()
        .with_force::<LineSpring>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("LineSpring") && e.contains("taken"), "{e}");
}

#[test]
fn force_object_parameters_are_checked_at_assemble() {
    let (mut mbs, _) = hanging_body(true);
    let last = mbs.objects.len() - 1;
    let Object::Force(f) = &mut mbs.objects[last] else {
        unreachable!()
    };
    f.parameters[1] = f64::NAN;
    let e = mbs.assemble().unwrap_err().to_string();
    assert!(
        e.contains("(LineSpring)") && e.contains("damping") && e.contains("finite"),
        "{e}"
    );
    let Object::Force(f) = &mut mbs.objects[last] else {
        unreachable!()
    };
    *f = ForceObject::of_definition(LineSpring::DEFINITION, f.markers, vec![1.0]);
    let e = mbs.assemble().unwrap_err().to_string();
    assert!(e.contains("takes 3 parameter values, found 1"), "{e}");
}

/// Two mass points on x, coupled by a spring between their x coordinates and held by one to a
/// ground coordinate: with Exudyn's ConnectorCoordinateSpringDamper, and with a user force
/// element between coordinates (its cubic term zero): the same force and derivatives, so the
/// same iterations and results to the bit; with the cubic term the motion differs.
#[test]
fn user_coordinate_spring_moves_as_exudyns_coordinate_spring_damper() {
    let run = |user: Option<f64>| {
        let mut mbs = MultibodySystem::new();
        let ground = mbs.add_node(joint::runtime::Node::point_ground([0.0; 3]));
        let mut coordinates = Vec::new();
        for (x, vx) in [(1.0, 0.0), (2.0, 2.0)] {
            // the second point starts moving
            let node = mbs.add_node(joint::runtime::Node::Point {
                name: String::new(),
                reference_coordinates: [x, 0.0, 0.0],
                initial_coordinates: [0.0; 3],
                initial_velocities: [vx, 0.0, 0.0],
            });
            mbs.add_object(Object::MassPoint {
                name: String::new(),
                mass: 1.5,
                node,
            });
            coordinates.push(mbs.add_marker(Marker::NodeCoordinate {
                name: String::new(),
                node,
                coordinate: 0,
            }));
        }
        let g = mbs.add_marker(Marker::NodeCoordinate {
            name: String::new(),
            node: ground,
            coordinate: 0,
        });
        let (k, d) = (300.0, 1.0);
        for markers in [[g, coordinates[0]], [coordinates[0], coordinates[1]]] {
            mbs.add_object(match user {
                Some(cubic) => Object::force::<CubicCoordinateSpring>(
                    markers,
                    cubic_coordinate_spring::Parameters {
                        stiffness: k,
                        cubic,
                        damping: d,
                    },
                ),
                None => Object::ConnectorCoordinateSpringDamper {
                    name: String::new(),
                    markers,
                    stiffness: k,
                    damping: d,
                    offset: 0.0,
                    active: true,
                },
            });
        }
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&settings(500)).unwrap();
        let x = sim
            .node_output(joint::runtime::NodeIndex(2), OutputVariable::Position)
            .unwrap();
        let f = sim
            .object_output(joint::runtime::ObjectIndex(3), OutputVariable::Force)
            .unwrap();
        let newton = sim.statistics.newton;
        (x, f, newton.iterations, newton.jacobians)
    };
    let (builtin, user, cubic) = (run(None), run(Some(0.0)), run(Some(5e4)));
    assert_eq!(builtin.0, user.0);
    assert_eq!(builtin.1, user.1);
    assert_eq!((builtin.2, builtin.3), (user.2, user.3));
    assert_eq!(user.1.len(), 1, "a scalar force between coordinates");
    assert!(
        largest(&builtin.0, &cubic.0) > 1e-3,
        "{builtin:?} {cubic:?}"
    );
}
