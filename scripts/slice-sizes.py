#!/usr/bin/env python3
"""Slice sizes of the generator (docs/GENERATOR.md): for the pairs of a set
with the largest slices, the pair's positions, its number of slices (levels
of advancement), its largest slice, and that slice with the one above it
(what is in memory while it is solved).

    scripts/slice-sizes.py VARIANT PIECES [TOP]
"""
import sys
from math import comb

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from variant_list import VARIANTS  # noqa: E402

# rows, squares per row
BOARDS = {name: (v["size"], v["squares_per_row"]) for name, v in VARIANTS.items()}


def level_counts(variant, white_men, black_men):
    """Placements of the men by advancement: {advancement: placements}.

    Rows counted from White's back row: a white man on row r has advanced
    r rows and never stands on the last row; a black man on row r has
    advanced rows - 1 - r and never stands on row 0. Counted row by row,
    keeping (white men, black men, advancement) so far.
    """
    rows, per_row = BOARDS[variant]
    counts = {(0, 0, 0): 1}
    for row in range(rows):
        after = {}
        for (w, b, adv), n in counts.items():
            for x in range(per_row + 1 if row < rows - 1 else 1):
                for y in range(per_row - x + 1 if row > 0 else 1):
                    if w + x > white_men or b + y > black_men:
                        continue
                    key = (w + x, b + y, adv + x * row + y * (rows - 1 - row))
                    after[key] = after.get(key, 0) + n * comb(per_row, x) * comb(per_row - x, y)
        counts = after
    out = {}
    for (w, b, adv), n in counts.items():
        if w == white_men and b == black_men:
            out[adv] = out.get(adv, 0) + n
    return out


def pairs(variant, pieces):
    """Pair keys (white men, black men, white kings, black kings), each once."""
    most = VARIANTS[variant]["pieces_per_side"]
    seen = set()
    for total in range(2, pieces + 1):
        for a in range(total + 1):
            for c in range(total + 1 - a):
                for b in range(total + 1 - a - c):
                    d = total - a - b - c
                    if a + c == 0 or b + d == 0 or a + c > most or b + d > most:
                        continue
                    key = max((a, b, c, d), (b, a, d, c))
                    if key not in seen:
                        seen.add(key)
                        yield key


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in BOARDS:
        sys.exit(__doc__)
    variant, pieces = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    rows, per_row = BOARDS[variant]
    rows_out = []
    for a, b, c, d in pairs(variant, pieces):
        sides = 1 if (a, b, c, d) == (b, a, d, c) else 2
        free = rows * per_row - a - b
        kings = comb(free, d) * comb(free - d, c) * sides
        levels = level_counts(variant, a, b)
        largest = max(levels.values()) * kings
        with_above = max(levels.get(l, 0) + levels.get(l + 1, 0) for l in levels) * kings
        rows_out.append((largest, sum(levels.values()) * kings, with_above, len(levels), (a, b, c, d)))
    rows_out.sort(reverse=True)
    for largest, total, with_above, count, (a, b, c, d) in rows_out[:top]:
        name = "K" * c + "M" * a + "v" + "K" * d + "M" * b
        print(f"{name:12s} pair {total:.3e}  slices {count:3d}  largest slice {largest:.3e}"
              f"  with the slice above {with_above:.3e}")


if __name__ == "__main__":
    main()
