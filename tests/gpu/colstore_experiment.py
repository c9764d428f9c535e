"""Column reductions whose output is transposed against their input (a measurement for the device tool): the
means of red_mean_dims_transposed_fp16 (y = x.transpose(1, 2) of fp16 x [B, D, S] = [63, 4096, 4095];
y.mean(dim=1) and y.mean(dim=0)), kernel time after an L2 flush (triton.testing.do_bench, median), as a fraction
of the bandwidth floor (bytes / 4.25 TB/s), eager beside them.

  mean0 main     - y.mean(dim=0) as main emits it: [BLOCK_R = 64, BLOCK_I = 64] over the flat (d, s) columns on one
                   warp, 262080 programs; the loads walk s (x's last dim) contiguously, the store out[s, d] walks s
                   with stride D: every stored element is its own 32-byte sector.
  mean0 loop     - the transposed-store form (branch colstore, kernel/lower_transposed_columns.cpp): a
                   [BLOCK_T, BLOCK_I] tile over (d, s) (s across the lanes for the loads), adding the B rows one at a
                   time into a float32 accumulator (the row loop unrolled U times, its last B % U rows after it),
                   stored through d (Triton converts the layout through shared memory, as in a transposing copy).
                   What colstore emits ([32, 64] on 2 warps, unrolled twice for 16-bit loads, not for fp32) and
                   tiles x warps x unrolling around it.
  mean0 chunk3d  - the same with [BLOCK_R, BLOCK_T, BLOCK_I] chunks of rows (accumulated per lane, reduced over
                   axis 0 after the loop).
  The same for fp32 x (4.2 GB), main's form against colstore's.
  mean1 main     - y.mean(dim=1): rows of S = 4095 fp16 (not 16-byte aligned: one element per load), one row per
                   program, [1, 4096] on 8 warps (main), and on 4 / 16 warps.

    python3 tests/gpu/colstore_experiment.py [--json OUT.json] [--dry]

--dry runs the variants once at [7, 67, 73] through Triton's interpreter on the CPU (checks the kernels' values
against PyTorch, times nothing).
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
from triton.testing import do_bench

BANDWIDTH = 4.25e12


@triton.jit
def mean0_main(x_ptr, o_ptr, B: tl.constexpr, D: tl.constexpr, S: tl.constexpr, BLOCK_R: tl.constexpr,
               BLOCK_I: tl.constexpr, SCALE: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    col_mask = cols < D * S
    i1 = cols % S
    i2 = cols // S
    r = tl.arange(0, BLOCK_R)[:, None]
    r_mask = r < B
    x = tl.load(x_ptr + (r * (D * S) + i1 + i2 * S), mask=r_mask & col_mask).to(tl.float32)
    red_sum = tl.sum(tl.where(r_mask, x, 0.0), axis=0, keep_dims=True)
    mean = (red_sum * SCALE).to(o_ptr.dtype.element_ty).to(tl.float32)
    tl.store(o_ptr + (i1 * D + i2), mean.to(o_ptr.dtype.element_ty), mask=col_mask)


@triton.jit
def mean0_loop(x_ptr, o_ptr, B: tl.constexpr, D: tl.constexpr, S: tl.constexpr, BLOCK_T: tl.constexpr,
               BLOCK_I: tl.constexpr, U: tl.constexpr, SCALE: tl.constexpr):
    # (as tritonize emits it: the row loop unrolled U times, its last B % U rows after it)
    pid = tl.program_id(0)
    ni: tl.constexpr = (S + BLOCK_I - 1) // BLOCK_I
    rt = (pid // ni * BLOCK_T + tl.arange(0, BLOCK_T))[:, None]  # d: contiguous in the output
    ri = (pid % ni * BLOCK_I + tl.arange(0, BLOCK_I))[None, :]  # s: contiguous in x
    mask = (rt < D) & (ri < S)
    acc = tl.zeros([BLOCK_T, BLOCK_I], dtype=tl.float32)
    for row in range(0, B - B % U, U):
        for u in tl.static_range(U):
            acc += tl.load(x_ptr + ((row + u) * (D * S) + rt * S + ri), mask=mask).to(tl.float32)
    for r in tl.static_range(B - B % U, B):
        acc += tl.load(x_ptr + (r * (D * S) + rt * S + ri), mask=mask).to(tl.float32)
    mean = (acc * SCALE).to(o_ptr.dtype.element_ty).to(tl.float32)
    tl.store(o_ptr + (ri * D + rt), mean.to(o_ptr.dtype.element_ty), mask=mask)


@triton.jit
def mean0_chunk3d(x_ptr, o_ptr, B: tl.constexpr, D: tl.constexpr, S: tl.constexpr, BLOCK_R: tl.constexpr,
                  BLOCK_T: tl.constexpr, BLOCK_I: tl.constexpr, SCALE: tl.constexpr):
    pid = tl.program_id(0)
    ni: tl.constexpr = (S + BLOCK_I - 1) // BLOCK_I
    rt = (pid // ni * BLOCK_T + tl.arange(0, BLOCK_T))[None, :, None]
    ri = (pid % ni * BLOCK_I + tl.arange(0, BLOCK_I))[None, None, :]
    mask = (rt < D) & (ri < S)
    acc = tl.zeros([BLOCK_R, BLOCK_T, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, B, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None, None]
        acc += tl.load(x_ptr + (r * (D * S) + rt * S + ri), mask=mask & (r < B), other=0.0).to(tl.float32)
    red_sum = tl.sum(acc, axis=0, keep_dims=True)
    mean = (red_sum * SCALE).to(o_ptr.dtype.element_ty).to(tl.float32)
    tl.store(o_ptr + (ri * D + rt), mean.to(o_ptr.dtype.element_ty), mask=mask)


@triton.jit
def mean1_rows(x_ptr, o_ptr, S: tl.constexpr, BLOCK_R: tl.constexpr, SCALE: tl.constexpr):
    row = tl.program_id(0)
    r = tl.arange(0, BLOCK_R)[None, :]
    r_mask = r < S
    x = tl.load(x_ptr + (row * S + r), mask=r_mask).to(tl.float32)
    red_sum = tl.sum(tl.where(r_mask, x, 0.0), axis=1, keep_dims=True)
    mean = (red_sum * SCALE).to(o_ptr.dtype.element_ty).to(tl.float32)
    tl.store(o_ptr + row + r * 0, mean.to(o_ptr.dtype.element_ty), mask=r == 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    args = ap.parse_args()
    dry = args.dry
    B, D, S = (7, 67, 73) if dry else (63, 4096, 4095)
    dev = "cpu" if dry else "cuda"
    results = []

    def run(name, fn, out, ref, nbytes):
        fn()
        err = (out.float() - ref.float()).abs().max().item()
        if dry:
            print(f"{name:44s} max err {err:.2e}")
            results.append(dict(name=name, err=err))
            return
        ms = do_bench(fn, warmup=25, rep=100, return_mode="median")
        frac = nbytes / BANDWIDTH / (ms * 1e-3)
        print(f"{name:44s} {ms:8.4f} ms  {frac:5.2f} of floor  max err {err:.2e}", flush=True)
        results.append(dict(name=name, ms=ms, floor_fraction=frac, err=err))

    for dtype in (torch.float16, torch.float32):
        torch.manual_seed(0)
        x = torch.randn(B, D, S, dtype=dtype, device=dev)
        elem = x.element_size()
        ty = "fp16" if elem == 2 else "fp32"
        ref0 = x.transpose(1, 2).float().mean(dim=0)  # [S, D]
        bytes0 = B * D * S * elem + S * D * elem
        out0 = torch.empty(S, D, dtype=dtype, device=dev)
        run(f"{ty} mean0 main [64, 64] w1",
            lambda: mean0_main[(triton.cdiv(D * S, 64),)](x, out0, B, D, S, 64, 64, 1.0 / B, num_warps=1),
            out0, ref0, bytes0)
        # (BLOCK_T, BLOCK_I, warps, unroll); the first is what colstore emits for this dtype
        emitted = (32, 64, 2, 2) if elem == 2 else (32, 64, 2, 1)
        cfgs = [emitted, (64, 64, 4, 1), (32, 64, 2, 1), (32, 64, 2, 2), (16, 128, 2, 4), (16, 64, 1, 2)]
        cfgs = list(dict.fromkeys(cfgs))
        if dry:
            cfgs = cfgs[:2]
        for bt, bi, w, u in cfgs:
            grid = (triton.cdiv(D, bt) * triton.cdiv(S, bi),)
            tag = " (colstore)" if (bt, bi, w, u) == emitted else ""
            run(f"{ty} mean0 loop [{bt}, {bi}] w{w} unroll {u}{tag}",
                lambda bt=bt, bi=bi, w=w, u=u, grid=grid: mean0_loop[grid](x, out0, B, D, S, bt, bi, u, 1.0 / B,
                                                                           num_warps=w),
                out0, ref0, bytes0)
        if elem == 2:
            for br, bt, bi, w in [(2, 64, 64, 4), (4, 32, 64, 4)][: 1 if dry else 2]:
                grid = (triton.cdiv(D, bt) * triton.cdiv(S, bi),)
                run(f"{ty} mean0 chunk3d [{br}, {bt}, {bi}] w{w}",
                    lambda br=br, bt=bt, bi=bi, w=w, grid=grid: mean0_chunk3d[grid](x, out0, B, D, S, br, bt, bi,
                                                                                    1.0 / B, num_warps=w),
                    out0, ref0, bytes0)
        if not dry:
            run(f"{ty} mean0 eager", lambda: x.transpose(1, 2).mean(dim=0), ref0, ref0, bytes0)
        if elem == 2:
            ref1 = x.transpose(1, 2).float().mean(dim=1)  # [B, D]
            bytes1 = B * D * S * elem + B * D * elem
            out1 = torch.empty(B, D, dtype=dtype, device=dev)
            block = triton.next_power_of_2(S)
            for w in (8, 4, 16) if not dry else (8,):
                run(f"{ty} mean1 rows [1, {block}] w{w}{' (main)' if w == 8 else ''}",
                    lambda w=w: mean1_rows[(B * D,)](x, out1, S, block, 1.0 / S, num_warps=w), out1, ref1, bytes1)
            if not dry:
                run(f"{ty} mean1 eager", lambda: x.transpose(1, 2).mean(dim=1), ref1, ref1, bytes1)
        del x
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
