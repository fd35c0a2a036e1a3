//! A joint Exudyn does not have, on rigid markers, defined outside the runtime from its position
//! level only: `Cylindrical` (examples/custom_joints/mod.rs) lets a rigid body slide along and
//! turn about the x axis of a ground frame. The oracle is the same mechanism with Exudyn's
//! ObjectJointGeneric, `constrainedAxes = [0, 1, 1, 0, 1, 1]` (x translation and x rotation
//! free), solved by the same runtime: the two runs' coordinates agree to rounding.
//!
//! The body is a 1 × 0.2 × 0.2 cuboid with its centre 0.5 below the axis, under gravity with a
//! component along the axis, started sliding (0.5 m/s) and spinning (2 rad/s) about it.
//! Prints the largest coordinate difference between the two runs; the last line is the
//! custom joint's slide (its named output `slide`) after 1 s.

#[allow(dead_code)]
pub mod custom_joints;

use custom_joints::Cylindrical;
use joint::runtime::{
    JointObject, Load, Marker, MultibodySystem, Node, NodeIndex, Object, ObjectIndex,
    OutputVariable, RigidBodyInertia, Simulation, SimulationSettings,
};

const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// The mechanism with `joint` between a ground frame and the body: (system, body node, joint).
pub fn build(
    joint: impl FnOnce([joint::runtime::MarkerIndex; 2]) -> Object,
) -> (MultibodySystem, NodeIndex, ObjectIndex) {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.2, 0.2]);
    // at rest on the axis' level minus 0.5 in z; θ̇ = ½ Gᵀω for ω = (2, 0, 0) at θ = (1, 0, 0, 0)
    let node = mbs.add_node(Node::RigidBodyEP {
        name: String::new(),
        reference_coordinates: [0.0, 0.0, -0.5, 1.0, 0.0, 0.0, 0.0],
        initial_coordinates: [0.0; 7],
        initial_velocities: [0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        add_constraint_equation: true,
    });
    let body = mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: inertia.mass,
        inertia: inertia.inertia_6d(),
        center_of_mass: [0.0; 3],
        node,
    });
    let m_mass = mbs.add_marker(Marker::body_mass(body));
    mbs.add_load(Load::gravity(m_mass, [2.0, 0.0, -9.81]));
    let on_ground = mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: ground,
        local_position: [0.0; 3],
        local_rotation: IDENTITY,
    });
    let on_body = mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body,
        local_position: [0.0, 0.0, 0.5],
        local_rotation: IDENTITY,
    });
    let joint = mbs.add_object(joint([on_ground, on_body]));
    (mbs, node, joint)
}

pub fn settings() -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 1000;
    s.time_integration.end_time = 1.0;
    s
}

/// Both runs: the custom joint's and JointGeneric's.
pub fn run() -> Result<(Simulation, Simulation, NodeIndex, ObjectIndex), joint::runtime::Error> {
    let (custom, node, joint) = build(|m| Object::joint::<Cylindrical>(m, Default::default()));
    let (generic, _, _) = build(|m| {
        Object::Joint(JointObject::generic(
            m,
            [0, 1, 1, 0, 1, 1],
            IDENTITY,
            IDENTITY,
        ))
    });
    let mut a = custom.assemble()?;
    a.solve_dynamic(&settings())?;
    let mut b = generic.assemble()?;
    b.solve_dynamic(&settings())?;
    Ok((a, b, node, joint))
}

/// The largest difference between two runs' final coordinates.
pub fn largest_difference(a: &Simulation, b: &Simulation) -> f64 {
    a.state()
        .q
        .iter()
        .zip(&b.state().q)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (custom, generic, node, joint) = run()?;
    for (name, sim) in [("Cylindrical", &custom), ("JointGeneric", &generic)] {
        let s = &sim.statistics();
        let p = sim.node_output(node, OutputVariable::Position)?;
        println!(
            "{name:>12}: {} Newton iterations, {} Jacobians, body at [{:.9}, {:.9}, {:.9}]",
            s.newton.iterations, s.newton.jacobians, p[0], p[1], p[2]
        );
    }
    println!(
        "largest coordinate difference: {:.2e}",
        largest_difference(&custom, &generic)
    );
    let slide = custom.object_output(joint, custom_joints::cylindrical::outputs::SLIDE)?[0];
    println!("{slide:.15}");
    Ok(())
}
