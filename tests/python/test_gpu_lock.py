"""worker.gpu_lock: measurements exclusive, preparations shared, and a waiting measurement not starved by new
preparations (the turnstile)."""
import multiprocessing
import os
import sys
import time

from harness_paths import REPO

sys.path.insert(0, os.path.join(REPO, "python"))
from tritonize.worker import gpu_lock  # noqa: E402


def hold(path, shared, start_after, seconds, t0, events):
    time.sleep(max(0.0, t0 + start_after - time.time()))
    with gpu_lock(path, shared=shared):
        events.put(("got", "shared" if shared else "exclusive", start_after, time.time() - t0))
        time.sleep(seconds)
    events.put(("released", "shared" if shared else "exclusive", start_after, time.time() - t0))


def test_turnstile_orders_a_waiting_measurement_before_new_preparations(tmp_path):
    path = str(tmp_path / "gpu0.lock")
    events = multiprocessing.Queue()
    t0 = time.time() + 0.5  # (after every process has started)
    jobs = [(True, 0.0, 1.0),    # a worker preparing
            (False, 0.2, 0.5),   # a worker that wants to measure meanwhile
            (True, 0.4, 0.1)]    # another that wants to prepare after that
    procs = [multiprocessing.Process(target=hold, args=(path, shared, after, seconds, t0, events))
             for shared, after, seconds in jobs]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=20)
    got = {}
    released = {}
    while not events.empty():
        kind, _, after, t = events.get()
        (got if kind == "got" else released)[after] = t
    assert set(got) == {0.0, 0.2, 0.4}
    # the measurement waits for the preparation in progress, not longer
    assert got[0.2] >= released[0.0] - 0.05 and got[0.2] < released[0.0] + 0.5
    # the later preparation waits for the measurement (without the turnstile it would join the first at once)
    assert got[0.4] >= released[0.2] - 0.05


def test_preparations_share(tmp_path):
    path = str(tmp_path / "gpu0.lock")
    events = multiprocessing.Queue()
    t0 = time.time() + 0.5
    procs = [multiprocessing.Process(target=hold, args=(path, True, after, 0.6, t0, events)) for after in (0.0, 0.1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=20)
    got = {}
    while not events.empty():
        kind, _, after, t = events.get()
        if kind == "got":
            got[after] = t
    assert got[0.1] < got[0.0] + 0.4  # (the second did not wait for the first's 0.6 s)
