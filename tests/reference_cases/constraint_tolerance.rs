//! Where `SimulationSettings::constraint_tolerance`'s default comes from: the largest
//! constraint residual any step of the corpus (every model file of the reference cases and
//! benchmarks, solved as it asks) accepts. The default is at least 100 times it, so that the
//! check after every step fails no run Exudyn's Newton accepts here, and a case that comes
//! within that factor fails this test rather than, one day, a user's run.

use super::*;
use joint::runtime::settings::DEFAULT_CONSTRAINT_TOLERANCE;

#[test]
fn the_default_constraint_tolerance_is_100_times_the_corpus_largest() {
    let mut largest = (0.0f64, String::new());
    let bench = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/benchmarks/");
    for dir in [CASES, OWN_CASES, bench] {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.ends_with(".json") && !name.ends_with(".ref.json")
            })
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let model = read_model(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let mut sim = model.mbs.assemble().unwrap();
            match model.solve {
                SolveKind::Dynamic => sim.solve_dynamic(&model.settings),
                SolveKind::Static => sim.solve_static(&model.settings),
            }
            .unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let r = sim.statistics().largest_constraint_residual;
            if r > largest.0 {
                largest = (r, path.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    eprintln!(
        "largest accepted constraint residual of the corpus: {:e} ({})",
        largest.0, largest.1
    );
    assert!(largest.0 > 0.0, "the corpus has constraints");
    assert!(
        100.0 * largest.0 <= DEFAULT_CONSTRAINT_TOLERANCE,
        "{} accepts {:e}: the default tolerance {DEFAULT_CONSTRAINT_TOLERANCE:e} is no longer 100 times the corpus's largest",
        largest.1,
        largest.0
    );
}
