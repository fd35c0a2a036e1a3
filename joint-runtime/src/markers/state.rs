//! A marker's kinematics at a state: position, velocity, orientation, angular velocity and the
//! Jacobians over its columns, whatever model computes them.
//!
//! Each marker model implements [`MarkerKinematics`] once: a built-in kind through the
//! generated kernels ([`KindMarker`]), superelement markers through their weighted-node maps,
//! kinematic-tree markers through the tree's link frames. [`MarkerState`] picks the model when
//! it is built, so connectors, loads, outputs and the marker-level joint kernels ask one
//! question of every marker.

use nalgebra::{Matrix3, Vector3};

use super::kind::{KindMarker, RESOLVED};
use super::kinematics::quantities;
pub use super::kinematics::{MarkerAt, MarkerKinematics};
use super::lie_group::LieGroupMarkerView;
use super::resolved::{MarkerModel, ResolvedMarker};
use crate::kernels::marker_kinematics as mk;
use joint_core::{MarkerArgs, MarkerQuantities, MarkerRates};

/// A marker whose kinematics no kernel reads (BodyMass on an FFRF object, whose mass-weighted
/// Jacobian the load assembly applies directly; a node coordinate, which loads read by its
/// column): at the origin, at rest, unrotated.
struct NoKinematics;

impl MarkerKinematics for NoKinematics {
    fn position(&self, _: MarkerAt) -> Vector3<f64> {
        Vector3::zeros()
    }

    fn velocity(&self, _: MarkerAt) -> Vector3<f64> {
        Vector3::zeros()
    }

    fn rotation(&self, _: MarkerAt) -> Matrix3<f64> {
        Matrix3::identity()
    }

    fn angular_velocity(&self, _: MarkerAt) -> Vector3<f64> {
        Vector3::zeros()
    }

    fn angular_velocity_local(&self, _: MarkerAt) -> Vector3<f64> {
        Vector3::zeros()
    }

    fn position_jacobian(&self, _: MarkerAt, out: &mut [f64]) {
        out.fill(0.0);
    }

    fn rotation_jacobian(&self, _: MarkerAt, out: &mut [f64]) {
        out.fill(0.0);
    }

    fn position_jacobian_t_times_vector_q(&self, _: MarkerAt, _: &[f64; 3], out: &mut [f64]) {
        out.fill(0.0);
    }
}

/// The model a [`MarkerState`] evaluates: a built-in kind borrows the state's coordinates, the
/// run-time models are the resolved marker's own.
enum Model<'a> {
    Kind(KindMarker<'a>),
    LieGroup(LieGroupMarkerView<'a>),
    Other(&'a dyn MarkerKinematics),
}

/// Kinematics of one resolved marker at a state (`qt` total coordinates, `v` velocities, both
/// global).
pub struct MarkerState<'a> {
    /// The marker as assembly resolved it.
    pub marker: &'a ResolvedMarker,
    at: MarkerAt<'a>,
    model: Model<'a>,
}

/// A marker's own coordinates and velocities within `qt` and `v` (its columns are contiguous).
#[inline]
fn own_coordinates<'a>(
    marker: &ResolvedMarker,
    qt: &'a [f64],
    v: &'a [f64],
) -> (&'a [f64], &'a [f64]) {
    match marker.columns.first() {
        Some(&start) => {
            let r = start..start + marker.columns.len();
            (&qt[r.clone()], &v[r])
        }
        None => (&[], &[]),
    }
}

/// What [`MarkerState::kernel_args`] gives for `marker` at `qt`, `v`, without building the
/// state: the fast residual's loop over joints calls the pairing kernels with nothing else.
#[inline]
pub fn kernel_args_at<'a>(
    marker: &'a ResolvedMarker,
    qt: &'a [f64],
    v: &'a [f64],
) -> MarkerArgs<'a> {
    match &marker.model {
        MarkerModel::Kind { parameters, .. } => {
            let (coordinates, velocities) = own_coordinates(marker, qt, v);
            MarkerArgs {
                parameters,
                coordinates,
                velocities,
            }
        }
        _ => MarkerArgs {
            parameters: &[],
            coordinates: &[],
            velocities: &[],
        },
    }
}

impl<'a> MarkerState<'a> {
    /// The marker at total coordinates `qt` and velocities `v`.
    pub fn new(marker: &'a ResolvedMarker, qt: &'a [f64], v: &'a [f64]) -> Self {
        let model = match &marker.model {
            MarkerModel::Kind { kind, parameters } => {
                let (coordinates, velocities) = own_coordinates(marker, qt, v);
                Model::Kind(KindMarker {
                    kind: kind.index(),
                    parameters,
                    coordinates,
                    velocities,
                    local_rotation: marker.local_rotation.as_ref(),
                })
            }
            MarkerModel::LieGroup(lg) => Model::LieGroup(LieGroupMarkerView {
                marker: lg,
                local_rotation: marker.local_rotation.as_ref(),
            }),
            MarkerModel::KinematicTree(t) => Model::Other(&**t),
            MarkerModel::SuperElement(se) => Model::Other(&**se),
            // read through `ResolvedMarker::coordinate_state` and `coordinate_jacobian`
            MarkerModel::FfrfMass { .. }
            | MarkerModel::RotationCoordinate { .. }
            | MarkerModel::Coordinates => Model::Other(&NoKinematics),
        };
        MarkerState {
            marker,
            at: MarkerAt {
                qt,
                v,
                columns: &marker.columns,
            },
            model,
        }
    }

    /// The marker without its localHT rotation: the body's frame, as an unrolled pairing sees
    /// it (whose joint folds the rotation into its frame parameters).
    pub fn without_local_rotation(mut self) -> Self {
        match &mut self.model {
            Model::Kind(k) => k.local_rotation = None,
            Model::LieGroup(l) => l.local_rotation = None,
            Model::Other(_) => {}
        }
        self
    }

    fn kinematics(&self) -> &dyn MarkerKinematics {
        match &self.model {
            Model::Kind(k) => k,
            Model::LieGroup(l) => l,
            Model::Other(o) => *o,
        }
    }

    /// Global position of the marker point.
    pub fn position(&self) -> Vector3<f64> {
        self.kinematics().position(self.at)
    }

    /// Global velocity of the marker point.
    pub fn velocity(&self) -> Vector3<f64> {
        self.kinematics().velocity(self.at)
    }

    /// Rotation matrix; identity for markers without orientation (mass points, point nodes).
    pub fn rotation(&self) -> Matrix3<f64> {
        self.kinematics().rotation(self.at)
    }

    /// Global angular velocity ω.
    pub fn angular_velocity(&self) -> Vector3<f64> {
        self.kinematics().angular_velocity(self.at)
    }

    /// Angular velocity in the marker frame.
    pub fn angular_velocity_local(&self) -> Vector3<f64> {
        self.kinematics().angular_velocity_local(self.at)
    }

    /// Position Jacobian over the marker's columns, row-major 3 × columns, into `out`.
    ///
    /// A coordinate marker, as the marker-level kernels see it: its Jacobian row in row 0.
    pub fn position_jacobian(&self, out: &mut [f64]) {
        if self.marker.is_coordinate() {
            let n = self.at.columns.len();
            let out = &mut out[..3 * n];
            match &self.marker.model {
                MarkerModel::RotationCoordinate { node, index } => {
                    MarkerState::new(node, self.at.qt, self.at.v).rotation_jacobian(out);
                    out.copy_within(index * n..(index + 1) * n, 0);
                }
                _ => out[..n].fill(1.0),
            }
            out[n..].fill(0.0);
            return;
        }
        self.kinematics().position_jacobian(self.at, out);
    }

    /// Rotation Jacobian ∂ω/∂q̇ over the marker's columns.
    pub fn rotation_jacobian(&self, out: &mut [f64]) {
        self.kinematics().rotation_jacobian(self.at, out);
    }

    /// `scale·Jᵀx` over the marker's columns into `out[..columns]` (added to it with `add`), J
    /// its rotation Jacobian (`rotation`) or its position Jacobian; `jac` is scratch of 3 ×
    /// columns. How connectors apply a force or a torque to a marker.
    pub fn jacobian_t_times(
        &self,
        rotation: bool,
        x: &Vector3<f64>,
        scale: f64,
        add: bool,
        jac: &mut [f64],
        out: &mut [f64],
    ) {
        let n = self.marker.columns.len();
        let jac = &mut jac[..3 * n];
        if rotation {
            self.rotation_jacobian(jac);
        } else {
            self.position_jacobian(jac);
        }
        for col in 0..n {
            let val: f64 = (0..3).map(|r| jac[r * n + col] * x[r]).sum();
            if add {
                out[col] += scale * val;
            } else {
                out[col] = scale * val;
            }
        }
    }

    /// [`MarkerState::rotation_jacobian`], zero for a built-in kind without orientation (other
    /// models give their own).
    pub fn rotation_jacobian_or_zero(&self, out: &mut [f64]) {
        match &self.model {
            Model::Kind(k) => {
                if mk::rotation_jacobian(k.kind, k.parameters, k.coordinates, out).is_none() {
                    out.fill(0.0);
                }
            }
            _ => self.rotation_jacobian(out),
        }
    }

    /// ∂(J_posᵀ f)/∂q over the marker's columns (columns × columns).
    pub fn position_jacobian_t_times_vector_q(&self, f: &[f64; 3], out: &mut [f64]) {
        self.kinematics()
            .position_jacobian_t_times_vector_q(self.at, f, out);
    }

    /// ∂(J_rotᵀ τ)/∂q over the marker's columns (columns × columns), from the marker kind's
    /// generated kernel; `None` for other marker models, whose connectors Exudyn (and the
    /// runtime) differentiate numerically (`analytic_connector_jacobian`).
    pub fn rotation_jacobian_t_times_vector_q(&self, t: &[f64; 3], out: &mut [f64]) -> Option<()> {
        match &self.model {
            Model::Kind(k) => {
                mk::rotation_jacobian_t_times_vector_q(k.kind, k.parameters, k.coordinates, t, out)
            }
            _ => None,
        }
    }

    /// J_posᵀ·f over the marker's columns into `out`: for a marker kind by its generated
    /// kernel, which never forms J_pos; otherwise J_pos formed in `jac` (3 × columns) and
    /// multiplied.
    pub fn position_jacobian_t_times(&self, f: &[f64; 3], out: &mut [f64], jac: &mut [f64]) {
        match &self.model {
            Model::Kind(k) => {
                mk::position_jacobian_t_times(k.kind, k.parameters, k.coordinates, f, out)
                    .expect(RESOLVED);
            }
            _ => {
                let n = out.len();
                let jac = &mut jac[..3 * n];
                self.kinematics().position_jacobian(self.at, jac);
                for (c, x) in out.iter_mut().enumerate() {
                    *x = (0..3).map(|r| jac[r * n + c] * f[r]).sum();
                }
            }
        }
    }

    /// Whether the marker's true derivatives by its coordinates and its rates are known
    /// ([`MarkerState::position_q`], [`MarkerState::rotation_q`], [`MarkerState::rates`]): for
    /// the built-in kinds, from their generated kernels. Other models (superelement,
    /// kinematic-tree, Lie-group and rotation-coordinate markers) compose a joint's second-order
    /// terms by differences, and its position-level Jacobian as Exudyn's.
    pub fn has_derivatives(&self) -> bool {
        matches!(self.model, Model::Kind(_))
    }

    /// ∂p/∂q over the marker's columns (3 × columns, row-major) into `out`: the position's own
    /// derivative (for Euler parameters off |θ| = 1 not J_pos). A coordinate marker's value is
    /// its position's first entry, as the marker-level kernels see it. `None` without
    /// [`MarkerState::has_derivatives`].
    pub fn position_q(&self, out: &mut [f64]) -> Option<()> {
        let Model::Kind(k) = &self.model else {
            return None;
        };
        if self.marker.is_coordinate() {
            let n = self.at.columns.len();
            out[..n].fill(1.0);
            out[n..3 * n].fill(0.0);
            return Some(());
        }
        mk::position_q(k.kind, k.parameters, k.coordinates, out)
    }

    /// ∂A/∂q over the marker's columns (9 × columns, one row per entry of A, row-major) into
    /// `out`, the marker frame's (a local rotation R turns it: ∂(A·R)/∂q); zero for a marker
    /// without orientation. `None` without [`MarkerState::has_derivatives`].
    pub fn rotation_q(&self, out: &mut [f64]) -> Option<()> {
        let Model::Kind(k) = &self.model else {
            return None;
        };
        let n = self.at.columns.len();
        let out = &mut out[..9 * n];
        if self.marker.is_coordinate()
            || mk::rotation_q(k.kind, k.parameters, k.coordinates, out).is_none()
        {
            out.fill(0.0);
            return Some(());
        }
        if let Some(r) = k.local_rotation {
            for c in 0..n {
                let a = Matrix3::from_fn(|i, j| out[(3 * i + j) * n + c]) * r;
                for (e, x) in a.transpose().iter().enumerate() {
                    out[e * n + c] = *x;
                }
            }
        }
        Some(())
    }

    /// The marker's rates at q̈ = 0 (ṗ, Ȧ of its frame, ∂v/∂q·q̇, ∂ω/∂q·q̇). A coordinate
    /// marker's value c is its position's first entry and linear in its coordinate: ṗ = (ċ, 0, 0),
    /// the rest zero. `None` without [`MarkerState::has_derivatives`].
    pub fn rates(&self) -> Option<MarkerRates> {
        let Model::Kind(k) = &self.model else {
            return None;
        };
        if self.marker.is_coordinate() {
            let (_, cv) = self.marker.coordinate_state(self.at.qt, self.at.v);
            return Some(MarkerRates {
                position: [cv, 0.0, 0.0],
                ..MarkerRates::default()
            });
        }
        let mut e = [0.0; 18];
        mk::rates(k.kind, k.parameters, k.coordinates, k.velocities, &mut e)?;
        let mut a = Matrix3::from_row_slice(&e[3..12]);
        if let Some(r) = k.local_rotation {
            a *= r;
        }
        Some(MarkerRates {
            position: [e[0], e[1], e[2]],
            rotation: [
                [a[(0, 0)], a[(0, 1)], a[(0, 2)]],
                [a[(1, 0)], a[(1, 1)], a[(1, 2)]],
                [a[(2, 0)], a[(2, 1)], a[(2, 2)]],
            ],
            velocity: [e[12], e[13], e[14]],
            angular_velocity: [e[15], e[16], e[17]],
        })
    }

    /// Slices for the specialized pairing kernels (built-in kinds only; empty otherwise).
    pub fn kernel_args(&self) -> MarkerArgs<'a> {
        match &self.model {
            Model::Kind(k) => MarkerArgs {
                parameters: k.parameters,
                coordinates: k.coordinates,
                velocities: k.velocities,
            },
            Model::LieGroup(_) | Model::Other(_) => MarkerArgs {
                parameters: &[],
                coordinates: &[],
                velocities: &[],
            },
        }
    }

    /// What the marker-level joint kernel sees.
    ///
    /// A coordinate marker carries its value and velocity in the first entries of position and
    /// velocity (the compiler's marker-level convention for Coordinate markers).
    pub fn quantities(&self) -> MarkerQuantities {
        if self.marker.is_coordinate() {
            let (c, cv) = self.marker.coordinate_state(self.at.qt, self.at.v);
            return quantities(
                Vector3::new(c, 0.0, 0.0),
                Vector3::new(cv, 0.0, 0.0),
                Matrix3::identity(),
                Vector3::zeros(),
            );
        }
        self.kinematics().quantities(self.at)
    }
}

#[cfg(test)]
mod tests {
    use joint_core::MarkerKind;

    /// The generated marker kinematics are indexed by `MarkerKind::index`, which this module's
    /// dispatch relies on.
    #[test]
    fn marker_kinematics_kinds_are_joint_cores() {
        for k in MarkerKind::ALL {
            assert_eq!(
                crate::kernels::marker_kinematics::MARKER_KINDS[k.index()],
                k.name()
            );
        }
    }
}
