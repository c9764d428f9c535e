"""CPU cores for measuring, when several workers share a machine (--jobs-per-gpu, TRITONIZE_LOCK_DIR).

One timed call is measured from a start event recorded while the GPU is idle, so the CPU time of each launch
counts. While one worker measures (holding its GPU's lock), the others prepare: Triton compiles, and
torch.compile's first call starts Inductor's pool of compile processes, enough to take every core. A measuring
worker that waits for a core then times the wait, ours more than eager's (Triton's launch path is Python, eager's
is C++). So each GPU gets one core (with its hyperthread siblings) that only the worker measuring on that GPU
runs on; every worker runs its other stages on the remaining cores.
"""
from __future__ import annotations

import os


def siblings(cpu: int) -> set[int]:
    """The logical CPUs sharing `cpu`'s physical core (itself when the topology cannot be read)."""
    try:
        with open(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list", encoding="ascii") as f:
            text = f.read().strip()
    except OSError:
        return {cpu}
    found = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            found.update(range(int(lo), int(hi or lo) + 1))
    return found or {cpu}


def plan(gpus: list, available: set[int] | None = None) -> dict:
    """{gpu: (cores to measure on, cores for everything else)}; {} when there are too few cores to set any apart
    (then nobody is pinned). The reserved cores are the highest-numbered ones, one physical core per GPU."""
    available = set(os.sched_getaffinity(0) if available is None else available)
    rest = set(available)
    reserved = {}
    for gpu in gpus:
        if not rest:
            return {}
        group = siblings(max(rest)) & rest
        reserved[gpu] = group
        rest -= group
    if len(rest) < 2:
        return {}
    return {gpu: (sorted(group), sorted(rest)) for gpu, group in reserved.items()}


def parse(text: str | None) -> set[int] | None:
    return {int(v) for v in text.split(",") if v.strip()} if text else None


def pin(cores: set[int] | None) -> None:
    """Run the calling thread (and the threads and processes it starts later) on `cores`; nothing for None."""
    if cores:
        os.sched_setaffinity(0, cores)
