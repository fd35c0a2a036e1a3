"""Exudyn 1.13.6 reference cases of ObjectJointGeneric at index 2 (issue 16): rotations locked,
bodies with a centre-of-mass offset, Newmark with index-2 constraints (useNewmark,
useIndex2Constraints), Euler-parameter and Rxyz nodes, modified and full Newton. They pin the
velocity-level rotation rows and their multipliers.

Writes tests/reference/own_cases/joint_index2_NAME.json and .ref.json (with the checks of
make_joint_cases.py). Run from the repository root:
    python3 tools/reference/make_index2_generic_cases.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.utilities import *  # noqa: F401,F403

sys.path.insert(0, os.path.dirname(__file__))
from make_joint_cases import (EP, OVT, RXYZ, joint_sensors, new_system, node_of, sensors, settings,  # noqa: E402
                              write)


def rigid_marker(mbs, b, local):
    return mbs.AddMarker(MarkerBodyRigid(bodyNumber=b, localPosition=list(local)))


def two_ground_joints(nodeType, full_newton, name):
    """Two bodies with a centre-of-mass offset, each on an ObjectJointGeneric to ground: body 1
    turns about the joint's z axis ([1,1,1,1,1,0]), body 2 slides along x with its rotations
    locked ([0,1,1,1,1,1]); gravity has a component along the slide."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    com = [0.1, 0.05, -0.02]
    inertia = InertiaCuboid(density=900, sideLengths=[0.4, 0.1, 0.05]).Translated(com)
    g = [1.5, 0, -9.81]
    A1 = RotationMatrixX(0.3)
    b1 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0.2, 0, 0], referenceRotationMatrix=A1,
                             initialAngularVelocity=list(A1 @ [0, 0, 3.0]),
                             initialVelocity=list(np.cross(A1 @ [0, 0, 3.0], [0.2, 0, 0])),
                             gravity=g, nodeType=nodeType)
    j1 = mbs.AddObject(ObjectJointGeneric(markerNumbers=[
        mbs.AddMarker(MarkerBodyRigid(bodyNumber=ground, localHT=exu.HT(rotation=A1, translation=[0, 0, 0]))),
        rigid_marker(mbs, b1, [-0.2, 0, 0])], constrainedAxes=[1, 1, 1, 1, 1, 0]))
    b2 = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 1, 0], initialVelocity=[0.7, 0, 0],
                             gravity=g, nodeType=nodeType)
    j2 = mbs.AddObject(ObjectJointGeneric(markerNumbers=[rigid_marker(mbs, ground, [0, 1, 0]),
                                                         rigid_marker(mbs, b2, [0, 0, 0])],
                                          constrainedAxes=[0, 1, 1, 1, 1, 1]))
    for j in (j1, j2):
        joint_sensors(mbs, j, [OVT.ForceLocal, OVT.TorqueLocal, OVT.Rotation, OVT.AngularVelocityLocal])
    sensors(mbs, nodes=[(node_of(mbs, b1), OVT.Position), (node_of(mbs, b2), OVT.Position)])
    s = settings(400, 0.8)
    s.timeIntegration.generalizedAlpha.useNewmark = True
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = True
    s.timeIntegration.newton.useModifiedNewton = not full_newton
    write('index2_' + name, mbs, s,
          covers='JointGeneric with rotations locked at index 2 (Newmark), COM offset, '
                 + ('full' if full_newton else 'modified') + ' Newton')


if __name__ == '__main__':
    for nodeType, tag in ((EP, 'ep'), (RXYZ, 'rxyz')):
        two_ground_joints(nodeType, False, 'generic_com_offset_' + tag)
        two_ground_joints(nodeType, True, 'generic_com_offset_full_newton_' + tag)
