#!/usr/bin/env python3
"""Turns a bench results.jsonl into the markdown tables of docs/RESULTS.md: one row per family (the problem name up
to its first '_': correct count, geometric-mean speedups, the slowest problem, median fraction of the floor),
then one row per problem (correct, ours ms, eager ms, speedup, compile ms, fraction of the floor), then a
summary line.

    scripts/results_table.py results.jsonl [--header "2026-12-02, commit abc123, H200"]
"""
import argparse
import json
import math
import sys


def fmt(v, spec):
    return "" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl")
    opts = ap.parse_args()
    rows = [json.loads(line) for line in open(opts.jsonl) if line.strip()]
    rows.sort(key=lambda r: r["problem"])
    family_table(rows)
    print()
    print("| problem | dtype | correct | max abs diff | ours ms | eager ms | vs eager | compile ms | vs compile | bound | of floor |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    speedups, compile_speedups = [], []
    for r in rows:
        t = r.get("timing") or {}
        f = r.get("floor") or {}
        c = r.get("correctness") or {}
        ours = (t.get("ours") or {}).get("median_ms")
        eager = (t.get("eager") or {}).get("median_ms")
        comp = (t.get("compile") or {}).get("median_ms")
        se, sc = t.get("speedup_eager"), t.get("speedup_compile")
        if r["correct"] and se:
            speedups.append(se)
        if r["correct"] and sc:
            compile_speedups.append(sc)
        verdict = "yes" if r["correct"] else f"**no** ({r['status']}: {', '.join(r['reasons'][:3])})"
        print(f"| {r['problem']} | {r['dtype']} | {verdict} | {fmt(c.get('max_abs_diff'), '.1e')} | {fmt(ours, '.3f')} | "
              f"{fmt(eager, '.3f')} | {fmt(se, '.2f')} | {fmt(comp, '.3f')} | {fmt(sc, '.2f')} | {f.get('bound', '')} | "
              f"{fmt(f.get('achieved_fraction'), '.0%')} |")
    correct = sum(r["correct"] for r in rows)
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    print()
    print(f"{correct}/{len(rows)} correct; geometric-mean speedup over eager {geo(speedups):.2f}x "
          f"({len(speedups)} timed)" + (f", over torch.compile {geo(compile_speedups):.2f}x" if compile_speedups else ""))


def family_table(rows):
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None
    families = {}
    for r in rows:
        families.setdefault(r["problem"].split("_")[0], []).append(r)
    print("| family | correct | vs eager (geomean) | vs compile (geomean) | slowest vs eager | median of floor |")
    print("|---|---|---|---|---|---|")
    for name, group in sorted(families.items()):
        timed = [r for r in group if r["correct"] and (r.get("timing") or {}).get("speedup_eager")]
        se = [r["timing"]["speedup_eager"] for r in timed]
        sc = [r["timing"]["speedup_compile"] for r in timed if r["timing"].get("speedup_compile")]
        floors = sorted(f for r in timed if (f := (r.get("floor") or {}).get("achieved_fraction")))
        slow = min(timed, key=lambda r: r["timing"]["speedup_eager"]) if timed else None
        slowest = f"{slow['problem']} {slow['timing']['speedup_eager']:.2f}x" if slow else ""
        median = floors[len(floors) // 2] if floors else None
        print(f"| {name} | {sum(r['correct'] for r in group)}/{len(group)} | {fmt(geo(se), '.2f')} | "
              f"{fmt(geo(sc), '.2f')} | {slowest} | {fmt(median, '.0%')} |")


if __name__ == "__main__":
    sys.exit(main())
