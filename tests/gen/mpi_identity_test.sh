#!/usr/bin/env bash
# mpirun -np 3 dtb gen writes the same table files as one process does
# (docs/GENERATOR.md, "Many machines"), and a second run over the same
# directory finds nothing to do.
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
  "$dtb" gen --variant "$name" --pieces "$pieces" --dir "$work/one" --threads 1 > /dev/null
  "$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant "$name" --pieces "$pieces" --dir "$work/three" --threads 1 \
    > "$work/three.log"
done
one=$(cd "$work/one" && ls ./*.wdl ./*.dtw | sort)
three=$(cd "$work/three" && ls ./*.wdl ./*.dtw | sort)
[ "$one" = "$three" ] || { echo "not the same set of files"; diff <(echo "$one") <(echo "$three"); exit 1; }
for f in $one; do
  cmp "$work/one/$f" "$work/three/$f" || { echo "$f differs"; exit 1; }
done
[ ! -e "$work/three/.dtb-work" ] || [ -z "$(ls -A "$work/three/.dtb-work")" ] || { echo "scratch files left"; exit 1; }
again=$("$mpiexec" --oversubscribe -np 3 "$dtb" gen --variant russian --pieces 4 --dir "$work/three" --threads 1)
[ "$again" = "nothing to do: every table is already in $work/three" ] || { echo "second run: $again"; exit 1; }
echo "OK: $(echo "$one" | wc -l) files identical with 1 and 3 processes"
