#!/usr/bin/env python3
"""Timing reproducibility from a bench run made with --repeats 2 or more: for each problem, the medians of our
time in each repeat (the interleaved block timed again in the same process) and their spread, as a markdown
table, then how many problems over 1 ms stay within 3%.

    scripts/repeat_check.py results.jsonl
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl")
    opts = ap.parse_args()
    rows = [json.loads(line) for line in open(opts.jsonl) if line.strip()]
    print("| problem | repeat medians (ms) | spread |")
    print("|---|---|---|")
    over_1ms, within = 0, 0
    for r in sorted(rows, key=lambda r: r["problem"]):
        medians = (r.get("timing") or {}).get("ours_repeat_medians_ms") or []
        if len(medians) < 2:
            continue
        spread = (max(medians) - min(medians)) / min(medians)
        print(f"| {r['problem']} | {', '.join(f'{m:.4f}' for m in medians)} | {spread:.1%} |")
        if min(medians) > 1.0:
            over_1ms += 1
            within += spread <= 0.03
    print()
    print(f"{within}/{over_1ms} problems over 1 ms have repeat medians within 3% of each other")
    return 0


if __name__ == "__main__":
    sys.exit(main())
