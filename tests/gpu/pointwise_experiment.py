"""Pointwise kernels and launch cost on the GPU (a measurement for the device tool).

Timed as the harness times one call (tritonize/timing.py): flush the L2, synchronize, start event, call, end
event, synchronize; median of 50. So the CPU time of a launch counts whenever it exceeds nothing in flight.

  launch   - a 1-element kernel: kernel[grid](...) through JITFunction.run, versus the compiled kernel's own
             launcher (CompiledKernel.run), versus torch.empty + launch; wall-clock microseconds per call.
  stream   - y = f(x[, w]) over 64 M fp32 / 256 M fp16 elements: BLOCK x num_warps, one element-block per
             program (what tritonize emits: BLOCK 1024, 4 warps) versus a grid-stride loop over a persistent grid.

    python3 tests/gpu/pointwise_experiment.py [--json OUT.json]
"""
import argparse
import json
import statistics
import time

import torch
import triton
import triton.language as tl


@triton.jit
def tiny(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < N) + 1.0, mask=offs < N)


@triton.jit
def two_in(x_ptr, w_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    w = tl.load(w_ptr + offs).to(tl.float32)
    h = tl.minimum(tl.maximum(x * 4.0 + 3.0, 0.0), 6.0) / 6.0
    tl.store(y_ptr + offs, (h * w).to(y_ptr.dtype.element_ty))


@triton.jit
def two_in_stride(x_ptr, w_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, PROGRAMS: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, N, PROGRAMS * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs).to(tl.float32)
        w = tl.load(w_ptr + offs).to(tl.float32)
        h = tl.minimum(tl.maximum(x * 4.0 + 3.0, 0.0), 6.0) / 6.0
        tl.store(y_ptr + offs, (h * w).to(y_ptr.dtype.element_ty))


@triton.jit
def one_in(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    tl.store(y_ptr + offs, (x * 0.5 + 1.0).to(y_ptr.dtype.element_ty))


@triton.jit
def one_in_hint(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, EVICT: tl.constexpr, STORE_CS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVICT:
        x = tl.load(x_ptr + offs, eviction_policy="evict_first").to(tl.float32)
    else:
        x = tl.load(x_ptr + offs).to(tl.float32)
    if STORE_CS:
        tl.store(y_ptr + offs, (x * 3.25).to(y_ptr.dtype.element_ty), cache_modifier=".cs")
    else:
        tl.store(y_ptr + offs, (x * 3.25).to(y_ptr.dtype.element_ty))


@triton.jit
def gelu_erf(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    g = (0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))).to(tl.float16).to(tl.float32)
    tl.store(y_ptr + offs, (g + x * 0.5).to(y_ptr.dtype.element_ty))


FLUSH = None


def one_call(fn):
    FLUSH.zero_()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    w0 = time.perf_counter()
    s.record()
    fn()
    e.record()
    torch.cuda.synchronize()
    w1 = time.perf_counter()
    return s.elapsed_time(e), (w1 - w0) * 1e3


def bench(fn, n=50):
    for _ in range(5):
        fn()
    ev, wall = zip(*(one_call(fn) for _ in range(n)))
    return statistics.median(ev), statistics.median(wall)


def cpu_us(fn, n=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def record(results, **kw):
    results.append(kw)
    print(json.dumps(kw), flush=True)


def launch_costs(results):
    x = torch.randn(1024, device="cuda")
    y = torch.empty_like(x)
    grid = (1,)
    tiny[grid](x, y, N=1000, BLOCK=1024, num_warps=4)
    compiled = tiny.warmup(x, y, N=1000, BLOCK=1024, num_warps=4, grid=grid)
    compiled._init_handles()
    record(results, form="launch", how="jit", cpu_us=cpu_us(lambda: tiny[grid](x, y, N=1000, BLOCK=1024, num_warps=4)))
    record(results, form="launch", how="jit+empty", cpu_us=cpu_us(
        lambda: tiny[grid](x, torch.empty((1024,), device=x.device, dtype=x.dtype), N=1000, BLOCK=1024, num_warps=4)))
    record(results, form="launch", how="compiled", cpu_us=cpu_us(lambda: compiled[(1, 1, 1)](x, y, 1000, 1024)))
    record(results, form="launch", how="torch_add", cpu_us=cpu_us(lambda: torch.add(x, 1.0, out=y)))
    ev, wall = bench(lambda: tiny[grid](x, y, N=1000, BLOCK=1024, num_warps=4))
    record(results, form="launch_timed", how="jit", event_ms=ev, wall_ms=wall)
    ev, wall = bench(lambda: compiled[(1, 1, 1)](x, y, 1000, 1024))
    record(results, form="launch_timed", how="compiled", event_ms=ev, wall_ms=wall)
    ev, wall = bench(lambda: torch.add(x, 1.0, out=y))
    record(results, form="launch_timed", how="torch_add", event_ms=ev, wall_ms=wall)


def streams(results):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    n = 8192 * 8192
    x = torch.randn(n, device="cuda")
    w = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    floor2 = 3 * 4 * n / 4.25e12 * 1e3
    for block, warps in [(1024, 4), (2048, 4), (2048, 8), (4096, 8), (4096, 4), (8192, 8), (512, 4), (1024, 8)]:
        ev, wall = bench(lambda: two_in[(n // block,)](x, w, y, N=n, BLOCK=block, num_warps=warps))
        record(results, form="two_in_fp32", block=block, warps=warps, event_ms=ev, wall_ms=wall, floor_ms=floor2)
    for block, warps, per_sm in [(1024, 4, 8), (2048, 8, 4), (4096, 8, 2), (1024, 4, 16)]:
        programs = sms * per_sm
        ev, wall = bench(lambda: two_in_stride[(programs,)](x, w, y, N=n, BLOCK=block, PROGRAMS=programs,
                                                             num_warps=warps))
        record(results, form="two_in_fp32_stride", block=block, warps=warps, per_sm=per_sm, event_ms=ev,
               wall_ms=wall, floor_ms=floor2)
    ev, wall = bench(lambda: torch.mul(x, w, out=y))
    record(results, form="two_in_fp32_torch_mul", event_ms=ev, wall_ms=wall, floor_ms=floor2)
    ev, wall = bench(lambda: y.copy_(x))
    record(results, form="copy_fp32_torch", event_ms=ev, wall_ms=wall, floor_ms=2 * 4 * n / 4.25e12 * 1e3)
    for block, warps in [(1024, 4), (2048, 8), (4096, 8)]:
        ev, wall = bench(lambda: one_in[(n // block,)](x, y, N=n, BLOCK=block, num_warps=warps))
        record(results, form="one_in_fp32", block=block, warps=warps, event_ms=ev, wall_ms=wall,
               floor_ms=2 * 4 * n / 4.25e12 * 1e3)
    del x, w, y
    n = 16384 * 16384
    x = torch.randn(n, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    floor = 2 * 2 * n / 4.25e12 * 1e3
    for block, warps in [(1024, 4), (2048, 4), (2048, 8), (4096, 8)]:
        ev, wall = bench(lambda: one_in[(n // block,)](x, y, N=n, BLOCK=block, num_warps=warps))
        record(results, form="one_in_fp16", block=block, warps=warps, event_ms=ev, wall_ms=wall, floor_ms=floor)
        ev, wall = bench(lambda: gelu_erf[(n // block,)](x, y, N=n, BLOCK=block, num_warps=warps))
        record(results, form="gelu_erf_fp16", block=block, warps=warps, event_ms=ev, wall_ms=wall, floor_ms=floor)


def big_scale(results):
    """y = x * 3.25 over 512 M fp32 (gemm_v_scalar_mul's size): steady-state bandwidth, hints, block shapes."""
    n = 32768 * 16384
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    floor = 2 * 4 * n / 4.25e12 * 1e3
    ev, wall = bench(lambda: torch.mul(x, 3.25, out=y), n=20)
    record(results, form="big_scale_torch", event_ms=ev, wall_ms=wall, floor_ms=floor)
    for block, warps, evict, cs in [(1024, 4, 0, 0), (2048, 8, 0, 0), (4096, 8, 0, 0), (512, 4, 0, 0), (512, 2, 0, 0),
                                    (1024, 4, 1, 0), (1024, 4, 0, 1), (1024, 4, 1, 1), (2048, 8, 1, 1)]:
        ev, wall = bench(lambda: one_in_hint[(n // block,)](x, y, N=n, BLOCK=block, EVICT=evict, STORE_CS=cs,
                                                              num_warps=warps), n=20)
        record(results, form="big_scale", block=block, warps=warps, evict=evict, cs=cs, event_ms=ev, wall_ms=wall,
               floor_ms=floor)


def main():
    global FLUSH
    p = argparse.ArgumentParser()
    p.add_argument("--json")
    args = p.parse_args()
    FLUSH = torch.empty(256 * 1024 * 1024 // 4, device="cuda")
    results = []
    launch_costs(results)
    big_scale(results)
    streams(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
