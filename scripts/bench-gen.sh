#!/usr/bin/env bash
# Generation benchmark: builds every table of a variant up to N pieces into
# a fresh directory and reports wall time, CPU time, positions per second
# per core, peak resident memory per position of the largest pair in
# flight, and compressed sizes.
#   scripts/bench-gen.sh VARIANT PIECES DIR [THREADS [MORE DTB GEN OPTIONS]]
# e.g. scripts/bench-gen.sh russian 7 /data/r7 2 --memory 2G. A DIR that
# already holds some of the tables (an interrupted run) is resumed; the
# time is then that of this run only.
# Then, for the speed-up from 1 to T threads on one pair whose smaller
# tables are already in DIR:
#   scripts/bench-gen.sh --scaling VARIANT SIGNATURE DIR T
# (T may be a list, "2 4 8 16": then with each of them after one thread.)
# Needs a Release build in build/, or the dtb named by DTB=. The figures it
# prints go to BENCHMARKS.md.
set -euo pipefail
dtb=$(realpath "${DTB:-$(dirname "$0")/../build/bin/dtb}")
cd "$(dirname "$0")/.."
[ -x "$dtb" ] || { echo "build dtb first (cmake -S . -B build && cmake --build build)" >&2; exit 2; }

summary() {  # dir
  python3 - "$1" <<'PY'
import glob, json, sys
rows = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*.json")]
if not rows:
    sys.exit("no manifests in " + sys.argv[1])
positions = sum(r["positions"] for r in rows)
wdl = sum(r["wdl_bytes"] for r in rows)
dtw = sum(r["dtw_bytes"] for r in rows)
def per_position(r):
    return r["peak_rss_bytes"] / r["positions_in_flight"]
largest = max(r["positions_in_flight"] for r in rows)
biggest = max((r for r in rows if r["positions_in_flight"] == largest), key=per_position)
worst = max((r for r in rows if r["positions_in_flight"] >= 1e7), key=per_position, default=None)
print(f"tables: {len(rows)}   positions: {positions:.4g} (each counted once: side to move normalised;"
      f" {2 * positions:.4g} counting both colours)")
for what, r in (("largest pair in flight", biggest), ("most per position (pairs of 1e7 or more)", worst)):
    if r is None:  # a small set has no pair of 1e7 positions
        continue
    print(f"{what}: {r['signature']} {r['positions_in_flight']:.4g} positions, peak {r['peak_rss_bytes'] / 2**20:.0f} MiB"
          f" = {per_position(r):.2f} bytes per position in flight")
print(f"compressed: WDL {wdl * 8 / positions:.3f} bits/position ({wdl / 2**20:.1f} MiB),"
      f" DTW {dtw * 8 / positions:.3f} bits/position ({dtw / 2**20:.1f} MiB)")
PY
}

if [ "${1:-}" = "--scaling" ]; then
  variant=$2 sig=$3 dir=$4 threads=$5
  for t in 1 $threads; do
    work=$(mktemp -d)
    # Every finished table but the pair's.
    for f in "$dir"/*; do ln -s "$(realpath "$f")" "$work/"; done
    base=$(python3 -c "import sys; print(sys.argv[1])" "$sig")
    mirror=$(python3 -c "s=input(); a,b=s.split('v'); print(b+'v'+a)" <<<"$sig")
    rm -f "$work/$variant-$base".* "$work/$variant-$mirror".*
    start=$(date +%s.%N)
    "$dtb" gen --variant "$variant" --only "$sig" --dir "$work" --threads "$t" > /dev/null
    end=$(date +%s.%N)
    secs=$(python3 -c "import json;print(json.load(open('$work/$variant-$base.json'))['seconds'])")
    echo "$sig with $t thread(s): solve $secs s, whole run $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", b-a}') s"
    rm -rf "$work"
  done
  exit 0
fi

variant=$1 pieces=$2 dir=$3 threads=${4:-$(nproc)}
shift $(( $# < 4 ? $# : 4 ))
log=$(mktemp)
/usr/bin/time -v "$dtb" gen --variant "$variant" --pieces "$pieces" --dir "$dir" --threads "$threads" "$@" > /dev/null 2> "$log"
wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}')
user=$(grep "User time" "$log" | awk '{print $NF}')
sys=$(grep "System time" "$log" | awk '{print $NF}')
peak=$(grep "Maximum resident set size" "$log" | awk '{print $NF}')
echo "$variant up to $pieces pieces, $threads threads $*: wall $wall, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.0f", u+s}') s, peak RSS $((peak / 1024)) MiB"
echo "disk: $(du -sb "$dir" | awk '{printf "%.1f MiB", $1 / 2^20}') in $dir (scratch left: $(ls -A "$dir/.dtb-work" 2>/dev/null | wc -l) pairs)"
summary "$dir"
python3 - "$dir" "$user" "$sys" "$threads" <<'PY'
import glob, json, sys
positions = sum(json.load(open(f))["positions"] for f in glob.glob(sys.argv[1] + "/*.json"))
cpu = float(sys.argv[2]) + float(sys.argv[3])
print(f"speed: {positions / cpu / 1e6:.2f} M positions per CPU-second"
      f" ({2 * positions / cpu / 1e6:.2f} M counting both colours)")
PY
rm -f "$log"
