//! Object outputs (Exudyn's `mbs.GetObjectOutput`, SensorObject): joints through their joint
//! type's outputs, connectors through their forces.

use nalgebra::Vector3;

use super::{Outputs, entry, unsupported};
use crate::assemble::ObjectTopology;
use crate::error::{Error, Result};
use crate::items::joints::JointTopology;
use crate::items::output_variable::put3;
use crate::items::{Object, OutputVariable};
use crate::markers::MarkerState;
use crate::physics::ConnectorForce;

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

    /// Output `var` of a connector of a family (its own `output`), appended to `out`.
    fn family_output(
        &self,
        object: usize,
        connector: &crate::items::connectors::ConnectorObject,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Option<()> {
        let ObjectTopology::Connector(c) = self.topology.objects[object] else {
            unreachable!("every connector object has a connector topology");
        };
        let con = &self.topology.connectors[c];
        let crate::assemble::ConnectorKind::Family { data, .. } = &con.kind else {
            unreachable!("a family connector's topology");
        };
        let m = con.markers.map(|k| &self.topology.markers[k]);
        let data = &self.state.data[data.clone()];
        connector
            .family
            .output(var, m, qt, &self.state.v, data, con.active, out)
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
        use OutputVariable as O;
        match o {
            Object::Joint(joint) => {
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
            }
            Object::CoordinateVector(cv) => {
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
            }
            Object::ConnectorLinearSpringDamper { .. } => {
                let ObjectTopology::Connector(c) = self.topology.objects[object] else {
                    unreachable!("every connector object has a connector topology");
                };
                let spring = self
                    .topology
                    .linear_spring(c, qt, &self.state.v)
                    .expect("a linear spring-damper's topology");
                match var {
                    O::DisplacementLocal => out.push(spring.displacement),
                    O::VelocityLocal => out.push(spring.velocity),
                    O::ForceLocal => out.push(spring.force),
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::ConnectorRigidBodySpringDamper { .. } => {
                let ObjectTopology::Connector(c) = self.topology.objects[object] else {
                    unreachable!("every connector object has a connector topology");
                };
                let spring = self
                    .topology
                    .rigid_body_spring(c, qt, &self.state.v)
                    .expect("a rigid-body spring-damper's topology");
                let f = spring.force;
                match var {
                    O::DisplacementLocal => put3(out, spring.displacement_local),
                    O::Displacement => put3(out, spring.displacement),
                    O::Rotation => put3(out, spring.rotation),
                    O::VelocityLocal => put3(out, spring.velocity_local),
                    O::AngularVelocityLocal => put3(out, spring.angular_velocity_local),
                    O::ForceLocal => put3(out, Vector3::new(f[0], f[1], f[2])),
                    O::TorqueLocal => put3(out, Vector3::new(f[3], f[4], f[5])),
                    O::PotentialEnergy => out.push(spring.potential_energy),
                    O::HomogeneousTransformationLocal => {
                        let (r, p) = (spring.relative_rotation, spring.relative_position);
                        for i in 0..3 {
                            out.extend([r[(i, 0)], r[(i, 1)], r[(i, 2)], p[i]]);
                        }
                        out.extend([0.0, 0.0, 0.0, 1.0]);
                    }
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::Connector(connector) => self
                .family_output(object, connector, var, qt, out)
                .ok_or_else(|| unsupported(item(), var))?,
            Object::ConnectorSpringDamper { .. }
            | Object::ConnectorCartesianSpringDamper { .. }
            | Object::ConnectorGravity { .. } => {
                let ObjectTopology::Connector(c) = self.topology.objects[object] else {
                    unreachable!("every connector object has a connector topology");
                };
                let cf = self
                    .topology
                    .connector_force(c, qt, &self.state.v)
                    .unwrap_or_else(|| {
                        // inactive: no force, geometry still reported
                        let con = &self.topology.connectors[c];
                        let m0 = MarkerState::new(
                            &self.topology.markers[con.markers[0]],
                            qt,
                            &self.state.v,
                        );
                        let m1 = MarkerState::new(
                            &self.topology.markers[con.markers[1]],
                            qt,
                            &self.state.v,
                        );
                        ConnectorForce {
                            force: Vector3::zeros(),
                            delta_p: m1.position() - m0.position(),
                            delta_v: m1.velocity() - m0.velocity(),
                        }
                    });
                let spring = matches!(o, Object::ConnectorSpringDamper { .. });
                let gravity = matches!(o, Object::ConnectorGravity { .. });
                match var {
                    O::Distance => out.push(cf.delta_p.norm()),
                    O::Displacement => put3(out, cf.delta_p),
                    O::Velocity if !gravity => put3(out, cf.delta_v),
                    O::Force => put3(out, cf.force),
                    O::ForceLocal if spring => {
                        out.push(self.topology.spring_damper_tension(c, qt, &self.state.v))
                    }
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::Force(force) => {
                let ObjectTopology::Connector(c) = self.topology.objects[object] else {
                    unreachable!("every force element has a connector topology");
                };
                let con = &self.topology.connectors[c];
                let state = |k: usize| {
                    MarkerState::new(&self.topology.markers[con.markers[k]], qt, &self.state.v)
                };
                let (m0, m1) = (state(0), state(1));
                let (q0, q1) = (m0.quantities(), m1.quantities());
                let definition = force.definition;
                let missing = || {
                    Error::item(
                        item(),
                        "parameters",
                        format!(
                            "{} takes {} parameter values, found {}",
                            definition.name,
                            definition.parameter_len(),
                            force.parameters.len()
                        ),
                    )
                };
                // between coordinates the force and the coordinates' difference are scalars
                let scalar = m0.marker.is_coordinate();
                let (dq, dv) = (
                    Vector3::from(q1.position) - Vector3::from(q0.position),
                    Vector3::from(q1.velocity) - Vector3::from(q0.velocity),
                );
                match var {
                    O::Force => {
                        // an inactive force element applies no force
                        let mut f = [0.0; 3];
                        if con.active {
                            (definition.force)(&force.parameters, &q0, &q1, &mut f)
                                .ok_or_else(missing)?;
                        }
                        out.extend(if scalar { &f[..1] } else { &f[..] });
                    }
                    O::Displacement if scalar => out.push(dq[0]),
                    O::Velocity if scalar => out.push(dv[0]),
                    O::Displacement => put3(out, dq),
                    O::Velocity => put3(out, dv),
                    O::Distance if !scalar => out.push(dq.norm()),
                    O::Named(name) if definition.output(name).is_some() => {
                        let o = definition.output(name).expect("checked");
                        let start = out.len();
                        out.resize(start + o.len, 0.0);
                        (o.evaluate)(&force.parameters, &q0, &q1, &mut out[start..])
                            .ok_or_else(missing)?;
                    }
                    other => return Err(unsupported(item(), other)),
                }
            }
            Object::GenericODE1 { .. } => {
                let crate::assemble::ObjectTopology::Ode1System(k) = self.topology.objects[object]
                else {
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
            }
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
}
