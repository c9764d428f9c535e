#!/usr/bin/env python3
"""Converts every corpus problem at its full size into a directory of generated files (for the GPU suite), and
reports the conversion time: the median of --repeat runs per problem (the compiler-speed benchmark).

    scripts/convert_corpus.py [--out gen] [--repeat 5] [--tritonize build/tritonize] [PATHS...]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "tests" / "corpus")])
    ap.add_argument("--out", default=str(ROOT / "gen"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--tritonize", default=str(ROOT / "build" / "tritonize"))
    opts = ap.parse_args()
    files = []
    for p in map(pathlib.Path, opts.paths):
        files += sorted(f for f in p.glob("*.py") if not f.name.startswith(("verify_", "_"))) if p.is_dir() else [p]
    out = pathlib.Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    times, failed = {}, {}
    for f in files:
        samples = []
        for _ in range(opts.repeat):
            start = time.perf_counter()
            proc = subprocess.run([opts.tritonize, "convert", str(f), "-o", str(out / f.name)],
                                  capture_output=True, text=True)
            samples.append((time.perf_counter() - start) * 1e3)
            if proc.returncode != 0:
                failed[f.name] = proc.stderr.strip()
                break
        if f.name not in failed:
            times[f.name] = statistics.median(samples)
    for name, err in failed.items():
        print(f"FAILED {name}:\n{err}\n")
    if times:
        med = statistics.median(times.values())
        worst = max(times, key=times.get)
        print(f"converted {len(times)}/{len(files)}; median conversion {med:.1f} ms "
              f"(slowest {worst}: {times[worst]:.1f} ms), process start included")
    (out / "convert_times.json").write_text(json.dumps({"ms": times, "failed": failed}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
