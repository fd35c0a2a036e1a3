//! Connector outputs (Exudyn's `mbs.GetObjectOutput` of a connector): the force connectors
//! through their forces and force definitions, the families through their own `output`.

use nalgebra::Vector3;

use super::{Outputs, unsupported};
use crate::assemble::{ConnectorKind, ObjectTopology};
use crate::error::Result;
use crate::items::output_variable::put3;
use crate::items::{Object, OutputVariable};
use crate::markers::MarkerState;
use crate::physics::ConnectorForce;

impl Outputs<'_> {
    /// The connector topology index of connector object `object`.
    fn connector_index(&self, object: usize) -> usize {
        let ObjectTopology::Connector(c) = self.topology.objects[object] else {
            unreachable!("every connector object has a connector topology");
        };
        c
    }

    /// Output `var` of a connector of a family (its own `output`), appended to `out`.
    pub(super) fn family_output(
        &self,
        object: usize,
        connector: &crate::items::connectors::ConnectorObject,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Option<()> {
        let c = self.connector_index(object);
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

    /// A LinearSpringDamper's outputs along its axis.
    pub(super) fn linear_spring_values(
        &self,
        object: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let c = self.connector_index(object);
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
        Ok(())
    }

    /// A RigidBodySpringDamper's outputs in its spring frame.
    pub(super) fn rigid_body_spring_values(
        &self,
        object: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let c = self.connector_index(object);
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
        Ok(())
    }

    /// A SpringDamper's, CartesianSpringDamper's or Gravity connector's outputs.
    pub(super) fn spring_values(
        &self,
        object: usize,
        o: &Object,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let c = self.connector_index(object);
        let cf = self
            .topology
            .connector_force(c, qt, &self.state.v)
            .unwrap_or_else(|| {
                // inactive: no force, geometry still reported
                let con = &self.topology.connectors[c];
                let m0 =
                    MarkerState::new(&self.topology.markers[con.markers[0]], qt, &self.state.v);
                let m1 =
                    MarkerState::new(&self.topology.markers[con.markers[1]], qt, &self.state.v);
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
        Ok(())
    }

    /// A force element's outputs: its force, the markers' difference, its named outputs.
    pub(super) fn force_element_values(
        &self,
        object: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(object);
        use OutputVariable as O;
        let c = self.connector_index(object);
        let con = &self.topology.connectors[c];
        let state =
            |k: usize| MarkerState::new(&self.topology.markers[con.markers[k]], qt, &self.state.v);
        let (m0, m1) = (state(0), state(1));
        let (q0, q1) = (m0.quantities(), m1.quantities());
        // the parameters as assembly laid them out (their count checked there)
        let ConnectorKind::Defined {
            definition,
            parameters,
            ..
        } = &con.kind
        else {
            unreachable!("a force element is a defined connector");
        };
        let checked = "parameter count checked at assemble";
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
                    (definition.force)(parameters, &q0, &q1, &mut f).expect(checked);
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
                (o.evaluate)(parameters, &q0, &q1, &mut out[start..]).expect(checked);
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }
}
