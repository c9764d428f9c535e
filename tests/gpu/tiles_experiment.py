"""Tile shapes of three memory-bound forms on the GPU (a measurement for the device tool), kernel time after an L2
flush (triton.testing.do_bench, median), as a fraction of the bandwidth floor (bytes / 4.25 TB/s):

  rows     - a layer norm over rows of R = 16384 / 32768 fp32 (and 32768 fp16): what tritonize emits for rows
             longer than its register tile (three reads of each row on a persistent grid of two programs per
             multiprocessor, chunks of 8192, 16 warps) against the row held in registers (one read; one row per
             program, 16 or 32 warps).
  columns  - cumsum over a non-innermost dim in ATen's sequential order (each column a fold, one row at a time),
             the form tritonize emits, over tiles [BLOCK_R, BLOCK_I] and warps: chunk rows (8 now) and width.
  erf      - gelu (erf) of fp16 as tritonize emits it: BLOCK x num_warps, one block per program.
  rowscan  - cumsum along the last dim in ATen's order (Sklansky tiles of 32, the carry folded into each tile's first
             element: tritonize's form, its helper copied from a generated file), rows per program x warps.
  argcols  - argmin over dim 1 of bf16 [B, 4096, 2047] (tritonize's column form: a running extreme and its index
             per lane over [BLOCK_R, BLOCK_I] chunks), B = 64 and 128, over tile shapes and warps.

  longscan - the row scan above on rows of 65537 (ATen's tiles of 256 with a carry, tritonize's form for long rows),
             the carry by a masked sum (tritonize) or a gather:
             rows per program x warps (tritonize: 8 rows on 4 warps, 512 programs for 4096 rows).
  fewcols  - the column scan above with few columns ([16384, 8192] and [16384, 2048] fp32): chunk rows 32 / 64 /
             128 and widths 16 / 32 on one warp (tritonize: [32, 32] on 1 warp, 256 programs).
  cecols   - cross entropy's first kernel over the class dim of [128, 21, 512, 512] fp16 (max, sum of exp, the
             target's logit per position), tritonize's [32, BLOCK_I] tile over widths and warps, against the classes
             unrolled (one [BLOCK_I] load per class, everything in-thread).
  colscan  - the column scan: tritonize's fold (each row picked from the chunk by a masked sum: ~34 instructions an
             element) against tl.cumsum / tl.associative_scan of the chunk with its first row seeded by the running
             total; whether the scan is bit-exact against torch.cumsum (ATen's sequential fold), and its speed.

  matvec   - A.t() @ x with A stored [32003, 30011] fp32 (gemm_matvec_transposed: rows 30011 floats apart, so Triton
             loads one element per instruction), tritonize's column forms: one program per column block walking all
             rows (before), and the column block split over PARTS programs of CHUNK rows whose last one combines the
             partials (after: [64, 64] on 8 warps, PARTS = cdiv(2048, column blocks) = 5); tiles x warps x parts
             around both. Then the same forms on an aligned [32768, 32768] (gemm_vecmat's shape: does the split help
             rows that load 16-byte vectors too?), and torch.mv(A, x) with A [24001, 40009] (gemm_mv: tritonize's row
             form, one row per program, [1, 8192] on 16 warps, rows not 16-byte aligned either) over row tiles, and a
             row form that peels each row's unaligned head so its chunks load 16-byte vectors. Eager beside each;
             every variant's max error against float64.
             --dry runs these forms once each at small shapes through Triton's interpreter (on the CPU: checks the
             script and the kernels' results, times nothing).

    python3 tests/gpu/tiles_experiment.py [--json OUT.json] [--only rows,columns,erf] [--dry]
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
def ln_looped(x_ptr, w_ptr, b_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr,
              PROGRAMS: tl.constexpr):
    for row in range(tl.program_id(0), M, PROGRAMS):
        base = row * R
        acc = tl.zeros([1, BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)[None, :]
            acc += tl.load(x_ptr + base + r).to(tl.float32)
        mean = tl.sum(acc, axis=1, keep_dims=True) / R
        acc1 = tl.zeros([1, BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)[None, :]
            d = tl.load(x_ptr + base + r).to(tl.float32) - mean
            acc1 += d * d
        rstd = tl.rsqrt(tl.sum(acc1, axis=1, keep_dims=True) / R + 1e-6)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)[None, :]
            x = tl.load(x_ptr + base + r).to(tl.float32)
            y = (x - mean) * rstd * tl.load(w_ptr + r).to(tl.float32) + tl.load(b_ptr + r).to(tl.float32)
            tl.store(y_ptr + base + r, y.to(y_ptr.dtype.element_ty))


@triton.jit
def ln_resident(x_ptr, w_ptr, b_ptr, y_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr):
    base = tl.program_id(0) * R
    r = tl.arange(0, BLOCK_R)[None, :]
    x = tl.load(x_ptr + base + r).to(tl.float32)
    mean = tl.sum(x, axis=1, keep_dims=True) / R
    d = x - mean
    rstd = tl.rsqrt(tl.sum(d * d, axis=1, keep_dims=True) / R + 1e-6)
    y = d * rstd * tl.load(w_ptr + r).to(tl.float32) + tl.load(b_ptr + r).to(tl.float32)
    tl.store(y_ptr + base + r, y.to(y_ptr.dtype.element_ty))


@triton.jit
def cumsum_columns(x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr,
                   COL_BLOCKS: tl.constexpr):
    outer = tl.program_id(0) // COL_BLOCKS
    cols = tl.program_id(0) % COL_BLOCKS * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    col_mask = cols < I
    base = outer * R * I
    acc = tl.full([1, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + (r * I + cols), mask=col_mask).to(tl.float32)
        scan_in = tl.where(col_mask, x, 0.0)
        cumsum = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
        for k in tl.static_range(BLOCK_R):
            acc = acc + tl.sum(tl.where(tl.arange(0, BLOCK_R)[:, None] == k, scan_in, 0.0), axis=0, keep_dims=True)
            cumsum = tl.where(tl.arange(0, BLOCK_R)[:, None] == k, acc, cumsum)
        tl.store(y_ptr + base + (r * I + cols), cumsum.to(y_ptr.dtype.element_ty), mask=col_mask)


@triton.jit
def _add_round16(a, b):
    return (a + b).to(tl.float16).to(tl.float32)


@triton.jit
def cumsum_columns_scan(x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
                        BLOCK_I: tl.constexpr, COL_BLOCKS: tl.constexpr, HALF: tl.constexpr):
    # the chunk's first row seeded with the running total, then tl.cumsum / an associative scan along the chunk:
    # exact against ATen's sequential fold only if Triton folds an in-thread axis sequentially (what this checks)
    outer = tl.program_id(0) // COL_BLOCKS
    cols = tl.program_id(0) % COL_BLOCKS * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    col_mask = cols < I
    base = outer * R * I
    local = tl.arange(0, BLOCK_R)[:, None]
    acc = tl.full([1, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + local
        x = tl.load(x_ptr + base + (r * I + cols), mask=col_mask).to(tl.float32)
        seeded = tl.where(local == 0, x + acc, x)
        if HALF:
            seeded = tl.where(local == 0, seeded.to(tl.float16).to(tl.float32), seeded)
            s = tl.associative_scan(seeded, 0, _add_round16)
        else:
            s = tl.cumsum(seeded, axis=0)
        acc = tl.sum(tl.where(local == BLOCK_R - 1, s, 0.0), axis=0, keep_dims=True)
        tl.store(y_ptr + base + (r * I + cols), s.to(y_ptr.dtype.element_ty), mask=col_mask)


@triton.jit
def gelu_erf(x_ptr, y_ptr, BLOCK: tl.constexpr, ROUND: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    g = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
    if ROUND:
        g = g.to(tl.float16).to(tl.float32)
    tl.store(y_ptr + offs, (g + x * 0.5).to(y_ptr.dtype.element_ty))


@triton.jit
def argmin_columns(x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr,
                   COL_BLOCKS: tl.constexpr):
    outer = tl.program_id(0) // COL_BLOCKS
    cols = tl.program_id(0) % COL_BLOCKS * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    col_mask = cols < I
    acc = tl.full([BLOCK_R, BLOCK_I], float("inf"), dtype=tl.float32)
    acc_idx = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.int32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.where(col_mask, tl.load(x_ptr + (outer * (R * I) + cols + r * I), mask=col_mask).to(tl.float32),
                     float("inf"))
        better = (x < acc) | (x != x) & (acc == acc)
        acc_idx = tl.where(better, r, acc_idx)
        acc = tl.where(better, x, acc)
    best = tl.min(acc, axis=0, keep_dims=True)
    is_nan = acc != acc
    any_nan = tl.max(is_nan.to(tl.int32), axis=0, keep_dims=True) > 0
    found = tl.min(tl.where(tl.where(any_nan, is_nan, acc == best), acc_idx, R), axis=0, keep_dims=True)
    tl.store(y_ptr + (outer * I + cols), found.to(tl.int64), mask=col_mask)


@triton.jit
def _aten_scan_tile(x, ROWS: tl.constexpr, TILE: tl.constexpr, LEVELS: tl.constexpr, PROD: tl.constexpr,
                   ROUND: tl.constexpr, REVERSE: tl.constexpr):
    # Inclusive scan of each row of x [ROWS, TILE] in the order of PyTorch's CUDA scan (Sklansky, as in
    # ATen's ScanUtils.cuh), so that results are bit-identical: at level m, every element whose scan
    # position has bit m set combines with the last element of the lower half of its 2^(m+1)-block.
    # ROUND is the scan's dtype, rounded to after every op. REVERSE: the scan runs backwards through x
    # (position p is column TILE - 1 - p), so that the caller loads and stores in increasing address
    # order, which Triton coalesces (it does not for a decreasing index).
    col = tl.arange(0, TILE)[None, :]
    pos = col
    if REVERSE:
        pos = TILE - 1 - col
    for m in tl.static_range(LEVELS):
        if TILE <= 128:
            # Narrow tiles: each element fetches its partner by a gather along the row (one warp shuffle
            # when the row lies in one warp); src is the last position of the lower half of its block.
            src = (pos & ~((2 << m) - 1)) | ((1 << m) - 1)
            if REVERSE:
                src = TILE - 1 - src
            low = tl.gather(x, tl.broadcast_to(src, [ROWS, TILE]), 1)
            upper = (pos & (1 << m)) != 0
            y = x
        else:
            # Wide tiles (a gather would shuffle from every register of the row): the partner is picked in
            # a [ROWS, blocks, 2^(m+1)] view by a masked sum (exact: one value plus -0.0s).
            y = tl.reshape(x, [ROWS, TILE >> (m + 1), 2 << m])
            c = tl.arange(0, 2 << m)[None, None, :]
            if REVERSE:
                low = tl.sum(tl.where(c == 1 << m, y, -0.0), axis=2, keep_dims=True)
                upper = c < 1 << m
            else:
                low = tl.sum(tl.where(c == (1 << m) - 1, y, -0.0), axis=2, keep_dims=True)
                upper = c >= 1 << m
        if PROD:
            y = tl.where(upper, (y * low).to(ROUND).to(tl.float32), y)
        else:
            y = tl.where(upper, (y + low).to(ROUND).to(tl.float32), y)
        x = tl.reshape(y, [ROWS, TILE])
    return x


@triton.jit
def cumsum_rows(x_ptr, y_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_M: tl.constexpr, LEVELS: tl.constexpr,
                ROUND: tl.constexpr, CARRY_SUM: tl.constexpr = False):
    # CARRY_SUM: the carry reduced to a column by a masked sum (tritonize's form for tiles wider than 32), else
    # broadcast along the row by a gather
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    carry = tl.full([BLOCK_M, 1 if CARRY_SUM else BLOCK_R], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[None, :]
        r_mask = r < R
        x = tl.where(r_mask, tl.load(x_ptr + (rows * R + r), mask=r_mask).to(tl.float32), 0.0)
        first = tl.arange(0, BLOCK_R)[None, :] == 0
        cumsum = _aten_scan_tile(tl.where(first, (x + carry).to(ROUND).to(tl.float32), x), BLOCK_M, BLOCK_R, LEVELS,
                                 False, ROUND, False)
        if CARRY_SUM:
            carry = tl.sum(tl.where(tl.arange(0, BLOCK_R)[None, :] == BLOCK_R - 1, cumsum, 0.0), axis=1,
                           keep_dims=True)
        else:
            carry = tl.gather(cumsum, tl.full([BLOCK_M, BLOCK_R], BLOCK_R - 1, dtype=tl.int32), 1)
        tl.store(y_ptr + (rows * R + r), cumsum.to(y_ptr.dtype.element_ty), mask=r_mask)


@triton.jit
def ce_tile(logits_ptr, targets_ptr, s_ptr, t_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, I: tl.constexpr,
            BLOCK_I: tl.constexpr):
    # tritonize's emitted form (loss_ce_spatial_fp16's first kernel)
    outer = tl.program_id(0) // (I // BLOCK_I)
    cols = tl.program_id(0) % (I // BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    r = tl.arange(0, BLOCK_R)[:, None]
    r_mask = r < R
    logits = tl.load(logits_ptr + (outer * R * I + r * I + cols), mask=r_mask).to(tl.float32)
    red_max = tl.max(tl.where(r_mask, logits, float("-inf")), 0, keep_dims=True)
    sub = logits - red_max
    red_sum = tl.sum(tl.where(r_mask, tl.exp(sub), 0.0), axis=0, keep_dims=True)
    tl.store(s_ptr + (outer * I + cols), red_sum)
    targets = tl.load(targets_ptr + (outer * I + cols))
    red_t = tl.sum(tl.where(r_mask & (r == targets), sub, 0.0), axis=0, keep_dims=True)
    tl.store(t_ptr + (outer * I + cols), red_t)


@triton.jit
def ce_unrolled(logits_ptr, targets_ptr, s_ptr, t_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_I: tl.constexpr):
    # the classes unrolled: each class one contiguous [BLOCK_I] load, the reductions in-thread
    outer = tl.program_id(0) // (I // BLOCK_I)
    cols = tl.program_id(0) % (I // BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)
    base = logits_ptr + outer * R * I + cols
    m = tl.load(base).to(tl.float32)
    for c in tl.static_range(1, R):
        m = tl.maximum(m, tl.load(base + c * I).to(tl.float32))
    targets = tl.load(targets_ptr + (outer * I + cols))
    s = tl.zeros([BLOCK_I], dtype=tl.float32)
    t = tl.zeros([BLOCK_I], dtype=tl.float32)
    for c in tl.static_range(R):
        sub = tl.load(base + c * I).to(tl.float32) - m
        s += tl.exp(sub)
        t += tl.where(targets == c, sub, 0.0)
    tl.store(s_ptr + (outer * I + cols), s)
    tl.store(t_ptr + (outer * I + cols), t)


@triton.jit
def matvec_t_columns(A_ptr, x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
                     BLOCK_I: tl.constexpr):
    # tritonize's column form before the split (gemm_matvec_transposed): one program per column block, all R rows
    cols = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    col_mask = cols < I
    acc = tl.full([BLOCK_R, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        r_mask = r < R
        A = tl.load(A_ptr + (cols + r * I), mask=r_mask & col_mask).to(tl.float32)
        x = tl.load(x_ptr + r, mask=r_mask).to(tl.float32)
        acc = acc + tl.where(r_mask & col_mask, A * x, 0.0)
    red_sum = tl.sum(acc, axis=0, keep_dims=True)
    tl.store(y_ptr + cols, red_sum, mask=col_mask)


@triton.jit
def matvec_t_split(A_ptr, x_ptr, y_ptr, work_ptr, count_ptr, PARTS: tl.constexpr, PARTS_P2: tl.constexpr,
                   CHUNK: tl.constexpr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
                   BLOCK_I: tl.constexpr):
    # tritonize's split columns (copied from the generated gemm_matvec_transposed): PARTS programs per column block
    col_block = tl.program_id(0) // PARTS
    part = tl.program_id(0) % PARTS
    lanes = tl.arange(0, BLOCK_I)[None, :]
    cols = col_block * BLOCK_I + lanes
    col_mask = cols < I
    acc = tl.full([BLOCK_R, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(part * CHUNK, part * CHUNK + CHUNK, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        r_mask = r < R
        A = tl.load(A_ptr + (cols + r * I), mask=r_mask & col_mask).to(tl.float32)
        x = tl.load(x_ptr + r, mask=r_mask).to(tl.float32)
        acc = acc + tl.where(r_mask & col_mask, A * x, 0.0)
    red_sum = tl.sum(acc, axis=0, keep_dims=True)
    tl.store(work_ptr + ((col_block * PARTS + part) * BLOCK_I + lanes), red_sum)
    tl.debug_barrier()
    seen = tl.atomic_add(count_ptr + col_block, 1, sem="acq_rel")
    if seen == PARTS - 1:
        tl.store(count_ptr + col_block, 0)
        tl.debug_barrier()
        part_index = tl.arange(0, PARTS_P2)[:, None]
        partials = tl.load(work_ptr + ((col_block * PARTS + part_index) * BLOCK_I + lanes), mask=part_index < PARTS,
                           other=0.0, volatile=True)
        tl.store(y_ptr + cols, tl.sum(partials, axis=0, keep_dims=True), mask=col_mask)


@triton.jit
def mv_rows(A_ptr, x_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_R: tl.constexpr):
    # tritonize's row form (gemm_mv): BLOCK_M rows per program, chunks of BLOCK_R
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    acc = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[None, :]
        r_mask = r < R
        A = tl.load(A_ptr + (rows * R + r), mask=row_mask & r_mask).to(tl.float32)
        x = tl.load(x_ptr + r, mask=r_mask).to(tl.float32)
        acc = acc + tl.where(row_mask & r_mask, A * x, 0.0)
    tl.store(y_ptr + rows, tl.sum(acc, axis=1, keep_dims=True), mask=row_mask)


@triton.jit
def mv_rows_peeled(A_ptr, x_ptr, y_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr):
    # one row per program; the row's first HEAD < 4 elements (up to its first 16-byte aligned one) are a masked
    # scalar load, then whole unmasked chunks from there (tl.multiple_of: 16-byte vectors of A; x's offset keeps
    # the row's misalignment), then a masked tail
    base = tl.program_id(0) * R
    head = (4 - base % 4) % 4
    k = tl.arange(0, BLOCK_R)[None, :]
    m = k < head
    acc = tl.where(m, tl.load(A_ptr + base + k, mask=m, other=0.0) * tl.load(x_ptr + k, mask=m, other=0.0), 0.0)
    full = (R - head) // BLOCK_R
    for c in range(0, full):
        start = head + c * BLOCK_R
        a_off = tl.multiple_of(base + start, 4)
        acc += tl.load(A_ptr + a_off + k) * tl.load(x_ptr + start + k)
    r = head + full * BLOCK_R + k
    m = r < R
    acc += tl.where(m, tl.load(A_ptr + base + r, mask=m, other=0.0) * tl.load(x_ptr + r, mask=m, other=0.0), 0.0)
    tl.store(y_ptr + tl.program_id(0) + tl.arange(0, 1)[:, None], tl.sum(acc, axis=1, keep_dims=True))


DRY = False  # --dry: the interpreter on the CPU, small shapes, nothing timed


def timed(fn, nbytes):
    ms = do_bench(fn, warmup=25, rep=100, return_mode="median")
    return {"ms": ms, "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3)}


def rows(results):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for dtype, R, M in ((torch.float32, 16384, 8192), (torch.float32, 32768, 4096), (torch.float16, 32768, 8192)):
        x = torch.randn(M, R, device="cuda", dtype=dtype)
        w = torch.randn(R, device="cuda", dtype=dtype)
        b = torch.randn(R, device="cuda", dtype=dtype)
        ref = torch.nn.functional.layer_norm(x.float(), (R,), w.float(), b.float(), eps=1e-6)
        nbytes = 2 * x.numel() * x.element_size()
        variants = [("looped3 chunk 8192 w16", lambda y: ln_looped[(2 * sms,)](x, w, b, y, M, R, 8192, 2 * sms,
                                                                             num_warps=16))]
        for warps in (8, 16, 32):
            variants.append((f"resident w{warps}",
                             lambda y, warps=warps: ln_resident[(M,)](x, w, b, y, R, R, num_warps=warps)))
        for name, launch in variants:
            y = torch.empty_like(x)
            launch(y)
            err = (y.float() - ref).abs().max().item()
            r = {"form": "rows", "case": f"{str(dtype)[6:]} [{M}, {R}]", "variant": name, "max_err": err,
                 **timed(lambda: launch(y), nbytes)}
            results.append(r)
            print(f"rows    {r['case']:24s} {name:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  err {err:.1e}",
                  flush=True)


def columns(results):
    for M, R, I in ((1, 16384, 16383), (32, 2048, 1024), (64, 1023, 1024)):
        x = torch.randn(M, R, I, device="cuda")
        ref = torch.cumsum(x, dim=1)
        nbytes = 2 * x.numel() * 4
        for block_r in (8, 16, 32):
            for block_i in (32, 64, 128):
                for warps in (1, 2, 4):
                    if block_i * block_r < 32 * warps:
                        continue
                    col_blocks = triton.cdiv(I, block_i)
                    y = torch.empty_like(x)

                    def launch():
                        cumsum_columns[(M * col_blocks,)](x, y, R, I, block_r, block_i, col_blocks, num_warps=warps,
                                                          enable_fp_fusion=False)
                    launch()
                    exact = torch.equal(y, ref)
                    r = {"form": "columns", "case": f"[{M}, {R}, {I}]", "variant": f"[{block_r}, {block_i}] w{warps}",
                         "exact": exact, **timed(launch, nbytes)}
                    results.append(r)
                    print(f"columns {r['case']:24s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
                          f"exact {exact}", flush=True)


def erf(results):
    x = torch.randn(16384, 16384, device="cuda", dtype=torch.float16)
    nbytes = 2 * x.numel() * 2
    for block in (1024, 2048, 4096):
        for warps in (2, 4, 8):
            y = torch.empty_like(x)

            def launch():
                gelu_erf[(x.numel() // block,)](x, y, block, True, num_warps=warps)
            launch()
            r = {"form": "erf", "case": "fp16 [16384, 16384]", "variant": f"BLOCK {block} w{warps}",
                 **timed(launch, nbytes)}
            results.append(r)
            print(f"erf     {r['case']:24s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}", flush=True)


def rowscan(results):
    for dtype, M, R in ((torch.float16, 262144, 2047), (torch.float32, 65536, 4000)):
        x = torch.randn(M, R, device="cuda", dtype=dtype) if dtype == torch.float32 else \
            torch.rand(M, R, device="cuda", dtype=dtype)
        ref = torch.cumsum(x, dim=1)
        nbytes = 2 * x.numel() * x.element_size()
        rnd = tl.float16 if dtype == torch.float16 else tl.float32
        for block_m in (16, 32, 64, 128, 256):
            for warps in (1, 2, 4, 8):
                if block_m * 32 < 32 * warps or block_m * 32 // (32 * warps) > 128:
                    continue
                y = torch.empty_like(x)

                def launch():
                    cumsum_rows[(M // block_m,)](x, y, R, 32, block_m, 5, rnd, num_warps=warps, enable_fp_fusion=False)
                launch()
                r = {"form": "rowscan", "case": f"{str(dtype)[6:]} [{M}, {R}]", "variant": f"[{block_m}, 32] w{warps}",
                     "exact": torch.equal(y, ref), **timed(launch, nbytes)}
                results.append(r)
                print(f"rowscan {r['case']:24s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
                      f"exact {r['exact']}", flush=True)
        del x, ref


def argcols(results):
    R, I = 4096, 2047
    for B in (64, 128):
        x = torch.randn(B, R, I, device="cuda", dtype=torch.bfloat16)
        ref = x.transpose(1, 2).argmin(dim=-1)
        nbytes = x.numel() * 2
        for block_r, block_i, warps in ((32, 256, 8), (64, 256, 16), (16, 256, 4), (32, 128, 4), (64, 128, 8),
                                        (128, 64, 8), (64, 64, 4), (32, 64, 2)):
            col_blocks = triton.cdiv(I, block_i)
            y = torch.empty(B, I, device="cuda", dtype=torch.int64)

            def launch():
                argmin_columns[(B * col_blocks,)](x, y, R, I, block_r, block_i, col_blocks, num_warps=warps)
            launch()
            r = {"form": "argcols", "case": f"bf16 [{B}, {R}, {I}]", "variant": f"[{block_r}, {block_i}] w{warps}",
                 "exact": torch.equal(y, ref), **timed(launch, nbytes)}
            results.append(r)
            print(f"argcols {r['case']:24s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
                  f"exact {r['exact']}", flush=True)
        del x


def longscan(results):
    M, R = 4096, 65537
    x = torch.randn(M, R, device="cuda")
    ref = torch.cumsum(x, dim=1)
    nbytes = 2 * x.numel() * 4
    for block_m, warps, carry_sum in ((8, 4, True), (8, 4, False), (4, 4, True), (2, 2, True), (1, 1, True),
                                      (2, 1, True), (4, 2, True), (4, 4, False), (2, 2, False), (1, 1, False)):
        y = torch.empty_like(x)

        def launch():
            cumsum_rows[(M // block_m,)](x, y, R, 256, block_m, 8, tl.float32, carry_sum, num_warps=warps,
                                         enable_fp_fusion=False)
        launch()
        form = "sum" if carry_sum else "gather"
        r = {"form": "longscan", "case": f"fp32 [{M}, {R}]", "variant": f"[{block_m}, 256] w{warps} {form}",
             "exact": torch.equal(y, ref), **timed(launch, nbytes)}
        results.append(r)
        print(f"longscan {r['case']:23s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
              f"exact {r['exact']}", flush=True)
    del x, ref


def fewcols(results):
    for R, I in ((16384, 8192), (16384, 2048)):
        x = torch.randn(R, I, device="cuda")
        ref = torch.cumsum(x, dim=0)
        nbytes = 2 * x.numel() * 4
        for block_r in (32, 64, 128):
            for block_i, warps in ((16, 1), (32, 1), (64, 2)):
                col_blocks = triton.cdiv(I, block_i)
                y = torch.empty_like(x)

                def launch():
                    cumsum_columns[(col_blocks,)](x, y, R, I, block_r, block_i, col_blocks, num_warps=warps,
                                                  enable_fp_fusion=False)
                launch()
                r = {"form": "fewcols", "case": f"[{R}, {I}]", "variant": f"[{block_r}, {block_i}] w{warps}",
                     "exact": torch.equal(y, ref), **timed(launch, nbytes)}
                results.append(r)
                print(f"fewcols {r['case']:24s} {r['variant']:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
                      f"exact {r['exact']}", flush=True)
        del x, ref


def cecols(results):
    B, C, I = 128, 21, 512 * 512
    x = torch.randn(B, C, I, device="cuda", dtype=torch.float16)
    tgt = torch.randint(0, C, (B, I), device="cuda")
    xf = x.float()
    m = xf.amax(1)
    ref_s = torch.exp(xf - m[:, None]).sum(1)
    ref_t = xf.gather(1, tgt[:, None])[:, 0] - m
    nbytes = x.numel() * 2 + tgt.numel() * 8 + 2 * B * I * 4
    variants = []
    for block_i, warps in ((128, 4), (128, 1), (64, 1), (256, 2), (256, 1), (512, 4)):
        variants.append((f"tile [32, {block_i}] w{warps}", lambda s, t, block_i=block_i, warps=warps: ce_tile[
            (B * I // block_i,)](x, tgt, s, t, C, 32, I, block_i, num_warps=warps)))
    for block_i, warps in ((256, 1), (512, 2), (1024, 4), (512, 1), (1024, 2), (2048, 4)):
        variants.append((f"unrolled [{block_i}] w{warps}", lambda s, t, block_i=block_i, warps=warps: ce_unrolled[
            (B * I // block_i,)](x, tgt, s, t, C, I, block_i, num_warps=warps)))
    for name, launch in variants:
        s = torch.empty(B, I, device="cuda")
        t = torch.empty(B, I, device="cuda")
        launch(s, t)
        err = max((s - ref_s).abs().max().item(), (t - ref_t).abs().max().item())
        r = {"form": "cecols", "case": f"fp16 [{B}, {C}, {I}]", "variant": name, "max_err": err,
             **timed(lambda: launch(s, t), nbytes)}
        results.append(r)
        print(f"cecols  {r['case']:24s} {name:26s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  err {err:.1e}",
              flush=True)


def colscan(results):
    for R, I, dtype in ((16384, 8192, torch.float32), (16384, 2048, torch.float32), (65536, 1024, torch.float32),
                        (16384, 8192, torch.float16)):
        x = torch.randn(R, I, device="cuda", dtype=dtype)
        ref = torch.cumsum(x, dim=0)
        nbytes = 2 * x.numel() * x.element_size()
        half = dtype == torch.float16
        for kind in ("fold", "scan"):
            for block_r, block_i, warps in ((32, 32, 1), (32, 16, 1), (64, 16, 1), (64, 32, 1), (128, 16, 1),
                                            (32, 64, 1), (32, 128, 1), (32, 64, 2), (32, 128, 4)):
                if kind == "fold" and (block_r, block_i, warps) not in ((32, 32, 1), (32, 128, 1), (64, 16, 1)):
                    continue
                col_blocks = triton.cdiv(I, block_i)
                y = torch.empty_like(x)

                def launch():
                    if kind == "fold":
                        cumsum_columns[(col_blocks,)](x, y, R, I, block_r, block_i, col_blocks, num_warps=warps,
                                                      enable_fp_fusion=False)
                    else:
                        cumsum_columns_scan[(col_blocks,)](x, y, R, I, block_r, block_i, col_blocks, half,
                                                           num_warps=warps, enable_fp_fusion=False)
                launch()
                r = {"form": "colscan", "case": f"{str(dtype)[6:]} [{R}, {I}]",
                     "variant": f"{kind} [{block_r}, {block_i}] w{warps}", "exact": torch.equal(y, ref),
                     "max_err": (y.float() - ref.float()).abs().max().item(), **timed(launch, nbytes)}
                results.append(r)
                print(f"colscan {r['case']:22s} {r['variant']:24s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  "
                      f"exact {r['exact']} err {r['max_err']:.1e}", flush=True)
        del x, ref


def split_chunk(R, block_r, parts):
    # tritonize's CHUNK for about `parts` programs per column block: a multiple of 8 chunks of BLOCK_R rows
    step = 8 * block_r
    return triton.cdiv(triton.cdiv(R, parts), step) * step


def matvec_variant(results, case, name, launch, y, ref, nbytes, **extra):
    # one variant: run once, max error against float64, then (on the GPU) its median time; a variant that fails
    # to compile or run is recorded with its error and the others go on
    try:
        launch()
        err = (y.double().flatten() - ref).abs().max().item()
        r = {"form": "matvec", "case": case, "variant": name, "max_err": err, **extra}
        r.update({"ms": float("nan"), "floor_fraction": float("nan")} if DRY else timed(launch, nbytes))
    except Exception as e:  # noqa: BLE001 (one report line per failing variant)
        r = {"form": "matvec", "case": case, "variant": name, "error": f"{type(e).__name__}: {e}"[:500], **extra}
        print(f"matvec  {case:26s} {name:40s} FAILED {r['error'][:200]}", flush=True)
        results.append(r)
        return
    results.append(r)
    print(f"matvec  {case:26s} {name:40s} {r['ms']:.4f} ms  {r['floor_fraction']:.2f}  err {err:.1e}", flush=True)


def matvec_columns(results, K, M, dev, sweep):
    # A.t() @ x, A stored [K, M]: columns of the storage reduced over its K rows
    torch.manual_seed(0)
    A = torch.randn(K, M, device=dev)
    x = torch.randn(K, device=dev) / K ** 0.5
    ref = (A.double().t() @ x.double())
    case = f"A.t() @ x, A [{K}, {M}]"
    nbytes = A.numel() * 4 + K * 4 + M * 4
    y = torch.empty(M, device=dev)
    y.copy_(A.t() @ x)  # (eager's result for its error; timed without the copy)
    matvec_variant(results, case, "eager (cuBLAS)", lambda: A.t() @ x, y, ref, nbytes)
    for block_r, block_i, warps, parts_list in sweep:
        blocks = triton.cdiv(M, block_i)
        for parts in parts_list:
            if parts == 1:
                name = f"before [{block_r}, {block_i}] w{warps}, {blocks} programs"
                launch = lambda block_r=block_r, block_i=block_i, warps=warps, blocks=blocks: matvec_t_columns[
                    (blocks,)](A, x, y, K, M, block_r, block_i, num_warps=warps)
                matvec_variant(results, case, name, launch, y, ref, nbytes, block_r=block_r, block_i=block_i,
                               warps=warps, parts=1, programs=blocks)
                continue
            if parts == "rule":  # what tritonize emits for this tile: about 2048 programs
                parts = triton.cdiv(2048, blocks)
            chunk = split_chunk(K, block_r, parts)
            parts = triton.cdiv(K, chunk)
            work = torch.empty(blocks * parts * block_i, device=dev)
            count = torch.zeros(blocks, device=dev, dtype=torch.int32)
            name = f"split [{block_r}, {block_i}] w{warps}, {parts} x {chunk} rows, {blocks * parts} programs"
            launch = lambda block_r=block_r, block_i=block_i, warps=warps, blocks=blocks, parts=parts, chunk=chunk, \
                work=work, count=count: matvec_t_split[(blocks * parts,)](
                    A, x, y, work, count, parts, triton.next_power_of_2(parts), chunk, K, M, block_r, block_i,
                    num_warps=warps)
            matvec_variant(results, case, name, launch, y, ref, nbytes, block_r=block_r, block_i=block_i, warps=warps,
                           parts=parts, chunk=chunk, programs=blocks * parts)
    del A, ref


def matvec_rows(results, M, K, dev):
    # torch.mv(A, x), A [M, K]: gemm_mv
    torch.manual_seed(0)
    A = torch.randn(M, K, device=dev)
    x = torch.randn(K, device=dev)
    ref = A.double() @ x.double()
    case = f"torch.mv(A, x), A [{M}, {K}]"
    nbytes = A.numel() * 4 + K * 4 + M * 4
    y = torch.empty(M, device=dev)
    y.copy_(torch.mv(A, x))
    matvec_variant(results, case, "eager (cuBLAS)", lambda: torch.mv(A, x), y, ref, nbytes)
    for block_m, block_r, warps in ((1, 8192, 16), (1, 8192, 8), (1, 4096, 8), (1, 4096, 4), (1, 2048, 4),
                                    (2, 4096, 8), (4, 2048, 8)):
        name = f"rows [{block_m}, {block_r}] w{warps}" + (" (tritonize)" if (block_m, block_r, warps) == (1, 8192, 16)
                                                          else "")
        launch = lambda block_m=block_m, block_r=block_r, warps=warps: mv_rows[(triton.cdiv(M, block_m),)](
            A, x, y, M, K, block_m, block_r, num_warps=warps)
        matvec_variant(results, case, name, launch, y, ref, nbytes, block_m=block_m, block_r=block_r, warps=warps)
    for block_r, warps in ((8192, 16), (4096, 8), (2048, 4)):
        launch = lambda block_r=block_r, warps=warps: mv_rows_peeled[(M,)](A, x, y, K, block_r, num_warps=warps)
        matvec_variant(results, case, f"peeled rows [1, {block_r}] w{warps}", launch, y, ref, nbytes,
                       block_r=block_r, warps=warps)
    del A, ref


def matvec(results):
    dev = "cpu" if DRY else "cuda"
    # (BLOCK_R, BLOCK_I, warps, parts: 1 = the form before; "rule" = about 2048 programs, what tritonize emits)
    sweep = [(64, 64, 8, (1, 2, "rule", 10, 20)), (64, 64, 4, (1, "rule", 20)), (32, 64, 4, (1, "rule", 20)),
             (128, 64, 8, (1, "rule", 20)), (32, 128, 4, (1, "rule", 20)), (64, 128, 8, (1, "rule", 20)),
             (16, 128, 2, (1, "rule", 20))]
    if DRY:
        matvec_columns(results, 2100, 67, dev, sweep)
        matvec_columns(results, 2048, 256, dev, [(64, 64, 8, (1, "rule"))])
        matvec_rows(results, 67, 9001, dev)  # (rows longer than a chunk: the peeled form's loop runs)
        return
    matvec_columns(results, 32003, 30011, dev, sweep)
    matvec_columns(results, 32768, 32768, dev, [(64, 64, 8, (1, "rule", 8))])  # gemm_vecmat's shape, aligned
    matvec_rows(results, 24001, 40009, dev)


def main():
    global DRY
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", default="rows,columns,erf")
    ap.add_argument("--dry", action="store_true", help="matvec only: small shapes through the interpreter, untimed")
    args = ap.parse_args()
    DRY = args.dry
    if DRY and args.only != "matvec":
        ap.error("--dry runs only --only matvec")
    results = []
    for name in args.only.split(","):
        {"rows": rows, "columns": columns, "erf": erf, "argcols": argcols, "rowscan": rowscan,
         "longscan": longscan, "fewcols": fewcols, "cecols": cecols,
         "colscan": colscan, "matvec": matvec}[name](results)
        if args.json:
            with open(args.json, "w") as f:
                device = "cpu (interpreter)" if DRY else torch.cuda.get_device_name(0)
                json.dump({"device": device, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
