"""Group a flat `perf report --no-children --stdio` profile of jointsim by what the time is spent on
(docs/performance.md). Usage:

    perf record -o p.data target/release/jointsim run chain_1000.json --out /tmp/r.json --quiet
    perf report -i p.data --no-children --stdio | python3 tools/bench/profile_groups.py
"""
import sys,re
groups={'LU factorization (faer, replayed, dense, block elimination)':['factorize_simplicial','PivotReplay::refactorize','PivotReplay::record','PivotReplay::eliminate_from','SparseLu::factorize','DenseLu::factorize','LinearSystem::factorize','DenseInverse::compute_from','BlockLu::factorize','block_lu::invert_in_place','BlockLu::new'],'LU solves (dense, replayed sparse, block)':['solve_in_place_with_conj','permute_rows','new_checked','check_row_idx','check_col_ptr','solve_in_place','DenseInverse'],
'rigid bodies: mass matrix, LHS, G, FD Jacobian':['rigid_mass_matrix','rigid_mass_theta','rigid_lhs','rigid_g_local','rigid_state','add_mass_times','add_mass_matrix','add_body_jacobians_fd','rigid_newton_euler','newton_euler_residual','ode2_rhs'],
# loads first: their marker kernel (position_jacobian_t_times) would match the joints' 'position_jacobian'
'loads (gravity)':['load_vector_local','add_load','marker_kinematics::position_jacobian_t_times'],
'joints: kernels, C_q blocks, reactions, EP constraints':['spherical','add_constraint_blocks','add_reaction_forces','reaction_forces','position_jacobian','marker_kinematics','pairing','constraint_residual','angular_velocity','rotation'],
'sparse assembly (matrix adds)':['SparseMatrix'],}
tot={k:0.0 for k in groups}; other=0
for line in sys.stdin:
    m=re.match(r'\s+([0-9.]+)%.*\[\.\]\s+(.*)',line)
    if not m: continue
    p=float(m.group(1)); sym=m.group(2)
    for k,v in groups.items():
        if any(x in sym for x in v): tot[k]+=p; break
    else: other+=p
for k,v in tot.items(): print(f'{v:5.1f}%  {k}')
print(f'{other:5.1f}%  other (Newton bookkeeping, memset, kernel)')
