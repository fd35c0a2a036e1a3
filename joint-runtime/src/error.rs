//! Errors of the runtime: every one names the item, the key and what was expected.

use std::fmt;

/// Which item an error is about, printed as Exudyn users know it: `objects[3] (JointSpherical)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemRef {
    pub list: &'static str,
    pub index: usize,
    pub type_name: String,
}

impl fmt::Display for ItemRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}] ({})", self.list, self.index, self.type_name)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// A bad value of an item's parameter.
    Item {
        item: ItemRef,
        key: String,
        message: String,
    },
    /// A bad simulation setting.
    Setting { key: String, message: String },
    /// The system (iteration) matrix is singular; names the equations' items.
    SingularSystem { message: String },
    /// Newton or the step-size control gave up.
    SolverFailed { message: String },
    /// A model file could not be read.
    Model { message: String },
}

impl Error {
    pub fn item(item: ItemRef, key: &str, message: impl Into<String>) -> Self {
        Error::Item {
            item,
            key: key.to_owned(),
            message: message.into(),
        }
    }

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
            Error::SingularSystem { message } => write!(f, "singular system: {message}"),
            Error::SolverFailed { message } => write!(f, "solver failed: {message}"),
            Error::Model { message } => write!(f, "model file: {message}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
