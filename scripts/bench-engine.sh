#!/usr/bin/env bash
# The example engine (examples/engine) on its fixed set of positions
# (examples/engine/bench.cpp): nodes per second searching without the
# tables and with WDL probes inside the search, the probes per second, the
# share of them answered, and the share answered at once from memory. Each
# run searches every position to a fixed number of nodes; the script prints
# the median of the runs.
#   scripts/bench-engine.sh TABLE_DIR [nodes per position] [runs] [variant]
#   scripts/bench-engine.sh /data/russian-6 1000000 5
# The tables should go up to 6 pieces (the positions have 7 to 9, so that
# captures lead into them). Needs a Release build in build/ with dtb-engine.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/bench-engine.sh TABLE_DIR [nodes per position] [runs] [variant]}
nodes=${2:-1000000}
runs=${3:-3}
variant=${4:-russian}
engine=build/bin/dtb-engine
[ -x "$engine" ] || { echo "build dtb-engine first: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target dtb-engine" >&2; exit 2; }

field() {  # json section key
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d.get(sys.argv[2], {}).get(sys.argv[3], 0))' "$1" "$2" "$3"
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

off=() on=() probes=() share=() memory=()
for _ in $(seq "$runs"); do
  json=$("$engine" --bench --variant "$variant" --dir "$dir" --nodes "$nodes" --json)
  off+=("$(field "$json" without_tables nodes_per_second)")
  on+=("$(field "$json" with_tables nodes_per_second)")
  probes+=("$(field "$json" with_tables probes_per_second)")
  asked=$(field "$json" with_tables probes)
  answered=$(field "$json" with_tables probes_answered)
  share+=("$(awk -v a="$answered" -v n="$asked" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')")
  at_once=$(field "$json" with_tables probes_from_memory)
  memory+=("$(awk -v a="$at_once" -v n="$asked" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')")
done
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; one search thread"
echo "$variant, $nodes nodes per position, tables in $dir (median of $runs runs)"
printf 'without tables: %10.0f nodes/s   (runs: %s)\n' "$(printf '%s\n' "${off[@]}" | median)" "${off[*]}"
printf 'with tables:    %10.0f nodes/s   (runs: %s)\n' "$(printf '%s\n' "${on[@]}" | median)" "${on[*]}"
printf 'WDL probes:     %10.0f probes/s  (runs: %s)\n' "$(printf '%s\n' "${probes[@]}" | median)" "${probes[*]}"
printf 'answered:       %10s %%        (runs: %s)\n' "$(printf '%s\n' "${share[@]}" | median)" "${share[*]}"
printf 'from memory:    %10s %%        (runs: %s; answered at once by the search-time probe)\n' "$(printf '%s\n' "${memory[@]}" | median)" "${memory[*]}"
