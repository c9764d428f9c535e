#!/usr/bin/env python3
"""The newest GPU record that still speaks for each corpus problem: of every corpus-run record in the given
result files (default: all of docs/gpu-runs/*.jsonl), the ones whose gen_sha256 is the hash of the file the given
compiler writes today for that problem; of those, the ones with a torch.compile timing first, then the newest.
Prints one JSON record per line (a whole-corpus results.jsonl for scripts/results_table.py) and, on stderr, the
problems that no record speaks for (rerun those: scripts/stale_records.py lists the same set).

    scripts/merge_records.py [RESULTS.jsonl ...] [--tritonize BIN] [--corpus DIR] > merged.jsonl
"""
import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def todays_hashes(tritonize: str, corpus: Path) -> dict:
    """{problem: sha256 of the generated file today, or None where conversion fails}."""
    hashes = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gen.py"
        for ref in sorted(corpus.glob("*.py")):
            if "class Model(" not in ref.read_text():
                continue
            out.unlink(missing_ok=True)
            subprocess.run([tritonize, "convert", str(ref), "-o", str(out)], capture_output=True)
            hashes[ref.stem] = hashlib.sha256(out.read_bytes()).hexdigest() if out.exists() else None
    return hashes


def rank(record: dict) -> tuple:
    timing = record.get("timing") or {}
    return (timing.get("compile") is not None, record.get("time") or "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path, nargs="*")
    ap.add_argument("--tritonize", default=str(ROOT / "build" / "tritonize"))
    ap.add_argument("--corpus", type=Path, default=ROOT / "tests" / "corpus")
    args = ap.parse_args()
    files = args.results or sorted((ROOT / "docs" / "gpu-runs").glob("*.jsonl"))
    today = todays_hashes(args.tritonize, args.corpus)
    best = {}
    for path in files:
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            problem = Path(record.get("ref", "")).stem
            if record.get("sample", "") != "" or problem not in today:
                continue
            if today[problem] is None or record.get("gen_sha256") != today[problem]:
                continue
            if problem not in best or rank(record) > rank(best[problem]):
                best[problem] = record
    for problem in sorted(best):
        print(json.dumps(best[problem]))
    missing = sorted(set(today) - set(best))
    print(f"{len(best)} of {len(today)} problems have a record of today's file; "
          f"{len(missing)} have none: {' '.join(missing)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
