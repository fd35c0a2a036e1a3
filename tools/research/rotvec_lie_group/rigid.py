"""A free ObjectRigidBody on a NodeRigidBodyRotVecLG node, as Exudyn 1.13.6 computes it
(CObjectRigidBody with Glocal = I, G = A; CNodeRigidBodyRotVecLG), with the loads used in the
experiments.  Coordinates q = [u(3), nu(3)] (nu: rotation-vector DISPLACEMENT, the total is
nuRef + nu); velocities v = [u_t(3), omegaBar(3)]: the rotation velocity coordinates ARE the local
angular velocity, not d(nu)/dt.

    M   = [[m I, -m A skew(c)], [m skew(c) A^T, J]]          (J about the node, body axes)
    LHS = [A (wb x (wb x m c)), wb x (J wb)]                  (wb = omegaBar; Gbar_t term = 0)
    Q   = force f at local b:   [f, b x (A^T f)]
          torque tau (global):  [0, A^T tau]        (= G^T tau, G = A)
          gravity g:            [m g, m c x (A^T g)]
          LoadCoordinate on MarkerNodeRotationCoordinate(i): [0, load * A^T e_i]  (row i of G = A)
    RHS = Q - LHS;  acceleration = M^-1 RHS.
"""
import numpy as np

from lie import rotvec_to_matrix, skew, cross


class RigidBodyRotVec:
    def __init__(self, mass, inertia6, com=(0., 0., 0.), ref=(0., 0., 0., 0., 0., 0.),
                 forces=(), torques=(), gravity=(0., 0., 0.), coordinate_loads=()):
        """inertia6 = [Jxx,Jyy,Jzz,Jyz,Jxz,Jxy]; forces: [(b_local, f_global)], torques: [tau_global],
        coordinate_loads: [(rotationCoordinate, load)]."""
        j = inertia6
        self.m = mass
        self.J = np.array([[j[0], j[5], j[4]], [j[5], j[1], j[3]], [j[4], j[3], j[2]]], dtype=float)
        self.c = np.array(com, dtype=float)
        self.ref = np.array(ref, dtype=float)
        self.forces = [(np.array(b, float), np.array(f, float)) for b, f in forces]
        self.torques = [np.array(t, float) for t in torques]
        self.g = np.array(gravity, float)
        self.coordinate_loads = list(coordinate_loads)

    def constant_mass(self):
        return not np.any(self.c != 0.)

    def A(self, q):
        return rotvec_to_matrix(self.ref[3:] + q[3:])

    def mass_matrix(self, q):
        M = np.zeros((6, 6))
        M[:3, :3] = self.m * np.eye(3)
        M[3:, 3:] = self.J
        if not self.constant_mass():
            A = self.A(q)
            Mur = -self.m * (A @ skew(self.c))
            M[:3, 3:] = Mur
            M[3:, :3] = Mur.T
        return M

    def lhs(self, q, v):
        wb = v[3:]
        L = np.zeros(6)
        L[3:] = cross(wb, self.J @ wb)
        if not self.constant_mass():
            A = self.A(q)
            L[:3] = A @ cross(wb, cross(wb, self.m * self.c))
        return L

    def loads(self, q):
        A = self.A(q)
        Q = np.zeros(6)
        for b, f in self.forces:
            Q[:3] += f
            Q[3:] += cross(b, A.T @ f)
        for t in self.torques:
            Q[3:] += A.T @ t
        if np.any(self.g != 0.):
            Q[:3] += self.m * self.g
            Q[3:] += self.m * cross(self.c, A.T @ self.g)
        for i, load in self.coordinate_loads:
            Q[3:] += load * A[i, :]
        return Q

    def rhs(self, q, v):
        return self.loads(q) - self.lhs(q, v)

    # node outputs (CNodeRigidBodyRotVecLG::GetOutputVariable)
    def outputs(self, q, v, a=None):
        from lie import rot_xyz
        A = self.A(q)
        out = {
            'Position': self.ref[:3] + q[:3], 'Displacement': q[:3].copy(), 'Velocity': v[:3].copy(),
            'AngularVelocity': A @ v[3:], 'AngularVelocityLocal': v[3:].copy(),
            'RotationMatrix': A.reshape(9), 'Rotation': rot_xyz(A),
            'Coordinates': q.copy(), 'Coordinates_t': v.copy(), 'CoordinatesTotal': self.ref + q,
        }
        if a is not None:
            out['Acceleration'] = a[:3].copy()
        return out
