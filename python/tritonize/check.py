"""python3 -m tritonize.check REF.py GEN.py: verify and time one generated file, and say what was found.

The job runs in its own process like a bench job (a hang or a crash is reported, not suffered). Exit status:
0 when the generated file is correct (status pass or suspect), 1 when it is not, 2 on a usage error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

from . import problem, runner
from .bench import add_run_options, options_from_args


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m tritonize.check",
                                     description="Verify and time one generated ModelNew file against its reference.")
    parser.add_argument("ref", help="the reference problem (class Model, get_inputs, get_init_inputs)")
    parser.add_argument("gen", help="the generated file (class ModelNew)")
    parser.add_argument("--json", metavar="FILE", help="append the record (one JSON line) to FILE")
    parser.add_argument("--gpu", type=int, help="GPU index to run on (default: the first visible)")
    parser.add_argument("--work-dir", help="keep the worker's log here (default: a temporary directory)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a module-level constant of REF, as `tritonize convert --set` does")
    add_run_options(parser, default_timeout=900)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    for path in (args.ref, args.gen):
        if not os.path.isfile(path):
            print(f"tritonize check: no such file: {path}", file=sys.stderr)
            return 2
    work_dir = args.work_dir or tempfile.mkdtemp(prefix="tritonize-check-")
    if args.set:
        try:
            args.ref = problem.with_overrides(args.ref, args.set, work_dir)
        except ValueError as e:
            print(f"tritonize check: {e}", file=sys.stderr)
            return 2
    calibration, calibration_path = runner.run_calibration(work_dir, measure=not args.no_calibrate and not args.no_timing)
    options = options_from_args(args, work_dir, calibration_path)
    job = runner.plan_jobs(problem.problems_from_pairs([(args.ref, args.gen)]), options)[0]
    gpu = None if calibration.get("device") == "cpu" else args.gpu
    record = runner.run_job(job, gpu, options)
    print(describe(record))
    if args.json:
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
    return 0 if record["correct"] else 1


def describe(record: dict) -> str:
    """A person's summary of one record."""
    lines = [f"tritonize check: {record['problem']}  ({record['dtype']}, {record['device'] or 'no device'})"]
    static = record.get("static")
    if static:
        if static["ok"]:
            lines.append(f"  static       ok ({len(static['kernels'])} kernel(s), {static['launches']} launch site(s))")
        else:
            lines.append("  static       FAIL")
            lines += [f"               line {v['line']}: [{v['rule']}] {v['message']}" for v in static["violations"]]
        if not static["kernelbench_ok"]:
            lines.append("  kernelbench  its static checker would reject: " + "; ".join(static["kernelbench_violations"]))
    corr = record.get("correctness")
    if corr:
        lines.append(f"  correctness  {corr['trials_passed']}/{corr['trials']} trials pass at atol=rtol={corr['atol']:g};"
                     f" max abs diff {_g(corr['max_abs_diff'])}, mean {_g(corr['mean_abs_diff'])};"
                     f" passes 1e-2: {'yes' if corr['passes_1e2'] else 'no'}")
        lines.append(f"               free memory poisoned: {'yes' if corr['poisoned'] else 'no (no CUDA)'};"
                     f" unwritten elements: {corr['unwritten_elements']};"
                     f" output aliases input: {'YES' if corr['aliased_output'] else 'no'};"
                     f" inputs modified: {'YES' if corr['input_modified'] else 'no'}")
    timing = record.get("timing")
    if timing:
        line = f"  timing       ours {timing['ours']['median_ms']:.4f} ms (median of {timing['ours']['n']})," \
               f" eager {timing['eager']['median_ms']:.4f} ms ({timing['speedup_eager']:.2f}x)"
        if timing.get("compile"):
            line += f", torch.compile {timing['compile']['median_ms']:.4f} ms ({timing['speedup_compile']:.2f}x," \
                    f" compiled in {timing['compile_seconds']:.1f} s)"
        lines.append(line)
        if timing["repeats"] > 1:
            lines.append("               medians of the repeats: " +
                         ", ".join(f"{m:.4f}" for m in timing["ours_repeat_medians_ms"]) + " ms")
    floor = record.get("floor")
    if floor:
        achieved = floor["achieved_fraction"]
        lines.append(f"  floor        {floor['floor_ms']:.4f} ms ({floor['bound']}-bound: {floor['bytes'] / 1e6:.1f} MB,"
                     f" {floor['flops'] / 1e9:.2f} GFLOP); achieved {'-' if achieved is None else f'{achieved:.0%}'}")
    if record.get("error"):
        lines.append(f"  error        {record['error']['kind']}:")
        lines += ["               " + line for line in record["error"]["message"].strip().splitlines()[-12:]]
    lines.append(f"  verdict      {record['status'].upper()}" +
                 (f" ({', '.join(record['reasons'])})" if record["reasons"] else ""))
    if record.get("log"):
        lines.append(f"  log          {record['log']}")
    return "\n".join(lines)


def _g(x) -> str:
    return "-" if x is None else f"{x:.3g}"


if __name__ == "__main__":
    sys.exit(main())
