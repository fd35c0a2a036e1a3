"""Compile time a joint definition costs a user's crate (issues 15 and 48).

A scratch crate with cargo's default profiles (no overrides: a user's release build, whose proc
macros run unoptimised) depends on joint-core by path. Measures, each the best of --runs builds
with dependencies warm, so only the crate itself is rebuilt:

* added: seconds a definition adds to a release build (the crate with it minus without it), for
  a user's Rigid–Rigid joint of RevoluteZ's size (5 rows, two matrix parameters), position level
  only, in each form:
    - `default`: no kinds listed, the marker-level kernels only (every marker kind);
    - `default_second_order`: the same with `second_order;`;
    - `two_kinds`: unrolled pairings for a model of EP bodies on ground,
      `Rigid(GroundPoint, RigidEpPoint)` – `Rigid(RigidEpPoint)` (2 pairings);
    - `all_kinds`: unrolled pairings for every kind, `Rigid(..)` – `Rigid(..)` (48 pairings);
    - `default_parameter_derivatives`, `two_kinds_parameter_derivatives`: `default` and
      `two_kinds` with `parameter_derivatives;`;
* expansion: the macro's own share of `default` (rustc's `-Z time-passes` expand_crate, asked
  for with RUSTC_BOOTSTRAP=1), the rest being rustc compiling what it emitted;
* rebuild: a crate with three such joints, one per module, rebuilt after one of them is edited
  (release builds are not incremental: the crate is compiled again, all three joints).

With --built-ins, also the joints of joint-kernels/src/lib.rs as they ship.

Usage, from the repository root:
    python3 tools/measure_macro_compile_time.py [--runs 3] [--built-ins]
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
    pub joint {name} {{
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
            dot(col(frame0, 2), col(frame1, {axis})), dot(col(frame0, 2), col(frame1, 1))];
    }}
"""


def custom(m0="Rigid", m1="Rigid", second_order="", name="CustomRevolute", axis=0):
    return CUSTOM_REVOLUTE.format(name=name, m0=m0, m1=m1, second_order=second_order, axis=axis)


def variants():
    return [
        ("default", custom()),
        ("default_second_order", custom(second_order="second_order;")),
        ("two_kinds", custom("Rigid(GroundPoint, RigidEpPoint)", "Rigid(RigidEpPoint)")),
        ("all_kinds", custom("Rigid(..)", "Rigid(..)")),
        # opt-in ∂g/∂p (typed generic functions: expanded and type-checked, compiled only
        # where called)
        ("default_parameter_derivatives", custom(second_order="parameter_derivatives;")),
        ("two_kinds_parameter_derivatives",
         custom("Rigid(GroundPoint, RigidEpPoint)", "Rigid(RigidEpPoint)",
                second_order="parameter_derivatives;")),
    ]


def joint_invocations(text):
    """The `joint!` invocations of a Rust file: (names of the joints, invocation text)."""
    out = []
    for m in re.finditer(r"joint_(?:core|macros)::joint!\s*\{", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        body = text[m.end():i - 1]
        names = re.findall(r"pub (?:joint|force) (\w+)", body)
        out.append((names, body))
    return out


def built_in_variants():
    kernels = open(os.path.join(ROOT, "joint-kernels/src/lib.rs")).read()
    return [("+".join(names), body) for names, body in joint_invocations(kernels)]


class Crate:
    """A scratch crate depending on joint-core, with its own target folder."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="joint-compile-time-")
        os.makedirs(os.path.join(self.dir, "src"))
        open(os.path.join(self.dir, "Cargo.toml"), "w").write(
            "[package]\nname = \"compile-time\"\nversion = \"0.1.0\"\nedition = \"2024\"\n"
            "[dependencies]\njoint-core = { path = \"%s/joint-core\" }\n"
            "[features]\nkernels = []\n[workspace]\n" % ROOT)
        self.env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(self.dir, "target"))

    def write(self, path, text):
        open(os.path.join(self.dir, "src", path), "w").write(text)

    def build(self, args=(), runs=1, touch="lib.rs"):
        """Best seconds of `runs` release builds after touching `touch` (dependencies warm)."""
        cmd = ["cargo", "build", "--release", "-q", *args]
        subprocess.run(cmd, cwd=self.dir, env=self.env, check=True)
        times = []
        for _ in range(runs):
            os.utime(os.path.join(self.dir, "src", touch))
            t = time.perf_counter()
            subprocess.run(cmd, cwd=self.dir, env=self.env, check=True)
            times.append(time.perf_counter() - t)
        return min(times)

    def expansion_seconds(self, args=()):
        """rustc's expand_crate time for the crate (the proc macros' share)."""
        os.utime(os.path.join(self.dir, "src", "lib.rs"))
        out = subprocess.run(
            ["cargo", "rustc", "--release", "-q", *args, "--", "-Z", "time-passes"],
            cwd=self.dir, env=dict(self.env, RUSTC_BOOTSTRAP="1"), check=True,
            capture_output=True, text=True)
        m = re.search(r"time:\s+([\d.]+);[^\n]*\bexpand_crate\b", out.stderr)
        return float(m.group(1)) if m else float("nan")

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def added(body, runs, expansion=False):
    """Seconds `body` adds to a release build; with `expansion`, also its expand_crate time."""
    c = Crate()
    try:
        c.write("lib.rs", "#[cfg(feature = \"kernels\")]\njoint_core::joint! {%s}\n"
                          "pub fn anchor() {}\n" % body)
        without = c.build(runs=runs)
        with_it = c.build(["--features", "kernels"], runs=runs)
        e = None
        if expansion:
            e = c.expansion_seconds(["--features", "kernels"]) - c.expansion_seconds()
        return with_it - without, e
    finally:
        c.remove()


def rebuild_three(runs):
    """A crate with three default-form joints, one per module: seconds to rebuild after one is
    edited (its file rewritten with another axis)."""
    c = Crate()
    try:
        c.write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n")
        for i, m in enumerate("abc"):
            c.write(f"{m}.rs", "joint_core::joint! {%s}\n" % custom(name=f"Joint{m.upper()}"))
        c.build()
        times = []
        for k in range(runs):
            c.write("b.rs", "joint_core::joint! {%s}\n" % custom(name="JointB", axis=k % 2))
            t = time.perf_counter()
            subprocess.run(["cargo", "build", "--release", "-q"], cwd=c.dir, env=c.env,
                           check=True)
            times.append(time.perf_counter() - t)
        return min(times)
    finally:
        c.remove()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--built-ins", action="store_true")
    a = p.parse_args()
    print(f"seconds added to a release build (best of {a.runs}, cargo's default profiles):")
    for name, body in variants():
        s, e = added(body, a.runs, expansion=name == "default")
        extra = f"   (expansion {e:.2f} s of it)" if e is not None else ""
        print(f"  {name:<24} {s:6.2f}{extra}")
    if a.built_ins:
        for name, body in built_in_variants():
            s, _ = added(body, a.runs)
            print(f"  {name:<24} {s:6.2f}")
    print(f"rebuild of a crate with three default-form joints after one is edited: "
          f"{rebuild_three(a.runs):.2f} s")


if __name__ == "__main__":
    sys.exit(main())
