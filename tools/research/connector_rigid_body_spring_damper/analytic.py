#hypothesized analytic Jacobian of non-intrinsic RBSD LHS w.r.t. q (as in exudyn 1.13.6)
import numpy as np
from model import *

def GtbInv(th):
    #inverse of 'global' Tait-Bryan G (omega_spatial = G th_t), G = [e_x, Rx e_y, Rx Ry e_z]
    return np.linalg.inv(Gxyz(th))

def AnalyticK(q, qt, bodies, bs, K, D, off, R0off, R1off, dJmode='true'):
    nq0=bodies[0].nq; sl=[slice(0,nq0), slice(nq0, nq0+bodies[1].nq)]
    k0 = bodies[0].kin(q[sl[0]], qt[sl[0]], bs[0]); k1 = bodies[1].kin(q[sl[1]], qt[sl[1]], bs[1])
    p0,A0,v0,w0,Jp0,Jr0 = k0; p1,A1,v1,w1,Jp1,Jr1 = k1
    Aj,uP,vel,uR,angv,f6 = SpringForceTorque(p0,A0,v0,w0,p1,A1,v1,w1,K,D,off,R0off,R1off,False,'A0*off')
    n=nq0+bodies[1].nq
    Z0=np.zeros((3,bodies[1].nq)); Z1=np.zeros((3,nq0))
    dp0 = np.hstack([Jp0,Z0]); dp1=np.hstack([Z1,Jp1]); dphi0=np.hstack([Jr0,Z0]); dphi1=np.hstack([Z1,Jr1])
    dvg = v1-v0; dwg = A1@w1 - A0@w0
    Dp = p1-p0
    du_p = Aj.T@(dp1-dp0) + Aj.T@skew(Dp)@dphi0
    du_r = GtbInv(uR)@Aj.T@(dphi1-dphi0)
    dv6 = np.vstack([Aj.T@skew(dvg)@dphi0, Aj.T@skew(dwg)@dphi0])
    df6 = K@np.vstack([du_p,du_r]) + D@dv6
    fPos=Aj@f6[:3]; fRot=Aj@f6[3:]
    dfPos = -skew(fPos)@dphi0 + Aj@df6[:3]
    dfRot = -skew(fRot)@dphi0 + Aj@df6[3:]
    Jl = np.vstack([-Jp0.T, Jp1.T]) if False else None
    JpT = np.vstack([-Jp0.T, Jp1.T]); JrT = np.vstack([-Jr0.T, Jr1.T])
    Kan = JpT@dfPos + JrT@dfRot
    # jacobian derivative terms: d(J^T f)/dq with f fixed
    def JTf(qq, which):
        kk = bodies[which].kin(qq, qt[sl[which]], bs[which])
        s = -1 if which==0 else 1
        return s*(kk[4].T@fPos + kk[5].T@fRot)
    if dJmode=='true':
        Kan[sl[0],sl[0]] += FDjac(lambda x: JTf(x,0), q[sl[0]].copy())
        Kan[sl[1],sl[1]] += FDjac(lambda x: JTf(x,1), q[sl[1]].copy())
    elif dJmode=='exudyn': #exudyn CObjectRigidBody JacobianTtimesVector_q
        for which in [0,1]:
            s = -1 if which==0 else 1
            Kan[sl[which],sl[which]] += RBJacTtimesVector_q(bodies[which], q[sl[which]], bs[which], s*fPos, s*fRot)
    return Kan

def AnalyticD(q, qt, bodies, bs, K, D, off, R0off, R1off):
    nq0=bodies[0].nq; sl=[slice(0,nq0), slice(nq0, nq0+bodies[1].nq)]
    k0 = bodies[0].kin(q[sl[0]], qt[sl[0]], bs[0]); k1 = bodies[1].kin(q[sl[1]], qt[sl[1]], bs[1])
    Aj,*_ = SpringForceTorque(k0[0],k0[1],k0[2],k0[3],k1[0],k1[1],k1[2],k1[3],K,D,off,R0off,R1off,False,'A0*off')
    Jd = np.vstack([np.hstack([-k0[4],k1[4]]), np.hstack([-k0[5],k1[5]])])  #6 x n: d(dv,dw)/dqt
    T = np.zeros((6,6)); T[:3,:3]=Aj; T[3:,3:]=Aj
    return Jd.T@T@D@T.T@Jd

def RBJacTtimesVector_q(body, qb, b, force, torque):
    nq=body.nq; M=np.zeros((nq,nq))
    def GandGl(x):
        if body.t=='Rxyz':
            A=RotXYZ2RotationMatrix(x[3:6]); G=Gxyz(x[3:6]); Gl=A.T@G
        else:
            A=EPmat(x[3:7]); G=Gep(x[3:7]); e0,e1,e2,e3=x[3:7]; Gl=2*np.array([[-e1,e0,e3,-e2],[-e2,-e3,e0,e1],[-e3,e2,-e1,e0]])
        return A,G,Gl
    A,G,Gl = GandGl(qb)
    t1 = Gl.T@skew(b)@A.T@skew(force)@G
    w = np.cross(b, A.T@force)
    # d(Glocal^T w)/dq and d(G^T torque)/dq with w, torque fixed (true derivatives; G, Glocal are linear in EP)
    def f2(x):
        _,G_,Gl_ = GandGl(np.r_[qb[:3],x]); return Gl_.T@w + G_.T@torque
    t2 = FDjac(f2, qb[3:].copy())
    M[3:,3:] = t1 + t2
    return M
