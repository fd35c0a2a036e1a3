"""Exudyn 1.13.6 reference case of a long FFRF run (issue 16): Exudyn's own TestModel
perfObjectFFRFreducedOrder, the rotor of testData/rotorDiscTest (Abaqus mesh and matrices, stiffness
scaled to 1 %, an unbalance mass on the disc, 8 eigenmodes) spinning at 50 Hz on two
CartesianSpringDampers (k = 2e8) at its end faces, generalized-alpha with spectral radius 0.5,
modified Newton, h = 1e-4 for 2 s: 20 000 steps.

Writes tests/reference/own_cases/se_ffrf_rotor_unbalance.json and .ref.json (with
make_superelement_cases.write: MatrixContainers as model-format.md says, a bit-identical rebuild from
the written file).
Run from the repository root, with the three files of Exudyn's main/pythonDev/TestModels/testData
(rotorDiscTest.inp, rotorDiscTestMASS1.mtx, rotorDiscTestSTIF1.mtx) in DIR:
    python3 tools/reference/make_ffrf_rotor_case.py DIR
"""
import os
import sys

import numpy as np
import exudyn as exu
from exudyn.itemInterface import *  # noqa: F401,F403
from exudyn.utilities import *  # noqa: F401,F403
from exudyn.FEM import FEMinterface, ObjectFFRFreducedOrderInterface

sys.path.insert(0, os.path.dirname(__file__))
from make_superelement_cases import OVT, new_system, settings, write  # noqa: E402


def case_ffrf_rotor_unbalance(data_dir, steps=20000, end=2.0):
    base = os.path.join(data_dir, 'rotorDiscTest')
    fem = FEMinterface()
    fem.ImportFromAbaqusInputFile(base + '.inp', typeName='Instance', name='rotor-1')
    fem.ReadMassMatrixFromAbaqus(base + 'MASS1.mtx')
    fem.ReadStiffnessMatrixFromAbaqus(base + 'STIF1.mtx')
    fem.ScaleStiffnessMatrix(1e-2)
    fem.AddNodeMass(fem.GetNodeAtPoint(point=[0., 0.19598444, 0.15]), 0.1)
    fem.ComputeEigenmodes(8, excludeRigidBodyModes=6, useSparseSolver=True)
    cms = ObjectFFRFreducedOrderInterface(fem)

    SC, mbs = new_system()
    ffrf = cms.AddObjectFFRFreducedOrder(mbs, positionRef=[0, 0, 0], initialVelocity=[0, 0, 0],
                                         initialAngularVelocity=[0, 0, 50 * 2 * np.pi])
    ground = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    pLeft, pRight = [0, 0, 0], [0, 0, 0.5]
    mGroundLeft = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=pLeft))
    mGroundRight = mbs.AddMarker(MarkerBodyPosition(bodyNumber=ground, localPosition=pRight))
    left, right = fem.GetNodesInPlane(pLeft, [0, 0, 1]), fem.GetNodesInPlane(pRight, [0, 0, 1])
    mLeft = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=ffrf['oFFRFreducedOrder'],
                                                     meshNodeNumbers=np.array(left),
                                                     weightingFactors=np.ones(len(left)) / len(left)))
    mRight = mbs.AddMarker(MarkerSuperElementPosition(bodyNumber=ffrf['oFFRFreducedOrder'],
                                                      meshNodeNumbers=np.array(right),
                                                      weightingFactors=np.ones(len(right)) / len(right)))
    k = 2e8
    d = k * 0.01
    spring_left = mbs.AddObject(CartesianSpringDamper(markerNumbers=[mLeft, mGroundLeft],
                                                      stiffness=[k, k, k], damping=[d, d, d]))
    mbs.AddObject(CartesianSpringDamper(markerNumbers=[mRight, mGroundRight], stiffness=[k, k, 0],
                                        damping=[d, d, d]))
    mbs.AddSensor(SensorSuperElement(bodyNumber=ffrf['oFFRFreducedOrder'], meshNodeNumber=fem.GetNodeAtPoint([0, 0, 0.25]),
                                     storeInternal=True, outputVariableType=OVT.Displacement))
    mbs.AddSensor(SensorNode(nodeNumber=ffrf['nRigidBody'], storeInternal=True, outputVariableType=OVT.AngularVelocity))
    mbs.AddSensor(SensorNode(nodeNumber=ffrf['nGenericODE2'], storeInternal=True, outputVariableType=OVT.Coordinates))
    mbs.AddSensor(SensorObject(objectNumber=spring_left, storeInternal=True, outputVariableType=OVT.Force))

    s = settings(steps=steps, end=end)
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.generalizedAlpha.spectralRadius = 0.5
    s.solution.sensors.writePeriod = 0.01
    write('ffrf_rotor_unbalance', mbs, s,
          covers="Exudyn's TestModel perfObjectFFRFreducedOrder: 20 000 steps of an FFRF rotor from Abaqus data, "
                 "8 eigenmodes, unbalance, spinning at 50 Hz on CartesianSpringDampers, modified Newton")


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    case_ffrf_rotor_unbalance(sys.argv[1])
