#!/usr/bin/env bash
# Installs what the tests need when it is missing (the first half of the README's test
# command; .ci/run runs the same command).
#   - pip Exudyn 1.13.6: tests/solution_file.rs reads our solution files with its loader;
#   - tools/js (npm ci): the Khronos glTF validator (tests/scene.rs) and playwright-core
#     (tests/view.rs);
#   - Debian's chromium: tests/view.rs loads `jointsim view` pages in it, headless.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import exudyn" 2>/dev/null || python3 -m pip install --quiet exudyn==1.13.6
if [ ! -x /usr/bin/chromium ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d tools/js/node_modules/gltf-validator ] || [ ! -d tools/js/node_modules/playwright-core ]; then
    (cd tools/js && npm ci --no-audit --no-fund --loglevel=error)
fi
