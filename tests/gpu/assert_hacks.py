"""Check a bench run over tests/gpu/hacks against hacks/expected.json: each broken file caught for its reason.

python3 tests/gpu/assert_hacks.py RESULTS.jsonl [EXPECTED.json]   exit status 0 when every expectation holds.
"""
from __future__ import annotations

import json
import os
import sys


def check(records: list[dict], expected: dict) -> list[str]:
    """Failed expectations, one line each (empty: all hold)."""
    by_problem = {r["problem"]: r for r in records}
    failures = []
    for name, want in expected.items():
        record = by_problem.get(name)
        if record is None:
            failures.append(f"{name}: no record")
            continue
        got = f"status={record['status']} reasons={record['reasons']}"
        if record["status"] != want["status"]:
            failures.append(f"{name}: expected status {want['status']}, got {got}")
        missing = [r for r in want["reasons"] if r not in record["reasons"]]
        if missing:
            failures.append(f"{name}: reasons {missing} missing, got {got}")
        if "trials_passed" in want:
            passed = (record.get("correctness") or {}).get("trials_passed")
            if passed != want["trials_passed"]:
                failures.append(f"{name}: expected {want['trials_passed']} trials passed, got {passed}")
    return failures


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    expected_path = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "hacks", "expected.json")
    with open(argv[0], encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    with open(expected_path, encoding="utf-8") as f:
        expected = json.load(f)
    failures = check(records, expected)
    for name in expected:
        record = next((r for r in records if r["problem"] == name), None)
        if record is not None:
            print(f"{name:24s} {record['status']:22s} {', '.join(record['reasons'])}")
    for line in failures:
        print("FAIL " + line)
    print(f"{len(expected) - len({f.split(':')[0] for f in failures})} passed, "
          f"{len({f.split(':')[0] for f in failures})} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
