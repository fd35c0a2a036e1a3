//! A joint Exudyn does not have, defined outside the runtime from its position level only,
//! simulated by the runtime with its generalized-α solver: `PointOnPlane`
//! (examples/custom_joints/mod.rs) keeps a mass point on an inclined ground plane. The oracle is
//! the analytic motion: the point slides with the tangential part of gravity,
//! `x(t) = x0 + v0 t + ½ g_t t²`, `g_t = g − (g·n) n`, which the Newmark update integrates exactly
//! (constant acceleration); the runtime's result agrees with it to the Newton tolerance.
//!
//! The plane is a ground frame tilted by α about y (normal `n = (sin α, 0, cos α)`); the point
//! starts on it at rest along the slope and moving at 0.3 m/s across it (along y). Prints the
//! position after 1 s beside the analytic one; the last line is the largest difference.

#[allow(dead_code)]
mod custom_joints;

use custom_joints::{PointOnPlane, point_on_plane};
use joint::runtime::{
    Load, Marker, MultibodySystem, Node, NodeIndex, Object, OutputVariable, Sensor, Simulation,
    SimulationSettings,
};

const G: [f64; 3] = [0.0, 0.0, -9.81];
const X0: [f64; 3] = [0.2, -0.1, 0.0];
const V0: [f64; 3] = [0.0, 0.3, 0.0];

/// The incline of slope `alpha` with a 2 kg point on it: (system, the point's node).
pub fn build(alpha: f64) -> (MultibodySystem, NodeIndex) {
    let mut mbs = MultibodySystem::new();
    let (s, c) = alpha.sin_cos();
    let ground = mbs.add_object(Object::Ground {
        name: "incline".into(),
        reference_position: [0.0; 3],
        reference_rotation: [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]],
    });
    // the point starts on the plane: X0 in the plane's frame
    let start = [c * X0[0] + s * X0[2], X0[1], -s * X0[0] + c * X0[2]];
    let node = mbs.add_node(Node::Point {
        name: "point".into(),
        reference_coordinates: start,
        initial_coordinates: [0.0; 3],
        initial_velocities: V0,
    });
    let point = mbs.add_object(Object::MassPoint {
        name: String::new(),
        mass: 2.0,
        node,
    });
    let m_mass = mbs.add_marker(Marker::body_mass(point));
    mbs.add_load(Load::gravity(m_mass, G));
    let on_plane = mbs.add_marker(Marker::BodyRigid {
        name: String::new(),
        body: ground,
        local_position: [0.0; 3],
        local_rotation: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    });
    let on_point = mbs.add_marker(Marker::body_position(point, [0.0; 3]));
    let joint = mbs.add_object(Object::joint::<PointOnPlane>(
        [on_plane, on_point],
        point_on_plane::Parameters {
            normal: [0.0, 0.0, 1.0],
        },
    ));
    // the joint's named output, as a sensor
    mbs.add_sensor(Sensor::object(
        joint,
        custom_joints::point_on_plane::outputs::LOCAL_POSITION,
    ));
    (mbs, node)
}

pub fn settings() -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 1000;
    s.time_integration.end_time = 1.0;
    s
}

/// The exact position at time t.
pub fn analytic_position(alpha: f64, t: f64) -> [f64; 3] {
    let (s, c) = alpha.sin_cos();
    let n = [s, 0.0, c];
    let gn: f64 = (0..3).map(|i| G[i] * n[i]).sum();
    let start = [c * X0[0] + s * X0[2], X0[1], -s * X0[0] + c * X0[2]];
    std::array::from_fn(|i| start[i] + V0[i] * t + 0.5 * (G[i] - gn * n[i]) * t * t)
}

pub fn run(alpha: f64) -> Result<(Simulation, NodeIndex), joint::runtime::Error> {
    let (mbs, node) = build(alpha);
    let mut sim = mbs.assemble()?;
    sim.solve_dynamic(&settings())?;
    Ok((sim, node))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let alpha = 0.3;
    let (sim, node) = run(alpha)?;
    let p = sim.node_output(node, OutputVariable::Position)?;
    let exact = analytic_position(alpha, 1.0);
    println!("position after 1 s: {p:?}");
    println!("analytic:           {exact:?}");
    let s = &sim.statistics();
    println!(
        "{} Newton iterations, {} Jacobians, kernel {}",
        s.newton.iterations,
        s.newton.jacobians,
        sim.joint_kernels()[0].1
    );
    let error = p
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    println!("{error:.3e}");
    Ok(())
}
