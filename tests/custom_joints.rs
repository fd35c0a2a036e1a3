//! Joints defined outside the runtime, simulated by it exactly as its own: each against an
//! independent oracle.

// Each example includes the shared custom joints (examples/custom_joints/mod.rs) itself.
#![allow(clippy::duplicate_mod)]

#[allow(dead_code)]
#[path = "../examples/custom_joint_pendulum.rs"]
mod pendulum;

use joint::runtime::{Object, OutputVariable};

/// The seed's mini example with `MySpherical` (position level only) is the built-in joint's
/// run to the bit, and Exudyn's: z(1 s), Newton iterations and Jacobians.
#[test]
fn custom_spherical_joint_runs_the_seed_example_as_exudyn_does() {
    let (mbs, node) = pendulum::build();
    let mut sim = mbs.assemble().unwrap();
    sim.solve_dynamic(&pendulum::settings()).unwrap();
    let z = sim.node_output(node, OutputVariable::Position).unwrap()[2];
    let exudyn = -0.003_786_192_183_655_731; // pip Exudyn 1.13.6: −0.0037861921836557311
    assert!(
        (z - exudyn).abs() < 1e-10,
        "z = {z:.17}, Exudyn {exudyn:.17}"
    );
    // pip Exudyn 1.13.6: newtonStepsCount 6669, newtonJacobiCount 209
    assert_eq!(sim.statistics().newton.iterations, 6669);
    assert_eq!(sim.statistics().newton.jacobians, 209);
    assert_eq!(sim.joint_kernels()[0].1, "my_spherical::marker_level");

    // the same model with ObjectJointSpherical: the same bits
    let (mut mbs, _) = pendulum::build();
    let joint = mbs.objects.len() - 1;
    let Object::Joint(custom) = &mbs.objects[joint] else {
        panic!("the last object is the joint");
    };
    mbs.objects[joint] = Object::joint_spherical(custom.markers);
    let mut built_in = mbs.assemble().unwrap();
    built_in.solve_dynamic(&pendulum::settings()).unwrap();
    let zb = built_in
        .node_output(node, OutputVariable::Position)
        .unwrap()[2];
    assert_eq!(
        z.to_bits(),
        zb.to_bits(),
        "custom {z:.17} vs built-in {zb:.17}"
    );
    assert_eq!(sim.state().q, built_in.state().q);
}

#[allow(dead_code)]
#[path = "../examples/cylindrical_joint.rs"]
mod cylindrical;

/// `Cylindrical` (rigid markers, position level only) against Exudyn's JointGeneric with
/// `constrainedAxes = [0, 1, 1, 0, 1, 1]` on the same mechanism, and the slide against the
/// axial motion, which gravity's axial component makes uniformly accelerated: 0.5 t + t².
#[test]
fn cylindrical_joint_is_joint_generic_with_x_free() {
    let (custom, generic, node, joint) = cylindrical::run().unwrap();
    let d = cylindrical::largest_difference(&custom, &generic);
    assert!(d <= 1e-10, "largest coordinate difference {d:e}");
    let p = custom.node_output(node, OutputVariable::Position).unwrap();
    assert!((p[0] - 1.5).abs() < 1e-9, "x(1 s) = {}", p[0]);
    // a named output by its generated constant (a misspelt name does not compile)
    let slide = custom
        .object_output(
            joint,
            cylindrical::custom_joints::cylindrical::outputs::SLIDE,
        )
        .unwrap();
    assert!((slide[0] - 1.5).abs() < 1e-9, "slide {slide:?}");
    // the joint turns the body about the axis: not a trivial motion
    assert!(p[1].abs() > 1e-3, "y(1 s) = {}", p[1]);
    // generic outputs: λ per row, the residuals per row
    let force = custom.object_output(joint, OutputVariable::Force).unwrap();
    assert_eq!(force.len(), 4);
    assert!(force.iter().any(|f| f.abs() > 1.0), "{force:?}");
    let residual = custom
        .object_output(joint, OutputVariable::Displacement)
        .unwrap();
    assert!(residual.iter().all(|r| r.abs() < 1e-10), "{residual:?}");
}

#[allow(dead_code)]
#[path = "../examples/sliding_on_incline.rs"]
mod incline;

/// `PointOnPlane` (position level only) against the analytic motion down a frictionless
/// incline, for three slopes; and its named output, a sensor, against the same motion in the
/// plane's frame.
#[test]
fn point_on_plane_follows_the_analytic_incline_motion() {
    for alpha in [0.0, 0.3, 1.1] {
        let (sim, node) = incline::run(alpha).unwrap();
        let p = sim.node_output(node, OutputVariable::Position).unwrap();
        let exact = incline::analytic_position(alpha, 1.0);
        for k in 0..3 {
            assert!(
                (p[k] - exact[k]).abs() < 1e-10,
                "α = {alpha}: x[{k}] = {}, analytic {}",
                p[k],
                exact[k]
            );
        }
        // the sensor's last row: time, then the point in the plane's frame (z = 0 on it)
        let last = sim
            .sensor_rows(joint::runtime::SensorIndex(0))
            .unwrap()
            .last()
            .expect("the sensor recorded rows");
        assert!((last[0] - 1.0).abs() < 1e-12);
        assert!(
            last[3].abs() < 1e-10,
            "α = {alpha}: off the plane by {}",
            last[3]
        );
    }
}

/// A joint type whose narrower definition does not take its parameters is refused at assembly
/// with a message naming the item and both definitions, not a panic in a kernel.
#[test]
fn a_narrow_definition_with_other_parameters_is_refused() {
    use joint::runtime::items::joints::{Axes, JOINT_GENERIC, Narrow, generic_joint_rows};
    use joint::runtime::{JointObject, Object, kernels::spherical};
    const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    // Δp rows only, but the spherical joint has no frame parameters
    static NARROW: [Narrow; 1] = [Narrow {
        definition: &spherical::DEFINITION,
        rows: &[0, 1, 2],
    }];
    let mut bad = JOINT_GENERIC;
    bad.axes = Axes::Select {
        count: 6,
        select: generic_joint_rows,
        narrow: &NARROW,
    };
    let joint = |m| {
        let mut j = JointObject::generic(m, [1, 1, 1, 0, 0, 0], IDENTITY, IDENTITY);
        j.joint_type = bad;
        Object::Joint(j)
    };
    let (mbs, _, _) = cylindrical::build(joint);
    let message = mbs.assemble().expect_err("refused").to_string();
    assert!(
        message.contains("objects[2] (JointGeneric)")
            && message.contains("`Spherical`")
            && message.contains("`GenericRows`"),
        "{message}"
    );
}

/// The custom joint and JointGeneric on the same mechanism agree under every solver option the
/// runtime has: the sparse LU, Newmark at index 2, full Newton, the exact constraint Jacobian
/// (where the custom joint, without `second_order;`, takes forward differences), and the static
/// solver (with a spring holding the slide, so that an equilibrium exists).
#[test]
fn cylindrical_joint_equals_joint_generic_under_every_solver_option() {
    use joint::runtime::settings::{LinearSolverType, SimulationSettings};
    use joint::runtime::{JointObject, Object};
    const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let custom =
        |m| Object::joint::<cylindrical::custom_joints::Cylindrical>(m, Default::default());
    let generic = |m| {
        Object::Joint(JointObject::generic(
            m,
            [0, 1, 1, 0, 1, 1],
            IDENTITY,
            IDENTITY,
        ))
    };
    type Variant = (&'static str, fn(&mut SimulationSettings));
    let variants: [Variant; 4] = [
        ("EigenSparse", |s| {
            s.linear_solver = LinearSolverType::EigenSparse
        }),
        ("Newmark, index 2", |s| {
            s.time_integration.generalized_alpha.use_newmark = true;
            s.time_integration.generalized_alpha.use_index2_constraints = true;
        }),
        ("full Newton", |s| {
            s.time_integration.newton.use_modified_newton = false
        }),
        ("exact constraint Jacobian", |s| {
            s.time_integration.newton.exact_constraint_jacobian = true;
            s.time_integration.newton.use_modified_newton = false;
        }),
    ];
    for (label, change) in variants {
        let mut settings = cylindrical::settings();
        change(&mut settings);
        let run = |joint: &dyn Fn([joint::runtime::MarkerIndex; 2]) -> Object| {
            let (mbs, _, _) = cylindrical::build(joint);
            let mut sim = mbs.assemble().unwrap();
            sim.solve_dynamic(&settings).unwrap();
            sim
        };
        let (a, b) = (run(&custom), run(&generic));
        let d = cylindrical::largest_difference(&a, &b);
        assert!(d <= 1e-9, "{label}: largest coordinate difference {d:e}");
        assert!(
            a.state().q[0] > 1.0,
            "{label}: the body slid {}",
            a.state().q[0]
        );
    }

    // static: a spring holds the body, from a point 1 m beside the axis: along the axis against
    // gravity's axial part, and vertically against turning about the axis
    let with_spring = |joint: &dyn Fn([joint::runtime::MarkerIndex; 2]) -> Object, exact: bool| {
        let (mut mbs, _, _) = cylindrical::build(joint);
        let on_ground = mbs.add_marker(joint::runtime::Marker::body_position(
            joint::runtime::ObjectIndex(0),
            [0.0, 1.0, -0.5],
        ));
        let body = joint::runtime::ObjectIndex(1);
        let on_body = mbs.add_marker(joint::runtime::Marker::body_position(body, [0.0, 1.0, 0.0]));
        mbs.add_object(
            joint::runtime::connectors::CartesianSpringDamper {
                stiffness: [100.0, 0.0, 100.0],
                ..Default::default()
            }
            .between([on_ground, on_body]),
        );
        let mut settings = cylindrical::settings();
        settings.static_solver.newton.exact_constraint_jacobian = exact;
        let mut sim = mbs.assemble().unwrap();
        sim.solve_static(&settings).unwrap();
        sim
    };
    for exact in [false, true] {
        let (a, b) = (with_spring(&custom, exact), with_spring(&generic, exact));
        let d = cylindrical::largest_difference(&a, &b);
        assert!(
            d <= 1e-10,
            "static (exact {exact}): largest coordinate difference {d:e}"
        );
        // equilibrium: the spring carries m·2 m/s² along the axis (m = 1000·1·0.2·0.2)
        assert!(
            (a.state().q[0] - 40.0 * 2.0 / 100.0).abs() < 1e-9,
            "x = {}",
            a.state().q[0]
        );
    }
}

/// A custom joint's rows by name: the generated `axis` indices name the values of its per-row
/// outputs, and a result file names a sensor's values by them (what plots and tables show).
#[test]
fn a_joints_rows_go_by_their_names() {
    use cylindrical::custom_joints::cylindrical::{AXES, axis};
    use joint::runtime::{Sensor, model::result_json};
    assert_eq!(AXES[axis::RY], "ry");
    let (mut mbs, node, joint) = cylindrical::build(|m| {
        Object::joint::<cylindrical::custom_joints::Cylindrical>(m, Default::default())
    });
    mbs.add_sensor(Sensor::object(joint, OutputVariable::Force));
    mbs.add_sensor(Sensor::node(node, OutputVariable::Position));
    let mut sim = mbs.assemble().unwrap();
    let mut settings = cylindrical::settings();
    settings.time_integration.number_of_steps = 10;
    settings.time_integration.end_time = 0.01;
    sim.solve_dynamic(&settings).unwrap();
    let result = result_json(&sim);
    let sensors = result["sensors"].as_array().unwrap();
    assert_eq!(
        sensors[0]["components"],
        serde_json::json!(["y", "z", "ry", "rz"])
    );
    assert!(sensors[1].get("components").is_none());
    // λ of the row `z` holds the body up (Exudyn's sign: the joint acts with −C_qᵀλ)
    let force = sim.object_output(joint, OutputVariable::Force).unwrap();
    assert!(force[axis::Z] < 0.0, "{force:?}");
}

/// A joint type's own outputs (`JointType::outputs`) read the joint through `JointOutputs`'
/// accessors: its marker's position is the marker's own output, its multipliers the built-in
/// joint's `Force` (the same bits, above), its parameters the item's.
#[test]
fn a_joint_types_own_outputs_read_the_joint_through_its_accessors() {
    use joint::runtime::joints::JointOutputs;
    use joint::runtime::{MarkerIndex, ObjectIndex};
    fn own(joint: &JointOutputs, var: OutputVariable, out: &mut Vec<f64>) -> Option<()> {
        match var {
            OutputVariable::Position => out.extend(joint.marker(1).position),
            OutputVariable::Force => out.extend(joint.lambda().iter().map(|l| -l)),
            OutputVariable::Distance => out.push(joint.parameters().len() as f64),
            _ => return None,
        }
        Some(())
    }
    let run = |own_outputs: bool| {
        let (mut mbs, _) = pendulum::build();
        let joint = mbs.objects.len() - 1;
        let Object::Joint(custom) = &mut mbs.objects[joint] else {
            panic!("the last object is the joint");
        };
        let markers: [MarkerIndex; 2] = custom.markers;
        let parameter_count = custom.parameters.len();
        if own_outputs {
            custom.joint_type.outputs = Some(own);
        } else {
            mbs.objects[joint] = Object::joint_spherical(markers);
        }
        let mut sim = mbs.assemble().unwrap();
        sim.solve_dynamic(&pendulum::settings()).unwrap();
        (sim, ObjectIndex(joint), markers, parameter_count)
    };
    let (sim, joint, markers, parameter_count) = run(true);
    let (built_in, ..) = run(false);
    let out = |var| sim.object_output(joint, var).unwrap();
    assert_eq!(
        out(OutputVariable::Position),
        sim.marker_output(markers[1], OutputVariable::Position)
            .unwrap()
    );
    let force = built_in
        .object_output(joint, OutputVariable::Force)
        .unwrap();
    assert_eq!(force.len(), 3);
    assert!(
        force.iter().any(|f| f.abs() > 1.0),
        "the joint carries the pendulum: {force:?}"
    );
    let negated: Vec<f64> = force.iter().map(|f| -f).collect();
    assert_eq!(out(OutputVariable::Force), negated);
    assert_eq!(out(OutputVariable::Distance), [parameter_count as f64]);
}
