#Python re-implementation of Exudyn 1.11 C++ CObjectConnectorRigidBodySpringDamper (from source) for comparison with pip exudyn 1.13.6
import numpy as np
from numpy.linalg import norm

def skew(v):
    return np.array([[0,-v[2],v[1]],[v[2],0,-v[0]],[-v[1],v[0],0]])

def sinc(x):
    return 1. if x==0. else np.sin(x)/x

def RotationMatrix2RotXYZ(R):
    rot=np.zeros(3)
    absC1 = np.sqrt(R[1,2]**2+R[2,2]**2)
    rot[1] = np.arctan2(R[0,2], absC1)
    if absC1 > 1e-14:
        rot[0] = np.arctan2(-R[1,2], R[2,2])
        rot[2] = np.arctan2(-R[0,1], R[0,0])
    else:
        rot[0] = 0.
        rot[2] = np.arctan2(R[1,0], R[1,1])
    return rot

def RotationMatrix2EP(A):
    trace = A[0,0]+A[1,1]+A[2,2]+1.
    if abs(trace) > 1e-15:
        s = 0.5/np.sqrt(abs(trace))
        return np.array([0.25/s, (A[2,1]-A[1,2])*s, (A[0,2]-A[2,0])*s, (A[1,0]-A[0,1])*s])
    if A[0,0]>A[1,1] and A[0,0]>A[2,2]:
        s = 2*np.sqrt(abs(1+A[0,0]-A[1,1]-A[2,2]))
        return np.array([(A[1,2]-A[2,1])/s, 0.25*s, (A[0,1]+A[1,0])/s, (A[0,2]+A[2,0])/s])
    elif A[1,1]>A[2,2]:
        s = 2*np.sqrt(abs(1+A[1,1]-A[0,0]-A[2,2]))
        return np.array([(A[0,2]-A[2,0])/s, (A[0,1]+A[1,0])/s, 0.25*s, (A[1,2]+A[2,1])/s])
    else:
        s = 2*np.sqrt(abs(1+A[2,2]-A[0,0]-A[1,1]))
        return np.array([(A[0,1]-A[1,0])/s, (A[0,2]+A[2,0])/s, (A[1,2]+A[2,1])/s, 0.25*s])

def LogSO3Vector(R):
    ep = RotationMatrix2EP(R)
    n = ep[1:]; nn = norm(n)
    phi = 2*np.arctan2(nn, ep[0])
    if nn != 0: n = n/nn
    return phi*n

def ExpSO3(rot):
    phi = norm(rot); S = skew(rot)
    return np.eye(3) + sinc(phi)*S + 0.5*sinc(0.5*phi)**2 * S@S

def TExpSO3(rot):
    phi = norm(rot); T = np.eye(3)
    if phi != 0:
        S = skew(rot)
        t1 = -0.5*sinc(phi/2)**2
        phi2 = phi*phi
        if phi < 0.01: t2 = 1/6 - phi2/120 + phi2*phi2/5040
        else: t2 = (1/phi2)*(1-np.sin(phi)/phi)
        T = T + t1*S + t2*S@S
    return T

def TExpSO3Inv(Om):
    phi = norm(Om); T = np.eye(3)
    if phi != 0:
        phi2 = phi**2; OO = np.outer(Om,Om)
        if phi <= 0.02:
            c = 1/12 + phi2/720 + phi2**2/30240
            b = 1 - c*phi2
            T = b*T + skew(0.5*Om) + c*OO
        else:
            eps = 0.5*phi; beta = eps/np.tan(eps); gamma = (1-beta)/phi2
            T = beta*T + skew(0.5*Om) + gamma*OO
    return T

def LogSE3Vector(A, p):
    incRot = LogSO3Vector(A)
    incDisp = TExpSO3Inv(incRot).T @ p
    return incDisp, incRot

def SpringForceTorque(p0,A0,v0,w0loc, p1,A1,v1,w1loc, K,D,off,R0off,R1off,intrinsic, order0='off*A0'):
    A0all = R0off@A0 if order0=='off*A0' else A0@R0off
    A1all = A1@R1off
    if intrinsic:
        # HT0^-1 * HT1
        Arel = A0all.T@A1all
        prel = A0all.T@(p1-p0)
        uPos, uRot = LogSE3Vector(Arel, prel)
        Aj = A0all @ ExpSO3(0.5*uRot)
    else:
        Aj = A0all
        uPos = Aj.T@(p1-p0)
        uRot = RotationMatrix2RotXYZ(Aj.T@A1all)
    vel = Aj.T@(v1-v0)
    angv = Aj.T@(A1@w1loc - A0@w0loc)
    uRot = np.array([x-2*np.pi if x>np.pi else x for x in uRot])
    u6 = np.r_[uPos,uRot]; v6=np.r_[vel,angv]
    f6 = K@(u6-off) + D@v6
    return Aj,uPos,vel,uRot,angv,f6
