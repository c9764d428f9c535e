"""Softmax / log_softmax over a non-innermost dim on the GPU (a measurement for the device tool).

x is [M, R, I] (contiguous), the softmax runs over R: each program owns one outer index and BLOCK_I columns.
Forms:
  persist  - the whole column block [next_pow2(R), BLOCK_I] in registers (what tritonize emits for small R);
  three    - three passes over R in chunks of BLOCK_R (max, sum of exp, write: what tritonize emits for long R);
  online   - one pass keeping a running max and a rescaled sum per lane (one exp per element:
             e = exp(min(x, m) - max(x, m)); s = x > m ? s * e + 1 : s + e), then the write pass:
             2 reads + 1 write, the second read from L2 when the column block is still there;
  onlinec  - online with a per-column running max (chunk max across the chunk's rows, then exp(x - m));
  coop     - the column block split over G programs that run at the same time, each holding [CHUNK, BLOCK_I] in
             registers: chunk max and sum of exp per column -> work buffer, a counter per column block (atomics),
             a wait for the G programs, combine, write from registers: 1 read + 1 write.
  *_p      - the looped forms on a persistent grid (PER_SM programs per multiprocessor walking the tiles), so
             that fewer column blocks are in flight and the write pass finds its block in L2.
Every form is checked against torch (a column of -inf must give NaN, as PyTorch's does). Timing is
triton.testing.do_bench (L2 flushed before each call, one call between CUDA events), floor = bytes / 4.2 TB/s.

    python3 tests/gpu/colsoftmax_experiment.py [--json OUT.jsonl] [--budget SECONDS] [--jobs N] [--sweep]

--sweep measures, instead, where the cooperative form should start and end for fp32 (what tritonize emits: coop
[128, 64] on 4 warps from 8 to 32 groups, R 897..4096; online [32, 64] on 4 warps otherwise) and what it costs for
16-bit at the tile tritonize would use (docs/next/feat-coopcols.md): log_softmax over dim 1 of fp32 [M, R, 2048] for
R from 384 to 8192 (M * R about 64000, so each shape moves about the same bytes), online against coop at 128 and
256 rows per program, and bf16 [32, R, 4096] at R 1024 and 2048.

--corpus measures, instead, the two corpus softmax problems that an H200 run left far from the floor, at their real
sizes, in the form tritonize emits (kernels copied from `tritonize convert`) and in variants around it:
  cols - tests/corpus/softmax_transposed_input.py: softmax(x * 1.5, dim=1) of randn(2999, 179999).t(), columns
         whose rows are 179999 floats apart (not 16-byte aligned: one float per load), written contiguous (a
         transpose); emitted: cooperative column blocks [128, 64] on 4 warps, 24 groups;
  rows - tests/corpus/softmax_long_rows.py: softmax over 1024 rows of 262144 fp32; emitted: cooperative rows of
         8192 on 8 warps, 32 groups.
Each variant's max error against float64 and its fraction of the floor (input read once, output written once, at
4.25 TB/s). --dry runs every case once under TRITON_INTERPRET=1 on small shapes (on the CPU; a cooperative form
runs one group per line there, as the emitted launcher does).

    python3 tests/gpu/colsoftmax_experiment.py --corpus [--only cols|rows] [--json OUT.jsonl] [--budget S] [--dry]

Kernels are compiled first by N worker processes (Triton's disk cache), then timed one at a time.
"""
import argparse
import json
import multiprocessing as mp
import os
import sys
import time

if "--dry" in sys.argv:  # (the interpreter is chosen when triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

FLOOR_BPS = 4.2e12


@triton.jit
def _nan_max(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _finish(x, mx, total, LOG: tl.constexpr):
    if LOG:
        return x - mx - tl.log(total)
    else:
        return tl.exp(x - mx) / total


@triton.jit
def persist(x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr,
            LOG: tl.constexpr):
    IB: tl.constexpr = I // BLOCK_I
    pid = tl.program_id(0)
    base = (pid // IB) * R * I
    cols = (pid % IB) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    r = tl.arange(0, BLOCK_R)[:, None]
    mask = r < R
    x = tl.load(x_ptr + base + r * I + cols, mask=mask).to(tl.float32)
    mx = tl.reduce(tl.where(mask, x, float("-inf")), 0, _nan_max, keep_dims=True)
    if LOG:
        e = tl.exp(x - mx)
        total = tl.sum(tl.where(mask, e, 0.0), axis=0, keep_dims=True)
        y = x - mx - tl.log(total)
    else:
        e = tl.exp(x - mx)
        total = tl.sum(tl.where(mask, e, 0.0), axis=0, keep_dims=True)
        y = e / total
    tl.store(y_ptr + base + r * I + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _three_tile(x_ptr, y_ptr, tile, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr,
                LOG: tl.constexpr):
    IB: tl.constexpr = I // BLOCK_I
    base = (tile // IB) * R * I
    cols = (tile % IB) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    acc = tl.full([BLOCK_R, BLOCK_I], float("-inf"), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R, other=float("-inf")).to(tl.float32)
        acc = tl.maximum(acc, x, propagate_nan=tl.PropagateNan.ALL)
    mx = tl.reduce(acc, 0, _nan_max, keep_dims=True)
    acc1 = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R, other=float("-inf")).to(tl.float32)
        acc1 += tl.exp(x - mx)
    total = tl.sum(acc1, axis=0, keep_dims=True)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R).to(tl.float32)
        tl.store(y_ptr + base + r * I + cols, _finish(x, mx, total, LOG).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def _online_tile(x_ptr, y_ptr, tile, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
                 BLOCK_I: tl.constexpr, LOG: tl.constexpr):
    IB: tl.constexpr = I // BLOCK_I
    base = (tile // IB) * R * I
    cols = (tile % IB) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    m = tl.full([BLOCK_R, BLOCK_I], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R, other=float("-inf")).to(tl.float32)
        # one exp per element: exp(-|x - m|) rescales s when x is the new max, else is x's own term
        # (x == m, -inf included, counts 1; a NaN turns m and s NaN)
        e = tl.exp(tl.where(x == m, 0.0, tl.minimum(x, m) - tl.maximum(x, m, propagate_nan=tl.PropagateNan.ALL)))
        s = tl.where(x > m, s * e + 1.0, s + e)
        m = tl.maximum(m, x, propagate_nan=tl.PropagateNan.ALL)
    mx = tl.reduce(m, 0, _nan_max, keep_dims=True)
    total = tl.sum(s * tl.exp(tl.where(m == mx, 0.0, m - mx)), axis=0, keep_dims=True)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R).to(tl.float32)
        tl.store(y_ptr + base + r * I + cols, _finish(x, mx, total, LOG).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def _onlinec_tile(x_ptr, y_ptr, tile, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
                  BLOCK_I: tl.constexpr, LOG: tl.constexpr):
    IB: tl.constexpr = I // BLOCK_I
    base = (tile // IB) * R * I
    cols = (tile % IB) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    m = tl.full([1, BLOCK_I], float("-inf"), dtype=tl.float32)
    s = tl.zeros([1, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R, other=float("-inf")).to(tl.float32)
        mn = tl.maximum(m, tl.reduce(x, 0, _nan_max, keep_dims=True), propagate_nan=tl.PropagateNan.ALL)
        e = tl.where(r < R, tl.exp(tl.where(x == mn, 0.0, x - mn)), 0.0)
        s = s * tl.exp(tl.where(m == mn, 0.0, m - mn)) + tl.sum(e, axis=0, keep_dims=True)
        m = mn
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        x = tl.load(x_ptr + base + r * I + cols, mask=r < R).to(tl.float32)
        tl.store(y_ptr + base + r * I + cols, _finish(x, m, s, LOG).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def looped(x_ptr, y_ptr, TILES: tl.constexpr, PROGRAMS: tl.constexpr, R: tl.constexpr, I: tl.constexpr,
           BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr, LOG: tl.constexpr, FORM: tl.constexpr):
    # PROGRAMS == TILES: one program per column block (no loop)
    if PROGRAMS == TILES:
        if FORM == 0:
            _three_tile(x_ptr, y_ptr, tl.program_id(0), R, I, BLOCK_R, BLOCK_I, LOG)
        elif FORM == 1:
            _online_tile(x_ptr, y_ptr, tl.program_id(0), R, I, BLOCK_R, BLOCK_I, LOG)
        else:
            _onlinec_tile(x_ptr, y_ptr, tl.program_id(0), R, I, BLOCK_R, BLOCK_I, LOG)
    else:
        for tile in range(tl.program_id(0), TILES, PROGRAMS):
            if FORM == 0:
                _three_tile(x_ptr, y_ptr, tile, R, I, BLOCK_R, BLOCK_I, LOG)
            elif FORM == 1:
                _online_tile(x_ptr, y_ptr, tile, R, I, BLOCK_R, BLOCK_I, LOG)
            else:
                _onlinec_tile(x_ptr, y_ptr, tile, R, I, BLOCK_R, BLOCK_I, LOG)


@triton.jit
def coop(x_ptr, y_ptr, work_ptr, count_ptr, TILES: tl.constexpr, R: tl.constexpr, I: tl.constexpr,
         CHUNK: tl.constexpr, BLOCK_I: tl.constexpr, G: tl.constexpr, GP: tl.constexpr, LOG: tl.constexpr):
    IB: tl.constexpr = I // BLOCK_I
    for t in range(tl.program_id(0), TILES * G, tl.num_programs(0)):
        tile = t // G
        part = t % G
        base = (tile // IB) * R * I
        c = tl.arange(0, BLOCK_I)[None, :]
        cols = (tile % IB) * BLOCK_I + c
        r = part * CHUNK + tl.arange(0, CHUNK)[:, None]
        mask = r < R
        x = tl.load(x_ptr + base + r * I + cols, mask=mask).to(tl.float32)
        pm = tl.reduce(tl.where(mask, x, float("-inf")), 0, _nan_max, keep_dims=True)
        ps = tl.sum(tl.where(mask, tl.exp(tl.where(x == pm, 0.0, x - pm)), 0.0), axis=0, keep_dims=True)
        slot = work_ptr + ((tile * G + part) * 2) * BLOCK_I + c
        tl.store(slot, pm)
        tl.store(slot + BLOCK_I, ps)
        tl.debug_barrier()
        seen = tl.atomic_add(count_ptr + tile, 1, sem="acq_rel") + 1
        while seen < G:
            seen = tl.atomic_add(count_ptr + tile, 0, sem="acquire")
        tl.debug_barrier()
        g = tl.arange(0, GP)[:, None]
        slots = work_ptr + ((tile * G + g) * 2) * BLOCK_I + c
        ms = tl.load(slots, mask=g < G, other=float("-inf"), volatile=True)
        ss = tl.load(slots + BLOCK_I, mask=g < G, other=0.0, volatile=True)
        mx = tl.reduce(ms, 0, _nan_max, keep_dims=True)
        total = tl.sum(ss * tl.exp(tl.where(ms == mx, 0.0, ms - mx)), axis=0, keep_dims=True)
        tl.store(y_ptr + base + r * I + cols, _finish(x, mx, total, LOG).to(y_ptr.dtype.element_ty), mask=mask)


SHAPES = {
    # name: (M, R, I, dtype, log)
    "softmax_dim1_4d": (64, 96, 128 * 128, torch.float32, False),
    "log_softmax_dim1_bf16": (32, 1024, 4096, torch.bfloat16, True),
    "act_log_softmax_module": (64, 1000, 2048, torch.float32, True),
}
SWEEP_R = [384, 512, 768, 1000, 2048, 4096, 8192]
for _r in SWEEP_R:
    SHAPES[f"fp32_r{_r}"] = (max(8, 64000 // _r), _r, 2048, torch.float32, True)
for _r in [1024, 2048]:
    SHAPES[f"bf16_r{_r}"] = (32, _r, 4096, torch.bfloat16, True)


def sweep_cases():
    out = []
    for r in SWEEP_R:
        out.append(dict(shape=f"fp32_r{r}", form="online", block_r=32, block_i=64, warps=4, per_sm=0))
    for r in [1024, 2048]:
        out.append(dict(shape=f"bf16_r{r}", form="online", block_r=32, block_i=128, warps=8, per_sm=0))
    # last: a cooperative grid that does not fit would hang
    for r in SWEEP_R:
        out.append(dict(shape=f"fp32_r{r}", form="coop", chunk=128, block_i=64, warps=4))
        out.append(dict(shape=f"fp32_r{r}", form="coop", chunk=256, block_i=32, warps=4))
    for r in [1024, 2048]:
        out.append(dict(shape=f"bf16_r{r}", form="coop", chunk=128, block_i=128, warps=4))
        out.append(dict(shape=f"bf16_r{r}", form="coop", chunk=128, block_i=64, warps=4))
    return out


def cases():
    out = []
    # R = 96: the whole column block fits in registers
    s = "softmax_dim1_4d"
    for bi, w in [(64, 16), (64, 8), (64, 4), (128, 16), (128, 8), (128, 4), (32, 4), (32, 8), (256, 16), (256, 8)]:
        out.append(dict(shape=s, form="persist", block_i=bi, warps=w))
    for br, bi, w in [(32, 128, 4), (32, 128, 8), (32, 256, 8), (16, 256, 4), (32, 64, 4)]:
        out.append(dict(shape=s, form="online", block_r=br, block_i=bi, warps=w, per_sm=0))
        out.append(dict(shape=s, form="three", block_r=br, block_i=bi, warps=w, per_sm=0))
    for s in ["log_softmax_dim1_bf16", "act_log_softmax_module"]:
        for br, bi, w in [(64, 64, 8), (32, 128, 8), (32, 128, 4), (16, 256, 8), (16, 256, 4), (64, 128, 8),
                          (32, 64, 4), (8, 512, 8)]:
            out.append(dict(shape=s, form="online", block_r=br, block_i=bi, warps=w, per_sm=0))
        for br, bi, w in [(64, 64, 8), (32, 128, 8), (16, 256, 8)]:
            out.append(dict(shape=s, form="three", block_r=br, block_i=bi, warps=w, per_sm=0))
        for br, bi, w in [(32, 128, 8), (16, 256, 8)]:
            out.append(dict(shape=s, form="onlinec", block_r=br, block_i=bi, warps=w, per_sm=0))
        for br, bi, w in [(32, 128, 8), (32, 64, 4), (16, 256, 8)]:
            for per_sm in (1, 2, 4):
                out.append(dict(shape=s, form="online", block_r=br, block_i=bi, warps=w, per_sm=per_sm))
        for br, bi, w in [(64, 64, 8)]:
            out.append(dict(shape=s, form="three", block_r=br, block_i=bi, warps=w, per_sm=2))
    # last: a cooperative grid that does not fit would hang
    for s in ["log_softmax_dim1_bf16", "act_log_softmax_module"]:
        for chunk, bi, w in [(256, 64, 8), (128, 64, 4), (128, 128, 8), (64, 128, 4), (256, 32, 4), (64, 256, 8),
                             (128, 128, 4), (512, 32, 8)]:
            out.append(dict(shape=s, form="coop", chunk=chunk, block_i=bi, warps=w))
    return out


def shape_of(case):
    M, R, I, dtype, log = SHAPES[case["shape"]]
    return M, R, I, dtype, log


def launcher(case, x, y, sms, compile_only=False):
    """A function that runs the case once (or, with compile_only, compiles it and returns the compiled kernel)."""
    M, R, I, dtype, log = shape_of(case)
    bi, w = case["block_i"], case["warps"]
    tiles = M * (I // bi)
    if case["form"] == "persist":
        meta = dict(R=R, I=I, BLOCK_R=triton.next_power_of_2(R), BLOCK_I=bi, LOG=log, num_warps=w)
        if compile_only:
            return persist.warmup(x, y, grid=(1,), **meta)
        return lambda: persist[(tiles,)](x, y, **meta)
    if case["form"] in ("three", "online", "onlinec"):
        programs = tiles if case["per_sm"] == 0 else min(tiles, sms * case["per_sm"])
        form = {"three": 0, "online": 1, "onlinec": 2}[case["form"]]
        meta = dict(TILES=tiles, PROGRAMS=programs, R=R, I=I, BLOCK_R=case["block_r"], BLOCK_I=bi, LOG=log,
                    FORM=form, num_warps=w)
        if compile_only:
            return looped.warmup(x, y, grid=(1,), **meta)
        return lambda: looped[(programs,)](x, y, **meta)
    chunk = case["chunk"]
    G = triton.cdiv(R, chunk)
    work = torch.empty(tiles * G * 2 * bi, device="cuda", dtype=torch.float32)
    count = torch.zeros(tiles, device="cuda", dtype=torch.int32)
    meta = dict(TILES=tiles, R=R, I=I, CHUNK=chunk, BLOCK_I=bi, G=G, GP=triton.next_power_of_2(G), LOG=log,
                num_warps=w)
    compiled = coop.warmup(x, y, work, count, grid=(1,), **meta)
    if compile_only:
        return compiled
    compiled._init_handles()
    props = torch.cuda.get_device_properties(0)
    threads = 32 * w
    per_sm = min(4, props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),
                 props.max_threads_per_multi_processor // threads,
                 props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))
    programs = min(tiles * G, per_sm * sms // G * G)
    case["programs"], case["regs"], case["spills"] = programs, compiled.n_regs, compiled.n_spills
    if programs == 0:
        raise RuntimeError("does not fit")

    def run():
        count.zero_()
        coop[(programs,)](x, y, work, count, **meta)
    return run


def compile_worker(args):
    indices, all_cases = args
    torch.cuda.init()
    tensors = {}
    done = []
    for k in indices:
        case = all_cases[k]
        try:
            M, R, I, dtype, log = shape_of(case)
            if case["shape"] not in tensors:
                tensors.clear()
                torch.cuda.empty_cache()
                tensors[case["shape"]] = (torch.empty(M, R, I, device="cuda", dtype=dtype),
                                          torch.empty(M, R, I, device="cuda", dtype=dtype))
            x, y = tensors[case["shape"]]
            launcher(dict(case), x, y, 132, compile_only=True)
            done.append((k, None))
        except Exception as e:  # reported with the case
            done.append((k, f"{type(e).__name__}: {e}"[:300]))
    return done


# --corpus: the two corpus problems at their real sizes ------------------------------------------------------------


@triton.jit
def corpus_cols_coop(x_ptr, buf0_ptr, work_ptr, count_ptr, TILES: tl.constexpr, SX: tl.constexpr, SY: tl.constexpr,
                     GROUPS: tl.constexpr, GROUPS_P2: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr,
                     I: tl.constexpr, BLOCK_I: tl.constexpr, HOLD: tl.constexpr):
    # tritonize's fused_mul_max_sub_exp_sum_kernel for softmax_transposed_input.py (2813 -> TILES, 179999 -> SX,
    # 2999 -> SY); HOLD=False reads the chunk again (from L2) after the exchange instead of holding it
    for tile in range(tl.program_id(0), TILES * GROUPS, tl.num_programs(0)):
        col_block = tile // GROUPS
        part = tile % GROUPS
        lanes = tl.arange(0, BLOCK_I)[None, :]
        cols = col_block % TILES * BLOCK_I + lanes
        col_mask = cols < I
        r = part * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
        r_mask = r < R
        x = tl.load(x_ptr + (cols + r * SX), mask=r_mask & col_mask).to(tl.float32)
        mul = x * 1.5
        partial = tl.reduce(tl.where(r_mask & col_mask, mul, float("-inf")), 0, _nan_max, keep_dims=True)
        tl.store(work_ptr + (((col_block * GROUPS + part) * 2 + 0) * BLOCK_I + lanes), partial)
        partial1 = tl.sum(tl.where(r_mask & col_mask, tl.exp(tl.where(mul == partial, 0.0, mul - partial)), 0.0),
                          axis=0, keep_dims=True)
        tl.store(work_ptr + (((col_block * GROUPS + part) * 2 + 1) * BLOCK_I + lanes), partial1)
        tl.debug_barrier()
        seen = tl.atomic_add(count_ptr + col_block, 1, sem="acq_rel") + 1
        while seen < GROUPS:
            seen = tl.atomic_add(count_ptr + col_block, 0, sem="acquire")
        tl.debug_barrier()
        group = tl.arange(0, GROUPS_P2)[:, None]
        partials = tl.load(work_ptr + (((col_block * GROUPS + group) * 2 + 0) * BLOCK_I + lanes), mask=group < GROUPS,
                           other=float("-inf"), volatile=True)
        red_max = tl.reduce(partials, 0, _nan_max, keep_dims=True)
        partials1 = tl.load(work_ptr + (((col_block * GROUPS + group) * 2 + 1) * BLOCK_I + lanes), mask=group < GROUPS,
                            other=0.0, volatile=True)
        red_sum = tl.sum(partials1 * tl.exp(tl.where(partials == red_max, 0.0, partials - red_max)), axis=0,
                         keep_dims=True)
        if not HOLD:
            mul = tl.load(x_ptr + (cols + r * SX), mask=r_mask & col_mask).to(tl.float32) * 1.5
        sub = mul - red_max
        exp = tl.exp(sub)
        div = exp / red_sum
        tl.store(buf0_ptr + (cols * SY + r), div.to(buf0_ptr.dtype.element_ty), mask=r_mask & col_mask)


@triton.jit
def corpus_cols_online(x_ptr, y_ptr, TILES: tl.constexpr, PROGRAMS: tl.constexpr, SX: tl.constexpr,
                       SY: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, I: tl.constexpr,
                       BLOCK_I: tl.constexpr):
    # the online form (running max and sum of exp per lane, then a pass that writes: two reads), one program per
    # column block (PROGRAMS == TILES) or a persistent grid
    for tile in range(tl.program_id(0), TILES, PROGRAMS):
        cols = tile * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
        col_mask = cols < I
        m = tl.full([BLOCK_R, BLOCK_I], float("-inf"), dtype=tl.float32)
        s = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)[:, None]
            mask = (r < R) & col_mask
            y = tl.load(x_ptr + (cols + r * SX), mask=mask, other=float("-inf")).to(tl.float32) * 1.5
            e = tl.exp(tl.where(y == m, 0.0, tl.minimum(y, m) - tl.maximum(y, m, propagate_nan=tl.PropagateNan.ALL)))
            s = tl.where(mask, tl.where(y > m, s * e + 1.0, s + e), s)
            m = tl.maximum(m, y, propagate_nan=tl.PropagateNan.ALL)
        mx = tl.reduce(m, 0, _nan_max, keep_dims=True)
        total = tl.sum(s * tl.exp(tl.where(m == mx, 0.0, m - mx)), axis=0, keep_dims=True)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)[:, None]
            mask = (r < R) & col_mask
            y = tl.load(x_ptr + (cols + r * SX), mask=mask).to(tl.float32) * 1.5
            tl.store(y_ptr + (cols * SY + r), (tl.exp(y - mx) / total).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _sleep(seen):
    # 100 ns between polls of a counter, so that waiting programs poll L2 less often
    return tl.inline_asm_elementwise("nanosleep.u32 100; mov.b32 $0, $1;", "=r,r", [seen], dtype=tl.int32,
                                     is_pure=False, pack=1)


@triton.jit
def corpus_rows_coop(x_ptr, buf0_ptr, work_ptr, count_ptr, MROWS: tl.constexpr, GROUPS: tl.constexpr,
                     GROUPS_P2: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, M: tl.constexpr,
                     BLOCK_M: tl.constexpr, RCP: tl.constexpr, SLEEP: tl.constexpr):
    # tritonize's fused_max_sub_exp_sum_div_kernel for softmax_long_rows.py (1024 -> MROWS, 262144 -> R);
    # RCP multiplies by 1 / sum instead of dividing (a probe of the issue cost), SLEEP sleeps between polls
    for tile in range(tl.program_id(0), MROWS * GROUPS, tl.num_programs(0)):
        row = tile // GROUPS
        part = tile % GROUPS
        rows = row * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
        r = part * BLOCK_R + tl.arange(0, BLOCK_R)[None, :]
        r_mask = r < R
        x = tl.load(x_ptr + (rows * R + r), mask=r_mask).to(tl.float32)
        partial = tl.reduce(tl.where(r_mask, x, float("-inf")), 1, _nan_max, keep_dims=True)
        tl.store(work_ptr + ((rows * GROUPS + part) * 2 + 0), partial)
        partial1 = tl.sum(tl.where(r_mask, tl.exp(tl.where(x == partial, 0.0, x - partial)), 0.0), axis=1,
                          keep_dims=True)
        tl.store(work_ptr + ((rows * GROUPS + part) * 2 + 1), partial1)
        tl.debug_barrier()
        seen = tl.atomic_add(count_ptr + row, 1, sem="acq_rel") + 1
        while seen < GROUPS:
            if SLEEP:
                seen = _sleep(seen)
            seen = tl.atomic_add(count_ptr + row, 0, sem="acquire")
        tl.debug_barrier()
        group = tl.arange(0, GROUPS_P2)
        partials = tl.load(work_ptr + ((row * GROUPS + group) * 2 + 0), mask=group < GROUPS, other=float("-inf"),
                           volatile=True)
        red_max = tl.reduce(partials, 0, _nan_max, keep_dims=True)
        partials1 = tl.load(work_ptr + ((row * GROUPS + group) * 2 + 1), mask=group < GROUPS, other=0.0,
                            volatile=True)
        red_sum = tl.sum(partials1 * tl.exp(tl.where(partials == red_max, 0.0, partials - red_max)), axis=0,
                         keep_dims=True)
        sub = x - red_max
        exp = tl.exp(sub)
        if RCP:
            div = exp * (1.0 / red_sum)
        else:
            div = exp / red_sum
        tl.store(buf0_ptr + (rows * R + r), div.to(buf0_ptr.dtype.element_ty), mask=r_mask)


CORPUS = {
    # name: (dry shape, real shape); cols: x = randn(R, I).t() ([I, R], the softmax over R), rows: [M, R]
    "cols": ((150, 67), (2999, 179999)),
    "rows": ((2, 5003), (1024, 262144)),
}


def corpus_cases():
    out = [dict(shape="cols", form="eager"), dict(shape="cols", form="eager_copy")]
    # the online form: one program per column block, or PER_SM per multiprocessor
    for br, bi, w, per_sm in [(32, 64, 4, 0), (32, 64, 8, 0), (64, 64, 8, 0), (16, 64, 2, 0), (32, 32, 4, 0),
                              (32, 64, 4, 2), (32, 32, 4, 2), (64, 32, 4, 0)]:
        out.append(dict(shape="cols", form="online", block_r=br, block_i=bi, warps=w, per_sm=per_sm))
    # cooperative: first what tritonize emits, then fewer elements per thread (more warps, smaller chunks),
    # narrower column tiles, the chunk read again from L2; CAP: most programs per multiprocessor (emitted: 4)
    for br, bi, w, cap, hold in [(128, 64, 4, 4, 1), (128, 64, 8, 4, 1), (128, 64, 16, 4, 1), (256, 64, 8, 4, 1),
                                 (256, 64, 16, 4, 1), (512, 64, 16, 4, 1), (64, 64, 4, 8, 1), (64, 64, 8, 4, 1),
                                 (128, 32, 4, 8, 1), (64, 32, 2, 8, 1), (256, 32, 8, 4, 1), (512, 32, 16, 4, 1),
                                 (128, 64, 4, 8, 0), (64, 64, 4, 16, 0), (256, 64, 8, 4, 0)]:
        out.append(dict(shape="cols", form="coop", block_r=br, block_i=bi, warps=w, cap=cap, hold=hold))
    out += [dict(shape="rows", form="eager")]
    for br, w, cap, rcp, sleep in [(8192, 8, 4, 0, 0), (8192, 8, 4, 1, 0), (8192, 8, 4, 0, 1), (8192, 8, 2, 0, 0),
                                   (8192, 8, 1, 0, 0), (8192, 16, 4, 0, 0), (4096, 4, 4, 0, 0), (4096, 8, 4, 0, 0),
                                   (4096, 4, 8, 0, 0), (16384, 16, 4, 0, 0), (16384, 32, 4, 0, 0),
                                   (32768, 32, 4, 0, 0), (16384, 16, 4, 1, 1)]:
        out.append(dict(shape="rows", form="coop", block_r=br, warps=w, cap=cap, rcp=rcp, sleep=sleep))
    return out


def corpus_launcher(case, x, y, sms, dry, compile_only=False):
    """A function that runs the case once (or, with compile_only, compiles it)."""
    (R, I) = case["dims"]
    if case["shape"] == "cols":
        bi, br, w = case["block_i"], case["block_r"], case["warps"]
        tiles = triton.cdiv(I, bi)
        if case["form"] == "online":
            programs = tiles if case["per_sm"] == 0 or dry else min(tiles, sms * case["per_sm"])
            meta = dict(TILES=tiles, PROGRAMS=programs, SX=I, SY=R, R=R, BLOCK_R=br, I=I, BLOCK_I=bi, num_warps=w)
            if compile_only:
                return corpus_cols_online.warmup(x, y, grid=(1,), **meta)
            return lambda: corpus_cols_online[(programs,)](x, y, **meta)
        G = 1 if dry else triton.cdiv(R, br)  # (the interpreter runs programs one after another: one group)
        br = triton.next_power_of_2(R) if dry else br
        meta = dict(TILES=tiles, SX=I, SY=R, GROUPS=G, GROUPS_P2=triton.next_power_of_2(G), R=R, BLOCK_R=br, I=I,
                    BLOCK_I=bi, HOLD=bool(case["hold"]), num_warps=w)
        kernel, lines, partial = corpus_cols_coop, tiles, bi
    else:
        M, R = case["dims"]
        br, w = case["block_r"], case["warps"]
        G = 1 if dry else triton.cdiv(R, br)
        br = triton.next_power_of_2(R) if dry else br
        meta = dict(MROWS=M, GROUPS=G, GROUPS_P2=triton.next_power_of_2(G), R=R, BLOCK_R=br, M=M, BLOCK_M=1,
                    RCP=bool(case["rcp"]), SLEEP=bool(case["sleep"]) and not dry, num_warps=w)
        kernel, lines, partial = corpus_rows_coop, M, 1
    work = torch.empty(lines * G * 2 * partial, device=x.device, dtype=torch.float32)
    count = torch.zeros(lines, device=x.device, dtype=torch.int32)
    if dry:
        return lambda: kernel[(1,)](x, y, work, count, **meta)
    compiled = kernel.warmup(x, y, work, count, grid=(1,), **meta)
    if compile_only:
        return compiled
    # the emitted launcher's _coop_programs: every program resident at once, in whole groups
    compiled._init_handles()
    props = torch.cuda.get_device_properties(0)
    threads = 32 * w
    per_sm = min(case["cap"], props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),
                 props.max_threads_per_multi_processor // threads,
                 props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))
    programs = min(lines * G, per_sm * sms // G * G)
    case.update(groups=G, programs=programs, regs=compiled.n_regs, spills=compiled.n_spills,
                shared=compiled.metadata.shared)
    if programs == 0:
        raise RuntimeError("does not fit")

    def run():
        count.zero_()
        kernel[(programs,)](x, y, work, count, **meta)
    return run


def corpus_compile_worker(args):
    indices, all_cases = args
    torch.cuda.init()
    done = []
    for k in indices:
        case = dict(all_cases[k])
        try:
            # (small tensors: the kernels are specialized on dtype and alignment, the sizes are constexpr)
            x, y = torch.empty(64, device="cuda"), torch.empty(64, device="cuda")
            corpus_launcher(case, x, y, 132, False, compile_only=True)
            done.append((k, None))
        except Exception as e:  # reported with the case
            done.append((k, f"{type(e).__name__}: {e}"[:300]))
    return done


def corpus_main(args):
    start = time.time()
    dry = args.dry
    device = "cpu" if dry else "cuda"
    all_cases = [c for c in corpus_cases() if args.only in (None, c["shape"])]
    for c in all_cases:
        c["dims"] = CORPUS[c["shape"]][0 if dry else 1]
    errors = {}
    compiled = [k for k, c in enumerate(all_cases) if not c["form"].startswith("eager")]
    if not dry and args.jobs > 1:
        chunks = [compiled[j::args.jobs] for j in range(args.jobs)]
        with mp.get_context("spawn").Pool(args.jobs) as pool:
            for done in pool.map(corpus_compile_worker, [(c, all_cases) for c in chunks if c]):
                for k, err in done:
                    if err:
                        errors[k] = err
        print(f"compiled {len(compiled)} kernels in {time.time() - start:.1f} s ({len(errors)} errors)", flush=True)
    sms = 1 if dry else torch.cuda.get_device_properties(0).multi_processor_count
    out = open(args.json, "w") if args.json else None
    results = []

    def record(**kw):
        results.append(kw)
        print(json.dumps(kw, separators=(",", ":")), flush=True)
        if out:
            out.write(json.dumps(kw) + "\n")
            out.flush()

    def time_ms(fn):
        if dry:
            t = time.perf_counter()
            fn()
            return (time.perf_counter() - t) * 1e3
        return do_bench(fn, warmup=10, rep=args.rep, return_mode="median")

    current = None
    for k, case in enumerate(all_cases):
        if time.time() - start > args.budget and not dry:
            record(**case, skipped="budget")
            continue
        if current != case["shape"]:
            current = case["shape"]
            x = y = ref = None
            if not dry:
                torch.cuda.empty_cache()
            torch.manual_seed(0)
            if current == "cols":
                R, I = case["dims"]
                x = torch.randn(R, I, device=device).t()  # [I, R], rows I floats apart
                eager = lambda: torch.softmax(x * 1.5, dim=1)
                ref = torch.softmax(x.double() * 1.5, dim=1)
                y = torch.empty(I, R, device=device)
            else:
                M, R = case["dims"]
                x = torch.randn(M, R, device=device)
                eager = lambda: torch.softmax(x, dim=-1)
                ref = torch.softmax(x.double(), dim=-1)
                y = torch.empty_like(x)
            floor_ms = 2 * x.numel() * 4 / 4.25e12 * 1e3

        def checked(fn, out_tensor):
            got = fn()
            if out_tensor is not None:
                got = out_tensor
            return (got.double() - ref).abs().max().item()
        try:
            if case["form"] == "eager":
                err = checked(eager, None)
                ms = time_ms(eager)
            elif case["form"] == "eager_copy":  # a transposing copy (what eager does first): a practical floor
                err, ms = None, time_ms(lambda: x.contiguous())
            else:
                if k in errors:
                    record(**case, error=errors[k])
                    continue
                run = corpus_launcher(case, x, y, sms, dry)
                y.fill_(float("nan"))
                err = checked(lambda: run(), y)
                ms = time_ms(run)
            record(**case, ms=round(ms, 4), floor=round(floor_ms / ms, 3), max_err=err)
        except Exception as e:
            record(**case, error=f"{type(e).__name__}: {e}"[:300])
    print("\nshape form    config                                                     ms      floor  max_err")
    for r in sorted((r for r in results if "ms" in r), key=lambda r: (r["shape"], r["ms"])):
        cfg = {k: v for k, v in r.items()
               if k in ("block_r", "block_i", "warps", "per_sm", "cap", "hold", "rcp", "sleep", "groups", "programs",
                        "regs")}
        print(f"{r['shape']:5s} {r['form']:7s} {json.dumps(cfg):58s} {r['ms']:.4f}  {r['floor']:.2f}  {r['max_err']}")
    print(f"total {time.time() - start:.1f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--budget", type=float, default=120.0, help="stop timing new cases after this many seconds")
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--rep", type=int, default=100)
    ap.add_argument("--sweep", action="store_true", help="where the cooperative form pays (fp32 R sweep, bf16)")
    ap.add_argument("--corpus", action="store_true", help="softmax_transposed_input and softmax_long_rows")
    ap.add_argument("--only", choices=["cols", "rows"], help="with --corpus: one of the two problems")
    ap.add_argument("--dry", action="store_true", help="with --corpus: small shapes under TRITON_INTERPRET=1")
    args = ap.parse_args()
    if args.corpus:
        corpus_main(args)
        return
    start = time.time()
    all_cases = sweep_cases() if args.sweep else cases()
    # compile everything in parallel (the disk cache then serves the timing process)
    errors = {}
    if args.jobs > 1:
        by_shape = {}
        for k, c in enumerate(all_cases):
            by_shape.setdefault(c["shape"], []).append(k)
        chunks = [[] for _ in range(args.jobs)]
        n = 0
        for ks in by_shape.values():
            for k in ks:
                chunks[n % args.jobs].append(k)
                n += 1
        with mp.get_context("spawn").Pool(args.jobs) as pool:
            for done in pool.map(compile_worker, [(c, all_cases) for c in chunks if c]):
                for k, err in done:
                    if err:
                        errors[k] = err
    print(f"compiled {len(all_cases)} cases in {time.time() - start:.1f} s ({len(errors)} errors)", flush=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = open(args.json, "w") if args.json else None
    results = []

    def record(**kw):
        results.append(kw)
        short = {k: v for k, v in kw.items() if k not in ("shape", "max_err")}
        print(kw["shape"][:12], json.dumps(short, separators=(",", ":")), flush=True)
        if out:
            out.write(json.dumps(kw) + "\n")
            out.flush()

    current = None
    for k, case in enumerate(all_cases):
        if time.time() - start > args.budget:
            record(**case, skipped="budget")
            continue
        M, R, I, dtype, log = shape_of(case)
        if current != case["shape"]:
            current = case["shape"]
            x = y = ref = None
            torch.cuda.empty_cache()
            torch.manual_seed(0)
            x = torch.randn(M, R, I, device="cuda", dtype=dtype)
            x[0, :, 0] = float("-inf")  # a column of -inf: NaN, as in PyTorch
            x[1, 5, 3] = float("-inf")
            x[2, 7, 9] = 30.0
            ref = torch.log_softmax(x, dim=1) if log else torch.softmax(x, dim=1)
            y = torch.empty_like(x)
            floor_ms = 2 * x.numel() * x.element_size() / FLOOR_BPS * 1e3
            fn = (lambda: torch.log_softmax(x, dim=1)) if log else (lambda: torch.softmax(x, dim=1))
            ms = do_bench(fn, warmup=10, rep=args.rep, return_mode="median")
            record(shape=current, form="eager", ms=round(ms, 4), floor=round(floor_ms / ms, 3))
        if k in errors:
            record(**case, error=errors[k])
            continue
        try:
            run = launcher(case, x, y, sms)
            y.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
            tol = 1e-4 if dtype == torch.float32 else 1e-2
            ok = torch.allclose(y.float(), ref.float(), atol=tol, rtol=tol, equal_nan=True)
            err = (y.float() - ref.float()).nan_to_num(0.0, 0.0, 0.0).abs().max().item()
            ms = do_bench(run, warmup=10, rep=args.rep, return_mode="median")
            record(**case, ms=round(ms, 4), floor=round(floor_ms / ms, 3), correct=ok, max_err=err)
        except Exception as e:
            record(**case, error=f"{type(e).__name__}: {e}"[:300])
    # summary: the best correct form per shape and form
    print("\nshape                    form      config                                   ms      floor")
    best = {}
    for r in results:
        if "ms" not in r or r.get("correct") is False:
            continue
        key = (r["shape"], r["form"] + ("_p" if r.get("per_sm") else ""))
        if key not in best or r["ms"] < best[key]["ms"]:
            best[key] = r
    for (shape, form), r in sorted(best.items(), key=lambda kv: (kv[0][0], kv[1]["ms"])):
        cfg = {k: v for k, v in r.items() if k in ("block_r", "block_i", "chunk", "warps", "per_sm", "programs")}
        print(f"{shape:24s} {form:9s} {json.dumps(cfg):40s} {r['ms']:.4f}  {r['floor']:.2f}")
    print(f"total {time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
