"""Exudyn 1.13.6 reference data for ObjectFFRFreducedOrder (joint-runtime/src/superelement/ffrf.rs).

Builds an FFRFreducedOrder object from the tetrahedron of spec/superelements-and-kinematic-trees.md §9
(nodes [0,0,0], [1,0,0], [0,1,0], [0.2,0.3,0.8]; M_f = 0.5·I; K_f = axial springs k = 2000 on the 6 edges)
with 3 modes and a NodeRigidBodyEP frame node. The constants are computed exactly as
exudyn.FEM.ObjectFFRFreducedOrderInterface does (spec §2.3), without scipy.

The mode basis is the 3 lowest eigenmodes of the tetrahedron supported by extra ground springs at nodes 0
and 1: unlike free-free modes these are not mass-orthogonal to the rigid-body modes, so M_PhitPsi and
M_XRefTildePsi are non-zero and every term of the mass matrix and the LHS is exercised. The reduced stiffness
and damping matrices get a non-symmetric part so that a transposed K or D would be detected.

For 3 random states (non-unit Euler parameters, random velocities, modal coordinates and velocities) it
reads Exudyn's mass matrix, ODE2 LHS and mass-weighted position Jacobian with mbs.ComputeItem and writes
joint-runtime/src/superelement/ffrf_reference.json: the object's data as mbs.GetObject emits it (matrices
dense), the states (total frame coordinates) and the outputs; plus one state with computeFFRFterms=False.

Run from the repository root:  python3 tools/reference/make_ffrf_item_data.py
"""
import json
import os

import numpy as np
import exudyn as exu
from exudyn.itemInterface import NodeRigidBodyEP, NodeGenericODE2, ObjectFFRFreducedOrder
from exudyn.rigidBodyUtilities import ComputeSkewMatrix

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'joint-runtime', 'src', 'superelement',
                   'ffrf_reference.json')
N_MODES = 3
REF_FRAME = [0.1, -0.2, 0.3, 1.0, 0.0, 0.0, 0.0]   # reference coordinates of the EP node

rng = np.random.default_rng(20240613)

# --- full FE data (spec §9) ---------------------------------------------------------------------------------
x = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.3, 0.8]], dtype=float)
nn = len(x)
Mf = 0.5 * np.eye(3 * nn)
Kf = np.zeros((3 * nn, 3 * nn))
for i in range(nn):
    for j in range(i + 1, nn):
        e = x[j] - x[i]
        e /= np.linalg.norm(e)
        k = 2000.0 * np.outer(e, e)
        for a, b, s in ((i, i, 1), (j, j, 1), (i, j, -1), (j, i, -1)):
            Kf[3 * a:3 * a + 3, 3 * b:3 * b + 3] += s * k

# --- mode basis: supported structure (ground springs at nodes 0 and 1) --------------------------------------
Ks = Kf.copy()
for n in (0, 1):
    Ks[3 * n:3 * n + 3, 3 * n:3 * n + 3] += 500.0 * np.eye(3)
_, V = np.linalg.eigh(Ks / 0.5)      # Mf = 0.5 I: a standard eigenproblem
Psi = V[:, :N_MODES].copy()

# --- constants as in FEM.ObjectFFRFreducedOrderInterface ----------------------------------------------------
Phit = np.kron(np.ones(nn), np.eye(3)).T
xRef = x.flatten()
xRefTilde = ComputeSkewMatrix(xRef)
PsiTilde = ComputeSkewMatrix(Psi)
mass = (Phit.T @ Mf @ Phit)[0, 0]
chi = Phit.T @ Mf @ xRef / mass
inertia = xRefTilde.T @ Mf @ xRefTilde
Mred = Psi.T @ Mf @ Psi
Kred = Psi.T @ Kf @ Psi + 5.0 * rng.standard_normal((N_MODES, N_MODES))   # non-symmetric on purpose
Dred = 0.01 * Kred + 0.3 * rng.standard_normal((N_MODES, N_MODES))        # non-symmetric on purpose
consts = dict(
    mPsiTildePsi=PsiTilde.T @ Mf @ Psi,
    mPsiTildePsiTilde=PsiTilde.T @ Mf @ PsiTilde,
    mPhitTPsi=Phit.T @ Mf @ Psi,
    mPhitTPsiTilde=Phit.T @ Mf @ PsiTilde,
    mXRefTildePsi=xRefTilde.T @ Mf @ Psi,
    mXRefTildePsiTilde=xRefTilde.T @ Mf @ PsiTilde,
)


def container(a):
    c = exu.MatrixContainer()
    c.SetWithDenseMatrix(a, useDenseMatrix=True)
    return c


SC = exu.SystemContainer()
mbs = SC.AddSystem()
nR = mbs.AddNode(NodeRigidBodyEP(referenceCoordinates=REF_FRAME))
nG = mbs.AddNode(NodeGenericODE2(numberOfODE2Coordinates=N_MODES, referenceCoordinates=[0] * N_MODES,
                                 initialCoordinates=[0] * N_MODES, initialCoordinates_t=[0] * N_MODES))
oF = mbs.AddObject(ObjectFFRFreducedOrder(
    nodeNumbers=[nR, nG], massMatrixReduced=container(Mred), stiffnessMatrixReduced=container(Kred),
    dampingMatrixReduced=container(Dred), modeBasis=Psi, referencePositions=xRef,
    mass=mass, inertia=inertia, centerOfMass=chi, computeFFRFterms=True, **consts))
mbs.Assemble()


def dense(v):
    """MatrixContainer / ndarray / sparse-triplet dict → nested lists (dense)."""
    if isinstance(v, exu.MatrixContainer):
        v = v.GetPythonObject()
    if isinstance(v, dict):
        a = np.zeros((v['numberOfRows'], v['numberOfColumns']))
        for r, c, val in v['triplets']:
            a[int(r), int(c)] += val
        v = a
    return np.asarray(v, dtype=float).tolist()


obj = mbs.GetObject(oF)
keys = ['mass', 'centerOfMass', 'inertia', 'massMatrixReduced', 'stiffnessMatrixReduced',
        'dampingMatrixReduced', 'mPsiTildePsi', 'mPsiTildePsiTilde', 'mPhitTPsi', 'mPhitTPsiTilde',
        'mXRefTildePsi', 'mXRefTildePsiTilde', 'modeBasis', 'referencePositions']
data = {k: (float(obj[k]) if k == 'mass' else dense(obj[k])) for k in keys}
data['computeFFRFterms'] = bool(obj['computeFFRFterms'])
data['nodeReferenceCoordinates'] = REF_FRAME

# --- independent numpy check of spec §2.4 (so that a spec/Exudyn mismatch shows up here already) --------------
def skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def ep_rotation(e):
    e0, e1, e2, e3 = e
    return np.array([
        [-2 * e3 ** 2 - 2 * e2 ** 2 + 1, -2 * e3 * e0 + 2 * e2 * e1, 2 * e3 * e1 + 2 * e2 * e0],
        [2 * e3 * e0 + 2 * e2 * e1, -2 * e3 ** 2 - 2 * e1 ** 2 + 1, 2 * e3 * e2 - 2 * e1 * e0],
        [-2 * e2 * e0 + 2 * e3 * e1, 2 * e3 * e2 + 2 * e1 * e0, -2 * e2 ** 2 - 2 * e1 ** 2 + 1]])


def spec_model(qf, vf, z, zt):
    A = ep_rotation(qf[3:])
    e0, e1, e2, e3 = qf[3:]
    G = 2 * np.array([[-e1, e0, e3, -e2], [-e2, -e3, e0, e1], [-e3, e2, -e1, e0]])
    w = G @ vf[3:]
    c = {k: np.array(v) for k, v in consts.items()}
    Z = np.kron(z.reshape(-1, 1), np.eye(3))
    Zt = np.kron(zt.reshape(-1, 1), np.eye(3))
    Om = np.kron(np.eye(N_MODES), w.reshape(-1, 1))
    C = mass * skew(chi) + c['mPhitTPsiTilde'] @ Z
    Jrr = inertia + c['mXRefTildePsiTilde'] @ Z + (c['mXRefTildePsiTilde'] @ Z).T + Z.T @ c['mPsiTildePsiTilde'] @ Z
    n = 7 + N_MODES
    M = np.zeros((n, n))
    M[:3, :3] = mass * np.eye(3)
    M[:3, 3:7] = -A @ C @ G
    M[:3, 7:] = A @ c['mPhitTPsi']
    M[3:7, 3:7] = G.T @ Jrr @ G
    M[3:7, 7:] = -G.T @ (c['mXRefTildePsi'] + Z.T @ c['mPsiTildePsi'])
    M[7:, 7:] = Mred
    M[3:7, :3] = M[:3, 3:7].T
    M[7:, :3] = M[:3, 7:].T
    M[7:, 3:7] = M[3:7, 7:].T
    L = np.zeros(n)
    L[:3] = -A @ skew(w) @ C @ w - 2 * A @ c['mPhitTPsiTilde'] @ Zt @ w
    L[3:7] = G.T @ skew(w) @ Jrr @ w + 2 * G.T @ (c['mXRefTildePsiTilde'] @ Zt + Z.T @ c['mPsiTildePsiTilde'] @ Zt) @ w
    L[7:] = (Kred @ z + Dred @ zt - Om.T @ (c['mXRefTildePsiTilde'].T + c['mPsiTildePsiTilde'] @ Z) @ w
             - 2 * c['mPsiTildePsi'].T @ Zt @ w)
    J = np.hstack([mass * np.eye(3), -A @ skew(mass * chi) @ G, A @ c['mPhitTPsi']])
    return M, L, J


def evaluate(st):
    """Set the state, return Exudyn's (mass matrix, ODE2 LHS, mass-weighted position Jacobian)."""
    q = np.concatenate([st['q_frame'] - np.array(REF_FRAME), st['zeta']])   # ODE2 coordinates: displacements
    q_t = np.concatenate([st['v_frame'], st['zeta_t']])
    mbs.systemData.SetODE2Coordinates(q.tolist(), configuration=exu.ConfigurationType.Current)
    mbs.systemData.SetODE2Coordinates_t(q_t.tolist(), configuration=exu.ConfigurationType.Current)
    return tuple(np.array(mbs.ComputeItem(oF, what)) for what in (
        exu.ComputeItemType.MassMatrix, exu.ComputeItemType.ODE2LHS,
        exu.ComputeItemType.MassWeightedPositionJacobian))


def record(st, M, L, J):
    return dict({k: np.asarray(v).tolist() for k, v in st.items()}, mass_matrix=M.tolist(), lhs=L.tolist(),
                mass_weighted_position_jacobian=J.tolist())


inputs = []
for s in range(3):
    theta = np.array([1.0, 0, 0, 0]) + 0.6 * rng.standard_normal(4)   # non-unit Euler parameters
    inputs.append(dict(q_frame=np.concatenate([rng.standard_normal(3), theta]), v_frame=rng.standard_normal(7),
                       zeta=0.2 * rng.standard_normal(N_MODES), zeta_t=rng.standard_normal(N_MODES)))

states = []
worst = 0.0
for st in inputs:
    Mx, Lx, Jx = evaluate(st)
    Ms, Ls, Js = spec_model(st['q_frame'], st['v_frame'], st['zeta'], st['zeta_t'])
    for a, b in ((Mx, Ms), (Lx, Ls), (Jx, Js)):
        worst = max(worst, np.abs(a - b).max() / np.abs(b).max())
    states.append(record(st, Mx, Lx, Jx))
print(f'numpy model of spec §2.4 vs Exudyn {exu.__version__}: max relative error {worst:.2e}')
assert worst < 1e-13, 'spec §2.4 does not reproduce Exudyn'

# computeFFRFterms=False (no user functions): 1.13.6 then gives a zero mass matrix and a zero LHS - K_red and
# D_red act only together with the FFRF terms (spec §2.4 says otherwise); the mass-weighted Jacobian is unchanged.
mbs.SetObjectParameter(oF, 'computeFFRFterms', False)
mbs.Assemble()
states_without = [record(inputs[0], *evaluate(inputs[0]))]
assert not np.any(states_without[0]['mass_matrix']) and not np.any(states_without[0]['lhs'])

with open(OUT, 'w') as f:
    json.dump(dict(exudyn_version=exu.__version__, modes=N_MODES, data=data, states=states,
                   states_without_ffrf_terms=states_without), f, indent=1)
print('wrote', os.path.normpath(OUT))
