//! Exudyn's connector items, each in one file of this folder that says everything about it —
//! its keys and defaults, its checks, its forces on its markers (its own, or a `joint!` force
//! definition's: [`ConnectorFamily::defined_force`]), the Jacobian Exudyn takes for it, its
//! PostNewton (the data coordinates it keeps), its outputs, its drawing — behind
//! [`ConnectorFamily`]. The reader, assembly, physics, the solvers, the outputs and the scene
//! each have one arm for all of them ([`Object::Connector`](crate::items::Object::Connector));
//! adding one is its file and its line in [`CONNECTOR_TYPES`].
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

mod cartesian_spring_damper;
mod contact_sphere_sphere;
mod coordinate_spring_damper;
mod coordinate_spring_damper_ext;
mod defined;
mod gravity;
mod linear_spring_damper;
mod rigid_body_spring_damper;
mod spring_damper;
mod torsional_spring_damper;

pub use cartesian_spring_damper::CartesianSpringDamper;
pub use contact_sphere_sphere::ContactSphereSphere;
pub use coordinate_spring_damper::CoordinateSpringDamper;
pub use coordinate_spring_damper_ext::CoordinateSpringDamperExt;
pub use defined::{ConnectorForce, DefinedForce, ExudynJacobian, ForceHook};
pub(crate) use defined::{PARAMETERS_CHECKED, defined_force_between};
pub use gravity::Gravity;
pub use linear_spring_damper::LinearSpringDamper;
pub use rigid_body_spring_damper::{RigidBodySpring, RigidBodySpringDamper};
pub use spring_damper::SpringDamper;
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
    spring_damper::TYPE,
    cartesian_spring_damper::TYPE,
    linear_spring_damper::TYPE,
    rigid_body_spring_damper::TYPE,
    gravity::TYPE,
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
    /// Three numbers, `default` if absent.
    fn vec3(&mut self, key: &'static str, default: [f64; 3]) -> Result<[f64; 3]>;
    /// Six numbers, `default` if absent.
    fn vec6(&mut self, key: &'static str, default: [f64; 6]) -> Result<[f64; 6]>;
    /// A boolean if present.
    fn opt_bool(&mut self, key: &'static str) -> Result<Option<bool>>;
    /// A 6 × 6 matrix (row-major), zero if absent.
    fn matrix6_or_zero(&mut self, key: &'static str) -> Result<[[f64; 6]; 6]>;
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
    /// A cylinder between its markers, of the item's `VdrawSize` (or the connectors' default
    /// size), as the runtime draws springs.
    Line,
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
    /// it needs none (the default); an error names what made it need them.
    fn data_size(&self) -> usize {
        0
    }
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
    /// has them apart from `qt` (a forward difference). Called only while active, and only for
    /// a family without a [`Self::defined_force`] (whose forces come from its definition).
    #[allow(clippy::too_many_arguments)]
    fn lhs(
        &self,
        _m: [&ResolvedMarker; 2],
        _qt: &[f64],
        _q: Option<&[f64]>,
        _v: &[f64],
        _data: &[f64],
        _out: &mut [f64],
        _jac: &mut [f64],
    ) {
        unreachable!(
            "{}: a connector with a defined force applies its definition's",
            self.type_name()
        )
    }
    /// Its force as a `joint!` force definition with its parameters, if it has one (Exudyn's
    /// built-in force connectors): assembly lays it out once and the runtime evaluates and
    /// differentiates it as a user's force element; [`Self::lhs`] and the analytic Jacobian
    /// are then not called.
    fn defined_force(&self) -> Option<DefinedForce> {
        None
    }
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
    /// Output `var` at `at` appended to `out` (allocating nothing once `out` has room: sensors
    /// read it every step); `None` if the family has no such output.
    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()>;
    /// How scenes draw it.
    fn drawing(&self) -> FamilyDrawing {
        FamilyDrawing::None
    }
    /// Equality with another family's connector (items compare equal when their parameters do).
    fn same_as(&self, other: &dyn ConnectorFamily) -> bool;
}

/// A connector at a state, as its outputs see it.
#[derive(Clone, Copy, Debug)]
pub struct ConnectorAt<'a> {
    /// Its markers, as assembly resolved them.
    pub markers: [&'a ResolvedMarker; 2],
    /// Total coordinates.
    pub qt: &'a [f64],
    /// Velocities.
    pub v: &'a [f64],
    /// Its data node's coordinates (empty without one).
    pub data: &'a [f64],
    /// `activeConnector`.
    pub active: bool,
    /// Its [`DefinedForce`]'s parameters as assembly laid them out (empty without one).
    pub parameters: &'a [f64],
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

impl ConnectorObject {
    /// A connector of `family` between `markers`: active, unnamed, without a data node.
    pub fn new(family: Arc<dyn ConnectorFamily>, markers: [MarkerIndex; 2]) -> ConnectorObject {
        ConnectorObject {
            family,
            name: String::new(),
            markers,
            data_node: None,
            active: true,
        }
    }
}

/// The connector of `family` with its `name`, `markerNumbers` and `activeConnector` from
/// `keys` (a family without a data node).
pub(super) fn read_connector(
    keys: &mut dyn ItemKeys,
    family: Arc<dyn ConnectorFamily>,
) -> Result<ConnectorObject> {
    let [m0, m1] = keys.two_indices("markerNumbers")?;
    let mut c = ConnectorObject::new(family, [MarkerIndex(m0), MarkerIndex(m1)]);
    c.name = keys.name()?;
    c.active = keys.bool_or("activeConnector", true)?;
    Ok(c)
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
