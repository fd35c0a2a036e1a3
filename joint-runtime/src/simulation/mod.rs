//! An assembled system: items, topology and state — what the solvers advance and the outputs
//! read.

use crate::assemble::Topology;
use crate::error::{Error, Result};
use crate::items::{
    MarkerIndex, NodeIndex, ObjectIndex, OutputVariable, SensorIndex, SensorTarget,
};
use crate::output::Outputs;
use crate::system::MultibodySystem;

mod item_states;
pub mod sensor_rows;

pub use crate::state::{NewtonStatistics, Progress, SolverStatistics, State};
pub use sensor_rows::SensorRows;

/// A system after `assemble()`: its items, their topology (computed once), the state, the
/// sensors' rows and the last solve's statistics. Read them through the accessors; the solvers
/// (`solve_dynamic`, `solve_static`, `solve_observed`) advance it.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// The items.
    pub(crate) mbs: MultibodySystem,
    /// Their topology, computed once by `assemble()`.
    pub(crate) topology: Topology,
    /// The current state.
    pub(crate) state: State,
    /// Per sensor: rows `[t, values…]`.
    pub(crate) sensor_data: Vec<SensorRows>,
    /// What the last solve did.
    pub(crate) statistics: SolverStatistics,
}

impl MultibodySystem {
    /// Exudyn's `mbs.Assemble()`: check every item, lay out the coordinates, select the
    /// generated kernels, and set the state to the initial values.
    pub fn assemble(&self) -> Result<Simulation> {
        let topology = Topology::build(self)?;
        let mut q = Vec::with_capacity(topology.n_ode2);
        let mut v = Vec::with_capacity(topology.n_ode2);
        let mut data = Vec::new();
        let mut y = Vec::with_capacity(topology.n_ode1);
        for node in &self.nodes {
            q.extend_from_slice(node.initial_coordinates());
            v.extend_from_slice(node.initial_velocities());
            data.extend_from_slice(node.initial_data());
            y.extend_from_slice(node.ode1_initial());
        }
        Simulation::initial_item_states(&topology, &mut data);
        let n2 = topology.n_ode2;
        let nae = topology.n_ae;
        let mut sim = Simulation {
            mbs: self.clone(),
            state: State {
                time: 0.0,
                q,
                v,
                a: vec![0.0; n2],
                lambda: vec![0.0; nae],
                data,
                // Exudyn starts ẏ at zero
                y_t: vec![0.0; y.len()],
                y,
            },
            sensor_data: Vec::with_capacity(self.sensors.len()),
            statistics: SolverStatistics::default(),
            topology,
        };
        // Evaluate every sensor once so that an output variable the item does not have is
        // reported now, not in the middle of a run; this also gives each sensor's row width.
        for i in 0..self.sensors.len() {
            let values = sim.sensor_value(SensorIndex(i))?.len();
            sim.sensor_data.push(SensorRows::new(values));
        }
        Ok(sim)
    }
}

/// Exudyn's output functions (`mbs.Get…Output`, Current configuration), read from
/// [`Simulation::outputs`].
impl Simulation {
    /// The items it was assembled from (read only: assembly fixed its structure).
    pub fn system(&self) -> &MultibodySystem {
        &self.mbs
    }

    /// The current state: time, coordinates, velocities, accelerations, multipliers, data.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The state to change before a solve (initial values of your own, or a state to read
    /// outputs at); its vectors keep their lengths.
    pub fn state_mut(&mut self) -> &mut State {
        &mut self.state
    }

    /// What the last solve did.
    pub fn statistics(&self) -> &SolverStatistics {
        &self.statistics
    }

    /// The ODE2 coordinates' reference values (a node's `referenceCoordinates`): the total
    /// coordinates are these plus `state().q`.
    pub fn reference_coordinates(&self) -> &[f64] {
        &self.topology.reference
    }

    /// Every joint object with the generated kernel it runs through (an unrolled pairing,
    /// `spherical::rigid_ep_point_to_rigid_ep_point`, or the joint's marker-level kernels,
    /// `my_spherical::marker_level`), in object order.
    pub fn joint_kernels(&self) -> Vec<(ObjectIndex, String)> {
        self.topology
            .joints
            .iter()
            .map(|j| (ObjectIndex(j.object), j.kernel_name()))
            .collect()
    }

    /// The outputs at the current state.
    pub fn outputs(&self) -> Outputs<'_> {
        Outputs {
            mbs: &self.mbs,
            topology: &self.topology,
            state: &self.state,
        }
    }

    /// Exudyn's `mbs.GetNodeOutput(node, variable)`.
    pub fn node_output(&self, node: NodeIndex, var: OutputVariable) -> Result<Vec<f64>> {
        self.outputs().output(&SensorTarget::Node(node), var)
    }

    /// Exudyn's `mbs.GetObjectOutputBody(body, variable, localPosition)`, with the local position
    /// second here: `sim.body_output(body, [0.5, 0.0, 0.0], OutputVariable::Position)`.
    pub fn body_output(
        &self,
        body: ObjectIndex,
        local_position: [f64; 3],
        var: OutputVariable,
    ) -> Result<Vec<f64>> {
        self.outputs().output(
            &SensorTarget::Body {
                body,
                local_position,
            },
            var,
        )
    }

    /// SensorKinematicTree's values: link `link` of the kinematic tree `object` at
    /// `local_position` of the link frame.
    pub fn kinematic_tree_output(
        &self,
        object: ObjectIndex,
        link: usize,
        local_position: [f64; 3],
        var: OutputVariable,
    ) -> Result<Vec<f64>> {
        let target = SensorTarget::KinematicTree {
            object,
            link,
            local_position,
        };
        self.outputs().output(&target, var)
    }

    /// Exudyn's `mbs.GetObjectOutputSuperElement(body, variable, meshNodeNumber)`.
    pub fn super_element_output(
        &self,
        body: ObjectIndex,
        mesh_node: usize,
        var: OutputVariable,
    ) -> Result<Vec<f64>> {
        self.outputs()
            .output(&SensorTarget::SuperElement { body, mesh_node }, var)
    }

    /// Exudyn's `mbs.GetMarkerOutput(marker, variable)`.
    pub fn marker_output(&self, marker: MarkerIndex, var: OutputVariable) -> Result<Vec<f64>> {
        self.outputs().output(&SensorTarget::Marker(marker), var)
    }

    /// Exudyn's `mbs.GetObjectOutput(object, variable)`; a joint's named output as its
    /// module's constant (`my_joint::outputs::DISTANCE`).
    pub fn object_output(
        &self,
        object: ObjectIndex,
        var: impl Into<OutputVariable>,
    ) -> Result<Vec<f64>> {
        self.outputs()
            .output(&SensorTarget::Object(object), var.into())
    }

    /// The current values of sensor `sensor` (what a row records after the time).
    pub fn sensor_value(&self, sensor: SensorIndex) -> Result<Vec<f64>> {
        self.check_sensor(sensor)?;
        self.outputs().sensor_value(sensor)
    }

    /// The rows sensor `sensor` recorded with `storeInternal` (`[t, values…]`, one per
    /// `sensorsWritePeriod`); an error names the sensor if there is no such sensor or it does
    /// not store its rows.
    ///
    /// ```
    /// use joint_runtime::{MultibodySystem, OutputVariable, Sensor, SimulationSettings};
    /// let mut mbs = MultibodySystem::new();
    /// let p = mbs.create_mass_point("p", [0.0; 3], [0.0; 3], 1.0, [0.0, 0.0, -9.81]);
    /// // `Sensor::node` keeps its rows (storeInternal)
    /// let z = mbs.add_sensor(Sensor::node(p.node, OutputVariable::Position));
    /// let mut sim = mbs.assemble()?;
    /// let mut settings = SimulationSettings::default();
    /// settings.time_integration.end_time = 0.1;
    /// sim.solve_dynamic(&settings)?;
    /// let rows = sim.sensor_rows(z)?;
    /// let last = rows.last().expect("rows");
    /// assert!((last[0] - 0.1).abs() < 1e-12); // t, then x, y, z
    /// assert!((last[3] + 0.5 * 9.81 * 0.01).abs() < 1e-10);
    /// # Ok::<(), joint_runtime::Error>(())
    /// ```
    pub fn sensor_rows(&self, sensor: SensorIndex) -> Result<&SensorRows> {
        self.check_sensor(sensor)?;
        if !self.mbs.sensors[sensor.0].store_internal {
            return Err(Error::item(
                self.mbs.sensor_ref(sensor.0),
                "storeInternal",
                "the sensor does not store its rows: give it `storeInternal` (`Sensor::store_internal`)",
            ));
        }
        Ok(&self.sensor_data[sensor.0])
    }

    /// The names of a sensor's values where its item names them: a joint's rows by its
    /// definition's axes (`Force`, `Displacement`, `Velocity` of a joint defined with `joint!`,
    /// one value per row), which result files, tables and plots show instead of `[0]`, `[1]`, …
    pub fn sensor_components(&self, sensor: SensorIndex) -> Option<&'static [&'static str]> {
        use crate::items::Object;
        let s = self.mbs.sensors.get(sensor.0)?;
        let SensorTarget::Object(o) = s.target else {
            return None;
        };
        let Some(Object::Joint(joint)) = self.mbs.objects.get(o.0) else {
            return None;
        };
        let jt = &joint.joint_type;
        let per_row = matches!(
            s.output,
            OutputVariable::Force | OutputVariable::Displacement | OutputVariable::Velocity
        );
        (per_row && jt.generic_outputs && jt.outputs.is_none()).then_some(jt.definition.axes)
    }

    fn check_sensor(&self, sensor: SensorIndex) -> Result<()> {
        if sensor.0 < self.mbs.sensors.len() {
            return Ok(());
        }
        Err(Error::item(
            self.mbs.sensor_ref(sensor.0),
            "sensorNumber",
            format!("no such sensor: the system has {}", self.mbs.sensors.len()),
        ))
    }
}

impl Simulation {
    /// The error for a singular iteration matrix, naming the items behind the equation.
    pub(crate) fn singular_error(&self, column: usize, t: f64) -> Error {
        let n2 = self.topology.n_ode2;
        let ae_start = self.topology.ae_start();
        let what = if column < n2 {
            let owner = &self.topology.ode2_owner[column];
            format!("ODE2 coordinate {column} of {owner}")
        } else if column < ae_start {
            let k = column - n2;
            let owner = &self.topology.ode1_owner[k];
            format!("ODE1 coordinate {k} of {owner}")
        } else {
            let k = column - ae_start;
            let owner = &self.topology.ae_owner[k];
            let mut bodies = Vec::new();
            if let Some(j) = self
                .topology
                .joints
                .iter()
                .find(|j| k >= j.ae && k < j.ae + j.rows())
            {
                for &m in &j.markers {
                    bodies.push(format!("{}", self.mbs.marker_ref(m)));
                }
            }
            if bodies.is_empty() {
                format!("algebraic equation {k} of {owner}")
            } else {
                format!(
                    "algebraic equation {k} of {owner} (markers {})",
                    bodies.join(", ")
                )
            }
        };
        Error::SingularSystem {
            message: format!(
                "the iteration matrix is singular at t = {t}: no pivot for {what}; check for redundant constraints or bodies without mass or constraint"
            ),
            time: Some(t),
            equation: Some(what),
        }
    }

    /// Drop every sensor's recorded rows (keeping their widths).
    pub fn clear_sensor_data(&mut self) {
        for d in &mut self.sensor_data {
            d.clear();
        }
    }
}
