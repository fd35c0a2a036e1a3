//! Fuzz the model-file reader and assemble: any input must give a model or an error, never a
//! panic. Valid models are assembled too (range checks, kernel selection) and, if small,
//! stepped a little, so that the checks the reader leaves to assemble are exercised.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut model) = joint_runtime::model::read_model(text) else { return };
    let Ok(mut sim) = model.mbs.assemble() else { return };
    if sim.state().q.len() + sim.state().lambda.len() > 60 {
        return;
    }
    // A few steps only: the fuzzer looks for panics, not for long runs.
    let ti = &mut model.settings.time_integration;
    let span = ti.end_time - ti.start_time;
    if ti.number_of_steps > 0 && span.is_finite() {
        ti.end_time = ti.start_time + span / ti.number_of_steps as f64 * 3.0;
        ti.number_of_steps = 3;
    }
    model.settings.static_solver.number_of_load_steps = model.settings.static_solver.number_of_load_steps.min(3);
    // Step reduction down to minimumStepSize without recovery (adaptiveStepIncrease = 1) is
    // Exudyn's behaviour but runs for 10⁸ steps: keep the fuzzer's runs bounded.
    model.settings.time_integration.adaptive_step = false;
    model.settings.static_solver.adaptive_step = false;
    let _ = match model.solve {
        joint_runtime::model::SolveKind::Dynamic => sim.solve_dynamic(&model.settings),
        joint_runtime::model::SolveKind::Static => sim.solve_static(&model.settings),
    };
});
