//! MarkerSuperElementPosition and MarkerSuperElementRigid on ObjectGenericODE2 and
//! ObjectFFRFreducedOrder (spec/superelements-and-kinematic-trees.md §0, §2.5, §3–5), checked at
//! seeded random states of every superelement marker of tests/reference/own_cases/se_*.json and
//! tests/reference/exudyn_cases/superelement_position.json:
//!
//! * the reported kinematics against an independent implementation of the spec formulas (and
//!   independence of every coordinate outside the marker's columns);
//! * velocity = J_p·q̇ and J_p = ∂velocity/∂q̇ column by column;
//! * d/dt position along the motion (central differences) = velocity, and ∂position/∂q = J_p;
//! * d/dt rotation along the motion against the reported angular velocities — exact where the
//!   spec says so, the documented small-angle formula elsewhere;
//! * J_r·q̇ and J_r column by column against ∂ω/∂q̇ and against ∂rotation/∂q;
//! * ∂(J_pᵀf)/∂q against central differences of J_p(q)ᵀf.
//!
//! States: displacements of size ~0.05 for Point nodes and modal coordinates, velocities of size
//! ~1; the Euler parameters of FFRF frames are random unit vectors θ (total coordinates) with
//! θ̇ ⊥ θ, where Exudyn's kinematic relations (ω_loc = G_loc·θ̇, Ȧ = A·ω̃_loc) are exact. Finite
//! differences in the θ columns are only taken in directions tangent to |θ| = 1.

use std::collections::BTreeSet;
use std::ops::Index;

use crate::Simulation;
use crate::markers::MarkerState;
use crate::markers::ResolvedMarker;
use crate::model::read_model;
use crate::{Marker, Node, Object};

mod checks;
mod coverage;
mod kinematics;
mod models;
mod random;
mod rotations;
mod vectors;

// The modules' items, for each other (modules holding only tests add none).
#[allow(unused_imports)]
use {checks::*, coverage::*, kinematics::*, models::*, random::*, rotations::*, vectors::*};

const OWN_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/reference/own_cases/");
const EXUDYN_CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/reference/exudyn_cases/"
);

/// Central-difference step and tolerance (relative to max(1, |expected|)).
const H: f64 = 1e-6;
const TOL_FD: f64 = 1e-6;
/// Tolerance of identities that hold up to round-off.
const TOL_EXACT: f64 = 1e-12;
/// Random states per model.
const STATES: u64 = 3;
