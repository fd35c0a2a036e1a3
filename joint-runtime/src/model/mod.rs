//! Model files: Exudyn item dictionaries and simulation settings as JSON
//! (spec/model-format.md), read strictly into a [`MultibodySystem`] and
//! [`SimulationSettings`]; and the result file.
//!
//! ```
//! use joint_runtime::model::{SolveKind, read_model};
//! let model = read_model(r#"{
//!     "nodes": [{"nodeType": "Point", "referenceCoordinates": [0, 0, 0]}],
//!     "objects": [{"objectType": "MassPoint", "mass": 1.0, "nodeNumber": 0}],
//!     "simulationSettings": {"timeIntegration": {"numberOfSteps": 10}}
//! }"#).unwrap();
//! assert_eq!(model.mbs.objects.len(), 1);
//! assert_eq!(model.settings.time_integration.number_of_steps, 10);
//! assert_eq!(model.solve, SolveKind::Dynamic);
//! ```

mod fields;
mod graphics_data;
mod read;
mod result;
mod settings;
#[cfg(test)]
mod tests;
mod visualization;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::items::joints::JointRegistry;
use crate::settings::SimulationSettings;
use crate::system::MultibodySystem;
use fields::describe;
use read::List;

pub use graphics_data::{Color, GraphicsData};
pub use result::result_json;
pub use visualization::{
    ClassSettings, ContactSettings, NodeVisual, ObjectVisual, Visualization, VisualizationSettings,
};

pub use crate::settings::SolveKind;

/// A model file's content.
#[derive(Clone, Debug)]
pub struct Model {
    /// The items.
    pub mbs: MultibodySystem,
    /// `simulationSettings`.
    pub settings: SimulationSettings,
    /// `"solve"`: SolveDynamic or SolveStatic.
    pub solve: SolveKind,
}

fn model_error(message: impl Into<String>) -> Error {
    Error::Model {
        message: message.into(),
    }
}

const TOP_LEVEL_KEYS: [&str; 9] = [
    "nodes",
    "objects",
    "markers",
    "loads",
    "sensors",
    "simulationSettings",
    "solve",
    "dynamicSolverType",
    // read only by `read_model_and_visualization` (scenes), as Exudyn's solvers ignore it
    "visualizationSettings",
];

/// Read a model file (spec/model-format.md). Strict: unknown types, unknown keys, values of the
/// wrong shape or type and user functions are errors that name the item and the key. Item
/// numbers are range-checked later, by `assemble`.
pub fn read_model(json: &str) -> Result<Model> {
    read_model_with(json, &JointRegistry::exudyn())
}

/// [`read_model`] with the joint types of `registry`: a custom joint's item is
/// `{"objectType": NAME, "markerNumbers": …, "constrainedAxes": …, "activeConnector": …,
/// "name": …, <each parameter by its name>: …}`, read as strictly as Exudyn's items.
pub fn read_model_with(json: &str, registry: &JointRegistry) -> Result<Model> {
    model_from(&parse(json)?, registry)
}

/// [`read_model_with`] and the model's visualization (its items' drawing keys and
/// `visualizationSettings`, for scenes), from one parse of the text.
pub fn read_model_and_visualization(
    json: &str,
    registry: &JointRegistry,
) -> Result<(Model, Visualization)> {
    let root = parse(json)?;
    let model = model_from(&root, registry)?;
    let visualization = visualization::visualization_from(&root, &model.mbs)?;
    Ok((model, visualization))
}

/// The model file's JSON.
fn parse(json: &str) -> Result<Value> {
    serde_json::from_str(json).map_err(|e| {
        let hint = if e.is_syntax() && (json.contains("NaN") || json.contains("Infinity")) {
            " (note: NaN and Infinity are not valid JSON numbers)"
        } else {
            ""
        };
        model_error(format!("not valid JSON: {e}{hint}"))
    })
}

fn model_from(root: &Value, registry: &JointRegistry) -> Result<Model> {
    // a force element or coordinate-vector joint spelled as one of Exudyn's objects would
    // shadow it in model files
    let registered = (registry.forces().iter().map(|f| ("force element", f.name))).chain(
        registry
            .coordinate_vectors()
            .iter()
            .map(|c| ("coordinate-vector joint", c.name)),
    );
    for (what, name) in registered {
        if let Some(t) = read::builtin_object_type(name) {
            return Err(model_error(format!(
                "the registered {what} `{name}` has the name of Exudyn's {t}: model files could not tell them apart; rename it"
            )));
        }
    }
    let top = root.as_object().ok_or_else(|| {
        model_error(format!(
            "the top level must be a dictionary, found {}",
            describe(root)
        ))
    })?;
    if let Some(key) = top.keys().find(|k| !TOP_LEVEL_KEYS.contains(&k.as_str())) {
        return Err(model_error(format!(
            "unknown top-level key `{key}` (known keys: {})",
            TOP_LEVEL_KEYS.join(", ")
        )));
    }

    let list = |l: List| -> Result<&[Value]> {
        match top.get(l.name()) {
            None => Ok(&[]),
            Some(Value::Array(a)) => Ok(a.as_slice()),
            Some(other) => Err(model_error(format!(
                "`{}` must be an array of item dictionaries, found {}",
                l.name(),
                describe(other)
            ))),
        }
    };

    let mut mbs = MultibodySystem::new();
    for (i, v) in list(List::Nodes)?.iter().enumerate() {
        mbs.add_node(read::read_node(i, v)?);
    }
    for (i, v) in list(List::Objects)?.iter().enumerate() {
        mbs.add_object(read::read_object(i, v, registry)?);
    }
    for (i, v) in list(List::Markers)?.iter().enumerate() {
        mbs.add_marker(read::read_marker(i, v)?);
    }
    for (i, v) in list(List::Loads)?.iter().enumerate() {
        mbs.add_load(read::read_load(i, v)?);
    }
    for (i, v) in list(List::Sensors)?.iter().enumerate() {
        mbs.add_sensor(read::read_sensor(i, v, registry)?);
    }

    let mut settings = match top.get("simulationSettings") {
        None => SimulationSettings::default(),
        Some(Value::Object(map)) => settings::read_settings(map)?,
        Some(other) => {
            return Err(model_error(format!(
                "`simulationSettings` must be a dictionary, found {}",
                describe(other)
            )));
        }
    };

    let solve = match top.get("solve") {
        None => SolveKind::Dynamic,
        Some(Value::String(s)) if s == "dynamic" => SolveKind::Dynamic,
        Some(Value::String(s)) if s == "static" => SolveKind::Static,
        Some(other) => {
            return Err(model_error(format!(
                "`solve` must be \"dynamic\" or \"static\", found {}",
                describe(other)
            )));
        }
    };

    // SolveDynamic's `solverType` argument: it takes the place of timeIntegration.solverType
    match (top.get("dynamicSolverType"), solve) {
        (None, _) => {}
        (Some(Value::String(t)), SolveKind::Dynamic) => {
            settings.time_integration.solver_type = settings::dynamic_solver_type(t)
                .map_err(|m| model_error(format!("`dynamicSolverType`: {m}")))?;
        }
        (Some(Value::String(_)), SolveKind::Static) => {
            return Err(model_error(
                "`dynamicSolverType` is SolveDynamic's; this model asks for a static solve",
            ));
        }
        (Some(other), _) => {
            return Err(model_error(format!(
                "`dynamicSolverType` must be the name of an Exudyn DynamicSolverType, found {}",
                describe(other)
            )));
        }
    }

    // The settings the requested solver will use are checked now, so nothing runs on them.
    match solve {
        SolveKind::Dynamic => settings.validate_dynamic()?,
        SolveKind::Static => settings.validate_static()?,
    }
    Ok(Model {
        mbs,
        settings,
        solve,
    })
}
