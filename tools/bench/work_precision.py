"""Work-precision benchmark: the solver time each program needs to reach an accuracy, side by side,
for MuJoCo (pip mujoco 4.0.1), pip Exudyn 1.13.6 and jointsim (modes exact, fast and, when the
binary has it, accurate).

What it measures
  For every model and program/mode the step size (or, for `jointsim --solver accurate`, the
  tolerance 1e-1 ... 1e-11 by factors of 10) is swept; each run gives a pair (time, error):
    time  = best of several runs (repeated until they took 0.3 s together, at most 20, at least
            2 for runs under 1 s) of: jointsim's statistics.solverSeconds (solves under 50 ms with
            `--repeat 10`: the fastest of ten in one process, as MuJoCo's repeated calls are in
            this one); the wall time around
            Exudyn's mbs.SolveDynamic; the wall time around mujoco.mj_step(model, data, nstep)
            (the whole step loop in C; model compilation and mj_resetData excluded);
    error = the largest distance, over all bodies, of the body's far end (the point 0.5 m from its
            joint along its long axis, Exudyn local position [0.25, 0, 0]) from the truth at t = 1 s.
  For each target (default 1e-3 m and 1e-6 m) the table gives the time to reach it, interpolated
  log-log between the two neighbouring sweep points (the cheapest run at or below the target and
  the costliest cheaper run above it); "*" marks the measured time of the cheapest run at or
  below the target where no cheaper run is above it (the first, coarsest run was accurate
  enough, or coarser runs cost more: a solver that reduces its step after failed Newton
  iterations). MuJoCo's cell is its best integrator (Euler, RK4, implicitfast), named.

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
  Checks, other formulations (each computed when its estimated cost is within --truth-budget):
    for chains MuJoCo RK4 (minimal coordinates) at n = 1e4 and 2n steps, n doubled until the
    change is <= 1e-8 (= 0.01 x 1e-6) while within --truth-budget (not for the loop: MuJoCo's
    loop constraint is soft); when T_js is jointsim accurate, jointsim fast Richardson-extrapolated
    as above (the same program, but a different discretization than accurate's Dormand-Prince: a
    check of the time convergence, not of the model equations); pip Exudyn with generalized-alpha
    spectral radius 0.6 (a different discretization by another implementation), Richardson-
    extrapolated from n/2, n and 2n steps with n a fifth of the above.
  The table's truth is T_js; it is accepted for a target only when |T_js - check| <= 0.1 x target
  for some check; a cell whose truth is not accepted is marked with "!".

Usage, from the repository root (jointsim built by `cargo build --release -p jointsim`):

    python3 tools/bench/work_precision.py [--quick] [--sizes 1,10,100,1000] [--loop | --no-loop]
        [--programs mujoco,exudyn,exact,fast,accurate] [--targets 1e-3,1e-6] [--out-dir DIR]
        [--budget SECONDS] [--truth-budget SECONDS] [--jointsim PATH] [--verbose]

Sweeps (one per model x program/mode x MuJoCo integrator and loop variant): step counts 4, 8,
16, ... (doubled; when a solver took more steps than asked, Exudyn's and jointsim's step reduction
after failed Newton iterations, the next count jumps toward a quarter of the steps taken), or the
tolerances 1e-1 ... 1e-11. A sweep stops at its first run at or below the smallest target; before
a run predicted (from the previous run's time) to take longer than --budget seconds, the cell then
saying "> budget"; and, for MuJoCo, when 4 runs did not improve its best error by a factor 1.5
("floor"). --quick: N = 1 and 10 and the loop, --budget 3. --verbose prints every run (steps or
tolerance, time, error, steps taken). OUT_DIR/results.json keeps every sweep's points.
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
STEP_START = 4  # steps of the first sweep point; then doubled
TOLERANCES = [10. ** -k for k in range(1, 12)]
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
        for o in c['model']['objects']:  # MuJoCo's bodies are built from these constants
            if o['objectType'] == 'RigidBody' and not np.allclose(
                    [o['mass']] + o['inertia'] + o['centerOfMass'], [MASS, I_LONG, I_CROSS, I_CROSS] + [0] * 6,
                    rtol=1e-14, atol=0):
                raise ValueError(f'{c["file"]}: a body differs from the MJCF bodies: {o}')
    return cases


def mj_spec(case, integrator, steps, variant=None):
    """MuJoCo's model of the case (an MjSpec: MJCF's XML parser refuses the 1000 nested bodies of
    chain 1000; spec.to_xml() gives the MJCF): a ball-joint tree, body frames at the joints; the loop
    closed by a connect constraint of the given variant."""
    n = case['n']
    if case['loop']:
        P, phi = loop_geometry(n)
        frames = [(P[0], phi[0])] + [((cb.LENGTH, 0, 0), phi[i] - phi[i - 1]) for i in range(1, n)]
    else:
        frames = [((0, 0, 0), 0.)] + [((cb.LENGTH, 0, 0), 0.)] * (n - 1)
    spec = mujoco.MjSpec()
    spec.option.timestep = 1. / steps
    spec.option.integrator = getattr(mujoco.mjtIntegrator, 'mjINT_' + integrator.upper())
    spec.option.gravity = [0, 0, -9.81]
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    parent = spec.worldbody
    for i, (pos, angle) in enumerate(frames):
        parent = parent.add_body(name=f'b{i}', pos=[float(x) for x in pos],
                                 quat=[math.cos(angle / 2), 0, 0, math.sin(angle / 2)], mass=MASS,
                                 ipos=[cb.LENGTH / 2, 0, 0], inertia=[I_LONG, I_CROSS, I_CROSS], explicitinertial=True)
        parent.add_joint(type=mujoco.mjtJoint.mjJNT_BALL, damping=0., armature=0.)
    if case['loop']:
        v = LOOP_VARIANTS[variant]
        if v['tolerance']:
            spec.option.tolerance = float(v['tolerance'])
        # data: anchor in body1's frame (the far end), body2's anchor (computed by the compiler from
        # the initial configuration), ..., torquescale 1 (as MJCF's default)
        spec.add_equality(type=mujoco.mjtEq.mjEQ_CONNECT, objtype=mujoco.mjtObj.mjOBJ_BODY, name1=f'b{n - 1}',
                          name2='world', data=[cb.LENGTH] + [0.] * 9 + [1., 0.],
                          solref=[float(x) for x in v['solref'].split()],
                          solimp=[float(x) for x in v['solimp'].split()])
    return spec


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
    # short solves are repeated within the process (`--repeat`: its fastest solve), as MuJoCo's
    # are: a process's first solve also pays for loading its code
    repeat = {'times': 1}

    def once():
        try:
            p = subprocess.run(cmd + ['--repeat', str(repeat['times'])], capture_output=True,
                               text=True, timeout=ctx.timeout)
        except subprocess.TimeoutExpired:
            raise RunFailed(f'timed out after {ctx.timeout:g} s')
        if p.returncode != 0:
            raise RunFailed((p.stderr.strip() or f'exit status {p.returncode}').splitlines()[-1][:120])
        r = json.load(open(out))
        if abs(r['time'] - 1.) > 1e-9:
            raise RunFailed(f'ended at t = {r["time"]}')
        st = r['statistics']
        if st['solverSeconds'] < 0.05:
            repeat['times'] = 10
        return st['solverSeconds'], ends_from_q(model, np.array(r['ode2Coordinates'])), st['steps']
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
        taken = int(mbs.sys['dynamicSolver'].it.currentStepIndex) - 1
        return seconds, ends_from_q(model, np.array(mbs.systemData.GetODE2Coordinates())), taken
    return once


def prepare_mujoco(case, ctx, integrator, steps, variant=None):
    """mujoco.mj_step(model, data, steps) from the initial state (wall time of that call)."""
    model = mj_spec(case, integrator, steps, variant).compile()
    data = mujoco.MjData(model)

    def once():
        mujoco.mj_resetData(model, data)
        start = time.perf_counter()
        mujoco.mj_step(model, data, steps)
        seconds = time.perf_counter() - start
        if abs(data.time - 1.) > 1e-9:  # MuJoCo resets the state on an instability, and warns
            raise RunFailed(f'unstable (reset, ended at t = {data.time:g})')
        if data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number or not np.all(np.isfinite(data.qpos)):
            raise RunFailed('unstable (bad qacc)')
        return seconds, mj_ends(model, data), steps
    return once


def best_of(once):
    """Best time of repeated runs (until MIN_SECONDS together, at most MAX_RUNS, at least 2 for runs
    under 1 s); the first run's ends, time (for budget predictions) and steps taken."""
    times, first = [], None
    while not times or (len(times) < MAX_RUNS and (sum(times) < MIN_SECONDS or (len(times) < 2 and times[0] < 1.))):
        seconds, ends, taken = once()
        times.append(seconds)
        first = first or (ends, seconds, taken)
    return min(times), first[0], first[1], first[2]


# ------------------------------------------------------------------------------------------------
# sweeps

def improved(errors, window=4):
    """Whether the last `window` errors improved the best earlier one by a factor 1.5 (else: a floor)."""
    if len(errors) < window + 2:
        return True
    return min(errors[-window:]) < min(errors[:-window]) / 1.5


def next_steps(n, seconds, taken):
    """The next step count of a step sweep and its predicted time: doubled, or more when the solver
    took more steps than asked (its own step reductions after failed Newton iterations: the chain
    of 1000 at a few steps), toward a quarter of the steps it took."""
    m = 2 * n
    while taken and 2 * m <= taken // 4:
        m *= 2
    return (m if m <= 2 ** 24 else None), seconds * m / max(n, taken or n)


def next_tolerance(tol, seconds, taken):
    return (tol / 10 if tol > 1.5 * TOLERANCES[-1] else None), 2 * seconds


def sweep(label, prepare, first, advance, truth, ctx, floor=False):
    """Runs prepare(param)() from `first` on (param, predicted time = advance(param, time, steps
    taken)) until the error reaches the smallest target, fails 8 times in a row, the next run is
    predicted to exceed the budget or, with `floor`, the error stops improving. Returns the label,
    points and stop reason."""
    points, errors, stop, failures = [], [], 'end of sweep', 0
    param, predicted = first, 0.
    while param is not None:
        if predicted > ctx.budget:
            stop = '> budget'
            break
        start = time.perf_counter()
        try:
            seconds, ends, single, taken = best_of(prepare(param))
        except RunFailed as e:
            points.append({'param': param, 'time': None, 'error': None, 'note': str(e)})
            ctx.say(f'    {label}: {param:g}: failed: {e}', verbose=True)
            failures += 1
            if failures >= 8:
                stop = 'failed'
                break
            param, predicted = advance(param, time.perf_counter() - start, None)
            continue
        failures, err = 0, distance(ends, truth)
        errors.append(err)
        points.append({'param': param, 'time': seconds, 'error': err, 'steps': taken})
        ctx.say(f'    {label}: {param:g}: {fmt_time(seconds)}, error {err:.2e}, steps {taken}', verbose=True)
        if err <= min(ctx.targets):
            stop = 'reached'
            break
        if floor and not improved(errors):
            stop = 'floor'
            break
        param, predicted = advance(param, single, taken)
    ok = [p for p in points if p['error'] is not None]
    best = f', best error {min(p["error"] for p in ok):.1e}' if ok else ''
    ctx.say(f'  {label}: {len(points)} points, stop: {stop}{best}')
    return {'label': label, 'points': points, 'stop': stop}


def program_sweeps(case, program, truth, ctx):
    """The sweeps of one table column: (MuJoCo: one per integrator and loop variant)."""
    name = case['name']
    if program == 'mujoco':
        variants = list(LOOP_VARIANTS) if case['loop'] else [None]
        return [sweep(f'{name} / MuJoCo {integ}' + (f' {v}' if v else ''),
                      lambda n, integ=integ, v=v: prepare_mujoco(case, ctx, integ, n, v),
                      STEP_START, next_steps, truth, ctx, floor=True)
                for v in variants for integ in MJ_INTEGRATORS]
    if program == 'exudyn':
        return [sweep(f'{name} / Exudyn', lambda n: prepare_exudyn(case, ctx, n), STEP_START, next_steps, truth, ctx)]
    if program == 'accurate':
        if not ctx.has_accurate:
            return None
        return [sweep(f'{name} / jointsim accurate', lambda tol: prepare_jointsim(case, ctx, 'accurate', tol),
                      TOLERANCES[0], next_tolerance, truth, ctx)]
    return [sweep(f'{name} / jointsim {program}', lambda n: prepare_jointsim(case, ctx, program, n),
                  STEP_START, next_steps, truth, ctx)]


def time_to_target(points, target):
    """(time, '*' or '', the cheapest point at or below the target) or None: the time is
    interpolated log-log between that point and the costliest cheaper point above the target; '*':
    no cheaper point above the target, the point's measured time."""
    pts = [p for p in points if p['error'] is not None]
    ok = [p for p in pts if p['error'] <= target]
    if not ok:
        return None
    j = min(ok, key=lambda p: p['time'])
    above = [p for p in pts if p['error'] > target and p['time'] < j['time']]
    if not above:
        return j['time'], '*', j
    i = max(above, key=lambda p: p['time'])
    slope = (math.log(j['time']) - math.log(i['time'])) / (math.log(j['error']) - math.log(i['error']))
    return math.exp(math.log(i['time']) + slope * (math.log(target) - math.log(i['error']))), '', j


# ------------------------------------------------------------------------------------------------
# the truth

def richardson(run, n):
    """Second-order Richardson extrapolation of the ends from runs at n/2, n and 2n steps: the
    extrapolation of (n, 2n), the change n -> 2n and the change of the extrapolation."""
    e = [run(k) for k in (n // 2, n, 2 * n)]
    r1, r2 = (4 * e[1] - e[0]) / 3, (4 * e[2] - e[1]) / 3
    return r2, {'halving change': distance(e[2], e[1]), 'extrapolation change': distance(r2, r1)}


def fast_richardson(case, ctx):
    n = TRUTH_STEPS['loop' if case['loop'] else case['n']]
    ends, info = richardson(lambda k: prepare_jointsim(case, ctx, 'fast', k)()[1], n)
    info['method'] = f'jointsim fast, {n // 2}/{n}/{2 * n} steps, Richardson-extrapolated'
    return ends, info


def jointsim_truth(case, ctx):
    if not ctx.has_accurate:
        return fast_richardson(case, ctx)
    a = prepare_jointsim(case, ctx, 'accurate', 1e-12)()[1]
    b = prepare_jointsim(case, ctx, 'accurate', 1e-11)()[1]
    return a, {'method': 'jointsim accurate, tolerance 1e-12', 'change from tolerance 1e-11': distance(a, b)}


def mujoco_truth(case, ctx):
    """MuJoCo RK4 at n and 2n steps, n doubled until the change is <= TRUTH_CHANGE; None when the
    estimated cost exceeds --truth-budget."""
    n = MJ_TRUTH_STEPS
    probe = mj_spec(case, 'RK4', n).compile()
    data = mujoco.MjData(probe)
    k, seconds = 1, 0.
    while seconds < 0.05:  # a single step of chain 1000 takes seconds
        k *= 10
        start = time.perf_counter()
        mujoco.mj_step(probe, data, k // 10)
        seconds = time.perf_counter() - start
    per_step = seconds / (k // 10)
    if 3 * n * per_step > ctx.truth_budget:
        return None, f'MuJoCo RK4 truth skipped (estimated {3 * n * per_step:.0f} s > --truth-budget)'
    run = (lambda k: prepare_mujoco(case, ctx, 'RK4', k)()[1])
    previous, spent = run(n), n * per_step
    while True:
        current = run(2 * n)
        spent += 2 * n * per_step
        change = distance(current, previous)
        if change <= TRUTH_CHANGE or spent + 4 * n * per_step > ctx.truth_budget:
            break
        n, previous = 2 * n, current
    return current, {'method': f'MuJoCo RK4, {n}/{2 * n} steps', 'halving change': change}


def exudyn_check(case, ctx, rho=0.6):
    """pip Exudyn, generalized alpha with spectral radius rho, Richardson-extrapolated; None when the
    estimated cost exceeds --truth-budget."""
    n = TRUTH_STEPS['loop' if case['loop'] else case['n']] // 5
    start = time.perf_counter()
    prepare_exudyn(case, ctx, 200, rho)()
    per_step = (time.perf_counter() - start) / 200
    if 3.5 * n * per_step > ctx.truth_budget:
        return None, f'Exudyn check skipped (estimated {3.5 * n * per_step:.0f} s > --truth-budget)'
    ends, info = richardson(lambda k: prepare_exudyn(case, ctx, k, rho)()[1], n)
    info['method'] = f'Exudyn, spectral radius {rho}, {n // 2}/{n}/{2 * n} steps, Richardson-extrapolated'
    return ends, info


def cached(ctx, key, compute):
    """compute() -> (ends or None, info), cached in OUT_DIR/truth.json under key (a skipped
    computation, ends None, is not cached: a larger --truth-budget may afford it)."""
    entry = ctx.cache.get(key)
    if entry and entry['ends'] is not None:
        return np.array(entry['ends']), entry['info']
    start = time.perf_counter()
    ends, info = compute()
    if isinstance(info, str):
        info = {'method': info}
    info['seconds'] = round(time.perf_counter() - start, 1)
    if ends is not None:
        ctx.cache[key] = {'ends': np.asarray(ends).tolist(), 'info': info}
        with open(ctx.cache_path, 'w') as f:
            json.dump(ctx.cache, f, indent=1)
    return ends, info


def check_formulations(case, ctx, exe_tag):
    """The truth checks, as (cache key, compute): MuJoCo RK4 (chains), jointsim fast Richardson (when
    the truth is jointsim accurate) and Exudyn with spectral radius 0.6."""
    name = f'{case["name"]} {case["hash"]}'
    checks = []
    if not case['loop']:
        xml_hash = hashlib.sha1(mj_spec(case, 'RK4', 1).to_xml().encode()).hexdigest()[:16]
        checks.append((f'{case["name"]} {xml_hash} mujoco {mujoco.__version__}', lambda: mujoco_truth(case, ctx)))
    if ctx.has_accurate:
        checks.append((f'{name} jointsim fast {exe_tag}', lambda: fast_richardson(case, ctx)))
    checks.append((f'{name} exudyn', lambda: exudyn_check(case, ctx)))
    return checks


def truth(case, ctx):
    """The truth's ends, and the largest target it is not accepted for: 10 x its smallest distance
    from a check (every check within --truth-budget is computed, and cached)."""
    exe = os.stat(ctx.jointsim)
    exe_tag = f'{exe.st_size} {exe.st_mtime_ns}'
    js_key = f'{case["name"]} {case["hash"]} jointsim ' + (f'accurate {exe_tag}' if ctx.has_accurate else 'fast')
    t_js, info_js = cached(ctx, js_key, lambda: jointsim_truth(case, ctx))
    ctx.say(f'truth {case["name"]}: {describe(info_js)}')
    agreement = math.inf
    for key, compute in check_formulations(case, ctx, exe_tag):
        check, info = cached(ctx, key, compute)
        if check is None:
            ctx.say(f'  {info["method"]}')
            continue
        d = distance(t_js, check)
        agreement = min(agreement, d)
        ctx.say(f'  check: {describe(info)}\n    |truth - check| = {d:.2e}')
    if agreement == math.inf:
        ctx.say('  no second formulation: truth not accepted for any target')
    else:
        ctx.say(f'  accepted for targets >= {10 * agreement:.1e}')
    return t_js, 10 * agreement


def describe(info):
    return ', '.join(f'{k} {v:.2e}' if isinstance(v, float) and k != 'seconds' else
                     (f'{v} s' if k == 'seconds' else str(v))
                     for k, v in sorted(info.items(), key=lambda kv: kv[0] != 'method'))


# ------------------------------------------------------------------------------------------------
# table

def fmt_time(s):
    if s < 1e-3:
        return f'{s * 1e6:.3g} us'
    if s < 1:
        return f'{s * 1e3:.3g} ms'
    return f'{s:.3g} s'


def column_cell(sweeps, target, name_best):
    """(time or None, cell text) of a column: the best of its sweeps, or why none reached the target."""
    if sweeps is None:
        return None, 'n/a'
    found = [(r, time_to_target(r['points'], target)) for r in sweeps]
    found = [(r, f) for r, f in found if f is not None]
    if found:
        r, (t, mark, point) = min(found, key=lambda rf: rf[1][0])
        name = r['label'].split(' / MuJoCo ')[-1] if name_best else ''
        return t, f'{fmt_time(t)}{mark}' + (f' ({name})' if name else '')
    errors = [(p['error'], r['stop']) for r in sweeps for p in r['points'] if p['error'] is not None]
    if not errors:
        return None, 'failed'
    best, stop = min(errors)
    if any(r['stop'] == 'floor' for r in sweeps) and stop == 'floor':
        return None, f'not reached (floor {best:.1e})'
    if any(r['stop'] == '> budget' for r in sweeps):
        return None, f'> budget (best {best:.1e})'
    return None, f'not reached (best {best:.1e})'


def ratio(a, b):
    return f'{a / b:.3g}' if a is not None and b is not None else 'n/a'


def print_tables(results, ctx):
    """One Markdown table per target: a row per model, a column per program/mode, and ratios."""
    heads = {'mujoco': 'MuJoCo (best)', 'exudyn': 'Exudyn', 'exact': 'jointsim exact', 'fast': 'jointsim fast',
             'accurate': 'jointsim accurate'}
    for target in ctx.targets:
        cols = [p for p in PROGRAMS if p in ctx.programs]
        print(f'\n### Time to reach {target:g} m (far ends at t = 1 s)\n')
        print('| model | ' + ' | '.join(heads[p] for p in cols) +
              ' | MuJoCo/accurate | Exudyn/accurate | MuJoCo/fast | Exudyn/fast |')
        print('|---' * (len(cols) + 5) + '|')
        for name, res in results.items():
            times, cells = {}, []
            mark = '' if target >= res['unaccepted_below'] else ' !'
            for p in cols:
                times[p], text = column_cell(res['sweeps'].get(p), target, p == 'mujoco')
                cells.append(text + (mark if times[p] is not None else ''))
            print(f'| {name} | ' + ' | '.join(cells) + ' | ' +
                  ' | '.join(ratio(times.get(a), times.get(b)) for a, b in
                             [('mujoco', 'accurate'), ('exudyn', 'accurate'), ('mujoco', 'fast'), ('exudyn', 'fast')])
                  + ' |')
    print('\nTimes are interpolated log-log between neighbouring sweep points; "*": the measured time of the '
          'cheapest run at or below the target (no cheaper run above it); "!": the truth is not verified to '
          '0.1 x this target.')


def print_mujoco_step_times(results):
    """MuJoCo's time per step of each sweep (from its costliest successful run), its smallest error
    and why the sweep stopped (a "floor" is where the soft loop constraint stops the error)."""
    print('\nMuJoCo per sweep: time per step (costliest run), smallest error, stop reason:')
    for name, res in results.items():
        for r in res['sweeps'].get('mujoco') or []:
            ok = [p for p in r['points'] if p['time'] is not None]
            if ok:
                p = max(ok, key=lambda p: p['time'])
                best = min(q['error'] for q in ok)
                print(f'  {r["label"]}: {fmt_time(p["time"] / p["param"])}/step, smallest error {best:.1e}, '
                      f'{r["stop"]}')


# ------------------------------------------------------------------------------------------------
# main

class Context:
    def __init__(self, args):
        self.__dict__.update(vars(args))
        self.timeout = max(60., 5 * args.budget)
        self.cache_path = os.path.join(args.out_dir, 'truth.json')
        self.cache = json.load(open(self.cache_path)) if os.path.exists(self.cache_path) else {}
        self.has_accurate = has_accurate(args.jointsim)

    def say(self, text, verbose=False):
        if self.verbose or not verbose:
            print(text, flush=True)


def has_accurate(exe):
    p = subprocess.run([exe, 'run', '--help'], capture_output=True, text=True)
    return 'accurate' in p.stdout + p.stderr


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--sizes', default=None, help='chain lengths (default 1,10,100,1000; --quick: 1,10)')
    ap.add_argument('--loop', action=argparse.BooleanOptionalAction, default=True, help='the closed loop of 10')
    ap.add_argument('--programs', default=','.join(PROGRAMS))
    ap.add_argument('--targets', default='1e-3,1e-6')
    ap.add_argument('--out-dir', default=os.path.join('/tmp', 'jointsim_work_precision'))
    ap.add_argument('--budget', type=float, default=None, help='seconds per run of a sweep (default 30; --quick: 3)')
    ap.add_argument('--truth-budget', type=float, default=300., help='seconds for a truth check formulation')
    ap.add_argument('--jointsim', default=os.path.join(REPO, 'target', 'release', 'jointsim'))
    ap.add_argument('--quick', action='store_true', help='N = 1 and 10 (and the loop), --budget 3')
    ap.add_argument('--verbose', action='store_true', help="print every sweep point")
    args = ap.parse_args(argv)
    args.sizes = [int(x) for x in (args.sizes or ('1,10' if args.quick else '1,10,100,1000')).split(',')]
    args.budget = args.budget or (3. if args.quick else 30.)
    args.programs = [p.strip() for p in args.programs.split(',')]
    unknown = set(args.programs) - set(PROGRAMS)
    if unknown:
        ap.error(f'unknown programs {sorted(unknown)}: choose from {PROGRAMS}')
    args.targets = sorted((float(x) for x in args.targets.split(',')), reverse=True)
    os.makedirs(os.path.join(args.out_dir, 'runs'), exist_ok=True)
    return args


def main(argv=None):
    ctx = Context(parse_args(argv))
    mujoco.set_mju_user_warning(lambda text: None)  # unstable coarse runs: counted in data.warning
    print(f'MuJoCo {mujoco.__version__}, Exudyn {exu.__version__}, jointsim {ctx.jointsim} '
          f'(accurate mode: {"yes" if ctx.has_accurate else "no"}), budget {ctx.budget:g} s per run, '
          f'out-dir {ctx.out_dir}', flush=True)
    results = {}
    for case in make_cases(ctx):
        t, unaccepted_below = truth(case, ctx)
        sweeps = {p: program_sweeps(case, p, t, ctx) for p in ctx.programs}
        results[case['name']] = {'sweeps': sweeps, 'unaccepted_below': unaccepted_below}
        with open(os.path.join(ctx.out_dir, 'results.json'), 'w') as f:
            json.dump(results, f, indent=1, default=str)
    print_tables(results, ctx)
    print_mujoco_step_times(results)
    return 0


if __name__ == '__main__':
    sys.exit(main())
