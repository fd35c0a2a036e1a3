//! Fuzz the reader of the files `jointsim scene --result` and `view --result` take (coordinates
//! solution files and result files): any input must give a motion or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for n_ode2 in [0, 3, 7] {
        if let Ok(m) = joint_runtime::scene::Motion::read(text, "fuzz", n_ode2) {
            assert_eq!(m.times.len(), m.coordinates.len());
            assert!(m.coordinates.iter().all(|q| q.len() == n_ode2));
        }
    }
});
