"""MarkerNodeRotationCoordinate in a ConnectorCoordinate, checked through the whole implicit
solver: a RotVecLG body (compare_explicit.GEN) whose Tait-Bryan angle i (RotXYZ(A)[i]) is held by
ConnectorCoordinate(ground coordinate, rotation coordinate i, factor1, offset), re-implemented
with implicit_lie.py:  g = factor1*RotXYZ(A)[i] - offset (index 3),  g = factor1*omega_i (index 2,
offset dropped), g = factor1*omega_i - offset (velocityLevel=True);  C_q = factor1*[0, G[i,:]]
with G = A for RotVecLG (the marker Jacobian is the node's global rotation Jacobian row, not the
derivative of the angle), omega = A omegaBar.

    python3 compare_rotation_coordinate.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_explicit import GEN, exudyn_model  # noqa: E402
from implicit_lie import ImplicitLie, Settings  # noqa: E402
from lie import rot_xyz  # noqa: E402
from rigid import RigidBodyRotVec  # noqa: E402


class RotCoordConstraint(ImplicitLie):
    def __init__(self, body, settings, i, factor, offset, velocity_level=False):
        super().__init__(body, settings)
        self.nae = 1
        self.i, self.f, self.off, self.vl = i, factor, offset, velocity_level
        self.velocity_level_ae = velocity_level
        # jacobian() and residual() use joint_b only through Cq/g

    def Cq(self, q):
        return self.f * np.hstack([np.zeros(3), self.body.A(q)[self.i]])[None, :]

    def g(self, q, v):
        A = self.body.A(q)
        if self.vl:
            return np.array([self.f * (A @ v[3:])[self.i] - self.off])
        if self.s.index2:
            return np.array([self.f * (A @ v[3:])[self.i]])
        return np.array([self.f * rot_xyz(A)[self.i] - self.off])

    def jacobian(self):
        if not self.vl:
            return super().jacobian()
        # velocity-level constraint: AE row = gamma' * dg/dv, the C^T lambda column uses dg/dv too
        idx2 = self.s.index2
        self.s.index2 = True
        J = super().jacobian()
        self.s.index2 = idx2
        return J


def run(i, factor, offset, steps=200, end=0.2, velocity_level=False, index2=False):
    d = dict(GEN)
    d['v0'] = [0.1, 0.2, -0.3, 0.5, -1., 0.8]  # moderate rotation (GEN's omega makes Newton fail)
    SC, mbs = exudyn_model(d)
    nG = mbs.AddNode(NodePointGround())
    mG = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nG, coordinate=0))
    mR = mbs.AddMarker(MarkerNodeRotationCoordinate(nodeNumber=0, rotationCoordinate=i))
    mbs.AddObject(ObjectConnectorCoordinate(markerNumbers=[mG, mR], factor1=factor, offset=offset,
                                            velocityLevel=velocity_level))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.solution.file.write = False
    s.timeIntegration.generalizedAlpha.useIndex2Constraints = index2
    s.timeIntegration.generalizedAlpha.useNewmark = index2
    mbs.SolveDynamic(s)
    it = mbs.sys['dynamicSolver'].it
    qe = np.array(mbs.systemData.GetODE2Coordinates())
    le = np.array(mbs.systemData.GetAECoordinates())
    body = RigidBodyRotVec(d['mass'], d['inertia6'], d['com'], d['ref'], d['forces'], d['torques'], d['gravity'],
                           d['coordinate_loads'])
    sol = RotCoordConstraint(body, Settings(index2=index2, newmark=index2), i, factor, offset, velocity_level)
    q, v, a, lam = sol.solve(d['q0'], d['v0'], end, steps)
    print(f'rotationCoordinate {i} factor {factor} offset {offset} velocityLevel {velocity_level} index2 {index2}: '
          f'its/jacs Exudyn {it.newtonStepsCount}/{it.newtonJacobiCount} Python {sol.its}/{sol.jacs}  '
          f'|dq| {np.abs(q - qe).max():.1e} lambda {le[0]:.10g} / {lam[0]:.10g}')


if __name__ == '__main__':
    # the initial value of the constrained angle: choose the offset so that g(0) = 0
    from lie import rotvec_to_matrix
    ang0 = rot_xyz(rotvec_to_matrix(np.array(GEN['ref'][3:]) + np.array(GEN['q0'][3:])))
    for i, f in [(2, 2.), (0, -0.5), (1, 1.)]:
        run(i, f, f * ang0[i])
    run(2, 2., 0.3, velocity_level=True)
    run(2, 2., 0., index2=True)
