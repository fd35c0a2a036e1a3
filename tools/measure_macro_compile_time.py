"""Compile time a joint definition adds to a user's crate (issue 15).

For every variant below, a scratch crate holding only that `joint!` definition is built in
release mode with and without it (a Cargo feature), dependencies warm, so only the crate itself is
rebuilt; the figure is the best of --runs builds with the definition minus the best of --runs
without it.

Variants:
  * the runtime's built-in joints as they ship (joint-kernels/src/lib.rs: position level
    only, `second_order;`);
  * `custom_revolute`: a user's Rigid–Rigid joint of RevoluteZ's size (5 rows, two matrix
    parameters), position level only, every pairing (24), no second-order terms: the issue's
    measure;
  * `custom_revolute_second_order`: the same with `second_order;`;
  * `custom_revolute_two_kinds`: the same for the pairings a model of EP bodies on ground needs,
    `marker m0: Rigid(GroundPoint, RigidEpPoint); marker m1: Rigid(RigidEpPoint);` (2 pairings).

With --before COMMIT, the same measure at an older commit, whose `joint!` needs a hand-written
velocity level and always emits the second-order terms: the built-in joints as they were
(joint-macros/tests/fixtures/hand_written_velocity_levels.rs), and `custom_revolute` as the old
RevoluteZ under another name.

Usage, from the repository root:
    python3 tools/measure_macro_compile_time.py [--runs 3] [--before COMMIT]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CUSTOM_REVOLUTE = """
    pub joint CustomRevolute {{
        marker m0: {m0};
        marker m1: {m1};
        param rotation_marker0: matrix;
        param rotation_marker1: matrix;
        axes [x, y, z, rx, ry];
        {second_order}
        let frame0 = m0.rotation * rotation_marker0;
        let frame1 = m1.rotation * rotation_marker1;
        let delta = m1.position - m0.position;
        position = [delta[0], delta[1], delta[2],
            dot(col(frame0, 2), col(frame1, 0)), dot(col(frame0, 2), col(frame1, 1))];
    }}
"""


def joint_invocations(text):
    """The `joint!` invocations of a Rust file: (names of the joints, invocation text)."""
    out = []
    for m in re.finditer(r"joint_(?:core|macros)::joint!\s*\{", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[m.end():i - 1]
        names = re.findall(r"pub joint (\w+)", body)
        out.append((names, body))
    return out


def variants_now():
    kernels = open(os.path.join(ROOT, "joint-kernels/src/lib.rs")).read()
    out = []
    for names, body in joint_invocations(kernels):
        if len(names) == 1:
            out.append((names[0], body))
        else:
            # one invocation with shared functions: measure the joints one at a time
            functions = body[:body.index("///", body.index(";"))] if "fn " in body else ""
            for k, name in enumerate(names):
                start = body.index(f"pub joint {name}")
                start = max(body.rfind("\n\n", 0, start), 0)  # the first joint of a block: from its start
                end = body.index(f"pub joint {names[k + 1]}") if k + 1 < len(names) else len(body)
                end = body.rfind("\n\n", 0, end) if k + 1 < len(names) else end
                out.append((name, functions + body[start:end]))
    custom = lambda m0, m1, so: CUSTOM_REVOLUTE.format(m0=m0, m1=m1, second_order=so)
    out.append(("custom_revolute", custom("Rigid", "Rigid", "")))
    out.append(("custom_revolute_second_order", custom("Rigid", "Rigid", "second_order;")))
    out.append(("custom_revolute_two_kinds",
                custom("Rigid(GroundPoint, RigidEpPoint)", "Rigid(RigidEpPoint)", "")))
    return out


def variants_before():
    fixture = open(os.path.join(
        ROOT, "joint-macros/tests/fixtures/hand_written_velocity_levels.rs")).read()
    out = [(names[0], body) for names, body in joint_invocations(fixture)]
    revolute = dict(out)["RevoluteZ"]
    out.append(("custom_revolute", revolute.replace("joint RevoluteZ", "joint CustomRevolute")))
    return out


def measure(root, uses_core, body, runs):
    """Seconds the definition adds to a release build of a crate of its own."""
    d = tempfile.mkdtemp(prefix="joint-compile-time-")
    try:
        os.makedirs(os.path.join(d, "src"))
        dep = ("joint-core = { path = \"%s/joint-core\" }" % root if uses_core
               else "joint-macros = { path = \"%s/joint-macros\" }" % root)
        open(os.path.join(d, "Cargo.toml"), "w").write(
            "[package]\nname = \"compile-time\"\nversion = \"0.1.0\"\nedition = \"2024\"\n"
            "[dependencies]\n%s\n[features]\nkernels = []\n[workspace]\n" % dep)
        macro = "joint_core::joint!" if uses_core else "joint_macros::joint!"
        open(os.path.join(d, "src/lib.rs"), "w").write(
            "#[cfg(feature = \"kernels\")]\n%s {%s}\npub fn anchor() {}\n" % (macro, body))
        env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(d, "target"))
        best = {}
        for feature in ([], ["--features", "kernels"]):
            cmd = ["cargo", "build", "--release", "-q"] + feature
            subprocess.run(cmd, cwd=d, env=env, check=True)  # warm up dependencies
            times = []
            for _ in range(runs):
                os.utime(os.path.join(d, "src/lib.rs"))
                t = time.perf_counter()
                subprocess.run(cmd, cwd=d, env=env, check=True)
                times.append(time.perf_counter() - t)
            best[bool(feature)] = min(times)
        return best[True] - best[False]
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--before", metavar="COMMIT")
    a = p.parse_args()
    if a.before:
        tree = tempfile.mkdtemp(prefix="joint-before-")
        subprocess.run(["git", "worktree", "add", "-q", "--detach", tree, a.before],
                       cwd=ROOT, check=True)
        try:
            rows = [(n, measure(tree, False, b, a.runs)) for n, b in variants_before()]
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT)
        label = "at " + a.before
    else:
        rows = [(n, measure(ROOT, True, b, a.runs)) for n, b in variants_now()]
        label = "now"
    print(f"seconds added to a release build ({label}, best of {a.runs}):")
    for name, s in rows:
        print(f"  {name:<30} {s:6.2f}")


if __name__ == "__main__":
    sys.exit(main())
