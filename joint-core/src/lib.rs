//! # joint-core
//!
//! The types that the code `joint!` generates and the runtimes that call it share: marker kinds
//! ([`MarkerKind`], [`Capability`]), one marker's kernel arguments ([`MarkerArgs`]), a pairing's
//! kernels behind a uniform slice interface ([`Pairing`]), the marker-level kernels
//! ([`MarkerQuantities`], [`MarkerLevel`]) and the joint itself ([`JointDefinition`], the
//! [`Joint`] trait every generated joint implements), and force elements ([`ForceDefinition`],
//! [`ForceJacobian`], the [`Force`] trait), and coordinate-vector joints on whole coordinate
//! vectors of run-time length ([`CoordinateVectorDefinition`], [`DynParameter`]).
//!
//! [`joint!`] is the constraint compiler (the proc macro of `joint-macros`), re-exported so that
//! its output names this crate wherever it is used.

#![warn(missing_docs)]
// no_std (with alloc: run-time sizes, names): the kernels a definition generates build for
// firmware; the feature `std` (default) only chooses the float functions `Scalar` uses.
#![no_std]

#[doc(hidden)]
pub extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod coordinate_vector;
mod definition;
mod force;
mod marker_args;
mod marker_kind;
mod marker_level;
mod pairing;
mod scalar;

pub use coordinate_vector::{
    CoordinateVectorDefinition, CoordinateVectorJoint, DynJacobianFn, DynParameter,
    DynParameterInfo, DynReactionFn, DynReactionQFn, DynResidualFn, DynRowsFn, DynSecondOrder,
    DynShape, DynSizeError, MAX_DYN_PARAMETERS,
};
pub use definition::{
    Joint, JointDefinition, JointParameters, MarkerDeclaration, OutputInfo, OutputName,
    ParameterInfo, ParameterShape, ResidualLevel, StateInfo,
};
pub use force::{
    Force, ForceDefinition, ForceFn, ForceJacobian, ForceJacobianFn, TorqueDefinition,
};
pub use marker_args::MarkerArgs;
pub use marker_kind::{Capability, MarkerKind};
pub use marker_level::{
    MARKER_LEVEL_REACTION_Q_LEN, MarkerLevel, MarkerLevelJacobian, MarkerLevelJacobianFn,
    MarkerLevelPositionJacobian, MarkerLevelPositionJacobianFn, MarkerLevelRateFn,
    MarkerLevelReaction, MarkerLevelReactionFn, MarkerLevelReactionQ, MarkerLevelReactionQFn,
    MarkerLevelResidualFn, MarkerLevelResidualReactionFn, MarkerLevelSecondOrder, MarkerQuantities,
    MarkerRates,
};
pub use pairing::{BlocksFn, Pairing, ReactionFn, ResidualFn, ResidualReactionFn};
pub use scalar::Scalar;

#[doc(hidden)]
pub mod __private {
    pub use crate::alloc;
    pub use joint_macros;
}

/// Define joints: the constraint compiler. See the `joint` crate's documentation for the
/// language; this is `joint_macros::joint!` with its output pointed at this crate.
#[macro_export]
macro_rules! joint {
    ($($definition:tt)*) => {
        $crate::__private::joint_macros::joint! { crate = $crate; $($definition)* }
    };
}
