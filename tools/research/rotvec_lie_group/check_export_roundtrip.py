"""Check that tools/exudyn_export.py writes the new items faithfully: rebuild every model file of
DIR (default /tmp/rotcoord_lg_cases, written by
tools/reference/make_rotation_coordinate_and_lie_group_cases.py) with exudyn_export.rebuild, solve
it again with pip Exudyn and compare with the stored NAME.ref.json (coordinates, statistics,
sensors).  Also prints the exported dictionaries of NodeRigidBodyRotVecLG and
MarkerNodeRotationCoordinate and the Lie-group settings.

    python3 check_export_roundtrip.py [DIR]
"""
import glob
import json
import os
import sys

import numpy as np
import exudyn as exu

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from exudyn_export import rebuild  # noqa: E402


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else '/tmp/rotcoord_lg_cases'
    shown = set()
    bad = 0
    for f in sorted(glob.glob(os.path.join(d, '*.ref.json'))):
        name = os.path.basename(f)[:-9]
        model = json.load(open(os.path.join(d, name + '.json')))
        ref = json.load(open(f))
        for item in model['nodes'] + model['markers']:
            t = item.get('nodeType', item.get('markerType'))
            if t in ('RigidBodyRotVecLG', 'NodeRotationCoordinate') and t not in shown:
                shown.add(t)
                print('exported', t, json.dumps(item))
        if 'settings' not in shown:
            shown.add('settings')
            ti = model['simulationSettings']['timeIntegration']
            print('exported settings: explicit =', ti['explicit'], ' generalizedAlpha lieGroup* =',
                  {k: v for k, v in ti['generalizedAlpha'].items() if k.startswith('lieGroup')})
        SC, mbs, s = rebuild(model, assemble=True)
        st = getattr(exu.DynamicSolverType, model['dynamicSolverType'])
        mbs.SolveDynamic(s, solverType=st)
        it = mbs.sys['dynamicSolver'].it
        dq = np.abs(np.array(mbs.systemData.GetODE2Coordinates()) - ref['ode2Coordinates']).max()
        same_stats = (int(it.newtonStepsCount), int(it.newtonJacobiCount), int(it.currentStepIndex) - 1) == \
            (ref['statistics']['newtonIterations'], ref['statistics']['jacobianEvaluations'], ref['statistics']['steps'])
        ds = 0.
        for sref in ref['sensors']:
            v = mbs.GetSensorStoredData(sref['index'])
            ds = max(ds, np.abs(np.array(v) - np.array(sref['values'])).max())
        ok = dq == 0. and ds == 0. and same_stats
        bad += not ok
        print(f'{name:42s} {"OK " if ok else "DIFF"} |dq| {dq:.1e} |dsensor| {ds:.1e} same statistics {same_stats}')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
