#!/usr/bin/env bash
# dtc-crosscheck.sh DIR [VARIANT] [PIECES] [SAMPLES] [SEED]: on random
# positions of the PIECES-piece tables in DIR (with their .wdl, .dtw and
# .dtc files, those of every smaller table too), or of the one table PIECES
# names (a signature such as KKKMvKK), at random counts, dtb
# adjudicate must answer exactly from the .dtc tables, and agree with the
# bounded search over WDL and DTW alone wherever that search settles it
# (tests/rules_oracle/dtc_crosscheck.cpp), and give the same answers with
# every king block solved whole. Exit status 1 on any disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/dtc-crosscheck.sh DIR [VARIANT] [PIECES] [SAMPLES] [SEED]}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=ON > /dev/null
cmake --build build --target dtc_crosscheck -j "$(nproc)" > /dev/null
build/bin/dtc_crosscheck "$dir" "${2:-russian}" "${3:-5}" "${4:-6000}" "${5:-1}"
