//! A joint's marker-level kernels composed with two built-in marker kinds' generated kinematics:
//! what an unrolled pairing computes, for any pairing of kinds, at run time, with the same
//! argument layout ([`MarkerArgs`]: the kind's parameters, its node's coordinates and their
//! velocities). The runtime evaluates every joint in its default form so; an embedder gets the
//! same terms, the second-order ones included, without a pairing's code per pair of kinds.
//!
//! ```
//! use joint_core::{Joint, MarkerArgs, MarkerKind};
//! use joint_runtime::composed::{self, KindArgs};
//! joint_runtime::joint! {
//!     pub joint Pin {
//!         marker m0: Position;
//!         marker m1: Position;
//!         axes [x, y, z];
//!         second_order;
//!         position = m1.position - m0.position;
//!     }
//! }
//! // a ground point at the origin and a mass point's node at (1, 2, 3), moving along x
//! let ground = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
//! let (q, v) = ([1.0, 2.0, 3.0], [0.5, 0.0, 0.0]);
//! let m = [
//!     KindArgs { kind: MarkerKind::GroundPoint, args: MarkerArgs { parameters: &ground, ..Default::default() } },
//!     KindArgs { kind: MarkerKind::MassPointBody, args: MarkerArgs { parameters: &[0.0; 3], coordinates: &q, velocities: &v } },
//! ];
//! let (mut b0, mut b1) = ([0.0; 0], [0.0; 9]);
//! composed::jacobian(Pin::DEFINITION, &[], m, &mut b0, &mut b1).unwrap();
//! assert_eq!(b1, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
//! let mut c = [1.0; 3];
//! composed::convective(Pin::DEFINITION, &[], m, &mut c).unwrap();
//! assert_eq!(c, [0.0; 3]); // a point's velocity is linear in q̇
//! ```
//!
//! Each function allocates its scratch space: for embedding and checking, not for a hot loop
//! (the runtime keeps its own). Each returns `None`, having written nothing it promises, if a
//! slice has the wrong length for its kind or the definition, or (second-order terms) if the
//! joint was defined without `second_order;`.

use joint_core::{JointDefinition, MarkerArgs, MarkerKind};

use crate::markers::{MarkerModel, MarkerState, ResolvedMarker};
use crate::physics::Scratch;
use crate::physics::marker_level::{self, Joint};

/// One marker of a built-in kind, with its kernel arguments.
#[derive(Clone, Copy, Debug)]
pub struct KindArgs<'a> {
    /// The marker's kind.
    pub kind: MarkerKind,
    /// Its parameters, its node's coordinates and their velocities.
    pub args: MarkerArgs<'a>,
}

/// The markers resolved over their own coordinates, and scratch space for both; `None` if a
/// length does not fit its kind or the parameters do not fit the definition.
fn resolve(
    definition: &JointDefinition,
    parameters: &[f64],
    m: &[KindArgs; 2],
    velocities: bool,
) -> Option<([ResolvedMarker; 2], Scratch)> {
    if parameters.len() != definition.parameter_len() {
        return None;
    }
    let resolved = |k: &KindArgs| -> Option<ResolvedMarker> {
        let n = k.kind.coordinate_count();
        let v = k.args.velocities.len();
        let fits = k.args.parameters.len() == k.kind.parameter_count()
            && k.args.coordinates.len() == n
            && (v == n || (!velocities && v == 0));
        fits.then(|| ResolvedMarker {
            model: MarkerModel::Kind {
                kind: k.kind,
                parameters: k.args.parameters.to_vec(),
            },
            columns: (0..n).collect(),
            mass: 0.0,
            provides_position: k.kind.provides(joint_core::Capability::Position),
            provides_orientation: k.kind.provides(joint_core::Capability::Rigid),
            local_rotation: None,
        })
    };
    let markers = [resolved(&m[0])?, resolved(&m[1])?];
    let n = markers[0].columns.len().max(markers[1].columns.len());
    Some((markers, Scratch::with_size(2 * n, definition.rows())))
}

/// The markers' states: each over its own coordinates (velocities zero where not read).
fn states<'a>(markers: &'a [ResolvedMarker; 2], m: &'a [KindArgs; 2]) -> [MarkerState<'a>; 2] {
    [0, 1].map(|i| {
        let v = if m[i].args.velocities.is_empty() {
            m[i].args.coordinates
        } else {
            m[i].args.velocities
        };
        MarkerState::new(&markers[i], m[i].args.coordinates, v)
    })
}

fn joint<'a>(definition: &'static JointDefinition, parameters: &'a [f64]) -> Joint<'a> {
    Joint {
        definition,
        parameters,
    }
}

/// The rows at `level` into `out` (one entry per row; a joint written at velocity level has
/// only those: they are its rows at both levels).
fn rows_at(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    velocity: bool,
    out: &mut [f64],
) -> Option<()> {
    let (markers, _) = resolve(definition, parameters, &m, velocity)?;
    if out.len() != definition.rows() {
        return None;
    }
    let s = states(&markers, &m);
    let ml = &definition.marker_level;
    let f = if velocity {
        ml.velocity_residual
    } else {
        ml.position_residual
    };
    f(parameters, &s[0].quantities(), &s[1].quantities(), out)
}

/// The position-level residual g into `out`; `None` for a joint written at velocity level.
pub fn position_residual(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    out: &mut [f64],
) -> Option<()> {
    rows_at(definition, parameters, m, false, out)
}

/// The velocity-level residual into `out`, the markers' `velocities` being q̇.
pub fn velocity_residual(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    out: &mut [f64],
) -> Option<()> {
    rows_at(definition, parameters, m, true, out)
}

/// Exudyn's constraint Jacobian C_q = ∂ṙ/∂v·J_pos + ∂ṙ/∂ω·J_rot: `block0` (rows × the
/// coordinates of m0) and `block1`, row-major.
pub fn jacobian(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    block0: &mut [f64],
    block1: &mut [f64],
) -> Option<()> {
    blocks(
        definition,
        parameters,
        m,
        [block0, block1],
        |j, s, scratch| {
            marker_level::jacobian(j, s, scratch);
            true
        },
    )
}

/// ∂g/∂q, the position level's own Jacobian (for Euler parameters off |θ| = 1 not C_q), in
/// [`jacobian`]'s blocks; `None` for a joint written at velocity level.
pub fn position_jacobian(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    block0: &mut [f64],
    block1: &mut [f64],
) -> Option<()> {
    if definition.level == joint_core::ResidualLevel::Velocity {
        return None;
    }
    blocks(
        definition,
        parameters,
        m,
        [block0, block1],
        marker_level::position_jacobian,
    )
}

/// Blocks (rows × each marker's coordinates) that `fill` writes into the scratch's `jac_a` and
/// `jac_b`, copied into `out` after their lengths are checked; `None` if `fill` cannot.
fn blocks(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    out: [&mut [f64]; 2],
    fill: impl FnOnce(Joint, [&MarkerState; 2], &mut Scratch) -> bool,
) -> Option<()> {
    let (markers, mut scratch) = resolve(definition, parameters, &m, false)?;
    let rows = definition.rows();
    let n = [markers[0].columns.len(), markers[1].columns.len()];
    if out[0].len() != rows * n[0] || out[1].len() != rows * n[1] {
        return None;
    }
    let s = states(&markers, &m);
    if !fill(joint(definition, parameters), [&s[0], &s[1]], &mut scratch) {
        return None;
    }
    let [b0, b1] = out;
    b0.copy_from_slice(&scratch.jac_a[..rows * n[0]]);
    b1.copy_from_slice(&scratch.jac_b[..rows * n[1]]);
    Some(())
}

/// C_qᵀλ per marker into `force0` and `force1` (one entry per coordinate), without forming C_q.
pub fn reaction_forces(
    definition: &'static JointDefinition,
    parameters: &[f64],
    lambda: &[f64],
    m: [KindArgs; 2],
    force0: &mut [f64],
    force1: &mut [f64],
) -> Option<()> {
    let (markers, mut scratch) = resolve(definition, parameters, &m, false)?;
    let n = [markers[0].columns.len(), markers[1].columns.len()];
    if lambda.len() != definition.rows() || force0.len() != n[0] || force1.len() != n[1] {
        return None;
    }
    let s = states(&markers, &m);
    // both markers' columns side by side: m0's, then m1's
    let mut r = vec![0.0; n[0] + n[1]];
    let shifted = ResolvedMarker {
        columns: (n[0]..n[0] + n[1]).collect(),
        ..markers[1].clone()
    };
    let mut q1 = vec![0.0; n[0]];
    q1.extend_from_slice(m[1].args.coordinates);
    let s1 = MarkerState::new(&shifted, &q1, &q1);
    marker_level::add_reaction_forces(
        joint(definition, parameters),
        [&s[0], &s1],
        lambda,
        &mut r,
        &mut scratch,
    );
    force0.copy_from_slice(&r[..n[0]]);
    force1.copy_from_slice(&r[n[0]..]);
    Some(())
}

/// The convective term −(∂(C_q v)/∂q)·v of the acceleration-level rows into `out` (one entry
/// per row), the markers' `velocities` being v; `None` without `second_order;`.
pub fn convective(
    definition: &'static JointDefinition,
    parameters: &[f64],
    m: [KindArgs; 2],
    out: &mut [f64],
) -> Option<()> {
    let (markers, _) = resolve(definition, parameters, &m, true)?;
    if out.len() != definition.rows() || definition.level == joint_core::ResidualLevel::Velocity {
        return None;
    }
    let s = states(&markers, &m);
    marker_level::convective(joint(definition, parameters), [&s[0], &s[1]], out).then_some(())
}

/// ∂(C_qᵀλ)/∂q, the geometric stiffness, into `out`: one row-major (n0 + n1)² block over the
/// coordinates of m0 then m1; `None` without `second_order;`.
pub fn reaction_q(
    definition: &'static JointDefinition,
    parameters: &[f64],
    lambda: &[f64],
    m: [KindArgs; 2],
    out: &mut [f64],
) -> Option<()> {
    let (markers, mut scratch) = resolve(definition, parameters, &m, false)?;
    let n = markers[0].columns.len() + markers[1].columns.len();
    if lambda.len() != definition.rows() || out.len() != n * n {
        return None;
    }
    let s = states(&markers, &m);
    marker_level::reaction_q(
        joint(definition, parameters),
        [&s[0], &s[1]],
        lambda,
        out,
        &mut scratch,
    )
    .then_some(())
}
