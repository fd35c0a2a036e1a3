//! User force elements simulated against Exudyn's own connectors, in code and from model files.

use super::*;

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
                m
            };
            let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
            mbs.add_object(
                connectors::RigidBodySpringDamper {
                    stiffness: diagonal(k),
                    damping: diagonal(d),
                    rotation_marker0: identity,
                    rotation_marker1: identity,
                    offset: [0.0; 6],
                    intrinsic: false,
                }
                .between([m0, m1]),
            );
        }
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&settings(500)).unwrap();
        let angles = sim
            .body_output(body, [0.0; 3], OutputVariable::Rotation)
            .unwrap();
        let w = sim
            .body_output(body, [0.0; 3], OutputVariable::AngularVelocity)
            .unwrap();
        let newton = sim.statistics().newton;
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
        let newton = sim.statistics().newton;
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
            mbs.add_object(
                connectors::LinearSpringDamper {
                    stiffness: k,
                    damping: d,
                    axis_marker0: axis,
                    ..Default::default()
                }
                .between([m0, m1]),
            );
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
                None => joint::runtime::items::connectors::CoordinateSpringDamper {
                    stiffness: k,
                    damping: d,
                    offset: 0.0,
                }
                .between(markers),
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
        let newton = sim.statistics().newton;
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
