"""Adaptive pools with many window rows: main's per-output tiles against whole-row reads (the row form).

  lanes - main's form for long windows: [BLOCK outputs, LANES] tiles, a window row per tile row
          (pool_adaptive_max2d_indices: [96, 128, 255, 257] fp32 -> (5, 7) with indices, 0.19 of the floor);
  flat  - main's form for short windows: [BLOCK] outputs, each lane walking its own window
          (pool_adaptive_avg_max3d's AdaptiveMaxPool3d((3, 5, 7)) over [16, 64, 63, 97, 95] fp32, 0.16);
  rows  - lower_window.cpp's row form: one program per output row, a [BLOCK_H, BLOCK_W] tile of window rows by the
          whole input row (contiguous), the rows reduced, then each output's segment of the row.
Floor fraction = (input + output bytes) / 4.25e12 / seconds; eager timed beside. Every variant is checked against
eager (values and indices exactly).

    python3 tests/gpu/pool_rows_experiment.py [--dry]

--dry runs every form once at small shapes through Triton's interpreter on the CPU (checks them, times nothing).
"""
import json
import os
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

DRY = "--dry" in sys.argv


@triton.jit
def lanes_max2d(x_ptr, y_ptr, i_ptr, N: tl.constexpr, BLOCK: tl.constexpr, LANES: tl.constexpr, H: tl.constexpr,
                W: tl.constexpr, OH: tl.constexpr, OW: tl.constexpr, KH: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)[:, None]
    mask = offs < N
    ow = offs % OW
    oh = offs // OW % OH
    base = offs // (OH * OW) * (H * W)
    h_start = oh * H // OH
    h_end = ((oh + 1) * H + OH - 1) // OH
    w_start = ow * W // OW
    w_end = ((ow + 1) * W + OW - 1) // OW
    acc = tl.full([BLOCK, LANES], float("-inf"), dtype=tl.float32)
    idx = h_start * W + w_start + tl.zeros([BLOCK, LANES], dtype=tl.int32)
    kw = tl.arange(0, LANES)[None, :]
    for kh in range(KH):
        h_in = h_start + kh
        w_in = w_start + kw
        ok = mask & (h_in < h_end) & (w_in < w_end)
        v = tl.load(x_ptr + (base + h_in * W + w_in), mask=ok, other=float("-inf")).to(tl.float32)
        take = ok & ((v > acc) | (v != v))
        idx = tl.where(take, h_in * W + w_in, idx)
        acc = tl.where(take, v, acc)
    top = tl.max(acc, axis=1, keep_dims=True)
    nan_idx = tl.max(tl.where(acc != acc, idx, -1), axis=1, keep_dims=True)
    idx = tl.where(nan_idx >= 0, nan_idx, tl.min(tl.where(acc == top, idx, H * W), axis=1, keep_dims=True))
    acc = top + tl.sum(tl.where(acc != acc, acc, 0.0), axis=1, keep_dims=True)
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(i_ptr + offs, idx.to(tl.int64), mask=mask)


@triton.jit
def flat_max3d(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, D: tl.constexpr, H: tl.constexpr, W: tl.constexpr,
               OD: tl.constexpr, OH: tl.constexpr, OW: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr,
               KW: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    ow = offs % OW
    oh = offs // OW % OH
    od = offs // (OW * OH) % OD
    base = offs // (OD * OH * OW) * (D * H * W)
    d_start = od * D // OD
    d_end = ((od + 1) * D + OD - 1) // OD
    h_start = oh * H // OH
    h_end = ((oh + 1) * H + OH - 1) // OH
    w_start = ow * W // OW
    w_end = ((ow + 1) * W + OW - 1) // OW
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for kd in range(KD):
        d_in = d_start + kd
        for kh in range(KH):
            h_in = h_start + kh
            for kw in tl.static_range(KW):
                w_in = w_start + kw
                ok = mask & (d_in < d_end) & (h_in < h_end) & (w_in < w_end)
                v = tl.load(x_ptr + (base + (d_in * H + h_in) * W + w_in), mask=ok, other=float("-inf"))
                v = v.to(tl.float32)
                acc = tl.where((v > acc) | (v != v), v, acc)
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rows_max(x_ptr, y_ptr, i_ptr, D: tl.constexpr, H: tl.constexpr, W: tl.constexpr, OD: tl.constexpr,
             OH: tl.constexpr, OW: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr, INDICES: tl.constexpr,
             BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_O: tl.constexpr):
    pid = tl.program_id(0)
    ow = tl.arange(0, BLOCK_O)[:, None]
    oh = pid % OH
    od = pid // OH % OD
    plane = pid // (OH * OD)
    base = plane * (D * H * W)
    d_start = od * D // OD
    d_end = ((od + 1) * D + OD - 1) // OD
    h_start = oh * H // OH
    h_end = ((oh + 1) * H + OH - 1) // OH
    w_start = ow * W // OW
    w_end = ((ow + 1) * W + OW - 1) // OW
    acc = tl.full([BLOCK_H, BLOCK_W], float("-inf"), dtype=tl.float32)
    w_in = tl.arange(0, BLOCK_W)[None, :]
    kh = tl.arange(0, BLOCK_H)[:, None]
    idx = (d_start * H + h_start) * W + w_in + tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.int32)
    for kd in range(KD):
        d_in = d_start + kd
        for kh0 in range(0, KH, BLOCK_H):
            h_in = h_start + (kh0 + kh)
            ok = (w_in < W) & (h_in < h_end) & (d_in < d_end)
            v = tl.load(x_ptr + (base + (d_in * H + h_in) * W + w_in), mask=ok, other=float("-inf")).to(tl.float32)
            take = (v > acc) | (v != v)
            if INDICES:
                idx = tl.where(take, (d_in * H + h_in) * W + w_in, idx)
            acc = tl.where(take, v, acc)
    seg = (w_in >= w_start) & (w_in < w_end)
    top = tl.max(acc, axis=0, keep_dims=True)
    if INDICES:
        nan_idx = tl.max(tl.where(acc != acc, idx, -1), axis=0, keep_dims=True)
        idx = tl.where(nan_idx >= 0, nan_idx, tl.min(tl.where(acc == top, idx, D * H * W), axis=0, keep_dims=True))
    acc = top + tl.sum(tl.where(acc != acc, acc, 0.0), axis=0, keep_dims=True)
    top = tl.max(tl.where(seg, acc, float("-inf")), axis=1, keep_dims=True)
    if INDICES:
        nan_idx = tl.max(tl.where(seg & (acc != acc), idx, -1), axis=1, keep_dims=True)
        idx = tl.where(nan_idx >= 0, nan_idx,
                       tl.min(tl.where(seg & (acc == top), idx, D * H * W), axis=1, keep_dims=True))
    acc = top + tl.sum(tl.where(seg & (acc != acc), acc, 0.0), axis=1, keep_dims=True)
    tl.store(y_ptr + (pid * OW + ow), acc.to(y_ptr.dtype.element_ty), mask=ow < OW)
    if INDICES:
        tl.store(i_ptr + (pid * OW + ow), idx.to(tl.int64), mask=ow < OW)


def window(size, out):
    return max(((o + 1) * size + out - 1) // out - o * size // out for o in range(out))


def pow2(v):
    return triton.next_power_of_2(v)


def rows_launch(x, y, i, dhw, odhw, indices):
    (d, h, w), (od, oh, ow) = dhw, odhw
    bw = pow2(w)
    bh = min(pow2(window(h, oh)), max(1, 4096 // bw))
    warps = 8 if bh * bw >= 4096 else 4
    grid = (y.numel() // ow,)
    return lambda: rows_max[grid](x, y, i if indices else y, D=d, H=h, W=w, OD=od, OH=oh, OW=ow, KD=window(d, od),
                                  KH=window(h, oh), INDICES=indices, BLOCK_H=bh, BLOCK_W=bw, BLOCK_O=pow2(ow),
                                  num_warps=warps)


def main():
    results = []
    bench = record = None
    if not DRY:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import pointwise_experiment
        from pointwise_experiment import bench, record
        pointwise_experiment.FLUSH = torch.empty(256 * 1024 * 1024 // 4, device="cuda")
    dev = "cpu" if DRY else "cuda"

    def report(name, form, fn, check, floor_ms):
        fn()
        ok = check()
        if DRY:
            print(json.dumps(dict(case=name, form=form, correct=ok)), flush=True)
            results.append(ok)
            return
        ev, _ = bench(fn, n=20)
        record(results, case=name, form=form, event_ms=ev, floor_fraction=floor_ms / ev, correct=ok)

    # 1. adaptive_max_pool2d with indices (pool_adaptive_max2d_indices).
    shape, out = ((2, 3, 61, 45), (4, 3)) if DRY else ((96, 128, 255, 257), (5, 7))
    x = torch.randn(shape, device=dev)
    x[0, 0, :3] = float("nan")
    ref, ref_i = F.adaptive_max_pool2d(x, out, return_indices=True)
    y, yi = torch.empty_like(ref), torch.empty_like(ref_i)
    check = lambda: torch.equal(y.nan_to_num(), ref.nan_to_num()) and torch.equal(yi, ref_i)
    floor = (x.numel() * 4 + ref.numel() * 12) / 4.25e12 * 1e3
    name = f"adaptive_max_pool2d{list(shape)}->{out} indices"
    if not DRY:
        ev, _ = bench(lambda: F.adaptive_max_pool2d(x, out, return_indices=True), n=20)
        record(results, case=name, form="eager", event_ms=ev, floor_fraction=floor / ev)
    h, w = shape[2:]
    kh, kw = window(h, out[0]), window(w, out[1])
    lanes = min(pow2(kw), 128)
    block = min(256, max(16, 2048 // lanes))
    n = ref.numel()
    report(name, "lanes (main)", lambda: lanes_max2d[(triton.cdiv(n, block),)](
        x, y, yi, N=n, BLOCK=block, LANES=lanes, H=h, W=w, OH=out[0], OW=out[1], KH=kh,
        num_warps=max(1, min(8, block * lanes // 64))), check, floor)
    report(name, "rows", rows_launch(x, y, yi, (1, h, w), (1,) + out, True), check, floor)

    # 2. adaptive_max_pool3d and adaptive_avg... (pool_adaptive_avg_max3d's max).
    shape, out = ((2, 3, 9, 23, 19), (2, 3, 2)) if DRY else ((16, 64, 63, 97, 95), (3, 5, 7))
    x = torch.randn(shape, device=dev)
    ref = F.adaptive_max_pool3d(x, out)
    y = torch.empty_like(ref)
    check = lambda: torch.equal(y, ref)
    floor = (x.numel() + ref.numel()) * 4 / 4.25e12 * 1e3
    name = f"adaptive_max_pool3d{list(shape)}->{out}"
    if not DRY:
        ev, _ = bench(lambda: F.adaptive_max_pool3d(x, out), n=20)
        record(results, case=name, form="eager", event_ms=ev, floor_fraction=floor / ev)
    d, h, w = shape[2:]
    n = ref.numel()
    report(name, "flat (main)", lambda: flat_max3d[(triton.cdiv(n, 256),)](
        x, y, N=n, BLOCK=256, D=d, H=h, W=w, OD=out[0], OH=out[1], OW=out[2], KD=window(d, out[0]),
        KH=window(h, out[1]), KW=window(w, out[2]), num_warps=4), check, floor)
    report(name, "rows", rows_launch(x, y, None, (d, h, w), out, False), check, floor)
    if DRY:
        assert all(results), "a form differs from PyTorch"


if __name__ == "__main__":
    main()
