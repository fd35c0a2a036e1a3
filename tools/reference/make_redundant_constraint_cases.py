"""Exudyn 1.13.6 reference cases for `linearSolverSettings.ignoreSingularJacobian` (issue 19):
mechanisms with redundant constraints, whose iteration matrix is singular, solved with
EigenDense and Eigen's full-pivoting LU as Exudyn does.

Writes tests/reference/own_cases/NAME.json (model) and NAME.ref.json (Exudyn's results).
Run from the repository root:  python3 tools/reference/make_redundant_constraint_cases.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.dirname(__file__))
from case_writer import settings, write  # noqa: E402

OVT = exu.OutputVariableType


def four_bar(node_type):
    """A planar four-bar linkage built in 3-D from rigid bodies and JointRevoluteZ: the closing
    joint repeats three of the loop's constraints (out-of-plane translation and the two tilts),
    so the constraint Jacobian has rank 3 less than its rows. Crank driven by gravity and an
    initial angular velocity; Euler-parameter or Tait-Bryan nodes."""
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    L = [0.4, 1.0, 0.8]  # crank, coupler, rocker; ground link 1.0 along x
    a = 0.9  # crank angle
    p1 = np.array([L[0] * np.cos(a), L[0] * np.sin(a), 0])
    p3 = np.array([1.0, 0, 0])
    # the rocker's tip: |p2 - p1| = L1, |p2 - p3| = L2
    d = np.linalg.norm(p3 - p1)
    x = (L[1] ** 2 - L[2] ** 2 + d ** 2) / (2 * d)
    h = np.sqrt(L[1] ** 2 - x ** 2)
    e = (p3 - p1) / d
    p2 = p1 + x * e + h * np.array([-e[1], e[0], 0])
    bodies = []
    for (pa, pb) in [(np.zeros(3), p1), (p1, p2), (p3, p2)]:
        c = 0.5 * (pa + pb)
        ang = np.arctan2(pb[1] - pa[1], pb[0] - pa[0])
        length = np.linalg.norm(pb - pa)
        inertia = InertiaCuboid(density=1000, sideLengths=[length, 0.05, 0.05])
        b = mbs.CreateRigidBody(inertia=inertia, referencePosition=c, referenceRotationMatrix=RotationMatrixZ(ang),
                                nodeType=node_type, gravity=[0, -9.81, 0])
        bodies.append((b, length))
    (b0, l0), (b1, l1), (b2, l2) = bodies
    mG0 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=[0, 0, 0]))
    mG3 = mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localPosition=list(p3)))
    m0a = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localPosition=[-0.5 * l0, 0, 0]))
    m0b = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b0, localPosition=[0.5 * l0, 0, 0]))
    m1a = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1, localPosition=[-0.5 * l1, 0, 0]))
    m1b = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b1, localPosition=[0.5 * l1, 0, 0]))
    m2a = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b2, localPosition=[-0.5 * l2, 0, 0]))
    m2b = mbs.AddMarker(MarkerBodyRigid(bodyNumber=b2, localPosition=[0.5 * l2, 0, 0]))
    joints = [mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=m)) for m in
              [[mG0, m0a], [m0b, m1a], [mG3, m2a], [m1b, m2b]]]
    for j in [joints[0], joints[3]]:
        mbs.AddSensor(SensorObject(objectNumber=j, outputVariableType=OVT.Position, storeInternal=True,
                                   writeToFile=False))
    for b, _ in bodies:
        mbs.AddSensor(SensorBody(bodyNumber=b, outputVariableType=OVT.AngularVelocity, storeInternal=True,
                                 writeToFile=False))
    return mbs


def solver(steps, end):
    s = settings(steps, end)
    s.linearSolver.solverType = exu.LinearSolverType.EigenDense
    s.linearSolver.ignoreSingularJacobian = True
    return s


CASES = {
    'redundant_four_bar_ep': lambda: write('redundant_four_bar_ep', four_bar(exu.NodeType.RotationEulerParameters),
                                           solver(500, 1.0)),
    'redundant_four_bar_rxyz': lambda: write('redundant_four_bar_rxyz', four_bar(exu.NodeType.RotationRxyz),
                                             solver(500, 1.0)),
}

if __name__ == '__main__':
    for n in sys.argv[1:] or list(CASES):
        CASES[n]()
