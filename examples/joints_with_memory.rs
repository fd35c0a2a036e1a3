//! Joints that remember: a screw, a gear pair and a rack and pinion whose turns are states
//! (`state turn = angle(y, x);`), continuous over any number of turns, each against its
//! analytic motion. Exudyn has none of them; the runtime runs them as its own joints.
//!
//! * Screw: an EP rigid body (m = 1 kg, J_z = 0.01 kg·m²) on a screw along the global z axis
//!   with lead p = 0.1 m/rad falls under gravity, uniformly accelerated at
//!   a = g·m·p²/(m·p² + J_z) = 4.905 m/s², turning by z/p: 10.6 turns in 1.65 s. Generalized-α
//!   is second order in the step; the Euler parameters turn at up to 40 rad/s, so it takes
//!   about 2 million steps (4 s in the fast mode) for 1e-8 in the turn.
//! * Gear pair: two gears on revolute joints, the mesh `θ1 = −r·θ0` (r = 0.5), gear 0 spun at
//!   10 rad/s and driven by a torque τ = 1 N·m: θ0̈ = τ/(J0 + r²·J1), 12.7 turns in 4 s.
//! * Rack and pinion: a pinion (radius 0.05 m) driving a rack of mass M along x:
//!   θ̈ = τ/(J + M·R²), x = x0 − R·θ.
//!
//! `AtanScrew` is the screw with the turn taken from `atan2`, which jumps by 2π when the body
//! passes ±π: it fails (loudly, naming the row) where the body first turns past −π.
//!
//! Prints each run's error against its oracle, the screw also in the accurate mode (127 steps
//! where generalized-α takes two million); the last line is the screw's turn at the end.

use joint::runtime::{
    JointObject, Load, Marker, MarkerIndex, MultibodySystem, NodeIndex, Object, ObjectIndex,
    OutputVariable, RigidBodyInertia, RigidBodyOptions, Sensor, SensorIndex, Simulation,
    SimulationSettings, SolverMode,
};

joint::joint! {
    /// A screw along marker 0's z axis: marker 1 keeps its point on the axis and its z axis
    /// along it, turns about it and advances `lead` along it per radian it turns. The turn is a
    /// state: continuous over any number of turns (0 where x1 is along x0).
    pub joint Screw {
        marker m0: Rigid;
        marker m1: Rigid;
        param lead: scalar;
        axes [x, y, tilt_x, tilt_y, advance];
        let d = m1.position - m0.position;
        let x0 = col(m0.rotation, 0);
        let y0 = col(m0.rotation, 1);
        let z0 = col(m0.rotation, 2);
        let x1 = col(m1.rotation, 0);
        state turn = angle(dot(y0, x1), dot(x0, x1));
        position = [
            dot(x0, d),
            dot(y0, d),
            dot(z0, x1),
            dot(z0, col(m1.rotation, 1)),
            dot(z0, d) - lead * turn
        ];
    }

    /// The screw with its turn from `atan2`, in (−π, π]: wrong past half a turn.
    pub joint AtanScrew {
        marker m0: Rigid;
        marker m1: Rigid;
        param lead: scalar;
        axes [x, y, tilt_x, tilt_y, advance];
        let d = m1.position - m0.position;
        let x0 = col(m0.rotation, 0);
        let y0 = col(m0.rotation, 1);
        let z0 = col(m0.rotation, 2);
        let x1 = col(m1.rotation, 0);
        position = [
            dot(x0, d),
            dot(y0, d),
            dot(z0, x1),
            dot(z0, col(m1.rotation, 1)),
            dot(z0, d) - lead * atan2(dot(y0, x1), dot(x0, x1))
        ];
    }

    /// A gear pair on a fixed carrier: both markers turn about the global z axis (their bodies'
    /// revolute joints keep them so), marker 1 `ratio` times as far as marker 0 and the other
    /// way, `θ1 = −ratio·θ0`, each turn a state measured from the global x axis.
    pub joint Gear {
        marker m0: Rigid;
        marker m1: Rigid;
        param ratio: scalar;
        axes [mesh];
        state turn0 = angle(m0.rotation[1][0], m0.rotation[0][0]);
        state turn1 = angle(m1.rotation[1][0], m1.rotation[0][0]);
        position = [turn1 + ratio * turn0];
    }

    /// A rack and pinion: the pinion (marker 0) turns about the global z axis, and the rack's
    /// point (marker 1) moves along the global x axis by `radius` per radian, the other way;
    /// at zero turn it is level with the pinion's centre.
    pub joint RackAndPinion {
        marker m0: Rigid;
        marker m1: Position;
        param radius: scalar;
        axes [mesh];
        state turn = angle(m0.rotation[1][0], m0.rotation[0][0]);
        position = [m1.position[0] - m0.position[0] + radius * turn];
    }
}

const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
/// Gravity (m/s²).
pub const G: f64 = 9.81;

/// A rigid body of mass `mass` and inertia diag(`inertia`) at `position`, at rest.
fn body(
    mbs: &mut MultibodySystem,
    mass: f64,
    inertia: [f64; 3],
    position: [f64; 3],
) -> (ObjectIndex, NodeIndex) {
    let mut o = RigidBodyOptions::new(RigidBodyInertia {
        mass,
        inertia: [
            [inertia[0], 0.0, 0.0],
            [0.0, inertia[1], 0.0],
            [0.0, 0.0, inertia[2]],
        ],
        com: [0.0; 3],
    });
    o.reference_position = position;
    let b = mbs.create_rigid_body(&o);
    (b.body, b.node)
}

/// A rigid marker on `body` at `local_position`, unrotated.
fn frame(mbs: &mut MultibodySystem, body: ObjectIndex, local_position: [f64; 3]) -> MarkerIndex {
    mbs.add_marker(Marker::body_rigid(body, local_position))
}

/// The screw's parameters: mass (kg), J_z (kg·m²), lead (m/rad).
pub const SCREW: (f64, f64, f64) = (1.0, 0.01, 0.1);
/// The screw's run (s): 10.6 turns.
pub const SCREW_TIME: f64 = 1.65;

/// The screw's analytic motion at `t`: (z, turn), from rest at z = 0 under gravity −z.
pub fn screw_exact(t: f64) -> (f64, f64) {
    let (m, j, p) = SCREW;
    let a = G * m * p * p / (m * p * p + j);
    let z = -0.5 * a * t * t;
    (z, z / p)
}

/// The screw mechanism with `joint` between the ground frame and the body: (system, body's
/// node, joint, a sensor of the joint's `turn` if it has one).
pub fn screw_system(
    joint: impl FnOnce([MarkerIndex; 2]) -> Object,
) -> (MultibodySystem, NodeIndex, ObjectIndex) {
    let (m, j, _) = SCREW;
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let (b, node) = body(&mut mbs, m, [0.02, 0.02, j], [0.0; 3]);
    let mass = mbs.add_marker(Marker::body_mass(b));
    mbs.add_load(Load::gravity(mass, [0.0, 0.0, -G]));
    let markers = [
        frame(&mut mbs, ground, [0.0; 3]),
        frame(&mut mbs, b, [0.0; 3]),
    ];
    let joint = mbs.add_object(joint(markers));
    (mbs, node, joint)
}

/// Generalized-α settings: `steps` steps over `end` seconds, of constant size (`adaptiveStep`
/// off: the time is k·h, not a sum of k steps, whose rounding would be 1e-10 s after two
/// million steps, and a 1e-8 rad error at 80 rad/s).
pub fn settings(steps: usize, end: f64) -> SimulationSettings {
    let mut s = SimulationSettings::default();
    s.time_integration.number_of_steps = steps;
    s.time_integration.end_time = end;
    s.time_integration.adaptive_step = false;
    s
}

/// The screw (with its state) run for [`SCREW_TIME`] in `steps` steps in `mode`: its error in
/// z and in the turn (the joint's state, read as its output) against the analytic motion, the
/// largest over the run's sensor rows.
pub fn screw_errors(
    steps: usize,
    mode: SolverMode,
) -> Result<(f64, f64, Simulation), joint::runtime::Error> {
    let mut s = settings(steps, SCREW_TIME);
    s.solver_mode = mode;
    screw_errors_with(&s)
}

/// The screw's errors as [`screw_errors`], with the settings `s` (the accurate mode's sensor
/// rows come from its interpolation within steps).
pub fn screw_errors_with(
    s: &SimulationSettings,
) -> Result<(f64, f64, Simulation), joint::runtime::Error> {
    let (_, _, lead) = SCREW;
    let params = screw::Parameters {
        lead,
        ..Default::default()
    };
    let (mut mbs, node, joint) = screw_system(|m| Object::joint::<Screw>(m, params));
    let z = mbs.add_sensor(Sensor::node(node, OutputVariable::Position));
    let turn = mbs.add_sensor(Sensor::object(joint, screw::outputs::TURN));
    let mut sim = mbs.assemble()?;
    sim.solve_dynamic(s)?;
    let error = |sensor: SensorIndex,
                 k: usize,
                 exact: fn(f64) -> f64|
     -> Result<f64, joint::runtime::Error> {
        Ok(sim
            .sensor_rows(sensor)?
            .iter()
            .map(|row| (row[k] - exact(row[0])).abs())
            .fold(0.0, f64::max))
    };
    let ez = error(z, 3, |t| screw_exact(t).0)?;
    let et = error(turn, 1, |t| screw_exact(t).1)?;
    Ok((ez, et, sim))
}

/// The screw with `atan2` in 2000 steps: its error (the run fails past −π).
pub fn atan_screw() -> (Simulation, joint::runtime::Error) {
    let (_, _, lead) = SCREW;
    let (mbs, _, _) =
        screw_system(|m| Object::joint::<AtanScrew>(m, atan_screw::Parameters { lead }));
    let mut sim = mbs.assemble().expect("the screw assembles");
    // the default settings (adaptive steps), as a user would run it
    let mut s = settings(2000, SCREW_TIME);
    s.time_integration.adaptive_step = true;
    let e = sim.solve_dynamic(&s).expect_err("atan2 jumps at −π");
    (sim, e)
}

/// The gear pair: inertias J0, J1 (kg·m²), ratio, initial spin of gear 0 (rad/s), torque on
/// gear 0 (N·m), duration (s).
pub const GEARS: (f64, f64, f64, f64, f64, f64) = (0.1, 0.4, 0.5, 10.0, 1.0, 4.0);

/// Gear 0's analytic turn at `t`.
pub fn gear_exact(t: f64) -> f64 {
    let (j0, j1, r, w0, tau, _) = GEARS;
    let alpha = tau / (j0 + r * r * j1);
    w0 * t + 0.5 * alpha * t * t
}

/// What a gear run measured.
pub struct GearRun {
    pub sim: Simulation,
    /// The largest |θ1 + r·θ0| over the sensor rows (the mesh at position level).
    pub mesh: f64,
    /// The largest |E(t) − E(0) − τ·θ0(t)| (kinetic energy against the torque's work).
    pub energy: f64,
    /// The largest |θ0(t) − θ0,exact(t)|.
    pub turn: f64,
    /// θ0 at the end.
    pub final_turn: f64,
}

/// The gear pair run in `steps` steps.
pub fn gears(steps: usize) -> Result<GearRun, joint::runtime::Error> {
    let (j0, j1, r, w0, tau, end) = GEARS;
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let mut bodies = Vec::new();
    for (k, (j, x)) in [(j0, 0.0), (j1, 0.3)].into_iter().enumerate() {
        let mut o = RigidBodyOptions::new(RigidBodyInertia {
            mass: 1.0,
            inertia: [[j, 0.0, 0.0], [0.0, j, 0.0], [0.0, 0.0, j]],
            com: [0.0; 3],
        });
        o.reference_position = [x, 0.0, 0.0];
        o.initial_angular_velocity = [0.0, 0.0, if k == 0 { w0 } else { -r * w0 }];
        let b = mbs.create_rigid_body(&o);
        let on_ground = frame(&mut mbs, ground, [x, 0.0, 0.0]);
        let on_body = frame(&mut mbs, b.body, [0.0; 3]);
        mbs.add_object(Object::Joint(JointObject::revolute_z(
            [on_ground, on_body],
            IDENTITY,
            IDENTITY,
        )));
        bodies.push((b.body, b.node, on_body));
    }
    mbs.add_load(Load::torque(bodies[0].2, [0.0, 0.0, tau]));
    let gear = mbs.add_object(Object::joint::<Gear>(
        [bodies[0].2, bodies[1].2],
        gear::Parameters {
            ratio: r,
            ..Default::default()
        },
    ));
    let turn0 = mbs.add_sensor(Sensor::object(gear, gear::outputs::TURN0));
    let turn1 = mbs.add_sensor(Sensor::object(gear, gear::outputs::TURN1));
    let omega: Vec<SensorIndex> = bodies
        .iter()
        .map(|b| mbs.add_sensor(Sensor::node(b.1, OutputVariable::AngularVelocity)))
        .collect();
    let mut sim = mbs.assemble()?;
    sim.solve_dynamic(&settings(steps, end))?;
    let rows = |s| sim.sensor_rows(s).map(|r| r.to_vecs());
    let (t0, t1, w_0, w_1) = (rows(turn0)?, rows(turn1)?, rows(omega[0])?, rows(omega[1])?);
    let energy0 = 0.5 * j0 * w0 * w0 + 0.5 * j1 * (r * w0).powi(2);
    let (mut mesh, mut energy, mut turn) = (0.0f64, 0.0f64, 0.0f64);
    for k in 0..t0.len() {
        let (th0, th1) = (t0[k][1], t1[k][1]);
        mesh = mesh.max((th1 + r * th0).abs());
        let kinetic = 0.5 * j0 * w_0[k][3].powi(2) + 0.5 * j1 * w_1[k][3].powi(2);
        energy = energy.max((kinetic - energy0 - tau * th0).abs());
        turn = turn.max((th0 - gear_exact(t0[k][0])).abs());
    }
    let final_turn = t0.last().map_or(0.0, |r| r[1]);
    Ok(GearRun {
        sim,
        mesh,
        energy,
        turn,
        final_turn,
    })
}

/// The rack and pinion: pinion inertia J (kg·m²), radius (m), rack mass M (kg), torque (N·m),
/// duration (s).
pub const RACK: (f64, f64, f64, f64, f64) = (0.002, 0.05, 2.0, 0.1, 2.0);

/// The pinion's turn and the rack's x at `t`, from rest with the rack at x = 0.
pub fn rack_exact(t: f64) -> (f64, f64) {
    let (j, radius, m, tau, _) = RACK;
    let turn = 0.5 * tau / (j + m * radius * radius) * t * t;
    (turn, -radius * turn)
}

/// The rack and pinion run in `steps` steps: the largest errors of the turn and of the rack's
/// x against the analytic motion, and the last turn.
pub fn rack_and_pinion(steps: usize) -> Result<(f64, f64, f64), joint::runtime::Error> {
    let (j, radius, m, tau, end) = RACK;
    let mut mbs = MultibodySystem::new();
    let ground = mbs.add_object(Object::ground());
    let (pinion, _) = body(&mut mbs, 0.5, [j, j, j], [0.0, 0.0, 0.0]);
    let (rack, rack_node) = body(&mut mbs, m, [0.01, 0.01, 0.01], [0.0, -radius, 0.0]);
    let pin_ground = frame(&mut mbs, ground, [0.0; 3]);
    let pin = frame(&mut mbs, pinion, [0.0; 3]);
    mbs.add_object(Object::Joint(JointObject::revolute_z(
        [pin_ground, pin],
        IDENTITY,
        IDENTITY,
    )));
    let rack_ground = frame(&mut mbs, ground, [0.0, -radius, 0.0]);
    let on_rack = frame(&mut mbs, rack, [0.0; 3]);
    mbs.add_object(Object::Joint(JointObject::prismatic_x(
        [rack_ground, on_rack],
        IDENTITY,
        IDENTITY,
    )));
    mbs.add_load(Load::torque(pin, [0.0, 0.0, tau]));
    let mesh = mbs.add_object(Object::joint::<RackAndPinion>(
        [pin, on_rack],
        rack_and_pinion::Parameters {
            radius,
            ..Default::default()
        },
    ));
    let turn = mbs.add_sensor(Sensor::object(mesh, rack_and_pinion::outputs::TURN));
    let x = mbs.add_sensor(Sensor::node(rack_node, OutputVariable::Position));
    let mut sim = mbs.assemble()?;
    sim.solve_dynamic(&settings(steps, end))?;
    let largest = |s: SensorIndex,
                   k: usize,
                   exact: &dyn Fn(f64) -> f64|
     -> Result<f64, joint::runtime::Error> {
        Ok(sim
            .sensor_rows(s)?
            .iter()
            .map(|r| (r[k] - exact(r[0])).abs())
            .fold(0.0, f64::max))
    };
    let e_turn = largest(turn, 1, &|t| rack_exact(t).0)?;
    let e_x = largest(x, 1, &|t| rack_exact(t).1)?;
    let last = sim.sensor_rows(turn)?.last().map_or(0.0, |r| r[1]);
    Ok((e_turn, e_x, last))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for steps in [1000, 2000, 4000, 8000] {
        let (ez, et, _) = screw_errors(steps, SolverMode::Exact)?;
        println!(
            "screw, {steps:>5} steps: |z − z_exact| ≤ {ez:.2e} m, |turn − exact| ≤ {et:.2e} rad"
        );
    }
    let (sim, e) = atan_screw();
    println!(
        "screw with atan2: {e}\n  (left at t = {})",
        sim.state().time
    );
    let g = gears(4000)?;
    println!(
        "gears: |θ1 + r·θ0| ≤ {:.1e}, energy balance ≤ {:.1e} J, |θ0 − exact| ≤ {:.1e} rad, {:.2} turns",
        g.mesh,
        g.energy,
        g.turn,
        g.final_turn / std::f64::consts::TAU
    );
    let (e_turn, e_x, last) = rack_and_pinion(2000)?;
    println!(
        "rack and pinion: |θ − exact| ≤ {e_turn:.1e} rad, |x − exact| ≤ {e_x:.1e} m, {last:.6} rad"
    );
    let steps = 2_000_000;
    let (ez, et, sim) = screw_errors(steps, SolverMode::Fast)?;
    println!(
        "screw, {steps} steps (fast mode): |z − z_exact| ≤ {ez:.2e} m, |turn − exact| ≤ {et:.2e} rad"
    );
    let mut accurate = settings(1000, SCREW_TIME);
    accurate.solver_mode = SolverMode::Accurate;
    accurate.error_tolerance = 1e-11;
    let (az, at, asim) = screw_errors_with(&accurate)?;
    let end_turn = asim.object_output(
        ObjectIndex(asim.system().objects.len() - 1),
        screw::outputs::TURN,
    )?[0];
    println!(
        "screw, accurate mode (tolerance 1e-11, {} steps, {:.1} ms): |z − z_exact| ≤ {az:.2e} m, \
         |turn − exact| ≤ {at:.2e} rad over the rows (between steps interpolated), {:.1e} rad at the end",
        asim.statistics().steps,
        asim.statistics().solver_seconds * 1e3,
        (end_turn - screw_exact(SCREW_TIME).1).abs()
    );
    let turn = sim.object_output(
        ObjectIndex(sim.system().objects.len() - 1),
        screw::outputs::TURN,
    )?[0];
    println!("{turn:.12}");
    Ok(())
}
