"""Work-precision benchmark: the solver time each program needs to reach an accuracy, side by side,
for MuJoCo (pip mujoco 4.0.1), pip Exudyn 1.13.6 and jointsim (modes exact, fast and, when the
binary has it, accurate).

What it measures
  For every model and program/mode the step size (or, for `jointsim --solver accurate`, the
  tolerance 1e-3 ... 1e-11 by factors of 10) is swept; each run gives a pair (time, error):
    time  = best of several runs (repeated until they took 0.3 s together, at most 20, at least
            2 for runs under 1 s) of: jointsim's statistics.solverSeconds; the wall time around
            Exudyn's mbs.SolveDynamic; the wall time around mujoco.mj_step(model, data, nstep)
            (the whole step loop in C; model compilation and mj_resetData excluded);
    error = the largest distance, over all bodies, of the body's far end (the point 0.5 m from its
            joint along its long axis, Exudyn local position [0.25, 0, 0]) from the truth at t = 1 s.
  For each target (default 1e-3 m and 1e-6 m) the table gives the time to reach it, interpolated
  log-log between the two neighbouring sweep points (the last one above the target and the
  cheapest one at or below it); "<=" marks a sweep whose first point was already accurate enough
  (its measured time). MuJoCo's cell is its best integrator (Euler, RK4, implicitfast), named.

Models
  chain N (N = 1, 10, 100, 1000): tools/bench/chain_benchmark.py's chain, the committed
    tests/reference/benchmarks/chain_N.json (rigid Euler-parameter bodies, 0.5 x 0.05 x 0.05
    cuboids of density 1000 (m = 1.25), spherical joints, hanging from ground at the origin, at
    rest along +x, gravity -z, t = 0 .. 1 s, generalized-alpha with spectral radius 0.9).
  loop 10: 10 such bodies, the chords of a horizontal half circle (radius 0.25 / sin(pi / 20))
    from anchor A = origin to anchor B = (2 R, 0, 0) through y > 0, both ends on ground by
    spherical joints (33 independent constraint rows: the end point's Jacobian has rank 3 since
    the chords are not all parallel); built with CreateRigidBody / CreateSphericalJoint
    (useGlobalFrame) and exported with tools/exudyn_export.py to OUT_DIR/loop_10.json.
  MuJoCo: the same bodies as a tree of ball joints (minimal coordinates): body frame at the joint,
    <inertial pos="0.25 0 0" mass="1.25" diaginertia="Ixx Iyy Iyy"/> (the cuboid's principal
    inertia about its centre, equal to Exudyn's), no geoms, <flag contact="disable"/>, no
    damping or armature, gravity 0 0 -9.81, integrators Euler, RK4 and implicitfast. The loop is
    closed by <connect body1="b9" body2="world" anchor="0.5 0 0"/>, which MuJoCo solves softly;
    two variants are swept and the best is reported:
      default: solref="0.02 1" solimp="0.9 0.95 0.001 0.5 2" (MuJoCo's defaults);
      stiff:   solref="0.0002 1" solimp="0.9999 0.9999 0.001 0.5 2" (mjMAXIMP), <option
               tolerance="1e-12"/>; refsafe stays on, so the time constant is max(0.0002, 2 dt).
    A target the soft constraint cannot reach is reported as "not reached (floor X)", X being
    the smallest error of all MuJoCo runs of that model.

Truth (cached in OUT_DIR/truth.json, keyed by the model file's and the MJCF's hashes)
  T_js: jointsim `--solver accurate --tolerance 1e-12` when the binary has that mode (checked
    against tolerance 1e-11); otherwise jointsim fast at n/2, n and 2n steps (n = 1e5 for N <= 10
    and the loop, 4e4 for N = 100, 1e4 for N = 1000), Richardson-extrapolated for the generalized
    alpha's second order: T = (4 x_2n - x_n) / 3; printed: the change of the plain solution from
    n to 2n steps and the change of the extrapolation from (n/2, n) to (n, 2n).
  Check, a second formulation: for chains MuJoCo RK4 (minimal coordinates) at n = 1e4 and 2n
    steps, doubled until the change is <= 1e-8 (= 0.01 x 1e-6) while within --truth-budget;
    for the loop (MuJoCo's constraint is soft) and for chains whose MuJoCo truth would exceed
    --truth-budget, pip Exudyn with generalized-alpha spectral radius 0.6 (a different
    discretization by another implementation), Richardson-extrapolated from n/2, n and 2n steps.
  The table's truth is T_js; it is accepted for a target only when |T_js - check| <= 0.1 x target;
  a cell whose truth is not accepted is marked with "!".

Usage, from the repository root (jointsim built by `cargo build --release -p jointsim`):

    python3 tools/bench/work_precision.py [--quick] [--sizes 1,10,100,1000] [--loop | --no-loop]
        [--programs mujoco,exudyn,exact,fast,accurate] [--targets 1e-3,1e-6] [--out-dir DIR]
        [--budget SECONDS] [--truth-budget SECONDS] [--jointsim PATH] [--verbose]

--budget bounds every sweep (model x program/mode x integrator): a run predicted to take longer
than that is not started, and the cell says "> budget". --quick: N = 1 and 10 and the loop,
--budget 3. --verbose prints every sweep point (steps or tolerance, time, error).
"""
import argparse
import copy
import hashlib
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import mujoco
import exudyn as exu
from exudyn.utilities import InertiaCuboid, RotationMatrixZ

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..'))
import chain_benchmark as cb  # noqa: E402  (chain(), settings(), LENGTH, WIDTH, DENSITY, GRAVITY)
from exudyn_export import export, rebuild  # noqa: E402

LOOP_N = 10
MASS = cb.DENSITY * cb.LENGTH * cb.WIDTH * cb.WIDTH
I_LONG = MASS * (2 * cb.WIDTH ** 2) / 12
I_CROSS = MASS * (cb.LENGTH ** 2 + cb.WIDTH ** 2) / 12
MJ_INTEGRATORS = ['Euler', 'RK4', 'implicitfast']
LOOP_VARIANTS = {
    'default': {'solref': '0.02 1', 'solimp': '0.9 0.95 0.001 0.5 2', 'tolerance': None},
    'stiff': {'solref': '0.0002 1', 'solimp': '0.9999 0.9999 0.001 0.5 2', 'tolerance': '1e-12'},
}
STEP_START = 10  # steps of the first sweep point; then doubled
TOLERANCES = [10. ** -k for k in range(3, 12)]
TRUTH_STEPS = {1: 100000, 10: 100000, 100: 40000, 1000: 10000, 'loop': 100000}
MJ_TRUTH_STEPS = 10000
TRUTH_CHANGE = 1e-8
MIN_SECONDS, MAX_RUNS = 0.3, 20
PROGRAMS = ['mujoco', 'exudyn', 'exact', 'fast', 'accurate']


class RunFailed(Exception):
    pass


# ------------------------------------------------------------------------------------------------
# models

def loop_geometry(n):
    """Vertices P_0 = A .. P_n = B of the half circle's n chords of length LENGTH, and the chords'
    angles about z."""
    radius = 0.5 * cb.LENGTH / math.sin(math.pi / (2 * n))
    theta = np.arange(n + 1) * math.pi / n
    P = np.stack([radius * (1 - np.cos(theta)), radius * np.sin(theta), 0 * theta], axis=1)
    d = P[1:] - P[:-1]
    return P, np.arctan2(d[:, 1], d[:, 0])


def loop_system(n):
    """The closed loop of n bodies, built with Exudyn's Python API (assembled)."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.CreateGround()
    inertia = InertiaCuboid(density=cb.DENSITY, sideLengths=[cb.LENGTH, cb.WIDTH, cb.WIDTH])
    P, phi = loop_geometry(n)
    previous = ground
    for i in range(n):
        body = mbs.CreateRigidBody(inertia=inertia, referencePosition=list(0.5 * (P[i] + P[i + 1])),
                                   referenceRotationMatrix=RotationMatrixZ(phi[i]), gravity=cb.GRAVITY,
                                   nodeType=exu.NodeType.RotationEulerParameters)
        mbs.CreateSphericalJoint(itemNumbers=[previous, body], position=list(P[i]), constrainedAxes=[1, 1, 1],
                                 useGlobalFrame=True)
        previous = body
    mbs.CreateSphericalJoint(itemNumbers=[previous, ground], position=list(P[n]), constrainedAxes=[1, 1, 1],
                             useGlobalFrame=True)
    mbs.Assemble()
    return SC, mbs, cb.settings(1000, False)


def make_cases(args):
    """The models to run: name, body count, loop flag, model file and its dictionary."""
    cases = []
    for n in args.sizes:
        path = os.path.join(REPO, 'tests', 'reference', 'benchmarks', f'chain_{n}.json')
        if not os.path.exists(path):
            SC, mbs, s = cb.chain(n, 1000)
            path = os.path.join(args.out_dir, f'chain_{n}.json')
            export(mbs, s, path)
        cases.append({'name': f'chain {n}', 'n': n, 'loop': False, 'file': path})
    if args.loop:
        SC, mbs, s = loop_system(LOOP_N)
        path = os.path.join(args.out_dir, f'loop_{LOOP_N}.json')
        export(mbs, s, path)
        cases.append({'name': f'loop {LOOP_N}', 'n': LOOP_N, 'loop': True, 'file': path})
    for c in cases:
        raw = open(c['file'], 'rb').read()
        c['model'] = json.loads(raw)
        c['hash'] = hashlib.sha1(raw).hexdigest()[:16]
    return cases


def mjcf(case, integrator, steps, variant=None):
    """MuJoCo's model of the case: ball-joint tree, body frames at the joints; the loop closed
    by a connect constraint of the given variant."""
    n = case['n']
    if case['loop']:
        P, phi = loop_geometry(n)
        frames = [(P[0], phi[0])] + [((cb.LENGTH, 0, 0), phi[i] - phi[i - 1]) for i in range(1, n)]
    else:
        frames = [((0, 0, 0), 0.)] + [((cb.LENGTH, 0, 0), 0.)] * (n - 1)
    inertial = (f'<inertial pos="{cb.LENGTH / 2!r} 0 0" mass="{MASS!r}" '
                f'diaginertia="{I_LONG!r} {I_CROSS!r} {I_CROSS!r}"/>')
    xml = ''
    for i in reversed(range(n)):
        pos, angle = frames[i]
        xml = (f'<body name="b{i}" pos="{pos[0]!r} {pos[1]!r} {pos[2]!r}" '
               f'quat="{math.cos(angle / 2)!r} 0 0 {math.sin(angle / 2)!r}">'
               f'<joint type="ball" damping="0" armature="0"/>{inertial}{xml}</body>')
    option = f'timestep="{1. / steps!r}" integrator="{integrator}" gravity="0 0 -9.81"'
    equality = ''
    if case['loop']:
        v = LOOP_VARIANTS[variant]
        if v['tolerance']:
            option += f' tolerance="{v["tolerance"]}"'
        equality = (f'<equality><connect body1="b{n - 1}" body2="world" anchor="{cb.LENGTH!r} 0 0" '
                    f'solref="{v["solref"]}" solimp="{v["solimp"]}"/></equality>')
    return (f'<mujoco><option {option}><flag contact="disable"/></option>'
            f'<worldbody>{xml}</worldbody>{equality}</mujoco>')


# ------------------------------------------------------------------------------------------------
# end points

def ends_from_q(model, q):
    """Far ends (local [0.25, 0, 0]) of the Euler-parameter bodies from the ODE2 coordinates
    (displacements from the nodes' referenceCoordinates)."""
    ends, k = [], 0
    for node in model['nodes']:
        if node['nodeType'] != 'RigidBodyEP':
            raise ValueError(f'unexpected node type {node["nodeType"]}')
        x = np.array(node['referenceCoordinates'], dtype=float) + q[k:k + 7]
        k += 7
        e0, e1, e2, e3 = x[3:]
        # first column of the rotation matrix of the Euler parameters
        axis = 2 * np.array([e0 * e0 + e1 * e1 - 0.5, e1 * e2 + e0 * e3, e1 * e3 - e0 * e2])
        ends.append(x[:3] + 0.5 * cb.LENGTH * axis)
    return np.array(ends)


def mj_ends(model, data):
    """Far ends of MuJoCo's bodies (after mj_step, xpos/xmat are of the step's start: recompute)."""
    mujoco.mj_kinematics(model, data)
    return data.xpos[1:] + cb.LENGTH * data.xmat[1:].reshape(-1, 3, 3)[:, :, 0]


def distance(a, b):
    return float(np.max(np.linalg.norm(np.asarray(a) - np.asarray(b), axis=1)))


# ------------------------------------------------------------------------------------------------
# runs: prepare_* return a function that runs once and gives (seconds, ends)

def model_copy(case, ctx, steps=None, spectral_radius=None):
    """The case's model dictionary with numberOfSteps (endTime stays 1) and spectral radius changed,
    written to OUT_DIR/runs/; its path and dictionary."""
    model = copy.deepcopy(case['model'])
    ti = model['simulationSettings']['timeIntegration']
    tag = ''
    if steps is not None:
        ti['numberOfSteps'] = float(steps)
        tag += f'_{steps}'
    if spectral_radius is not None:
        ti['generalizedAlpha']['spectralRadius'] = spectral_radius
        tag += f'_rho{spectral_radius}'
    path = os.path.join(ctx.out_dir, 'runs', case['name'].replace(' ', '_') + tag + '.json')
    with open(path, 'w') as f:
        json.dump(model, f)
    return path, model


def prepare_jointsim(case, ctx, mode, param):
    """`jointsim run` of the case with `param` steps (exact, fast) or tolerance (accurate)."""
    if mode == 'accurate':
        path, model = model_copy(case, ctx)
        extra = ['--tolerance', repr(param)]
    else:
        path, model = model_copy(case, ctx, steps=param)
        extra = []
    out = path[:-len('.json')] + f'.{mode}.result.json'
    cmd = [ctx.jointsim, 'run', path, '--solver', mode, '--quiet', '--out', out] + extra

    def once():
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=ctx.timeout)
        except subprocess.TimeoutExpired:
            raise RunFailed(f'timed out after {ctx.timeout:g} s')
        if p.returncode != 0:
            raise RunFailed((p.stderr.strip() or f'exit status {p.returncode}').splitlines()[-1][:120])
        r = json.load(open(out))
        if abs(r['time'] - 1.) > 1e-9:
            raise RunFailed(f'ended at t = {r["time"]}')
        return r['statistics']['solverSeconds'], ends_from_q(model, np.array(r['ode2Coordinates']))
    return once


def prepare_exudyn(case, ctx, steps, spectral_radius=None):
    """pip Exudyn's SolveDynamic on the model file rebuilt with `steps` steps (wall time)."""
    path, model = model_copy(case, ctx, steps=steps, spectral_radius=spectral_radius)
    SC, mbs, s = rebuild(model, assemble=True)

    def once():
        start = time.perf_counter()
        try:
            ok = mbs.SolveDynamic(s)
        except Exception as e:  # Exudyn raises on a failed Newton when it cannot reduce the step
            raise RunFailed(str(e).splitlines()[0][:120] if str(e) else type(e).__name__)
        seconds = time.perf_counter() - start
        if ok is False or abs(mbs.systemData.GetTime() - 1.) > 1e-9:
            raise RunFailed(f'SolveDynamic failed at t = {mbs.systemData.GetTime()}')
        return seconds, ends_from_q(model, np.array(mbs.systemData.GetODE2Coordinates()))
    return once


def prepare_mujoco(case, ctx, integrator, steps, variant=None):
    """mujoco.mj_step(model, data, steps) from the initial state (wall time of that call)."""
    model = mujoco.MjModel.from_xml_string(mjcf(case, integrator, steps, variant))
    data = mujoco.MjData(model)

    def once():
        mujoco.mj_resetData(model, data)
        start = time.perf_counter()
        mujoco.mj_step(model, data, steps)
        seconds = time.perf_counter() - start
        bad = data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number
        if bad or not np.all(np.isfinite(data.qpos)):
            raise RunFailed('unstable (bad qacc)')
        if abs(data.time - 1.) > 1e-9:
            raise RunFailed(f'ended at t = {data.time}')
        return seconds, mj_ends(model, data)
    return once


def best_of(once):
    """Best time of repeated runs (until MIN_SECONDS together, at most MAX_RUNS, at least 2 for runs
    under 1 s), the first run's ends and the first run's time (for budget predictions)."""
    times, ends = [], None
    while not times or (len(times) < MAX_RUNS and (sum(times) < MIN_SECONDS or (len(times) < 2 and times[0] < 1.))):
        seconds, e = once()
        times.append(seconds)
        if ends is None:
            ends = e
    return min(times), ends, times[0]
