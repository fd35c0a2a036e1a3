//! Every bad input the builder and assemble can see gets a clear error naming the item and key
//! — never a panic.

use joint::runtime::{
    Error, JointObject, Load, Marker, MarkerIndex, MultibodySystem, Node, NodeIndex, Object,
    ObjectIndex, RigidBodyInertia, SimulationSettings, connectors,
};

fn message(mbs: &MultibodySystem) -> String {
    match mbs.assemble() {
        Ok(_) => panic!("assemble accepted a bad system"),
        Err(e) => e.to_string(),
    }
}

fn expect(mbs: &MultibodySystem, parts: &[&str]) {
    let m = message(mbs);
    for p in parts {
        assert!(m.contains(p), "message `{m}` does not mention `{p}`");
    }
}

/// Ground, one EP rigid body (object 1, node 0) and its mass marker (marker 0).
fn pendulum_parts() -> MultibodySystem {
    let mut mbs = MultibodySystem::new();
    mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.1, 0.1]);
    let node = mbs.add_node(Node::rigid_body_ep([0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]));
    let body = mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: inertia.mass,
        inertia: inertia.inertia_6d(),
        center_of_mass: [0.0; 3],
        node,
    });
    mbs.add_marker(Marker::body_mass(body));
    mbs
}

#[test]
fn joint_marker_number_out_of_range() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    mbs.add_object(Object::joint_spherical([g, MarkerIndex(7)]));
    expect(
        &mbs,
        &[
            "objects[2] (JointSpherical)",
            "markerNumbers",
            "marker number 7 does not exist",
        ],
    );
}

#[test]
fn marker_body_number_out_of_range() {
    let mut mbs = pendulum_parts();
    mbs.add_marker(Marker::body_position(ObjectIndex(9), [0.0; 3]));
    expect(
        &mbs,
        &[
            "markers[1] (BodyPosition)",
            "bodyNumber",
            "object number 9 does not exist",
        ],
    );
}

#[test]
fn rigid_body_node_number_out_of_range() {
    let mut mbs = pendulum_parts();
    mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: 1.0,
        inertia: [1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        center_of_mass: [0.0; 3],
        node: NodeIndex(3),
    });
    expect(
        &mbs,
        &[
            "objects[2] (RigidBody)",
            "nodeNumber",
            "node number 3 does not exist",
        ],
    );
}

#[test]
fn spherical_joint_on_a_marker_without_position() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    mbs.add_object(Object::joint_spherical([g, MarkerIndex(0)]));
    expect(
        &mbs,
        &[
            "objects[2] (JointSpherical)",
            "markerNumbers",
            "BodyMass",
            "gives no position",
        ],
    );
}

#[test]
fn constrained_axes_other_than_zero_and_one() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [-0.5, 0.0, 0.0]));
    mbs.add_object(Object::Joint(
        JointObject::spherical([g, b]).with_constrained_axes(&[1, 2, 1]),
    ));
    expect(
        &mbs,
        &[
            "objects[2] (JointSpherical)",
            "constrainedAxes",
            "entry 1 is 2",
        ],
    );
}

#[test]
fn non_unit_reference_euler_parameters() {
    let mut mbs = MultibodySystem::new();
    mbs.add_node(Node::rigid_body_ep([0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0]));
    expect(
        &mbs,
        &[
            "nodes[0] (RigidBodyEP)",
            "referenceCoordinates",
            "unit length",
        ],
    );
}

#[test]
fn negative_mass() {
    let mut mbs = MultibodySystem::new();
    let n = mbs.add_node(Node::point([0.0; 3]));
    mbs.add_object(Object::MassPoint {
        name: String::new(),
        mass: -1.0,
        node: n,
    });
    expect(&mbs, &["objects[0] (MassPoint)", "mass", "≥ 0", "-1"]);
}

#[test]
fn non_finite_local_position() {
    let mut mbs = pendulum_parts();
    mbs.add_marker(Marker::body_position(ObjectIndex(1), [f64::NAN, 0.0, 0.0]));
    expect(
        &mbs,
        &["markers[1] (BodyPosition)", "localPosition", "finite"],
    );
}

#[test]
fn body_rigid_marker_on_a_mass_point() {
    let mut mbs = MultibodySystem::new();
    let b = mbs
        .create_mass_point("", [0.0; 3], [0.0; 3], 1.0, [0.0; 3])
        .body;
    mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: b,
        local_position: [0.0; 3],
        local_rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    });
    expect(
        &mbs,
        &[
            "markers[0] (BodyRigid)",
            "bodyNumber",
            "MassPoint",
            "no orientation",
        ],
    );
}

#[test]
fn node_rigid_marker_on_a_point_node() {
    let mut mbs = MultibodySystem::new();
    let n = mbs.add_node(Node::point([0.0; 3]));
    mbs.add_marker(Marker::NodeRigid {
        name: String::new(),
        node: n,
        local_rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    });
    expect(
        &mbs,
        &["markers[0] (NodeRigid)", "nodeNumber", "no orientation"],
    );
}

#[test]
fn gravity_on_a_position_marker() {
    let mut mbs = pendulum_parts();
    let m = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_load(Load::gravity(m, [0.0, 0.0, -9.81]));
    expect(
        &mbs,
        &["loads[0] (MassProportional)", "markerNumber", "BodyMass"],
    );
}

#[test]
fn torque_on_a_position_marker() {
    let mut mbs = pendulum_parts();
    let m = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_load(Load::TorqueVector {
        name: String::new(),
        marker: m,
        load_vector: [0.0, 0.0, 1.0],
        body_fixed: false,
    });
    expect(
        &mbs,
        &["loads[0] (TorqueVector)", "markerNumber", "orientation"],
    );
}

#[test]
fn body_fixed_force_needs_an_orientation_marker() {
    let mut mbs = pendulum_parts();
    let m = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_load(Load::ForceVector {
        name: String::new(),
        marker: m,
        load_vector: [0.0, 0.0, 1.0],
        body_fixed: true,
    });
    expect(
        &mbs,
        &["loads[0] (ForceVector)", "bodyFixed", "orientation"],
    );
}

#[test]
fn two_bodies_on_one_node() {
    let mut mbs = MultibodySystem::new();
    let n = mbs.add_node(Node::point([0.0; 3]));
    for _ in 0..2 {
        mbs.add_object(Object::MassPoint {
            name: String::new(),
            mass: 1.0,
            node: n,
        });
    }
    expect(
        &mbs,
        &[
            "objects[1] (MassPoint)",
            "nodeNumber",
            "already belongs to object 0",
        ],
    );
}

#[test]
fn rigid_body_on_a_point_node() {
    let mut mbs = MultibodySystem::new();
    let n = mbs.add_node(Node::point([0.0; 3]));
    mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: 1.0,
        inertia: [1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        center_of_mass: [0.0; 3],
        node: n,
    });
    expect(
        &mbs,
        &["objects[0] (RigidBody)", "nodeNumber", "rigid-body node"],
    );
}

#[test]
fn joint_between_two_ground_markers() {
    let mut mbs = MultibodySystem::new();
    let g = mbs.add_object(Object::ground());
    let a = mbs.add_marker(Marker::body_position(g, [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(g, [1.0, 0.0, 0.0]));
    mbs.add_object(Object::joint_spherical([a, b]));
    expect(
        &mbs,
        &["objects[1] (JointSpherical)", "markerNumbers", "ground"],
    );
}

#[test]
fn singular_system_names_the_redundant_joint() {
    // Two identical spherical joints on one mass point: the second one's equations are
    // redundant, so the iteration matrix is singular in its rows.
    let mut mbs = MultibodySystem::new();
    let g = mbs.add_object(Object::ground());
    let body = mbs
        .create_mass_point("", [1.0, 0.0, 0.0], [0.0; 3], 1.0, [0.0, 0.0, -9.81])
        .body;
    let mg = mbs.add_marker(Marker::body_position(g, [1.0, 0.0, 0.0]));
    let mb = mbs.add_marker(Marker::body_position(body, [0.0; 3]));
    mbs.add_object(Object::joint_spherical([mg, mb]));
    mbs.add_object(Object::joint_spherical([mg, mb]));
    let mut sim = mbs.assemble().unwrap();
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 10;
    let e = sim.solve_dynamic(&s).unwrap_err();
    assert!(matches!(e, Error::SingularSystem { .. }), "{e}");
    let m = e.to_string();
    assert!(m.contains("objects[3] (JointSpherical)"), "{m}");
    assert!(
        m.contains("markers[1] (BodyPosition)") && m.contains("markers[2] (BodyPosition)"),
        "{m}"
    );
}

#[test]
fn singular_system_names_the_massless_node() {
    let mut mbs = MultibodySystem::new();
    mbs.create_mass_point("", [0.0; 3], [0.0; 3], 0.0, [0.0; 3]);
    let mut sim = mbs.assemble().unwrap();
    let e = sim
        .solve_dynamic(&SimulationSettings::default())
        .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("nodes[0] (Point)"), "{m}");
}

#[test]
fn index2_constraints_need_newmark() {
    let mbs = pendulum_parts();
    let mut sim = mbs.assemble().unwrap();
    let mut s = SimulationSettings::default();
    s.time_integration.generalized_alpha.use_index2_constraints = true;
    let m = sim.solve_dynamic(&s).unwrap_err().to_string();
    assert!(
        m.contains("useIndex2Constraints") && m.contains("useNewmark"),
        "{m}"
    );
}

#[test]
fn end_time_before_start_time() {
    let mbs = pendulum_parts();
    let mut sim = mbs.assemble().unwrap();
    let mut s = SimulationSettings::default();
    s.time_integration.end_time = -1.0;
    let m = sim.solve_dynamic(&s).unwrap_err().to_string();
    assert!(m.contains("endTime"), "{m}");
}

#[test]
fn create_spherical_joint_with_a_non_body() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    let joint = mbs.add_object(Object::joint_spherical([g, b]));
    let e = mbs
        .create_spherical_joint(
            "j",
            [ObjectIndex(0), joint],
            [0.0; 3],
            [1, 1, 1],
            joint::runtime::joints::JointVisualization::of(
                &joint::runtime::joints::JOINT_SPHERICAL,
            ),
        )
        .unwrap_err();
    let m = e.to_string();
    assert!(m.contains("bodyNumbers") && m.contains("not a body"), "{m}");
}

#[test]
fn non_finite_local_rotation() {
    let mut mbs = MultibodySystem::new();
    let g = mbs.add_object(joint::runtime::Object::ground());
    mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: g,
        local_position: [0.0; 3],
        local_rotation: [[f64::NAN, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    });
    expect(&mbs, &["markers[0] (BodyRigid)", "localHT", "finite"]);
}

/// A run that would keep more sensor rows than the storage limit is refused before it starts,
/// naming the setting, and the simulation is left as it was.
#[test]
fn sensor_rows_beyond_the_storage_limit_are_refused_before_the_run() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [-0.5, 0.0, 0.0]));
    let joint = mbs.add_object(Object::joint_spherical([g, b]));
    mbs.add_sensor(joint::runtime::Sensor::object(
        joint,
        joint::runtime::OutputVariable::Force,
    ));
    let mut sim = mbs.assemble().unwrap();
    let mut settings = SimulationSettings::default();
    settings.time_integration.number_of_steps = 1_000_000_000_000;
    settings.time_integration.end_time = 1e9;
    let before = (sim.state().time, sim.state().q.clone());
    let e = sim.solve_dynamic(&settings).unwrap_err();
    assert!(
        matches!(&e, Error::Setting { key, .. } if key == "timeIntegration.numberOfSteps"),
        "{e}"
    );
    assert!(e.to_string().contains("storage limit"), "{e}");
    assert_eq!((sim.state().time, sim.state().q.clone()), before);
    // a limit set by hand: a row every 0.01 s over 1 s is at most 103 rows of [t, λ0, λ1, λ2],
    // 3.2 KiB
    settings.time_integration.number_of_steps = 1000;
    settings.time_integration.end_time = 1.0;
    settings.storage_limit = Some(3 * 1024);
    assert!(sim.solve_dynamic(&settings).is_err());
    settings.storage_limit = Some(4 * 1024);
    sim.solve_dynamic(&settings).unwrap();
    assert_eq!(
        sim.sensor_rows(joint::runtime::SensorIndex(0))
            .unwrap()
            .len(),
        101
    );
}

#[test]
fn coordinate_spring_damper_on_a_marker_without_a_coordinate() {
    let mut mbs = pendulum_parts();
    let c = mbs.add_marker(Marker::NodeCoordinate {
        name: String::new(),
        node: NodeIndex(0),
        coordinate: 2,
    });
    mbs.add_object(
        joint::runtime::items::connectors::CoordinateSpringDamper {
            stiffness: 1.0,
            damping: 0.0,
            offset: 0.0,
        }
        .between([MarkerIndex(0), c]),
    );
    expect(
        &mbs,
        &[
            "objects[2] (ConnectorCoordinateSpringDamper)",
            "markerNumbers[0]",
            "BodyMass",
            "expected a coordinate marker",
        ],
    );
}

#[test]
fn connector_gravity_with_a_negative_mass() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_object(
        connectors::Gravity {
            gravitational_constant: 1.0,
            mass0: 1.0,
            mass1: -2.0,
            min_distance_regularization: 0.0,
        }
        .between([g, b]),
    );
    expect(
        &mbs,
        &["objects[2] (ConnectorGravity)", "mass1", "negative", "-2"],
    );
}

/// ObjectMass1D needs a Node1D; body markers on it are not supported yet (a clear error, not
/// "not a body").
#[test]
fn mass_1d_on_a_point_node_and_a_body_marker_on_it() {
    let mut mbs = MultibodySystem::new();
    let point = mbs.add_node(Node::point([0.0; 3]));
    let mass = |node| Object::Mass1D {
        name: String::new(),
        mass: 1.0,
        node,
        reference_position: [0.0; 3],
        reference_rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    };
    mbs.add_object(mass(point));
    expect(
        &mbs,
        &[
            "objects[0] (Mass1D)",
            "nodeNumber",
            "Point",
            "needs a Node1D",
        ],
    );
    let mut mbs = MultibodySystem::new();
    let n = mbs.add_node(Node::Node1D {
        name: String::new(),
        reference_coordinates: [0.0],
        initial_coordinates: [0.0],
        initial_velocities: [0.0],
    });
    let body = mbs.add_object(mass(n));
    mbs.add_marker(Marker::body_position(body, [0.0; 3]));
    expect(
        &mbs,
        &[
            "markers[0] (BodyPosition)",
            "Mass1D",
            "not supported yet",
            "MarkerNodeCoordinate",
        ],
    );
}

#[test]
fn torsional_spring_damper_on_a_marker_without_orientation() {
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_position(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_object(
        joint::runtime::items::connectors::TorsionalSpringDamper {
            stiffness: 1.0,
            damping: 0.0,
            offset: 0.0,
            velocity_offset: 0.0,
            torque: 0.0,
            rotation_marker0: joint::runtime::nalgebra::Matrix3::identity(),
            rotation_marker1: joint::runtime::nalgebra::Matrix3::identity(),
            continuous: false,
        }
        .between([g, b], None),
    );
    expect(
        &mbs,
        &[
            "objects[2] (ConnectorTorsionalSpringDamper)",
            "markerNumbers[0]",
            "BodyPosition",
            "no orientation",
        ],
    );
}

/// ConnectorRigidBodySpringDamper on a position marker, and with a stiffness that is not
/// finite.
#[test]
fn rigid_body_spring_damper_on_a_marker_without_orientation() {
    let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let connector = |markers, stiffness| {
        connectors::RigidBodySpringDamper {
            stiffness,
            rotation_marker0: identity,
            ..Default::default()
        }
        .between(markers)
    };
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_rigid(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_object(connector([g, b], [[1.0; 6]; 6]));
    expect(
        &mbs,
        &[
            "objects[2] (ConnectorRigidBodySpringDamper)",
            "markerNumbers[1]",
            "BodyPosition",
            "no orientation",
        ],
    );
    let mut mbs = pendulum_parts();
    let g = mbs.add_marker(Marker::body_rigid(ObjectIndex(0), [0.0; 3]));
    let b = mbs.add_marker(Marker::body_rigid(ObjectIndex(1), [0.0; 3]));
    let mut k = [[0.0; 6]; 6];
    k[2][4] = f64::NAN;
    mbs.add_object(connector([g, b], k));
    expect(
        &mbs,
        &["objects[2] (ConnectorRigidBodySpringDamper)", "stiffness"],
    );
}

/// ConnectorCoordinate (a generated joint with Coordinate markers) on a position marker.
#[test]
fn coordinate_constraint_on_a_position_marker() {
    let mut mbs = pendulum_parts();
    let c = mbs.add_marker(Marker::NodeCoordinate {
        name: String::new(),
        node: NodeIndex(0),
        coordinate: 1,
    });
    let p = mbs.add_marker(Marker::body_position(ObjectIndex(1), [0.0; 3]));
    mbs.add_object(Object::Joint(JointObject::coordinate_constraint(
        [c, p],
        0.0,
        1.0,
    )));
    expect(
        &mbs,
        &[
            "objects[2] (ConnectorCoordinate)",
            "markerNumbers[1]",
            "BodyPosition",
            "expected a coordinate marker",
        ],
    );
}
