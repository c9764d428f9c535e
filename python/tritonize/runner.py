"""Running jobs in isolation: each (problem, sample) in its own worker process, with a time limit.

A job converts the reference first when asked to (BIN convert REF -o GEN), then starts
`python3 -m tritonize.worker` in a new process group, pinned to one GPU through CUDA_VISIBLE_DEVICES, with its
output in a log file. A worker that outlives the time limit is killed (its process group, by id), one that dies
is recorded as a crash (or as an illegal memory access when its log says so); either way the stages it finished
are kept. Threads take jobs from a shared queue: one per GPU, or several (jobs_per_gpu), whose workers then take
turns measuring through a lock file per GPU (worker.py's --gpu-lock); a job's time limit includes that wait.

No torch here: the parent must not hold a CUDA context while its workers use the GPUs.
"""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from .problem import Problem, find_samples, generated_path
from .schema import finalize, new_record, set_error

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ILLEGAL_ACCESS = re.compile(r"illegal memory access|illegal address|misaligned address|unspecified launch failure",
                             re.IGNORECASE)


@dataclass
class Options:
    gen_dir: str | None = None
    tritonize: str | None = None          # the compiler, to convert missing generated files
    dtype: str | None = None              # overrides the problems' "# dtype:" lines
    timeout: float = 600.0                # seconds per job (worker), conversion excluded
    convert_timeout: float = 300.0
    seed: int = 42
    correct_trials: int = 5
    trials: int = 100
    warmup: int = 10
    repeats: int = 1
    no_timing: bool = False
    no_compile: bool = False
    calibration: str | None = None        # JSON file from tritonize.calibrate
    work_dir: str = "."                   # records in progress and logs go here
    jobs_per_gpu: int = 1                 # workers sharing one GPU; their measured stages take turns (a lock)
    measure_cpus_per_gpu: int = 2         # with the lock: CPU cores kept for the measuring worker (0: none)
    python: str = sys.executable


@dataclass
class Job:
    problem: Problem
    gen: str
    sample: str
    convert: bool = False                 # the generated file is missing and the compiler should make it

    @property
    def key(self) -> tuple[str, str]:
        return (self.problem.id, self.sample)


def plan_jobs(problems: list[Problem], options: Options) -> list[Job]:
    """One job per generated sample; a missing generated file is one job (converted, or recorded as missing)."""
    jobs = []
    for problem in problems:
        samples = problem.samples or (find_samples(problem, options.gen_dir) if options.gen_dir else [])
        if samples:
            jobs += [Job(problem, gen, _sample_name(gen, len(samples))) for gen in samples]
        else:
            gen = generated_path(problem, options.gen_dir or ".", problems)
            jobs.append(Job(problem, gen, "", convert=options.tritonize is not None))
    return jobs


def _sample_name(gen: str, count: int) -> str:
    return os.path.splitext(os.path.basename(gen))[0] if count > 1 else ""


def safe_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "problem"


def run_job(job: Job, gpu: int | None, options: Options) -> dict:
    """The finished record of one job."""
    problem = job.problem
    dtype = options.dtype or problem.dtype or "fp32"
    record = new_record(problem.id, problem.group, problem.level, job.sample, problem.ref, job.gen, dtype)
    record["gpu"] = gpu
    start = time.perf_counter()
    record["convert"] = {"ran": False, "ok": os.path.isfile(job.gen), "seconds": None, "stderr": ""}
    if job.convert and not os.path.isfile(job.gen):
        record["convert"] = convert(options.tritonize, problem.ref, job.gen, options.convert_timeout)
        if not record["convert"]["ok"]:
            set_error(record, "convert_error", record["convert"]["stderr"] or "the compiler made no file")
    elif not os.path.isfile(job.gen):
        set_error(record, "missing_generated", f"no generated file {job.gen}")
    if record["error"] is None:
        record = _run_worker(record, gpu, options)
    record["seconds"] = round(time.perf_counter() - start, 3)
    return finalize(record)


def convert(compiler: str, ref: str, gen: str, timeout: float) -> dict:
    os.makedirs(os.path.dirname(os.path.abspath(gen)), exist_ok=True)
    start = time.perf_counter()
    try:
        done = subprocess.run([compiler, "convert", ref, "-o", gen], capture_output=True, text=True, timeout=timeout)
        stderr, ok = done.stderr, done.returncode == 0 and os.path.isfile(gen)
        if done.returncode != 0:
            stderr = stderr or f"exit status {done.returncode}"
    except subprocess.TimeoutExpired:
        stderr, ok = f"conversion took longer than {timeout:.0f} s", False
    except OSError as e:
        stderr, ok = f"cannot run {compiler}: {e}", False
    return {"ran": True, "ok": ok, "seconds": round(time.perf_counter() - start, 3), "stderr": stderr[-4000:]}


def worker_env(gpu: int | None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if gpu is not None:
        env["CUDA_VISIBLE_DEVICES"] = str(gpu)
    return env


def _run_worker(record: dict, gpu: int | None, options: Options) -> dict:
    name = safe_name(record["problem"] + ("." + record["sample"] if record["sample"] else ""))
    os.makedirs(os.path.join(options.work_dir, "logs"), exist_ok=True)
    record_path = os.path.join(options.work_dir, "logs", name + ".json")
    log_path = os.path.join(options.work_dir, "logs", name + ".log")
    record["log"] = log_path
    with open(record_path, "w", encoding="utf-8") as f:
        json.dump(record, f)
    command = [options.python, "-m", "tritonize.worker", "--record", record_path, "--seed", str(options.seed),
               "--correct-trials", str(options.correct_trials), "--trials", str(options.trials),
               "--warmup", str(options.warmup), "--repeats", str(options.repeats)]
    if options.no_timing:
        command.append("--no-timing")
    if options.no_compile:
        command.append("--no-compile")
    if options.calibration:
        command += ["--calibration", options.calibration]
    # TRITONIZE_LOCK_DIR makes two bench runs on one machine take turns too (e.g. the hacks beside the corpus)
    lock_dir = os.environ.get("TRITONIZE_LOCK_DIR")
    if options.jobs_per_gpu > 1 or lock_dir:
        lock = f"gpu{gpu if gpu is not None else 'cpu'}.lock"
        command += ["--gpu-lock", os.path.abspath(os.path.join(lock_dir or options.work_dir, lock))]
        measure, reserved = measure_cpus(gpu, options.measure_cpus_per_gpu)
        if measure:
            command += ["--measure-cpus", ",".join(map(str, measure)),
                        "--reserved-cpus", ",".join(map(str, reserved))]

    timed_out = False
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=worker_env(gpu), start_new_session=True)
        try:
            process.wait(timeout=options.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(process)
    try:
        with open(record_path, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        pass  # the worker died before its first save: keep what we had
    record["log"] = log_path
    if timed_out:
        record["error"] = None
        set_error(record, "timeout", f"no result after {options.timeout:.0f} s (stage: {record['stage']})")
    elif record["error"] is None and (process.returncode != 0 or record["stage"] != "done"):
        tail = _tail(log_path)
        kind = "illegal_memory_access" if _ILLEGAL_ACCESS.search(tail) else "crash"
        set_error(record, kind, f"worker {_describe_exit(process.returncode)} in stage {record['stage']}\n{tail}")
    return record


def _kill_group(process: subprocess.Popen) -> None:
    """Kill the worker and anything it started (its own process group, made by start_new_session)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pass  # stuck in the driver; the OS reaps it once the GPU context is torn down


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "did not exit"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def _tail(path: str, limit: int = 3000) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()[-limit:]
    except OSError:
        return ""


@dataclass
class Pool:
    """options.jobs_per_gpu threads per GPU (or for the CPU) running jobs; `on_done` is called for each record,
    serialized."""

    gpus: list[int | None]
    options: Options
    on_done: object = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, jobs: list[Job]) -> list[dict]:
        pending: queue.Queue = queue.Queue()
        for job in jobs:
            pending.put(job)
        records: list[dict] = []

        def work(gpu: int | None) -> None:
            while True:
                try:
                    job = pending.get_nowait()
                except queue.Empty:
                    return
                record = run_job(job, gpu, self.options)
                with self._lock:
                    records.append(record)
                    if self.on_done is not None:
                        self.on_done(record)

        threads = [threading.Thread(target=work, args=(gpu,), daemon=True)
                   for gpu in self.gpus for _ in range(max(1, self.options.jobs_per_gpu))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return records


def measure_cpus(gpu: int | None, per_gpu: int) -> tuple[list[int], list[int]]:
    """(the cores a worker measuring on `gpu` runs its timing thread on, every core kept for measuring on GPUs 0..gpu).

    Workers sharing a GPU measure one at a time, but the others meanwhile import torch, compile Triton kernels and
    run Inductor's compile processes on every core; a timing thread descheduled between its start event and its
    launches adds that delay to the time measured (session 8: medians 10-30% above the minimum on memory-bound
    problems whose minimum sat at the bandwidth floor). So the last `per_gpu` cores of GPU 0, the `per_gpu` before
    them of GPU 1, and so on, are left to measuring: the other stages run on the rest. Nothing is kept (([], []))
    without a GPU, or where that would leave fewer than half the cores to the rest."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if gpu is None or per_gpu <= 0 or per_gpu * (gpu + 1) * 2 > len(cores):
        return [], []
    reserved = cores[len(cores) - per_gpu * (gpu + 1):]
    return reserved[:per_gpu], reserved


def gpu_ids(count: int) -> list[int | None]:
    """The GPUs for `count` workers: the first of CUDA_VISIBLE_DEVICES (or 0..count-1); [None] for none."""
    if count <= 0:
        return [None]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = [int(v) for v in visible.split(",") if v.strip().isdigit()] if visible else list(range(count))
    if len(ids) < count:
        raise ValueError(f"--gpus {count}: only {len(ids)} GPU(s) visible ({visible})")
    return ids[:count]


def run_calibration(work_dir: str, measure: bool, python: str = sys.executable, timeout: float = 300) -> tuple[dict, str]:
    """Run tritonize.calibrate in a process of its own; (numbers, path of their JSON). Defaults if it fails."""
    from .floor import DEFAULT_CALIBRATION

    os.makedirs(work_dir, exist_ok=True)
    path = os.path.join(work_dir, "calibration.json")
    command = [python, "-m", "tritonize.calibrate", "--out", path] + ([] if measure else ["--no-measure"])
    try:
        subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=worker_env(None), check=True)
        with open(path, encoding="utf-8") as f:
            return json.load(f), path
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        print(f"tritonize: calibration failed ({e}); using default machine numbers", file=sys.stderr)
        result = dict(DEFAULT_CALIBRATION, device=None, device_count=0, error=str(e)[-2000:])
        with open(path, "w", encoding="utf-8") as f:
            json.dump(result, f)
        return result, path
