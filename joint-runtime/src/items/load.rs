//! Loads: applied generalized forces.

use crate::items::MarkerIndex;

#[derive(Clone, Debug, PartialEq)]
pub enum Load {
    /// LoadMassProportional (alias Gravity): Q = J_massᵀ·g, on a BodyMass marker.
    MassProportional {
        name: String,
        marker: MarkerIndex,
        load_vector: [f64; 3],
    },
    /// LoadForceVector: Q = J_posᵀ·f (f = A·f_local if `body_fixed`).
    ForceVector {
        name: String,
        marker: MarkerIndex,
        load_vector: [f64; 3],
        body_fixed: bool,
    },
    /// LoadTorqueVector: Q = J_rotᵀ·τ (τ = A·τ_local if `body_fixed`).
    TorqueVector {
        name: String,
        marker: MarkerIndex,
        load_vector: [f64; 3],
        body_fixed: bool,
    },
}

impl Load {
    pub fn type_name(&self) -> &'static str {
        match self {
            Load::MassProportional { .. } => "MassProportional",
            Load::ForceVector { .. } => "ForceVector",
            Load::TorqueVector { .. } => "TorqueVector",
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Load::MassProportional { name, .. }
            | Load::ForceVector { name, .. }
            | Load::TorqueVector { name, .. } => name,
        }
    }

    pub fn marker(&self) -> MarkerIndex {
        match self {
            Load::MassProportional { marker, .. }
            | Load::ForceVector { marker, .. }
            | Load::TorqueVector { marker, .. } => *marker,
        }
    }

    pub fn load_vector(&self) -> [f64; 3] {
        match self {
            Load::MassProportional { load_vector, .. }
            | Load::ForceVector { load_vector, .. }
            | Load::TorqueVector { load_vector, .. } => *load_vector,
        }
    }

    pub fn gravity(marker: MarkerIndex, g: [f64; 3]) -> Load {
        Load::MassProportional {
            name: String::new(),
            marker,
            load_vector: g,
        }
    }
}
