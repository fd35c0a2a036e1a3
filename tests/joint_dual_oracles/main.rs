//! Every generated kernel of every built-in joint (Spherical, Distance, RevoluteZ, PrismaticX,
//! GenericRows), for every pairing of marker kinds — composed from the joint's marker-level
//! kernels and the kinds' kinematics (`joint::runtime::composed`, every joint's default form),
//! and the unrolled pairings the joint lists — against an independent oracle differentiated
//! exactly with num-dual, at random states (proptest, fixed seed). The second-order terms are
//! the composed ones for both (pairings have none of their own).
//!
//! The oracle re-implements, generic over num-dual numbers and without calling generated code,
//!
//! * each marker kind's kinematics from `shared/spec/items.md` §2, §3 and §5: ground
//!   `p` (the runtime's p_g + R_g·b), `A = R_g`, `ω̄ = 0`; mass point `p = x + b`, `v = ẋ`; node point `p = x`;
//!   2-D mass point `p = [x, y, 0] + b`, `v = [ẋ, ẏ, 0]`; 2-D node point `p = [x, y, 0]`;
//!   planar rigid bodies `p = [x, y, 0] + Rz(ψ)·b`, `ω = ω̄ = [0, 0, ψ̇]`;
//!   rigid bodies `p = x + A·b`, `v = ẋ + A·(ω̄ × b)`; rigid nodes `p = x`, `v = ẋ`; with the
//!   spec's `A(θ)` (Euler parameters, not normalised), `A(ψ) = Rx·Ry·Rz` and `ω̄ = Ḡ·θ̇`;
//! * each joint's position- and velocity-level rows from `docs/joint-formulas.md` §0–§4: joint
//!   frames `A_Ji = A_i·R_i` with columns `t_ki`, their rates `ṫ_ki = A_i·(ω̄_i × R_i·e_k)`;
//!   global rows `Δp_k` / `Δv_k`, local rows `t_k0·Δp` / `t_k0·Δv + ṫ_k0·Δp`, rotation rows
//!   `t_a0·t_b1` / `ṫ_a0·t_b1 + t_a0·ṫ_b1`, distance `|Δp| − d` / `Δp·Δv/|Δp|`.
//!
//! What the generated code claims, and the identity each check relies on (`g` position level,
//! `g_v(q, q̇)` velocity level, `C` the generated Jacobian, all exact derivatives by num-dual):
//!
//! * **A** `position_residual = g(q)` and `velocity_residual = g_v(q, q̇)`, at every state.
//! * **B** `C = ∂g_J/∂q̇`, Exudyn's constraint Jacobian (docs/joint-formulas.md §0, §6.5): `g_J`
//!   is the velocity level with frame axes turning with the *global* angular velocity,
//!   `ṫ = ω × t`, `ω = G·q̇`, so rotation rows are `(a×b)ᵀ·G`; at every state, on and off the
//!   Euler-parameter manifold (hyper-dual part `eps2`, seeding q̇). Off the manifold this is not
//!   `∂g_v/∂q̇`, whose rotation rows use `A·skew(ω̄)`; Exudyn's Newton path and multipliers
//!   follow C (the revolute_tilted_door reference case).
//! * **C** the convective term `−(∂(C·q̇)/∂q)·q̇`: row r is `−Σ_jc ∂²g_J,r/∂q_j∂q̇_c · q̇_c · q̇_j`
//!   (hyper-dual `eps1eps2`, seeding `q_j` and `q̇_c`), at every state.
//! * **D** `reaction_q = ∂(Cᵀλ)/∂q`: entry (c, j) is `Σ_r λ_r ∂²g_J,r/∂q_j∂q̇_c`, at every state.
//! * **E** the link between the two levels, which makes B–D more than a re-typing of the velocity
//!   formulas: Exudyn's kinematic relations are exact derivatives of the position wherever
//!   `Ȧ = A·skew(Ḡθ̇)`, i.e. always for Tait–Bryan angles (A orthonormal), and trivially for
//!   points and ground, but for Euler parameters only on the manifold `|θ| = 1` along tangents
//!   `w_θ ⟂ θ` (the spec, §5: `∂(A b)/∂θ = −A skew(b) Ḡ + 2(A − I) b θᵀ`, whose last term
//!   vanishes on tangents). So
//!   * **E1** `C·w = ∂g/∂q·w` (dual numbers along w) for `w = e_c` of every coordinate whose
//!     column is exact identically in q — all coordinates of markers without Euler parameters,
//!     and the translation coordinates x of markers with them — at every state (the other
//!     marker may be off the manifold: its coordinates do not enter these columns); and, on the
//!     manifold, for the tangent projections `w = e_c − θ_c·θ` of the Euler parameters;
//!   * **E2** `velocity_residual = d/dt g(q + t·q̇)` where every EP marker is on the manifold
//!     (θ̇ ⟂ θ);
//!   * **E3** those identically exact columns satisfy `C[:, c] = ∂g/∂q_c` as functions of q,
//!     hence `reaction_q[c, j] = Σ_r λ_r ∂²g_r/∂q_c∂q_j` (the position residual's Hessian,
//!     hyper-dual) for every j; and if neither marker has Euler parameters, also
//!     the convective row r `= −Σ_jc ∂²g_r/∂q_j∂q_c · q̇_c · q̇_j`.
//!
//! * **F** `position_jacobian = ∂g/∂q` of the position level, every column (dual numbers along
//!   `e_j`), at every state, on and off the manifold: the Jacobian consistent with the residual
//!   that the fast solver path's constraint rows use (Exudyn's C differs from it by the last
//!   term above, even on the manifold along `θ`).
//!
//! * **G** `reaction_forces = Cᵀλ` (the kernel's reverse sweep) against the hyper-dual C of B,
//!   at every state.
//!
//! Tolerances: all identities are exact in real arithmetic, so the comparisons only absorb
//! rounding: `|got − want| ≤ 1e-12·(1 + max |want| over the compared block)`. The block scale
//! (rather than the entry's own size) accounts for entries that arise from cancelling terms of the
//! block's magnitude; the generated straight-line code and the oracle associate sums differently.

use joint::core::{JointDefinition, JointParameters as _, MarkerArgs, MarkerKind};
use joint::runtime::kernels::{
    distance, generic_rows, prismatic_2d, prismatic_x, revolute_2d, revolute_z, spherical,
};
use num_dual::{Dual64, DualNum, HyperDual64};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

mod comparisons;
mod evaluations;
mod joint_oracle;
mod kernels;
mod marker_oracle;
#[path = "../support/marker_states.rs"]
mod marker_states;
mod random_states;

// The modules' items, for each other (modules holding only tests add none).
use marker_states::*;
#[allow(unused_imports)]
use {
    comparisons::*, evaluations::*, joint_oracle::*, kernels::*, marker_oracle::*, random_states::*,
};

// ------------------------------------------------------------------------------------------------
// Marker kinds, as the test knows them (the order of `MARKER_KINDS`).

const KINDS: [MarkerKind; 11] = [
    MarkerKind::GroundPoint,
    MarkerKind::MassPointBody,
    MarkerKind::RigidEpPoint,
    MarkerKind::RigidRxyzPoint,
    MarkerKind::NodePoint,
    MarkerKind::NodeEp,
    MarkerKind::NodeRxyz,
    MarkerKind::MassPoint2DBody,
    MarkerKind::NodePoint2D,
    MarkerKind::Rigid2DPoint,
    MarkerKind::NodeRigid2D,
];

fn has_orientation(kind: MarkerKind) -> bool {
    !matches!(
        kind,
        MarkerKind::MassPointBody
            | MarkerKind::NodePoint
            | MarkerKind::MassPoint2DBody
            | MarkerKind::NodePoint2D
    )
}

/// A random marker state ([`marker_states::marker_state`]) with this test's ground rotation,
/// [`rotation_from`].
fn marker_state(kind: MarkerKind, r: &[f64], on_manifold: bool) -> MarkerState {
    marker_states::marker_state(kind, r, on_manifold, rotation_from)
}
