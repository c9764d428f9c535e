#!/usr/bin/env python3
"""Which corpus problems a set of GPU records no longer speaks for: the problems whose generated file, as the
given compiler writes it today, is not byte for byte the file that was measured (the record's gen_sha256), or
that have no record, or whose record predates the field. Rerun those; the other records stand.

    scripts/stale_records.py RESULTS.jsonl [--tritonize BIN] [--corpus DIR]   -> one tests/corpus/NAME.py per line

(Comparing two compilers instead, as scripts/changed_problems.sh does, trusts that the older one is what the
records measured; once that was not so, and a launcher bug stayed unseen for a session.)
"""
import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measured_hashes(results: Path) -> dict:
    """{reference path's stem: gen_sha256 or None} of the records without a sample name (the corpus runs)."""
    hashes = {}
    for line in results.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            if record.get("sample", "") == "":
                hashes[Path(record["ref"]).stem] = record.get("gen_sha256")
    return hashes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("--tritonize", default=str(ROOT / "build" / "tritonize"))
    ap.add_argument("--corpus", type=Path, default=Path("tests/corpus"))
    args = ap.parse_args()
    hashes = measured_hashes(args.results)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "gen.py"
        for ref in sorted(args.corpus.glob("*.py")):
            if "class Model(" not in ref.read_text():
                continue  # (not a problem: e.g. tests/corpus/verify_corpus.py)
            out.unlink(missing_ok=True)
            subprocess.run([args.tritonize, "convert", str(ref), "-o", str(out)], capture_output=True)
            today = hashlib.sha256(out.read_bytes()).hexdigest() if out.exists() else None
            if today is None or hashes.get(ref.stem) != today:
                print(ref)
    return 0


if __name__ == "__main__":
    sys.exit(main())
