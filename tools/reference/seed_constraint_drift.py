# Exudyn 1.13.6: per-step constraint drift |p1 - p0| of the seed pendulum (default settings).
# Output used in tests/seed_pendulum.rs: rows 1001 max 3.983197105483782e-10 at t 0.964, t=0.004: 2.0687768165217335e-10
import exudyn as exu
from exudyn.itemInterface import *
from exudyn.utilities import *
import numpy as np
SC = exu.SystemContainer(); mbs = SC.AddSystem()
oGround = mbs.AddObject(ObjectGround())
inertia = InertiaCuboid(density=1000, sideLengths=[1,0.1,0.1])
node = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=[0.5,0,0]+eulerParameters0))
body = mbs.AddObject(ObjectRigidBody(nodeNumber=node, mass=inertia.Mass(), inertia=inertia.GetInertia6D()))
mbs.AddLoad(LoadMassProportional(markerNumber=mbs.AddMarker(MarkerBodyMass(bodyNumber=body)), loadVector=[0,0,-9.81]))
mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition=[0,0,0]))
mBody = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body, localPosition=[-0.5,0,0]))
oJoint = mbs.AddObject(ObjectJointSpherical(markerNumbers=[mGround, mBody]))
s = mbs.AddSensor(SensorObject(objectNumber=oJoint, outputVariableType=exu.OutputVariableType.Displacement, storeInternal=True, writeToFile=False))
mbs.Assemble()
ss = exu.SimulationSettings()
ss.timeIntegration.numberOfSteps = 1000
ss.solutionSettings.sensorsWritePeriod = 0
ss.timeIntegration.verboseMode=0
mbs.SolveDynamic(ss)
d = mbs.GetSensorStoredData(s)
a = np.abs(d[:,1:]).max(axis=1)
i = a.argmax()
print("rows", len(d), "max", a.max(), "at t", d[i,0], "t=0.004:", a[4])
print(mbs.GetNodeOutput(node, exu.OutputVariableType.Position)[2])
