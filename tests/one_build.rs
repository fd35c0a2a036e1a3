//! ARCHITECTURE.md's "one build of each library": the README's commands — the tests, the seed
//! example and jointsim — resolve the same build of joint-core, joint-kernels and joint-runtime
//! (the same features, profile and dependencies, all the way down), so cargo compiles each once
//! for all three; and the seed example builds none of the tests' or the program's own
//! dependencies.
//!
//! Oracle: cargo's own unit graph of each command (`--unit-graph`, asked for with
//! `RUSTC_BOOTSTRAP=1`; nothing is built). A library's build is named by the package, target,
//! mode, optimization and features of every unit it depends on, itself included.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The unit graph of `cargo ARGS --unit-graph` in the workspace.
fn unit_graph(args: &[&str]) -> Value {
    let target = std::env::temp_dir().join(format!("joint-one-build-{}", std::process::id()));
    let out = Command::new(env!("CARGO"))
        .args(args)
        .args(["-Z", "unstable-options", "--unit-graph", "--offline"])
        .current_dir(ROOT)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?} --unit-graph: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a unit graph")
}

/// A unit in a line: package, target, mode, optimization level and features.
fn describe(u: &Value) -> String {
    format!(
        "{} {} {} opt {} {}",
        u["pkg_id"]
            .as_str()
            .unwrap_or("?")
            .rsplit('/')
            .next()
            .unwrap_or("?"),
        u["target"]["name"],
        u["mode"],
        u["profile"]["opt_level"],
        u["features"]
    )
}

/// The library units of `package` built with the release profile (`opt-level` 3: target
/// units, not the build-override's host units a proc macro's dependencies are built with), each
/// with the description of every unit it depends on, recursively (its build's name).
fn library_builds(graph: &Value, package: &str) -> Vec<BTreeSet<String>> {
    let units = graph["units"].as_array().expect("units");
    let closure = |root: usize| -> BTreeSet<String> {
        let (mut seen, mut stack) = (BTreeSet::new(), vec![root]);
        let mut out = BTreeSet::new();
        while let Some(i) = stack.pop() {
            if !seen.insert(i) {
                continue;
            }
            out.insert(describe(&units[i]));
            for d in units[i]["dependencies"].as_array().expect("dependencies") {
                stack.push(d["index"].as_u64().expect("index") as usize);
            }
        }
        out
    };
    let mut builds: Vec<BTreeSet<String>> = units
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            u["mode"] == "build"
                && u["profile"]["opt_level"] == "3"
                && u["target"]["name"] == package.replace('-', "_")
                && u["pkg_id"]
                    .as_str()
                    .is_some_and(|p| p.contains(&format!("/{package}#")))
        })
        .map(|(i, _)| closure(i))
        .collect();
    builds.sort();
    builds.dedup();
    builds
}

/// What `a` has that `b` has not, one line each.
fn difference(a: &BTreeSet<String>, b: &BTreeSet<String>) -> String {
    a.difference(b).cloned().collect::<Vec<_>>().join("\n  ")
}

fn packages(graph: &Value) -> BTreeSet<String> {
    graph["units"]
        .as_array()
        .expect("units")
        .iter()
        .filter_map(|u| u["target"]["name"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn the_readme_commands_build_each_library_once() {
    let tests = unit_graph(&["test", "--workspace", "--release", "--no-run"]);
    let example = unit_graph(&["build", "--release", "--example", "spherical_pendulum"]);
    let jointsim = unit_graph(&["build", "--release", "-p", "jointsim"]);
    for package in ["joint-core", "joint-kernels", "joint-runtime"] {
        let [t, e, j] = [&tests, &example, &jointsim].map(|g| library_builds(g, package));
        assert_eq!(
            e.len(),
            1,
            "{package}: the example builds it {} times",
            e.len()
        );
        for (what, other) in [("the tests", &t), ("jointsim", &j)] {
            assert_eq!(
                other.len(),
                1,
                "{package}: {what} build it {} times",
                other.len()
            );
            assert!(
                other[0] == e[0],
                "{package}: {what} build it otherwise than the example:\n {what} only:\n  {}\n the example only:\n  {}",
                difference(&other[0], &e[0]),
                difference(&e[0], &other[0])
            );
        }
    }
    // the example builds neither the tests' dependencies nor the program's
    let built = packages(&example);
    for absent in ["proptest", "clap", "plotters", "image", "insta", "trybuild"] {
        assert!(!built.contains(absent), "the seed example builds {absent}");
    }
}
