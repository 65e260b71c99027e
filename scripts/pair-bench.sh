#!/usr/bin/env bash
# Builds one pair of tables again and again with two dtb binaries,
# interleaved, and prints each run's seconds for its WDL/DTW and its .dtc
# files (as the build's log gives them): a side-by-side timing of a solver
# change on one pair, on a machine whose speed drifts between runs.
#
#   scripts/pair-bench.sh VARIANT SIGNATURE DIR RUNS DTB_A DTB_B [gen options]
#
# DIR holds the tables the pair converts into (built with --dtc). The
# pair's own files in DIR (and its scratch under DIR/.dtb-work) are
# removed before every run; two threads each. Example:
#   scripts/pair-bench.sh russian KKKKMvK /data/r6 3 ./dtb-before ./dtb-after
set -euo pipefail
if [[ $# -lt 6 ]]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
variant=$1 sig=$2 dir=$3 runs=$4 a=$5 b=$6
shift 6
mirror="${sig#*v}v${sig%%v*}"
printf '%-8s %12s %12s\n' binary "WDL/DTW s" ".dtc s"
for ((i = 1; i <= runs; ++i)); do
  for bin in "$a" "$b"; do
    rm -f "$dir/$variant-$sig".{wdl,dtw,dtc,json} "$dir/$variant-$mirror".{wdl,dtw,dtc,json}
    rm -rf "$dir/.dtb-work/$variant-$sig".* "$dir/.dtb-work/$variant-$mirror".*
    log=$("$bin" gen --variant "$variant" --only "$sig" --threads 2 --dtc --dir "$dir" "$@" 2>/dev/null)
    wdl=$(grep -E "^$sig " <<<"$log" | grep "index waste" | awk '{print $(NF-1)}')
    dtc=$(grep -E "^$sig " <<<"$log" | grep "bytes .dtc" | awk '{print $(NF-1)}')
    printf '%-8s %12s %12s\n' "$(basename "$bin")" "$wdl" "$dtc"
  done
done
