"""The variants dtb knows, as `dtb variants --json` lists them (the one list
of rules/variant.hpp), for the scripts that work out sizes on paper.

The dtb program is $DTB, else build/bin/dtb beside this folder.
"""
import json
import os
import subprocess

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load():
    """{name: the variant's JSON object (size, squares, squares_per_row, pieces_per_side, ...)}."""
    dtb = os.environ.get("DTB", os.path.join(_ROOT, "build", "bin", "dtb"))
    try:
        out = subprocess.run([dtb, "variants", "--json"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"cannot list the variants with {dtb} ({e}): build dtb first, or set DTB to the program")
    return {v["variant"]: v for v in json.loads(out)["variants"]}


VARIANTS = load()
