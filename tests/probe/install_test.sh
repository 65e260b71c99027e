#!/usr/bin/env bash
# Installs dtb from a build tree into a temporary prefix, builds the example
# engine against the installed package twice (CMake's find_package, and
# pkg-config with a plain C compiler), and checks both against dtb probe;
# and the adjudication example the same two ways against dtb adjudicate.
#   install_test.sh BUILD_DIR EXAMPLE_SOURCE_DIR DTB_PROGRAM TABLE_DIR
set -euo pipefail
build=$1 example=$2 dtb=$3 tables=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > /dev/null
for f in include/dtb/probe.h include/dtb/adjudication.h lib/libdtb_probe.a lib/libdtb_adjudication.a \
  lib/cmake/dtb/dtbConfig.cmake lib/pkgconfig/dtb.pc; do
  [ -f "$work/prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done

# Portable: the installed archive is built without -march=native, so it
# holds no instruction an older x86-64 lacks (BMI2's pext/pdep would be the
# first; dtb uses them when the compiler may).
for lib in libdtb_probe.a libdtb_adjudication.a; do
  if objdump -d "$work/prefix/lib/$lib" | grep -qE '\s(pext|pdep|shlx|sarx|andn)\s'; then
    echo "installed $lib uses BMI2 instructions: not portable" >&2; exit 1
  fi
done

fens=(W:WKa1,Kc3:BKh8 B:WKa1,Kc1:BKh8 W:WKa3:BKh6 W:Wh2:Bg3,f4 W:Wa1,c1:Bb2)
# What dtb probe says, in the example's format: FEN wdl dtw best : line.
expected=$(printf '%s\n' "${fens[@]}" | "$dtb" probe --variant russian --dir "$tables" --json |
  python3 -c '
import json, sys
for line in sys.stdin:
    j = json.loads(line)
    out = [j["fen"], j["wdl"], "-" if j["dtw"] is None else str(j["dtw"]), j["best_move"] or "-"]
    if j["pv"]: out += [":"] + j["pv"]
    print(" ".join(out))')

# 1. find_package(dtb) with CMake.
cmake -S "$example" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/cmake-build" > /dev/null
# The example prints the FENs as given; dtb probe normalises them, so give
# the example the normalised ones.
normal=($(printf '%s\n' "$expected" | cut -d' ' -f1))
got=$("$work/cmake-build/example_engine" "$tables" russian "${normal[@]}" | tail -n +2)
if [ "$got" != "$expected" ]; then
  echo "example engine (CMake) disagrees with dtb probe:" >&2
  diff <(echo "$expected") <(echo "$got") >&2 || true
  exit 1
fi

# 2. pkg-config and the C compiler alone.
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
cc -std=c11 -Wall -Wextra -Werror "$example/engine.c" $(pkg-config --cflags --libs dtb) -o "$work/engine-pc"
got=$("$work/engine-pc" "$tables" russian "${normal[@]}" | tail -n +2)
[ "$got" = "$expected" ] || { echo "example engine (pkg-config) disagrees with dtb probe" >&2; exit 1; }

# A missing table is an error, not a value.
if "$work/engine-pc" "$work" russian W:WKa1,Kc3:BKh8 > /dev/null 2> "$work/err"; then
  echo "example engine answered without tables" >&2; exit 1
fi
grep -q "russian-KKvK.wdl" "$work/err" || { echo "no file named in: $(cat "$work/err")" >&2; exit 1; }
# The adjudication: dtb_adjudicate_position with n moves as 2n plies is
# what dtb adjudicate --moves-played n answers.
adj_fen=W:WKf8,Ke7,Kh6:BKb8
adj_expected=$("$dtb" adjudicate --variant russian --dir "$tables" --fen "$adj_fen" --moves-played 3 --json |
  python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["rule"] or "-", "-" if j["moves_left"] is None else j["moves_left"], "yes" if j["winnable"] else "no", j["basis"])
print(j["verdict"])')
cc -std=c11 -Wall -Wextra -Werror "$example/adjudicate.c" $(pkg-config --cflags --libs dtb) -o "$work/adjudicate-pc"
for program in "$work/cmake-build/example_adjudicate" "$work/adjudicate-pc"; do
  got=$("$program" "$tables" russian "$adj_fen" 3 6 6)
  if [ "$got" != "$adj_expected" ]; then
    echo "$program disagrees with dtb adjudicate:" >&2
    diff <(echo "$adj_expected") <(echo "$got") >&2 || true
    exit 1
  fi
done
echo "installed package OK: CMake and pkg-config builds agree with dtb probe on ${#fens[@]} positions" \
  "and with dtb adjudicate"
