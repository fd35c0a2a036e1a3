//! A joint object: one item of a multibody system, of any joint type.

use joint_core::{Joint, JointParameters};

use super::joint_type::JointType;
use crate::items::MarkerIndex;

/// What scenes read of a joint (`Vshow`, the type's size key, `Vcolor`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointVisualization {
    /// `Vshow`: whether scenes draw the joint.
    pub show: bool,
    /// Sphere radius (`VjointRadius`, `VaxisRadius`) or drawing size (`VdrawSize`); ≤ 0 means the
    /// scene's default.
    pub size: f64,
    /// RGBA; R = −1 means the default connector colour.
    pub color: [f64; 4],
}

impl JointVisualization {
    /// The defaults of a joint type.
    pub fn of(joint_type: &JointType) -> Self {
        JointVisualization {
            show: true,
            size: joint_type.default_size,
            color: [-1.0; 4],
        }
    }
}

/// A joint between two markers.
#[derive(Clone, Debug, PartialEq)]
pub struct JointObject {
    /// What kind of joint it is.
    pub joint_type: JointType,
    /// The item's `name` (empty: none given).
    pub name: String,
    /// `markerNumbers`: the joint acts between these two markers (marker 0's frame is the
    /// joint frame of Exudyn's rigid joints).
    pub markers: [MarkerIndex; 2],
    /// The definition's parameters, in its order, each flattened (matrices row-major): the
    /// slice its kernels take.
    pub parameters: Vec<f64>,
    /// `constrainedAxes` as given (checked at assemble): 1 = constrained, 0 = free.
    pub constrained_axes: Vec<i64>,
    /// `activeConnector`: an inactive joint's rows are `λ = 0`.
    pub active: bool,
    /// How scenes draw it.
    pub visualization: JointVisualization,
}

impl JointObject {
    /// A joint of type `joint_type` with its default axes, active, unnamed.
    pub fn of_type(joint_type: JointType, markers: [MarkerIndex; 2], parameters: Vec<f64>) -> Self {
        JointObject {
            constrained_axes: joint_type.default_axes(),
            visualization: JointVisualization::of(&joint_type),
            joint_type,
            name: String::new(),
            markers,
            parameters,
            active: true,
        }
    }

    /// A joint defined with `joint!`, between `markers`, with `parameters`:
    ///
    /// ```
    /// use joint_runtime::{JointObject, MarkerIndex};
    /// joint_runtime::joint! {
    ///     pub joint Glue {
    ///         marker m0: Position;
    ///         marker m1: Position;
    ///         param offset: vector;
    ///         axes [x, y, z];
    ///         position = m1.position - m0.position - offset;
    ///     }
    /// }
    /// let joint = JointObject::new::<Glue>(
    ///     [MarkerIndex(0), MarkerIndex(1)],
    ///     glue::Parameters { offset: [0.0, 0.0, 0.5] },
    /// );
    /// assert_eq!(joint.parameters, [0.0, 0.0, 0.5]);
    /// assert_eq!(joint.constrained_axes, [1, 1, 1]);
    /// ```
    /// A joint of a type defined with `joint!`, with its typed parameters.
    pub fn new<J: Joint>(markers: [MarkerIndex; 2], parameters: J::Parameters) -> Self {
        Self::of_type(JointType::of::<J>(), markers, parameters.to_values())
    }

    /// With the item's `name`.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_owned();
        self
    }

    /// `constrainedAxes` (1 = constrained, 0 = free).
    pub fn with_constrained_axes(mut self, axes: &[i64]) -> Self {
        self.constrained_axes = axes.to_vec();
        self
    }

    /// `activeConnector`.
    pub fn with_active(mut self, active: bool) -> Self {
        self.active = active;
        self
    }
}
