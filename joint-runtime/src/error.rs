//! Errors of the runtime: every one names the item, the key and what was expected.

use std::fmt;

/// Which item an error is about, printed as Exudyn users know it: `objects[3] (JointSpherical)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemRef {
    /// The item list: `nodes`, `objects`, `markers`, `loads` or `sensors`.
    pub list: &'static str,
    /// The item's index in its list.
    pub index: usize,
    /// The item's type (`JointSpherical`), if known.
    pub type_name: String,
}

impl fmt::Display for ItemRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}] ({})", self.list, self.index, self.type_name)
    }
}

#[derive(Clone, Debug, PartialEq)]
/// An error of the runtime: a bad item, a bad setting, a singular system or a failed solve.
#[non_exhaustive]
pub enum Error {
    /// A bad value of an item's parameter.
    Item {
        /// The item.
        item: ItemRef,
        /// Its key that is wrong (`markerNumbers`).
        key: String,
        /// What was expected, and what was found.
        message: String,
    },
    /// A bad simulation setting.
    Setting {
        /// The setting's path (`timeIntegration.numberOfSteps`).
        key: String,
        /// What was expected, and what was found.
        message: String,
    },
    /// The system (iteration) matrix is singular; names the equations' items.
    #[non_exhaustive]
    SingularSystem {
        /// What is singular, with the items of the equations concerned.
        message: String,
        /// The time of the step whose matrix it was.
        time: Option<f64>,
        /// The equation without a pivot: its item and coordinate or row
        /// (``algebraic equation 3 of objects[2] (JointSpherical)``).
        equation: Option<String>,
    },
    /// Newton or the step-size control gave up, or an accepted step left a constraint row
    /// violated beyond `SimulationSettings::constraint_tolerance`. The simulation's state,
    /// sensors and outputs are those of the last converged step.
    #[non_exhaustive]
    SolverFailed {
        /// Where and why, in words (with the fields below when they are known).
        message: String,
        /// The time of the step that failed.
        time: Option<f64>,
        /// The worst equation: its item and row (a joint's by its definition's axis name) or
        /// coordinate, as in ``objects[4] (Screw), row `advance` ``.
        equation: Option<String>,
        /// That equation's residual, in its own units.
        residual: Option<f64>,
    },
    /// A model file could not be read.
    Model {
        /// What is wrong.
        message: String,
    },
}

impl Error {
    /// An error of `item`'s `key`.
    pub fn item(item: ItemRef, key: &str, message: impl Into<String>) -> Self {
        Error::Item {
            item,
            key: key.to_owned(),
            message: message.into(),
        }
    }

    /// A solver failure known only by its `message`.
    pub fn solver_failed(message: impl Into<String>) -> Self {
        Error::SolverFailed {
            message: message.into(),
            time: None,
            equation: None,
            residual: None,
        }
    }

    /// A solver failure at time `time`, its worst equation and that equation's residual.
    pub fn solver_failed_at(
        message: impl Into<String>,
        time: f64,
        equation: Option<String>,
        residual: Option<f64>,
    ) -> Self {
        Error::SolverFailed {
            message: message.into(),
            time: Some(time),
            equation,
            residual,
        }
    }

    /// An error of the setting `key`.
    pub fn setting(key: &str, message: impl Into<String>) -> Self {
        Error::Setting {
            key: key.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Item { item, key, message } => write!(f, "{item}: `{key}`: {message}"),
            Error::Setting { key, message } => write!(f, "simulationSettings `{key}`: {message}"),
            Error::SingularSystem { message, .. } => write!(f, "singular system: {message}"),
            Error::SolverFailed { message, .. } => write!(f, "solver failed: {message}"),
            Error::Model { message } => write!(f, "model file: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The runtime's result type.
pub type Result<T> = std::result::Result<T, Error>;
