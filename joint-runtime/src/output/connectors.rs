//! Connector outputs (Exudyn's `mbs.GetObjectOutput` of a connector): a user's force element
//! through its force definition, Exudyn's connectors through their own `output`.

use nalgebra::Vector3;

use super::{Outputs, unsupported};
use crate::assemble::{ConnectorKind, ObjectTopology};
use crate::error::Result;
use crate::items::OutputVariable;
use crate::items::connectors::ConnectorAt;
use crate::items::output_variable::put3;
use crate::markers::MarkerState;

impl Outputs<'_> {
    /// The connector topology index of connector object `object`.
    fn connector_index(&self, object: usize) -> usize {
        let ObjectTopology::Connector(c) = self.topology.objects[object] else {
            unreachable!("every connector object has a connector topology");
        };
        c
    }

    /// Output `var` of an Exudyn connector of `items/connectors/` (its own `output`), appended
    /// to `out`.
    pub(super) fn family_output(
        &self,
        object: usize,
        connector: &crate::items::connectors::ConnectorObject,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Option<()> {
        let con = &self.topology.connectors[self.connector_index(object)];
        let (data, parameters) = match &con.kind {
            ConnectorKind::Family { data, .. } => (&self.state.data[data.clone()], &[][..]),
            ConnectorKind::Defined { parameters, .. } => (&[][..], &parameters[..]),
        };
        let at = ConnectorAt {
            markers: con.markers.map(|k| &self.topology.markers[k]),
            qt,
            v: &self.state.v,
            data,
            active: con.active,
            parameters,
        };
        connector.family.output(var, &at, out)
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
