//! The seed's mini example, line by line: a point of a rigid body held at a ground point, free
//! to rotate — a spherical pendulum. The last line of stdout is the node's z position after 1 s.

use joint::runtime::{
    EULER_PARAMETERS_0, Load, Marker, MultibodySystem, Node, Object, OutputVariable,
    RigidBodyInertia, SimulationSettings,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut mbs = MultibodySystem::new();
    let o_ground = mbs.add_object(Object::ground());

    // inertia = InertiaCuboid(density=1000, sideLengths=[1,0.1,0.1])
    let inertia = RigidBodyInertia::cuboid(1000.0, [1.0, 0.1, 0.1]);
    // node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0.5,0,0]+eulerParameters0))
    let [e0, e1, e2, e3] = EULER_PARAMETERS_0;
    let node = mbs.add_node(Node::rigid_body_ep([0.5, 0.0, 0.0, e0, e1, e2, e3]));
    // body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
    let body = mbs.add_object(Object::RigidBody {
        name: String::new(),
        mass: inertia.mass,
        inertia: inertia.inertia_6d(),
        center_of_mass: [0.0; 3],
        node,
    });
    // mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=body)), loadVector=[0,0,-9.81]))
    let m_mass = mbs.add_marker(Marker::body_mass(body));
    mbs.add_load(Load::gravity(m_mass, [0.0, 0.0, -9.81]));
    // mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0,0,0]))
    let m_ground = mbs.add_marker(Marker::body_position(o_ground, [0.0, 0.0, 0.0]));
    // mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5,0,0]))
    let m_body = mbs.add_marker(Marker::body_position(body, [-0.5, 0.0, 0.0]));
    // oJoint = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mGround, mBody]))
    let _o_joint = mbs.add_object(Object::joint_spherical([m_ground, m_body]));

    // mbs.Assemble()
    let mut sim = mbs.assemble()?;
    // simulationSettings = exu.SimulationSettings(); numberOfSteps = 1000
    let mut settings = SimulationSettings::default();
    settings.time_integration.number_of_steps = 1000;
    // mbs.SolveDynamic(simulationSettings)
    sim.solve_dynamic(&settings)?;

    let stats = &sim.statistics();
    println!(
        "steps: {}, Newton iterations: {}, Jacobians: {}, solver time: {:.3} ms",
        stats.steps,
        stats.newton.iterations,
        stats.newton.jacobians,
        stats.solver_seconds * 1e3
    );
    // exu.sys['testResult'] = mbs.GetNodeOutput(node, exu.OutputVariableType.Position)[2]
    let z = sim.node_output(node, OutputVariable::Position)?[2];
    println!("{z:.17}");
    Ok(())
}
