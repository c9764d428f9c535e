"""scripts/ab_compare.py: the table of an A/B bench run (two samples, old and new, per problem)."""
import json
import os
import subprocess
import sys

from harness_paths import REPO


def record(problem, sample, correct, ms):
    timing = {"ours": {"median_ms": ms}} if ms is not None else None
    return {"problem": problem, "sample": sample, "correct": correct, "status": "pass" if correct else "incorrect",
            "timing": timing}


def test_ab_table_and_geomean(tmp_path):
    path = tmp_path / "ab.jsonl"
    rows = [record("a", "old", True, 2.0), record("a", "new", True, 1.0),
            record("b", "old", True, 1.0), record("b", "new", True, 2.0),
            record("c", "old", True, 1.0), record("c", "new", False, None)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "ab_compare.py"), str(path)],
                         capture_output=True, text=True, check=True).stdout
    assert "| a | yes | yes | 2.000 | 1.000 | 0.500 |" in out
    assert "| b | yes | yes | 1.000 | 2.000 | 2.000 |" in out
    assert "| c | yes | incorrect | 1.000 | - | - |" in out
    assert "geometric mean over 2 problems correct on both sides: 1.000" in out
