//! No allocation inside the step loop (issue 7): a counting global allocator, armed from the
//! progress callback after a few warm-up steps, must count zero allocations up to the last
//! step of every dynamic reference case (every item kind the runtime supports, sensors writing
//! rows, adaptive steps) and of variants with the sparse LU and the exact constraint Jacobian.
//!
//! Set `JOINT_ALLOC_BACKTRACE=1` to print a backtrace of the first few counted allocations of
//! each run, and `JOINT_ALLOC_ONLY=TEXT` to run only the models whose label contains TEXT.
//!
//! One `#[test]` runs every model in turn, so no other test thread allocates while armed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use joint::runtime::model::{SolveKind, read_model};
use joint::runtime::settings::{LinearSolverType, SimulationSettings, SolverMode};
use joint::runtime::{
    LoadIndex, MarkerIndex, MultibodySystem, NodeIndex, ObjectIndex, OutputVariable, Sensor,
    SensorTarget,
};

/// Counts allocations (alloc, alloc_zeroed, realloc) while [`ARMED`] is set.
struct CountingAllocator;

static ARMED: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// Print a backtrace of the first [`MAX_TRACES`] counted allocations of a run.
static TRACE: AtomicBool = AtomicBool::new(false);
static TRACES: AtomicUsize = AtomicUsize::new(0);
const MAX_TRACES: usize = 3;

thread_local! {
    /// Set while this thread captures a backtrace (whose own allocations are not counted).
    static IN_TRACE: Cell<bool> = const { Cell::new(false) };
}

impl CountingAllocator {
    fn note(&self) {
        if !ARMED.load(Ordering::Relaxed) || IN_TRACE.with(Cell::get) {
            return;
        }
        COUNT.fetch_add(1, Ordering::Relaxed);
        if TRACE.load(Ordering::Relaxed) && TRACES.fetch_add(1, Ordering::Relaxed) < MAX_TRACES {
            IN_TRACE.with(|t| t.set(true));
            let bt = std::backtrace::Backtrace::force_capture();
            eprintln!("allocation inside the step loop:\n{bt}");
            IN_TRACE.with(|t| t.set(false));
        }
    }
}

// SAFETY: every call is forwarded unchanged to `System`; counting has no effect on memory.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        self.note();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The warm-up: counting starts when step `K0` has completed.
const K0: usize = 5;

/// Static models run with at least this many load steps.
const STATIC_LOAD_STEPS: usize = 20;

const CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/exudyn_cases/");
const OWN_CASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reference/own_cases/");

/// What one run counted.
struct Counted {
    /// Steps of the run.
    steps: usize,
    /// The step counting started after (`None` if the run had no more than `K0` steps).
    armed_at: Option<usize>,
    /// The last step (progress callback) counted.
    last: usize,
    allocations: usize,
}

/// Solve `model` (dynamically, or statically over load steps), counting the allocations between
/// the end of step `K0` and the end of the last step. The progress callback writes only to
/// captured integers.
fn count(mbs: &MultibodySystem, settings: &SimulationSettings, solve: SolveKind) -> Counted {
    let mut sim = mbs.assemble().expect("assemble");
    let mut armed_at = None;
    let mut last = 0;
    let mut at_last = 0;
    TRACES.store(0, Ordering::Relaxed);
    let mut progress = |p: joint::runtime::simulation::Progress| {
        if p.steps == K0 {
            COUNT.store(0, Ordering::Relaxed);
            ARMED.store(true, Ordering::Relaxed);
            armed_at = Some(p.steps);
        }
        last = p.steps;
        at_last = COUNT.load(Ordering::Relaxed);
    };
    let result = sim.solve_observed(solve, settings, &mut |_, p| {
        if p.steps > 0 {
            progress(p)
        }
    });
    ARMED.store(false, Ordering::Relaxed);
    result.expect("solve");
    Counted {
        steps: sim.statistics().steps,
        armed_at,
        last,
        allocations: if armed_at.is_some() { at_last } else { 0 },
    }
}

/// `mbs` with a sensor for every output variable every node, object, body, marker, load and
/// kinematic-tree link 0 has (the sensors' widths range from 1 to 16 values).
fn with_every_output(mbs: &MultibodySystem) -> MultibodySystem {
    let sim = mbs.assemble().expect("assemble");
    let local = [0.1, -0.2, 0.3];
    let mut out = mbs.clone();
    for var in OutputVariable::ALL {
        let mut targets: Vec<SensorTarget> = (0..mbs.nodes.len())
            .map(|i| SensorTarget::Node(NodeIndex(i)))
            .collect();
        for i in 0..mbs.objects.len() {
            let object = ObjectIndex(i);
            targets.extend([
                SensorTarget::Object(object),
                SensorTarget::Body {
                    body: object,
                    local_position: local,
                },
                SensorTarget::KinematicTree {
                    object,
                    link: 0,
                    local_position: local,
                },
                SensorTarget::SuperElement {
                    body: object,
                    mesh_node: 0,
                },
            ]);
        }
        targets.extend((0..mbs.markers.len()).map(|i| SensorTarget::Marker(MarkerIndex(i))));
        for target in targets {
            if sim.outputs().output(&target, var).is_ok() {
                out.add_sensor(Sensor::new(target, var));
            }
        }
    }
    for i in 0..mbs.loads.len() {
        out.add_sensor(Sensor::load(LoadIndex(i)));
    }
    out
}

/// A settings variant: its label and the change.
type Variant = (&'static str, fn(&mut SimulationSettings));

/// A labelled model to count.
type Run = (String, MultibodySystem, SimulationSettings, SolveKind);

/// Every model of both reference directories (dynamic ones over time steps, static ones over
/// load steps), with variants: the spherical chain, the slider-crank and a sparse superelement
/// case with the sparse LU, chains of the rigid joints, a kinematic-tree loop and an FFRF
/// case with the exact constraint Jacobian, and every dynamic model on the fast path.
fn runs() -> Vec<Run> {
    let mut runs = Vec::new();
    for dir in [CASES, OWN_CASES] {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("reference directory")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let stem = name.strip_suffix(".json")?;
                (!stem.ends_with(".ref")).then(|| stem.to_owned())
            })
            .collect();
        names.sort();
        for name in names {
            let text = std::fs::read_to_string(format!("{dir}{name}.json")).expect("model");
            let mut model = read_model(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut base = name.clone();
            let load_steps = &mut model.settings.static_solver.number_of_load_steps;
            if model.solve == SolveKind::Static && *load_steps < STATIC_LOAD_STEPS {
                // enough load steps to count over
                *load_steps = STATIC_LOAD_STEPS;
                base = format!("{name} ({STATIC_LOAD_STEPS} load steps)");
            }
            let variants: &[Variant] = match name.as_str() {
                "sphericalJointTest" | "joint_mixed_slider_crank" | "se_sparse_generic_ode2" => &[
                    ("", |_| {}),
                    ("EigenSparse", |s| {
                        s.linear_solver = LinearSolverType::EigenSparse;
                    }),
                ],
                "seed_mini_pendulum"
                | "joint_revolute_chain_rxyz"
                | "joint_generic_universal_ep"
                | "kt_spatial_loop_xyz"
                | "se_ffrf_rigid_marker_std_dense" => &[
                    ("", |_| {}),
                    ("exactConstraintJacobian", |s| {
                        s.time_integration.newton.exact_constraint_jacobian = true;
                    }),
                ],
                _ => &[("", |_| {})],
            };
            for (label, change) in variants {
                let mut settings = model.settings.clone();
                change(&mut settings);
                let label = if label.is_empty() {
                    base.clone()
                } else {
                    format!("{base} ({label})")
                };
                runs.push((label, model.mbs.clone(), settings, model.solve));
            }
            if model.solve == SolveKind::Dynamic {
                let mbs = with_every_output(&model.mbs);
                let label = format!("{base} (every output: {} sensors)", mbs.sensors.len());
                runs.push((label, mbs, model.settings.clone(), model.solve));
                // the fast path (tests/fast_solver.rs lists the one model it does not solve),
                // and with the sparse LU where the exact mode has that variant too (the
                // Anderson mixing and the threshold pivoting run on sparse systems only)
                if name != "joint_generic_rotation_marker" {
                    let mut settings = model.settings.clone();
                    settings.solver_mode = SolverMode::Fast;
                    if variants.len() > 1 && variants[1].0 == "EigenSparse" {
                        let mut sparse = settings.clone();
                        sparse.linear_solver = LinearSolverType::EigenSparse;
                        runs.push((
                            format!("{base} (fast, EigenSparse)"),
                            model.mbs.clone(),
                            sparse,
                            model.solve,
                        ));
                    }
                    runs.push((
                        format!("{base} (fast)"),
                        model.mbs.clone(),
                        settings,
                        model.solve,
                    ));
                }
            }
        }
    }
    runs.extend(custom_joint_runs());
    runs
}

#[allow(dead_code, clippy::duplicate_mod)]
#[path = "../examples/cylindrical_joint.rs"]
mod cylindrical;

/// Custom joints (defined outside the runtime, without second-order kernels): a model file read
/// with a registry, and the cylindrical mechanism with the sparse LU, index 2 and the exact
/// constraint Jacobian (forward differences of the first-order kernels there).
fn custom_joint_runs() -> Vec<Run> {
    use joint::runtime::JointRegistry;
    use joint::runtime::model::read_model_with;
    let registry = JointRegistry::exudyn()
        .with::<cylindrical::custom_joints::PointOnPlane>()
        .expect("a free name");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/point_on_incline.json");
    let model = read_model_with(&std::fs::read_to_string(path).expect("model"), &registry)
        .expect("the model reads");
    let mut runs: Vec<Run> = vec![(
        "point_on_incline (custom joint, every output)".into(),
        with_every_output(&model.mbs),
        model.settings.clone(),
        model.solve,
    )];
    let (mbs, _, _) = cylindrical::build(|m| {
        joint::runtime::Object::joint::<cylindrical::custom_joints::Cylindrical>(
            m,
            Default::default(),
        )
    });
    let variants: [Variant; 4] = [
        ("", |_| {}),
        ("EigenSparse", |s| {
            s.linear_solver = LinearSolverType::EigenSparse;
        }),
        ("Newmark, index 2", |s| {
            s.time_integration.generalized_alpha.use_newmark = true;
            s.time_integration.generalized_alpha.use_index2_constraints = true;
        }),
        ("exactConstraintJacobian", |s| {
            s.time_integration.newton.exact_constraint_jacobian = true;
        }),
    ];
    for (label, change) in variants {
        let mut settings = cylindrical::settings();
        change(&mut settings);
        runs.push((
            format!("cylindrical custom joint ({label})"),
            with_every_output(&mbs),
            settings,
            SolveKind::Dynamic,
        ));
    }
    runs
}

#[test]
fn no_allocation_inside_the_step_loop() {
    TRACE.store(
        std::env::var_os("JOINT_ALLOC_BACKTRACE").is_some_and(|v| v != "0"),
        Ordering::Relaxed,
    );
    // the counter counts
    COUNT.store(0, Ordering::Relaxed);
    ARMED.store(true, Ordering::Relaxed);
    std::hint::black_box(Vec::<u8>::with_capacity(8));
    ARMED.store(false, Ordering::Relaxed);
    assert_eq!(COUNT.load(Ordering::Relaxed), 1, "one allocation counted");

    let mut runs = runs();
    assert!(runs.len() > 50, "only {} runs", runs.len());
    if let Some(only) = std::env::var_os("JOINT_ALLOC_ONLY") {
        let only = only.to_string_lossy().into_owned();
        runs.retain(|(label, ..)| label.contains(&only));
    }
    let mut failures = Vec::new();
    let mut counted = 0;
    for (label, mbs, settings, solve) in &runs {
        let c = count(mbs, settings, *solve);
        let covered = match c.armed_at {
            Some(k0) if c.last > k0 => {
                counted += 1;
                format!("steps {}..={} of {}", k0 + 1, c.last, c.steps)
            }
            _ => format!("not counted: {} steps only", c.steps),
        };
        eprintln!("{label}: {} allocations ({covered})", c.allocations);
        if c.allocations != 0 {
            failures.push(format!(
                "{label}: {} allocations ({covered})",
                c.allocations
            ));
        }
    }
    assert!(
        counted + 5 >= runs.len() || runs.len() < 50,
        "most runs must have more than {K0} steps"
    );
    assert!(
        failures.is_empty(),
        "allocations inside the step loop:\n{}",
        failures.join("\n")
    );
}
