#!/usr/bin/env bash
# Perft speed, single thread, from both initial positions (bulk counting at
# the last ply). Runs each case several times and prints the median nodes
# per second; the node counts double as a regression check.
#   scripts/bench-perft.sh [runs]        (default 5 runs)
# Needs a Release build in build/ (cmake -S . -B build && cmake --build build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
dtb=build/bin/dtb
[ -x "$dtb" ] || { echo "build dtb first: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build" >&2; exit 2; }

bench() {  # variant depth expected-nodes
  local variant=$1 depth=$2 expected=$3 rates=()
  for _ in $(seq "$runs"); do
    local json nodes seconds
    json=$("$dtb" perft --variant "$variant" --depth "$depth" --json)
    nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' <<<"$json")
    seconds=$(sed -E 's/.*"seconds":([0-9.e+-]+).*/\1/' <<<"$json")
    if [ "$nodes" != "$expected" ]; then echo "REGRESSION: $variant perft($depth) = $nodes, expected $expected" >&2; exit 1; fi
    rates+=("$(awk -v n="$nodes" -v s="$seconds" 'BEGIN { printf "%.1f", n / s / 1e6 }')")
  done
  local median
  median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
  printf '%-14s perft(%2d) = %11s nodes   median %7.1f M nodes/s   (runs: %s)\n' \
    "$variant" "$depth" "$expected" "$median" "${rates[*]}"
}

bench russian 12 544770444
bench international 11 1665861398
