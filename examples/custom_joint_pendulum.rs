//! The seed's mini example with a joint defined here, outside the runtime, from its position
//! level only: `MySpherical` keeps the two markers' positions together, and the compiler derives
//! its velocity level, Jacobians and kernels. The runtime simulates it exactly as it simulates
//! its own ObjectJointSpherical: the last line of stdout is the body's z position after 1 s,
//! which equals the built-in joint's run (and Exudyn's −0.0037861921836557311).

use joint::runtime::{
    EULER_PARAMETERS_0, Load, Marker, MultibodySystem, Node, NodeIndex, Object, OutputVariable,
    RigidBodyInertia, SimulationSettings,
};

joint::joint! {
    /// A spherical joint: the markers' positions coincide.
    pub joint MySpherical {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - m0.position;
    }
}

/// The seed's mini example with `MySpherical` in place of ObjectJointSpherical; the node.
pub fn build() -> (MultibodySystem, NodeIndex) {
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
    let m_mass = mbs.add_marker(Marker::body_mass(body));
    mbs.add_load(Load::gravity(m_mass, [0.0, 0.0, -9.81]));
    let m_ground = mbs.add_marker(Marker::body_position(ground, [0.0, 0.0, 0.0]));
    let m_body = mbs.add_marker(Marker::body_position(body, [-0.5, 0.0, 0.0]));
    // the user's joint, added as a built-in one is
    mbs.add_object(Object::joint::<MySpherical>(
        [m_ground, m_body],
        my_spherical::Parameters {},
    ));
    (mbs, node)
}

/// The seed's settings: the defaults, with 1000 steps.
pub fn settings() -> SimulationSettings {
    let mut settings = SimulationSettings::default();
    settings.time_integration.number_of_steps = 1000;
    settings
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mbs, node) = build();
    let mut sim = mbs.assemble()?;
    sim.solve_dynamic(&settings())?;
    let stats = &sim.statistics();
    println!(
        "steps: {}, Newton iterations: {}, Jacobians: {}, kernel: {}",
        stats.steps,
        stats.newton.iterations,
        stats.newton.jacobians,
        sim.joint_kernels()[0].1
    );
    let z = sim.node_output(node, OutputVariable::Position)?[2];
    println!("{z:.17}");
    Ok(())
}
