"""Scores against worked examples computed independently here (enumeration, hand arithmetic)."""
import itertools
import math

import pytest

import harness_paths  # noqa: F401  (puts python/ on sys.path)
from tritonize import metrics


def pass_at_k_by_enumeration(n, c, k):
    """The fraction of all k-subsets of n samples (c of them correct) that hold at least one correct sample."""
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(samples[i] for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", range(1, 9))
def test_pass_at_k_matches_enumeration(n):
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert metrics.pass_at_k(n, c, k) == pytest.approx(pass_at_k_by_enumeration(n, c, k), abs=1e-12)


def test_pass_at_k_worked_example():
    # n=10, c=3, k=1: 3/10; k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252
    assert metrics.pass_at_k(10, 3, 1) == pytest.approx(0.3)
    assert metrics.pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)
    with pytest.raises(ValueError):
        metrics.pass_at_k(3, 1, 4)


def test_geomean():
    assert metrics.geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert metrics.geomean([1.0, 10.0, 100.0]) == pytest.approx(10.0)
    assert metrics.geomean([]) is None
    assert metrics.geomean([None, 4.0]) == pytest.approx(4.0)


def record(problem, status, eager=None, compile=None, group="g", sample="", fraction=None):
    timing = None
    if eager is not None:
        timing = {"speedup_eager": eager, "speedup_compile": compile}
    floor = {"achieved_fraction": fraction} if fraction is not None else None
    return {"problem": problem, "group": group, "sample": sample, "status": status,
            "correct": status in ("pass", "suspect"), "timing": timing, "floor": floor}


# Eight problems; speedups over eager and compile chosen so every threshold separates something.
EXAMPLE = [
    record("a", "pass", 0.4, 0.3),
    record("b", "pass", 0.5, 0.45),   # exactly 0.5: not fast_0.5 (strictly greater, as KernelBench)
    record("c", "pass", 0.9, 0.7),
    record("d", "pass", 1.2, 0.85),
    record("e", "pass", 3.0, 2.5),
    record("f", "suspect", 50.0, 40.0),  # correct but suspect: never counted as fast
    record("g", "incorrect"),
    record("h", "timeout"),
]


def test_fast_p_worked_example():
    best = EXAMPLE
    # eager speedups of the pass records: 0.4, 0.5, 0.9, 1.2, 3.0; 8 problems in all
    assert metrics.fast_p(best, 0.0, "eager") == pytest.approx(5 / 8)
    assert metrics.fast_p(best, 0.5, "eager") == pytest.approx(3 / 8)
    assert metrics.fast_p(best, 0.8, "eager") == pytest.approx(3 / 8)
    assert metrics.fast_p(best, 1.0, "eager") == pytest.approx(2 / 8)
    assert metrics.fast_p(best, 1.5, "eager") == pytest.approx(1 / 8)
    assert metrics.fast_p(best, 2.0, "eager") == pytest.approx(1 / 8)
    # compile speedups: 0.3, 0.45, 0.7, 0.85, 2.5
    assert metrics.fast_p(best, 0.5, "compile") == pytest.approx(3 / 8)
    assert metrics.fast_p(best, 0.8, "compile") == pytest.approx(2 / 8)
    assert metrics.fast_p(best, 1.0, "compile") == pytest.approx(1 / 8)


def test_summary_of_worked_example():
    s = metrics.summarize(EXAMPLE)["total"]
    assert s["problems"] == 8
    assert s["correct"] == 6
    assert s["suspect"] == 1
    assert s["status_counts"] == {"pass": 5, "suspect": 1, "incorrect": 1, "timeout": 1}
    expected = math.exp(sum(math.log(v) for v in (0.4, 0.5, 0.9, 1.2, 3.0)) / 5)
    assert s["geomean_speedup"]["eager"] == pytest.approx(expected)
    assert s["fast_p"]["eager"]["1"] == pytest.approx(2 / 8)
    assert s["pass_at_k"] == {"1": pytest.approx(6 / 8)}


def test_samples_best_and_pass_at_k():
    records = [
        record("p", "incorrect", sample="s0"), record("p", "pass", 1.5, 1.0, sample="s1"),
        record("p", "pass", 2.5, 1.2, sample="s2"), record("p", "incorrect", sample="s3"),
        record("q", "incorrect", sample="s0"), record("q", "incorrect", sample="s1"),
        record("q", "incorrect", sample="s2"), record("q", "pass", 0.9, 0.5, sample="s3"),
    ]
    s = metrics.summarize(records)["total"]
    assert s["problems"] == 2 and s["samples"] == 8 and s["correct"] == 2
    # best sample of p is s2 (2.5x); of q is s3 (0.9x)
    assert s["geomean_speedup"]["eager"] == pytest.approx(math.sqrt(2.5 * 0.9))
    assert s["pass_at_k"]["1"] == pytest.approx((2 / 4 + 1 / 4) / 2)
    assert "5" not in s["pass_at_k"]  # no problem has 5 samples


def test_groups_are_summarized_separately():
    records = [record("a", "pass", 2.0, 1.0, group="level1"), record("b", "incorrect", group="level2")]
    summary = metrics.summarize(records)
    assert set(summary["groups"]) == {"level1", "level2"}
    assert summary["groups"]["level1"]["correct"] == 1
    assert summary["groups"]["level2"]["correct"] == 0
