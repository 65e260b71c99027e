#!/usr/bin/env bash
# Compressed size of a table set: bits per position of the WDL and the DTW
# file of every table, and of the whole set, from the file sizes (headers
# and block indexes included) and the positions in their headers.
#
#   scripts/table-bits.sh TABLE_DIR [--verify]
#
# Without --verify only headers and block indexes are checked (fast on big
# sets); with it every checksum (dtb info). Uses build/bin/dtb.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/table-bits.sh TABLE_DIR [--verify]}
quick=--quick
[ "${2:-}" = "--verify" ] && quick=
[ -x build/bin/dtb ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null; cmake --build build -j "$(nproc)" --target dtb; }

build/bin/dtb info --dir "$dir" --json $quick | python3 -c '
import json, sys
from collections import defaultdict
info = json.load(sys.stdin)
rows = defaultdict(dict)   # (variant, pieces, signature) -> metric -> table
for t in info["tables"]:
    rows[(t["variant"], t["pieces"], t["signature"])][t["metric"]] = t
def bits(t):
    return "%8.3f" % t["bits_per_position"] if t else "       -"
print("%-14s %-9s %14s %9s %9s" % ("variant", "signature", "positions", "wdl bits", "dtw bits"))
sums = defaultdict(lambda: [0, 0, 0])  # (variant, pieces or "all") -> positions, wdl bytes, dtw bytes
for (variant, pieces, sig), m in sorted(rows.items()):
    any_table = m.get("wdl") or m.get("dtw")
    print("%-14s %-9s %14d %s %s" % (variant, sig, any_table["positions"], bits(m.get("wdl")), bits(m.get("dtw"))))
    for key in ((variant, pieces), (variant, "all")):
        s = sums[key]
        s[0] += any_table["positions"]
        s[1] += m["wdl"]["bytes"] if "wdl" in m else 0
        s[2] += m["dtw"]["bytes"] if "dtw" in m else 0
print()
print("%-14s %-9s %14s %9s %9s %12s %12s" % ("variant", "pieces", "positions", "wdl bits", "dtw bits", "wdl bytes", "dtw bytes"))
for (variant, pieces), (n, w, d) in sorted(sums.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
    print("%-14s %-9s %14d %9.3f %9.3f %12d %12d" % (variant, pieces, n, 8 * w / n, 8 * d / n, w, d))
bad = info["all"]["invalid"]
if bad:
    print("%d damaged files: run dtb info --dir DIR for the list" % bad, file=sys.stderr)
'
