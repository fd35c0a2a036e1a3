//! Headless pendulums in Avian: a body hung from a static body by a `joint!` joint solved as a
//! custom XPBD constraint (`KernelJoint`), against Avian's own `SphericalJoint` and against the
//! analytic small-angle motion of the physical pendulum.
//!
//! The body: mass 1 kg, angular inertia 0.1 kg·m² about its centre of mass (any axis), hung at
//! L = 1 m below the pivot. Small oscillations: θ(t) = θ0·cos(Ωt), Ω² = m·g·L / (I + m·L²),
//! period 2.104 s; a point mass at the same length (Ω² = g/L) has period 2.006 s, so a joint
//! that forgot the lever arm's rotation (the r × ∂ṙ/∂v term) would be off by 5 % in frequency,
//! far outside the tolerances below.

use core::time::Duration;

use avian3d::prelude::*;
use bevy::{math::DVec3, prelude::*, time::TimeUpdateStrategy};
use joint_avian::{KernelJoint, KernelJointPlugin, KernelJointSolverData, Spherical, Universal};
use joint_core::MarkerQuantities;

const G: f64 = 9.81;
const MASS: f32 = 1.0;
const INERTIA: f32 = 0.1;
const LENGTH: f32 = 1.0;
/// The physics step: 60 Hz, a usual game rate (Bevy's `Time<Fixed>` default is 64 Hz).
const STEP: f64 = 1.0 / 60.0;
/// XPBD's accuracy comes from substepping: one projection per row and substep of
/// STEP / SUBSTEPS.
const SUBSTEPS: u32 = 20;
/// Initial swing: small enough for the small-angle solution (its period is longer by
/// θ0²/16 = 1.6e-4 at this amplitude).
const THETA0: f32 = 0.05;
/// Five periods.
const SECONDS: f64 = 10.5;

/// Which joint hangs the body.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hinge {
    /// `joint!` `Spherical` through `KernelJoint`.
    KernelSpherical,
    /// `joint!` `Universal` (spherical + marker 0's x ⟂ marker 1's z) through `KernelJoint`.
    KernelUniversal,
    /// Avian's built-in `SphericalJoint`, no limits, compliance 0.
    AvianSpherical,
}

/// The body's state after every physics step.
struct Trace {
    /// Physics time after the step.
    time: Vec<f64>,
    /// The body's origin (its centre of mass).
    position: Vec<DVec3>,
    /// The body's rotation.
    rotation: Vec<Quat>,
    /// The `KernelJoint`'s summed multipliers of the last step, if it is one.
    lagrange: Option<Vec<f32>>,
    /// The largest |row| of `KernelJoint::residual` (f32) over the steps, if it is one.
    kernel_residual: f32,
}

impl Trace {
    /// The swing angle in the x–y plane, from the downward vertical.
    fn angle(&self, k: usize) -> f64 {
        let p = self.position[k];
        p.x.atan2(-p.y)
    }
}

fn omega_physical() -> f64 {
    let (m, i, l) = (MASS as f64, INERTIA as f64, LENGTH as f64);
    (m * G * l / (i + m * l * l)).sqrt()
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, PhysicsPlugins::default()));
    app.add_plugins((
        KernelJointPlugin::<Spherical, 3>::default(),
        KernelJointPlugin::<Universal, 4>::default(),
    ));
    app.insert_resource(SubstepCount(SUBSTEPS));
    app.insert_resource(Gravity(Vec3::NEG_Y * G as f32));
    let step = Duration::from_secs_f64(STEP);
    app.insert_resource(Time::<Fixed>::from_duration(step));
    // Every `update` advances the clock by exactly one physics step.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(step));
    app.finish();
    app.cleanup();
    app
}

/// Hangs the body by `hinge` at swing `theta0` (about z) with angular velocity `spin` and
/// records `seconds` of motion.
fn run(hinge: Hinge, theta0: f32, spin: Vec3, seconds: f64) -> Trace {
    let mut app = app();
    let world = app.world_mut();
    let ground = world.spawn((RigidBody::Static, Position(Vec3::ZERO))).id();
    let tilt = Quat::from_rotation_z(theta0);
    let bob = world
        .spawn((
            RigidBody::Dynamic,
            Position(tilt * Vec3::NEG_Y * LENGTH),
            Rotation(tilt),
            AngularVelocity(spin),
            Mass(MASS),
            AngularInertia::new(Vec3::splat(INERTIA)),
            // A pendulum at a turning point is slow enough for Avian to put it to sleep.
            SleepingDisabled,
        ))
        .id();
    // The pivot: the ground's origin, and the point L above the body's centre of mass.
    let anchor = Vec3::Y * LENGTH;
    let joint = match hinge {
        Hinge::KernelSpherical => world
            .spawn(KernelJoint::new(Spherical, ground, bob).with_local_anchor1(anchor))
            .id(),
        Hinge::KernelUniversal => world
            .spawn(KernelJoint::new(Universal, ground, bob).with_local_anchor1(anchor))
            .id(),
        Hinge::AvianSpherical => world
            .spawn(SphericalJoint::new(ground, bob).with_local_anchor2(anchor))
            .id(),
    };
    let mut trace = Trace {
        time: Vec::new(),
        position: Vec::new(),
        rotation: Vec::new(),
        lagrange: None,
        kernel_residual: 0.0,
    };
    while trace.time.last().copied().unwrap_or(0.0) < seconds {
        app.update();
        let world = app.world();
        let physics_time = world.resource::<Time<Physics>>().elapsed_secs_f64();
        if trace.time.last() == Some(&physics_time) {
            continue; // an update without a physics step (the first update records t = 0)
        }
        let body = world.entity(bob);
        let (position, rotation) = (
            body.get::<Position>().unwrap().0,
            body.get::<Rotation>().unwrap().0,
        );
        trace.time.push(physics_time);
        trace.position.push(position.as_dvec3());
        trace.rotation.push(rotation);
        let joint = world.entity(joint);
        let poses = [(Vec3::ZERO, Quat::IDENTITY), (position, rotation)];
        let (lagrange, residual) = match hinge {
            Hinge::KernelSpherical => (
                joint
                    .get::<KernelJointSolverData<Spherical, 3>>()
                    .map(|d| d.total_lagrange().to_vec()),
                joint
                    .get::<KernelJoint<Spherical, 3>>()
                    .map(|j| j.residual(poses).to_vec()),
            ),
            Hinge::KernelUniversal => (
                joint
                    .get::<KernelJointSolverData<Universal, 4>>()
                    .map(|d| d.total_lagrange().to_vec()),
                joint
                    .get::<KernelJoint<Universal, 4>>()
                    .map(|j| j.residual(poses).to_vec()),
            ),
            Hinge::AvianSpherical => (None, None),
        };
        trace.lagrange = lagrange;
        for r in residual.unwrap_or_default() {
            trace.kernel_residual = trace.kernel_residual.max(r.abs());
        }
    }
    trace
}

/// Marker quantities in f64 from the recorded pose: the residual is checked in double
/// precision, independently of the f32 path the solver takes.
fn marker(position: DVec3, rotation: Quat, anchor: Vec3) -> MarkerQuantities<f64> {
    let rotation = rotation.as_dquat();
    let frame = bevy::math::DMat3::from_quat(rotation);
    MarkerQuantities {
        position: (position + rotation * anchor.as_dvec3()).to_array(),
        rotation: core::array::from_fn(|r| frame.row(r).to_array()),
        ..Default::default()
    }
}

/// The largest |row| of the joint's residual (`hinge`'s rows, or the spherical rows for
/// Avian's joint) over the trace.
fn largest_residual(trace: &Trace, hinge: Hinge) -> f64 {
    let ground = marker(DVec3::ZERO, Quat::IDENTITY, Vec3::ZERO);
    (0..trace.time.len())
        .flat_map(|k| {
            let bob = marker(trace.position[k], trace.rotation[k], Vec3::Y * LENGTH);
            match hinge {
                Hinge::KernelUniversal => {
                    joint_avian::universal::marker_level::position_residual(&ground, &bob).to_vec()
                }
                _ => {
                    joint_avian::spherical::marker_level::position_residual(&ground, &bob).to_vec()
                }
            }
        })
        .fold(0.0, |a: f64, r| a.max(r.abs()))
}

/// The largest |θ(t) − θ0·cos(Ωt)| over the trace.
fn largest_from_cosine(trace: &Trace, omega: f64) -> f64 {
    (0..trace.time.len())
        .map(|k| (trace.angle(k) - THETA0 as f64 * (omega * trace.time[k]).cos()).abs())
        .fold(0.0, f64::max)
}

/// The mean period between the downward zero crossings (linearly interpolated in the step).
fn period(trace: &Trace) -> f64 {
    let crossings: Vec<f64> = (1..trace.time.len())
        .filter(|&k| trace.angle(k - 1) > 0.0 && trace.angle(k) <= 0.0)
        .map(|k| {
            let (a, b) = (trace.angle(k - 1), trace.angle(k));
            trace.time[k - 1] + (trace.time[k] - trace.time[k - 1]) * a / (a - b)
        })
        .collect();
    assert!(crossings.len() >= 4, "{crossings:?}");
    (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64
}

/// The amplitude over the last period, relative to θ0.
fn final_amplitude(trace: &Trace, period: f64) -> f64 {
    let last = trace.time.last().unwrap() - period;
    (0..trace.time.len())
        .filter(|&k| trace.time[k] >= last)
        .map(|k| trace.angle(k).abs())
        .fold(0.0, f64::max)
        / THETA0 as f64
}

/// The swing of the custom spherical joint is Avian's own to a fraction of the XPBD error, and
/// both are the physical pendulum's; the joint's rows stay near zero.
///
/// Tolerances (measured values in README.md), at h = 1/1200 s (20 substeps of 1/60 s),
/// compliance 0, no damping:
/// * against Avian's joint, 1e-4 rad (0.2 % of θ0): the two project the same three rows
///   differently (Avian once along the separation, ours x, y, z in turn, each at the updated
///   pose), an O(h²) difference (1.4e-4 at 10 substeps, 3.8e-5 at 20, 1.4e-5 at 40);
/// * the period, 2e-4 relative to the physical pendulum's with its finite-amplitude term
///   (T0·(1 + θ0²/16)): position-level projection keeps the frequency (symplectic in effect);
/// * the amplitude after five periods, within 5 % below θ0: XPBD dissipates energy at O(h)
///   (6.1 % lost at 10 substeps, 3.1 % at 20, 1.5 % at 40) and never adds it;
/// * θ(t) against θ0·cos(Ωt), 3e-3 rad (6 % of θ0): that decay; the point mass on a massless
///   rod of the same length is 20× farther off;
/// * the residual, 1e-5 m: f32, and what one projection per substep leaves (O(h²)).
#[test]
fn spherical_pendulum_matches_avians_joint_and_the_physical_pendulum() {
    let ours = run(Hinge::KernelSpherical, THETA0, Vec3::ZERO, SECONDS);
    let avian = run(Hinge::AvianSpherical, THETA0, Vec3::ZERO, SECONDS);
    let universal = run(Hinge::KernelUniversal, THETA0, Vec3::ZERO, SECONDS);
    assert_eq!(ours.time, avian.time);
    assert!(ours.time.len() >= 600, "{} steps", ours.time.len());

    let largest_difference = |a: &Trace, b: &Trace| {
        (0..a.time.len())
            .map(|k| (a.angle(k) - b.angle(k)).abs())
            .fold(0.0, f64::max)
    };
    let from_avian = largest_difference(&ours, &avian);
    let from_universal = largest_difference(&ours, &universal);
    let omega = omega_physical();
    let theta0 = THETA0 as f64;
    let analytic_period = 2.0 * std::f64::consts::PI / omega * (1.0 + theta0 * theta0 / 16.0);
    let (ours_period, avian_period) = (period(&ours), period(&avian));
    let (ours_amplitude, avian_amplitude) = (
        final_amplitude(&ours, ours_period),
        final_amplitude(&avian, avian_period),
    );
    let (ours_analytic, avian_analytic, universal_analytic) = (
        largest_from_cosine(&ours, omega),
        largest_from_cosine(&avian, omega),
        largest_from_cosine(&universal, omega),
    );
    // the same body as a point mass on a massless rod: what the tolerance must tell apart
    let point_mass = largest_from_cosine(&ours, (G / LENGTH as f64).sqrt());
    let (residual, avian_residual, universal_residual) = (
        largest_residual(&ours, Hinge::KernelSpherical),
        largest_residual(&avian, Hinge::AvianSpherical),
        largest_residual(&universal, Hinge::KernelUniversal),
    );
    // a planar swing stays planar
    let out_of_plane = ours.position.iter().fold(0.0, |a: f64, p| a.max(p.z.abs()));
    println!(
        "{} steps of {STEP:.6} s, {SUBSTEPS} substeps, θ0 = {THETA0} rad",
        ours.time.len()
    );
    println!("largest |θ_ours − θ_avian| = {from_avian:.3e} rad");
    println!("largest |θ_ours − θ_universal| = {from_universal:.3e} rad");
    println!(
        "period: analytic {analytic_period:.6} s, ours {ours_period:.6} s, Avian's \
         {avian_period:.6} s"
    );
    println!(
        "amplitude over the last period / θ0: ours {ours_amplitude:.5}, Avian's \
         {avian_amplitude:.5}"
    );
    println!(
        "largest |θ − θ0 cos Ωt|: ours {ours_analytic:.3e}, Avian's {avian_analytic:.3e}, \
         universal {universal_analytic:.3e}; ours against a point mass {point_mass:.3e} rad"
    );
    println!(
        "largest |residual|: ours {residual:.3e} m, Avian's {avian_residual:.3e} m, \
         universal {universal_residual:.3e}; largest |z| {out_of_plane:.3e} m"
    );

    assert!(from_avian < 1e-4, "from Avian's joint: {from_avian:e}");
    for (who, period, amplitude, analytic) in [
        ("ours", ours_period, ours_amplitude, ours_analytic),
        ("Avian's", avian_period, avian_amplitude, avian_analytic),
    ] {
        let relative = period / analytic_period - 1.0;
        assert!(
            relative.abs() < 2e-4,
            "{who} period {period} ({relative:e})"
        );
        assert!(
            (0.95..=1.0).contains(&amplitude),
            "{who} amplitude {amplitude}"
        );
        assert!(analytic < 3e-3, "{who} from the analytic: {analytic:e}");
    }
    assert!(
        universal_analytic < 3e-3,
        "universal from the analytic: {universal_analytic:e}"
    );
    // the tolerance tells the physical pendulum from a point mass
    assert!(point_mass > 2e-2, "against a point mass: {point_mass:e}");
    assert!(residual < 1e-5, "residual {residual:e}");
    assert!(
        universal_residual < 1e-5,
        "universal residual {universal_residual:e}"
    );
    assert!(out_of_plane < 1e-6, "out of plane {out_of_plane:e}");
}

/// The rows' multipliers are the joint's reaction: a body hanging at rest pulls the pivot with
/// its weight, the y row's generalized force `Σλ·n/Δt²` (Avian's `JointForces` scaling) on the
/// body is +m·g (upwards, ∂ṙ_y/∂v_1 = +1), and the other rows carry nothing.
#[test]
fn a_hanging_bodys_multiplier_is_its_weight() {
    let trace = run(Hinge::KernelSpherical, 0.0, Vec3::ZERO, 1.0);
    let lagrange = trace.lagrange.expect("solver data");
    let force: Vec<f64> = lagrange
        .iter()
        .map(|l| *l as f64 * SUBSTEPS as f64 / (STEP * STEP))
        .collect();
    println!("reaction on the body: {force:?} N");
    let weight = MASS as f64 * G;
    assert!((force[1] - weight).abs() < 1e-3 * weight, "{force:?}");
    assert!(force[0].abs() < 1e-6 && force[2].abs() < 1e-6, "{force:?}");
}

/// The universal joint's fourth row (marker 0's x ⟂ marker 1's z) acts through the rotational
/// gradients ∂ṙ/∂ω that the spherical joint does not have: a hanging body spun about the
/// vertical turns freely on the spherical joint and not at all on the universal one.
#[test]
fn the_universal_joint_stops_the_twist_the_spherical_joint_lets_through() {
    let spin = Vec3::Y * 2.0;
    let seconds = 1.0;
    let twist = |trace: &Trace| {
        // the twist part of the rotation (swing–twist decomposition about y)
        let q = trace.rotation.last().unwrap().as_dquat();
        2.0 * q.y.atan2(q.w)
    };
    let spherical = run(Hinge::KernelSpherical, 0.0, spin, seconds);
    let universal = run(Hinge::KernelUniversal, 0.0, spin, seconds);
    let (free, held) = (twist(&spherical), twist(&universal));
    let residual = largest_residual(&universal, Hinge::KernelUniversal);
    println!(
        "twist after {} s: spherical {free:.6} rad, universal {held:.3e} rad; universal residual \
         {residual:.3e}",
        spherical.time.last().unwrap()
    );
    let expected = 2.0 * spherical.time.last().unwrap();
    assert!((free - expected).abs() < 1e-3, "spherical twist {free}");
    // the first substep's projection takes the twist out (h·ω = 1.7e-3 rad at most)
    assert!(held.abs() < 2e-3, "universal twist {held}");
    assert!(residual < 2e-3, "universal residual {residual:e}");
}
