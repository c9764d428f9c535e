"""Column sums of a 16-bit tensor on the GPU (a measurement for the device tool): bytes in flight per multiprocessor.

red_sum_mean_dim0_bf16 (x.sum(0, keepdim=True) and x.mean(0) of bf16 [65535, 16384], one accumulator since the
twin rule) runs on 256 programs of [64, 64] on 8 warps: 8 KB a chunk per program, about 16 KB in flight per
multiprocessor, and it ran at 0.44 of the bandwidth floor (aligned fp32 columns on the same tile and program count
move 16 KB a chunk and ran at 87-100%). This times tritonize's looped, compensated column form over tile shapes
and warps (kernel time after an L2 flush, do_bench median), as a fraction of the floor (bytes / 4.25 TB/s), eager
torch.sum(x, 0) beside it, and checks each result against eager.

    python3 tests/gpu/bf16_columns_experiment.py [--json OUT.json] [--dry]

--dry runs each variant once at a small shape through Triton's interpreter (CPU: checks the kernel, times nothing).
"""
import argparse
import json
import os
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

BANDWIDTH = 4.25e12


@triton.jit
def colsum(x_ptr, out_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    # tritonize's form (lower_reduction.cpp, looped columns, compensated once per 8 chunks)
    cols = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    acc = tl.full([BLOCK_R, BLOCK_I], 0.0, dtype=tl.float32)
    comp = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R * 8):
        part = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
        for r1 in range(r0, min(r0 + BLOCK_R * 8, R), BLOCK_R):
            r = r1 + tl.arange(0, BLOCK_R)[:, None]
            r_mask = r < R
            x = tl.load(x_ptr + (r * I + cols), mask=r_mask).to(tl.float32)
            part = part + tl.where(r_mask, x, 0.0)
        t = acc + part
        comp = comp + tl.where(tl.abs(acc) >= tl.abs(part), acc - t + part, part - t + acc)
        acc = t
    total = tl.sum(tl.where(acc - acc == 0.0, acc.to(tl.float64) + comp.to(tl.float64), acc.to(tl.float64)),
                   axis=0, keep_dims=True).to(tl.float32)
    tl.store(out_ptr + cols, total.to(out_ptr.dtype.element_ty))


# (BLOCK_R, BLOCK_I, warps): the first is what tritonize emits now
VARIANTS = [(64, 64, 8), (128, 64, 8), (64, 128, 8), (128, 128, 8), (256, 64, 8), (32, 128, 4), (64, 128, 4),
            (64, 64, 4), (128, 64, 16), (256, 128, 16)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    opts = ap.parse_args()
    dev = "cpu" if opts.dry else "cuda"
    R, I = (300, 256) if opts.dry else (65535, 16384)
    results = []
    for dtype in (torch.bfloat16, torch.float32):
        if dtype == torch.float32 and not opts.dry:
            R = 32767  # (the same 2.1 GB)
        torch.manual_seed(0)
        x = torch.randn(R, I, device=dev, dtype=dtype)
        ref = torch.sum(x, 0, keepdim=True)
        floor_ms = x.numel() * x.element_size() / BANDWIDTH * 1e3
        if not opts.dry:
            from triton.testing import do_bench
            eager = do_bench(lambda: torch.sum(x, 0, keepdim=True), return_mode="median")
            print(f"{dtype} [{R}, {I}]: floor {floor_ms:.3f} ms, eager {eager:.3f} ms ({floor_ms / eager:.2f})",
                  flush=True)
        for block_r, block_i, warps in VARIANTS:
            out = torch.empty(1, I, device=dev, dtype=dtype)
            run = lambda: colsum[(I // block_i,)](x, out, R, I, block_r, block_i, num_warps=warps)
            run()
            err = (out.float() - ref.float()).abs().max().item()
            row = {"dtype": str(dtype), "tile": [block_r, block_i], "warps": warps, "programs": I // block_i,
                   "max_err": err}
            if not opts.dry:
                ms = do_bench(run, return_mode="median")
                row.update(ms=ms, floor=floor_ms / ms)
                print(f"  [{block_r:3d}, {block_i:3d}] on {warps:2d} warps, {I // block_i:4d} programs: {ms:.3f} ms "
                      f"({floor_ms / ms:.2f} of the floor), max err {err:.3g}", flush=True)
            else:
                print(f"  [{block_r}, {block_i}] on {warps} warps: max err {err:.3g}", flush=True)
            results.append(row)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
