//! ObjectConnectorTorsionalSpringDamper: a torsional spring-damper about the z axis of marker
//! 0's joint frame (`A_0·rotationMarker0`): τ = k(φ − offset) + d(ω − velocityOffset) + torque,
//! φ the z angle (Tait–Bryan, RotationMatrix2RotXYZ) of the relative rotation, ω the z component
//! of the relative angular velocity in that frame; applied as −J_ω0ᵀ·t and J_ω1ᵀ·t with
//! t = A_J0·e_z·τ. With a data node (`nodeNumber`, a NodeGenericData) φ is continuous beyond ±π:
//! taken within π of the last converged step's angle, which PostNewton stores. Exudyn
//! differentiates it numerically: so does the runtime, the data held.

use std::any::Any;
use std::f64::consts::PI;
use std::sync::Arc;

use nalgebra::{Matrix3, Vector3};

use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, ItemKeys, MarkerNeed, PostNewton,
};
use crate::error::Result;
use crate::items::{MarkerIndex, NodeIndex, Object, OutputVariable};
use crate::markers::rotation_vector::rotation_matrix_to_rot_xyz;
use crate::markers::{MarkerState, ResolvedMarker};

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorTorsionalSpringDamper",
    spellings: &[
        "ConnectorTorsionalSpringDamper",
        "ObjectConnectorTorsionalSpringDamper",
        "TorsionalSpringDamper",
    ],
    read,
};

/// The item's parameters, with Exudyn's names.
#[derive(Clone, Debug, PartialEq)]
pub struct TorsionalSpringDamper {
    /// `stiffness` (N·m/rad).
    pub stiffness: f64,
    /// `damping` (N·m·s/rad).
    pub damping: f64,
    /// `offset`: the relaxed angle.
    pub offset: f64,
    /// `velocityOffset`: subtracted from ω before damping.
    pub velocity_offset: f64,
    /// `torque`: a constant torque added.
    pub torque: f64,
    /// `rotationMarker0`: joint frame 0 in marker 0.
    pub rotation_marker0: Matrix3<f64>,
    /// `rotationMarker1`: joint frame 1 in marker 1.
    pub rotation_marker1: Matrix3<f64>,
    /// Whether it has a data node keeping the angle continuous (`nodeNumber` given).
    pub continuous: bool,
}

/// The spring at a state: its angle, angular velocity, torque and joint frame 0.
struct Spring {
    angle: f64,
    angular_velocity: f64,
    torque: f64,
    frame0: Matrix3<f64>,
}

impl TorsionalSpringDamper {
    /// The connector object between the orientation markers `markers` (with its continuous
    /// angle in `data_node`'s first data coordinate, if given): active, unnamed.
    pub fn between(mut self, markers: [MarkerIndex; 2], data_node: Option<NodeIndex>) -> Object {
        self.continuous = data_node.is_some();
        Object::Connector(ConnectorObject {
            family: Arc::new(self),
            name: String::new(),
            markers,
            data_node,
            active: true,
        })
    }

    /// φ (within π of the stored one, with a data node), ω and τ (0 if inactive).
    fn spring(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        active: bool,
    ) -> Spring {
        let m0 = MarkerState::new(m[0], qt, v);
        let m1 = MarkerState::new(m[1], qt, v);
        let (a0, a1) = (m0.rotation(), m1.rotation());
        let frame0 = a0 * self.rotation_marker0;
        let relative = frame0.transpose() * (a1 * self.rotation_marker1);
        let mut angle = rotation_matrix_to_rot_xyz(&relative)[2];
        if angle > PI {
            angle -= 2.0 * PI;
        }
        // Exudyn: the angle within π of the last converged step's continuous angle
        if self.continuous {
            let previous = data[0];
            if (angle - previous).abs() > PI {
                angle += ((previous - angle) / (2.0 * PI)).round() * 2.0 * PI;
            }
        }
        let omega = frame0.transpose()
            * (a1 * m1.angular_velocity_local() - a0 * m0.angular_velocity_local());
        let angular_velocity = omega[2];
        let torque = if active {
            self.stiffness * (angle - self.offset)
                + self.damping * (angular_velocity - self.velocity_offset)
                + self.torque
        } else {
            0.0
        };
        Spring {
            angle,
            angular_velocity,
            torque,
            frame0,
        }
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    let name = keys.name()?;
    let [m0, m1] = keys.two_indices("markerNumbers")?;
    keys.no_user_function("springTorqueUserFunction")?;
    // a NodeGenericData that keeps the angle continuous beyond ±π; Exudyn's invalid index (−1,
    // as its exporter writes it) is none
    let data_node = keys.opt_index("nodeNumber")?;
    let p = TorsionalSpringDamper {
        stiffness: keys.f64_or("stiffness", 0.0)?,
        damping: keys.f64_or("damping", 0.0)?,
        offset: keys.f64_or("offset", 0.0)?,
        velocity_offset: keys.f64_or("velocityOffset", 0.0)?,
        torque: keys.f64_or("torque", 0.0)?,
        rotation_marker0: keys.matrix3_or_identity("rotationMarker0")?,
        rotation_marker1: keys.matrix3_or_identity("rotationMarker1")?,
        continuous: data_node.is_some(),
    };
    Ok(ConnectorObject {
        family: Arc::new(p),
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        data_node: data_node.map(NodeIndex),
        active: keys.bool_or("activeConnector", true)?,
    })
}

impl ConnectorFamily for TorsionalSpringDamper {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Orientation
    }

    fn data_size(&self) -> usize {
        usize::from(self.continuous)
    }

    fn data_reason(&self) -> &'static str {
        "the continuous angle needs it"
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        let values = [
            ("stiffness", self.stiffness),
            ("damping", self.damping),
            ("offset", self.offset),
            ("velocityOffset", self.velocity_offset),
            ("torque", self.torque),
        ];
        let matrices = [
            ("rotationMarker0", &self.rotation_marker0),
            ("rotationMarker1", &self.rotation_marker1),
        ];
        for (key, value) in values.into_iter().chain(
            matrices
                .into_iter()
                .flat_map(|(k, m)| m.iter().map(move |&x| (k, x))),
        ) {
            if !value.is_finite() {
                return Err((key, format!("expected finite numbers, found {value}")));
            }
        }
        Ok(())
    }

    /// −J_ω0ᵀ(A_J0 e_z τ), then J_ω1ᵀ(A_J0 e_z τ).
    fn lhs(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        _q: Option<&[f64]>,
        v: &[f64],
        data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let spring = self.spring(m, qt, v, data, true);
        let t = spring.frame0 * Vector3::new(0.0, 0.0, spring.torque);
        let mut offset = 0;
        for (k, s) in [(0usize, -1.0), (1, 1.0)] {
            let n = m[k].columns.len();
            if n == 0 {
                continue;
            }
            MarkerState::new(m[k], qt, v).jacobian_t_times(
                true,
                &t,
                s,
                false,
                jac,
                &mut out[offset..],
            );
            offset += n;
        }
    }

    fn has_post_newton(&self) -> bool {
        self.continuous
    }

    /// Stores the continuous angle of the converged step; it switches nothing.
    fn post_newton(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &mut [f64],
        _: &[f64],
    ) -> PostNewton {
        data[0] = self.spring(m, qt, v, data, true).angle;
        PostNewton::default()
    }

    fn output(&self, var: OutputVariable, at: &ConnectorAt, out: &mut Vec<f64>) -> Option<()> {
        let ConnectorAt {
            markers: m,
            qt,
            v,
            data,
            active,
            ..
        } = *at;
        let spring = self.spring(m, qt, v, data, active);
        out.push(match var {
            OutputVariable::Rotation => spring.angle,
            OutputVariable::AngularVelocityLocal => spring.angular_velocity,
            OutputVariable::TorqueLocal => spring.torque,
            _ => return None,
        });
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
