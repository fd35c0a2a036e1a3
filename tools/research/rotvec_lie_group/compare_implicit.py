"""Compare implicit_lie.py with pip Exudyn 1.13.6: generalized-alpha / Newmark / index 2 on a free
RotVecLG rigid body and on one held by a SphericalJoint, with the three Lie-group variants
(non-simplified default; simplified with and without tangent operator).

    python3 compare_implicit.py
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_explicit import TOP, GEN, exudyn_model  # noqa: E402
from implicit_lie import ImplicitLie, Settings  # noqa: E402
from rigid import RigidBodyRotVec  # noqa: E402

# a body hanging on a spherical joint at local b, ground point chosen so that the joint is closed
SPH = dict(GEN)
SPH.update(q0=[0, 0, 0, 0, 0, 0], v0=[0, 0, 0, 0, 0, 0])
SPH_B = np.array([-0.3, 0.2, 0.1])


def sph_p0(d):
    from lie import rotvec_to_matrix
    ref = np.array(d['ref'], float)
    return ref[:3] + np.array(d['q0'][:3]) + rotvec_to_matrix(ref[3:] + np.array(d['q0'][3:])) @ SPH_B


def sph_v0(d, omega_bar):
    """velocities consistent with the joint: u_t = -A (omegaBar x b)."""
    from lie import rotvec_to_matrix, cross
    ref = np.array(d['ref'], float)
    A = rotvec_to_matrix(ref[3:] + np.array(d['q0'][3:]))
    return list(-A @ cross(np.array(omega_bar), SPH_B)) + list(omega_bar)


SPH['v0'] = sph_v0(SPH, [2., -1., 4.])


def run_exudyn(d, steps, end, joint=False, index2=False, newmark=False, simplified=False, tangent=True, rho=0.9):
    SC, mbs = exudyn_model(d)
    if joint:
        mg = mbs.AddMarker(MarkerBodyPosition(bodyNumber=0, localPosition=list(sph_p0(d))))
        mb = mbs.AddMarker(MarkerBodyPosition(bodyNumber=1, localPosition=list(SPH_B)))
        mbs.AddObject(ObjectJointSpherical(markerNumbers=[mg, mb]))
        mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps
    s.timeIntegration.endTime = end
    s.timeIntegration.verboseMode = 0
    s.solution.file.write = False
    ga = s.timeIntegration.generalizedAlpha
    ga.lieGroupSimplifiedKinematicRelations = simplified
    ga.lieGroupAddTangentOperator = tangent
    ga.useIndex2Constraints = index2
    ga.useNewmark = newmark
    ga.spectralRadius = rho
    mbs.SolveDynamic(s)
    it = mbs.sys['dynamicSolver'].it
    sd = mbs.systemData
    return (np.array(sd.GetODE2Coordinates()), np.array(sd.GetODE2Coordinates_t()), np.array(sd.GetODE2Coordinates_tt()),
            np.array(sd.GetAECoordinates()), it.newtonStepsCount, it.newtonJacobiCount)


def run_python(d, steps, end, joint=False, index2=False, newmark=False, simplified=False, tangent=True, rho=0.9):
    body = RigidBodyRotVec(d['mass'], d['inertia6'], d.get('com', (0, 0, 0)), d['ref'], d.get('forces', ()),
                           d.get('torques', ()), d.get('gravity', (0, 0, 0)), d.get('coordinate_loads', ()))
    st = Settings(index2=index2, newmark=newmark, simplified=simplified, tangent=tangent, rho=rho)
    sol = ImplicitLie(body, st, joint_b=SPH_B if joint else None, joint_p0=sph_p0(d) if joint else None)
    q, v, a, lam = sol.solve(d['q0'], d['v0'], end, steps)
    return q, v, a, lam, sol.its, sol.jacs


CASES = [
    ('top', TOP, {}),
    ('top', TOP, dict(simplified=True)),
    ('gen', GEN, {}),
    ('gen', GEN, dict(simplified=True)),
    ('gen', GEN, dict(simplified=True, tangent=False)),
    ('gen', GEN, dict(newmark=True)),
    ('sph', SPH, dict(joint=True)),
    ('sph', SPH, dict(joint=True, simplified=True)),
    ('sph', SPH, dict(joint=True, simplified=True, tangent=False)),
    ('sph', SPH, dict(joint=True, newmark=True, index2=True)),
]

if __name__ == '__main__':
    for label, d, opt in CASES:
        for steps, end in [(200, 0.2), (1000, 1.)]:
            qe, ve, ae, le, ite, jae = run_exudyn(d, steps, end, **opt)
            try:
                qp, vp, ap, lp, itp, jap = run_python(d, steps, end, **opt)
            except RuntimeError as e:
                print(label, opt, 'python failed', e)
                continue
            dl = np.abs(le[-len(lp):] - lp).max() if len(lp) else 0.
            print(f'{label} {str(opt):55s} h={end / steps:g} n={steps:4d}: its/jacs Exudyn {ite}/{jae} Python {itp}/{jap}  '
                  f'|dq| {np.abs(qe - qp).max():.1e} |dv| {np.abs(ve - vp).max():.1e} |da| {np.abs(ae - ap).max():.1e} '
                  f'|dlam| {dl:.1e}')
