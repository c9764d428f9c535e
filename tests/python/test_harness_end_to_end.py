"""The whole path on the CPU: check and bench run real worker processes over generated files, with Triton's
interpreter standing in for the GPU. (GPU-only parts, the memory poisoning, CUDA timing, side streams and
illegal addresses, are covered by tests/gpu/run_hacks.sh.)"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

from harness_paths import DATA, HACKS, REPO

sys.path.insert(0, os.path.join(REPO, "tests", "gpu"))
import assert_hacks  # noqa: E402

from tritonize import schema  # noqa: E402


def run_module(module, *args, timeout=600):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"), CUDA_VISIBLE_DEVICES="")
    return subprocess.run([sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=REPO)


def read_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


FAST = ["--trials", "2", "--warmup", "1", "--no-compile"]


def test_check_good_and_wrong(tmp_path):
    out = tmp_path / "check.jsonl"
    good = run_module("tritonize.check", os.path.join(DATA, "scaled_relu.py"), os.path.join(DATA, "scaled_relu_good.py"),
                      "--json", out, *FAST)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "verdict      PASS" in good.stdout
    wrong = run_module("tritonize.check", os.path.join(DATA, "scaled_relu.py"),
                       os.path.join(DATA, "scaled_relu_wrong.py"), "--json", out, "--no-timing")
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert "INCORRECT (mismatch)" in wrong.stdout
    first, second = read_records(out)
    assert schema.validate(first) == [] and schema.validate(second) == []
    assert first["status"] == "pass" and first["timing"]["ours"]["n"] == 2 and first["floor"] is not None
    assert first["correctness"]["trials_passed"] == 5 and first["correctness"]["max_abs_diff"] < 1e-5
    assert second["correctness"]["trials_passed"] == 0 and second["correctness"]["max_abs_diff"] > 0.1
    assert second["timing"] is None
    with open(os.path.join(DATA, "scaled_relu_good.py"), "rb") as f:  # (the measured file, for stale_records.py)
        assert first["gen_sha256"] == hashlib.sha256(f.read()).hexdigest()


def shrunk_hacks(tmp_path, names):
    """Copies of the GPU hack references with small sizes (the interpreter is slow), and their generated files."""
    refs, gen = tmp_path / "refs", tmp_path / "gen"
    refs.mkdir()
    gen.mkdir()
    for name in names:
        text = open(os.path.join(HACKS, "refs", name + ".py")).read()
        lines = [("rows, cols = 33, 70" if line.startswith("rows, cols =") else line) for line in text.splitlines()]
        (refs / (name + ".py")).write_text("\n".join(lines) + "\n")
        shutil.copy(os.path.join(HACKS, "gen", name + ".py"), gen / (name + ".py"))
    return refs, gen


CPU_HACKS = ["0_good_relu", "1_wrong_one_trial", "3_aliased_output", "4_try_except_fallback"]


def test_bench_catches_the_cpu_runnable_hacks_and_resumes(tmp_path):
    refs, gen = shrunk_hacks(tmp_path, CPU_HACKS)
    report = tmp_path / "report"
    # two workers share the "GPU": their measured stages take turns through the lock file, which their loading
    # and first calls hold shared
    done = run_module("tritonize.bench", refs, "--gen-dir", gen, "--report", report, "--timeout", 300,
                      "--jobs-per-gpu", 2, *FAST)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 worker(s) each" in done.stderr
    logs = [open(report / "logs" / name).read() for name in os.listdir(report / "logs") if name.endswith(".log")]
    assert len(logs) == 4 and all("gpu lock (shared) after" in text and "gpu lock (exclusive) after" in text
                                  for text in logs)
    records = read_records(report / "results.jsonl")
    assert [schema.validate(r) for r in records] == [[]] * len(CPU_HACKS)
    expected = json.load(open(os.path.join(HACKS, "expected.json")))
    assert assert_hacks.check(records, {name: expected[name] for name in CPU_HACKS}) == []

    # the report and the summary are written, and the tables printed
    page = (report / "report.html").read_text()
    assert "speedup-eager" in page and "4_try_except_fallback" in page
    summary = json.load(open(report / "summary.json"))["summary"]
    assert summary["total"]["problems"] == 4 and summary["total"]["correct"] == 1
    assert "TOTAL" in done.stdout

    # --resume runs nothing already recorded and keeps the records
    again = run_module("tritonize.bench", refs, "--gen-dir", gen, "--report", report, "--resume", *FAST)
    assert again.returncode == 0, again.stderr
    assert "0 job(s) (4 already done)" in again.stderr
    assert len(read_records(report / "results.jsonl")) == 4


def test_bench_survives_a_hang_and_a_crash(tmp_path):
    refs, gen = shrunk_hacks(tmp_path, ["6_hang"])
    shutil.copy(os.path.join(DATA, "scaled_relu.py"), refs / "crash_abort.py")
    shutil.copy(os.path.join(DATA, "crash_abort.py"), gen / "crash_abort.py")
    out = tmp_path / "results.jsonl"
    done = run_module("tritonize.bench", refs, "--gen-dir", gen, "--json", out, "--timeout", 20, "--quiet",
                      "--no-timing")
    assert done.returncode == 0, done.stdout + done.stderr
    by_problem = {r["problem"]: r for r in read_records(out)}
    assert by_problem["6_hang"]["status"] == "timeout"
    assert "stage: prepare" in by_problem["6_hang"]["error"]["message"]  # its first call, which compiles
    crash = by_problem["crash_abort"]
    assert crash["status"] == "crash" and "SIGABRT" in crash["error"]["message"]
    assert crash["static"] is not None  # the stages before the crash are kept


FAKE_COMPILER = """#!{python}
# A stand-in for the tritonize binary: converts scaled_relu.py, fails on anything else.
import shutil, sys
_, verb, ref, flag, out = sys.argv
if ref.endswith("scaled_relu.py"):
    shutil.copy({good!r}, out)
else:
    sys.stderr.write(ref + ":7:9: error: unsupported operation 'torch.frobnicate'\\n")
    sys.exit(1)
"""


def test_bench_converts_missing_files_and_records_failures(tmp_path):
    refs = tmp_path / "refs"
    refs.mkdir()
    shutil.copy(os.path.join(DATA, "scaled_relu.py"), refs / "scaled_relu.py")
    shutil.copy(os.path.join(DATA, "scaled_relu.py"), refs / "unsupported.py")
    compiler = tmp_path / "fake-tritonize"
    compiler.write_text(FAKE_COMPILER.format(python=sys.executable,
                                             good=os.path.join(DATA, "scaled_relu_good.py")))
    compiler.chmod(0o755)
    gen = tmp_path / "gen"
    out = tmp_path / "results.jsonl"
    done = run_module("tritonize.bench", refs, "--gen-dir", gen, "--tritonize", compiler, "--json", out,
                      "--quiet", "--no-timing")
    assert done.returncode == 0, done.stdout + done.stderr
    by_problem = {r["problem"]: r for r in read_records(out)}
    converted = by_problem["scaled_relu"]
    assert converted["status"] == "pass" and converted["convert"]["ran"] and converted["convert"]["ok"]
    assert os.path.isfile(gen / "scaled_relu.py")
    failed = by_problem["unsupported"]
    assert failed["status"] == "convert_error" and "torch.frobnicate" in failed["error"]["message"]
    assert failed["convert"]["stderr"].startswith(str(refs / "unsupported.py"))

    missing = run_module("tritonize.bench", refs, "--gen-dir", tmp_path / "empty", "--json", out, "--quiet")
    assert {r["status"] for r in read_records(out)} == {"missing_generated"}
    assert missing.returncode == 0


def test_bench_usage_errors():
    assert run_module("tritonize.bench").returncode == 2
    assert run_module("tritonize.bench", DATA).returncode == 2  # PATHS without --gen-dir
    assert run_module("tritonize.check", "no_such_ref.py", "no_such_gen.py").returncode == 2


def test_pool_spreads_jobs_over_gpus(tmp_path):
    from tritonize import problem, runner

    pairs = []
    for name in ("first", "second"):
        shutil.copy(os.path.join(DATA, "scaled_relu.py"), tmp_path / f"{name}.py")
        pairs.append((str(tmp_path / f"{name}.py"), os.path.join(DATA, "scaled_relu_good.py")))
    options = runner.Options(no_timing=True, work_dir=str(tmp_path / "work"), timeout=300)
    jobs = runner.plan_jobs(problem.problems_from_pairs(pairs), options)
    seen = []
    records = runner.Pool([0, 1], options, seen.append).run(jobs)
    assert sorted(r["problem"] for r in records) == ["first", "second"]
    assert all(r["status"] == "pass" and r["gpu"] in (0, 1) for r in records)
    assert len(seen) == 2
