"""Pooling tile shapes on the GPU (a measurement for the device tool).

nn.MaxPool3d(3, stride 2, padding 1) over [16, 32, 96, 96, 97] fp32 (pool_max3d_module's size: 28% of the
bandwidth floor in session 4). Timed like the harness (tests/gpu/pointwise_experiment.py's one_call).
  flat - what tritonize emits: a 1-D block of flattened outputs, BLOCK x num_warps;
  tile - a [BLOCK_H, BLOCK_W] tile of output rows of one (n, c, od) plane.

    python3 tests/gpu/pool_experiment.py
"""
import statistics
import time

import torch
import triton
import triton.language as tl

from pointwise_experiment import bench, record
import pointwise_experiment


@triton.jit
def flat(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, D: tl.constexpr, H: tl.constexpr, W: tl.constexpr,
         OD: tl.constexpr, OH: tl.constexpr, OW: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ow = offs % OW
    oh = offs // OW % OH
    od = offs // (OW * OH) % OD
    nc = offs // (OW * OH * OD)
    base = nc * (D * H * W)
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for kd in range(3):
        d_in = od * 2 - 1 + kd
        ok_d = (d_in >= 0) & (d_in < D)
        for kh in tl.static_range(3):
            h_in = oh * 2 - 1 + kh
            ok_h = (h_in >= 0) & (h_in < H)
            for kw in tl.static_range(3):
                w_in = ow * 2 - 1 + kw
                ok_w = (w_in >= 0) & (w_in < W)
                v = tl.load(x_ptr + base + d_in * (H * W) + h_in * W + w_in, mask=ok_d & ok_h & ok_w,
                            other=float("-inf"))
                acc = tl.where((v > acc) | (v != v), v, acc)
    tl.store(y_ptr + offs, acc, mask=offs < N)


@triton.jit
def tile(x_ptr, y_ptr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, D: tl.constexpr, H: tl.constexpr,
         W: tl.constexpr, OD: tl.constexpr, OH: tl.constexpr, OW: tl.constexpr):
    pid = tl.program_id(0)
    h_tiles: tl.constexpr = (OH + BLOCK_H - 1) // BLOCK_H
    plane = pid // h_tiles
    oh = (pid % h_tiles) * BLOCK_H + tl.arange(0, BLOCK_H)[:, None]
    ow = tl.arange(0, BLOCK_W)[None, :]
    od = plane % OD
    nc = plane // OD
    base = nc * (D * H * W)
    out_ok = (oh < OH) & (ow < OW)
    acc = tl.full([BLOCK_H, BLOCK_W], float("-inf"), dtype=tl.float32)
    for kd in range(3):
        d_in = od * 2 - 1 + kd
        ok_d = (d_in >= 0) & (d_in < D)
        for kh in tl.static_range(3):
            h_in = oh * 2 - 1 + kh
            ok_h = (h_in >= 0) & (h_in < H)
            for kw in tl.static_range(3):
                w_in = ow * 2 - 1 + kw
                ok_w = (w_in >= 0) & (w_in < W)
                v = tl.load(x_ptr + base + d_in * (H * W) + h_in * W + w_in, mask=ok_d & ok_h & ok_w & out_ok,
                            other=float("-inf"))
                acc = tl.where((v > acc) | (v != v), v, acc)
    tl.store(y_ptr + plane * (OH * OW) + oh * OW + ow, acc, mask=out_ok)


def main():
    pointwise_experiment.FLUSH = torch.empty(256 * 1024 * 1024 // 4, device="cuda")
    results = []
    n, c, d, h, w = 16, 32, 96, 96, 97
    x = torch.randn(n, c, d, h, w, device="cuda")
    ref = torch.nn.functional.max_pool3d(x, 3, 2, 1)
    od, oh, ow = ref.shape[2:]
    y = torch.empty_like(ref)
    floor = (x.numel() + ref.numel()) * 4 / 4.25e12 * 1e3
    ev, wall = bench(lambda: torch.nn.functional.max_pool3d(x, 3, 2, 1), n=20)
    record(results, form="eager", event_ms=ev, floor_ms=floor)
    total = ref.numel()
    for block, warps in [(256, 2), (512, 4), (1024, 4), (1024, 8), (128, 1), (256, 4)]:
        fn = lambda: flat[(triton.cdiv(total, block),)](x, y, N=total, BLOCK=block, D=d, H=h, W=w, OD=od, OH=oh,
                                                        OW=ow, num_warps=warps)
        fn()
        ok = torch.equal(y, ref)
        ev, wall = bench(fn, n=20)
        record(results, form="flat", block=block, warps=warps, event_ms=ev, floor_ms=floor, correct=ok)
    for bh, bw, warps in [(4, 64, 4), (8, 64, 4), (16, 64, 8), (8, 64, 8), (2, 64, 2)]:
        grid = (n * c * od * triton.cdiv(oh, bh),)
        fn = lambda: tile[grid](x, y, BLOCK_H=bh, BLOCK_W=bw, D=d, H=h, W=w, OD=od, OH=oh, OW=ow, num_warps=warps)
        fn()
        ok = torch.equal(y, ref)
        ev, wall = bench(fn, n=20)
        record(results, form="tile", block_h=bh, block_w=bw, warps=warps, event_ms=ev, floor_ms=floor, correct=ok)


if __name__ == "__main__":
    main()
