//! Fuzz the overrides file of `jointsim sweep` and its application to a model file: any input
//! must give entries or an error, and every applied entry a model text or an error, never a
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

const MODEL: &str = include_str!("../../tests/reference/exudyn_cases/seed_mini_pendulum.json");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(entries) = jointsim::overrides::parse_overrides(text) else { return };
    let base = jointsim::overrides::Base::new(MODEL).expect("the model is JSON");
    for e in &entries {
        if let Ok(applied) = base.apply(e) {
            let _ = joint_runtime::model::read_model(&applied);
        }
    }
});
