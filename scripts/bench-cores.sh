#!/usr/bin/env bash
# Generation on a machine with many cores: the speed-up of threads and of
# MPI processes (BENCHMARKS.md, "Generation": 16 cores and MPI).
#   scripts/bench-cores.sh DTB VARIANT PIECES PAIR DIR THREADS NP [COUNTS]
# e.g. scripts/bench-cores.sh build/bin/dtb russian 6 KMvKKMM /tmp/cores 16 4 "2 4 8 16"
#  1. every table up to PIECES, one process with THREADS threads (DIR/threads);
#  2. the same set with mpirun -np NP, THREADS/NP threads each (DIR/mpi),
#     every .wdl/.dtw compared byte for byte with step 1's;
#  3. PAIR alone, its smaller tables taken from step 1, with one thread and
#     each number of threads in COUNTS (default THREADS): bench-gen.sh --scaling.
# DTB must be built with MPI for step 2 (mpirun from PATH). Wall time from
# the clock, CPU time and peak memory of the processes from getrusage.
set -euo pipefail
[ $# -ge 7 ] || { sed -n 2,12p "$0" >&2; exit 2; }
dtb=$(realpath "$1") variant=$2 pieces=$3 pair=$4 dir=$(realpath -m "$5") threads=$6 np=$7 counts=${8:-$6}
mkdir -p "$dir"

measure() {  # label, command...: prints wall, CPU, peak RSS of the largest process
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
wall = time.monotonic() - start
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{label}: wall {wall:.1f} s, CPU {use.ru_utime + use.ru_stime:.0f} s,"
      f" peak RSS {use.ru_maxrss / 1024:.0f} MiB, exit {done.returncode}", flush=True)
sys.exit(done.returncode)
PY
}

positions() {  # dir: positions in its manifests, each counted once
  python3 -c "import glob,json,sys; print(sum(json.load(open(f))['positions'] for f in glob.glob(sys.argv[1]+'/*.json')))" "$1"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $("$dtb" --version 2>&1 | head -1)"

rm -rf "$dir/threads" "$dir/mpi"
measure "$variant <= $pieces, 1 process x $threads threads" \
  "$dtb" gen --variant "$variant" --pieces "$pieces" --dir "$dir/threads" --threads "$threads"
echo "positions: $(positions "$dir/threads") (each counted once)"

measure "$variant <= $pieces, mpirun -np $np x $((threads / np)) threads" \
  mpirun -np "$np" --bind-to none --mca btl_vader_single_copy_mechanism none \
  "$dtb" gen --variant "$variant" --pieces "$pieces" --dir "$dir/mpi" --threads $((threads / np))
same=0
for f in "$dir"/threads/*.wdl "$dir"/threads/*.dtw; do
  cmp -s "$f" "$dir/mpi/$(basename "$f")" && same=$((same + 1)) || echo "differs: $(basename "$f")"
done
echo "byte-identical with one process: $same of $(ls "$dir"/threads/*.wdl "$dir"/threads/*.dtw | wc -l) files"

DTB=$dtb "$(dirname "$0")/bench-gen.sh" --scaling "$variant" "$pair" "$dir/threads" "$counts"
