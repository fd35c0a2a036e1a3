//! The items of a multibody system, with Exudyn's parameters.

pub mod beam;
pub mod connectors;
pub mod joints;
pub mod load;
pub mod marker;
pub mod matrix;
pub mod node;
pub mod object;
pub mod output_variable;
pub mod sensor;

pub use load::Load;
pub use marker::Marker;
pub use matrix::MatrixContainer;
pub use node::Node;
pub use object::{FfrfParameters, KinematicTreeParameters, Object};
pub use output_variable::OutputVariable;
pub use sensor::{Sensor, SensorTarget};

macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub usize);
        impl $name {
            /// The index as a number.
            pub fn index(self) -> usize {
                self.0
            }
        }
    };
}

index_type!(/// Index of a node (Exudyn's NodeIndex).
    NodeIndex);
index_type!(/// Index of an object (Exudyn's ObjectIndex).
    ObjectIndex);
index_type!(/// Index of a marker (Exudyn's MarkerIndex).
    MarkerIndex);
index_type!(/// Index of a load (Exudyn's LoadIndex).
    LoadIndex);
index_type!(/// Index of a sensor (Exudyn's SensorIndex).
    SensorIndex);
