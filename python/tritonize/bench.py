"""python3 -m tritonize.bench: score many generated files against their references.

    python3 -m tritonize.bench PATHS... --gen-dir DIR [--tritonize BIN] [--report DIR] [--json FILE] [--resume]
                               [--gpus N] [--timeout S] [--trials N] ...
    python3 -m tritonize.bench --pairs FILE | --pair REF GEN ...

PATHS are reference problem files or directories of them (searched recursively). The generated file for X/foo.py
is GEN_DIR/foo.py (a directory GEN_DIR/foo/ holds several samples). With --tritonize BIN a missing generated file
is made by `BIN convert REF -o GEN_DIR/foo.py`, and a failed conversion is recorded as that problem's result.
Each job runs in its own process (runner.py); results are appended to the JSON-lines file as they come, so an
interrupted run continues with --resume. docs/HARNESS.md describes every option and the record's fields.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import sys
import tempfile

from . import metrics, problem, report_html, report_text, runner
from .problem import DTYPES


def add_run_options(parser: argparse.ArgumentParser, default_timeout: float) -> None:
    """Options shared by check and bench."""
    parser.add_argument("--dtype", choices=DTYPES, help="cast models and floating inputs to this dtype "
                        "(default: the problem's '# dtype:' line, else fp32)")
    parser.add_argument("--timeout", type=float, default=default_timeout, help="seconds per job (default %(default)s)")
    parser.add_argument("--trials", type=int, default=100, help="timed trials per contender (default %(default)s)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed calls before timing (default %(default)s)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="time the interleaved block this many times, to see how stable the medians are")
    parser.add_argument("--correct-trials", type=int, default=5, help="correctness trials (default %(default)s)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--no-timing", action="store_true", help="check correctness only")
    parser.add_argument("--no-compile", action="store_true", help="do not time torch.compile")
    parser.add_argument("--no-calibrate", action="store_true",
                        help="use DESIGN.md's bandwidth and peak rates instead of measuring them")


def options_from_args(args: argparse.Namespace, work_dir: str, calibration: str | None) -> runner.Options:
    return runner.Options(
        gen_dir=getattr(args, "gen_dir", None), tritonize=getattr(args, "tritonize", None), dtype=args.dtype,
        timeout=args.timeout, seed=args.seed, correct_trials=args.correct_trials, trials=args.trials,
        warmup=args.warmup, repeats=args.repeats, no_timing=args.no_timing, no_compile=args.no_compile,
        calibration=calibration, work_dir=work_dir, jobs_per_gpu=max(1, getattr(args, "jobs_per_gpu", 1)),
        measure_cpus_per_gpu=max(0, getattr(args, "measure_cpus_per_gpu", 2)))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m tritonize.bench",
                                     description="Verify and time generated ModelNew files against their references.")
    parser.add_argument("paths", nargs="*", help="reference problem files or directories")
    parser.add_argument("--gen-dir", help="directory of generated files (GEN_DIR/<stem>.py)")
    parser.add_argument("--tritonize", metavar="BIN", help="compiler used to convert references with no generated file")
    parser.add_argument("--set-file", help="a file listing more reference paths, one per line")
    parser.add_argument("--pairs", help="a file of 'REF GEN' lines (instead of PATHS and --gen-dir)")
    parser.add_argument("--pair", nargs=2, action="append", metavar=("REF", "GEN"), default=[],
                        help="one reference and its generated file (repeatable)")
    parser.add_argument("--report", metavar="DIR", help="write report.html, results.jsonl, summary.json, logs/ here")
    parser.add_argument("--json", metavar="FILE", help="JSON-lines results (default DIR/results.jsonl, "
                        "else ./tritonize-bench.jsonl)")
    parser.add_argument("--resume", action="store_true", help="skip jobs already in the JSON file; keep its records")
    parser.add_argument("--gpus", type=int, default=1, help="GPUs to use (default %(default)s)")
    parser.add_argument("--jobs-per-gpu", type=int, default=1,
                        help="workers per GPU (default %(default)s); with more than one, a worker's imports, loading "
                        "and compiles overlap another's measurements, which hold the GPU alone (a lock)")
    parser.add_argument("--measure-cpus-per-gpu", type=int, default=2,
                        help="with several workers a GPU: CPU cores left to the measuring worker's timing thread, "
                        "the other workers' imports and compiles running on the rest (default %(default)s; 0: none)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or tables")
    add_run_options(parser, default_timeout=600)
    args = parser.parse_args(argv)
    if not (args.paths or args.set_file or args.pairs or args.pair):
        parser.error("give reference PATHS, --set-file, --pairs or --pair")
    if (args.paths or args.set_file) and not (args.gen_dir or args.tritonize):
        parser.error("PATHS need --gen-dir (or --tritonize to convert them)")
    return args


def load_records(path: str) -> list[dict]:
    """Records of a JSON-lines file; a torn last line (an interrupted write) is skipped."""
    records = []
    if not os.path.isfile(path):
        return records
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    records.append(json.loads(line))
                except ValueError:
                    continue
    return records


def collect_problems(args: argparse.Namespace) -> list[problem.Problem]:
    pairs = list(map(tuple, args.pair))
    if args.pairs:
        pairs += problem.read_pairs(args.pairs)
    problems = problem.problems_from_pairs(pairs) if pairs else []
    if args.paths or args.set_file:
        problems += problem.discover(args.paths, args.set_file)
    return problems


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    problems = collect_problems(args)
    if not problems:
        print("tritonize bench: no problems found", file=sys.stderr)
        return 2
    work_dir = args.report or tempfile.mkdtemp(prefix="tritonize-bench-")
    os.makedirs(work_dir, exist_ok=True)
    if args.tritonize and not args.gen_dir:
        args.gen_dir = os.path.join(work_dir, "generated")
    json_path = args.json or (os.path.join(args.report, "results.jsonl") if args.report else "tritonize-bench.jsonl")

    calibration, calibration_path = runner.run_calibration(work_dir, measure=not args.no_calibrate)
    options = options_from_args(args, work_dir, calibration_path)
    jobs = runner.plan_jobs(problems, options)

    previous = load_records(json_path) if args.resume else []
    done = {(r["problem"], r["sample"]) for r in previous}
    todo = [job for job in jobs if job.key not in done]
    if not args.resume:
        open(json_path, "w").close()
    gpus = [None] if calibration.get("device") == "cpu" else runner.gpu_ids(args.gpus)

    progress = None if args.quiet else report_text.Progress(len(todo))
    if not args.quiet:
        device = calibration.get("device") or "unknown device"
        print(f"tritonize bench: {len(todo)} job(s) ({len(jobs) - len(todo)} already done) on {device}"
              f" x{len(gpus)}, {options.jobs_per_gpu} worker(s) each; results in {json_path}", file=sys.stderr)

    with open(json_path, "a", encoding="utf-8") as out:
        def on_done(record: dict) -> None:
            out.write(json.dumps(record) + "\n")
            out.flush()
            if progress:
                progress.update(record)

        new = runner.Pool(gpus, options, on_done).run(todo)
    if progress:
        progress.finish()

    records = previous + new
    summary = metrics.summarize(records)
    if not args.quiet:
        print(report_text.results_table(records))
        print()
        print(report_text.summary_table(summary))
    if args.report:
        write_report(args.report, records, summary, calibration, argv)
        if not args.quiet:
            print(f"\nreport: {os.path.join(args.report, 'report.html')}")
    return 0


def write_report(directory: str, records: list[dict], summary: dict, calibration: dict,
                 argv: list[str] | None) -> str:
    os.makedirs(directory, exist_ok=True)
    harness = next((r["harness"] for r in records if r.get("harness", {}).get("torch")), {})
    meta = {
        "title": "tritonize bench",
        "time": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "device": calibration.get("device"),
        "torch": harness.get("torch"),
        "triton": harness.get("triton"),
        "calibration": calibration,
        "command": "tritonize bench " + shlex.join(sys.argv[1:] if argv is None else argv),
    }
    path = os.path.join(directory, "report.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(report_html.build_report(records, summary, meta))
    with open(os.path.join(directory, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "summary": summary}, f, indent=2)
    return path


if __name__ == "__main__":
    sys.exit(main())
