//! ObjectConnectorCoordinateSpringDamperExt: a spring-damper between two coordinates with
//! friction (regularized, or stick–slip with a bristle), limit stops and their states in a
//! NodeGenericData (docs/research/connector_coordinate_spring_damper_ext.md, whose § numbers the
//! comments cite; pip Exudyn 1.13.6's behaviour, its reference cases
//! `coordinate_spring_damper_ext_*`).
//!
//! With q = f1·q_m1 − f0·q_m0 and v = f1·v_m1 − f0·v_m0 (displacements, §2a), the scalar force
//! is f = k(q − x_off) + d(v − v_off) + friction + contact (§2b), applied as −f0·f·J_0ᵀ and
//! f1·f·J_1ᵀ. Its data coordinates are [friction state (0: stick, else the last slip force),
//! last sticking position, limit-stop penetration (0: free)] (§3), switched after every
//! converged solve by PostNewton (§5).

use std::any::Any;
use std::sync::Arc;

use super::{
    ConnectorAt, ConnectorFamily, ConnectorObject, ConnectorType, ItemKeys, MarkerNeed, PostNewton,
};
use crate::error::Result;
use crate::items::{MarkerIndex, NodeIndex, OutputVariable};
use crate::markers::ResolvedMarker;

pub(super) const TYPE: ConnectorType = ConnectorType {
    name: "ConnectorCoordinateSpringDamperExt",
    spellings: &[
        "ConnectorCoordinateSpringDamperExt",
        "ObjectConnectorCoordinateSpringDamperExt",
        "CoordinateSpringDamperExt",
    ],
    read,
};

/// The item's parameters (§1), with Exudyn's names.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinateSpringDamperExt {
    /// `stiffness` k.
    pub stiffness: f64,
    /// `damping` d.
    pub damping: f64,
    /// `offset` x_off.
    pub offset: f64,
    /// `velocityOffset` v_off (the damper term only).
    pub velocity_offset: f64,
    /// `factor0` f0 (≠ 0).
    pub factor0: f64,
    /// `factor1` f1 (≠ 0).
    pub factor1: f64,
    /// `dynamicFrictionForce` f_d (1.11: `fDynamicFriction`).
    pub dynamic_friction_force: f64,
    /// `staticFrictionOffsetForce` f_so (1.11: `fStaticFrictionOffset`).
    pub static_friction_offset_force: f64,
    /// `stickingStiffness` k_μ of the bristle.
    pub sticking_stiffness: f64,
    /// `stickingDamping` d_μ of the bristle.
    pub sticking_damping: f64,
    /// `exponentialDecayStatic` v_exp.
    pub exponential_decay_static: f64,
    /// `viscousFrictionFactor` f_v (1.11: `fViscousFriction`).
    pub viscous_friction_factor: f64,
    /// `frictionProportionalZone` v_reg: ≠ 0 the regularized friction, 0 the bristle.
    pub friction_proportional_zone: f64,
    /// `limitStopsUpper`.
    pub limit_stops_upper: f64,
    /// `limitStopsLower`.
    pub limit_stops_lower: f64,
    /// `limitStopsStiffness` k_ls.
    pub limit_stops_stiffness: f64,
    /// `limitStopsDamping` d_ls.
    pub limit_stops_damping: f64,
    /// `useLimitStops`.
    pub use_limit_stops: bool,
}

/// A number under its 1.13.6 name or its deprecated 1.11 one (§0(a)), not both.
fn renamed(keys: &mut dyn ItemKeys, key: &'static str, old: &'static str) -> Result<f64> {
    match (keys.opt_f64(key)?, keys.opt_f64(old)?) {
        (Some(_), Some(_)) => {
            Err(keys.error(old, format!("given with `{key}`, its 1.13 name: give one")))
        }
        (Some(x), None) | (None, Some(x)) => Ok(x),
        (None, None) => Ok(0.0),
    }
}

fn read(keys: &mut dyn ItemKeys) -> Result<ConnectorObject> {
    let name = keys.name()?;
    let [m0, m1] = keys.two_indices("markerNumbers")?;
    let data_node = keys.opt_index("nodeNumber")?;
    keys.no_user_function("springForceUserFunction")?;
    let p = CoordinateSpringDamperExt {
        stiffness: keys.f64_or("stiffness", 0.0)?,
        damping: keys.f64_or("damping", 0.0)?,
        offset: keys.f64_or("offset", 0.0)?,
        velocity_offset: keys.f64_or("velocityOffset", 0.0)?,
        factor0: keys.f64_or("factor0", 1.0)?,
        factor1: keys.f64_or("factor1", 1.0)?,
        dynamic_friction_force: renamed(keys, "dynamicFrictionForce", "fDynamicFriction")?,
        static_friction_offset_force: renamed(
            keys,
            "staticFrictionOffsetForce",
            "fStaticFrictionOffset",
        )?,
        sticking_stiffness: keys.f64_or("stickingStiffness", 0.0)?,
        sticking_damping: keys.f64_or("stickingDamping", 0.0)?,
        exponential_decay_static: keys.f64_or("exponentialDecayStatic", 1e-3)?,
        viscous_friction_factor: renamed(keys, "viscousFrictionFactor", "fViscousFriction")?,
        friction_proportional_zone: keys.f64_or("frictionProportionalZone", 0.0)?,
        limit_stops_upper: keys.f64_or("limitStopsUpper", 0.0)?,
        limit_stops_lower: keys.f64_or("limitStopsLower", 0.0)?,
        limit_stops_stiffness: keys.f64_or("limitStopsStiffness", 0.0)?,
        limit_stops_damping: keys.f64_or("limitStopsDamping", 0.0)?,
        use_limit_stops: keys.bool_or("useLimitStops", false)?,
    };
    Ok(ConnectorObject {
        family: Arc::new(p),
        name,
        markers: [MarkerIndex(m0), MarkerIndex(m1)],
        data_node: data_node.map(NodeIndex),
        active: keys.bool_or("activeConnector", true)?,
    })
}

/// Exudyn's sign: 0 at 0.
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

impl CoordinateSpringDamperExt {
    /// Friction with a bristle (stick–slip), which keeps a state: regularization zone 0 and a
    /// friction force.
    fn bristle(&self) -> bool {
        self.friction_proportional_zone == 0.0
            && (self.dynamic_friction_force != 0.0 || self.static_friction_offset_force != 0.0)
    }

    /// Exudyn's StribeckFunction S(v) with regularization zone `zone` (§2b).
    fn stribeck(&self, v: f64, zone: f64) -> f64 {
        let (f_d, f_so, f_v) = (
            self.dynamic_friction_force,
            self.static_friction_offset_force,
            self.viscous_friction_factor,
        );
        if zone != 0.0 && v.abs() <= zone {
            (f_d + f_so) * v / zone
        } else if self.exponential_decay_static != 0.0 {
            sign(v)
                * (f_d
                    + f_so * (-(v.abs() - zone) / self.exponential_decay_static).exp()
                    + f_v * (v.abs() - zone))
        } else {
            sign(v) * (f_d + f_so + f_v * (v.abs() - zone))
        }
    }

    /// q and v of §2a.
    fn relative(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        q: Option<&[f64]>,
        v: &[f64],
    ) -> (f64, f64) {
        let (q0, v0) = m[0].coordinate_state_of(qt, q, v);
        let (q1, v1) = m[1].coordinate_state_of(qt, q, v);
        (
            self.factor1 * q1 - self.factor0 * q0,
            self.factor1 * v1 - self.factor0 * v0,
        )
    }

    /// The scalar force f_SD at (q, v) with the data coordinates `data` (§2b).
    fn force(&self, q: f64, v: f64, data: &[f64]) -> f64 {
        let mut f = self.stiffness * (q - self.offset) + self.damping * (v - self.velocity_offset);
        if self.friction_proportional_zone != 0.0 {
            f += self.stribeck(v, self.friction_proportional_zone);
        } else if self.bristle() {
            let state = data[0];
            f += if state == 0.0 {
                self.sticking_stiffness * (q - data[1]) + self.sticking_damping * v
            } else {
                sign(state) * self.stribeck(v, 0.0).abs()
            };
        }
        if self.use_limit_stops {
            let penetration = data[2];
            if penetration < 0.0 {
                f += self.limit_stops_stiffness * (q - self.limit_stops_lower)
                    + self.limit_stops_damping * v;
            } else if penetration > 0.0 {
                f += self.limit_stops_stiffness * (q - self.limit_stops_upper)
                    + self.limit_stops_damping * v;
            }
        }
        f
    }

    /// PostNewton's friction part (§5): new state and sticking position, and its error.
    fn friction_post_newton(&self, q: f64, v: f64, data: &mut [f64], start: &[f64]) -> f64 {
        let (state, anchor) = (data[0], data[1]);
        let slip = self.stribeck(v, 0.0);
        let bristle = |x: f64| self.sticking_stiffness * (q - x) + self.sticking_damping * v;
        if state == 0.0 {
            let f = bristle(anchor);
            if f.abs() > self.dynamic_friction_force + self.static_friction_offset_force {
                data[0] = slip;
                return f.abs() - slip.abs();
            }
            data[0] = 0.0;
            return 0.0;
        }
        data[0] = slip;
        data[1] = q;
        if v * state >= 0.0 {
            return 0.0;
        }
        // slipping against the direction assumed: stick
        data[0] = 0.0;
        if start[0] == 0.0 {
            data[1] = start[1];
            (slip.abs() - bristle(anchor).abs()).abs()
        } else {
            data[1] = q - (start[0] - self.sticking_damping * v) / self.sticking_stiffness;
            (start[0] - slip).abs()
        }
    }

    /// PostNewton's limit-stop part (§5): the new penetration and its error.
    fn limit_stops_post_newton(&self, q: f64, data: &mut [f64]) -> f64 {
        if !self.use_limit_stops {
            data[2] = 0.0;
            return 0.0;
        }
        let (lower, upper, k) = (
            self.limit_stops_lower,
            self.limit_stops_upper,
            self.limit_stops_stiffness,
        );
        let d = data[2];
        let (new, error) = if d < 0.0 {
            if q > lower {
                (0.0, (d * k).abs())
            } else {
                (q - lower, 0.0)
            }
        } else if d > 0.0 {
            if q < upper {
                (0.0, (d * k).abs())
            } else {
                (q - upper, 0.0)
            }
        } else if q > upper {
            (q - upper, ((q - upper) * k).abs())
        } else if q < lower {
            (q - lower, ((q - lower) * k).abs())
        } else {
            (0.0, 0.0)
        };
        data[2] = new;
        error
    }
}

impl ConnectorFamily for CoordinateSpringDamperExt {
    fn type_name(&self) -> &'static str {
        TYPE.name
    }

    fn marker_need(&self) -> MarkerNeed {
        MarkerNeed::Coordinate
    }

    /// A data node with 3 coordinates where friction keeps a bristle or limit stops are used
    /// (Exudyn's `needsDataNode`; PostNewton writes all three, §1 and §3).
    fn data_size(&self) -> usize {
        if self.use_limit_stops || self.bristle() {
            3
        } else {
            0
        }
    }

    fn data_reason(&self) -> &'static str {
        if self.use_limit_stops {
            "useLimitStops is True"
        } else {
            "frictionProportionalZone is zero and a friction force is not"
        }
    }

    fn check(&self) -> std::result::Result<(), (&'static str, String)> {
        let friction =
            self.dynamic_friction_force != 0.0 || self.static_friction_offset_force != 0.0;
        if (self.friction_proportional_zone == 0.0 || self.use_limit_stops)
            && friction
            && self.sticking_stiffness == 0.0
        {
            return Err((
                "stickingStiffness",
                "may not be zero with stick–slip friction".into(),
            ));
        }
        for (key, value) in [("factor0", self.factor0), ("factor1", self.factor1)] {
            if value == 0.0 {
                return Err((key, "may not be zero".into()));
            }
        }
        Ok(())
    }

    fn lhs(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        displacements: Option<&[f64]>,
        v: &[f64],
        data: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        let (q, qv) = self.relative(m, qt, displacements, v);
        let f = self.force(q, qv, data);
        let n0 = m[0].columns.len();
        let n1 = m[1].columns.len();
        m[0].coordinate_jacobian(qt, v, &mut out[..n0], jac);
        m[1].coordinate_jacobian(qt, v, &mut out[n0..n0 + n1], jac);
        for x in &mut out[..n0] {
            *x *= -self.factor0 * f;
        }
        for x in &mut out[n0..n0 + n1] {
            *x *= self.factor1 * f;
        }
    }

    /// Analytic (§4) only without friction, viscous friction or limit stops, and between
    /// markers with a Jacobian derivative (not a rotation coordinate's): k and d spread over
    /// the markers' unit Jacobians, **without** factor0 and factor1, as Exudyn forms it.
    fn takes_analytic_jacobian(&self, m: [&ResolvedMarker; 2]) -> bool {
        let nonlinear = self.use_limit_stops
            || self.dynamic_friction_force != 0.0
            || self.static_friction_offset_force != 0.0
            || self.viscous_friction_factor != 0.0;
        !nonlinear && !m.iter().any(|m| m.is_rotation_coordinate())
    }

    fn analytic_jacobian(
        &self,
        m: [&ResolvedMarker; 2],
        _qt: &[f64],
        _v: &[f64],
        factor_k: f64,
        factor_d: f64,
        out: &mut [f64],
    ) {
        let local = self.stiffness * factor_k + self.damping * factor_d;
        let (n0, n1) = (m[0].columns.len(), m[1].columns.len());
        let n = n0 + n1;
        let side = |i: usize| if i < n0 { -1.0 } else { 1.0 };
        for r in 0..n {
            for c in 0..n {
                out[r * n + c] = side(r) * side(c) * local;
            }
        }
    }

    fn has_post_newton(&self) -> bool {
        self.data_size() > 0
    }

    fn post_newton(
        &self,
        m: [&ResolvedMarker; 2],
        qt: &[f64],
        v: &[f64],
        data: &mut [f64],
        data_start: &[f64],
    ) -> PostNewton {
        let (q, qv) = self.relative(m, qt, None, v);
        PostNewton {
            error: self.friction_post_newton(q, qv, data, data_start)
                + self.limit_stops_post_newton(q, data),
            recommended_step: None,
        }
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
        let (q, qv) = self.relative(m, qt, None, v);
        out.push(match var {
            OutputVariable::Displacement => q,
            OutputVariable::Velocity => qv,
            OutputVariable::Force if active => self.force(q, qv, data),
            OutputVariable::Force => 0.0,
            _ => return None,
        });
        Some(())
    }

    fn same_as(&self, other: &dyn ConnectorFamily) -> bool {
        (other as &dyn Any).downcast_ref::<Self>() == Some(self)
    }
}
