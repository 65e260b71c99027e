#!/usr/bin/env bash
# Checks the probe against the generator's raw tables on a large random
# sample of positions of the biggest tables, e.g. the 6-piece Russian set
# (checking every position takes too long there):
#
#   scripts/probe-sample.sh TABLE_DIR [SAMPLES] [PIECES] [VARIANT]
#
# TABLE_DIR must hold what `dtb gen --keep-raw` wrote: the .raw files (exact values)
# beside the .wdl/.dtw files the probe reads. Defaults: 2000000 samples of
# the 6-piece Russian tables, all cores. Builds probe_sample in build/ if
# needed. Exit status 0 when every sampled position agrees.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/probe-sample.sh TABLE_DIR [SAMPLES] [PIECES] [VARIANT]}
samples=${2:-2000000}
pieces=${3:-6}
variant=${4:-russian}

if [ ! -x build/bin/probe_sample ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=ON > /dev/null
  cmake --build build -j "$(nproc)" --target probe_sample
fi
build/bin/probe_sample --dir "$dir" --variant "$variant" --pieces "$pieces" --samples "$samples" \
  --threads "$(nproc)" --seed "${SEED:-$RANDOM}"
