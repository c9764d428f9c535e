"""Timing: ours, eager and torch.compile, interleaved in one process, each trial after an L2 flush.

Every trial of every contender: write the flush buffer (>= 256 MB, far more than any L2), synchronize, record a
start event, call, record an end event, synchronize. The GPU is idle when the start event is recorded, so the
event time covers the call's launch overhead as well as its kernels: what a user of the module waits for. The
contenders take turns trial by trial (rotating who goes first), so clock and thermal drift hit all alike.

A wall-clock time is taken around each trial too, from before the start event to after the device-wide
synchronize. Work launched on another stream is invisible to the events but not to the wall clock: a call whose
event time is far below its wall time is reported as unsynchronized work. The wall clock also counts the CPU's
own delays (a busy machine descheduling the timing thread), which hit eager's interleaved calls alike: so the
gap that counts is ours (wall - event) beyond eager's.

Without CUDA (Triton's interpreter on the CPU) the same loop runs with wall-clock times and no flush.
"""
from __future__ import annotations

import statistics
import time

import torch

FLUSH_BYTES = 256 << 20

# Our wall time above our event time, beyond eager's own wall - event gap, by more than both of these (the
# ratio against our wall time less eager's gap) means work the timed stream never waited for.
UNSYNCHRONIZED_MIN_GAP_MS = 0.05
UNSYNCHRONIZED_RATIO = 0.5


def stats(times_ms: list[float]) -> dict:
    return {
        "median_ms": statistics.median(times_ms),
        "mean_ms": statistics.fmean(times_ms),
        "min_ms": min(times_ms),
        "max_ms": max(times_ms),
        "std_ms": statistics.pstdev(times_ms),
        "n": len(times_ms),
    }


class Timer:
    """Times one call the way the module docstring says, on a CUDA device or on the CPU."""

    def __init__(self, device: torch.device, flush_bytes: int = FLUSH_BYTES):
        self.device = device
        self.cuda = device.type == "cuda"
        self.flush_buffer = torch.empty(flush_bytes, dtype=torch.uint8, device=device) if self.cuda else None

    def flush(self) -> None:
        if self.flush_buffer is not None:
            self.flush_buffer.zero_()

    def time_call(self, fn) -> tuple[float, float]:
        """(event ms, wall ms) of one call."""
        self.flush()
        if not self.cuda:
            start = time.perf_counter()
            fn()
            wall = (time.perf_counter() - start) * 1e3
            return wall, wall
        torch.cuda.synchronize(self.device)
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        wall_start = time.perf_counter()
        begin.record()
        fn()
        end.record()
        torch.cuda.synchronize(self.device)
        wall = (time.perf_counter() - wall_start) * 1e3
        return begin.elapsed_time(end), wall

    def first_call_seconds(self, fn) -> float:
        """Wall seconds of a first call (a compile included), synchronized."""
        if self.cuda:
            torch.cuda.synchronize(self.device)
        start = time.perf_counter()
        fn()
        if self.cuda:
            torch.cuda.synchronize(self.device)
        return time.perf_counter() - start


def time_interleaved(timer: Timer, contenders: dict, trials: int, warmup: int) -> dict:
    """{name: {"events": [ms...], "walls": [ms...]}} after `warmup` untimed calls of each contender."""
    names = list(contenders)
    for name in names:
        for _ in range(warmup):
            contenders[name]()
    if timer.cuda:
        torch.cuda.synchronize(timer.device)
    samples = {name: {"events": [], "walls": []} for name in names}
    for trial in range(trials):
        turn = trial % len(names)
        for name in names[turn:] + names[:turn]:
            event_ms, wall_ms = timer.time_call(contenders[name])
            samples[name]["events"].append(event_ms)
            samples[name]["walls"].append(wall_ms)
    return samples


def unsynchronized(event_median_ms: float, wall_median_ms: float, eager_event_median_ms: float = 0.0,
                   eager_wall_median_ms: float = 0.0) -> bool:
    """Our medians against eager's, timed interleaved with ours (see the module docstring)."""
    baseline = max(0.0, eager_wall_median_ms - eager_event_median_ms)
    gap = wall_median_ms - event_median_ms - baseline
    return gap > UNSYNCHRONIZED_MIN_GAP_MS and event_median_ms < UNSYNCHRONIZED_RATIO * (wall_median_ms - baseline)


def time_models(ours, eager, compiled, inputs: list, device: torch.device, trials: int, warmup: int,
                repeats: int = 1, log=lambda message: None, compile_seconds: float | None = None) -> dict:
    """The record's "timing" section. `compiled` is None when torch.compile is not timed.

    `ours` and `eager` have been called before (by the correctness check). `compiled` has been called before
    when `compile_seconds` is given (its first call, which compiles, took that long); else its first call is
    timed here.
    """
    timer = Timer(device)
    section = {"trials": trials, "warmup": warmup, "repeats": repeats, "clock": "cuda_event" if timer.cuda else "wall",
               "ours": None, "eager": None, "compile": None, "compile_seconds": None,
               "ours_wall_median_ms": None, "eager_wall_median_ms": None, "ours_repeat_medians_ms": [],
               "speedup_eager": None, "speedup_compile": None, "unsynchronized": False, "compile_error": None}
    with torch.no_grad():
        contenders = {"ours": lambda: ours(*inputs), "eager": lambda: eager(*inputs)}
        if compiled is not None:
            if compile_seconds is None:
                compile_seconds = timer.first_call_seconds(lambda: compiled(*inputs))
            section["compile_seconds"] = compile_seconds
            log(f"torch.compile: first call {section['compile_seconds']:.1f} s")
            contenders["compile"] = lambda: compiled(*inputs)
        runs = [time_interleaved(timer, contenders, trials, warmup) for _ in range(repeats)]
    for name in contenders:
        section[name] = stats([ms for run in runs for ms in run[name]["events"]])
    section["ours_repeat_medians_ms"] = [statistics.median(run["ours"]["events"]) for run in runs]
    for name in ("ours", "eager"):
        section[f"{name}_wall_median_ms"] = statistics.median([ms for run in runs for ms in run[name]["walls"]])
    ours_ms = section["ours"]["median_ms"]
    section["speedup_eager"] = section["eager"]["median_ms"] / ours_ms if ours_ms > 0 else None
    if section["compile"] is not None and ours_ms > 0:
        section["speedup_compile"] = section["compile"]["median_ms"] / ours_ms
    section["unsynchronized"] = timer.cuda and unsynchronized(ours_ms, section["ours_wall_median_ms"],
                                                              section["eager"]["median_ms"],
                                                              section["eager_wall_median_ms"])
    return section
