"""The four softmax-like corpus problems that the H200 left under 80% of the copy floor (issue 2), in the form
tritonize emits and in variants of it (a measurement for the device tool). Kernel time is triton.testing.do_bench's
median (L2 flushed before each call); floor fraction = bytes (input read once + output written once) / 4.25 TB/s /
time; eager and torch.compile beside each problem. The emitted files are tests/gpu/softmax_emitted/*.py (converted
by the `next` compiler, 1fbf629); "forward" rows time ModelNew's whole call as the harness does (python/tritonize/
timing.py: L2 flush, synchronize, events around one call), so that the launcher's own cost shows next to the
kernel's.

  rows    - softmax_long_rows (softmax of fp32 [1024, 262144]) and log_softmax_lastdim (fp32 [8192, 50257]):
            cooperative rows (coop_rows below), each row split over GROUPS programs of CHUNK elements that exchange
            their (max, sum of exp) partials through a counter:
              prefetch - the next tile's chunk is loaded right after the count-in atomic (a release: loads issued
                         before it would have to complete first), so its loads are in flight during the wait, the
                         exchange and the stores (the emitted form loads it only after its stores: every wave of
                         ~16 rows pays the load latency and the exchange in series, ~3 us a wave against ~7.5 us of
                         transfer for long rows, ~3 us against ~3.8 us for rows of 50257);
              peel     - rows not 16-byte aligned (50257 floats): each row's chunks start at its first 16-byte boundary
                         below (tl.multiple_of), loads masked only at the tensor's end, so Triton loads 16-byte vectors
                         (emitted: 32 ld.global.b32 a thread, 122 registers; peeled: 8 ld.global.v4), stores vectors in
                         the interior chunks (the edge chunks mask by element);
              epoch    - the counters are never zeroed per call (a buffer zeroed once; a program waits for the next
                         multiple of GROUPS), so a call is one launch instead of two.
  cols    - softmax_transposed_input (softmax over dim 1 of x * 1.5, x = randn(2999, 179999).t()): cooperative
            column blocks (coop_cols), the same three options, and `ptrs` (the tile's corner as one scalar offset,
            then small in-tile offsets: fewer 64-bit addresses for the scalar loads; 155 -> 128 registers at [256, 32]).
  entropy - softmax_entropy_channels_last_bf16 (-(softmax * log_softmax).sum(1) over 151 classes of bf16
            [32, 255, 257, 151], rows 302 bytes apart: one bf16 per load instruction): the emitted kernel is issue
            bound (ptx: 681 instructions a warp for 4 rows held as [4, 256], 41% of the tile padding, 60 shuffles;
            issue time >= 0.34 ms against a 0.15 ms floor). Variants: the emitted kernel at other rows x warps;
            `chunked` (rows in [BLOCK_M, BC] chunks, each pass re-reading them from L1; at BC = 8 a warp holds 4
            rows of 8 lanes, so each reduction is a 3-level shuffle tree shared by 4 rows: ptx 105 instructions a
            row against the emitted 170, issue time >= 0.21 ms; the emitted [4, 256] tile's masked columns
            160..255 are already removed by the compiler, so padding costs nothing there); `unrounded` (one fewer reduction and no
            per-element division or bf16 rounding: log(s) - sum(e * (x - m)) / s; its numerics differ from eager's
            rounding, so it only measures the headroom).
Each variant's max error against PyTorch (float64 for fp32) is printed.

    python3 tests/gpu/softmax_experiment.py [--only rows,cols,entropy] [--json OUT.json] [--dry]

--dry runs every variant once at small shapes under TRITON_INTERPRET=1 (on the CPU): a cooperative kernel runs in
two launches there (PHASE 1: every chunk's partials, PHASE 2: combine and write; the interpreter runs programs one
after another, so none may wait), on a grid smaller than its tiles so the persistent loop and the prefetch run;
the emitted files are converted at their cpu-shrink sizes by $TRITONIZE_BIN (default build/tritonize) when it exists.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

BANDWIDTH = 4.25e12
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DRY = False
DEV = "cuda"


@triton.jit
def _nan_max(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def _row_tile(x_ptr, tile, offs, M: tl.constexpr, R: tl.constexpr, CHUNK: tl.constexpr, GROUPS: tl.constexpr,
              PEEL: tl.constexpr):
    # tile -> (row, part, the chunk's first flat index, its elements' row mask, the loaded chunk)
    VEC: tl.constexpr = 4
    row = tile // GROUPS
    part = tile % GROUPS
    start = row.to(tl.int64) * R
    if PEEL:
        base = tl.multiple_of(start // VEC * VEC + part * CHUNK, VEC)
    else:
        base = start + part * CHUNK
    idx = base + offs
    inrow = (idx >= start) & (idx < start + R)
    if PEEL:  # (masked at the tensor's end only, at a vector's granularity when M * R is a multiple of VEC)
        x = tl.load(x_ptr + base + offs, mask=(idx < M * R) & (tile < M * GROUPS))
    else:
        x = tl.load(x_ptr + base + offs, mask=inrow & (tile < M * GROUPS))
    return row, part, base, inrow, x


@triton.jit
def coop_rows(x_ptr, y_ptr, work_ptr, count_ptr, M: tl.constexpr, R: tl.constexpr, CHUNK: tl.constexpr,
              GROUPS: tl.constexpr, GROUPS_P2: tl.constexpr, LOG: tl.constexpr, PEEL: tl.constexpr,
              PREFETCH: tl.constexpr, EPOCH: tl.constexpr, PHASE: tl.constexpr):
    # softmax / log_softmax over rows of R (fp32, contiguous [M, R]), each row split over GROUPS programs
    offs = tl.arange(0, CHUNK)
    nprog = tl.num_programs(0)
    row, part, base, inrow, x = _row_tile(x_ptr, tl.program_id(0), offs, M, R, CHUNK, GROUPS, PEEL)
    for tile in range(tl.program_id(0), M * GROUPS, nprog):
        row = tile // GROUPS  # (base, inrow and x: this tile's, carried from the load before)
        part = tile % GROUPS
        if PHASE != 2:
            pm = tl.reduce(tl.where(inrow, x, float("-inf")), 0, _nan_max)
            tl.store(work_ptr + (row * GROUPS + part) * 2, pm)
            ps = tl.sum(tl.where(inrow, tl.exp(tl.where(x == pm, 0.0, x - pm)), 0.0), 0)
            tl.store(work_ptr + (row * GROUPS + part) * 2 + 1, ps)
        if PHASE == 0:
            tl.debug_barrier()
            old = tl.atomic_add(count_ptr + row, 1, sem="acq_rel")
        if PREFETCH:  # after the release: the next chunk's loads fly during the wait, the exchange and the stores
            nrow, npart, nbase, ninrow, x_next = _row_tile(x_ptr, tile + nprog, offs, M, R, CHUNK, GROUPS, PEEL)
        if PHASE == 0:
            if EPOCH:  # never reset: this call's arrivals on the row end at the next multiple of GROUPS
                target = (old // GROUPS + 1) * GROUPS
            else:
                target = GROUPS
            seen = old + 1
            while seen < target:
                seen = tl.atomic_add(count_ptr + row, 0, sem="acquire")
            tl.debug_barrier()
        if PHASE != 1:
            group = tl.arange(0, GROUPS_P2)
            pms = tl.load(work_ptr + (row * GROUPS + group) * 2, mask=group < GROUPS, other=float("-inf"),
                          volatile=True)
            red_max = tl.reduce(pms, 0, _nan_max)
            pss = tl.load(work_ptr + (row * GROUPS + group) * 2 + 1, mask=group < GROUPS, other=0.0, volatile=True)
            red_sum = tl.sum(pss * tl.exp(tl.where(pms == red_max, 0.0, pms - red_max)), 0)
            if LOG:
                out = x - red_max - tl.log(red_sum)
            else:
                out = tl.exp(x - red_max) / red_sum
            if PEEL:  # (a chunk reaching outside its row, at either end, stores by element)
                if (base < row.to(tl.int64) * R) | (base + CHUNK > row.to(tl.int64) * R + R):
                    tl.store(y_ptr + base + offs, out, mask=inrow)
                else:
                    tl.store(y_ptr + base + offs, out)
            else:
                tl.store(y_ptr + base + offs, out, mask=inrow)
        if PREFETCH:
            base, inrow, x = nbase, ninrow, x_next
        else:
            nrow, npart, base, inrow, x = _row_tile(x_ptr, tile + nprog, offs, M, R, CHUNK, GROUPS, PEEL)


@triton.jit
def _col_tile(x_ptr, tile, lanes, rr, R: tl.constexpr, I: tl.constexpr, BLOCK_R: tl.constexpr,
              BLOCK_I: tl.constexpr, GROUPS: tl.constexpr, TILES: tl.constexpr, PTRS: tl.constexpr):
    cb = tile // GROUPS
    part = tile % GROUPS
    cols = cb * BLOCK_I + lanes
    r = part * BLOCK_R + rr
    mask = (r < R) & (cols < I)
    if PTRS:  # the tile's corner as one scalar offset, then small offsets within the tile
        x = tl.load(x_ptr + (part * BLOCK_R * I + cb * BLOCK_I) + (lanes + rr * I), mask=mask & (tile < TILES))
    else:
        x = tl.load(x_ptr + (cols + r * I), mask=mask & (tile < TILES))
    return cb, part, mask, x


@triton.jit
def coop_cols(x_ptr, y_ptr, work_ptr, count_ptr, R: tl.constexpr, I: tl.constexpr, SCALE: tl.constexpr,
              BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr, GROUPS: tl.constexpr, GROUPS_P2: tl.constexpr,
              PREFETCH: tl.constexpr, EPOCH: tl.constexpr, PHASE: tl.constexpr, PTRS: tl.constexpr):
    # softmax(x * SCALE) over R of x stored [R, I] (x_ptr + r * I + col) into y stored [I, R] (y_ptr + col * R + r)
    CB: tl.constexpr = (I + BLOCK_I - 1) // BLOCK_I
    TILES: tl.constexpr = CB * GROUPS
    lanes = tl.arange(0, BLOCK_I)[None, :]
    rr = tl.arange(0, BLOCK_R)[:, None]
    nprog = tl.num_programs(0)
    cb, part, mask, x = _col_tile(x_ptr, tl.program_id(0), lanes, rr, R, I, BLOCK_R, BLOCK_I, GROUPS, TILES, PTRS)
    for tile in range(tl.program_id(0), TILES, nprog):
        cb = tile // GROUPS
        part = tile % GROUPS
        mul = x.to(tl.float32) * SCALE
        if PHASE != 2:
            pm = tl.reduce(tl.where(mask, mul, float("-inf")), 0, _nan_max, keep_dims=True)
            tl.store(work_ptr + ((cb * GROUPS + part) * 2) * BLOCK_I + lanes, pm)
            ps = tl.sum(tl.where(mask, tl.exp(tl.where(mul == pm, 0.0, mul - pm)), 0.0), axis=0, keep_dims=True)
            tl.store(work_ptr + ((cb * GROUPS + part) * 2 + 1) * BLOCK_I + lanes, ps)
        if PHASE == 0:
            tl.debug_barrier()
            old = tl.atomic_add(count_ptr + cb, 1, sem="acq_rel")
        if PREFETCH:
            ncb, npart, nmask, x_next = _col_tile(x_ptr, tile + nprog, lanes, rr, R, I, BLOCK_R, BLOCK_I, GROUPS,
                                                  TILES, PTRS)
        if PHASE == 0:
            if EPOCH:
                target = (old // GROUPS + 1) * GROUPS
            else:
                target = GROUPS
            seen = old + 1
            while seen < target:
                seen = tl.atomic_add(count_ptr + cb, 0, sem="acquire")
            tl.debug_barrier()
        if PHASE != 1:
            group = tl.arange(0, GROUPS_P2)[:, None]
            pms = tl.load(work_ptr + ((cb * GROUPS + group) * 2) * BLOCK_I + lanes, mask=group < GROUPS,
                          other=float("-inf"), volatile=True)
            red_max = tl.reduce(pms, 0, _nan_max, keep_dims=True)
            pss = tl.load(work_ptr + ((cb * GROUPS + group) * 2 + 1) * BLOCK_I + lanes, mask=group < GROUPS,
                          other=0.0, volatile=True)
            red_sum = tl.sum(pss * tl.exp(tl.where(pms == red_max, 0.0, pms - red_max)), axis=0, keep_dims=True)
            out = (tl.exp(mul - red_max) / red_sum).to(y_ptr.dtype.element_ty)
            if PTRS:
                tl.store(y_ptr + (cb * BLOCK_I * R + part * BLOCK_R) + (lanes * R + rr), out, mask=mask)
            else:
                tl.store(y_ptr + ((cb * BLOCK_I + lanes) * R + part * BLOCK_R + rr), out, mask=mask)
        if PREFETCH:
            mask, x = nmask, x_next
        else:
            ncb, npart, mask, x = _col_tile(x_ptr, tile + nprog, lanes, rr, R, I, BLOCK_R, BLOCK_I, GROUPS, TILES,
                                            PTRS)


@triton.jit
def _bf16(v):
    return v.to(tl.bfloat16).to(tl.float32)


@triton.jit
def entropy_chunked(x_ptr, y_ptr, M: tl.constexpr, C: tl.constexpr, BLOCK_M: tl.constexpr, BC: tl.constexpr):
    # -(softmax * log_softmax).sum(-1) of bf16 rows of C, eager's bf16 roundings; rows in [BLOCK_M, BC] chunks,
    # each pass reading them again (from L1)
    NCH: tl.constexpr = (C + BC - 1) // BC
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    cc = tl.arange(0, BC)[None, :]
    m = tl.full([BLOCK_M, BC], float("-inf"), tl.float32)
    for k in tl.static_range(NCH):
        c = k * BC + cc
        msk = (rows < M) & (c < C)
        m = _nan_max(m, tl.load(x_ptr + rows * C + c, mask=msk, other=float("-inf")).to(tl.float32))
    red_max = tl.reduce(m, 1, _nan_max, keep_dims=True)
    s = tl.zeros([BLOCK_M, BC], tl.float32)
    for k in tl.static_range(NCH):
        c = k * BC + cc
        msk = (rows < M) & (c < C)
        v = tl.load(x_ptr + rows * C + c, mask=msk, other=0.0).to(tl.float32)
        s += tl.where(msk, tl.exp(v - red_max), 0.0)
    red_sum = tl.sum(s, axis=1, keep_dims=True)
    lg = tl.log(red_sum)
    acc = tl.zeros([BLOCK_M, BC], tl.float32)
    for k in tl.static_range(NCH):
        c = k * BC + cc
        msk = (rows < M) & (c < C)
        v = tl.load(x_ptr + rows * C + c, mask=msk, other=0.0).to(tl.float32)
        sub = v - red_max
        prod = _bf16(_bf16(tl.exp(sub) / red_sum) * _bf16(sub - lg))
        acc += tl.where(msk, prod, 0.0)
    ent = _bf16(tl.sum(acc, axis=1, keep_dims=True))
    tl.store(y_ptr + rows, (-ent).to(y_ptr.dtype.element_ty), mask=rows < M)


@triton.jit
def entropy_unrounded(x_ptr, y_ptr, M: tl.constexpr, C: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_C: tl.constexpr):
    # the same entropy as log(s) - sum(e * (x - m)) / s (no per-element division or rounding: NOT eager's numerics)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    c = tl.arange(0, BLOCK_C)[None, :]
    msk = (rows < M) & (c < C)
    x = tl.load(x_ptr + rows * C + c, mask=msk, other=float("-inf")).to(tl.float32)
    red_max = tl.reduce(x, 1, _nan_max, keep_dims=True)
    sub = x - red_max
    e = tl.where(msk, tl.exp(sub), 0.0)
    s = tl.sum(e, axis=1, keep_dims=True)
    t = tl.sum(tl.where(msk, e * sub, 0.0), axis=1, keep_dims=True)
    tl.store(y_ptr + rows, (tl.log(s) - t / s).to(y_ptr.dtype.element_ty), mask=rows < M)


# --- helpers -------------------------------------------------------------------------------------------------------

def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def emitted(problem, sets):
    """The emitted file: the committed full-size one on the GPU, converted at the cpu-shrink sizes under --dry."""
    if sets is None:
        return None
    if not DRY:
        return load_module(os.path.join(HERE, "softmax_emitted", problem + ".py"), "emitted_" + problem)
    binary = os.environ.get("TRITONIZE_BIN", os.path.join(ROOT, "build", "tritonize"))
    if not os.path.exists(binary):
        return None
    out = os.path.join(tempfile.mkdtemp(), problem + ".py")
    cmd = [binary, "convert", os.path.join(ROOT, "tests", "corpus", problem + ".py"), "-o", out]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return load_module(out, "emitted_" + problem)


def timed(fn, nbytes):
    if DRY:
        fn()
        return {"ms": float("nan"), "floor_fraction": float("nan")}
    ms = do_bench(fn, warmup=10, rep=40, return_mode="median")
    return {"ms": ms, "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3)}


def harness_timed(fn, nbytes, trials=30):
    """ModelNew's whole call as python/tritonize/timing.py times it: flush, synchronize, events around one call."""
    if DRY:
        fn()
        return {"ms": float("nan"), "floor_fraction": float("nan")}
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    times = []
    for _ in range(trials):
        flush.zero_()
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    ms = sorted(times)[len(times) // 2]
    return {"ms": ms, "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3)}


def resident(kernel, args, meta, groups, cap):
    """The emitted launcher's _coop_programs: every program resident at once, in whole groups (at most cap / SM)."""
    compiled = kernel.warmup(*args, grid=(1,), **meta)
    compiled._init_handles()
    props = torch.cuda.get_device_properties(0)
    threads = 32 * meta["num_warps"]
    per_sm = min(cap, props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),
                 props.max_threads_per_multi_processor // threads,
                 props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))
    return per_sm * props.multi_processor_count // groups * groups, compiled.n_regs, compiled.n_spills


def record(results, problem, variant, fn, out, ref, nbytes, timer=timed, **extra):
    try:
        fn()
        err = (out.double() - ref.double()).abs().max().item()
        r = {"problem": problem, "variant": variant, "max_err": err, **extra}
        r.update(timer(fn, nbytes))
    except Exception as e:  # noqa: BLE001 (one report line per failing variant, the others go on)
        r = {"problem": problem, "variant": variant, "error": f"{type(e).__name__}: {e}"[:400], **extra}
        print(f"{problem:36s} {variant:52s} FAILED {r['error'][:200]}", flush=True)
        results.append(r)
        return
    results.append(r)
    more = " ".join(f"{k}={v}" for k, v in extra.items())
    print(f"{problem:36s} {variant:52s} {r['ms']:.4f} ms {r['floor_fraction']:.2f}  err {err:.1e}  {more}",
          flush=True)


def baselines(results, problem, model_fn, x, ref, nbytes):
    record(results, problem, "eager", lambda: model_fn(x), model_fn(x), ref, nbytes)
    if not DRY:
        compiled = torch.compile(model_fn)
        record(results, problem, "torch.compile", lambda: compiled(x), compiled(x), ref, nbytes)


# --- rows ----------------------------------------------------------------------------------------------------------

def rows_problem(results, problem, M, R, log, sets, configs):
    torch.manual_seed(0)
    x = torch.randn(M, R, device=DEV)
    fn = (lambda t: torch.log_softmax(t, -1)) if log else (lambda t: torch.softmax(t, -1))
    ref = fn(x.double()) if DRY else fn(x)
    nbytes = 2 * x.numel() * 4
    baselines(results, problem, fn, x, ref, nbytes)
    gen = emitted(problem, sets)
    if gen is not None:
        model = gen.ModelNew()
        record(results, problem, "emitted ModelNew (harness timing)", lambda: model(x), model(x), ref, nbytes,
               timer=harness_timed)
        record(results, problem, "emitted ModelNew (do_bench)", lambda: model(x), model(x), ref, nbytes)
    y = torch.empty_like(x)
    for chunk, warps, cap, peel, prefetch, epoch in configs:
        groups = triton.cdiv(R + (3 if peel else 0), chunk)
        name = (f"coop chunk {chunk} w{warps} cap{cap}" + (" peel" if peel else "") + (" prefetch" if prefetch else "")
                + (" epoch" if epoch else ""))
        work = torch.empty(M * groups * 2, device=DEV)
        count = torch.zeros(M, device=DEV, dtype=torch.int32)
        meta = dict(M=M, R=R, CHUNK=chunk, GROUPS=groups, GROUPS_P2=triton.next_power_of_2(groups), LOG=log,
                    PEEL=peel, PREFETCH=prefetch, EPOCH=epoch, num_warps=warps)
        extra = {}
        if DRY:
            grid = max(1, M * groups // 2)

            def run(grid=grid, meta=meta, work=work, count=count):
                coop_rows[(grid,)](x, y, work, count, PHASE=1, **meta)
                coop_rows[(grid,)](x, y, work, count, PHASE=2, **meta)
        else:
            try:
                programs, regs, spills = resident(coop_rows, (x, y, work, count), dict(meta, PHASE=0), groups, cap)
            except Exception as e:  # noqa: BLE001
                results.append({"problem": problem, "variant": name, "error": f"{type(e).__name__}: {e}"[:400]})
                print(f"{problem:36s} {name:52s} FAILED {e}", flush=True)
                continue
            programs = min(programs, M * groups)
            extra = dict(programs=programs, regs=regs, spills=spills, groups=groups)

            def run(programs=programs, meta=meta, work=work, count=count, epoch=epoch):
                if not epoch:
                    count.zero_()
                coop_rows[(programs,)](x, y, work, count, PHASE=0, **meta)
        record(results, problem, name, run, y, ref, nbytes, **extra)
    del x, y, ref


def rows(results):
    if DRY:
        rows_problem(results, "softmax_long_rows", 3, 20011, 0, ["batch_size=3", "dim=20011"],
                     [(4096, 4, 4, 0, 0, 0), (4096, 4, 4, 0, 1, 1)])
        rows_problem(results, "log_softmax_lastdim", 2, 17389, 1, ["batch_size=2", "vocab_size=17389"],
                     [(4096, 4, 4, 0, 0, 0), (4096, 4, 4, 1, 0, 1), (2048, 4, 4, 1, 1, 1)])
        rows_problem(results, "log_softmax_lastdim (rows of 2 chunks - 2)", 3, 4094, 1, None,
                     [(2048, 4, 4, 1, 0, 1), (2048, 4, 4, 1, 1, 1)])
        return
    # (chunk, warps, most programs per SM, peel, prefetch, epoch); emitted: 8192 w8 cap 4 (long rows),
    # 4096 w4 cap 4 (50257)
    rows_problem(results, "softmax_long_rows", 1024, 262144, 0, [],
                 [(8192, 8, 4, 0, 0, 0), (8192, 8, 4, 0, 0, 1), (8192, 8, 4, 0, 1, 1), (4096, 8, 4, 0, 1, 1),
                  (4096, 8, 8, 0, 1, 1), (4096, 4, 8, 0, 1, 1), (16384, 16, 4, 0, 1, 1)])
    rows_problem(results, "log_softmax_lastdim", 8192, 50257, 1, [],
                 [(4096, 4, 4, 0, 0, 0), (4096, 4, 4, 1, 0, 0), (4096, 4, 4, 1, 0, 1), (4096, 4, 4, 1, 1, 1),
                  (4096, 4, 8, 1, 0, 1), (4096, 8, 4, 1, 1, 1), (8192, 8, 4, 1, 0, 1), (8192, 8, 4, 1, 1, 1),
                  (2048, 4, 8, 1, 1, 1)])


# --- cols ----------------------------------------------------------------------------------------------------------

def cols(results):
    problem = "softmax_transposed_input"
    R, I = (131, 67) if DRY else (2999, 179999)
    torch.manual_seed(0)
    x = torch.randn(R, I, device=DEV).t()  # [I, R], the softmax over R (stride I)
    fn = lambda t: torch.softmax(t * 1.5, dim=1)  # noqa: E731
    ref = fn(x.double()) if DRY else fn(x)
    nbytes = 2 * x.numel() * 4
    baselines(results, problem, fn, x, ref, nbytes)
    gen = emitted(problem, ["dim=131", "batch_size=67"])
    if gen is not None:
        model = gen.ModelNew()
        record(results, problem, "emitted ModelNew (harness timing)", lambda: model(x), model(x), ref, nbytes,
               timer=harness_timed)
        record(results, problem, "emitted ModelNew (do_bench)", lambda: model(x), model(x), ref, nbytes)
    y = torch.empty(I, R, device=DEV)
    xs = x.t()  # the storage, [R, I] contiguous
    configs = [(32, 32, 2, 4, 0, 0, 0)] if DRY else []
    configs += [(64, 32, 2, 4, 1, 1, 1)] if DRY else [
        # (BLOCK_R, BLOCK_I, warps, cap, prefetch, epoch, ptrs); emitted: [256, 32] w8 cap 4
        (256, 32, 8, 4, 0, 0, 0), (256, 32, 8, 4, 0, 1, 1), (256, 32, 8, 4, 1, 1, 1), (256, 32, 8, 4, 1, 1, 0),
        (128, 32, 8, 4, 0, 1, 0), (128, 32, 8, 4, 1, 1, 0), (128, 32, 4, 8, 0, 1, 1), (512, 32, 16, 4, 1, 1, 1),
        (256, 64, 16, 4, 1, 1, 1)]
    for br, bi, warps, cap, prefetch, epoch, ptrs in configs:
        groups = triton.cdiv(R, br)
        cb = triton.cdiv(I, bi)
        name = (f"coop [{br}, {bi}] w{warps} cap{cap}" + (" prefetch" if prefetch else "") + (" epoch" if epoch else "")
                + (" ptrs" if ptrs else ""))
        work = torch.empty(cb * groups * 2 * bi, device=DEV)
        count = torch.zeros(cb, device=DEV, dtype=torch.int32)
        meta = dict(R=R, I=I, SCALE=1.5, BLOCK_R=br, BLOCK_I=bi, GROUPS=groups, GROUPS_P2=triton.next_power_of_2(groups),
                    PREFETCH=prefetch, EPOCH=epoch, PTRS=ptrs, num_warps=warps)
        extra = {}
        if DRY:
            grid = max(1, cb * groups // 2)

            def run(grid=grid, meta=meta, work=work, count=count):
                coop_cols[(grid,)](xs, y, work, count, PHASE=1, **meta)
                coop_cols[(grid,)](xs, y, work, count, PHASE=2, **meta)
        else:
            try:
                programs, regs, spills = resident(coop_cols, (xs, y, work, count), dict(meta, PHASE=0), groups, cap)
            except Exception as e:  # noqa: BLE001
                results.append({"problem": problem, "variant": name, "error": f"{type(e).__name__}: {e}"[:400]})
                print(f"{problem:36s} {name:52s} FAILED {e}", flush=True)
                continue
            programs = min(programs, cb * groups)
            extra = dict(programs=programs, regs=regs, spills=spills, groups=groups)

            def run(programs=programs, meta=meta, work=work, count=count, epoch=epoch):
                if not epoch:
                    count.zero_()
                coop_cols[(programs,)](xs, y, work, count, PHASE=0, **meta)
        record(results, problem, name, run, y, ref, nbytes, **extra)
    del x, y, ref


# --- entropy -------------------------------------------------------------------------------------------------------

def entropy(results):
    problem = "softmax_entropy_channels_last_bf16"
    B, H, W, C = (2, 9, 11, 151) if DRY else (32, 255, 257, 151)
    torch.manual_seed(0)
    x = torch.randn(B, H, W, C, dtype=torch.bfloat16, device=DEV)

    def fn(t):
        t = t.permute(0, 3, 1, 2)
        return -(torch.softmax(t, dim=1) * torch.log_softmax(t, dim=1)).sum(dim=1)
    ref = fn(x.float()).to(torch.bfloat16) if DRY else fn(x)  # (the CPU has no bf16 softmax rounding like CUDA's)
    nbytes = x.numel() * 2 + B * H * W * 2
    baselines(results, problem, fn, x, ref, nbytes)
    M = B * H * W
    gen = emitted(problem, ["batch_size=2", "height=9", "width=11", "classes=151"])
    y = torch.empty(B, H, W, dtype=torch.bfloat16, device=DEV)
    if gen is not None:
        model = gen.ModelNew()
        record(results, problem, "emitted ModelNew (harness timing)", lambda: model(x), model(x), ref, nbytes,
               timer=harness_timed)
        kernel = gen.fused_max_sub_exp_sum_div_kernel
        for bm, warps in ((4, 1), (8, 1), (2, 1), (8, 2), (16, 4), (8, 4)):
            run = lambda bm=bm, warps=warps: kernel[(triton.cdiv(M, bm),)](  # noqa: E731
                x, y, R=C, BLOCK_R=256, M=M, BLOCK_M=bm, num_warps=warps, enable_fp_fusion=False)
            record(results, problem, f"emitted kernel [{bm}, 256] w{warps}" + (" (emitted)" if bm == 4 and warps == 1
                                                                               else ""), run, y, ref, nbytes)
    for bm, bc, warps in ((4, 8, 1), (8, 8, 1), (32, 8, 4), (8, 16, 1), (8, 32, 1), (32, 32, 4)):
        run = lambda bm=bm, bc=bc, warps=warps: entropy_chunked[(triton.cdiv(M, bm),)](  # noqa: E731
            x, y, M=M, C=C, BLOCK_M=bm, BC=bc, num_warps=warps, enable_fp_fusion=False)
        record(results, problem, f"chunked [{bm}, {bc}] w{warps}", run, y, ref, nbytes)
    for bm, warps in ((4, 1), (8, 2), (16, 4)):
        run = lambda bm=bm, warps=warps: entropy_unrounded[(triton.cdiv(M, bm),)](  # noqa: E731
            x, y, M=M, C=C, BLOCK_M=bm, BLOCK_C=256, num_warps=warps)
        record(results, problem, f"unrounded [{bm}, 256] w{warps} (not eager's numerics)", run, y, ref, nbytes)


def main():
    global DRY, DEV
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", default="rows,cols,entropy")
    ap.add_argument("--dry", action="store_true", help="small shapes through the interpreter, untimed")
    args = ap.parse_args()
    DRY = args.dry
    DEV = "cpu" if DRY else "cuda"
    results = []
    for name in args.only.split(","):
        {"rows": rows, "cols": cols, "entropy": entropy}[name](results)
        if not DRY:
            torch.cuda.empty_cache()
        if args.json:
            with open(args.json, "w") as f:
                device = "cpu (interpreter)" if DRY else torch.cuda.get_device_name(0)
                json.dump({"device": device, "results": results}, f, indent=1)
    bad = [r for r in results if "error" in r]
    if DRY:
        print(f"dry run: {len(results)} variants, {len(bad)} failed")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
