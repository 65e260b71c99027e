#!/usr/bin/env python3
"""What a set of tables would take on a cluster, on paper, from the index's
formula and a measured speed (docs/GENERATOR.md, BENCHMARKS.md).

    scripts/cluster-estimate.py VARIANT PIECES RATE BITS [CORES ...]

RATE: positions per CPU-second measured on this machine (each position once,
as the manifests count them); BITS: compressed bits per position (WDL + DTW)
measured on the largest set built. Prints the positions, the largest slice
and the memory it needs, the waves of pairs that do not depend on each
other, and the time on the given numbers of cores (default 16 and 256) two
ways: all work spread evenly, and wave by wave as dtb runs it (16-thread
processes; in each wave the pairs of at least 2^24 positions are solved one
after another by all processes together, each process a part of every
slice, then the smaller pairs each on one process).
"""
import sys
from math import comb

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from importlib import import_module

sizes = import_module("index-sizes")
slices = import_module("slice-sizes")

MAX_PER_SIDE = {name: v["pieces_per_side"] for name, v in sizes.VARIANTS.items()}


def successors(sig):
    """tables/signatures.cpp successor_signatures: (men0, men1, kings0, kings1)."""
    a, b, c, d = sig
    out = set()
    for men, kings, crowned in ((a, c, False), (a - 1, c + 1, True)):
        if men < 0:
            continue
        for x in range(b + 1):
            for y in range(d + 1):
                if x + y == 0 and not crowned:
                    continue
                if b - x + d - y == 0:
                    continue
                out.add((b - x, men, d - y, kings))
    return out


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    variant, pieces, rate, bits = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    cores = [int(c) for c in sys.argv[5:]] or [16, 256]
    squares, row = sizes.BOARDS[variant]

    def size(sig):
        a, b, c, d = sig
        return sizes.table_size(variant, (c, a), (d, b))

    sigs = [(a, b, c, n - a - b - c) for n in range(2, pieces + 1) for a in range(n + 1) for c in range(n + 1 - a)
            for b in range(n + 1 - a - c)
            if a + c and b + (n - a - b - c) and a + c <= MAX_PER_SIDE[variant] and b + n - a - b - c <= MAX_PER_SIDE[variant]]
    key = lambda s: max(s, (s[1], s[0], s[3], s[2]))
    pairs = {}
    for s in sigs:
        pairs.setdefault(key(s), set()).add(s)
    wave = {}

    def wave_of(k):
        if k not in wave:
            deps = [key(c) for s in pairs[k] for c in successors(s) if key(c) in pairs]
            wave[k] = 1 + max((wave_of(d) for d in deps), default=-1)
        return wave[k]

    sys.setrecursionlimit(10000)
    for k in pairs:
        wave_of(k)
    pair_size = {k: sum(size(s) for s in v) for k, v in pairs.items()}
    total = sum(pair_size.values())
    waves = max(wave.values()) + 1
    split_above = 1 << 24  # dtb gen --split-above

    def by_waves(n):
        """Seconds on n cores, wave by wave, 16 threads a process."""
        processes = max(1, n // 16)
        threads = min(n, 16)
        seconds = 0.0
        for w in range(waves):
            members = [pair_size[k] for k in pairs if wave[k] == w]
            together = [x for x in members if x >= split_above and processes > 1]
            alone = [x for x in members if not (x >= split_above and processes > 1)]
            seconds += sum(together) / (rate * n)
            if alone:
                seconds += max(sum(alone) / (rate * n), max(alone) / (rate * threads))
        return seconds

    # The largest slice (and the slice above it) over all pairs.
    best = (0, 0, None)
    for k in pairs:
        a, b, c, d = k
        lc = slices.level_counts(variant, a, b)
        free = squares - a - b
        kings = comb(free, d) * comb(free - d, c)
        mult = 1 if len(pairs[k]) == 1 else 2
        here = max(lc.values()) * kings * mult
        pair = max(lc.get(l, 0) + lc.get(l + 1, 0) for l in lc) * kings * mult
        if here > best[0]:
            best = (here, pair, k)
    here, pair, k = best
    a, b, c, d = k
    name = "K" * c + "M" * a + "v" + "K" * d + "M" * b
    memory = here * 2.375 + (pair - here) * 1  # value, king-move count, 3 bits; values of the slice above
    print(f"{variant} up to {pieces} pieces: {total:.3g} positions in {len(pairs)} pairs, {waves} waves")
    print(f"largest slice: {name}, {here:.3g} positions; with the slice above {pair:.3g}: {memory / 2**30:.0f} GiB to solve")
    print(f"compressed set at {bits} bits/position: {total * bits / 8 / 1e9:.0f} GB")
    for n in cores:
        even = total / (rate * n)
        print(f"{n} cores at {rate / 1e6:.1f} M positions/CPU-s: {even / 3600:.1f} h if spread evenly;"
              f" {by_waves(n) / 3600:.1f} h wave by wave as dtb runs it (16-thread processes, large pairs split)")


if __name__ == "__main__":
    main()
