//! A force element object: one item of a multibody system whose force is defined with
//! `joint!` (`pub force Name { … }`).

use joint_core::{Force, ForceDefinition, JointParameters};

use crate::items::MarkerIndex;

/// A force between two markers, of a force element defined with `joint!`: `f` acts on marker 0
/// and `−f` on marker 1. The solvers take its stiffness and damping from the definition's
/// generated derivatives.
#[derive(Clone, Debug)]
pub struct ForceObject {
    /// The force element as the compiler defined it.
    pub definition: &'static ForceDefinition,
    /// The item's `name` (empty: none given).
    pub name: String,
    /// `markerNumbers`.
    pub markers: [MarkerIndex; 2],
    /// The definition's parameters, in its order, each flattened (matrices row-major).
    pub parameters: Vec<f64>,
    /// `activeConnector`: an inactive force element applies no force.
    pub active: bool,
    /// `Vshow`: whether scenes draw it (a line between the markers).
    pub show: bool,
}

impl PartialEq for ForceObject {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.definition, other.definition)
            && self.name == other.name
            && self.markers == other.markers
            && self.parameters == other.parameters
            && self.active == other.active
            && self.show == other.show
    }
}

impl ForceObject {
    /// A force element of a type defined with `joint!`, between `markers`, with its typed
    /// parameters; active, shown, unnamed:
    ///
    /// ```
    /// use joint_runtime::{ForceObject, MarkerIndex};
    /// joint_runtime::joint! {
    ///     /// A linear spring of rest length 0.
    ///     pub force Spring {
    ///         marker m0: Position;
    ///         marker m1: Position;
    ///         param stiffness: scalar;
    ///         force = stiffness * (m1.position - m0.position);
    ///     }
    /// }
    /// let spring = ForceObject::new::<Spring>(
    ///     [MarkerIndex(0), MarkerIndex(1)],
    ///     spring::Parameters { stiffness: 100.0 },
    /// );
    /// assert_eq!(spring.parameters, [100.0]);
    /// ```
    pub fn new<F: Force>(markers: [MarkerIndex; 2], parameters: F::Parameters) -> Self {
        Self::of_definition(F::DEFINITION, markers, parameters.to_values())
    }

    /// A force element of `definition` with its flat parameter values.
    pub fn of_definition(
        definition: &'static ForceDefinition,
        markers: [MarkerIndex; 2],
        parameters: Vec<f64>,
    ) -> Self {
        ForceObject {
            definition,
            name: String::new(),
            markers,
            parameters,
            active: true,
            show: true,
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
