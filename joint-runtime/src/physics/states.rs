//! The states of joints and force elements defined with `joint!` (`state NAME = EXPR;`): values
//! an item keeps between steps, such as a relative angle continuous over any number of turns.
//!
//! They are data coordinates (Exudyn's, as a NodeGenericData's), after the nodes' own in
//! `State::data`, which is where they are kept between solves and what a solution file writes.
//! The kernels read them from the item's parameter slice, after its parameters: the topology's
//! slices (and the model's objects', which outputs read) mirror `State::data`
//! ([`Topology::load_states`]), so during a step every evaluation sees the last converged
//! step's values, constants of the step.
//!
//! After a converged step [`Topology::post_newton`] (Exudyn's PostNewtonStep) evaluates each
//! state's `EXPR` at the converged configuration and stores it. Its discontinuous error is how
//! far that moves the item's equations at the converged state: the largest change of a joint's
//! residual rows, or of a force element's force and torque. A continuous angle moves none (its
//! new value lies on the branch the step converged on), so its steps are never repeated; a
//! state that switches an equation (a contact's flag, a stick point) moves them, and the solver
//! repeats the step with the new values (`discontinuous.iterationTolerance`).

use crate::assemble::{ConnectorKind, StateOwner, Topology};
use crate::items::connectors::PostNewton;
use crate::items::joints::{ConstraintLevel, joint_kernel_rows};
use crate::markers::MarkerState;

/// Buffers of [`Topology::post_newton`] (kept by a solver: the step loop does not allocate).
#[derive(Clone, Debug, Default)]
pub struct StateScratch {
    before: Vec<f64>,
    after: Vec<f64>,
    values: Vec<f64>,
}

impl Topology {
    /// The parameter slice of the item owning `s`, as the kernels take it.
    fn item_parameters(&self, owner: StateOwner) -> &[f64] {
        match owner {
            StateOwner::Joint(k) => &self.joints[k].parameters,
            StateOwner::Connector(k) => match &self.connectors[k].kind {
                ConnectorKind::Defined { parameters, .. } => parameters,
                _ => unreachable!("states belong to force elements defined with joint!"),
            },
        }
    }

    fn item_parameters_mut(&mut self, owner: StateOwner) -> &mut [f64] {
        match owner {
            StateOwner::Joint(k) => &mut self.joints[k].parameters,
            StateOwner::Connector(k) => match &mut self.connectors[k].kind {
                ConnectorKind::Defined { parameters, .. } => parameters,
                _ => unreachable!("states belong to force elements defined with joint!"),
            },
        }
    }

    /// The items' states from `data` into their parameter slices (at the start of a solve,
    /// and after a step is restored).
    pub fn load_states(&mut self, data: &[f64]) {
        for i in 0..self.item_states.len() {
            let (owner, range, slots) = {
                let s = &self.item_states[i];
                (s.owner, s.data_range(), s.parameter_range())
            };
            self.item_parameters_mut(owner)[slots].copy_from_slice(&data[range]);
        }
    }

    /// The markers of the item owning `owner` at total coordinates `qt`, velocities `v`.
    fn item_markers<'a>(
        &'a self,
        owner: StateOwner,
        qt: &'a [f64],
        v: &'a [f64],
    ) -> [MarkerState<'a>; 2] {
        let markers = match owner {
            StateOwner::Joint(k) => self.joints[k].markers,
            StateOwner::Connector(k) => self.connectors[k].markers,
        };
        markers.map(|m| MarkerState::new(&self.markers[m], qt, v))
    }

    /// What the item's states act on, into `out`: a joint's residual rows at `level`, a force
    /// element's force and torque.
    fn item_equations(
        &self,
        owner: StateOwner,
        qt: &[f64],
        v: &[f64],
        level: ConstraintLevel,
        out: &mut Vec<f64>,
    ) {
        let [m0, m1] = self.item_markers(owner, qt, v);
        out.clear();
        match owner {
            StateOwner::Joint(k) => {
                let j = &self.joints[k];
                out.resize(j.kernel_rows(), 0.0);
                joint_kernel_rows(j, level, &m0, &m1, out);
            }
            StateOwner::Connector(k) => {
                let ConnectorKind::Defined {
                    definition,
                    parameters,
                    ..
                } = &self.connectors[k].kind
                else {
                    unreachable!("states belong to force elements defined with joint!");
                };
                let (q0, q1) = (m0.quantities(), m1.quantities());
                let mut f = [0.0; 3];
                (definition.force)(parameters, &q0, &q1, &mut f).expect(SIZES);
                out.extend_from_slice(&f);
                if let Some(t) = &definition.torque {
                    (t.torque)(parameters, &q0, &q1, &mut f).expect(SIZES);
                    out.extend_from_slice(&f);
                }
            }
        }
    }

    /// Exudyn's PostNewtonStep for the items' states, after a converged step at total
    /// coordinates `qt` and velocities `v`: each state's new value into `data` and the
    /// parameter slices, and the discontinuous error (the largest change this makes to an
    /// item's equations at `level`; 0 without states).
    pub fn post_newton(
        &mut self,
        qt: &[f64],
        v: &[f64],
        level: ConstraintLevel,
        data: &mut [f64],
        scratch: &mut StateScratch,
    ) -> f64 {
        let mut error: f64 = 0.0;
        for i in 0..self.item_states.len() {
            let (owner, slots, range) = {
                let s = &self.item_states[i];
                (s.owner, s.parameter_range(), s.data_range())
            };
            self.item_equations(owner, qt, v, level, &mut scratch.before);
            scratch.values.clear();
            {
                let [m0, m1] = self.item_markers(owner, qt, v);
                let (q0, q1) = (m0.quantities(), m1.quantities());
                let parameters = self.item_parameters(owner);
                for s in self.item_states[i].states {
                    let mut value = [0.0];
                    (s.update)(parameters, &q0, &q1, &mut value).expect(SIZES);
                    scratch.values.push(value[0]);
                }
            }
            self.item_parameters_mut(owner)[slots].copy_from_slice(&scratch.values);
            data[range].copy_from_slice(&scratch.values);
            self.item_equations(owner, qt, v, level, &mut scratch.after);
            for (b, a) in scratch.before.iter().zip(&scratch.after) {
                let change = (a - b).abs();
                // a NaN change is the largest
                if !(change <= error) {
                    error = change;
                }
            }
        }
        error
    }
}

impl Topology {
    /// Exudyn's PostNewtonStep for the connectors of the families of `items/connectors/` that
    /// keep data: each one's new data coordinates into `data` (from the current ones and
    /// those at the step's start, `data_start`), the largest of their discontinuous errors and
    /// the smallest step size they recommend.
    pub fn connector_post_newton(
        &self,
        qt: &[f64],
        v: &[f64],
        data: &mut [f64],
        data_start: &[f64],
    ) -> PostNewton {
        let mut all = PostNewton::default();
        for con in &self.connectors {
            let ConnectorKind::Family {
                family,
                data: range,
            } = &con.kind
            else {
                continue;
            };
            if !con.active || !family.has_post_newton() {
                continue;
            }
            let m = con.markers.map(|k| &self.markers[k]);
            let p = family.post_newton(
                m,
                qt,
                v,
                &mut data[range.clone()],
                &data_start[range.clone()],
            );
            // a NaN error is the largest
            if !(p.error <= all.error) {
                all.error = p.error;
            }
            if let Some(h) = p.recommended_step {
                all.recommended_step = Some(all.recommended_step.map_or(h, |r: f64| r.min(h)));
            }
        }
        all
    }
}

/// Why a state's kernel call cannot fail on sizes.
const SIZES: &str = "state kernels' sizes checked at assemble";
