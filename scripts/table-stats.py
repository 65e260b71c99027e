#!/usr/bin/env python3
"""Distance statistics of solved tables, read from the .raw files that
`dtb gen --keep-raw` writes.

  scripts/table-stats.py DIR VARIANT SIGNATURE [SIGNATURE...]

For each table: positions, wins, draws, losses, and how many wins (for the
side to move) and losses end within N moves of the winning side, where the
winner needs (DTW + 1) / 2 of its own moves when it is to move and DTW / 2
when the other side is (docs/RULES.md 3.3). Layout of .raw: docs/FORMAT.md,
"Exact tables"; needs the zstd program.
"""
import collections
import struct
import subprocess
import sys

MAGIC = b"\x89DTB\r\n\x1a\n"
METRIC_EXACT = 3


def read_raw(path):
    """The symbols of an exact table (a table file of metric 3) and its draw
    code. The data section is the blocks' zstd frames one after the other,
    which the zstd program decompresses as one stream."""
    with open(path, "rb") as f:
        head = f.read(128)
        if head[:8] != MAGIC:
            sys.exit(f"{path}: not a dtb table")
        version, = struct.unpack_from("<I", head, 8)
        metric, bits = head[17], head[18]
        if version not in (1, 2) or metric != METRIC_EXACT or bits not in (8, 16):
            sys.exit(f"{path}: not an exact table of a known format version")
        count, per_block = struct.unpack_from("<QI", head, 32)
        data_offset, data_size = struct.unpack_from("<QQ", head, 64)
        f.seek(data_offset)
        data = f.read(data_size)
    raw = subprocess.run(["zstd", "-dcq"], input=data, stdout=subprocess.PIPE, check=True).stdout
    if len(raw) != count * bits // 8:
        sys.exit(f"{path}: truncated")
    if bits == 8:
        return raw, 0xFE
    values = []
    for first in range(0, count, per_block):  # each block: low bytes, then high bytes
        n = min(per_block, count - first)
        block = raw[2 * first:2 * first + 2 * n]
        values.extend(lo | hi << 8 for lo, hi in zip(block[:n], block[n:]))
    return values, 0xFFFE


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
