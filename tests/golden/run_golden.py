#!/usr/bin/env python3
"""Golden text tests: each case in cases.txt is converted at three stages (--emit=graph, kernels, triton) and the
text compared with tests/golden/expected/<case>.<stage>. `--update` rewrites the expected files (review the diff).

cases.txt lines: `NAME  PATH  [--set K=V ...]` (PATH relative to the repository root; # comments allowed).
"""
import argparse
import difflib
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
HERE = pathlib.Path(__file__).resolve().parent
STAGES = ("graph", "kernels", "triton")


def cases():
    for line in (HERE / "cases.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, path, *args = shlex.split(line)
            yield name, ROOT / path, args


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tritonize", required=True)
    ap.add_argument("--update", action="store_true")
    opts = ap.parse_args()
    failures = 0
    for name, path, args in cases():
        for stage in STAGES:
            proc = subprocess.run([opts.tritonize, "convert", str(path), f"--emit={stage}", *args],
                                  capture_output=True, text=True, cwd=ROOT)
            expected_file = HERE / "expected" / f"{name}.{stage}"
            if proc.returncode != 0:
                print(f"FAIL {name} [{stage}]: conversion failed\n{proc.stderr}")
                failures += 1
                continue
            if opts.update:
                expected_file.write_text(proc.stdout)
                continue
            if not expected_file.exists():
                print(f"FAIL {name} [{stage}]: no expected file {expected_file} (run with --update)")
                failures += 1
                continue
            expected = expected_file.read_text()
            if proc.stdout != expected:
                diff = difflib.unified_diff(expected.splitlines(), proc.stdout.splitlines(),
                                            f"expected/{name}.{stage}", "actual", lineterm="")
                print(f"FAIL {name} [{stage}]:\n" + "\n".join(list(diff)[:60]))
                failures += 1
    total = sum(1 for _ in cases()) * len(STAGES)
    print(f"golden: {total - failures}/{total} passed" + (" (updated)" if opts.update else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
