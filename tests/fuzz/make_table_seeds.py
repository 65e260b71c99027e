#!/usr/bin/env python3
"""Writes the seeds of the table fuzz target (tests/fuzz/corpus/table/) from
a folder of valid tables up to 3 pieces of both variants, so that they are
the bytes this dtb writes (run it after a change to the table format):

    dtb gen --variant russian --pieces 3 --dir DIR
    dtb gen --variant international --pieces 3 --dir DIR
    dtb gen --variant russian --pieces 3 --dir DIR3 --format 3
    dtb gen --variant international --pieces 3 --dir DIR3 --format 3
    tests/fuzz/make_table_seeds.py DIR DIR3

DIR3, the same tables in table format 3 (one side of each pair left out), is
optional: its files become seeds too ("format3-..."), valid tables with
other bytes than the target's reference tables, which must answer alike.

A seed is one selector byte (which name the target writes the file under,
kNames in table_fuzzer.cpp; the high bit: recompute the checksums) and then
the file: each valid table, valid tables under another table's name, and
damaged ones."""
import pathlib
import sys

NAMES = ["russian-KKvK.wdl", "russian-KKvK.dtw", "russian-KMvK.wdl", "russian-KMvK.dtw",
         "international-KKvK.wdl", "international-KKvK.dtw", "international-MMvK.wdl", "international-MMvK.dtw"]
REPAIR = 0x80


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = pathlib.Path(sys.argv[1])
    dst = pathlib.Path(__file__).resolve().parent / "corpus" / "table"
    dst.mkdir(parents=True, exist_ok=True)
    table = {name: (src / name).read_bytes() for name in NAMES}

    def seed(file_name, selector, data):
        (dst / file_name).write_bytes(bytes([selector]) + bytes(data))

    for i, name in enumerate(NAMES):
        seed("valid-" + name, i, table[name])
    if len(sys.argv) == 3:
        for i, name in enumerate(NAMES):
            seed("format3-" + name, i, (pathlib.Path(sys.argv[2]) / name).read_bytes())
    # Valid tables under another table's name: the probe must refuse them.
    seed("renamed-russian-KKvK.wdl-as-dtw", 1, table["russian-KKvK.wdl"])
    seed("renamed-international-KKvK.dtw-as-russian", 1, table["international-KKvK.dtw"])
    seed("renamed-russian-KMvK.wdl-as-KKvK", 0, table["russian-KMvK.wdl"])
    # Damaged: a block byte with its checksum recomputed, positions per block
    # changed in the header (checksums recomputed), a block byte as it is, a
    # truncated file, an empty one.
    damaged = bytearray(table["russian-KKvK.dtw"])
    damaged[-5] ^= 0x40
    seed("repaired-russian-KKvK.dtw-block-byte", 1 | REPAIR, damaged)
    damaged = bytearray(table["international-MMvK.wdl"])
    damaged[40:44] = (64).to_bytes(4, "little")
    seed("repaired-international-MMvK.wdl-block-size", 6 | REPAIR, damaged)
    damaged = bytearray(table["russian-KMvK.wdl"])
    damaged[-3] ^= 0x01
    seed("unrepaired-russian-KMvK.wdl-block-byte", 2, damaged)
    # Flag 4 (no position stored) set on a table whose mirror stores its
    # own: the probe searches every position of it, and must answer as the
    # valid table does.
    damaged = bytearray(table["russian-KKvK.wdl"])
    damaged[8] = 3
    damaged[28] |= 4
    seed("repaired-russian-KKvK.wdl-side-not-stored", 0 | REPAIR, damaged)
    seed("truncated-russian-KKvK.wdl", 0, table["russian-KKvK.wdl"][:100])
    seed("empty-file", 3, b"")


if __name__ == "__main__":
    main()
