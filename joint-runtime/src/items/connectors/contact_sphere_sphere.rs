//! ObjectContactSphereSphere: penalty contact of two spheres (or a sphere inside a hollow one)
//! on their markers' centres, with a linear or Hertz spring, damping, impact models, Edinburgh's
//! adhesive elasto-plastic model and regularized Coulomb friction; its contact state in a
//! NodeGenericData of 4 coordinates [gap, tangential speed, impact velocity, plastic overlap],
//! switched by PostNewton (docs/research/contact_sphere_sphere.md, whose § numbers the comments
//! cite; pip Exudyn 1.13.6's behaviour, reference cases `contact_sphere_sphere_*`).

use std::any::Any;
use std::sync::Arc;

use nalgebra::Vector3;

use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, ItemKeys, MarkerNeed, PostNewton,
};
use crate::error::Result;
use crate::items::{MarkerIndex, NodeIndex, OutputVariable};
use crate::markers::{MarkerState, ResolvedMarker};

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ContactSphereSphere",
    spellings: &["ContactSphereSphere", "ObjectContactSphereSphere"],
    read,
};

/// The item's parameters (§1), with Exudyn's names.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactSphereSphere {
    /// `spheresRadii` [r0, r1].
    pub radii: [f64; 2],
    /// `isHollowSphere1`: sphere 0 inside sphere 1.
    pub hollow: bool,
    /// `dynamicFriction` μ.
    pub friction: f64,
    /// `frictionProportionalZone` v_reg.
    pub friction_zone: f64,
    /// `contactStiffness` k.
    pub stiffness: f64,
    /// `contactDamping` d.
    pub damping: f64,
    /// `contactStiffnessExponent` n.
    pub exponent: f64,
    /// `constantPullOffForce` f_adh.
    pub pull_off_force: f64,
    /// `contactPlasticityRatio` λ_P.
    pub plasticity_ratio: f64,
    /// `adhesionCoefficient` k_adh.
    pub adhesion_coefficient: f64,
    /// `adhesionExponent` n_adh.
    pub adhesion_exponent: f64,
    /// `restitutionCoefficient` e.
    pub restitution: f64,
    /// `minimumImpactVelocity`.
    pub minimum_impact_velocity: f64,
    /// `impactModel`: 0 linear (or EAPM), 1 Hunt–Crossley, 2 Gonthier / Carvalho–Martins.
    pub impact_model: i64,
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    let name = keys.name()?;
    let [m0, m1] = keys.two_indices("markerNumbers")?;
    let data_node = keys.opt_index("nodeNumber")?;
    let radii = keys.vec2("spheresRadii", [-1.0, -1.0])?;
    let p = ContactSphereSphere {
        radii,
        hollow: keys.bool_or("isHollowSphere1", false)?,
        friction: keys.f64_or("dynamicFriction", 0.0)?,
        friction_zone: keys.f64_or("frictionProportionalZone", 0.001)?,
        stiffness: keys.f64_or("contactStiffness", 0.0)?,
        damping: keys.f64_or("contactDamping", 0.0)?,
        exponent: keys.f64_or("contactStiffnessExponent", 1.0)?,
        pull_off_force: keys.f64_or("constantPullOffForce", 0.0)?,
        plasticity_ratio: keys.f64_or("contactPlasticityRatio", 0.0)?,
        adhesion_coefficient: keys.f64_or("adhesionCoefficient", 0.0)?,
        adhesion_exponent: keys.f64_or("adhesionExponent", 1.0)?,
        restitution: keys.f64_or("restitutionCoefficient", 1.0)?,
        minimum_impact_velocity: keys.f64_or("minimumImpactVelocity", 0.0)?,
        impact_model: keys.f64_or("impactModel", 0.0)? as i64,
    };
    Ok(ConnectorObject {
        family: Arc::new(p),
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        data_node: data_node.map(NodeIndex),
        active: keys.bool_or("activeConnector", true)?,
    })
}

/// sign(x)·|x|^m, the power skipped for m = 1 (§4).
fn spow(x: f64, m: f64) -> f64 {
    if m == 1.0 {
        x
    } else if x > 0.0 {
        x.powf(m)
    } else if x < 0.0 {
        -(-x).powf(m)
    } else {
        0.0
    }
}

/// The contact's kinematics and force at a state (§3–4).
struct Contact {
    gap: f64,
    normal: Vector3<f64>,
    position0: Vector3<f64>,
    relative_position: Vector3<f64>,
    relative_velocity: Vector3<f64>,
    /// The force term of marker 1 on the LHS (−physical force on sphere 1).
    force: Vector3<f64>,
}

impl ContactSphereSphere {
    fn side(&self) -> f64 {
        if self.hollow { -1.0 } else { 1.0 }
    }

    /// The normal force magnitude F (positive pushing apart, §4a–b), at overlap δ = −gap.
    fn normal_force(&self, gap: f64, vn: f64, data: &[f64]) -> f64 {
        let (k, d, n) = (self.stiffness, self.damping, self.exponent);
        let dn = spow(-gap, n);
        let mut f = k * dn - d * vn;
        match self.impact_model {
            0 if self.plasticity_ratio != 0.0 => {
                let k2 = k / (1.0 - self.plasticity_ratio);
                let dp = spow(data[3], n);
                // the adhesion exponent only where the stiffness exponent is not 1 (Exudyn's code)
                let da = if n == 1.0 {
                    -gap
                } else {
                    spow(-gap, self.adhesion_exponent)
                };
                let adhesion = -self.adhesion_coefficient * da;
                let unloading = k2 * (dn - dp);
                let fc = if unloading >= k * dn {
                    k * dn
                } else {
                    let mut fc = k * dn - d * vn;
                    if k * dn > unloading && unloading > adhesion {
                        fc = unloading;
                    }
                    if adhesion > unloading {
                        fc = adhesion;
                    }
                    fc
                };
                f = fc - self.pull_off_force - d * vn;
            }
            1 | 2 => {
                let u = self.minimum_impact_velocity.max(data[2]);
                if u > 0.0 {
                    let e = self.restitution;
                    let c = if self.impact_model == 1 {
                        1.5 * (e - 1.0)
                    } else if e > 1.0 / 3.0 {
                        1.5 * (e - 1.0) * (11.0 - e) / (1.0 + 9.0 * e)
                    } else {
                        (e * e - 1.0) / e
                    };
                    f += k / u * c * dn * vn;
                }
            }
            _ => {}
        }
        f
    }

    /// The contact at (qt, v): in contact where the stored gap is negative (`from_data`, the
    /// force's and outputs' rule) or where the current one is (PostNewton's); the force 0
    /// without contact or inactive.
    fn contact(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &[f64],
        from_data: bool,
        active: bool,
    ) -> Contact {
        let s0 = MarkerState::new(m[0], qt, v);
        let s1 = MarkerState::new(m[1], qt, v);
        let (p0, p1) = (s0.position(), s1.position());
        let h = self.side();
        let [r0, r1] = self.radii;
        let dp = p1 - p0;
        let length = dp.norm();
        let gap = h * length - (r0 + h * r1);
        let normal = if length != 0.0 {
            (h / length) * dp
        } else {
            h * dp
        };
        let in_contact = if from_data { data[0] < 0.0 } else { gap < 0.0 };
        let mut dv = if from_data {
            Vector3::zeros()
        } else {
            s1.velocity() - s0.velocity()
        };
        let mut force = Vector3::zeros();
        if in_contact {
            let mut va = s0.velocity();
            let mut vb = s1.velocity();
            if self.friction != 0.0 {
                va += s0.angular_velocity().cross(&((r0 + 0.5 * gap) * normal));
                vb += h * s1
                    .angular_velocity()
                    .cross(&((-r1 - h * 0.5 * gap) * normal));
            }
            dv = vb - va;
            let vn = normal.dot(&dv);
            let f = self.normal_force(gap, vn, data);
            let fl = -f;
            let mut friction = Vector3::zeros();
            if self.friction != 0.0 {
                let vt = dv - vn * normal;
                let s = vt.norm();
                let zone = if from_data {
                    data[1] < self.friction_zone
                } else {
                    s < self.friction_zone
                };
                if zone && self.friction_zone != 0.0 {
                    friction = (-self.friction * fl / self.friction_zone) * vt;
                } else if s != 0.0 {
                    friction = (-self.friction * fl / s) * vt;
                }
            }
            force = fl * normal + friction;
        }
        if !active {
            force = Vector3::zeros();
        }
        Contact {
            gap,
            normal,
            position0: p0,
            relative_position: dp,
            relative_velocity: dv,
            force,
        }
    }
}

impl ConnectorFamily for ContactSphereSphere {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    /// Positions; with friction, orientation too (its torques).
    fn marker_need(&self) -> MarkerNeed {
        if self.friction != 0.0 {
            MarkerNeed::Orientation
        } else {
            MarkerNeed::Position
        }
    }

    fn data_size(&self) -> usize {
        4
    }

    fn data_reason(&self) -> &'static str {
        "a sphere–sphere contact keeps its contact state"
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        if !(0.0..=1.0).contains(&self.restitution) {
            return Err((
                "restitutionCoefficient",
                format!("{} is out of the valid range [0, 1]", self.restitution),
            ));
        }
        if !(0..=2).contains(&self.impact_model) {
            return Err((
                "impactModel",
                format!("{} is out of the valid range [0, 2]", self.impact_model),
            ));
        }
        if !(0.0..1.0).contains(&self.plasticity_ratio) {
            return Err((
                "contactPlasticityRatio",
                format!("{} is out of the valid range [0, 1)", self.plasticity_ratio),
            ));
        }
        if self.radii.iter().any(|r| !(*r > 0.0)) {
            return Err((
                "spheresRadii",
                format!(
                    "each radius must be greater than zero, found {:?}",
                    self.radii
                ),
            ));
        }
        Ok(())
    }

    /// −Jp0ᵀf and Jp1ᵀf, with friction the torques of the force at the contact point (§4e).
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
        let c = self.contact(m, qt, v, data, true, true);
        let [r0, r1] = self.radii;
        let h = self.side();
        let arms = [
            (-r0 - 0.5 * c.gap) * c.normal,
            (-h * r1 - 0.5 * c.gap) * c.normal,
        ];
        let mut offset = 0;
        for (k, sign) in [(0usize, -1.0), (1, 1.0)] {
            let n = m[k].columns.len();
            if n == 0 {
                continue;
            }
            let state = MarkerState::new(m[k], qt, v);
            let out = &mut out[offset..];
            state.jacobian_t_times(false, &c.force, sign, false, jac, out);
            if self.friction != 0.0 {
                state.jacobian_t_times(true, &arms[k].cross(&c.force), 1.0, true, jac, out);
            }
            offset += n;
        }
    }

    fn has_post_newton(&self) -> bool {
        true
    }

    /// §7b: the new gap, tangential speed, impact velocity and plastic overlap; the error of a
    /// change of contact (|g·k|) or of the friction zone, and the step that reaches the contact.
    fn post_newton(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &mut [f64],
        start: &[f64],
    ) -> PostNewton {
        let c = self.contact(m, qt, v, data, false, true);
        let g = c.gap;
        let v_gap = c.normal.dot(&c.relative_velocity);
        let (g_last, g_start, s_last) = (data[0], start[0], data[1]);
        data[0] = g;
        data[1] = (c.relative_velocity - v_gap * c.normal).norm();
        data[3] = if g < 0.0 && self.plasticity_ratio != 0.0 {
            let overlap = if self.exponent == 1.0 {
                self.plasticity_ratio * -g
            } else {
                self.plasticity_ratio.powf(1.0 / self.exponent) * -g
            };
            overlap.max(start[3])
        } else {
            0.0
        };
        let mut result = PostNewton::default();
        if (g > 0.0 && g_last <= 0.0) || (g <= 0.0 && g_last > 0.0) {
            result.error = (g * self.stiffness).abs();
            if v_gap != 0.0 && g_start != 0.0 {
                result.recommended_step = Some((g_start / v_gap).abs());
            }
        }
        let zone = self.friction_zone;
        if g < 0.0
            && zone != 0.0
            && ((data[1] < zone && s_last > zone) || (data[1] > zone && s_last < zone))
        {
            result.error +=
                (self.friction * c.force.dot(&c.normal) / zone * (data[1] - zone)).abs();
        }
        data[2] = if g_start > 0.0 && g <= 0.0 {
            -v_gap
        } else {
            start[2]
        };
        result
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
        let c = self.contact(m, qt, v, data, true, active);
        let [r0, _] = self.radii;
        let arm0 = (-r0 - 0.5 * c.gap) * c.normal;
        match var {
            OutputVariable::Position => {
                out.extend((c.position0 + (r0 + 0.5 * c.gap) * c.normal).iter())
            }
            OutputVariable::Displacement => out.extend(c.relative_position.iter()),
            OutputVariable::DisplacementLocal => out.push(c.gap),
            OutputVariable::Velocity => out.extend(c.relative_velocity.iter()),
            OutputVariable::Director1 => out.extend(c.normal.iter()),
            OutputVariable::Force => out.extend(c.force.iter()),
            OutputVariable::Torque => out.extend(arm0.cross(&c.force).iter()),
            _ => return None,
        }
        Some(())
    }

    fn drawing(&self) -> super::FamilyDrawing {
        super::FamilyDrawing::ContactSpheres { radii: self.radii }
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
