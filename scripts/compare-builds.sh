#!/usr/bin/env bash
# Speed of two builds of dtb side by side, in one run, alternating so that
# the machine's noise falls on both alike: perft (one thread), generation
# of the Russian tables up to 5 pieces (2 threads, from nothing), and warm
# probes (probe_bench on each build's own tables).
#   scripts/compare-builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [runs]   (default 3)
# Each build dir needs bin/dtb; for the probe figures also bin/probe_bench
# (-DDTB_BENCHMARKS=ON). Prints medians and the ratio new/old.
set -euo pipefail
old=$1 new=$2 runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
report() {  # what unit old-values new-values (higher is better: 1) or lower (0)
  local what=$1 unit=$2 higher=$3 o n
  o=$(tr ' ' '\n' <<<"$4" | grep . | median)
  n=$(tr ' ' '\n' <<<"$5" | grep . | median)
  awk -v w="$what" -v u="$unit" -v o="$o" -v n="$n" -v h="$higher" -v ov="$4" -v nv="$5" 'BEGIN {
    r = h ? n / o : o / n
    printf "%-40s old %9.2f  new %9.2f %-10s new is %.3fx %s   (old: %s; new: %s)\n", w, o, n, u, r, "as fast", ov, nv }'
}

perft_rate() {  # build variant depth
  "$1/bin/dtb" perft --variant "$2" --depth "$3" --json |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["nodes"]/j["seconds"]/1e6, 2))'
}
gen_seconds() {  # build dir
  rm -rf "$2"
  local start end
  start=$(date +%s.%N)
  "$1/bin/dtb" gen --variant russian --pieces 5 --threads 2 --dir "$2" > /dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}

for spec in "russian 11" "international 10"; do
  set -- $spec
  o="" n=""
  for _ in $(seq "$runs"); do
    o+="$(perft_rate "$old" "$1" "$2") "
    n+="$(perft_rate "$new" "$1" "$2") "
  done
  report "perft $1 depth $2" "M nodes/s" 1 "$o" "$n"
done

o="" n=""
for i in $(seq "$runs"); do
  o+="$(gen_seconds "$old" "$work/old") "
  n+="$(gen_seconds "$new" "$work/new") "
done
report "gen russian 5 pieces, 2 threads" "s wall" 0 "$o" "$n"

if [ -x "$old/bin/probe_bench" ] && [ -x "$new/bin/probe_bench" ]; then
  filter='WarmQuiet|WarmAny'
  probe_median() {  # build tables
    DTB_BENCH_DIR=$2 "$1/bin/probe_bench" --benchmark_filter="$filter" --benchmark_format=json 2> /dev/null |
      python3 -c '
import json, sys
for b in json.load(sys.stdin)["benchmarks"]:
    print(b["name"], b.get("median_ns", 0))'
  }
  for i in $(seq "$runs"); do
    probe_median "$old" "$work/old" | sed 's/^/old /' >> "$work/probe"
    probe_median "$new" "$work/new" | sed 's/^/new /' >> "$work/probe"
  done
  python3 - "$work/probe" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build, name, ns = line.split()
    runs[(name, build)].append(float(ns))
for name in sorted({n for n, _ in runs}):
    o, n = statistics.median(runs[(name, "old")]), statistics.median(runs[(name, "new")])
    print(f"probe {name:<36} old {o:7.0f} ns  new {n:7.0f} ns   new is {o / n:.3f}x as fast")
PY
fi
