//! The compiler's derivatives of force elements against central differences and closed forms.

use super::*;

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
