"""Row reductions with a transposed operand (a measurement for the device tool): the first kernel of
loss_cosine_none_mean_transposed (loss = 1 - cosine_similarity(a, b_t.t(), dim=1), a [65535, 4096], b_t [4096, 65535]
fp32) and of loss_triplet_mean_none_transposed (anchor = anchor_t.t(), anchor_t [2048, 65535], positive and negative
[65535, 2048] fp32: two distances per row, both losses stored), kernel time after an L2 flush
(triton.testing.do_bench, median), as a fraction of the bandwidth floor (bytes / 4.25 TB/s), eager beside them.
The kernels are the generated ones (strides and sizes made constexpr):

  old     - what branch next emits: held rows, [1, 4096] on 8 warps (cosine), [2, 2048] on 8 warps (triplet): the
            transposed operand is read one element per row and reduced index (4 bytes of each 32-byte sector).
  new     - transposed rows (branch cosine, plan_reduction in kernel/lower_reduction.cpp): [BLOCK_M, BLOCK_R] chunks
            looped over the row, BLOCK_M = 32 rows (128-byte segments of the transposed operand), each lane's sums
            compensated once per 8 chunks (more than 16 chunks a lane); what it emits ([32, 64] on 4 warps) and tile
            shapes and warps around it.
  plain   - the same loop with plain lane sums and chunks of R / 16 or more (no compensation needed: the looped rule
            leaves 16 chunks a lane plain), to see what the compensation and the chunk width cost.
  small   - the cosine at M = 8192 and 4096 rows (256 and 128 row tiles; the form needs kTransposedMinTiles = 256):
            old against new, to check the threshold.

    python3 tests/gpu/cosine_experiment.py [--json OUT.json] [--only cosine,triplet,small] [--dry]

--dry runs each variant once at small shapes through Triton's interpreter on the CPU (checks the kernels' values
against PyTorch, times nothing).
"""
import argparse
import json
import os
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.testing import do_bench

BANDWIDTH = 4.25e12


@triton.jit
def cosine_old(a_ptr, b_t_ptr, buf0_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, M: tl.constexpr,
               BLOCK_M: tl.constexpr):
    # (next: BLOCK_M = 1, the row held whole)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    r = tl.arange(0, BLOCK_R)[None, :]
    a = tl.load(a_ptr + (rows * R + r)).to(tl.float32)
    b_t = tl.load(b_t_ptr + (rows + r * M)).to(tl.float32)
    mul = a * b_t
    red_sum = tl.sum(mul, axis=1, keep_dims=True)
    mul1 = a * a
    red_sum1 = tl.sum(mul1, axis=1, keep_dims=True)
    sqrt = tl.sqrt_rn(red_sum1)
    maximum = tl.maximum(sqrt, 1e-08, propagate_nan=tl.PropagateNan.ALL)
    mul2 = b_t * b_t
    red_sum2 = tl.sum(mul2, axis=1, keep_dims=True)
    sqrt1 = tl.sqrt_rn(red_sum2)
    maximum1 = tl.maximum(sqrt1, 1e-08, propagate_nan=tl.PropagateNan.ALL)
    mul3 = maximum * maximum1
    div = red_sum / mul3
    sub = 1.0 - div
    tl.store(buf0_ptr + rows, sub.to(buf0_ptr.dtype.element_ty))


@triton.jit
def cosine_new(a_ptr, b_t_ptr, buf0_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, M: tl.constexpr,
               BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    acc = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    comp = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc1 = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    comp1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc2 = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    comp2 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R * 8):
        part = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
        part1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
        part2 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
        for r1 in range(r0, min(r0 + BLOCK_R * 8, R), BLOCK_R):
            r = r1 + tl.arange(0, BLOCK_R)[None, :]
            a = tl.load(a_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
            b_t = tl.load(b_t_ptr + (rows + r * M), mask=row_mask).to(tl.float32)
            mul = a * b_t
            part = part + tl.where(row_mask, mul, 0.0)
            mul1 = a * a
            part1 = part1 + tl.where(row_mask, mul1, 0.0)
            mul2 = b_t * b_t
            part2 = part2 + tl.where(row_mask, mul2, 0.0)
        t = acc + part
        comp = comp + tl.where(tl.abs(acc) >= tl.abs(part), acc - t + part, part - t + acc)
        acc = t
        t1 = acc1 + part1
        comp1 = comp1 + tl.where(tl.abs(acc1) >= tl.abs(part1), acc1 - t1 + part1, part1 - t1 + acc1)
        acc1 = t1
        t2 = acc2 + part2
        comp2 = comp2 + tl.where(tl.abs(acc2) >= tl.abs(part2), acc2 - t2 + part2, part2 - t2 + acc2)
        acc2 = t2
    red_sum = tl.sum(tl.where(acc - acc == 0.0, acc.to(tl.float64) + comp.to(tl.float64), acc.to(tl.float64)), axis=1, keep_dims=True).to(tl.float32)
    red_sum1 = tl.sum(tl.where(acc1 - acc1 == 0.0, acc1.to(tl.float64) + comp1.to(tl.float64), acc1.to(tl.float64)), axis=1, keep_dims=True).to(tl.float32)
    red_sum2 = tl.sum(tl.where(acc2 - acc2 == 0.0, acc2.to(tl.float64) + comp2.to(tl.float64), acc2.to(tl.float64)), axis=1, keep_dims=True).to(tl.float32)
    sqrt = tl.sqrt_rn(red_sum1)
    sqrt1 = tl.sqrt_rn(red_sum2)
    maximum = tl.maximum(sqrt1, 1e-08, propagate_nan=tl.PropagateNan.ALL)
    maximum1 = tl.maximum(sqrt, 1e-08, propagate_nan=tl.PropagateNan.ALL)
    mul3 = maximum1 * maximum
    div = red_sum / mul3
    sub = 1.0 - div
    tl.store(buf0_ptr + rows, sub.to(buf0_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def cosine_plain(a_ptr, b_t_ptr, buf0_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, M: tl.constexpr,
                 BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    acc = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[None, :]
        a = tl.load(a_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
        b_t = tl.load(b_t_ptr + (rows + r * M), mask=row_mask).to(tl.float32)
        acc = acc + tl.where(row_mask, a * b_t, 0.0)
        acc1 = acc1 + tl.where(row_mask, a * a, 0.0)
        acc2 = acc2 + tl.where(row_mask, b_t * b_t, 0.0)
    red_sum = tl.sum(acc, axis=1, keep_dims=True)
    maximum1 = tl.maximum(tl.sqrt_rn(tl.sum(acc1, axis=1, keep_dims=True)), 1e-08, propagate_nan=tl.PropagateNan.ALL)
    maximum = tl.maximum(tl.sqrt_rn(tl.sum(acc2, axis=1, keep_dims=True)), 1e-08, propagate_nan=tl.PropagateNan.ALL)
    tl.store(buf0_ptr + rows, (1.0 - red_sum / (maximum1 * maximum)).to(buf0_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def triplet_old(anchor_t_ptr, positive_ptr, negative_ptr, buf0_ptr, buf1_ptr, R: tl.constexpr,
                BLOCK_R: tl.constexpr, M: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    r = tl.arange(0, BLOCK_R)[None, :]
    anchor_t = tl.load(anchor_t_ptr + (rows + r * M), mask=row_mask).to(tl.float32)
    positive = tl.load(positive_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
    sub = anchor_t - positive
    add = sub + 1e-06
    mul = add * add
    red_sum = tl.sum(tl.where(row_mask, mul, 0.0), axis=1, keep_dims=True)
    sqrt = tl.sqrt_rn(red_sum)
    add1 = sqrt + 1.0
    negative = tl.load(negative_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
    sub1 = anchor_t - negative
    add2 = sub1 + 1e-06
    mul1 = add2 * add2
    red_sum1 = tl.sum(tl.where(row_mask, mul1, 0.0), axis=1, keep_dims=True)
    sqrt1 = tl.sqrt_rn(red_sum1)
    sub2 = add1 - sqrt1
    maximum = tl.maximum(sub2, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(buf0_ptr + rows, maximum.to(buf0_ptr.dtype.element_ty), mask=row_mask)
    add3 = sqrt + 0.25
    sub3 = add3 - sqrt1
    maximum1 = tl.maximum(sub3, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(buf1_ptr + rows, maximum1.to(buf1_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def triplet_new(anchor_t_ptr, positive_ptr, negative_ptr, buf0_ptr, buf1_ptr, R: tl.constexpr,
                BLOCK_R: tl.constexpr, M: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    acc = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    comp = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc1 = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    comp1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R * 8):
        part = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
        part1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
        for r1 in range(r0, min(r0 + BLOCK_R * 8, R), BLOCK_R):
            r = r1 + tl.arange(0, BLOCK_R)[None, :]
            anchor_t = tl.load(anchor_t_ptr + (rows + r * M), mask=row_mask).to(tl.float32)
            positive = tl.load(positive_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
            sub = anchor_t - positive
            add = sub + 1e-06
            mul = add * add
            part = part + tl.where(row_mask, mul, 0.0)
            negative = tl.load(negative_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
            sub1 = anchor_t - negative
            add1 = sub1 + 1e-06
            mul1 = add1 * add1
            part1 = part1 + tl.where(row_mask, mul1, 0.0)
        t = acc + part
        comp = comp + tl.where(tl.abs(acc) >= tl.abs(part), acc - t + part, part - t + acc)
        acc = t
        t1 = acc1 + part1
        comp1 = comp1 + tl.where(tl.abs(acc1) >= tl.abs(part1), acc1 - t1 + part1, part1 - t1 + acc1)
        acc1 = t1
    red_sum = tl.sum(tl.where(acc - acc == 0.0, acc.to(tl.float64) + comp.to(tl.float64), acc.to(tl.float64)), axis=1, keep_dims=True).to(tl.float32)
    red_sum1 = tl.sum(tl.where(acc1 - acc1 == 0.0, acc1.to(tl.float64) + comp1.to(tl.float64), acc1.to(tl.float64)), axis=1, keep_dims=True).to(tl.float32)
    sqrt = tl.sqrt_rn(red_sum)
    sqrt1 = tl.sqrt_rn(red_sum1)
    add2 = sqrt + 0.25
    sub2 = add2 - sqrt1
    maximum = tl.maximum(sub2, 0.0, propagate_nan=tl.PropagateNan.ALL)
    add3 = sqrt + 1.0
    sub3 = add3 - sqrt1
    maximum1 = tl.maximum(sub3, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(buf0_ptr + rows, maximum1.to(buf0_ptr.dtype.element_ty), mask=row_mask)
    tl.store(buf1_ptr + rows, maximum.to(buf1_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def triplet_plain(anchor_t_ptr, positive_ptr, negative_ptr, buf0_ptr, buf1_ptr, R: tl.constexpr,
                  BLOCK_R: tl.constexpr, M: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    acc = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK_M, BLOCK_R], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[None, :]
        anchor_t = tl.load(anchor_t_ptr + (rows + r * M), mask=row_mask).to(tl.float32)
        positive = tl.load(positive_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
        add = anchor_t - positive + 1e-06
        acc = acc + tl.where(row_mask, add * add, 0.0)
        negative = tl.load(negative_ptr + (rows * R + r), mask=row_mask).to(tl.float32)
        add1 = anchor_t - negative + 1e-06
        acc1 = acc1 + tl.where(row_mask, add1 * add1, 0.0)
    sqrt = tl.sqrt_rn(tl.sum(acc, axis=1, keep_dims=True))
    sqrt1 = tl.sqrt_rn(tl.sum(acc1, axis=1, keep_dims=True))
    maximum = tl.maximum(sqrt + 0.25 - sqrt1, 0.0, propagate_nan=tl.PropagateNan.ALL)
    maximum1 = tl.maximum(sqrt + 1.0 - sqrt1, 0.0, propagate_nan=tl.PropagateNan.ALL)
    tl.store(buf0_ptr + rows, maximum1.to(buf0_ptr.dtype.element_ty), mask=row_mask)
    tl.store(buf1_ptr + rows, maximum.to(buf1_ptr.dtype.element_ty), mask=row_mask)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", default="cosine,triplet,small")
    ap.add_argument("--dry", action="store_true")
    args = ap.parse_args()
    dry = args.dry
    only = set(args.only.split(","))
    dev = "cpu" if dry else "cuda"
    results = []

    def run(name, fn, outs, refs, nbytes):
        fn()
        err = max((o.double() - r).abs().max().item() for o, r in zip(outs, refs))
        if dry:
            print(f"{name:52s} max err {err:.2e}", flush=True)
            results.append(dict(name=name, err=err))
            return
        ms = do_bench(fn, warmup=25, rep=100, return_mode="median")
        frac = nbytes / BANDWIDTH / (ms * 1e-3)
        print(f"{name:52s} {ms:8.4f} ms  {frac:5.2f} of floor  max err {err:.2e}", flush=True)
        results.append(dict(name=name, ms=ms, floor_fraction=frac, err=err))

    def cosine(tag, M, R, variants):
        torch.manual_seed(0)
        a = torch.randn(M, R, device=dev)
        b_t = torch.randn(R, M, device=dev)
        ref = 1 - F.cosine_similarity(a.double(), b_t.t().double(), dim=1)
        out = torch.empty(M, device=dev)
        nbytes = 2 * M * R * 4 + M * 4
        for kind, bm, br, w in variants:
            kernel = {"old": cosine_old, "new": cosine_new, "plain": cosine_plain}[kind]
            grid = (triton.cdiv(M, bm),)
            emitted = " (emitted)" if (kind, bm, br, w) == ("new", 32, 64, 4) or kind == "old" else ""
            run(f"{tag} {kind} [{bm}, {br}] w{w}{emitted}",
                lambda kernel=kernel, bm=bm, br=br, w=w, grid=grid: kernel[grid](a, b_t, out, R, br, M, bm,
                                                                                 num_warps=w),
                [out], [ref], nbytes)
        if not dry:
            run(f"{tag} eager", lambda: 1 - F.cosine_similarity(a, b_t.t(), dim=1), [ref.float()], [ref], nbytes)

    if "cosine" in only:
        M, R = (67, 1024) if dry else (65535, 4096)
        variants = [("old", 1, triton.next_power_of_2(R), 8), ("new", 32, 64, 4), ("new", 32, 64, 2),
                    ("new", 32, 64, 8), ("new", 32, 128, 4), ("new", 32, 128, 8), ("new", 64, 64, 8),
                    ("plain", 32, 256, 8), ("plain", 32, 256, 16), ("plain", 32, 512, 16)]
        cosine("cosine", M, R, variants[:4] + variants[7:8] if dry else variants)
    if "triplet" in only:
        M, R = (67, 1024) if dry else (65535, 2048)
        torch.manual_seed(0)
        anchor_t = torch.randn(R, M, device=dev)
        # (the corpus scales positive by 0.7, which clamps every loss to 0; scaling negative instead leaves losses
        # of about 10, so the errors say something)
        positive = torch.randn(M, R, device=dev)
        negative = torch.randn(M, R, device=dev) * 0.7
        anchor = anchor_t.t().double()
        refs = [F.triplet_margin_loss(anchor, positive.double(), negative.double(), margin=m, reduction="none")
                for m in (1.0, 0.25)]
        outs = [torch.empty(M, device=dev), torch.empty(M, device=dev)]
        nbytes = 3 * M * R * 4 + 2 * M * 4
        variants = [("old", 2, triton.next_power_of_2(R), 8), ("new", 32, 64, 4), ("new", 32, 64, 2),
                    ("new", 32, 64, 8), ("new", 32, 128, 8), ("new", 64, 64, 8), ("plain", 32, 128, 4),
                    ("plain", 32, 128, 8), ("plain", 32, 256, 8)]
        for kind, bm, br, w in variants[:2] + variants[6:7] if dry else variants:
            kernel = {"old": triplet_old, "new": triplet_new, "plain": triplet_plain}[kind]
            grid = (triton.cdiv(M, bm),)
            emitted = " (emitted)" if (kind, bm, br, w) == ("new", 32, 64, 4) or kind == "old" else ""
            run(f"triplet {kind} [{bm}, {br}] w{w}{emitted}",
                lambda kernel=kernel, bm=bm, br=br, w=w, grid=grid: kernel[grid](
                    anchor_t, positive, negative, outs[0], outs[1], R, br, M, bm, num_warps=w),
                outs, refs, nbytes)
        if not dry:
            run("triplet eager (both losses)",
                lambda: (F.triplet_margin_loss(anchor_t.t(), positive, negative, margin=1.0, reduction="none"),
                         F.triplet_margin_loss(anchor_t.t(), positive, negative, margin=0.25, reduction="none")),
                [refs[0].float()], [refs[0]], nbytes)
        del anchor_t, positive, negative, anchor
    if "small" in only:
        for M in ((67,) if dry else (8192, 4096)):
            R = 1024 if dry else 4096
            cosine(f"cosine M={M}", M, R, [("old", 1, triton.next_power_of_2(R), 8), ("new", 32, 64, 4)])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
