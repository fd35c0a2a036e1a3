//! Exudyn's TestModel sphericalJointTest.py: four rigid bodies (EP nodes) in a chain of
//! spherical joints, the first joint with constrainedAxes [0, 1, 1], gravity −9.81 in y,
//! generalized-α with spectralRadius 0.6, 1000 steps to t = 1.
//!
//! The last line of stdout is Exudyn's test value: Σ over the first 14 ODE2 coordinates of
//! |q + q_ref|.

use joint::runtime::{
    JointObject, Load, Marker, MultibodySystem, Node, Object, Simulation, SimulationSettings,
};

pub fn build() -> MultibodySystem {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let (mass, inertia, half) = (2.0, [6.0, 1.0, 6.0, 0.0, 0.0, 0.0], 0.3);
    let m_ground = mbs.add_marker(Marker::body_position(ground, [-half, 0.0, 0.0]));
    let mut previous = None;
    for i in 0..4 {
        let x = -half + 2.0 * half * i as f64;
        let node = mbs.add_node(Node::rigid_body_ep([x, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]));
        let body = mbs.add_object(Object::RigidBody {
            name: String::new(),
            mass,
            inertia,
            center_of_mass: [0.0; 3],
            node,
        });
        let m_mass = mbs.add_marker(Marker::body_mass(body));
        let joint = match previous {
            None => {
                let m_node = mbs.add_marker(Marker::node_position(node));
                Object::Joint(
                    JointObject::spherical([m_ground, m_node]).with_constrained_axes(&[0, 1, 1]),
                )
            }
            Some(prev) => {
                let m_prev = mbs.add_marker(Marker::body_position(prev, [half, 0.0, 0.1]));
                let m_this = mbs.add_marker(Marker::body_position(body, [-half, 0.0, 0.1]));
                Object::joint_spherical([m_prev, m_this])
            }
        };
        mbs.add_object(joint);
        mbs.add_load(Load::gravity(m_mass, [0.0, -9.81, 0.0]));
        previous = Some(body);
    }
    mbs
}

pub fn settings() -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 1000;
    s.time_integration.end_time = 1.0;
    s.time_integration.newton.use_modified_newton = true;
    s.time_integration.generalized_alpha.spectral_radius = 0.6;
    s
}

/// Σ_{i<14} |q_i + q_ref,i|
pub fn test_value(sim: &Simulation) -> f64 {
    (0..14)
        .map(|i| (sim.state().q[i] + sim.reference_coordinates()[i]).abs())
        .sum()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut sim = build().assemble()?;
    sim.solve_dynamic(&settings())?;
    let s = &sim.statistics();
    println!(
        "steps: {}, Newton iterations: {}, Jacobians: {}, solver time: {:.3} ms",
        s.steps,
        s.newton.iterations,
        s.newton.jacobians,
        s.solver_seconds * 1e3
    );
    println!("{:.16}", test_value(&sim));
    Ok(())
}
