//! Connector families: an Exudyn connector item whose behaviour is all in one file of this
//! folder — its keys and defaults, its checks, its forces on its markers, the Jacobian Exudyn
//! takes for it, its PostNewton (the data coordinates it keeps), its outputs — behind
//! [`ConnectorFamily`]. The reader, assembly, physics, the solvers and the outputs each have
//! one arm for all of them ([`Object::Connector`](crate::items::Object::Connector)); adding
//! one is its file and its line in [`CONNECTOR_TYPES`].
//!
//! A family sees its markers as assembly resolved them (`ResolvedMarker`) at total
//! coordinates `qt` and velocities `v`, and its data node's coordinates (`data`, empty without
//! a node): nothing of the layers above.

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

use crate::error::Result;
use crate::items::{MarkerIndex, NodeIndex, OutputVariable};
use crate::markers::ResolvedMarker;

mod contact_sphere_sphere;
mod coordinate_spring_damper;
mod coordinate_spring_damper_ext;
mod torsional_spring_damper;

pub use contact_sphere_sphere::ContactSphereSphere;
pub use coordinate_spring_damper::CoordinateSpringDamper;
pub use coordinate_spring_damper_ext::CoordinateSpringDamperExt;
pub use torsional_spring_damper::TorsionalSpringDamper;

/// An Exudyn connector item's type: how model files spell it and how its dictionary is read.
pub struct ConnectorType {
    /// The canonical name (`ConnectorCoordinateSpringDamperExt`).
    pub name: &'static str,
    /// Every spelling model files may use, the canonical one included.
    pub spellings: &'static [&'static str],
    /// The item from its dictionary (every key read through `keys`, which refuses the rest).
    pub read: fn(keys: &mut dyn ItemKeys) -> Result<ConnectorObject>,
}

/// The connector families the runtime knows, by Exudyn's type names.
pub const CONNECTOR_TYPES: &[ConnectorType] = &[
    coordinate_spring_damper::TYPE,
    coordinate_spring_damper_ext::TYPE,
    torsional_spring_damper::TYPE,
    contact_sphere_sphere::TYPE,
];

/// The family spelled `name` in a model file, if one is.
pub fn connector_type(name: &str) -> Option<&'static ConnectorType> {
    CONNECTOR_TYPES.iter().find(|t| t.spellings.contains(&name))
}

/// An item dictionary as a family reads it, strictly: each key once, unknown keys refused,
/// every error naming the item and the key (the model reader implements it).
pub trait ItemKeys {
    /// `name`, or `objectN` as Exudyn names an unnamed item.
    fn name(&mut self) -> Result<String>;
    /// A number, `default` if absent.
    fn f64_or(&mut self, key: &'static str, default: f64) -> Result<f64>;
    /// A number if present.
    fn opt_f64(&mut self, key: &'static str) -> Result<Option<f64>>;
    /// A boolean, `default` if absent.
    fn bool_or(&mut self, key: &'static str, default: bool) -> Result<bool>;
    /// Two item numbers (`markerNumbers`).
    fn two_indices(&mut self, key: &'static str) -> Result<[usize; 2]>;
    /// Two numbers, `default` if absent.
    fn vec2(&mut self, key: &'static str, default: [f64; 2]) -> Result<[f64; 2]>;
    /// A 3 × 3 matrix, the identity if absent.
    fn matrix3_or_identity(&mut self, key: &'static str) -> Result<nalgebra::Matrix3<f64>>;
    /// An item number that may be absent or invalid (Exudyn writes −1 for none).
    fn opt_index(&mut self, key: &'static str) -> Result<Option<usize>>;
    /// A user function key: accepted only unset (0), as a model file cannot carry one.
    fn no_user_function(&mut self, key: &'static str) -> Result<()>;
    /// The error of `key`'s value.
    fn error(&self, key: &str, message: String) -> crate::error::Error;
}

/// What a family asks of its markers, checked at assembly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerNeed {
    /// A coordinate marker (MarkerNodeCoordinate, MarkerNodeRotationCoordinate).
    Coordinate,
    /// A marker with orientation (BodyRigid, NodeRigid, …).
    Orientation,
    /// A marker with a position.
    Position,
}

/// How scenes draw a connector of a family.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum FamilyDrawing {
    /// Not drawn (Exudyn draws nothing for it, or its markers have no position).
    None,
    /// A sphere of each radius at its marker, as Exudyn draws ObjectContactSphereSphere where
    /// `visualizationSettings.contact.showSpheres` is set (a hollow sphere as a plain one).
    ContactSpheres {
        /// Marker 0's sphere's and marker 1's.
        radii: [f64; 2],
    },
}

/// The behaviour of one connector of a family.
pub trait ConnectorFamily: Debug + Send + Sync + Any {
    /// Exudyn's type name.
    fn type_name(&self) -> &'static str;
    /// What its markers must be.
    fn marker_need(&self) -> MarkerNeed;
    /// The data coordinates it keeps in its data node (`nodeNumber`, a NodeGenericData), 0 if
    /// it needs none; an error names what made it need them.
    fn data_size(&self) -> usize;
    /// Why it needs a data node (the error when `nodeNumber` is missing).
    fn data_reason(&self) -> &'static str {
        "it keeps state between steps"
    }
    /// Its checks at assembly, beyond markers and data node: (key, message) of the first
    /// value Exudyn refuses.
    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        Ok(())
    }
    /// Its generalized forces on its markers' columns, in Exudyn's LHS convention (the
    /// left-hand side gets them): `out[..n0]` marker 0's, `out[n0..n0 + n1]` marker 1's; `jac`
    /// is scratch for a marker's Jacobian (3 × columns); `q` the displacements where the caller
    /// has them apart from `qt` (a forward difference). Called only while active.
    #[allow(clippy::too_many_arguments)]
    fn lhs(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        q: Option<&[f64]>,
        v: &[f64],
        data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    );
    /// Whether Exudyn forms its Jacobian analytically ([`Self::analytic_jacobian`]) between
    /// these markers; otherwise it differentiates the LHS numerically (the data coordinates
    /// held fixed), and so does the runtime. By default: numerically.
    fn takes_analytic_jacobian(&self, _m: [&ResolvedMarker; 2]) -> bool {
        false
    }
    /// The local `factor_k·K + factor_d·D` over the markers' columns (row-major, both markers'
    /// columns in order) into `out`; called only where [`Self::takes_analytic_jacobian`].
    fn analytic_jacobian(
        &self,
        _m: [&ResolvedMarker; 2],
        _qt: &[f64],
        _v: &[f64],
        _factor_k: f64,
        _factor_d: f64,
        _out: &mut [f64],
    ) {
        unreachable!(
            "{}: called only where takes_analytic_jacobian (Exudyn differentiates it numerically)",
            self.type_name()
        )
    }
    /// Whether it takes part in PostNewton and the discontinuous iteration.
    fn has_post_newton(&self) -> bool {
        false
    }
    /// Exudyn's PostNewton after a converged solve: the new data coordinates into `data` (which
    /// holds the current ones), from those at the step's start (`data_start`), and the
    /// discontinuous error (0: nothing switched) with the step size it recommends, if any.
    fn post_newton(
        &self,
        _m: [&ResolvedMarker; 2],
        _qt: &[f64],
        _v: &[f64],
        _data: &mut [f64],
        _data_start: &[f64],
    ) -> PostNewton {
        PostNewton::default()
    }
    /// Output `var` appended to `out` (allocating nothing once `out` has room: sensors read it
    /// every step); `None` if the family has no such output.
    #[allow(clippy::too_many_arguments)]
    fn output(
        &self,
        var: OutputVariable,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        active: bool,
        out: &mut Vec<f64>,
    ) -> Option<()>;
    /// How scenes draw it.
    fn drawing(&self) -> FamilyDrawing {
        FamilyDrawing::None
    }
    /// Equality with another family's connector (items compare equal when their parameters do).
    fn same_as(&self, other: &dyn ConnectorFamily) -> bool;
}

/// What PostNewton found: the discontinuous error (a force, in the item's units) and the step
/// size that would reach the switch (Exudyn's recommended step size).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PostNewton {
    /// The discontinuous error (0: nothing switched).
    pub error: f64,
    /// The recommended step size, if the item recommends one.
    pub recommended_step: Option<f64>,
}

impl From<PostNewton> for (f64, Option<f64>) {
    fn from(p: PostNewton) -> Self {
        (p.error, p.recommended_step)
    }
}

/// One connector item of a family.
#[derive(Clone, Debug)]
pub struct ConnectorObject {
    /// Its family and parameters.
    pub family: Arc<dyn ConnectorFamily>,
    /// `name`.
    pub name: String,
    /// `markerNumbers`.
    pub markers: [MarkerIndex; 2],
    /// `nodeNumber`: its NodeGenericData, where it needs one.
    pub data_node: Option<NodeIndex>,
    /// `activeConnector`.
    pub active: bool,
}

impl PartialEq for ConnectorObject {
    fn eq(&self, other: &Self) -> bool {
        self.family.same_as(other.family.as_ref())
            && self.name == other.name
            && self.markers == other.markers
            && self.data_node == other.data_node
            && self.active == other.active
    }
}
