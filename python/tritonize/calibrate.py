"""Measure the machine once per run: copy bandwidth, matmul peak rates, L2 size.

python3 -m tritonize.calibrate [--out FILE]   prints (and writes) the JSON that floor.py reads.
Without CUDA it reports DESIGN.md's numbers with "measured": false.
"""
from __future__ import annotations

import argparse
import json
import sys

from .floor import DEFAULT_CALIBRATION


def _median_ms(fn, repeats: int, warmup: int = 3) -> float:
    import torch

    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        begin.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(begin.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def measure_bandwidth(nbytes: int = 2 << 30) -> float:
    """Bytes per second of a large device-to-device copy, counting the bytes read and the bytes written."""
    import torch

    src = torch.empty(nbytes, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    ms = _median_ms(lambda: dst.copy_(src), repeats=20)
    return 2 * nbytes / (ms * 1e-3)


def measure_peak(kind: str, n: int = 8192) -> float:
    """FLOP/s of an n x n x n matmul through cuBLAS: fp32 (TF32 off), tf32, bf16 or fp16."""
    import torch

    dtype = {"fp32": torch.float32, "tf32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[kind]
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    saved = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = kind == "tf32"
    ms = _median_ms(lambda: a @ b, repeats=10)
    torch.backends.cuda.matmul.allow_tf32 = saved
    return 2 * n**3 / (ms * 1e-3)


def calibrate(measure: bool = True) -> dict:
    """The machine's numbers; with measure=False only the device is looked at (the rates stay DESIGN.md's)."""
    import torch

    result = json.loads(json.dumps(DEFAULT_CALIBRATION))
    result["device_count"] = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if not torch.cuda.is_available():
        result["device"] = "cpu"
        return result
    props = torch.cuda.get_device_properties(0)
    result["device"] = props.name
    result["l2_bytes"] = int(getattr(props, "L2_cache_size", result["l2_bytes"]))
    if not measure:
        return result
    result["bandwidth"] = measure_bandwidth()
    for kind in ("fp32", "tf32", "bf16", "fp16"):
        result["peak_flops"][kind] = measure_peak(kind)
    result["measured"] = True
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tritonize.calibrate", description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the JSON here too")
    parser.add_argument("--no-measure", action="store_true", help="only look at the device; keep default rates")
    args = parser.parse_args(argv)
    result = calibrate(measure=not args.no_measure)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
