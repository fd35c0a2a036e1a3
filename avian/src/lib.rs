//! A joint defined with `joint!` solved as a custom XPBD constraint inside Avian (avian3d 0.8,
//! Bevy's physics engine).
//!
//! The bridge is the joint's marker-level form (`<joint>::marker_level`): its residual as a
//! function of the two markers' [`MarkerQuantities`] (global positions and rotation matrices)
//! and its Jacobian rows by the markers' velocities and global angular velocities
//! ([`MarkerLevelJacobian`]). Neither depends on Exudyn's node types, and both are generic over
//! the scalar: Avian's solver works in `f32`, so they are evaluated in `f32`.
//!
//! XPBD moves a body by a translation Δx of its centre of mass and a small global rotation
//! vector Δθ (Avian: `delta_rotation = from_scaled_axis(Δθ) · delta_rotation`). A marker fixed to
//! the body at lever arm r from the centre of mass moves by Δp = Δx + Δθ × r and turns by Δθ, so
//! a row's gradients by the body's coordinates are the Jacobian rows composed with that
//! kinematics, as the velocity level composes them (v_marker = v + ω × r, ω_marker = ω):
//!
//! * ∂C/∂x = ∂ṙ/∂v (`d_velocity`),
//! * ∂C/∂θ = r × ∂ṙ/∂v + ∂ṙ/∂ω (`d_angular_velocity`).
//!
//! Each row is then projected the XPBD way, once per substep of length h, the rows one after
//! the other, each evaluated at the pose the rows before it left (nonlinear Gauss–Seidel):
//! Δλ = (−C − α̃λ) / (Σ_i w_i + α̃) with λ = 0 (the row's multiplier in this substep, before its
//! one projection), the generalized inverse masses
//! w_i = ∂C/∂x_i·M_i⁻¹·∂C/∂x_i + ∂C/∂θ_i·I_i⁻¹·∂C/∂θ_i and α̃ = compliance / h²; then
//! Δx_i = M_i⁻¹·∂C/∂x_i·Δλ and Δθ_i = I_i⁻¹·∂C/∂θ_i·Δλ.
//!
//! Marker positions are absolute world positions in `f32` (so that any joint, also one that is
//! not translation invariant, sees what it was written for): far from the origin the residual
//! loses digits as Avian's own `f32` positions do.
//!
//! Avian 0.8 is pinned exactly (`=0.8.0`): its XPBD constraint API (`XpbdConstraint`,
//! `SolverBody`, `XpbdSolverSystems::SolveUserConstraints`) is documented as prone to change.
//!
//! ```
//! use avian3d::prelude::*;
//! use bevy::prelude::*;
//! use joint_avian::{KernelJoint, KernelJointPlugin, Spherical};
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, PhysicsPlugins::default()));
//! app.add_plugins(KernelJointPlugin::<Spherical, 3>::default());
//! let ground = app.world_mut().spawn(RigidBody::Static).id();
//! let bob = app
//!     .world_mut()
//!     .spawn((RigidBody::Dynamic, Position(Vec3::NEG_Y), Mass(1.0)))
//!     .id();
//! // the pivot: the ground's origin and the point 1 m above the bob's origin
//! app.world_mut()
//!     .spawn(KernelJoint::new(Spherical, ground, bob).with_local_anchor1(Vec3::Y));
//! app.update();
//! // hanging at rest below the pivot, the bob stays there
//! let y = app.world().get::<Position>(bob).unwrap().0.y;
//! assert!((y + 1.0).abs() < 1e-4, "{y}");
//! ```

use core::marker::PhantomData;

use avian3d::{
    dynamics::{
        joints::{EntityConstraint, joint_graph::JointGraphPlugin},
        solver::{
            solver_body::{SolverBody, SolverBodyInertia},
            xpbd::{
                XpbdConstraint, XpbdConstraintSolverData, XpbdSolverSystems, prepare_xpbd_joint,
                solve_xpbd_joint,
            },
        },
    },
    prelude::*,
};
use bevy::{
    ecs::entity::{EntityMapper, MapEntities},
    math::{Mat3, Quat, Vec3},
    prelude::*,
};
use joint_core::{MarkerLevelJacobian, MarkerQuantities};

joint_core::joint! {
    /// A spherical joint: marker 1's point coincides with marker 0's point, one row per global
    /// axis (Avian's `SphericalJoint` without limits).
    pub joint Spherical {
        marker m0: Position;
        marker m1: Position;
        axes [x, y, z];
        position = m1.position - m0.position;
    }
}

joint_core::joint! {
    /// A universal (Cardan) joint, which Avian does not have: the points coincide, and marker
    /// 0's x axis stays perpendicular to marker 1's z axis, so marker 1 swings about both but
    /// cannot twist about the third (its y axis, when the two are perpendicular).
    pub joint Universal {
        marker m0: Rigid;
        marker m1: Rigid;
        axes [x, y, z, cross];
        let d = m1.position - m0.position;
        position = [d[0], d[1], d[2], dot(col(m0.rotation, 0), col(m1.rotation, 2))];
    }
}

/// A joint's marker-level kernels in `f32`, as the XPBD solver calls them: the generated
/// `<joint>::marker_level::{position_residual, jacobian}` with the joint's parameters bound.
///
/// `ROWS` is the joint's row count (`<joint>::ROWS`).
pub trait MarkerLevelKernels<const ROWS: usize>: Send + Sync + 'static {
    /// The position-level residual C (one value per row; zero when the joint is satisfied).
    fn position_residual(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> [f32; ROWS];

    /// ∂ṙ/∂v_i and ∂ṙ/∂ω_i of the rows (ω global) for markers i = 0, 1.
    fn jacobian(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> MarkerLevelJacobian<ROWS, f32>;
}

impl MarkerLevelKernels<{ spherical::ROWS }> for Spherical {
    fn position_residual(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> [f32; 3] {
        spherical::marker_level::position_residual(m0, m1)
    }

    fn jacobian(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> MarkerLevelJacobian<3, f32> {
        spherical::marker_level::jacobian(m0, m1)
    }
}

impl MarkerLevelKernels<{ universal::ROWS }> for Universal {
    fn position_residual(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> [f32; 4] {
        universal::marker_level::position_residual(m0, m1)
    }

    fn jacobian(
        &self,
        m0: &MarkerQuantities<f32>,
        m1: &MarkerQuantities<f32>,
    ) -> MarkerLevelJacobian<4, f32> {
        universal::marker_level::jacobian(m0, m1)
    }
}

/// A marker fixed to a body: its point and frame in the body's local coordinates (relative to
/// the body's origin, as Avian's joint anchors are).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LocalMarker {
    /// The marker's point.
    pub anchor: Vec3,
    /// The marker's frame: marker to body rotation (its rotation matrix is body · basis).
    pub basis: Quat,
}

/// A [`MarkerLevelKernels`] joint between two bodies, solved by Avian's XPBD solver with the
/// rows' residuals and gradients from the generated kernels in `f32`.
///
/// Add [`KernelJointPlugin`] for `J` to the app; [`KernelJointSolverData`] is inserted with it.
#[derive(Component, Clone, Copy, Debug)]
pub struct KernelJoint<J: MarkerLevelKernels<ROWS>, const ROWS: usize> {
    /// The joint's kernels (and its parameters, if any).
    pub joint: J,
    /// The bodies of marker 0 and marker 1.
    pub bodies: [Entity; 2],
    /// The markers on their bodies.
    pub markers: [LocalMarker; 2],
    /// Compliance α (inverse stiffness) of every row; 0 is rigid.
    pub compliance: f32,
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> KernelJoint<J, ROWS> {
    /// The joint between `body0` (marker 0) and `body1` (marker 1), both markers at their
    /// body's origin with its axes, rigid (compliance 0).
    pub fn new(joint: J, body0: Entity, body1: Entity) -> Self {
        Self {
            joint,
            bodies: [body0, body1],
            markers: [LocalMarker::default(); 2],
            compliance: 0.0,
        }
    }

    /// Marker 0's point on body 0 (local coordinates).
    pub fn with_local_anchor0(mut self, anchor: Vec3) -> Self {
        self.markers[0].anchor = anchor;
        self
    }

    /// Marker 1's point on body 1 (local coordinates).
    pub fn with_local_anchor1(mut self, anchor: Vec3) -> Self {
        self.markers[1].anchor = anchor;
        self
    }

    /// Marker 0's frame relative to body 0.
    pub fn with_local_basis0(mut self, basis: Quat) -> Self {
        self.markers[0].basis = basis;
        self
    }

    /// Marker 1's frame relative to body 1.
    pub fn with_local_basis1(mut self, basis: Quat) -> Self {
        self.markers[1].basis = basis;
        self
    }

    /// The compliance of every row (inverse stiffness; 0 is rigid).
    pub fn with_compliance(mut self, compliance: f32) -> Self {
        self.compliance = compliance;
        self
    }

    /// The joint's residual (f32, the solver's own evaluation) with the bodies at `poses`:
    /// each the position of the body's origin (Avian's `Position`) and its rotation.
    pub fn residual(&self, poses: [(Vec3, Quat); 2]) -> [f32; ROWS] {
        let [m0, m1] = core::array::from_fn(|i| {
            let ((origin, rotation), marker) = (poses[i], self.markers[i]);
            quantities(
                origin + rotation * marker.anchor,
                Vec3::ZERO,
                rotation * marker.basis,
                Vec3::ZERO,
            )
        });
        self.joint.position_residual(&m0, &m1)
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> EntityConstraint<2> for KernelJoint<J, ROWS> {
    fn entities(&self) -> [Entity; 2] {
        self.bodies
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> MapEntities for KernelJoint<J, ROWS> {
    fn map_entities<M: EntityMapper>(&mut self, entity_mapper: &mut M) {
        for body in &mut self.bodies {
            *body = entity_mapper.get_mapped(*body);
        }
    }
}

/// One body's state at the start of the time step, in world space: Avian's solver bodies carry
/// only the changes since then (`delta_position`, `delta_rotation`), and static bodies none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PreparedBody {
    /// The centre of mass.
    center_of_mass: Vec3,
    /// From the centre of mass to the marker's point.
    lever_arm: Vec3,
    /// The marker's frame (body rotation · marker basis).
    frame: Quat,
}

/// The solver's data of a [`KernelJoint<J, ROWS>`]: the bodies at the start of the step and
/// the rows' Lagrange multipliers. (A type per joint type, so that the preparing systems of two
/// joint types never touch the same component.)
#[derive(Component, Debug)]
pub struct KernelJointSolverData<J: MarkerLevelKernels<ROWS>, const ROWS: usize> {
    prepared: [PreparedBody; 2],
    total_lagrange: [f32; ROWS],
    joint: PhantomData<fn() -> J>,
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> Default for KernelJointSolverData<J, ROWS> {
    fn default() -> Self {
        Self {
            prepared: [PreparedBody::default(); 2],
            total_lagrange: [0.0; ROWS],
            joint: PhantomData,
        }
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> KernelJointSolverData<J, ROWS> {
    /// Per row, the Lagrange multipliers summed over the last step's substeps. With n substeps
    /// of a step Δt, row k's generalized force is `total_lagrange[k]·n/Δt²` (Avian's
    /// `JointForces` scaling), acting on marker i as `(∂ṙ_k/∂v_i)ᵀ` force and `(∂ṙ_k/∂ω_i)ᵀ`
    /// torque.
    pub fn total_lagrange(&self) -> [f32; ROWS] {
        self.total_lagrange
    }

    /// The markers' quantities and lever arms now: the prepared state moved by the solver
    /// bodies' deltas.
    fn markers(&self, bodies: [&SolverBody; 2]) -> ([MarkerQuantities<f32>; 2], [Vec3; 2]) {
        let arms = core::array::from_fn(|i| bodies[i].delta_rotation * self.prepared[i].lever_arm);
        let markers = core::array::from_fn(|i| {
            let (body, prepared) = (bodies[i], &self.prepared[i]);
            quantities(
                prepared.center_of_mass + body.delta_position + arms[i],
                body.velocity_at_point(arms[i]),
                body.delta_rotation * prepared.frame,
                body.angular_velocity,
            )
        });
        (markers, arms)
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> XpbdConstraintSolverData
    for KernelJointSolverData<J, ROWS>
{
    fn clear_lagrange_multipliers(&mut self) {
        self.total_lagrange = [0.0; ROWS];
    }
}

/// A marker's quantities in the kernels' layout (the rotation matrix row-major).
fn quantities(
    position: Vec3,
    velocity: Vec3,
    frame: Quat,
    angular_velocity: Vec3,
) -> MarkerQuantities<f32> {
    let rotation = Mat3::from_quat(frame);
    MarkerQuantities {
        position: position.to_array(),
        velocity: velocity.to_array(),
        rotation: core::array::from_fn(|r| rotation.row(r).to_array()),
        angular_velocity: angular_velocity.to_array(),
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> XpbdConstraint<2> for KernelJoint<J, ROWS> {
    type SolverData = KernelJointSolverData<J, ROWS>;

    fn prepare(
        &mut self,
        bodies: [&RigidBodyQueryReadOnlyItem; 2],
        solver_data: &mut KernelJointSolverData<J, ROWS>,
    ) {
        for (i, body) in bodies.into_iter().enumerate() {
            let rotation = body.rotation.0;
            let marker = self.markers[i];
            // Avian keeps `Position` at the body's origin and moves the centre of mass.
            solver_data.prepared[i] = PreparedBody {
                center_of_mass: body.position.0 + rotation * body.center_of_mass.0,
                lever_arm: rotation * (marker.anchor - body.center_of_mass.0),
                frame: rotation * marker.basis,
            };
        }
    }

    fn solve(
        &mut self,
        bodies: [&mut SolverBody; 2],
        inertias: [&SolverBodyInertia; 2],
        solver_data: &mut KernelJointSolverData<J, ROWS>,
        dt: f32,
    ) {
        let [body0, body1] = bodies;
        let inv_mass = inertias.map(SolverBodyInertia::effective_inv_mass);
        let inv_inertia = inertias.map(SolverBodyInertia::effective_inv_angular_inertia);
        let tilde_compliance = self.compliance / (dt * dt);
        for row in 0..ROWS {
            // Nonlinear Gauss–Seidel: each row sees the corrections of the rows before it.
            let ([m0, m1], arms) = solver_data.markers([&*body0, &*body1]);
            let c = self.joint.position_residual(&m0, &m1)[row];
            let jacobian = self.joint.jacobian(&m0, &m1);
            let d_x: [Vec3; 2] =
                core::array::from_fn(|i| Vec3::from_array(jacobian.d_velocity[i][row]));
            let d_theta: [Vec3; 2] = core::array::from_fn(|i| {
                arms[i].cross(d_x[i]) + Vec3::from_array(jacobian.d_angular_velocity[i][row])
            });
            let w: f32 = (0..2)
                .map(|i| {
                    d_x[i].dot(inv_mass[i] * d_x[i]) + d_theta[i].dot(inv_inertia[i] * d_theta[i])
                })
                .sum();
            // Both bodies immovable along this row (static, locked axes), or the row degenerate
            // (exactly zero: a threshold such as Avian's ε would skip the rows of heavy bodies).
            if w <= 0.0 {
                continue;
            }
            // Δλ = (−C − α̃λ) / (w + α̃) with λ = 0: one projection per row and substep
            // (substepped XPBD), so the substep's λ is zero before it.
            let delta_lambda = -c / (w + tilde_compliance);
            solver_data.total_lagrange[row] += delta_lambda;
            for (i, body) in [&mut *body0, &mut *body1].into_iter().enumerate() {
                body.delta_position += inv_mass[i] * d_x[i] * delta_lambda;
                let turn = inv_inertia[i] * d_theta[i] * delta_lambda;
                // Avian's own convention: a global rotation vector, applied on the left.
                body.delta_rotation =
                    (Quat::from_scaled_axis(turn) * body.delta_rotation).normalize();
            }
        }
    }
}

/// Registers [`KernelJoint<J, ROWS>`] with Avian: its solver data, its place in the joint graph
/// (sleeping, `JointCollisionDisabled`, and the velocity update from XPBD's position
/// corrections, `XpbdVelocityProjection`), its preparation before the substeps and its solve
/// in every substep (`XpbdSolverSystems::SolveUserConstraints`).
///
/// Add it after `PhysicsPlugins`.
pub struct KernelJointPlugin<J, const ROWS: usize>(PhantomData<fn() -> J>);

impl<J, const ROWS: usize> Default for KernelJointPlugin<J, ROWS> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<J: MarkerLevelKernels<ROWS>, const ROWS: usize> Plugin for KernelJointPlugin<J, ROWS> {
    fn build(&self, app: &mut App) {
        app.register_required_components::<KernelJoint<J, ROWS>, KernelJointSolverData<J, ROWS>>();
        app.add_plugins(JointGraphPlugin::<KernelJoint<J, ROWS>>::default());
        app.add_systems(
            PhysicsSchedule,
            prepare_xpbd_joint::<KernelJoint<J, ROWS>>.in_set(SolverSystems::PrepareJoints),
        );
        app.add_systems(
            SubstepSchedule,
            solve_xpbd_joint::<KernelJoint<J, ROWS>>
                .in_set(XpbdSolverSystems::SolveUserConstraints)
                // Every user constraint writes the solver bodies, and Avian's substep schedule
                // rejects ambiguities: the joint types are solved one after the other in the
                // order the schedule picks (Gauss–Seidel over types, as over rows).
                .ambiguous_with(XpbdSolverSystems::SolveUserConstraints),
        );
    }
}
