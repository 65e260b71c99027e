#!/usr/bin/env bash
# Fuzzes the text parsers, the server's request reader and the table reader: builds the libFuzzer targets
# of tests/fuzz with clang (in build-fuzz/) and runs each for the given
# number of seconds (default 60), then reports executions and what was
# found. The table target also needs valid tables up to 3 pieces, which the
# script generates into build-fuzz/fuzz-tables with that build's dtb.
#
#   scripts/fuzz.sh [seconds] [target...]     (targets: fen move pdn query table; default all)
#
# New interesting inputs go to build-fuzz/fuzz-corpus/<target>/ (the seeds
# in tests/fuzz/corpus/ stay as they are: copy an input there by hand to
# keep it). An input that breaks an invariant or crashes is saved as
# build-fuzz/fuzz-findings/<target>/<time of the run>/crash-*; replay it with
#   build-fuzz/bin/fuzz_<target> FILE
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fen move pdn query table)
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDTB_FUZZ=ON -DDTB_TESTS=ON -DDTB_WERROR=ON >/dev/null
cmake --build build-fuzz -j "$jobs" --target "${targets[@]/#/fuzz_}" dtb
cmake -DDTB=build-fuzz/bin/dtb -DDIR=build-fuzz/fuzz-tables -DSETS=russian:3,international:3 \
  -P tests/probe/make_tables.cmake >/dev/null
export DTB_FUZZ_TABLES=$PWD/build-fuzz/fuzz-tables

failed=0
summary=""
run=$(date +%Y%m%d-%H%M%S)
for target in "${targets[@]}"; do
  corpus=build-fuzz/fuzz-corpus/$target
  findings=build-fuzz/fuzz-findings/$target/$run
  log=build-fuzz/fuzz-$target.log
  mkdir -p "$corpus" "$findings"
  echo "fuzzing $target for ${seconds}s (log: $log)"
  status=0
  extra=()
  if [ -f tests/fuzz/$target.dict ]; then extra+=(-dict=tests/fuzz/$target.dict); fi
  if [ "$target" = table ]; then extra+=(-max_len=16384); fi
  build-fuzz/bin/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    "${extra[@]}" -artifact_prefix="$findings/" -print_final_stats=1 \
    "$corpus" tests/fuzz/corpus/$target >"$log" 2>&1 || status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  found=$(find "$findings" -type f | wc -l)
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    failed=1
    summary+="$target: FOUND A PROBLEM after $runs runs; see $log and $findings/"$'\n'
    grep -m 3 -E 'invariant broken|ERROR: |runtime error|deadly signal|timeout' "$log" | sed 's/^/    /' || true
  else
    summary+="$target: $runs runs in ${seconds}s, nothing found, corpus $(ls "$corpus" | wc -l) inputs"$'\n'
  fi
done
printf "\n%s" "$summary"
exit $failed
