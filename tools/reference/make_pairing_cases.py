"""Exudyn 1.13.6 reference cases for every marker pairing of the spherical joint.

One file per kind of marker 0 (tests/reference/own_cases/pairings_m0_KIND.json and .ref.json),
each holding one small subsystem per kind of marker 1: body A (kind of m0) held to ground by
Cartesian springs, body B (kind of m1) hanging on the joint under gravity.
Run from the repository root:  python3 tools/reference/make_pairing_cases.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..'))
from exudyn_export import export, run_reference  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'reference', 'own_cases')
os.makedirs(OUT, exist_ok=True)
OVT = exu.OutputVariableType

KINDS = ['GroundPoint', 'MassPointBody', 'RigidEpPoint', 'RigidRxyzPoint', 'NodePoint', 'NodeEp', 'NodeRxyz']
G_POS = np.array([0.1, 0.2, 0.3])
G_ROT = RotationMatrixZ(0.3) @ RotationMatrixX(0.2)
GRAVITY = [0, 0, -9.81]


def make_side(mbs, ground, kind, pJ, side, index, anchor):
    """A marker of `kind` at the global point pJ; returns (marker, body or None, node or None)."""
    rigid = kind in ('RigidEpPoint', 'RigidRxyzPoint', 'NodeEp', 'NodeRxyz')
    node_type = exu.NodeType.RotationRxyz if 'Rxyz' in kind else exu.NodeType.RotationEulerParameters
    if kind == 'GroundPoint':
        local = G_ROT.T @ (pJ - G_POS)
        marker = MarkerBodyRigid if index % 2 else MarkerBodyPosition
        return mbs.AddMarker(marker(bodyNumber=ground, localPosition=local)), None, None
    at_node = kind in ('NodePoint', 'NodeEp', 'NodeRxyz')
    offset = np.zeros(3) if at_node else np.array([0.25, -0.1, 0.15]) * (1 if side == 0 else -1)
    p = pJ + offset
    if kind in ('MassPointBody', 'NodePoint'):
        body = mbs.CreateMassPoint(referencePosition=p, physicsMass=0.8 + 0.1 * side,
                                   gravity=GRAVITY if not anchor else [0, 0, 0])
        node = mbs.GetObject(body)['nodeNumber']
        if kind == 'NodePoint':
            m = mbs.AddMarker(MarkerNodePosition(nodeNumber=node))
        else:
            m = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=pJ - p))
    else:
        A = RotationMatrixY(0.2 + 0.1 * index) @ RotationMatrixZ(-0.4 + side)
        inertia = InertiaCuboid(density=500, sideLengths=[0.4, 0.15, 0.1]).Translated([0.02, 0.01, -0.03])
        body = mbs.CreateRigidBody(inertia=inertia, referencePosition=p, referenceRotationMatrix=A,
                                   gravity=GRAVITY if not anchor else [0, 0, 0], nodeType=node_type)
        node = mbs.GetObject(body)['nodeNumber']
        if at_node:
            marker = MarkerNodeRigid if index % 2 else MarkerNodePosition
            m = mbs.AddMarker(marker(nodeNumber=node))
        else:
            marker = MarkerBodyRigid if index % 2 else MarkerBodyPosition
            m = mbs.AddMarker(marker(bodyNumber=body, localPosition=A.T @ (pJ - p)))
    if anchor:
        # hold body A with Cartesian springs to ground: at its node, and for rigid bodies at two
        # more points, so it has a stable rest position
        points = [np.zeros(3)] + ([np.array([0.2, 0, 0]), np.array([0, 0.2, 0.1])] if rigid else [])
        for k, b in enumerate(points):
            if rigid:
                A = mbs.GetObjectOutputBody(body, OVT.RotationMatrix, configuration=exu.ConfigurationType.Reference).reshape(3, 3)
                pg = p + A @ b
                mb = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=b))
            else:
                pg = p
                mb = mbs.AddMarker(MarkerNodePosition(nodeNumber=node))
            mg = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=G_ROT.T @ (pg - G_POS)))
            mbs.AddObject(ObjectConnectorCartesianSpringDamper(markerNumbers=[mg, mb], stiffness=[4000, 5000, 6000],
                                                                damping=[20, 20, 20]))
    return m, body, node


for k0 in KINDS:
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround(referencePosition=G_POS, referenceRotation=G_ROT))
    pairings = 0
    for i, k1 in enumerate(KINDS):
        if k0 == 'GroundPoint' and k1 == 'GroundPoint':
            continue
        pJ = np.array([0.0, 2.0 * i, 0.5])
        m0, b0, n0 = make_side(mbs, ground, k0, pJ, 0, i, anchor=True)
        if k1 == 'GroundPoint':
            m1, b1, n1 = make_side(mbs, ground, k1, pJ, 1, i, anchor=False)
        else:
            m1, b1, n1 = make_side(mbs, ground, k1, pJ, 1, i, anchor=False)
        j = mbs.AddObject(ObjectJointSpherical(markerNumbers=[m0, m1], constrainedAxes=[1, 1, 1]))
        mbs.AddSensor(SensorObject(objectNumber=j, outputVariableType=OVT.Force, storeInternal=True,
                                   writeToFile=False))
        if n1 is not None:
            mbs.AddSensor(SensorNode(nodeNumber=n1, outputVariableType=OVT.Position, storeInternal=True,
                                     writeToFile=False))
        pairings += 1
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = 200
    s.timeIntegration.endTime = 0.2
    s.timeIntegration.verboseMode = 0
    s.solutionSettings.writeSolutionToFile = False
    s.solutionSettings.sensorsWritePeriod = 0.01
    name = 'pairings_m0_' + k0
    export(mbs, s, os.path.join(OUT, name + '.json'))
    r = run_reference(mbs, s, os.path.join(OUT, name + '.ref.json'), case=name)
    print(name, pairings, 'pairings', r['statistics']['newtonIterations'], r['statistics']['jacobianEvaluations'])
