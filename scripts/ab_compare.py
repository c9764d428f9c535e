#!/usr/bin/env python3
"""The table of an A/B bench run (scripts/ab_prepare.sh): per problem, the old and new samples' correctness and
median times, new / old, and the geometric mean of new / old over the problems both got right.

    python3 scripts/ab_compare.py AB.jsonl
"""
import json
import math
import sys


def main(path: str) -> int:
    runs: dict[str, dict[str, dict]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                runs.setdefault(r["problem"], {})[r.get("sample") or ""] = r
    print("| problem | old | new | old ms | new ms | new / old |")
    print("|---|---|---|---|---|---|")
    ratios = []
    for problem in sorted(runs):
        pair = runs[problem]
        cells = []
        ms = {}
        for side in ("old", "new"):
            r = pair.get(side)
            cells.append("-" if r is None else ("yes" if r.get("correct") else r.get("status", "no")))
            timing = (r or {}).get("timing") or {}
            ms[side] = (timing.get("ours") or {}).get("median_ms")
        ratio = ms["new"] / ms["old"] if ms["old"] and ms["new"] else None
        if ratio and cells == ["yes", "yes"]:
            ratios.append(ratio)
        fmt = lambda v: "-" if v is None else f"{v:.3f}"
        print(f"| {problem} | {cells[0]} | {cells[1]} | {fmt(ms['old'])} | {fmt(ms['new'])} | {fmt(ratio)} |")
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"\nnew / old, geometric mean over {len(ratios)} problems correct on both sides: {geomean:.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
