//! Object outputs (Exudyn's `mbs.GetObjectOutput`, SensorObject): joints through their joint
//! type's outputs, connectors through their forces.

use super::{Outputs, entry, unsupported};
use crate::assemble::ObjectTopology;
use crate::error::{Error, Result};
use crate::items::joints::JointTopology;
use crate::items::{Object, OutputVariable};
use crate::markers::MarkerState;

/// `columns` as one range of the state, if they are consecutive (empty: `0..0`).
fn contiguous(columns: &[usize]) -> Option<std::ops::Range<usize>> {
    let first = columns.first().copied().unwrap_or(0);
    columns
        .iter()
        .enumerate()
        .all(|(i, &c)| c == first + i)
        .then_some(first..first + columns.len())
}

impl Outputs<'_> {
    /// A constraint object's topology and its two markers' states at total coordinates `qt`.
    pub(super) fn constraint_and_markers<'a>(
        &'a self,
        object: usize,
        markers: [crate::items::MarkerIndex; 2],
        qt: &'a [f64],
    ) -> (&'a JointTopology, MarkerState<'a>, MarkerState<'a>) {
        let ObjectTopology::Joint(k) = self.topology.objects[object] else {
            unreachable!("every joint object has a joint topology");
        };
        let j = &self.topology.joints[k];
        let state = |m: crate::items::MarkerIndex| {
            MarkerState::new(&self.topology.markers[m.0], qt, &self.state.v)
        };
        (j, state(markers[0]), state(markers[1]))
    }

    /// [`Outputs::output`] of an object appended to `out`, at total coordinates `qt`.
    pub(super) fn object_values(
        &self,
        object: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        let o = entry(&self.mbs.objects, object, item, "objectNumber", "object")?;
        match o {
            Object::Joint(joint) => self.joint_values(object, joint, var, qt, out)?,
            Object::CoordinateVector(cv) => {
                self.coordinate_vector_values(object, cv, var, qt, out)?
            }
            Object::Connector(connector) => self
                .family_output(object, connector, var, qt, out)
                .ok_or_else(|| unsupported(item(), var))?,
            Object::Force(_) => self.force_element_values(object, var, qt, out)?,
            Object::GenericODE1 { .. } => self.ode1_values(object, var, out)?,
            _ => {
                return Err(Error::item(
                    item(),
                    "objectNumber",
                    "SensorObject on a body: use SensorBody (bodies have no object outputs)",
                ));
            }
        }
        Ok(())
    }

    /// A joint's outputs: its type's own, then the generic ones where the type has them.
    pub(super) fn joint_values(
        &self,
        object: usize,
        joint: &crate::items::joints::JointObject,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        let (j, m0, m1) = self.constraint_and_markers(object, joint.markers, qt);
        let ctx = crate::items::joints::JointOutputs {
            parameters: &joint.parameters,
            topology: j,
            m0,
            m1,
            lambda: &self.state.lambda[j.ae..j.ae + j.rows()],
        };
        let jt = &joint.joint_type;
        let handled = jt.outputs.and_then(|f| f(&ctx, var, out)).or_else(|| {
            jt.generic_outputs
                .then(|| crate::items::joints::generic(&ctx, var, out))
                .flatten()
        });
        if handled.is_none() {
            return Err(unsupported(item(), var));
        }
        Ok(())
    }

    /// A coordinate-vector joint's outputs (Δ of its markers' coordinates, λ, its residual).
    pub(super) fn coordinate_vector_values(
        &self,
        object: usize,
        cv: &crate::items::joints::CoordinateVectorObject,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let ObjectTopology::CoordinateVector(k) = self.topology.objects[object] else {
            unreachable!("every coordinate-vector object has its topology");
        };
        let c = &self.topology.coordinate_vectors[k];
        let [c0, c1] = c.markers.map(|m| &self.topology.markers[m].columns);
        let (v, lambda) = (&self.state.v, &self.state.lambda);
        // Exudyn's Δ: x1 − x0, −x0 if marker 1 has no coordinates, x1 if marker 0 has none
        let difference = |x: &[f64], out: &mut Vec<f64>| -> Result<()> {
            match (c0.is_empty(), c1.is_empty()) {
                (_, true) => out.extend(c0.iter().map(|&g| -x[g])),
                (true, false) => out.extend(c1.iter().map(|&g| x[g])),
                _ if c0.len() == c1.len() => {
                    out.extend(c1.iter().zip(c0).map(|(&b, &a)| x[b] - x[a]))
                }
                _ => {
                    return Err(Error::item(
                        item(),
                        "outputVariableType",
                        format!(
                            "{var}: the markers have {} and {} coordinates; their difference is defined for equal lengths",
                            c0.len(),
                            c1.len()
                        ),
                    ));
                }
            }
            Ok(())
        };
        match var {
            O::Displacement => difference(qt, out)?,
            O::Velocity => difference(v, out)?,
            O::Force => out.extend_from_slice(&lambda[c.ae..c.ae + c.rows]),
            O::ConstraintEquation if !cv.active => {
                out.extend_from_slice(&lambda[c.ae..c.ae + c.rows])
            }
            O::ConstraintEquation => {
                let f = if c.velocity_level() {
                    c.definition.velocity_residual
                } else {
                    c.definition.position_residual
                };
                let start = out.len();
                match (contiguous(c0), contiguous(c1)) {
                    // a node's coordinates (and most bodies'): slices of the state
                    (Some(r0), Some(r1)) => {
                        out.resize(start + c.rows, 0.0);
                        let g = &mut out[start..];
                        let (q0, q1) = (&qt[r0.clone()], &qt[r1.clone()]);
                        let (v0, v1) = (&v[r0], &v[r1]);
                        crate::items::joints::with_views(&c.parameters, |p| {
                            f(p, q0, q1, v0, v1, g)
                        });
                    }
                    // a body on several nodes: q0, q1, v0, v1 and the rows gathered
                    // behind `out`'s entries, the rows then moved to the front
                    _ => {
                        for (cols, x) in [(c0, qt), (c1, qt), (c0, v), (c1, v)] {
                            out.extend(cols.iter().map(|&g| x[g]));
                        }
                        let (n0, n1) = (c0.len(), c1.len());
                        let at = start + 2 * (n0 + n1);
                        out.resize(at + c.rows, 0.0);
                        let (gathered, g) = out[start..].split_at_mut(2 * (n0 + n1));
                        let (q0, rest) = gathered.split_at(n0);
                        let (q1, rest) = rest.split_at(n1);
                        let (v0, v1) = rest.split_at(n0);
                        crate::items::joints::with_views(&c.parameters, |p| {
                            f(p, q0, q1, v0, v1, g)
                        });
                        out.copy_within(at..at + c.rows, start);
                        out.truncate(start + c.rows);
                    }
                }
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }

    /// An ObjectGenericODE1's coordinates.
    pub(super) fn ode1_values(
        &self,
        object: usize,
        var: OutputVariable,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let crate::assemble::ObjectTopology::Ode1System(k) = self.topology.objects[object] else {
            unreachable!("an ObjectGenericODE1 is a first-order system");
        };
        let columns = &self.topology.ode1_systems[k].columns;
        let st = &self.state;
        let reference = &self.topology.ode1_reference;
        match var {
            O::Coordinates => out.extend(columns.iter().map(|&c| st.y[c])),
            O::CoordinatesT => out.extend(columns.iter().map(|&c| st.y_t[c])),
            O::CoordinatesTotal => {
                out.extend(columns.iter().map(|&c| reference[c] + st.y[c]));
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }
}
