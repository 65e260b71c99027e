#!/usr/bin/env python3
"""Position counts of every table up to N pieces, from the index's formula
(tables/position_index.hpp: men off their crowning row, then kings on the
squares left), without building anything: what a larger set will take.

    scripts/index-sizes.py VARIANT PIECES [--check DIR]

Prints the total (each position once, side to move normalised, and both
colours), the positions of the largest pairs in flight, and the memory the
solver needs for them. --check DIR compares every count with the manifests
of a generated set.
"""
import glob
import json
import sys
from math import comb

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from variant_list import VARIANTS  # noqa: E402

# squares, squares per row
BOARDS = {name: (v["squares"], v["squares_per_row"]) for name, v in VARIANTS.items()}


def men_placements(squares, row, white_men, black_men):
    # White men may stand anywhere but the last row, black men anywhere but
    # the first: split by how many use the row only they may use.
    middle = squares - 2 * row
    total = 0
    for a in range(min(row, white_men) + 1):
        for b in range(min(row, black_men) + 1):
            total += (comb(row, a) * comb(middle, white_men - a) *
                      comb(row, b) * comb(middle - (white_men - a), black_men - b))
    return total


def table_size(variant, mover, other):
    """Positions of the table whose side to move has `mover` = (kings, men)."""
    squares, row = BOARDS[variant]
    (wk, wm), (bk, bm) = mover, other
    free = squares - wm - bm
    return men_placements(squares, row, wm, bm) * comb(free, wk) * comb(free - wk, bk)


def name(mover, other):
    return "K" * mover[0] + "M" * mover[1] + "v" + "K" * other[0] + "M" * other[1]


def tables(pieces):
    for n in range(2, pieces + 1):
        for a in range(1, n):
            for wk in range(a + 1):
                for bk in range(n - a + 1):
                    yield (wk, a - wk), (bk, n - a - bk)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in BOARDS:
        sys.exit(__doc__)
    variant, pieces = sys.argv[1], int(sys.argv[2])
    sizes = {name(m, o): table_size(variant, m, o) for m, o in tables(pieces)}
    if len(sys.argv) == 5 and sys.argv[3] == "--check":
        bad = 0
        for f in glob.glob(sys.argv[4] + "/*.json"):
            j = json.load(open(f))
            if j.get("variant") == variant and j["signature"] in sizes and j["positions"] != sizes[j["signature"]]:
                print("differs:", j["signature"], j["positions"], sizes[j["signature"]])
                bad += 1
        print("checked against", sys.argv[4] + ":", "all equal" if not bad else f"{bad} differ")
        sys.exit(1 if bad else 0)
    total = sum(sizes.values())
    print(f"{variant} up to {pieces} pieces: {len(sizes)} tables, {total:.4g} positions"
          f" ({2 * total:.4g} counting both colours)")
    pairs = {}
    for sig, n in sizes.items():
        a, b = sig.split("v")
        key = tuple(sorted((a, b)))
        pairs[key] = pairs.get(key, 0) + n if a != b else n
    print("largest pairs in flight (positions; solver memory at 1 byte + 3 bits each):")
    for (a, b), n in sorted(pairs.items(), key=lambda x: -x[1])[:5]:
        print(f"  {a}v{b}  {n:.4g}  {n * 1.375 / 2**30:.1f} GiB")


if __name__ == "__main__":
    main()
