//! A human-readable summary of a model: items by type, coordinates, equations, and which
//! generated kernels the assembled system uses (`jointsim check`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::model::{Model, SolveKind};
use crate::settings::DynamicSolverType;
use crate::simulation::Simulation;

fn count_by<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for n in names {
        *counts.entry(n).or_default() += 1;
    }
    counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary of an assembled model.
pub fn summary(model: &Model, sim: &Simulation) -> String {
    let mbs = &model.mbs;
    let topo = &sim.topology;
    let mut s = String::new();
    let list = |n: usize, what: &str, detail: String| {
        if n == 0 {
            format!("0 {what}")
        } else {
            format!("{n} {what} ({detail})")
        }
    };
    let _ = writeln!(
        s,
        "items: {}; {}; {}; {}; {}",
        list(
            mbs.nodes.len(),
            "nodes",
            count_by(mbs.nodes.iter().map(|n| n.type_name()))
        ),
        list(
            mbs.objects.len(),
            "objects",
            count_by(mbs.objects.iter().map(|o| o.type_name()))
        ),
        list(
            mbs.markers.len(),
            "markers",
            count_by(mbs.markers.iter().map(|m| m.type_name()))
        ),
        list(
            mbs.loads.len(),
            "loads",
            count_by(mbs.loads.iter().map(|l| l.type_name()))
        ),
        list(
            mbs.sensors.len(),
            "sensors",
            count_by(mbs.sensors.iter().map(|x| x.type_name()))
        ),
    );
    let free: usize = topo
        .joints
        .iter()
        .map(|j| (0..j.rows()).filter(|&k| !j.row_constrained(k)).count())
        .sum();
    let velocity_level: usize = topo
        .joints
        .iter()
        .filter(|j| j.velocity_level())
        .map(|j| (0..j.rows()).filter(|&k| j.row_constrained(k)).count())
        .sum();
    let velocity_level = if velocity_level > 0 {
        format!(", {velocity_level} at velocity level only")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "coordinates: {} ODE2, {} AE; equations: {} Euler-parameter constraints, {} joint rows ({} free or inactive{velocity_level})",
        topo.n_ode2,
        topo.n_ae,
        topo.ep_constraints.len(),
        topo.joints.iter().map(|j| j.rows()).sum::<usize>()
            + topo
                .coordinate_vectors
                .iter()
                .map(|c| c.rows)
                .sum::<usize>(),
        free + topo
            .coordinate_vectors
            .iter()
            .filter(|c| !c.active)
            .map(|c| c.rows)
            .sum::<usize>()
    );
    write_solve(&mut s, model, topo.n_ae);
    let mut kernels: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for j in &topo.joints {
        let name = j.kernel_name();
        kernels.entry(name).or_default().push(j.object);
    }
    for c in &topo.coordinate_vectors {
        // loops over the markers' run-time coordinate vectors
        let name = format!("{} (coordinate vectors)", c.definition.module);
        kernels.entry(name).or_default().push(c.object);
    }
    if kernels.is_empty() {
        let _ = writeln!(s, "generated joint kernels: none");
    } else {
        let _ = writeln!(s, "generated joint kernels:");
        for (k, objects) in kernels {
            let list: Vec<String> = objects.iter().map(|o| format!("objects[{o}]")).collect();
            let _ = writeln!(s, "  {k}: {}", list.join(", "));
        }
    }
    let mut kinds: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, m) in topo.markers.iter().enumerate() {
        kinds.entry(m.kinematics_name()).or_default().push(i);
    }
    let _ = writeln!(s, "generated marker kinematics:");
    for (k, markers) in kinds {
        let list: Vec<String> = markers.iter().map(|m| format!("markers[{m}]")).collect();
        if k == "coordinates" {
            // MarkerNodeCoordinates, MarkerObjectODE2Coordinates: the coordinates themselves
            let _ = writeln!(
                s,
                "  coordinate vectors (no kinematics): {}",
                list.join(", ")
            );
        } else {
            let _ = writeln!(s, "  marker_kinematics::{k}: {}", list.join(", "));
        }
    }
    s
}

/// The summary's line on the solve the model asks for: the integrator, its steps and settings.
fn write_solve(s: &mut String, model: &Model, n_ae: usize) {
    let settings = &model.settings;
    match model.solve {
        SolveKind::Dynamic if settings.time_integration.solver_type.is_explicit() => {
            let ti = &settings.time_integration;
            let t = ti.solver_type;
            let control = if matches!(t, DynamicSolverType::ODE23 | DynamicSolverType::DOPRI5) {
                if ti.automatic_step_size {
                    format!(
                        ", automatic step size (absoluteTolerance = {}, relativeTolerance = {})",
                        ti.absolute_tolerance, ti.relative_tolerance
                    )
                } else {
                    ", error control without automaticStepSize".to_owned()
                }
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "solve: dynamic, explicit {}{control}, {} nominal steps from t = {} to {}{}",
                t.name(),
                ti.number_of_steps,
                ti.start_time,
                ti.end_time,
                match (n_ae, ti.explicit.eliminate_constraints) {
                    (0, _) => "",
                    (_, true) => {
                        ", coordinates fixed to ground eliminated, other constraints refused (eliminateConstraints)"
                    }
                    (_, false) => ", its algebraic equations ignored (λ = 0)",
                }
            );
        }
        SolveKind::Dynamic => {
            let ti = &settings.time_integration;
            let ga = &ti.generalized_alpha_for_run();
            let scheme = if ga.use_newmark {
                format!(
                    "Newmark (β = {}, γ = {}), index {}",
                    ga.newmark_beta,
                    ga.newmark_gamma,
                    if ga.use_index2_constraints { 2 } else { 3 }
                )
            } else {
                format!(
                    "generalized-α (spectralRadius = {}), index 3",
                    ga.spectral_radius
                )
            };
            let _ = writeln!(
                s,
                "solve: dynamic, {scheme}, {} steps from t = {} to {}, {} Newton",
                ti.number_of_steps,
                ti.start_time,
                ti.end_time,
                if ti.newton.use_modified_newton {
                    "modified"
                } else {
                    "full"
                }
            );
        }
        SolveKind::Static => {
            let ss = &settings.static_solver;
            let _ = writeln!(s, "solve: static, {} load steps", ss.number_of_load_steps);
        }
    }
}
