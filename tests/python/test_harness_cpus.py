"""cpus.plan: which cores a measuring worker gets when workers share a machine."""
import os

from tritonize import cpus


def test_one_physical_core_per_gpu_is_set_apart(monkeypatch):
    pairs = {c: {c % 8, c % 8 + 8} for c in range(16)}  # 8 cores, 2 threads each: cpu c and c+8 share a core
    monkeypatch.setattr(cpus, "siblings", lambda c: pairs[c])
    plan = cpus.plan([0, 1], available=set(range(16)))
    assert plan[0][0] == [7, 15] and plan[1][0] == [6, 14]
    for gpu in (0, 1):
        measure, other = plan[gpu]
        assert other == sorted(set(range(16)) - {6, 7, 14, 15})
        assert not set(measure) & set(other)


def test_too_few_cores_pins_nobody(monkeypatch):
    monkeypatch.setattr(cpus, "siblings", lambda c: {c})
    assert cpus.plan([0], available={0, 1}) == {}
    assert cpus.plan([0], available={0, 1, 2})[0] == ([2], [0, 1])


def test_pin_and_parse():
    before = os.sched_getaffinity(0)
    try:
        one = {min(before)}
        cpus.pin(cpus.parse(",".join(map(str, one))))
        assert os.sched_getaffinity(0) == one
        cpus.pin(None)  # nothing: stays
        assert os.sched_getaffinity(0) == one
    finally:
        os.sched_setaffinity(0, before)
