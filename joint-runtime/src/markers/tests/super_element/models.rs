//! The markers of the models, described independently from the runtime.

use super::*;

// ------------------------------------------------------------------------------------------
// The markers of the models, described independently from the items (spec §3–5).

#[derive(Clone, Copy)]
pub(super) struct RigidSpec {
    pub(super) offset: V,
    pub(super) alternative: bool,
    pub(super) mode: i64,
}

pub(super) struct Spec {
    pub(super) marker: usize,
    /// "SuperElementRigid on FFRFreducedOrder, alternative, mode 2"
    pub(super) what: String,
    pub(super) rigid: Option<RigidSpec>,
    /// FFRF: global index of the frame node's first coordinate.
    pub(super) frame: Option<usize>,
    pub(super) weights: Vec<f64>,
    pub(super) weight_sum: f64,
    /// x_ref of each marked mesh node (object-local for FFRF).
    pub(super) x_ref: Vec<V>,
    /// Local displacement of marked node i: Σ (global index g, direction d) d·q_g.
    pub(super) maps: Vec<Vec<(usize, V)>>,
}

pub(super) struct Case {
    pub(super) file: String,
    pub(super) sim: Simulation,
    pub(super) specs: Vec<Spec>,
}

pub(super) fn spec_of(sim: &Simulation, file: &str, i: usize) -> Option<Spec> {
    let (body, mesh, weights, rigid, marker_type) = match &sim.mbs.markers[i] {
        Marker::SuperElementPosition {
            body,
            mesh_nodes,
            weights,
            ..
        } => (*body, mesh_nodes, weights, None, "SuperElementPosition"),
        Marker::SuperElementRigid {
            body,
            offset,
            mesh_nodes,
            weights,
            use_alternative_approach,
            rotations_exponential_map,
            ..
        } => (
            *body,
            mesh_nodes,
            weights,
            Some(RigidSpec {
                offset: *offset,
                alternative: *use_alternative_approach,
                mode: *rotations_exponential_map,
            }),
            "SuperElementRigid",
        ),
        _ => return None,
    };
    let topo = &sim.topology;
    let mut x_ref = Vec::new();
    let mut maps = Vec::new();
    let (object_type, frame) = match &sim.mbs.objects[body.0] {
        Object::GenericODE2 { nodes, .. } => {
            for &k in mesh {
                let n = nodes[k].0;
                let r = sim.mbs.nodes[n].reference_coordinates();
                let s = topo.node_ode2[n];
                x_ref.push([r[0], r[1], r[2]]);
                maps.push((0..3).map(|d| (s + d, unit(d))).collect());
            }
            ("GenericODE2", None)
        }
        Object::FFRFreducedOrder {
            nodes, parameters, ..
        } => {
            assert!(
                matches!(sim.mbs.nodes[nodes[0].0], Node::RigidBodyEP { .. }),
                "{file}: marker {i}: the FFRF frame node is not a RigidBodyEP node"
            );
            let frame = topo.node_ode2[nodes[0].0];
            let modal = topo.node_ode2[nodes[1].0];
            let psi = &parameters.mode_basis;
            let xr = &parameters.reference_positions;
            for &k in mesh {
                x_ref.push([xr[3 * k], xr[3 * k + 1], xr[3 * k + 2]]);
                maps.push(
                    (0..psi.ncols())
                        .map(|c| {
                            (
                                modal + c,
                                [psi[(3 * k, c)], psi[(3 * k + 1, c)], psi[(3 * k + 2, c)]],
                            )
                        })
                        .collect(),
                );
            }
            ("FFRFreducedOrder", Some(frame))
        }
        other => panic!(
            "{file}: marker {i} sits on a {}, not a superelement",
            other.type_name()
        ),
    };
    let what = match rigid {
        None => format!("{marker_type} on {object_type}"),
        Some(r) => format!(
            "{marker_type} on {object_type}, {} approach, rotationsExponentialMap {}",
            if r.alternative {
                "alternative"
            } else {
                "standard"
            },
            r.mode
        ),
    };
    Some(Spec {
        marker: i,
        what,
        rigid,
        frame,
        weights: weights.clone(),
        weight_sum: weights.iter().sum(),
        x_ref,
        maps,
    })
}

pub(super) fn model_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(OWN_CASES)
        .expect("tests/reference/own_cases")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            (name.starts_with("se_") && name.ends_with(".json") && !name.ends_with(".ref.json"))
                .then(|| format!("{OWN_CASES}{name}"))
        })
        .collect();
    files.sort();
    files.push(format!("{EXUDYN_CASES}superelement_position.json"));
    files
}

/// Factor applied to every superelement marker's weights in the second variant of each model:
/// all weights in the files sum to 1, and Σw ≠ 1 has documented consequences (§2.5, §3, §4).
pub(super) const WEIGHT_SCALE: f64 = 1.25;

pub(super) fn case(file: String, text: &str) -> Case {
    let model = read_model(text).unwrap_or_else(|e| panic!("{file}: read_model: {e}"));
    let sim = model
        .mbs
        .assemble()
        .unwrap_or_else(|e| panic!("{file}: assemble: {e}"));
    let specs: Vec<Spec> = (0..sim.mbs.markers.len())
        .filter_map(|i| spec_of(&sim, &file, i))
        .collect();
    assert!(!specs.is_empty(), "{file}: no superelement marker");
    Case { file, sim, specs }
}

/// Every model as read, and a variant with the superelement markers' weights × WEIGHT_SCALE.
pub(super) fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for path in model_files() {
        let file = path.rsplit('/').next().unwrap_or(&path).to_owned();
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: reading: {e}"));
        let mut json: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: JSON: {e}"));
        let markers = json["markers"]
            .as_array_mut()
            .unwrap_or_else(|| panic!("{file}: no markers list"));
        for m in markers {
            let is_super_element = m["markerType"]
                .as_str()
                .is_some_and(|t| t.starts_with("SuperElement"));
            if is_super_element {
                for w in m["weightingFactors"]
                    .as_array_mut()
                    .unwrap_or_else(|| panic!("{file}: weightingFactors"))
                {
                    *w = serde_json::json!(w.as_f64().expect("a weight") * WEIGHT_SCALE);
                }
            }
        }
        out.push(case(file.clone(), &text));
        out.push(case(
            format!("{file} (weights × {WEIGHT_SCALE})"),
            &json.to_string(),
        ));
    }
    out
}

/// The spec's kinematics of a marker at a state (§2.5, §4, §5.2).
pub(super) struct Kinematics {
    pub(super) position: V,
    pub(super) velocity: V,
    /// Frame: rotation A, local angular velocity ω_r, translational velocity ṗ_r.
    pub(super) a: M,
    pub(super) omega_r: V,
    pub(super) frame_velocity: V,
    pub(super) theta: V,
    /// θ̇_w = W⁻¹ Σ w_i P_i × (v_i − v̄)
    pub(super) theta_dot: V,
    /// E(θ) and T(θ)
    pub(super) e: M,
    pub(super) t: M,
    pub(super) rotation: M,
    pub(super) omega_local: V,
    pub(super) omega_global: V,
    /// The spec's J_r·q̇ = A·(ω_r + C·W⁻¹ Σ w_i P_i × v_i) (§3; no v̄ in the Jacobian).
    pub(super) jr_qdot: V,
}

pub(super) fn kinematics(s: &Spec, reference: &[f64], qt: &[f64], v: &[f64]) -> Kinematics {
    let n = s.weights.len();
    let mut u = Vec::with_capacity(n);
    let mut vel = Vec::with_capacity(n);
    for map in &s.maps {
        let mut ui = ZERO;
        let mut vi = ZERO;
        for &(g, d) in map {
            ui = add(ui, scale(qt[g] - reference[g], d));
            vi = add(vi, scale(v[g], d));
        }
        u.push(ui);
        vel.push(vi);
    }
    let (pr, vr, a, omega_r) = match s.frame {
        Some(f) => {
            let e = [qt[f + 3], qt[f + 4], qt[f + 5], qt[f + 6]];
            let ed = [v[f + 3], v[f + 4], v[f + 5], v[f + 6]];
            let g = ep_g_local(e);
            let w = g.map(|row| (0..4).map(|k| row[k] * ed[k]).sum());
            (
                [qt[f], qt[f + 1], qt[f + 2]],
                [v[f], v[f + 1], v[f + 2]],
                ep_rotation(e),
                w,
            )
        }
        None => (ZERO, ZERO, IDENTITY, ZERO),
    };
    let w = &s.weights;
    let mut wp = ZERO;
    let mut wv = ZERO;
    for i in 0..n {
        wp = add(wp, scale(w[i], add(s.x_ref[i], u[i])));
        wv = add(wv, scale(w[i], vel[i]));
    }
    let offset = s.rigid.map_or(ZERO, |r| r.offset);
    let b = add(offset, wp);
    // MarkerSuperElementPosition on FFRF: Σ w_i (p_r + A p_i), Σw not normalised (§4).
    let frame_factor = if s.rigid.is_none() { s.weight_sum } else { 1.0 };
    let position = add(scale(frame_factor, pr), mv(&a, b));
    let velocity = add(scale(frame_factor, vr), mv(&a, add(wv, cross(omega_r, b))));
    let mut k = Kinematics {
        position,
        velocity,
        a,
        omega_r,
        frame_velocity: vr,
        theta: ZERO,
        theta_dot: ZERO,
        e: IDENTITY,
        t: IDENTITY,
        rotation: IDENTITY,
        omega_local: ZERO,
        omega_global: ZERO,
        jr_qdot: ZERO,
    };
    let Some(rigid) = s.rigid else { return k };
    let mut x_bar = ZERO;
    let mut u_bar = ZERO;
    let mut v_bar = ZERO;
    for i in 0..n {
        x_bar = add(x_bar, scale(w[i], s.x_ref[i]));
        u_bar = add(u_bar, scale(w[i], u[i]));
        v_bar = add(v_bar, scale(w[i], vel[i]));
    }
    let arms: Vec<V> = s.x_ref.iter().map(|x| sub(*x, x_bar)).collect();
    let mut wm = [[0.0; 3]; 3];
    for i in 0..n {
        let p = arms[i];
        let pp = dot(p, p);
        for (r, row) in wm.iter_mut().enumerate() {
            for (c, x) in row.iter_mut().enumerate() {
                let delta = if r == c { 1.0 } else { 0.0 };
                *x += w[i]
                    * if rigid.alternative {
                        pp * delta - p[r] * p[c]
                    } else {
                        pp * delta
                    };
            }
        }
    }
    let w_inv = inverse(&wm);
    let mut s_theta = ZERO;
    let mut s_rate = ZERO;
    let mut s_jac = ZERO;
    for i in 0..n {
        s_theta = add(s_theta, scale(w[i], cross(arms[i], sub(u[i], u_bar))));
        s_rate = add(s_rate, scale(w[i], cross(arms[i], sub(vel[i], v_bar))));
        s_jac = add(s_jac, scale(w[i], cross(arms[i], vel[i])));
    }
    let theta = mv(&w_inv, s_theta);
    let theta_dot = mv(&w_inv, s_rate);
    let t = t_exp_so3(theta);
    let e = if rigid.mode > 0 {
        exp_so3(theta)
    } else {
        madd(&IDENTITY, &skew(theta))
    };
    let omega_m = if rigid.mode == 2 {
        mv(&t, theta_dot)
    } else {
        theta_dot
    };
    let c = if rigid.alternative && rigid.mode > 0 {
        t
    } else {
        IDENTITY
    };
    k.theta = theta;
    k.theta_dot = theta_dot;
    k.e = e;
    k.t = t;
    k.rotation = mm(&a, &e);
    k.omega_local = add(omega_r, omega_m);
    k.omega_global = mv(&a, k.omega_local);
    k.jr_qdot = mv(&a, add(omega_r, mv(&c, mv(&w_inv, s_jac))));
    k
}
