"""Scores of a run: correctness, fast_p, geometric-mean speedups, pass@k; over all problems and per group.

Definitions (docs/HARNESS.md):
- a problem's best sample: its fastest correct sample (by speedup over eager), else its first sample;
- correct: the best sample's status is "pass" or "suspect";
- fast_p (p in FAST_P): the fraction of problems whose best sample is correct, not suspect, and (for p > 0) more
  than p times faster than the baseline (eager or torch.compile), as KernelBench defines it (strictly greater);
- geomean speedup: over the problems counted by fast_0 that have a time for that baseline;
- pass@k: the unbiased estimator 1 - C(n-c, k) / C(n, k) per problem (n samples, c correct), averaged over the
  problems with n >= k.
"""
from __future__ import annotations

import math
from collections import Counter

FAST_P = (0.0, 0.5, 0.8, 1.0, 1.5, 2.0)
PASS_K = (1, 5, 10, 100)
BASELINES = ("eager", "compile")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for n samples of which c are correct (Chen et al. 2021), in the stable product form."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def speedup(record: dict, baseline: str) -> float | None:
    timing = record.get("timing")
    return timing.get(f"speedup_{baseline}") if timing else None


def is_fast_candidate(record: dict) -> bool:
    """Correct and not suspect: the records whose speed counts."""
    return record.get("status") == "pass"


def fast_p(best: list[dict], p: float, baseline: str) -> float:
    if not best:
        return 0.0
    hits = 0
    for record in best:
        s = speedup(record, baseline)
        if is_fast_candidate(record) and (p == 0 or (s is not None and s > p)):
            hits += 1
    return hits / len(best)


def group_by_problem(records: list[dict]) -> dict[str, list[dict]]:
    problems: dict[str, list[dict]] = {}
    for record in records:
        problems.setdefault(record["problem"], []).append(record)
    return problems


def best_sample(samples: list[dict]) -> dict:
    correct = [r for r in samples if r.get("correct")]
    if not correct:
        return samples[0]
    return max(correct, key=lambda r: (r.get("status") == "pass", speedup(r, "eager") or 0.0))


def summarize(records: list[dict]) -> dict:
    """{"total": scores, "groups": {group: scores}} (see `scores`)."""
    groups: dict[str, list[dict]] = {}
    for record in records:
        groups.setdefault(record["group"], []).append(record)
    return {"total": scores(records), "groups": {g: scores(rs) for g, rs in sorted(groups.items())}}


def scores(records: list[dict]) -> dict:
    by_problem = group_by_problem(records)
    best = [best_sample(samples) for samples in by_problem.values()]
    counted = [r for r in best if is_fast_candidate(r)]
    fractions = [r["floor"]["achieved_fraction"] for r in counted
                 if r.get("floor") and r["floor"].get("achieved_fraction") is not None]
    result = {
        "problems": len(best),
        "samples": len(records),
        "correct": sum(1 for r in best if r.get("correct")),
        "suspect": sum(1 for r in best if r.get("status") == "suspect"),
        "status_counts": dict(Counter(r["status"] for r in best)),
        "fast_p": {b: {p_key(p): fast_p(best, p, b) for p in FAST_P} for b in BASELINES},
        "geomean_speedup": {b: geomean([speedup(r, b) for r in counted]) for b in BASELINES},
        "geomean_achieved_fraction": geomean(fractions),
        "pass_at_k": {},
    }
    sizes = [len(samples) for samples in by_problem.values()]
    for k in PASS_K:
        eligible = [s for s in by_problem.values() if len(s) >= k]
        if eligible and (k == 1 or max(sizes) > 1):
            values = [pass_at_k(len(s), sum(1 for r in s if r.get("correct")), k) for s in eligible]
            result["pass_at_k"][str(k)] = sum(values) / len(values)
    return result


def p_key(p: float) -> str:
    """The key of a fast_p threshold in the scores ("0", "0.5", "1")."""
    return f"{p:g}"
