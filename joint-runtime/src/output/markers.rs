//! Marker outputs (Exudyn's `mbs.GetMarkerOutput`, SensorMarker).

use super::{Outputs, entry, unsupported};
use crate::error::{Error, Result};
use crate::items::OutputVariable;
use crate::items::output_variable::{put_row_major, put3, rotation_matrix_to_rot_xyz};
use crate::markers::MarkerState;

impl Outputs<'_> {
    /// [`Outputs::output`] of a marker appended to `out`, at total coordinates `qt`.
    pub(super) fn marker_values(
        &self,
        marker: usize,
        var: OutputVariable,
        qt: &[f64],
        out: &mut Vec<f64>,
    ) -> Result<()> {
        let item = || self.mbs.marker_ref(marker);
        let m = entry(
            &self.topology.markers,
            marker,
            item,
            "markerNumber",
            "marker",
        )?;
        if m.is_rotation_coordinate() {
            // Exudyn's: the Tait–Bryan angle from the rotation matrix, ω's component
            let (q, v) = m.coordinate_state(qt, &self.state.v);
            match var {
                OutputVariable::Coordinates => out.push(q),
                OutputVariable::CoordinatesT => out.push(v),
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        }
        if m.is_coordinate() {
            // MarkerNodeCoordinate: its coordinate (displacement) and velocity; zero on a
            // ground node, which has no column
            let (q, v) = match m.columns.first() {
                Some(&c) => (self.state.q[c], self.state.v[c]),
                None => (0.0, 0.0),
            };
            match var {
                OutputVariable::Coordinates => out.push(q),
                OutputVariable::CoordinatesT => out.push(v),
                other => return Err(unsupported(item(), other)),
            }
            return Ok(());
        }
        if !m.provides_position {
            return Err(Error::item(
                item(),
                "outputVariableType",
                format!(
                    "a {} marker has no output variables",
                    self.mbs.markers[marker].type_name()
                ),
            ));
        }
        let ms = MarkerState::new(m, qt, &self.state.v);
        use OutputVariable as O;
        match var {
            O::Position => put3(out, ms.position()),
            O::Velocity => put3(out, ms.velocity()),
            O::Displacement => {
                let ms_ref = MarkerState::new(m, &self.topology.reference, &self.state.v);
                put3(out, ms.position() - ms_ref.position());
            }
            O::AngularVelocity if m.provides_orientation => put3(out, ms.angular_velocity()),
            O::AngularVelocityLocal if m.provides_orientation => {
                put3(out, ms.angular_velocity_local());
            }
            O::RotationMatrix if m.provides_orientation => put_row_major(out, &ms.rotation()),
            O::Rotation if m.provides_orientation => {
                out.extend_from_slice(&rotation_matrix_to_rot_xyz(&ms.rotation()));
            }
            other => return Err(unsupported(item(), other)),
        }
        Ok(())
    }
}
