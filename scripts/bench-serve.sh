#!/usr/bin/env bash
# Load on dtb serve (a benchmark, not a test): many concurrent clients on the
# loopback (serve_bench, tests/serve/bench_client.cpp, one thread and one
# connection per client) ask random positions of the JSON API for a few
# seconds per round; each round prints requests per second and latency
# percentiles, and the server's resident memory is read before and after
# (VmRSS, and VmHWM: the peak). A last round runs 8 timed clients beside 64
# slow ones, each trickling a request's head a byte a second (--slow N;
# 0 leaves the round out): the server's promise is that they delay no one.
#   scripts/bench-serve.sh [--build DIR] [--dir TABLES] [--threads N] [--seconds S]
#                          [--clients "1 8 64 256"] [--endpoint position|line|adjudicate] [--no-keep-alive]
#                          [--slow N]
# Defaults: build/, the small test tables (build/probe-tables/small: make them
# with `ctest --test-dir build -R probe_make_small_tables`), 8 server threads,
# 10 seconds a round. Clients and server share the machine: on a small one the
# clients' own CPU time is part of what is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
tables=""
threads=8
seconds=10
clients="1 8 64 256"
endpoint=position
keep_alive=""
slow=64
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --dir) tables=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --endpoint) endpoint=$2; shift 2 ;;
    --no-keep-alive) keep_alive=--no-keep-alive; shift ;;
    --slow) slow=$2; shift 2 ;;
    *) echo "usage: see the comment at the top of scripts/bench-serve.sh" >&2; exit 2 ;;
  esac
done
tables=${tables:-$build/probe-tables/small}
for program in "$build/bin/dtb" "$build/bin/serve_bench"; do
  [ -x "$program" ] || { echo "bench-serve: $program is missing: cmake --build $build --target dtb serve_bench" >&2; exit 1; }
done
[ -d "$tables" ] || { echo "bench-serve: no tables in $tables" >&2; exit 1; }

out=$(mktemp)
"$build/bin/dtb" serve --dir "$tables" --port 0 --threads "$threads" --json > "$out" &
server=$!
trap 'kill "$server" 2> /dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
port=$(sed -n 's/.*"port":\([0-9]*\).*/\1/p' "$out")
[ -n "$port" ] || { echo "bench-serve: dtb serve did not start" >&2; exit 1; }

memory() { awk -v when="$1" '/^VmRSS|^VmHWM/ {kb[$1]=$2} END {printf "server memory %s: RSS %.1f MiB, peak %.1f MiB\n", when, kb["VmRSS:"]/1024, kb["VmHWM:"]/1024}' "/proc/$server/status"; }

echo "dtb serve on port $port: $threads threads, tables $tables; $(nproc) CPUs; endpoint $endpoint${keep_alive:+, no keep-alive}"
memory "at start"
printf '%8s %5s %10s %8s %10s %9s %9s %9s %9s\n' clients slow requests errors req/s p50_ms p90_ms p99_ms max_ms
round() {
  "$build/bin/serve_bench" --port "$port" --clients "$1" --slow "$2" --seconds "$seconds" --endpoint "$endpoint" $keep_alive |
    python3 -c 'import json,sys; j=json.load(sys.stdin); l=j["latency_ms"]; print("%8d %5d %10d %8d %10.0f %9.2f %9.2f %9.2f %9.2f" % (j["clients"], j["slow_clients"], j["requests"], j["errors"], j["requests_per_second"], l["p50"], l["p90"], l["p99"], l["max"]))'
}
for c in $clients; do
  round "$c" 0
  memory "after $c clients"
done
if [ "$slow" -gt 0 ]; then
  round 8 "$slow"
  memory "after 8 clients beside $slow slow ones"
fi
kill -TERM "$server"
wait "$server" && echo "dtb serve stopped cleanly"
