//! Loads: applied generalized forces.

use crate::items::MarkerIndex;

#[derive(Clone, Debug, PartialEq)]
/// A load: a generalized force applied through a marker (Exudyn's Load… items).
#[non_exhaustive]
pub enum Load {
    /// LoadMassProportional (alias Gravity): Q = J_massᵀ·g, on a BodyMass marker.
    MassProportional {
        /// The item's `name` (empty: none given).
        name: String,
        /// `markerNumber`: the marker it acts on.
        marker: MarkerIndex,
        /// `loadVector`: the force, torque or acceleration vector.
        load_vector: [f64; 3],
    },
    /// LoadForceVector: Q = J_posᵀ·f (f = A·f_local if `body_fixed`).
    ForceVector {
        /// The item's `name` (empty: none given).
        name: String,
        /// `markerNumber`: the marker it acts on.
        marker: MarkerIndex,
        /// `loadVector`: the force, torque or acceleration vector.
        load_vector: [f64; 3],
        /// `bodyFixed`: `load_vector` is given in the marker's frame and turns with it.
        body_fixed: bool,
    },
    /// LoadCoordinate: a generalized force `load` on the one coordinate of a NodeCoordinate
    /// marker.
    Coordinate {
        /// The item's `name` (empty: none given).
        name: String,
        /// `markerNumber`: the marker it acts on (a NodeCoordinate marker).
        marker: MarkerIndex,
        /// `load`: the generalized force.
        load: f64,
    },
    /// LoadTorqueVector: Q = J_rotᵀ·τ (τ = A·τ_local if `body_fixed`).
    TorqueVector {
        /// The item's `name` (empty: none given).
        name: String,
        /// `markerNumber`: the marker it acts on.
        marker: MarkerIndex,
        /// `loadVector`: the force, torque or acceleration vector.
        load_vector: [f64; 3],
        /// `bodyFixed`: `load_vector` is given in the marker's frame and turns with it.
        body_fixed: bool,
    },
}

impl Load {
    /// Exudyn's type name without the `Load` prefix (`ForceVector`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Load::MassProportional { .. } => "MassProportional",
            Load::ForceVector { .. } => "ForceVector",
            Load::TorqueVector { .. } => "TorqueVector",
            Load::Coordinate { .. } => "Coordinate",
        }
    }

    /// The item's `name`.
    pub fn name(&self) -> &str {
        match self {
            Load::MassProportional { name, .. }
            | Load::ForceVector { name, .. }
            | Load::TorqueVector { name, .. }
            | Load::Coordinate { name, .. } => name,
        }
    }

    /// The marker it acts on.
    pub fn marker(&self) -> MarkerIndex {
        match self {
            Load::MassProportional { marker, .. }
            | Load::ForceVector { marker, .. }
            | Load::TorqueVector { marker, .. }
            | Load::Coordinate { marker, .. } => *marker,
        }
    }

    /// `loadVector`.
    ///
    /// A LoadCoordinate's `load` is `[load, 0, 0]` here; [`Load::values`] gives it alone.
    pub fn load_vector(&self) -> [f64; 3] {
        match self {
            Load::MassProportional { load_vector, .. }
            | Load::ForceVector { load_vector, .. }
            | Load::TorqueVector { load_vector, .. } => *load_vector,
            Load::Coordinate { load, .. } => [*load, 0.0, 0.0],
        }
    }

    /// What SensorLoad records: the load vector, or a LoadCoordinate's one `load`.
    pub fn values(&self) -> &[f64] {
        match self {
            Load::MassProportional { load_vector, .. }
            | Load::ForceVector { load_vector, .. }
            | Load::TorqueVector { load_vector, .. } => load_vector,
            Load::Coordinate { load, .. } => std::slice::from_ref(load),
        }
    }

    /// The model-file key of its value (`loadVector`, or `load` of a LoadCoordinate).
    pub fn value_key(&self) -> &'static str {
        match self {
            Load::Coordinate { .. } => "load",
            _ => "loadVector",
        }
    }

    /// `LoadMassProportional(markerNumber=marker, loadVector=g)` on a BodyMass marker: gravity.
    pub fn gravity(marker: MarkerIndex, g: [f64; 3]) -> Load {
        Load::MassProportional {
            name: String::new(),
            marker,
            load_vector: g,
        }
    }

    /// `LoadForceVector(markerNumber=marker, loadVector=f)`: a global force at a position
    /// marker's point ([`Load::body_fixed`] turns it with the marker).
    ///
    /// ```
    /// use joint_runtime::{Load, MarkerIndex};
    /// let push = Load::force(MarkerIndex(2), [0.0, 10.0, 0.0]).named("push");
    /// assert_eq!(push.name(), "push");
    /// let follower = Load::force(MarkerIndex(2), [1.0, 0.0, 0.0]).body_fixed();
    /// assert!(matches!(follower, Load::ForceVector { body_fixed: true, .. }));
    /// ```
    pub fn force(marker: MarkerIndex, f: [f64; 3]) -> Load {
        Load::ForceVector {
            name: String::new(),
            marker,
            load_vector: f,
            body_fixed: false,
        }
    }

    /// `LoadTorqueVector(markerNumber=marker, loadVector=τ)`: a global torque on a rigid
    /// marker's frame ([`Load::body_fixed`] turns it with the marker).
    pub fn torque(marker: MarkerIndex, tau: [f64; 3]) -> Load {
        Load::TorqueVector {
            name: String::new(),
            marker,
            load_vector: tau,
            body_fixed: false,
        }
    }

    /// `LoadCoordinate(markerNumber=marker, load=load)`: a generalized force on the coordinate
    /// of a NodeCoordinate marker.
    pub fn coordinate(marker: MarkerIndex, load: f64) -> Load {
        Load::Coordinate {
            name: String::new(),
            marker,
            load,
        }
    }

    /// The load with its `name`.
    pub fn named(mut self, name: impl Into<String>) -> Load {
        match &mut self {
            Load::MassProportional { name: n, .. }
            | Load::ForceVector { name: n, .. }
            | Load::TorqueVector { name: n, .. }
            | Load::Coordinate { name: n, .. } => *n = name.into(),
        }
        self
    }

    /// A force or torque given in the marker's frame, turning with it (`bodyFixed = True`);
    /// other loads are returned as they are.
    pub fn body_fixed(mut self) -> Load {
        if let Load::ForceVector { body_fixed, .. } | Load::TorqueVector { body_fixed, .. } =
            &mut self
        {
            *body_fixed = true;
        }
        self
    }
}
