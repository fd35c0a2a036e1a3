//! A model's result: its run ([`Model::run`]) and the result file of spec/model-format.md
//! ("Result files").

use serde_json::{Value, json};

use super::Model;
use crate::error::Result;
use crate::simulation::SensorRows;
use crate::simulation::Simulation;
use crate::system::MultibodySystem;

impl Model {
    /// Assemble and run the requested solve.
    pub fn run(&self) -> Result<Simulation> {
        let mut sim = self.mbs.assemble()?;
        sim.solve_observed(self.solve, &self.settings, &mut |_, _| {})?;
        Ok(sim)
    }
}

/// The result of a solve as the JSON object of spec/model-format.md: final time, ODE2
/// coordinates (displacements), velocities, accelerations, AE coordinates, every sensor's
/// stored rows and the solver statistics; with ODE1 coordinates (NodeGenericODE1), also
/// `ode1Coordinates` and `ode1Velocities` (Exudyn's `GetODE1Coordinates`, `…_t`).
pub fn result_json(sim: &Simulation) -> Value {
    let sensors: Vec<Value> = sim
        .mbs
        .sensors
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut sensor = json!({
                "index": i,
                "name": MultibodySystem::display_name("sensors", i, &s.name),
                "outputVariableType": s.output.exudyn_name(),
                "values": sim.sensor_data.get(i).map(SensorRows::to_vecs).unwrap_or_default(),
            });
            if let Some(names) = sim.sensor_components(crate::items::SensorIndex(i)) {
                sensor["components"] = json!(names);
            }
            sensor
        })
        .collect();
    let st = &sim.statistics;
    let mut result = json!({
        "time": sim.state.time,
        "ode2Coordinates": sim.state.q,
        "ode2Velocities": sim.state.v,
        "ode2Accelerations": sim.state.a,
        "aeCoordinates": sim.state.lambda,
        "sensors": sensors,
        "statistics": {
            "steps": st.steps,
            "newtonIterations": st.newton.iterations,
            "jacobianEvaluations": st.newton.jacobians,
            "rejectedModifiedNewtonSteps": st.newton.rejected_modified_newton_steps,
            "rejectedAutomaticStepSizeSteps": st.rejected_automatic_steps,
            "lastStepSize": st.last_step_size,
            "solverSeconds": st.solver_seconds,
            "linearSolver": if st.sparse_solver { "sparse" } else { "dense" },
            "matrixNonzeros": st.matrix_nonzeros,
            "factorNonzeros": st.factor_nonzeros,
            "largestConstraintResidual": st.largest_constraint_residual,
            "evaluations": st.evaluations,
            "estimatedError": st.estimated_error,
            "sparseFactorizations": {
                "full": st.sparse_factorizations.full,
                "replayed": st.sparse_factorizations.replayed,
                "repivoted": st.sparse_factorizations.repivoted,
                "repivotedColumns": st.sparse_factorizations.repivoted_columns,
            },
        },
    });
    if sim.topology.n_ode1 > 0 {
        result["ode1Coordinates"] = json!(sim.state.y);
        result["ode1Velocities"] = json!(sim.state.y_t);
    }
    result
}
