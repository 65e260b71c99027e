#!/usr/bin/env bash
# The main job end to end on a small default: build dtb, generate the Russian
# tables up to 4 pieces, check them, and answer the question arbiters ask:
# three kings against one king - can the stronger side still win within the
# 15 moves that rule 2.1.9.1.4 leaves it?
#   scripts/demo.sh [table-dir]     (default: tablebases/)
# Installs only what the build needs (no test libraries) and builds only the
# dtb program, into build/bin/dtb.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --build
dir=${1:-tablebases}
dtb=build/bin/dtb

echo "== build build/bin/dtb (the program only, no tests)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDTB_TESTS=OFF > /dev/null
cmake --build build --target dtb -j "$(nproc)"

echo "== perft: the move generator against the published count (929899)"
$dtb perft --variant russian --depth 8

echo "== generate every Russian table with up to 4 pieces into $dir/"
$dtb gen --variant russian --pieces 4 --dir "$dir"

echo "== verify every stored value against its successors"
$dtb verify --variant russian --dir "$dir" | tail -n 1

echo "== the same bytes as the published set: checksums/russian-6.txt, its tables of up to 4 pieces"
$dtb verify --checksums checksums/russian-6.txt --pieces 4 "$dir" | tail -n 1

fen="W:WKf8,Ke7,Kh6:BKb8"
echo "== one position: three white kings against one black king, $fen"
$dtb probe --variant russian --dir "$dir" --fen "$fen"
echo "== the same position after White has made 3 of its 15 moves"
$dtb adjudicate --variant russian --dir "$dir" --fen "$fen" --moves-played 3

echo "== every position: three kings against one king"
$dtb adjudicate --variant russian --dir "$dir" --report KKKvK
report=$($dtb adjudicate --variant russian --dir "$dir" --report KKKvK --json)

# The first number called $1 in the JSON text $2.
number() { grep -oE "\"$1\":[0-9]+" <<< "$2" | head -n 1 | cut -d: -f2 || true; }
# 132240 -> 132,240
commas() { sed -E ':a;s/([0-9])([0-9]{3})($|,)/\1,\2\3/;ta' <<< "$1"; }

limit=$(grep -oE '"rule":"2\.1\.9\.1\.4","limit_moves":[0-9]+' <<< "$report" | cut -d: -f3 || true)
sides=${report#*\"sides\":}
kings=${sides%%\"to_move\":\"other\"*}  # the three kings to move; its first row is every position
lone=${sides#*\"to_move\":\"other\"}    # the lone king to move
positions=$(number positions "$kings")
won=$(number won "$kings")
longest=$(number longest_win_moves "$kings")
fits=$(number "$limit" "${kings#*won_within}")
lone_lost=$(number won "$lone")
lone_longest=$(number longest_win_moves "$lone")
for n in "$limit" "$positions" "$won" "$longest" "$fits" "$lone_lost" "$lone_longest"; do
  [ -n "$n" ] || { echo "demo: could not read the report of dtb adjudicate --report KKKvK --json" >&2; exit 1; }
done

if [ "$fits" -eq "$won" ]; then
  verdict="so every win fits inside the $limit moves of rule 2.1.9.1.4"
else
  verdict="so $(commas $((won - fits))) wins need more than the $limit moves of rule 2.1.9.1.4 and are draws by it"
fi
echo
echo "Answer: in Russian checkers, with three kings to move against a lone king," \
  "$(commas "$won") of $(commas "$positions") positions are won and the longest win takes $longest moves," \
  "$verdict (with the lone king to move, $(commas "$lone_lost") positions are lost, the longest in $lone_longest moves)."

# The commands that read tables look in ./tablebases when neither --dir nor
# DTB_PATH names the directories (dtb probe --help).
echo
if [ "$dir" = tablebases ] && [ -z "${DTB_PATH:-}" ]; then
  echo "The tables are in tablebases/: run here, dtb finds them without --dir, as in"
  echo "  $dtb probe --variant russian --fen $fen"
  echo "and from anywhere with: export DTB_PATH=$(pwd)/tablebases"
else
  echo "The tables are in $dir/: give --dir $dir, or export DTB_PATH=$(cd "$dir" && pwd)"
fi
