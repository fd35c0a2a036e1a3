"""Exudyn 1.13.6 reference cases of rigid joints with tilted joint frames on both sides (issue 16):
rotationMarker0/1 and localHT rotations, bodies moving on both sides of the joint, Euler-parameter and
Rxyz nodes. They pin what the revolute_tilted_door case of ../shared/reference/cases showed: the
constraint Jacobian's rotation rows are Exudyn's (a x b)^T G with the global G, so that the Newton path
and the multipliers are Exudyn's.

Writes tests/reference/own_cases/joint_tilted_NAME.json and .ref.json (the checks of make_joint_cases.py:
a consistent start, a finite run to endTime, a bit-identical rebuild from the written file).
Run from the repository root:  python3 tools/reference/make_tilted_frame_cases.py
"""
import os
import sys
import warnings

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.utilities import *  # noqa: F401,F403

sys.path.insert(0, os.path.dirname(__file__))
from make_joint_cases import (EP, OVT, RXYZ, body, joint_sensors, new_system, node_of, position,  # noqa: E402
                              sensors, settings, write)

warnings.simplefilter('ignore', DeprecationWarning)  # rotationMarker0/1

R_TILT = RotXYZ2RotationMatrix([0.6, 0, 0.3])


def marker(mbs, b, local, R=np.eye(3)):
    return mbs.AddMarker(MarkerBodyRigid(bodyNumber=b, localHT=exu.HT(rotation=np.array(R), translation=list(local))))


def two_links(nodeType, joint, name, covers, steps=500, end=1.0):
    """Link 1 hangs from ground by a revolute joint about a tilted axis; link 2 hangs from link 1 by
    `joint(mbs, m0, m1, R0, R1)`, whose frame is tilted against both links: rotationMarker0 on link 1 and
    a localHT rotation on link 2 (and rotationMarker1 so that the frames agree at t0). Both links are
    released at rest and swing under gravity."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=800, sideLengths=[0.5, 0.12, 0.06])
    A1 = RotationMatrixZ(0.4) @ RotationMatrixX(0.2)
    A2 = RotationMatrixY(-0.3) @ RotationMatrixZ(-0.5)
    b1 = np.array([-0.25, 0, 0])                        # link 1's hinge point, in link 1
    p1 = -A1 @ b1                                       # the hinge at the origin
    c1 = np.array([0.25, 0.02, 0.01])                   # link 1's end, where link 2 hangs
    pJ = p1 + A1 @ c1
    b2 = np.array([-0.2, 0.03, 0])                      # link 2's joint point, in link 2
    p2 = pJ - A2 @ b2
    l1 = body(mbs, inertia, p1, A1, nodeType=nodeType)
    l2 = body(mbs, inertia, p2, A2, nodeType=nodeType)
    # hinge to ground: axis R_TILT e_z, the link frame turned into it by localHT
    mG = marker(mbs, ground, [0, 0, 0], R_TILT)
    m1h = marker(mbs, l1, b1, A1.T @ R_TILT)
    h = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[mG, m1h]))
    # the joint under test: J0 = A1 R0 (rotationMarker0), J1 = A2 R_l R1 with R_l a localHT rotation
    R0 = RotationMatrixX(0.7) @ RotationMatrixZ(0.25)
    R_l = RotationMatrixY(0.9)
    R1 = (A2 @ R_l).T @ A1 @ R0
    m0 = marker(mbs, l1, c1)
    m1 = marker(mbs, l2, b2, R_l)
    j = joint(mbs, m0, m1, R0, R1)
    joint_sensors(mbs, j)
    joint_sensors(mbs, h, [OVT.ForceLocal, OVT.TorqueLocal])
    sensors(mbs, nodes=[(node_of(mbs, l1), OVT.Position), (node_of(mbs, l2), OVT.Position)])
    write('tilted_' + name, mbs, settings(steps, end), covers=covers)


def revolute(mbs, m0, m1, R0, R1):
    return mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[m0, m1], rotationMarker0=R0, rotationMarker1=R1))


def prismatic(mbs, m0, m1, R0, R1):
    j = mbs.AddObject(ObjectJointPrismaticX(markerNumbers=[m0, m1], rotationMarker0=R0, rotationMarker1=R1))
    return j


def generic(axes):
    def make(mbs, m0, m1, R0, R1):
        return mbs.AddObject(ObjectJointGeneric(markerNumbers=[m0, m1], constrainedAxes=axes,
                                                rotationMarker0=R0, rotationMarker1=R1))
    return make


def four_bar():
    """A closed four-bar (the issue's): RevoluteZ to ground, JointGeneric [1,1,1,1,1,0], RevoluteZ to
    ground, JointSpherical [1,1,0] closing it; EP, Rxyz and EP links; tilted rotationMarker0 on ground."""
    SC, mbs = new_system()
    ground = mbs.AddObject(ObjectGround())
    inertia = InertiaCuboid(density=800, sideLengths=[0.4, 0.05, 0.05])
    # crank along x from the origin, coupler along x from the crank's end, rocker down to ground
    crank = body(mbs, inertia, [0.2, 0, 0], nodeType=EP, omega=[0, 0, 2.0], v=[0, 0.4, 0])
    coupler = body(mbs, inertia, [0.6, 0, 0], nodeType=RXYZ)
    rocker = body(mbs, inertia, [0.8, -0.2, 0], RotationMatrixZ(np.pi / 2), nodeType=EP)
    # consistent velocities: the crank turns about z at the origin; the coupler translates with the crank
    # end (rocker at rest for that instant would violate the loop: start at rest instead)
    crank_n, coupler_n, rocker_n = (node_of(mbs, b) for b in (crank, coupler, rocker))
    mbs.SetNodeParameter(crank_n, 'initialVelocities', [0.] * 7)
    j1 = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[marker(mbs, ground, [0, 0, 0]),
                                                           marker(mbs, crank, [-0.2, 0, 0])]))
    j2 = mbs.AddObject(ObjectJointGeneric(markerNumbers=[marker(mbs, crank, [0.2, 0, 0]),
                                                         marker(mbs, coupler, [-0.2, 0, 0])],
                                          constrainedAxes=[1, 1, 1, 1, 1, 0]))
    R0 = RotationMatrixZ(0.3)
    j3 = mbs.AddObject(ObjectJointRevoluteZ(markerNumbers=[marker(mbs, ground, [0.8, -0.4, 0]),
                                                           marker(mbs, rocker, [-0.2, 0, 0])],
                                            rotationMarker0=R0,
                                            rotationMarker1=RotationMatrixZ(np.pi / 2).T @ R0))
    j4 = mbs.AddObject(ObjectJointSpherical(markerNumbers=[position(mbs, coupler, [0.2, 0, 0]),
                                                           position(mbs, rocker, [0.2, 0, 0])],
                                            constrainedAxes=[1, 1, 0]))
    mbs.AddLoad(LoadTorqueVector(markerNumber=marker(mbs, crank, [0, 0, 0]), loadVector=[0, 0, 0.5]))
    for j in (j1, j2, j3):
        joint_sensors(mbs, j, [OVT.ForceLocal, OVT.TorqueLocal])
    sensors(mbs, objects=[(j4, OVT.Force)], nodes=[(n, OVT.Position) for n in (crank_n, coupler_n, rocker_n)])
    write('tilted_four_bar', mbs, settings(500, 1.0),
          covers='closed four-bar: RevoluteZ, JointGeneric [1,1,1,1,1,0], RevoluteZ (rotationMarker0), '
                 'JointSpherical [1,1,0]; EP, Rxyz, EP links; driven by a torque')


if __name__ == '__main__':
    for nodeType, tag in ((EP, 'ep'), (RXYZ, 'rxyz')):
        two_links(nodeType, revolute, 'revolute_' + tag,
                  'RevoluteZ between two swinging links, tilted frames on both sides (rotationMarker0/1, localHT)')
        two_links(nodeType, prismatic, 'prismatic_' + tag,
                  'PrismaticX between two swinging links, tilted frames on both sides')
        two_links(nodeType, generic([1, 1, 1, 1, 1, 0]), 'generic_revolute_' + tag,
                  'JointGeneric [1,1,1,1,1,0] between two swinging links, tilted frames on both sides')
        two_links(nodeType, generic([0, 1, 1, 1, 0, 1]), 'generic_mixed_' + tag,
                  'JointGeneric [0,1,1,1,0,1] (local translation rows, two rotations) between two links')
    four_bar()
