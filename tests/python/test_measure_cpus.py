"""runner.measure_cpus and the worker's core confinement: the measuring worker's timing thread gets cores that the
other workers' preparations leave alone."""
import multiprocessing
import os
import sys

import pytest
from harness_paths import REPO

sys.path.insert(0, os.path.join(REPO, "python"))
from tritonize import runner, worker  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this system")


def test_cores_per_gpu_from_the_end(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    assert runner.measure_cpus(0, 2) == ([14, 15], [14, 15])
    assert runner.measure_cpus(1, 2) == ([12, 13], [12, 13, 14, 15])
    assert runner.measure_cpus(3, 2) == ([8, 9], list(range(8, 16)))


def test_nothing_kept_without_a_gpu_or_enough_cores(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)))
    assert runner.measure_cpus(None, 2) == ([], [])
    assert runner.measure_cpus(0, 0) == ([], [])
    assert runner.measure_cpus(4, 2) == ([], [])  # 10 of 16 cores kept: fewer than half left
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})  # CI's machine
    assert runner.measure_cpus(0, 2) == ([], [])


def _confine(cores, result):
    before = os.sched_getaffinity(0)
    with worker.measuring_cores(cores):
        inside = os.sched_getaffinity(0)
    result.put((sorted(inside), os.sched_getaffinity(0) == before))


def test_measuring_cores_confine_the_thread_then_restore():
    cores = sorted(os.sched_getaffinity(0))
    result = multiprocessing.Queue()
    process = multiprocessing.Process(target=_confine, args=([cores[-1]], result))  # (not this test's process)
    process.start()
    process.join(timeout=30)
    assert result.get(timeout=5) == ([cores[-1]], True)


def test_a_worker_given_reserved_cores_runs_elsewhere(tmp_path):
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        pytest.skip("one core")
    import subprocess

    code = ("import os, sys; from tritonize import worker; "
            "args = worker.parse_args(['--record', 'x', '--reserved-cpus', sys.argv[1]]); "
            "worker.leave_cores(args.reserved_cpus); print(sorted(os.sched_getaffinity(0)))")
    out = subprocess.run([sys.executable, "-c", code, str(cores[-1])], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.path.join(REPO, "python")}).stdout
    assert out.strip() == str(cores[:-1])
