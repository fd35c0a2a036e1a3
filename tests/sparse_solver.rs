//! The sparse LU path (`linearSolver.solverType = EigenSparse`) on every reference case: the
//! pattern computed once by the symbolic pass must hold every entry the assembly writes (an entry
//! outside it panics), and the solution must be the dense solver's up to round-off and the
//! Newton tolerance (Exudyn: "sparse solvers give the same algorithm with round-off-level
//! differences", spec/solver.md §8.11).

use joint::runtime::FactorizationCounts;
use joint::runtime::model::{SolveKind, read_model};
use joint::runtime::settings::LinearSolverType;

const DIRS: [&str; 2] = [
    concat!(env!("CARGO_MANIFEST_DIR"), "/reference/exudyn_cases/"),
    concat!(env!("CARGO_MANIFEST_DIR"), "/reference/own_cases/"),
];

/// Cases whose velocities and multipliers only round-off determines, with the tolerances they
/// get (velocity, λ) instead of the reference comparison's (1e-6, 1e-5).
const ILL_CONDITIONED: [(&str, f64, f64); 1] = [
    // the revolute joint's rotation rows on a MarkerSuperElementRigid in the alternative
    // approach: the two LUs' λ differ by 2.3e-3 and velocities by 1.2e-6 (measured), as much as
    // jointsim's and Exudyn's (tests/reference_cases: own_se_generic_joint_ffrf_alternative)
    ("se_generic_joint_ffrf_alternative.json", 2e-6, 5e-3),
];

/// Cases Exudyn refuses to solve with EigenSparse, and the words of the refusal: the sparse
/// solve must fail with them.
const REFUSED_SPARSE: [(&str, &str); 1] = [(
    "rotvec_lg_genalpha_simplified.json",
    "lieGroupAddTangentOperator may not be set True with the EigenSparse linear solver",
)];

/// Final ODE2 coordinates, velocities, AE coordinates and the Newton statistics of one solve.
struct Solved {
    q: Vec<f64>,
    v: Vec<f64>,
    lambda: Vec<f64>,
    iterations: usize,
    jacobians: usize,
    sparse: bool,
    factorizations: FactorizationCounts,
}

fn solve(path: &str, solver_type: LinearSolverType) -> Solved {
    let text = std::fs::read_to_string(path).unwrap();
    let mut model = read_model(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    model.settings.linear_solver = solver_type;
    let mut sim = model.mbs.assemble().unwrap();
    match model.solve {
        SolveKind::Dynamic => sim.solve_dynamic(&model.settings),
        SolveKind::Static => sim.solve_static(&model.settings),
    }
    .unwrap_or_else(|e| panic!("{path} ({solver_type:?}): {e}"));
    Solved {
        q: sim.state().q.clone(),
        v: sim.state().v.clone(),
        lambda: sim.state().lambda.clone(),
        iterations: sim.statistics().newton.iterations,
        jacobians: sim.statistics().newton.jacobians,
        sparse: sim.statistics().sparse_solver,
        factorizations: sim.statistics().sparse_factorizations,
    }
}

fn largest_difference(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / y.abs().max(1.0))
        .fold(0.0, f64::max)
}

/// Whether the file asks for Eigen's full-pivoting LU (`ignoreSingularJacobian`): its
/// mechanism has redundant constraints, so its iteration matrix has no LU with partial
/// pivoting, dense or sparse (both stop at the zero pivot, as Exudyn's would).
fn asks_full_pivoting(path: &str) -> bool {
    let model = read_model(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    matches!(
        model.settings.linear_solver,
        LinearSolverType::EigenDenseFullPivot { .. }
    )
}

/// Those files are singular with the partial-pivoting LUs: the error names the column.
#[test]
fn a_redundant_mechanism_is_singular_without_full_pivoting() {
    let path = format!("{}redundant_four_bar_ep.json", DIRS[1]);
    assert!(asks_full_pivoting(&path));
    for solver_type in [LinearSolverType::EigenDense, LinearSolverType::EigenSparse] {
        let mut model = read_model(&std::fs::read_to_string(&path).unwrap()).unwrap();
        model.settings.linear_solver = solver_type;
        let mut sim = model.mbs.assemble().unwrap();
        let e = sim
            .solve_dynamic(&model.settings)
            .expect_err("a singular iteration matrix")
            .to_string();
        assert!(e.contains("singular"), "{solver_type:?}: {e}");
    }
}

#[test]
fn every_reference_case_solves_with_the_sparse_lu_as_with_the_dense_one() {
    let mut cases: Vec<String> = DIRS
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json") && !p.ends_with(".ref.json"))
        .filter(|p| !asks_full_pivoting(p))
        .collect();
    cases.sort();
    assert!(cases.len() >= 80, "found only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut total = FactorizationCounts::default();
    for case in &cases {
        if let Some((_, words)) = REFUSED_SPARSE.iter().find(|(f, _)| case.ends_with(f)) {
            let mut model = read_model(&std::fs::read_to_string(case).unwrap()).unwrap();
            model.settings.linear_solver = LinearSolverType::EigenSparse;
            let mut sim = model.mbs.assemble().unwrap();
            let e = sim
                .solve_dynamic(&model.settings)
                .expect_err("refused with EigenSparse")
                .to_string();
            assert!(e.contains(words), "{case}: {e}");
            continue;
        }
        let dense = solve(case, LinearSolverType::EigenDense);
        let sparse = solve(case, LinearSolverType::EigenSparse);
        assert!(
            !dense.sparse && sparse.sparse,
            "{case}: solver type not honoured"
        );
        // faer factorizes first; later factorizations replay its elimination (exactly: the
        // replay's own test compares factors bit for bit), unless a pivot turns zero.
        let f = sparse.factorizations;
        assert_eq!(
            dense.factorizations,
            FactorizationCounts::default(),
            "{case}"
        );
        assert!(
            f.full >= 1 && f.full + f.replayed + f.repivoted >= sparse.jacobians,
            "{case}: {f:?} for {} Jacobians",
            sparse.jacobians
        );
        total.full += f.full;
        total.replayed += f.replayed;
        total.repivoted += f.repivoted;
        total.repivoted_columns += f.repivoted_columns;
        let dq = largest_difference(&sparse.q, &dense.q);
        let dv = largest_difference(&sparse.v, &dense.v);
        let dl = largest_difference(&sparse.lambda, &dense.lambda);
        let name = case.rsplit('/').next().unwrap();
        println!(
            "{name:60} q {dq:.1e}  v {dv:.1e}  λ {dl:.1e}  iterations {} / {}",
            dense.iterations, sparse.iterations
        );
        // the reference comparison's tolerances (tests/reference_cases/)
        let (v_tol, l_tol) = ILL_CONDITIONED
            .iter()
            .find(|(n, ..)| *n == name)
            .map_or((1e-6, 1e-5), |&(_, v, l)| (v, l));
        if dq > 1e-8 || dv > v_tol || dl > l_tol {
            failures.push(format!("{name}: q {dq:.1e}, v {dv:.1e}, λ {dl:.1e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "sparse differs from dense:\n{}",
        failures.join("\n")
    );
    println!("factorizations over all cases: {total:?}");
    assert!(
        total.replayed + total.repivoted > 4 * total.full,
        "the recorded elimination is hardly replayed: {total:?}"
    );
}
