//! Exudyn's Newton Jacobian (the default: no geometric stiffness from constraints) against the
//! opt-in exact constraint Jacobian (`newton.exact_constraint_jacobian`: ∂(C_qᵀλ)/∂q generated
//! for the joints, 2λ·I for the Euler-parameter constraints), on the seed pendulum and on a
//! 10-body chain of spherical joints. Prints iterations per step, Jacobians and time per step.

use joint::runtime::{
    EULER_PARAMETERS_0, Load, Marker, MultibodySystem, Node, Object, RigidBodyInertia, Simulation,
    SimulationSettings,
};

/// N rigid bars (EP nodes) hanging from ground by spherical joints at their ends; N = 1 is the
/// seed pendulum.
pub fn chain(n: usize) -> MultibodySystem {
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.1, 0.1]);
    let [e0, e1, e2, e3] = EULER_PARAMETERS_0;
    let mut previous = mbs.add_marker(Marker::body_position(ground, [0.0; 3]));
    for i in 0..n {
        let node = mbs.add_node(Node::rigid_body_ep([
            0.5 + i as f64,
            0.0,
            0.0,
            e0,
            e1,
            e2,
            e3,
        ]));
        let body = mbs.add_object(Object::RigidBody {
            name: String::new(),
            mass: inertia.mass,
            inertia: inertia.inertia_6d(),
            center_of_mass: [0.0; 3],
            node,
        });
        let m = mbs.add_marker(Marker::body_mass(body));
        mbs.add_load(Load::gravity(m, [0.0, 0.0, -9.81]));
        let left = mbs.add_marker(Marker::body_position(body, [-0.5, 0.0, 0.0]));
        mbs.add_object(Object::joint_spherical([previous, left]));
        previous = mbs.add_marker(Marker::body_position(body, [0.5, 0.0, 0.0]));
    }
    mbs
}

pub fn run(n: usize, exact: bool, modified: bool) -> Simulation {
    let mut sim = chain(n).assemble().expect("valid chain");
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = 1000;
    s.time_integration.newton.exact_constraint_jacobian = exact;
    s.time_integration.newton.use_modified_newton = modified;
    sim.solve_dynamic(&s).expect("converges");
    sim
}

#[allow(dead_code)]
fn main() {
    println!(
        "{:>7} {:>9} {:>9} {:>11} {:>9} {:>10} {:>12}",
        "bodies", "Newton", "Jacobian", "iterations", "per step", "Jacobians", "µs per step"
    );
    for (n, modified) in [(1, true), (1, false), (10, true), (10, false)] {
        let mut finals = Vec::new();
        for exact in [false, true] {
            let best = (0..5)
                .map(|_| run(n, exact, modified))
                .min_by(|a, b| {
                    a.statistics()
                        .solver_seconds
                        .total_cmp(&b.statistics().solver_seconds)
                })
                .expect("runs");
            let st = &best.statistics();
            println!(
                "{:>7} {:>9} {:>9} {:>11} {:>9.2} {:>10} {:>12.2}",
                n,
                if modified { "modified" } else { "full" },
                if exact { "exact" } else { "Exudyn" },
                st.newton.iterations,
                st.newton.iterations as f64 / st.steps as f64,
                st.newton.jacobians,
                st.solver_seconds / st.steps as f64 * 1e6
            );
            finals.push(best.state().q.clone());
        }
        let d = finals[0]
            .iter()
            .zip(&finals[1])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        println!("{:>7} max |Δq| between the two Jacobians: {d:.1e}", n);
    }
}
