#!/usr/bin/env bash
# The test suite: builds dtb twice (optimised, and with AddressSanitizer +
# UndefinedBehaviorSanitizer) and runs every test not labelled "slow" in
# both. Deep perft and big generations live in scripts/slow-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=ON
cmake --build build -j "$jobs"
ctest --test-dir build -LE slow --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTB_TESTS=ON -DDTB_SANITIZE=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -LE "slow|nosan" --output-on-failure -j "$jobs"
echo "all tests passed"
