"""Checks of tools/exudyn_export.py with pip Exudyn 1.13.6 (run by tests/exporter.rs):

* a system with a system-level Python user function (mbs.SetPreStepUserFunction, …) is refused,
  naming the function, and no file is left behind;
* a system without one is exported.

Exits non-zero with the reason on the first failure.
"""
import os
import sys
import tempfile

import exudyn as exu
from exudyn.itemInterface import NodePointGround

sys.path.insert(0, os.path.dirname(__file__))
from exudyn_export import SYSTEM_USER_FUNCTIONS, export  # noqa: E402


def system():
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    mbs.AddNode(NodePointGround(referenceCoordinates=[1, 2, 3]))
    return SC, mbs


def main():
    out = os.path.join(tempfile.mkdtemp(prefix='exporter-check-'), 'model.json')
    for name in SYSTEM_USER_FUNCTIONS:
        SC, mbs = system()
        getattr(mbs, "Set" + name + "UserFunction")(lambda *args: True)
        mbs.Assemble()
        try:
            export(mbs, exu.SimulationSettings(), out)
        except ValueError as e:
            if f'mbs.Set{name}UserFunction' not in str(e):
                sys.exit(f'{name}: the refusal does not name the function: {e}')
        else:
            sys.exit(f'{name}: a system with a {name} user function was exported')
        if os.path.exists(out):
            sys.exit(f'{name}: the refused export left {out} behind')
    SC, mbs = system()
    mbs.Assemble()
    export(mbs, exu.SimulationSettings(), out)
    if not os.path.exists(out):
        sys.exit('a system without user functions was not exported')
    print('exporter checks passed:', ', '.join(SYSTEM_USER_FUNCTIONS))


main()
