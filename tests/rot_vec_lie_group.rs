//! NodeRigidBodyRotVecLG against the same body on Tait–Bryan angles: `create_rigid_body` with
//! each parametrization, the same motion (a spinning top with its centre of mass off the node,
//! under gravity, no joint) integrated by RK44 with small steps — the Lie-group integration and
//! the EP integration are independent discretizations of the same equations, so their results
//! agree to the integration error — and the node's velocity outputs at the start are the
//! ω0 asked for. Exudyn's own numbers for RotVecLG are in tests/reference_cases (rotvec_lg_*).

use joint::runtime::settings::DynamicSolverType;
use joint::runtime::{
    MultibodySystem, NodeIndex, ObjectIndex, OutputVariable, RigidBodyInertia, RigidBodyOptions,
    RigidNodeType, SimulationSettings,
};

fn top(node_type: RigidNodeType) -> (MultibodySystem, ObjectIndex) {
    let mut mbs = MultibodySystem::new();
    let inertia = RigidBodyInertia::new(
        2.0,
        [[0.02, 0.0, 0.0], [0.0, 0.03, 0.0], [0.0, 0.0, 0.05]],
        [0.0, 0.0, 0.1],
        true,
    );
    let mut o = RigidBodyOptions::new(inertia);
    o.reference_position = [0.1, -0.2, 0.3];
    let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.4, 0.5);
    o.reference_rotation_matrix = std::array::from_fn(|i| std::array::from_fn(|j| r[(i, j)]));
    o.initial_velocity = [0.2, 0.0, -0.1];
    o.initial_angular_velocity = [1.0, -2.0, 30.0];
    o.gravity = [0.0, 0.0, -9.81];
    o.node_type = node_type;
    let body = mbs.create_rigid_body(&o).body;
    (mbs, body)
}

#[test]
fn rot_vec_lie_group_body_moves_as_the_tait_bryan_body() {
    let mut settings = SimulationSettings::default();
    settings.time_integration.solver_type = DynamicSolverType::RK44;
    settings.time_integration.end_time = 0.5;
    settings.time_integration.number_of_steps = 5000;
    let mut results = Vec::new();
    for node_type in [
        RigidNodeType::RotationRxyz,
        RigidNodeType::RotationRotationVector,
    ] {
        let (mbs, body) = top(node_type);
        let mut sim = mbs.assemble().unwrap();
        let w0 = sim
            .node_output(NodeIndex(0), OutputVariable::AngularVelocity)
            .unwrap();
        for (a, b) in w0.iter().zip([1.0, -2.0, 30.0]) {
            assert!((a - b).abs() < 1e-13, "{node_type:?}: ω0 = {w0:?}");
        }
        sim.solve_dynamic(&settings).unwrap();
        let point = sim
            .body_output(body, [0.05, 0.02, 0.2], OutputVariable::Position)
            .unwrap();
        let rotation = sim
            .node_output(NodeIndex(0), OutputVariable::RotationMatrix)
            .unwrap();
        let omega = sim
            .node_output(NodeIndex(0), OutputVariable::AngularVelocity)
            .unwrap();
        results.push((point, rotation, omega));
    }
    let (ep, lg) = (&results[0], &results[1]);
    let diff = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    };
    assert!(diff(&ep.0, &lg.0) < 1e-9, "point: {:?} vs {:?}", ep.0, lg.0);
    assert!(
        diff(&ep.1, &lg.1) < 1e-9,
        "rotation: {:?} vs {:?}",
        ep.1,
        lg.1
    );
    assert!(diff(&ep.2, &lg.2) < 1e-7, "ω: {:?} vs {:?}", ep.2, lg.2);
    // the body turned many radians: the rotation vector wrapped, the motion did not
    assert!(diff(&ep.1, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]) > 0.5);
}
