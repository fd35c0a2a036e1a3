#pure python model of 2 Rxyz / EP rigid bodies + MarkerBodyRigid + RBSD (non-intrinsic / intrinsic) for hypothesis tests
import numpy as np
from ref import *
from exudyn.rigidBodyUtilities import RotXYZ2RotationMatrix, EulerParameters2RotationMatrix

def Gxyz(th):
    c0,s0=np.cos(th[0]),np.sin(th[0]); c1,s1=np.cos(th[1]),np.sin(th[1])
    return np.array([[1,0,s1],[0,c0,-s0*c1],[0,s0,c0*c1]])  # global G: omega = G th_t

def EPmat(ep):
    e0,e1,e2,e3=ep
    #Exudyn EP rotation matrix formula (as in RigidBodyMath::EP2RotationMatrix)
    return np.array([[-2*e3*e3-2*e2*e2+1, -2*e3*e0+2*e2*e1, 2*e3*e1+2*e2*e0],
                     [ 2*e3*e0+2*e2*e1, -2*e3*e3-2*e1*e1+1, 2*e3*e2-2*e1*e0],
                     [-2*e2*e0+2*e3*e1, 2*e3*e2+2*e1*e0, -2*e2*e2-2*e1*e1+1]])
def Gep(ep):
    e0,e1,e2,e3=ep
    return 2*np.array([[-e1,e0,-e3,e2],[-e2,e3,e0,-e1],[-e3,-e2,e1,e0]])  # global G

class Body:
    def __init__(self, nodeType, idx): self.t=nodeType; self.nq = 6 if nodeType=='Rxyz' else 7; self.idx=idx
    def kin(self, q, qt, b):
        r=q[:3]; rt=qt[:3]
        if self.t=='Rxyz':
            A=RotXYZ2RotationMatrix(q[3:6]); G=Gxyz(q[3:6])
        else:
            A=EPmat(q[3:7]); G=Gep(q[3:7])
        if self.t=='Rxyz': Gl = A.T@G
        else:
            e0,e1,e2,e3=q[3:7]; Gl=2*np.array([[-e1,e0,e3,-e2],[-e2,-e3,e0,e1],[-e3,e2,-e1,e0]])
        wl = Gl@qt[3:]
        p = r + A@b; v = rt + A@np.cross(wl, b)
        Jp = np.hstack([np.eye(3), -A@skew(b)@Gl]); Jr = np.hstack([np.zeros((3,3)), G])
        return p, A, v, wl, Jp, Jr

def LHSfun(q, qt, bodies, bs, K, D, off, R0off, R1off, intrinsic, freeze=None, q0=None, qt0=None):
    """freeze: set of names {'J','Aj','v6','u'} evaluated at q0 instead of q"""
    freeze = freeze or set()
    sl=[slice(0,bodies[0].nq), slice(bodies[0].nq, bodies[0].nq+bodies[1].nq)]
    def all_(q,qt):
        k0 = bodies[0].kin(q[sl[0]], qt[sl[0]], bs[0]); k1 = bodies[1].kin(q[sl[1]], qt[sl[1]], bs[1])
        Aj,uP,vel,uR,angv,f6 = SpringForceTorque(k0[0],k0[1],k0[2],k0[3],k1[0],k1[1],k1[2],k1[3],K,D,off,R0off,R1off,intrinsic,'A0*off')
        dvg = np.r_[k1[2]-k0[2], k1[1]@k1[3]-k0[1]@k0[3]]
        return dict(k0=k0,k1=k1,Aj=Aj,u6=np.r_[uP,uR],v6=np.r_[vel,angv],dvg=dvg)
    c = all_(q,qt); c0 = all_(q0,qt0) if freeze else c
    Aj = c0['Aj'] if 'Aj' in freeze else c['Aj']
    u6 = c0['u6'] if 'u6' in freeze else c['u6']
    v6 = c0['v6'] if 'v6' in freeze else c['v6']
    if 'dvg' in freeze or 'Ajv' in freeze:
        Ajv = c0['Aj'] if 'Ajv' in freeze else c['Aj']
        dvg = c0['dvg'] if 'dvg' in freeze else c['dvg']
        v6 = np.r_[Ajv.T@dvg[:3], Ajv.T@dvg[3:]]
    if 'Ajf' in freeze: Aj = c0['Aj']  #frame for force transformation only
    f6 = K@(u6-off) + D@v6
    fPos=Aj@f6[:3]; fRot=Aj@f6[3:]
    torque = np.cross(Aj@(-0.5*u6[:3]), fPos) if intrinsic else np.zeros(3)
    kk = c0 if 'J' in freeze else c
    Jp0,Jr0 = kk['k0'][4], kk['k0'][5]; Jp1,Jr1 = kk['k1'][4], kk['k1'][5]
    return np.r_[-Jp0.T@fPos + Jr0.T@(-fRot+torque), Jp1.T@fPos + Jr1.T@(fRot+torque)]

def FDjac(fun, x0, h=1e-6):
    n=len(x0); J=np.zeros((len(fun(x0)),n))
    for i in range(n):
        xp=x0.copy(); xp[i]+=h; xm=x0.copy(); xm[i]-=h
        J[:,i]=(fun(xp)-fun(xm))/(2*h)
    return J
