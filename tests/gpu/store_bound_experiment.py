"""Three open questions of session 6, measured on the GPU (a measurement for the device tool, not a test).

Timed as the harness times one call (pointwise_experiment.bench: flush the L2, synchronize, start event, call,
end event, synchronize; median of 50), so a launch's CPU time counts where the GPU has nothing in flight.

  outer  - a GEMM whose K fits one block, so the output store is the work: fp16 [32768, 64] @ [64, 32768]
           (gemm_v_tall_skinny_outer_fp16: 0.69x eager, 47% of the floor) and bf16 [128, 4096, 24] @ [128, 24,
           2048] (gemm_v_small_k_odd_bf16: 0.85x). Tile shapes, warps and stages of the kernel tritonize emits
           (one program per output tile, pointer store), against a store through a tensor descriptor (TMA) and a
           persistent grid walking the tiles.
  rows   - a row held whole in registers, bf16 [2048, 8192] RMS norm (norm_rms_norm_functional_bf16: 0.72x eager,
           17% of the floor): rows per program and warps (tritonize emits 1 row on 16 warps).
  coop   - softmax over [1024, 262144] fp32 rows split over programs that exchange partials
           (softmax_long_rows: 62% of the floor in the suite, 81% kernel-alone in session 3's rows_experiment):
           the kernel as emitted (barriers around the exchange, exp twice per element) against one exp per
           element (the chunk's exp(x - m) rescaled by exp(m - M)), and the emitted launcher's whole call
           (buffers, the counter-zeroing launch, grid sizing) against the kernel alone.

    python3 tests/gpu/store_bound_experiment.py [--only outer|rows|coop] [--json OUT.jsonl]
"""
import argparse
import json

import torch
import triton
import triton.language as tl

import pointwise_experiment
from pointwise_experiment import bench, record

BANDWIDTH = 4.25e12


@triton.jit
def outer_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                 sab: tl.constexpr, sbb: tl.constexpr, scb: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # what tritonize emits for a product whose K fits one block: one program per output tile, a pointer store
    pid = tl.program_id(0)
    batch = tl.program_id(1)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = pid // in_group * GROUP_M
    group_rows = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + pid % in_group % group_rows
    pid_n = pid % in_group // group_rows
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + batch * sab + (rm % M)[:, None] * K + rk[None, :], mask=rk[None, :] < K, other=0.0)
    b = tl.load(b_ptr + batch * sbb + rk[:, None] * N + (rn % N)[None, :], mask=rk[:, None] < K, other=0.0)
    acc = tl.dot(a, b)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + batch * scb + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def outer_tma_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                     BATCH: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     PROGRAMS: tl.constexpr):
    # a persistent grid (PROGRAMS programs walking the tiles, N fastest) storing through a tensor descriptor
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[BATCH * M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[BATCH * K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[BATCH * M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    for tile in range(tl.program_id(0), BATCH * tiles_m * tiles_n, PROGRAMS):
        batch = tile // (tiles_m * tiles_n)
        pid_m = tile % (tiles_m * tiles_n) // tiles_n
        pid_n = tile % tiles_n
        a = a_desc.load([batch * M + pid_m * BLOCK_M, 0])
        b = b_desc.load([batch * K, pid_n * BLOCK_N])
        acc = tl.dot(a, b)
        c_desc.store([batch * M + pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_ptr.dtype.element_ty))


def outer(results):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    triton.set_allocator(lambda size, align, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    for name, batch, M, K, N, dtype in [("tall_skinny_fp16", 1, 32768, 64, 32768, torch.float16),
                                        ("small_k_bf16", 128, 4096, 24, 2048, torch.bfloat16)]:
        a = torch.randn(batch, M, K, device="cuda", dtype=dtype)
        b = torch.randn(batch, K, N, device="cuda", dtype=dtype)
        c = torch.empty(batch, M, N, device="cuda", dtype=dtype)
        ref = torch.bmm(a, b)
        floor = (a.numel() + b.numel() + c.numel()) * a.element_size() / BANDWIDTH * 1e3
        ms, _ = bench(lambda: torch.bmm(a, b, out=c), n=30)
        record(results, form="outer_eager", shape=name, ms=ms, floor=floor / ms)
        block_k = max(16, triton.next_power_of_2(K))
        for bm, bn, warps, stages in [(128, 128, 8, 3), (128, 128, 4, 1), (128, 128, 8, 1), (128, 256, 8, 1),
                                      (256, 128, 8, 1), (64, 256, 4, 1), (128, 64, 4, 1), (64, 128, 4, 1)]:
            grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), batch)
            run = lambda: outer_kernel[grid](a, b, c, M, N, K, M * K, K * N, M * N, BLOCK_M=bm, BLOCK_N=bn,
                                             BLOCK_K=block_k, GROUP_M=8, num_warps=warps, num_stages=stages)
            try:
                run()
                ok = torch.allclose(c.float(), ref.float(), atol=1e-2, rtol=1e-2)
                ms, _ = bench(run, n=30)
            except Exception as e:  # (an out-of-resources config)
                record(results, form="outer", shape=name, tile=[bm, bn], warps=warps, stages=stages, error=str(e)[:200])
                continue
            record(results, form="outer", shape=name, tile=[bm, bn], warps=warps, stages=stages, ms=ms,
                   floor=floor / ms, correct=ok)
        if K % 16 != 0:
            continue  # (a descriptor's block must tile K here)
        for bm, bn, warps, per_sm in [(128, 128, 8, 1), (128, 128, 4, 2), (128, 256, 8, 1), (64, 256, 4, 2),
                                      (128, 64, 4, 2), (128, 128, 4, 1)]:
            programs = sms * per_sm
            run = lambda: outer_tma_kernel[(programs,)](a, b, c, M, N, K, batch, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=K,
                                                        PROGRAMS=programs, num_warps=warps, num_stages=2)
            try:
                run()
                ok = torch.allclose(c.float(), ref.float(), atol=1e-2, rtol=1e-2)
                ms, _ = bench(run, n=30)
            except Exception as e:
                record(results, form="outer_tma", shape=name, tile=[bm, bn], warps=warps, per_sm=per_sm,
                       error=str(e)[:200])
                continue
            record(results, form="outer_tma", shape=name, tile=[bm, bn], warps=warps, per_sm=per_sm, ms=ms,
                   floor=floor / ms, correct=ok)
        del a, b, c, ref


@triton.jit
def rms_rows_kernel(x_ptr, y_ptr, R: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    r = tl.arange(0, R)[None, :]
    x = tl.load(x_ptr + rows * R + r).to(tl.float32)
    s = tl.sum(x * x, axis=1, keep_dims=True)
    y = x * tl.rsqrt(s * (1.0 / R) + 1e-5)
    tl.store(y_ptr + rows * R + r, y.to(y_ptr.dtype.element_ty))


def rows(results):
    for M, R, dtype in [(2048, 8192, torch.bfloat16), (16384, 8192, torch.bfloat16), (4096, 4096, torch.float32)]:
        x = torch.randn(M, R, device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        ref = torch.nn.functional.rms_norm(x, (R,), eps=1e-5)
        floor = 2 * x.numel() * x.element_size() / BANDWIDTH * 1e3
        ms, _ = bench(lambda: torch.nn.functional.rms_norm(x, (R,), eps=1e-5))
        record(results, form="rows_eager", shape=[M, R, str(dtype)], ms=ms, floor=floor / ms)
        for block_m, warps in [(1, 16), (1, 8), (1, 4), (2, 8), (2, 16), (4, 16), (1, 32)]:
            run = lambda: rms_rows_kernel[(M // block_m,)](x, y, R, BLOCK_M=block_m, num_warps=warps)
            run()
            ok = torch.allclose(y.float(), ref.float(), atol=1e-2, rtol=1e-2)
            ms, wall = bench(run)
            record(results, form="rows", shape=[M, R, str(dtype)], block_m=block_m, warps=warps, ms=ms,
                   wall_ms=wall, floor=floor / ms, correct=ok)
        del x, y, ref


@triton.jit
def coop_softmax_kernel(x_ptr, y_ptr, work_ptr, count_ptr, M: tl.constexpr, R: tl.constexpr, GROUPS: tl.constexpr,
                        GROUPS_P2: tl.constexpr, BLOCK_R: tl.constexpr, BARRIERS: tl.constexpr, ONE_EXP: tl.constexpr):
    # the emitted cooperative row (kernel/lower_reduction.cpp) over [M, R] fp32, one exchange of (max, sum of exp)
    for tile in range(tl.program_id(0), M * GROUPS, tl.num_programs(0)):
        row = tile // GROUPS
        part = tile % GROUPS
        rows = row + tl.arange(0, 1)[:, None]
        r = part * BLOCK_R + tl.arange(0, BLOCK_R)[None, :]
        r_mask = r < R
        x = tl.load(x_ptr + (rows * R + r), mask=r_mask).to(tl.float32)
        m = tl.max(tl.where(r_mask, x, float("-inf")), axis=1, keep_dims=True)
        e = tl.exp(tl.where(x == m, 0.0, x - m))
        tl.store(work_ptr + ((rows * GROUPS + part) * 2 + 0), m)
        tl.store(work_ptr + ((rows * GROUPS + part) * 2 + 1), tl.sum(tl.where(r_mask, e, 0.0), axis=1, keep_dims=True))
        if BARRIERS:
            tl.debug_barrier()
        seen = tl.atomic_add(count_ptr + row, 1, sem="acq_rel") + 1
        while seen < GROUPS:
            seen = tl.atomic_add(count_ptr + row, 0, sem="acquire")
        if BARRIERS:
            tl.debug_barrier()
        group = tl.arange(0, GROUPS_P2)
        ms = tl.load(work_ptr + ((row * GROUPS + group) * 2 + 0), mask=group < GROUPS, other=float("-inf"),
                     volatile=True)
        mx = tl.max(ms, axis=0, keep_dims=True)
        ss = tl.load(work_ptr + ((row * GROUPS + group) * 2 + 1), mask=group < GROUPS, other=0.0, volatile=True)
        total = tl.sum(ss * tl.exp(tl.where(ms == mx, 0.0, ms - mx)), axis=0, keep_dims=True)
        if ONE_EXP:
            out = e * (tl.exp(tl.where(m == mx, 0.0, m - mx)) / total)
        else:
            out = tl.exp(x - mx) / total
        tl.store(y_ptr + (rows * R + r), out.to(y_ptr.dtype.element_ty), mask=r_mask)


@triton.jit
def zero_kernel(count_ptr, N, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(count_ptr + i, 0, mask=i < N)


def coop_programs(kernel, args, groups, meta):
    compiled = kernel.warmup(*args, grid=(1,), **meta)
    compiled._init_handles()
    props = torch.cuda.get_device_properties(0)
    threads = 32 * meta["num_warps"]
    per_sm = min(4, props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),
                 props.max_threads_per_multi_processor // threads,
                 props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))
    return per_sm * props.multi_processor_count // groups * groups, compiled.n_regs


def coop(results):
    M, R = 1024, 262144
    x = torch.randn(M, R, device="cuda")
    y = torch.empty_like(x)
    ref = torch.softmax(x, dim=-1)
    floor = 2 * x.numel() * 4 / BANDWIDTH * 1e3
    ms, _ = bench(lambda: torch.softmax(x, dim=-1))
    record(results, form="coop_eager", ms=ms, floor=floor / ms)
    for chunk, warps in [(8192, 8), (8192, 16), (4096, 4), (16384, 16)]:
        for barriers, one_exp in [(1, 0), (0, 0), (1, 1)]:
            groups = triton.cdiv(R, chunk)
            work = torch.empty(M * groups * 2, device="cuda")
            count = torch.zeros(M, device="cuda", dtype=torch.int32)
            meta = dict(M=M, R=R, GROUPS=groups, GROUPS_P2=triton.next_power_of_2(groups), BLOCK_R=chunk,
                        BARRIERS=barriers, ONE_EXP=one_exp, num_warps=warps)
            programs, regs = coop_programs(coop_softmax_kernel, (x, y, work, count), groups, meta)

            def kernel_alone():
                coop_softmax_kernel[(programs,)](x, y, work, count, **meta)

            def whole_call():  # what the emitted launcher does around the kernel
                buf = torch.empty((M, R), device="cuda")
                w = torch.empty((M * groups * 2,), device="cuda")
                c = torch.empty((M,), device="cuda", dtype=torch.int32)
                zero_kernel[(1,)](c, M, BLOCK=1024)
                coop_softmax_kernel[(programs,)](x, buf, w, c, **meta)
                return buf

            ok = torch.allclose(whole_call(), ref, atol=1e-4, rtol=1e-4)
            count.zero_()
            ms_whole, wall_whole = bench(whole_call)
            # (the kernel alone still needs its counters zeroed before each call: one memset launch)
            ms_kernel, _ = bench(lambda: (count.zero_(), kernel_alone()))
            record(results, form="coop", chunk=chunk, warps=warps, barriers=barriers, one_exp=one_exp,
                   programs=programs, regs=regs, ms_whole=ms_whole, wall_whole=wall_whole, ms_kernel=ms_kernel,
                   floor_whole=floor / ms_whole, floor_kernel=floor / ms_kernel, correct=ok)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", choices=["outer", "rows", "coop"])
    ap.add_argument("--json")
    args = ap.parse_args()
    pointwise_experiment.FLUSH = torch.empty(64 << 20, device="cuda", dtype=torch.int32)
    results = []
    for name, fn in [("outer", outer), ("rows", rows), ("coop", coop)]:
        if args.only in (None, name):
            fn(results)
    if args.json:
        with open(args.json, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
