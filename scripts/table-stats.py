#!/usr/bin/env python3
"""Distance statistics of solved tables, read from the generator's .raw files.

  scripts/table-stats.py DIR VARIANT SIGNATURE [SIGNATURE...]

For each table: positions, wins, draws, losses, and how many wins (for the
side to move) and losses end within N moves of the winning side, where the
winner needs (DTW + 1) / 2 of its own moves when it is to move and DTW / 2
when the other side is (docs/RULES.md 3.3). Layout of .raw: docs/FORMAT.md.
"""
import collections
import struct
import sys


def read_raw(path):
    with open(path, "rb") as f:
        head = f.read(48)
        if head[:8] != b"DTBRAW\x00\x01":
            sys.exit(f"{path}: not a dtb raw table")
        width = head[13]
        count = struct.unpack_from("<Q", head, 24)[0]
        data = f.read()
    if len(data) != count * width:
        sys.exit(f"{path}: truncated")
    if width == 1:
        return data, 0xFE
    return struct.unpack(f"<{count}H", data), 0xFFFE


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    directory, variant = sys.argv[1], sys.argv[2]
    for sig in sys.argv[3:]:
        values, draw = read_raw(f"{directory}/{variant}-{sig}.raw")
        wins = collections.Counter()
        losses = collections.Counter()
        draws = 0
        for v in values:
            if v == draw:
                draws += 1
            elif v % 2:
                wins[(v + 1) // 2] += 1  # moves the side to move needs
            else:
                losses[v // 2] += 1      # moves the other side needs
        total = len(values)
        print(f"{variant} {sig}: {total} positions, {sum(wins.values())} won, {draws} drawn, "
              f"{sum(losses.values())} lost (for the side to move)")
        for name, hist in (("won", wins), ("lost", losses)):
            if not hist:
                continue
            running = 0
            cells = []
            for moves in sorted(hist):
                running += hist[moves]
                cells.append(f"<={moves}: {running}")
            print(f"  {name}, by the winner's moves needed (cumulative): " + ", ".join(cells))


if __name__ == "__main__":
    main()
