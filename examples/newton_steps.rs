//! The Newton path of a model file, step by step: after each completed step the time and the
//! cumulative Newton iterations and Jacobian evaluations, as JSON rows `[t, iterations,
//! jacobians]` on stdout. With `tools/reference/exudyn_newton_steps.py`, which prints Exudyn's
//! rows for the same file, it finds the first step where the two paths part.
//!
//! ```sh
//! cargo run --release --example newton_steps -- MODEL.json > ours.json
//! ```

use joint::runtime::model::read_model;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: newton_steps MODEL.json")?;
    let model = read_model(&std::fs::read_to_string(path)?)?;
    let mut sim = model.mbs.assemble()?;
    let mut rows: Vec<(f64, u64, u64)> = Vec::new();
    let mut observer = |s: &joint::runtime::Simulation, p: joint::runtime::simulation::Progress| {
        let n = &s.statistics().newton;
        rows.push((p.time, n.iterations as u64, n.jacobians as u64));
    };
    sim.solve_observed(model.solve, &model.settings, &mut observer)?;
    let text: Vec<String> = rows
        .iter()
        .map(|(t, i, j)| format!("[{t:?}, {i}, {j}]"))
        .collect();
    println!("[{}]", text.join(",\n "));
    Ok(())
}
