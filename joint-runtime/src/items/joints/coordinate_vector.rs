//! Coordinate-vector joints (markers declared `Coordinates` in `joint!`): constraints on two
//! markers' whole coordinate vectors, with run-time-sized matrix parameters. Exudyn's
//! ObjectConnectorCoordinateVector is one ([`CoordinateVectorObject::exudyn`]).

use joint_core::{CoordinateVectorDefinition, CoordinateVectorJoint, DynParameter};

use crate::items::MarkerIndex;
use crate::kernels::{coordinate_vector_constraint, coordinate_vector_velocity_constraint};

/// A run-time-sized parameter value: `rows × columns`, row-major (empty: absent).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DynValue {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub columns: usize,
    /// The values, row-major.
    pub values: Vec<f64>,
}

impl DynValue {
    /// A matrix from its rows (all of one length; `[]` is empty).
    pub fn matrix(rows: &[Vec<f64>]) -> Self {
        let columns = rows.first().map_or(0, Vec::len);
        DynValue {
            rows: rows.len(),
            columns,
            values: rows.concat(),
        }
    }

    /// A column vector (`[]` is empty).
    pub fn vector(values: &[f64]) -> Self {
        DynValue {
            rows: values.len(),
            columns: usize::from(!values.is_empty()),
            values: values.to_vec(),
        }
    }

    /// A scalar (1 × 1).
    pub fn scalar(value: f64) -> Self {
        DynValue {
            rows: 1,
            columns: 1,
            values: vec![value],
        }
    }

    /// As the kernels take it.
    pub fn view(&self) -> DynParameter<'_> {
        DynParameter {
            rows: self.rows,
            columns: self.columns,
            values: &self.values,
        }
    }
}

/// The most parameters a coordinate-vector joint may have (their views live on the stack
/// during a kernel call); `joint!` refuses a definition with more.
pub use joint_core::MAX_DYN_PARAMETERS;

/// Calls `f` with the kernels' views of `values`, without allocating.
pub(crate) fn with_views<R>(values: &[DynValue], f: impl FnOnce(&[DynParameter]) -> R) -> R {
    let empty = DynParameter {
        rows: 0,
        columns: 0,
        values: &[],
    };
    let mut views = [empty; MAX_DYN_PARAMETERS];
    for (v, d) in views.iter_mut().zip(values) {
        *v = d.view();
    }
    f(&views[..values.len()])
}

/// ObjectConnectorCoordinateVector's keys of the definition's parameters, in order.
pub const EXUDYN_KEYS: [&str; 5] = [
    "scalingMarker0",
    "scalingMarker1",
    "quadraticTermMarker0",
    "quadraticTermMarker1",
    "offset",
];

/// A coordinate-vector joint between two coordinate-vector markers (MarkerNodeCoordinates,
/// MarkerObjectODE2Coordinates).
#[derive(Clone, Debug)]
pub struct CoordinateVectorObject {
    /// The joint as the compiler defined it.
    pub definition: &'static CoordinateVectorDefinition,
    /// The item's type name (`ConnectorCoordinateVector`, or the definition's name).
    pub type_name: &'static str,
    /// The item's `name` (empty: none given).
    pub name: String,
    /// `markerNumbers`.
    pub markers: [MarkerIndex; 2],
    /// The definition's parameters, in its order.
    pub parameters: Vec<DynValue>,
    /// `activeConnector`: an inactive joint's rows are `λ = 0`.
    pub active: bool,
}

impl PartialEq for CoordinateVectorObject {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.definition, other.definition)
            && self.type_name == other.type_name
            && self.name == other.name
            && self.markers == other.markers
            && self.parameters == other.parameters
            && self.active == other.active
    }
}

impl CoordinateVectorObject {
    /// A coordinate-vector joint of type `J` between `markers`, with its parameters in the
    /// definition's order; active and unnamed.
    pub fn new<J: CoordinateVectorJoint>(
        markers: [MarkerIndex; 2],
        parameters: Vec<DynValue>,
    ) -> Self {
        Self::of_definition(J::DEFINITION, markers, parameters)
    }

    /// A coordinate-vector joint of `definition`.
    pub fn of_definition(
        definition: &'static CoordinateVectorDefinition,
        markers: [MarkerIndex; 2],
        parameters: Vec<DynValue>,
    ) -> Self {
        CoordinateVectorObject {
            definition,
            type_name: definition.name,
            name: String::new(),
            markers,
            parameters,
            active: true,
        }
    }

    /// Exudyn's `ObjectConnectorCoordinateVector(markerNumbers, scalingMarker0, scalingMarker1,
    /// quadraticTermMarker0, quadraticTermMarker1, offset, velocityLevel)`.
    pub fn exudyn(
        markers: [MarkerIndex; 2],
        scaling: [DynValue; 2],
        quadratic: [DynValue; 2],
        offset: DynValue,
        velocity_level: bool,
    ) -> Self {
        let definition = if velocity_level {
            &coordinate_vector_velocity_constraint::DEFINITION
        } else {
            &coordinate_vector_constraint::DEFINITION
        };
        let [x0, x1] = scaling;
        let [y0, y1] = quadratic;
        CoordinateVectorObject {
            definition,
            type_name: "ConnectorCoordinateVector",
            name: String::new(),
            markers,
            parameters: vec![x0, x1, y0, y1, offset],
            active: true,
        }
    }

    /// The model-file key of parameter `i` (Exudyn's camelCase names for its item, the
    /// definition's names otherwise).
    pub fn key_of(&self, i: usize) -> &'static str {
        if self.type_name == "ConnectorCoordinateVector" {
            EXUDYN_KEYS[i]
        } else {
            self.definition.parameters[i].name
        }
    }

    /// With the item's `name`.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// `activeConnector`.
    pub fn with_active(mut self, active: bool) -> Self {
        self.active = active;
        self
    }
}

/// A coordinate-vector joint as assembly resolved it.
#[derive(Clone, Debug)]
pub struct CoordinateVectorTopology {
    /// Index of its object.
    pub object: usize,
    /// Its two markers (coordinate-vector markers).
    pub markers: [usize; 2],
    /// The compiler's definition.
    pub definition: &'static CoordinateVectorDefinition,
    /// Its parameters, shapes checked.
    pub parameters: Vec<DynValue>,
    /// First AE coordinate; it owns `rows` of them.
    pub ae: usize,
    /// Number of rows.
    pub rows: usize,
    /// `activeConnector`.
    pub active: bool,
}

impl CoordinateVectorTopology {
    /// Whether its rows are written at velocity level.
    pub fn velocity_level(&self) -> bool {
        self.definition.level == joint_core::ResidualLevel::Velocity
    }
}
