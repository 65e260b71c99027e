#!/usr/bin/env python3
"""The longest win under the move-count rules of each table, as a Markdown
table: from `dtb rule-report --json` (its longest_rule_win_dtc and
longest_rule_win_fen), for the list in docs/LONGEST_WINS.md.

    dtb rule-report --variant russian --pieces 6 --dir DIR --json > r6.json
    scripts/longest-wins.py r6.json --pieces 6       # the 6-piece tables only

Rows go by DTC, longest first (tables of equal DTC by name); a table with
no win under the counts is left out. Reads standard input without FILE.
"""

import argparse
import json
import sys


def pieces(table):
    """The pieces of a table name such as KKMvK."""
    return len(table.replace("v", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", help="dtb rule-report --json output (default: standard input)")
    parser.add_argument("--pieces", type=int, help="only the tables of this many pieces")
    args = parser.parse_args()
    try:
        report = json.load(open(args.file) if args.file else sys.stdin)
        tables = report["tables"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"longest-wins.py: {args.file or 'standard input'}: not dtb rule-report --json output ({e})")
    rows = [t for t in tables
            if t.get("longest_rule_win_fen") and (args.pieces is None or pieces(t["table"]) == args.pieces)]
    if not rows:
        sys.exit("longest-wins.py: no table with a win under the counts"
                 + (f" of {args.pieces} pieces" if args.pieces else ""))
    rows.sort(key=lambda t: (-t["longest_rule_win_dtc"], t["table"]))
    print("| table (side to move first) | longest DTC of a win (plies) | position (White to move) | count-drawn wins |")
    print("| --- | ---: | --- | ---: |")
    for t in rows:
        print(f"| {t['table']} | {t['longest_rule_win_dtc']} | `{t['longest_rule_win_fen']}` | "
              f"{t['count_drawn_wins']:,} |")


if __name__ == "__main__":
    main()
