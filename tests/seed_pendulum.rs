//! The seed's mini example against pip Exudyn 1.13.6.

use joint::runtime::{
    EULER_PARAMETERS_0, Load, Marker, MultibodySystem, Node, NodeIndex, Object, OutputVariable,
    RigidBodyInertia, SimulationSettings,
};

fn seed_pendulum() -> (MultibodySystem, NodeIndex) {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.1, 0.1]);
    let [e0, e1, e2, e3] = EULER_PARAMETERS_0;
    let node = mbs.add_node(Node::rigid_body_ep([0.5, 0.0, 0.0, e0, e1, e2, e3]));
    let body = mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: inertia.mass,
        inertia: inertia.inertia_6d(),
        center_of_mass: [0.0; 3],
        node,
    });
    let m = mbs.add_marker(Marker::body_mass(body));
    mbs.add_load(Load::gravity(m, [0.0, 0.0, -9.81]));
    let m0 = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
    let m1 = mbs.add_marker(Marker::body_position(body, [-0.5, 0.0, 0.0]));
    mbs.add_object(Object::joint_spherical([m0, m1]));
    (mbs, node)
}

fn settings() -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 1000;
    s
}

#[test]
fn seed_pendulum_height_after_one_second_matches_exudyn() {
    let (mbs, node) = seed_pendulum();
    let mut sim = mbs.assemble().unwrap();
    sim.solve_dynamic(&settings()).unwrap();
    let z = sim.node_output(node.0, OutputVariable::Position).unwrap()[2];
    let exudyn = -0.0037861921836557311;
    assert!((z - exudyn).abs() < 1e-10, "z = {z:.17}, Exudyn {exudyn:.17}, error {:e}", z - exudyn);
}

#[test]
fn seed_pendulum_newton_iterations_equal_exudyns() {
    let (mbs, _) = seed_pendulum();
    let mut sim = mbs.assemble().unwrap();
    sim.solve_dynamic(&settings()).unwrap();
    // pip Exudyn 1.13.6: newtonStepsCount 6669, newtonJacobiCount 209
    assert_eq!(sim.statistics.newton.iterations, 6669);
    assert_eq!(sim.statistics.newton.jacobians, 209);
    assert_eq!(sim.statistics.steps, 1000);
}
