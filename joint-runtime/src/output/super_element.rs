//! Outputs of a superelement's mesh node (SensorSuperElement): a GenericODE2 mesh node's node,
//! or an FFRF mesh node moving with its frame and modes.

use nalgebra::Vector3;

use super::{OutputMarkers, Outputs, unsupported};
use crate::error::{Error, Result};
use crate::items::output_variable::put3;
use crate::items::{Object, OutputVariable};
use crate::markers::MarkerState;

impl Outputs<'_> {
    /// [`Outputs::output`] of a superelement's mesh node appended to `out`, at total coordinates `qt`.
    ///
    /// A GenericODE2 mesh node gives its node's outputs. An FFRF mesh node i sits at the local
    /// point x_i = x_ref,i + Ψ_i ζ of the frame (p, A, ω, α); Exudyn's outputs are
    /// Position p + A x_i, Displacement (that minus the reference configuration's),
    /// Velocity ṗ + A(ω̄ × x_i + Ψ_i ζ̇), Acceleration
    /// p̈ + A Ψ_i ζ̈ + 2ω × A Ψ_i ζ̇ + α × A x_i + ω × (ω × A x_i), DisplacementLocal Ψ_i ζ,
    /// VelocityLocal Ψ_i ζ̇, and StressLocal or StrainLocal (whichever `outputVariableTypeModeBasis`
    /// names) Σ_m Ψ_S[i, 6m..6m+6] ζ_m.
    pub(super) fn super_element_values(
        &self,
        body: usize,
        mesh_node: usize,
        var: OutputVariable,
        qt: &[f64],
        markers: &OutputMarkers,
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.object_ref(body);
        let (nodes, parameters) = match self.mbs.objects.get(body) {
            Some(Object::GenericODE2 { nodes, .. }) => {
                let node = nodes
                    .get(mesh_node)
                    .ok_or_else(|| Error::item(item(), "meshNodeNumber", "no such mesh node"))?;
                return self.node_values(node.0, var, qt, markers, out);
            }
            Some(Object::FFRFreducedOrder {
                nodes, parameters, ..
            }) => (nodes, parameters),
            _ => {
                return Err(Error::item(
                    item(),
                    "bodyNumber",
                    "not a GenericODE2 or FFRFreducedOrder",
                ));
            }
        };
        let Some(frame_marker) = &markers.node else {
            return Err(Error::item(item(), "bodyNumber", "no reference-frame node"));
        };
        let psi = &parameters.mode_basis;
        if 3 * mesh_node + 3 > psi.nrows()
            || 3 * mesh_node + 3 > parameters.reference_positions.len()
        {
            return Err(Error::item(item(), "meshNodeNumber", "no such mesh node"));
        }
        let st = &self.state;
        let modal = self.topology.node_ode2[nodes[1].0];
        let n_modes = psi.ncols();
        // Ψ_i·x over the modal coordinates x (ζ, ζ̇ or ζ̈)
        let modal_at = |x: &[f64]| {
            Vector3::from_fn(|r, _| {
                (0..n_modes)
                    .map(|m| psi[(3 * mesh_node + r, m)] * x[modal + m])
                    .sum()
            })
        };
        let x_ref = Vector3::from_fn(|r, _| parameters.reference_positions[3 * mesh_node + r]);
        let u = modal_at(qt);
        let x = x_ref + u;
        let frame = MarkerState::new(frame_marker, qt, &st.v);
        let a = frame.rotation();
        let global_position =
            |frame: &MarkerState, x: Vector3<f64>| frame.position() + frame.rotation() * x;
        use OutputVariable as O;
        match var {
            O::Position => put3(out, global_position(&frame, x)),
            O::Displacement => {
                let reference = MarkerState::new(frame_marker, &self.topology.reference, &st.v);
                put3(
                    out,
                    global_position(&frame, x) - global_position(&reference, x_ref),
                );
            }
            O::Velocity => put3(
                out,
                frame.velocity()
                    + a * frame.angular_velocity_local().cross(&x)
                    + a * modal_at(&st.v),
            ),
            O::Acceleration => {
                let s = frame_marker.columns[0];
                let ax = a * x;
                let omega = frame.angular_velocity();
                let alpha = self.angular_acceleration(frame_marker, qt);
                put3(
                    out,
                    Vector3::new(st.a[s], st.a[s + 1], st.a[s + 2])
                        + a * modal_at(&st.a)
                        + 2.0 * omega.cross(&(a * modal_at(&st.v)))
                        + alpha.cross(&ax)
                        + omega.cross(&omega.cross(&ax)),
                );
            }
            O::DisplacementLocal => put3(out, u),
            O::VelocityLocal => put3(out, modal_at(&st.v)),
            // Ψ_S row i, six components per mode, times ζ (the modal reference coordinates
            // are zero, so total and displacement coordinates agree)
            O::StressLocal | O::StrainLocal
                if parameters.output_variable_type_mode_basis == Some(var) =>
            {
                let psi_s = &parameters.output_variable_mode_basis;
                out.extend((0..6).map(|c| {
                    (0..n_modes)
                        .map(|m| psi_s[(mesh_node, 6 * m + c)] * qt[modal + m])
                        .sum::<f64>()
                }));
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }
}
