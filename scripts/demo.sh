#!/usr/bin/env bash
# The main job end to end on a small default: build dtb, generate the Russian
# tables up to 4 pieces, check them, and ask the question arbiters ask:
# three kings against one king - can the stronger side still win within the
# moves the rules leave?
#   scripts/demo.sh [table-dir]     (default: tables/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
dir=${1:-tables}

echo "== build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=OFF > /dev/null
cmake --build build -j "$(nproc)" > /dev/null
dtb=build/bin/dtb

echo "== perft: the move generator against the published count"
$dtb perft --variant russian --depth 8

echo "== generate every Russian table with up to 4 pieces into $dir/"
$dtb gen --variant russian --pieces 4 --dir "$dir"

echo "== verify every stored value against its successors"
$dtb verify --variant russian --dir "$dir" | tail -n 1

fen="W:WKf8,Ke7,Kh6:BKb8"
echo "== three white kings against one black king: $fen"
if $dtb --help | grep -q " probe"; then
  $dtb probe --variant russian --dir "$dir" --fen "$fen"
fi
if $dtb --help | grep -q " adjudicate"; then
  $dtb adjudicate --variant russian --dir "$dir" --fen "$fen" --moves-played 3
fi
