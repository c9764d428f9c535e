"""Whole-space sums counted in the pointwise kernel's tile (kernel/lower_pointwise.cpp, lower_pointwise_total) on the
GPU: kernel time after an L2 flush (triton.testing.do_bench, median), as a fraction of the bandwidth floor
(bytes / 4.25 TB/s), eager beside each.

  flat   - a hinge loss clamp(1 - x * y, min=0) over contiguous fp32 [16384, 16384] returned 'none' and summed: the
           flat tile's BLOCK x warps (tritonize: 4096 on 8 warps, kTotalBlock / kTotalWarps), one partial per program,
           the last program summing the partials. Bytes: two reads and one write.
  tiled  - mse 'none' and its sum over bf16 [32, 4095, 4096] predictions against targets given [32, 4096, 4095]
           (loss_mse_none_sum_bf16): the transposing [64, 64] tile on 8 warps (tritonize's), and [32, 64] / [64, 128]
           around it. Eager (two kernels plus the sum) beside it.

    python3 tests/gpu/total_experiment.py [--json OUT.json] [--dry]

--dry runs each variant once at small shapes through Triton's interpreter (checks the script and the results against
PyTorch; times nothing).
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
def hinge_total(x_ptr, y_ptr, out_ptr, total_ptr, work_ptr, count_ptr, N: tl.constexpr, BLOCK: tl.constexpr,
                PARTS: tl.constexpr, PART_BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    m = tl.maximum(1.0 - x * y, 0.0)
    tl.store(out_ptr + offs, m, mask=mask)
    tl.store(work_ptr + (tl.program_id(0) + tl.arange(0, 1)), tl.sum(tl.where(mask, m, 0.0), axis=0, keep_dims=True))
    tl.debug_barrier()
    seen = tl.atomic_add(count_ptr, 1, sem="acq_rel")
    if seen == PARTS - 1:
        tl.store(count_ptr, 0)
        tl.debug_barrier()
        acc = tl.zeros([PART_BLOCK], dtype=tl.float32)
        for p0 in range(0, PARTS, PART_BLOCK):
            part_index = p0 + tl.arange(0, PART_BLOCK)
            acc = acc + tl.load(work_ptr + part_index, mask=part_index < PARTS, other=0.0, volatile=True)
        total = tl.sum(acc, axis=0, keep_dims=True)
        tl.store(total_ptr + 0 * tl.arange(0, 1), total)


@triton.jit
def mse_total(p_ptr, t_ptr, out_ptr, total_ptr, work_ptr, count_ptr, S: tl.constexpr, D: tl.constexpr,
              BLOCK_T: tl.constexpr, BLOCK_I: tl.constexpr, PARTS: tl.constexpr, PART_BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    NT: tl.constexpr = (S + BLOCK_T - 1) // BLOCK_T
    NI: tl.constexpr = (D + BLOCK_I - 1) // BLOCK_I
    rt = (pid // NI % NT * BLOCK_T + tl.arange(0, BLOCK_T))[:, None]
    ri = (pid % NI * BLOCK_I + tl.arange(0, BLOCK_I))[None, :]
    rest = pid // (NT * NI)
    mask = (rt < S) & (ri < D)
    p = tl.load(p_ptr + (rest * S * D + rt * D + ri), mask=mask).to(tl.float32)
    t = tl.load(t_ptr + (rest * S * D + rt + ri * S), mask=mask).to(tl.float32)
    sub = (p - t).to(tl.bfloat16).to(tl.float32)
    mul = sub * sub
    tl.store(out_ptr + (rest * S * D + rt * D + ri), mul.to(tl.bfloat16), mask=mask)
    tl.store(work_ptr + (pid + tl.arange(0, 1)[:, None]),
             tl.sum(tl.sum(tl.where(mask, mul, 0.0), axis=1, keep_dims=True), axis=0, keep_dims=True))
    tl.debug_barrier()
    seen = tl.atomic_add(count_ptr, 1, sem="acq_rel")
    if seen == PARTS - 1:
        tl.store(count_ptr, 0)
        tl.debug_barrier()
        acc = tl.zeros([PART_BLOCK], dtype=tl.float32)
        for p0 in range(0, PARTS, PART_BLOCK):
            part_index = p0 + tl.arange(0, PART_BLOCK)
            acc = acc + tl.load(work_ptr + part_index, mask=part_index < PARTS, other=0.0, volatile=True)
        total = tl.sum(acc, axis=0, keep_dims=True)
        tl.store(total_ptr + 0 * tl.arange(0, 1), total.to(tl.bfloat16))


def bench(fn, dry):
    if dry:
        fn()
        return float("nan")
    return triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")


def run_flat(dry, results):
    n_rows, n_cols = (37, 3001) if dry else (16384, 16384)
    dev = "cpu" if dry else "cuda"
    x = torch.randn(n_rows, n_cols, device=dev)
    y = torch.randn(n_rows, n_cols, device=dev).sign()
    n = x.numel()
    floor_ms = 3 * n * 4 / BANDWIDTH * 1e3
    want = torch.clamp(1 - x * y, min=0)
    want_total = want.double().sum().item()
    for block, warps in [(1024, 4), (2048, 4), (2048, 8), (4096, 8), (8192, 8), (8192, 16)]:
        parts = triton.cdiv(n, block)
        out = torch.empty_like(x)
        total = torch.empty((), device=dev)
        work = torch.empty(parts, device=dev)
        count = torch.zeros(1, device=dev, dtype=torch.int32)
        chunk = min(1024, triton.next_power_of_2(parts))

        def go():
            hinge_total[(parts,)](x, y, out, total, work, count, N=n, BLOCK=block, PARTS=parts, PART_BLOCK=chunk,
                                  num_warps=warps)
        ms = bench(go, dry)
        go()
        err = abs(total.item() - want_total) / abs(want_total)
        ok = torch.equal(out, want) and err < 1e-5
        row = dict(form="flat", block=block, warps=warps, programs=parts, ms=ms, floor=floor_ms / ms, ok=ok,
                   rel_err=err)
        results.append(row)
        print(f"flat  BLOCK {block:5d} x {warps:2d} warps  {parts:7d} programs  {ms:7.3f} ms  "
              f"{floor_ms / ms:5.2f} of floor  ok={ok} rel_err={err:.1e}", flush=True)
    eager = bench(lambda: (lambda m: (m, m.sum()))(torch.clamp(1 - x * y, min=0)), dry)
    print(f"flat  eager {eager:.3f} ms {floor_ms / eager:5.2f} of floor", flush=True)
    results.append(dict(form="flat", variant="eager", ms=eager, floor=floor_ms / eager))


def run_tiled(dry, results):
    b, s, d = (2, 67, 131) if dry else (32, 4095, 4096)
    dev = "cpu" if dry else "cuda"
    pred = torch.randn(b, s, d, device=dev, dtype=torch.bfloat16)
    targ_t = torch.randn(b, d, s, device=dev, dtype=torch.bfloat16)
    floor_ms = 3 * pred.numel() * 2 / BANDWIDTH * 1e3
    ref_none = (pred.float() - targ_t.transpose(1, 2).float()).to(torch.bfloat16).float() ** 2
    want_total = ref_none.double().sum().item()
    for bt, bi, warps in [(64, 64, 8), (64, 64, 4), (32, 64, 4), (64, 128, 8), (128, 64, 8)]:
        parts = b * triton.cdiv(s, bt) * triton.cdiv(d, bi)
        out = torch.empty_like(pred)
        total = torch.empty((), device=dev, dtype=torch.bfloat16)
        work = torch.empty(parts, device=dev)
        count = torch.zeros(1, device=dev, dtype=torch.int32)
        chunk = min(1024, triton.next_power_of_2(parts))

        def go():
            mse_total[(parts,)](pred, targ_t, out, total, work, count, S=s, D=d, BLOCK_T=bt, BLOCK_I=bi, PARTS=parts,
                                PART_BLOCK=chunk, num_warps=warps)
        ms = bench(go, dry)
        go()
        err = abs(total.float().item() - want_total) / abs(want_total)
        # (exact on the GPU; Triton's interpreter truncates fp32 -> bf16 casts, the GPU rounds to nearest even)
        want_none = ref_none.to(torch.bfloat16).float()
        same = torch.allclose(out.float(), want_none, atol=0.1, rtol=0.05) if dry else torch.equal(out.float(), want_none)
        ok = same and err < 1e-2
        results.append(dict(form="tiled", block_t=bt, block_i=bi, warps=warps, programs=parts, ms=ms,
                            floor=floor_ms / ms, ok=ok, rel_err=err))
        print(f"tiled [{bt:3d}, {bi:3d}] x {warps:2d} warps  {parts:7d} programs  {ms:7.3f} ms  "
              f"{floor_ms / ms:5.2f} of floor  ok={ok} rel_err={err:.1e}", flush=True)
    targets = targ_t.transpose(1, 2)
    eager = bench(lambda: (torch.nn.functional.mse_loss(pred, targets, reduction="none"),
                           torch.nn.functional.mse_loss(pred, targets, reduction="sum")), dry)
    print(f"tiled eager {eager:.3f} ms {floor_ms / eager:5.2f} of floor", flush=True)
    results.append(dict(form="tiled", variant="eager", ms=eager, floor=floor_ms / eager))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    opts = ap.parse_args()
    results = []
    run_flat(opts.dry, results)
    run_tiled(opts.dry, results)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
