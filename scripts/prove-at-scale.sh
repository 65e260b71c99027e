#!/usr/bin/env bash
# Builds and verifies a whole table set the way a user would, and says what
# it cost: the proof at scale of BENCHMARKS.md (Russian ≤ 7, international
# ≤ 6 under --memory 2G on a 2-core machine).
#
#   scripts/prove-at-scale.sh VARIANT PIECES DIR [MEMORY [THREADS [GEN OPTIONS...]]]
#   scripts/prove-at-scale.sh --summary DIR
#
# MEMORY defaults to 2G, THREADS to every core; further options go to
# `dtb gen` (e.g. `--dtc` for the rule values, which the verify then checks
# too). Both steps take hours and
# survive an interruption (a killed process, a reboot): run the same
# command again and `dtb gen` goes on from its finished tables and slices,
# `dtb verify` from its journal. Each run of each step is timed; the summary
# adds the runs up.
#
# The records live beside the tables, in DIR.proof/: the dtb binary used
# (copied at the first run, so that rebuilding the checkout does not change
# the program halfway; its commit is in `commit`), and for run N of each
# step its log (STEP-N.log), its times (STEP-N.time, written when it ends:
# wall s, user s, system s, peak KiB, exit status), its start (STEP-N.start,
# seconds since the epoch) and, every 10 seconds while it runs, the same
# read from /proc (STEP-N.live), which is what is left of a run that was
# killed. Then summary.json. While the build runs, the verify runs beside it
# on the pairs it has finished, whenever there are more (every VERIFY_EVERY
# seconds, default 240, at most), so that the journal grows with the set; a
# last verify, of the whole directory, follows the build. The rate counts
# the positions of the tables finished since the first recorded run began.
# The verify's journal is DIR.proof/verify-journal.json. When the last
# verify passes, it also writes DIR.proof/checksums.txt (`dtb verify
# --write-checksums`, docs/FORMAT.md "Checksum lists"): the size and XXH3-64
# of every table file, which `dtb verify --checksums DIR.proof/checksums.txt
# COPY` checks a copy of the set against in the time it takes to read it.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '6,7p' "$0" | sed 's/^# *//' >&2; exit 2; }

summarise() {  # dir proof
  python3 - "$1" "$2" <<'PY'
import glob, json, os, re, subprocess, sys
dir, proof = sys.argv[1], sys.argv[2]

def logs(step):
    """The logs of the runs of a step, in the order they ran."""
    return sorted(glob.glob(os.path.join(proof, step + "-*.log")),
                  key=lambda f: int(re.search(r"-(\d+)\.log$", f).group(1)))

def runs(step):
    """(wall s, user s, system s, peak KiB, exit status or None when it has no end) of each run."""
    out = []
    for log in logs(step):
        base = log[:-len(".log")]
        fields = None
        for name, killed in ((base + ".time", False), (base + ".live", True)):
            if os.path.exists(name):
                lines = [l.split("\t") for l in open(name).read().splitlines() if l.count("\t") == 4]
                if lines:
                    w, u, s, k, x = lines[-1]
                    fields = (float(w), float(u), float(s), int(k), None if killed else int(x))
                    break
        if fields:
            out.append(fields)
    return out

manifest_files = glob.glob(os.path.join(dir, "*.json"))
manifests = [json.load(open(f)) for f in manifest_files]
info = json.loads(subprocess.run([os.path.join(proof, "dtb"), "info", "--dir", dir, "--json", "--quick"],
                                 check=True, capture_output=True, text=True).stdout)
bits = {t["metric"]: t["bits_per_position"] for t in info["totals"]}
disk = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(dir) for f in files)
positions = sum(m["positions"] for m in manifests)
gen, verify = runs("gen"), runs("verify")
gen_cpu = sum(r[1] + r[2] for r in gen)
starts = [float(open(f).read()) for f in glob.glob(os.path.join(proof, "gen-*.start"))]
built = sum(m["positions"] for f, m in zip(manifest_files, manifests)
            if starts and os.path.getmtime(f) >= min(starts))
# How many tables the last verify run passed ("OK: N tables, ..."), if it did.
last_verify_tables = None
verify_logs = logs("verify")
if verify_logs:
    found = re.findall(r"^OK: (\d+) tables", open(verify_logs[-1], errors="replace").read(), re.M)
    last_verify_tables = int(found[-1]) if found else None
summary = {
    "dir": dir,
    "dtb_commit": open(os.path.join(proof, "commit")).read().strip(),
    "tables": len(manifests),
    "positions": positions,
    "gen_runs": len(gen),
    "gen_runs_unfinished": sum(1 for r in gen if r[4] is None),  # killed, or still running
    "gen_wall_s": sum(r[0] for r in gen),
    "gen_cpu_s": gen_cpu,
    # The manifests', not the runs': dtb resets the kernel's high-water mark
    # before each pair, so that of a whole run is only its last pair's.
    "peak_rss_bytes": max((m["peak_rss_bytes"] for m in manifests), default=0),
    "positions_built_by_these_runs": built,
    "positions_per_cpu_second": built / gen_cpu if gen_cpu else None,
    "disk_bytes": disk,
    "wdl_bits_per_position": bits.get("wdl"),
    "dtw_bits_per_position": bits.get("dtw"),
    "dtc_bits_per_position": bits.get("dtc"),
    "verify_runs": len(verify),
    "verify_wall_s": sum(r[0] for r in verify),
    "verify_cpu_s": sum(r[1] + r[2] for r in verify),
    # Whether the set is proven: the build ended, and the last verify ran
    # over every table of the directory (not only those finished beside the
    # build) and passed. It counts a table's .dtc file (--dtc) as a table
    # of its own.
    "verify_last_tables": last_verify_tables,
    "verified": bool(gen) and gen[-1][4] == 0 and bool(verify) and verify[-1][4] == 0
                and last_verify_tables == len(manifests) + len(glob.glob(os.path.join(dir, "*.dtc"))),
}
with open(os.path.join(proof, "summary.json.tmp"), "w") as out:
    json.dump(summary, out, indent=2)
os.replace(os.path.join(proof, "summary.json.tmp"), os.path.join(proof, "summary.json"))
print(json.dumps(summary, indent=2))
PY
}

ticks=$(getconf CLK_TCK)

# What /proc says of a running process: the fields of STEP-N.time.
sample() {  # pid start_epoch
  local stat; stat=$(cut -d')' -f2- "/proc/$1/stat" 2>/dev/null) || return 1
  local hwm; hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
  # After the ')': state is field 1, utime field 12, stime field 13.
  awk -v now="$(date +%s.%N)" -v t0="$2" -v hz="$ticks" -v hwm="$hwm" \
    '{ printf "%.2f\t%.2f\t%.2f\t%d\t-\n", now - t0, $12 / hz, $13 / hz, hwm }' <<< "$stat"
}

run() {  # step, then the dtb arguments
  local step=$1; shift
  local n; n=$(( $(find "$proof" -maxdepth 1 -name "$step-*.log" | wc -l) + 1 ))
  local base="$proof/$step-$n"
  echo "$step: run $n, log $base.log" >&2
  local t0; t0=$(date +%s.%N)
  echo "$t0" > "$base.start"
  /usr/bin/time -o "$base.time" -f "%e\t%U\t%S\t%M\t%x" "$proof/dtb" "$@" > "$base.log" 2>&1 &
  local timer=$!
  local pid=""
  while kill -0 "$timer" 2> /dev/null; do
    [ -n "$pid" ] || pid=$(pgrep -P "$timer" | head -n 1 || true)
    if [ -n "$pid" ] && sample "$pid" "$t0" > "$base.live.tmp"; then mv "$base.live.tmp" "$base.live"; fi
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$timer" 2> /dev/null && sleep 1; done
  done
  local status=0
  wait "$timer" || status=$?
  return $status
}

# The whole of the work is one function, read before it runs: bash reads a
# script as it goes, and this one runs for hours while the checkout may
# change under it.
main() {
  if [ "${1:-}" = "--summary" ]; then
    [ $# -eq 2 ] || usage
    summarise "$2" "$2.proof"
    return 0
  fi
  [ $# -ge 3 ] || usage
  variant=$1 pieces=$2 dir=$3 memory=${4:-2G} threads=${5:-$(nproc)}
  local gen_options=("${@:6}")
  proof=$dir.proof
  mkdir -p "$dir" "$proof"
  if [ ! -x "$proof/dtb" ]; then
    [ -x build/bin/dtb ] || { echo "build dtb first: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target dtb" >&2; exit 2; }
    cp build/bin/dtb "$proof/dtb.tmp" && mv "$proof/dtb.tmp" "$proof/dtb"
    echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!BENCHMARKS.md' ':!README.md' || echo -dirty)" > "$proof/commit"
  fi
  # The verify's journal is kept beside the set: a table it holds is spared
  # while every file its check read is unchanged.
  journal=$proof/verify-journal.json
  checksums=$proof/checksums.txt
  verify_set() { run verify verify --variant "$variant" --dir "$dir" --memory "$memory" --threads "$threads" --journal "$journal" "$@"; }
  # `--only SIG` for each table finished with its mirror (both manifests
  # written, which the generator does last): a verify beside the build must
  # not take a pair whose files are still being written for a damaged one.
  finished_tables() {
    local manifest sig
    for manifest in "$dir/$variant"-*.json; do
      [ -e "$manifest" ] || continue
      sig=${manifest##*/$variant-}
      sig=${sig%.json}
      [ -e "$dir/$variant-${sig#*v}v${sig%%v*}.json" ] && printf -- '--only\n%s\n' "$sig"
    done
    return 0
  }
  run gen gen --variant "$variant" --pieces "$pieces" --dir "$dir" --memory "$memory" --threads "$threads" "${gen_options[@]}" &
  local gen_pid=$!
  # Beside the build, verify what it has finished, again whenever it has
  # finished more: a run interrupted mid-build then keeps the tables it
  # verified, not only those it built.
  local verified_count=-1
  while kill -0 "$gen_pid" 2> /dev/null; do
    local finished; mapfile -t finished < <(finished_tables)
    local count=$((${#finished[@]} / 2))
    if [ "$count" -gt 0 ] && [ "$count" != "$verified_count" ]; then
      verified_count=$count
      verify_set "${finished[@]}" || true
    fi
    for _ in $(seq "${VERIFY_EVERY:-240}"); do kill -0 "$gen_pid" 2> /dev/null && sleep 1; done
  done
  wait "$gen_pid"
  verify_status=0
  # The whole directory; a list of its files' checksums only if it passes.
  verify_set --write-checksums "$checksums" || verify_status=$?
  summarise "$dir" "$proof"
  if [ "$verify_status" -eq 0 ]; then
    echo "checksum list of $dir: $checksums (check a copy with: $proof/dtb verify --checksums $checksums COPY)" >&2
  else
    echo "the last verify failed (exit status $verify_status, its log is the last $proof/verify-N.log): no checksum list written" >&2
  fi
  return $verify_status
}

main "$@"; exit $?
