#!/usr/bin/env bash
# mpirun -np 3 dtb gen writes the same table files as one process does
# (docs/GENERATOR.md, "Many machines"), both when each pair goes whole to one
# process and when every pair is split between the three (--split-above 0),
# and so does mpirun -np 3 dtb gen --dtc (each .dtc pair whole to one process)
# and --format 3 split (the processes leave out the same sides),
# a run killed mid-slice is recovered by running it again, and a second run
# over the same directory finds nothing to do.
#   tests/gen/mpi_identity_test.sh DTB MPIEXEC
set -euo pipefail
dtb=$1
mpiexec=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Open MPI refuses to start as root unless told that it is meant.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

for variant in russian:4 international:3; do
  name=${variant%%:*}
  pieces=${variant##*:}
  "$dtb" gen --variant "$name" --pieces "$pieces" --dir "$work/one" --threads 1 --dtc > /dev/null
  "$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant "$name" --pieces "$pieces" --dir "$work/three" --threads 1 \
    --dtc > "$work/three.log"
  "$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant "$name" --pieces "$pieces" --dir "$work/split" --threads 1 \
    --split-above 0 > "$work/split.log"
done
one=$(cd "$work/one" && ls ./*.wdl ./*.dtw | sort)
for run in three split; do
  other=$(cd "$work/$run" && ls ./*.wdl ./*.dtw | sort)
  [ "$one" = "$other" ] || { echo "$run: not the same set of files"; diff <(echo "$one") <(echo "$other"); exit 1; }
  for f in $one; do
    cmp "$work/one/$f" "$work/$run/$f" || { echo "$run: $f differs"; exit 1; }
  done
  [ ! -e "$work/$run/.dtb-work" ] || [ -z "$(ls -A "$work/$run/.dtb-work")" ] || { echo "$run: scratch files left"; exit 1; }
done
dtc=$(cd "$work/one" && ls ./*.dtc | sort)
[ "$dtc" = "$(cd "$work/three" && ls ./*.dtc | sort)" ] || { echo "three: not the same .dtc files"; exit 1; }
for f in $dtc; do
  cmp "$work/one/$f" "$work/three/$f" || { echo "three: $f differs"; exit 1; }
done
# Format 3 leaves out the side of each pair whose WDL file is larger: with
# every pair split between three processes, each writing one side, the
# processes must choose the same side.
"$dtb" gen --variant russian --pieces 4 --dir "$work/one3" --threads 1 --format 3 > /dev/null
"$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant russian --pieces 4 --dir "$work/split3" --threads 1 \
  --split-above 0 --format 3 > /dev/null
one3=$(cd "$work/one3" && ls ./*.wdl ./*.dtw | sort)
[ "$one3" = "$(cd "$work/split3" && ls ./*.wdl ./*.dtw | sort)" ] || { echo "format 3: not the same files"; exit 1; }
for f in $one3; do
  cmp "$work/one3/$f" "$work/split3/$f" || { echo "format 3 split: $f differs"; exit 1; }
done
[ ! -e "$work/split3/.dtb-work" ] || { echo "format 3 split: scratch files left"; exit 1; }
# A run killed while the parts of a slice are being written is recovered by
# running the same command again.
# (In a session of its own, so that every process of the run is killed, and
# gone before the run is started again.)
setsid "$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant russian --pieces 4 --dir "$work/killed" --threads 1 \
  --split-above 0 > /dev/null 2>&1 &
run=$!
killed=no
for _ in $(seq 1 3000); do
  if compgen -G "$work/killed/.dtb-work/*/level-*.part-*" > /dev/null; then
    kill -KILL -- "-$run"
    killed=yes
    break
  fi
  sleep 0.01
done
{ wait "$run"; } 2> /dev/null || true
while pgrep -s "$run" > /dev/null; do sleep 0.1; done
[ "$killed" = yes ] || { echo "the run ended before any part of a slice was written"; exit 1; }
"$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant russian --pieces 4 --dir "$work/killed" --threads 1 \
  --split-above 0 > /dev/null
for f in $(cd "$work/killed" && ls ./*.wdl ./*.dtw); do
  cmp "$work/one/$f" "$work/killed/$f" || { echo "after the kill: $f differs"; exit 1; }
done
[ "$(cd "$work/killed" && ls ./*.wdl ./*.dtw | wc -l)" = "$(cd "$work/one" && ls ./russian-*.wdl ./russian-*.dtw | wc -l)" ] ||
  { echo "after the kill: files missing"; exit 1; }

again=$("$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant russian --pieces 4 --dir "$work/three" --threads 1)
[ "$again" = "nothing to do: every table is already in $work/three" ] || { echo "second run: $again"; exit 1; }
echo "OK: $(echo "$one" | wc -l) files identical with 1 and 3 processes, pairs whole or split"
