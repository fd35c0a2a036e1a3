"""perf3DRigidBodies with its 400 JointRevoluteZ made ObjectJointGeneric: one model free about z
(`constrainedAxes` [1,1,1,1,1,0], the same motion) and one with every axis locked. Timed before
and after the runtime's narrower definitions for ObjectJointGeneric (docs/performance.md).

    python3 tools/bench/generic_models.py /tmp
    farm-bench --vs 'OLD run /tmp/perf3D_generic_revolute.json --solver fast --out /tmp/a.json --quiet' \
        -- target/release/jointsim run /tmp/perf3D_generic_revolute.json --solver fast --out /tmp/b.json --quiet
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, '..', '..', 'tests', 'reference', 'benchmarks', 'perf3DRigidBodies.json')


def main(out_dir):
    for name, axes in [('generic_revolute', [1, 1, 1, 1, 1, 0]), ('generic_fixed', [1] * 6)]:
        with open(SOURCE) as f:
            model = json.load(f)
        for o in model['objects']:
            if o['objectType'] == 'JointRevoluteZ':
                o['objectType'] = 'JointGeneric'
                o['constrainedAxes'] = axes
                for key in ['VaxisRadius', 'VaxisLength']:
                    o.pop(key, None)
        path = os.path.join(out_dir, f'perf3D_{name}.json')
        with open(path, 'w') as f:
            json.dump(model, f)
        print(path)


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '.')
