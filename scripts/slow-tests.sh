#!/usr/bin/env bash
# The slow tests: deep perft (and anything else labelled "slow"), which the
# everyday test command (scripts/test.sh) skips. Optimised build only: under
# the sanitizers they would take hours. Minutes in all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=ON
cmake --build build -j "$jobs"
ctest --test-dir build -L slow --output-on-failure -j "$jobs"
echo "all slow tests passed"
