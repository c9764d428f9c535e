"""The speed-of-light floor of a problem, and the machine numbers it needs.

floor = max(bytes / copy bandwidth, FLOPs / peak rate):
- bytes: every input and output tensor once (an output that is a view of an input moves nothing);
- FLOPs: counted by torch.utils.flop_counter.FlopCounterMode on the reference forward (matmuls, convolutions,
  attention: the ops that can be compute-bound); the peak is the fastest legitimate rate for the dtype: TF32
  tensor cores for fp32 (eager convolutions use TF32 by default), the fp16/bf16 tensor cores for those;
- copy bandwidth and peaks are measured once per run (python -m tritonize.calibrate), else DESIGN.md's numbers.

achieved_fraction = floor / our median time. A time below the *strict* floor is flagged as suspect: there the
outputs count only beyond what the L2 cache can absorb (writes may still sit in L2 when the end event fires),
with a 10% margin for measurement noise.
"""
from __future__ import annotations

DEFAULT_CALIBRATION = {
    "measured": False,
    "device": None,
    "bandwidth": 4.25e12,                        # bytes/s, device-to-device copy (read + write)
    "peak_flops": {"fp32": 50.9e12, "tf32": 410e12, "bf16": 789e12, "fp16": 789e12},
    "l2_bytes": 60 << 20,
}
PEAK_FOR_DTYPE = {"fp32": "tf32", "fp16": "fp16", "bf16": "bf16"}
SUSPECT_MARGIN = 0.9


def tensor_bytes(values, exclude_storages: frozenset = frozenset()) -> int:
    """Bytes of the tensors in a nested list/tuple (not of Python numbers), skipping the excluded storages."""
    import torch

    if isinstance(values, torch.Tensor):
        if values.untyped_storage().data_ptr() in exclude_storages:
            return 0
        return values.numel() * values.element_size()
    if isinstance(values, (list, tuple)):
        return sum(tensor_bytes(v, exclude_storages) for v in values)
    return 0


def count_flops(model, inputs: list) -> int:
    """FLOPs of one forward, as torch's flop counter sees them (0 if it cannot run)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with torch.no_grad(), counter:
        model(*inputs)
    return int(counter.get_total_flops())


def floor_section(bytes_in: int, bytes_out: int, flops: int, dtype: str, calibration: dict,
                  ours_median_ms: float | None) -> dict:
    """The record's "floor" section."""
    bandwidth = calibration["bandwidth"]
    peak_kind = PEAK_FOR_DTYPE[dtype]
    peak = calibration["peak_flops"][peak_kind]
    memory_ms = (bytes_in + bytes_out) / bandwidth * 1e3
    compute_ms = flops / peak * 1e3
    floor_ms = max(memory_ms, compute_ms)
    strict_bytes = bytes_in + max(0, bytes_out - calibration["l2_bytes"])
    strict_ms = max(strict_bytes / bandwidth * 1e3, compute_ms)
    section = {
        "bytes": bytes_in + bytes_out,
        "bytes_in": bytes_in,
        "bytes_out": bytes_out,
        "flops": flops,
        "bandwidth": bandwidth,
        "peak_flops": peak,
        "peak_kind": peak_kind,
        "calibrated": bool(calibration.get("measured")),
        "floor_ms": floor_ms,
        "strict_floor_ms": strict_ms,
        "bound": "compute" if compute_ms > memory_ms else "memory",
        "achieved_fraction": None,
        "suspect": False,
    }
    if ours_median_ms is not None and ours_median_ms > 0:
        section["achieved_fraction"] = floor_ms / ours_median_ms
        section["suspect"] = ours_median_ms < SUSPECT_MARGIN * strict_ms
    return section
