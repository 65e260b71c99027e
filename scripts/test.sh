#!/usr/bin/env bash
# The test suite, in stages:
#   1. formatting: every C/C++ source matches .clang-format (scripts/check-format.sh);
#   2. an optimised (Release) build and every test not labelled "slow";
#   3. an AddressSanitizer + UndefinedBehaviorSanitizer build and the same
#      tests (those labelled "nosan" aside: too slow instrumented);
#   4. the probe's concurrency test under ThreadSanitizer.
# Deep perft and big generations live in scripts/slow-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-format.sh

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=ON
cmake --build build -j "$jobs"
ctest --test-dir build -LE slow --output-on-failure -j "$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTB_TESTS=ON -DDTB_SANITIZE=ON
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -LE "slow|nosan" --output-on-failure -j "$jobs"
# ThreadSanitizer on the probe: 8 threads on one handle, on the small test
# set (format 3, as tests/probe makes it). The tables are the same files
# whichever build writes them, so the optimised dtb of stage 2 makes them
# and only the test program is built with ThreadSanitizer.
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTB_TESTS=ON -DDTB_TSAN=ON
cmake --build build-tsan -j "$jobs" --target probe_concurrency_test
tsan_tables=build-tsan/probe-tables/small
for set in russian:4 international:3 brazilian:3; do
  build/bin/dtb gen --variant "${set%:*}" --pieces "${set#*:}" --dir "$tsan_tables" --format 3 --keep-raw > /dev/null
done
TSAN_OPTIONS=halt_on_error=1 OMP_NUM_THREADS=1 build-tsan/bin/probe_concurrency_test
echo "all tests passed"
