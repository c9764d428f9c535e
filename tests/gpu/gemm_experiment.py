"""fp32 GEMM accuracy and speed experiment on the GPU (not a test: a measurement, run through the device tool).

Question 1 (accuracy): for unit-variance inputs with large K, how far is each way of computing an fp32 GEMM from
the exact product (float64), and does it pass KernelBench's check (allclose atol = rtol = 1e-4) against
PyTorch's own fp32 result (cuBLAS)? Ways compared: cuBLAS fp32, the exact product rounded to fp32, and Triton
kernels that accumulate
  chain    - one tf32x3 tl.dot chain into the accumulator (what tritonize emitted until now),
  chunk    - tf32x3 dots summed over CHUNK K-blocks, each chunk added to the accumulator on the CUDA cores,
  ieee     - tl.dot with input_precision="ieee" (fp32 FMA, no tensor cores).
Question 2 (speed): median time of each, and of tile configurations for the batched product of gemm_bmm.

Question 3 (--only largek): the two large-K corpus problems, gemm_large_k ([509, 196613] @ [196613, 383]) and
gemm_large_k_bt (x @ w.t(), M = 512, K = 1000003, N = 640), in the form tritonize emits: padding copies of the
operands (one copy each), a split-K batched product of tf32x3 dots into [S, M, N'] partials, and a kernel that
sums the S partials. Which tile, warps, stages, split count S (1: no split) and GROUP_M are fastest, against
cuBLAS fp32 (allow_tf32 = False)? Phase 1 sweeps tiles and S on the compiler's layout; phase 2 takes the best of
phase 1 and varies the layout (B copied K-major; no copies at all, reading the misaligned originals with
masks; copies that write each operand's TF32 high and low parts, so that the loop issues tf32x3's three dots
without splitting), GROUP_M, stages and the reduction (atomic adds into a zeroed output, no partials buffer). Every
variant's result is checked against the float64 product (max abs error, beside cuBLAS fp32's own) and against
cuBLAS fp32 with KernelBench's allclose (1e-4), so that a fast wrong variant shows. Times are medians of
triton.testing.do_bench (L2 flushed), of the whole forward (copies, product, sum).

    python3 tests/gpu/gemm_experiment.py [--json OUT.json]
    python3 tests/gpu/gemm_experiment.py --only largek [--json OUT.json]  # about 90 s of GPU time
    python3 tests/gpu/gemm_experiment.py --only largek --dry              # list the variants, no GPU
    python3 tests/gpu/gemm_experiment.py --only largek --interpret        # each form on small shapes, CPU
"""
import argparse
import json
import os
import sys

if "--interpret" in sys.argv:  # before triton is imported
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def bmm_kernel(
    a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
    sab: tl.constexpr, sam: tl.constexpr, sak: tl.constexpr,
    sbb: tl.constexpr, sbk: tl.constexpr, sbn: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    MODE: tl.constexpr, CHUNK: tl.constexpr, PRECISION: tl.constexpr,
):
    pid = tl.program_id(0)
    grid_m: tl.constexpr = (M + BLOCK_M - 1) // BLOCK_M
    grid_n: tl.constexpr = (N + BLOCK_N - 1) // BLOCK_N
    in_group = GROUP_M * grid_n
    first_m = pid // in_group * GROUP_M
    group_rows = min(grid_m - first_m, GROUP_M)
    pid_m = first_m + pid % in_group % group_rows
    pid_n = pid % in_group // group_rows
    bidx = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + bidx * sab + (rm % M)[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + bidx * sbb + rk[:, None] * sbk + (rn % N)[None, :] * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    if MODE == 0:
        for k0 in range(0, K, BLOCK_K):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
            a_ptrs += BLOCK_K * sak
            b_ptrs += BLOCK_K * sbk
    else:
        for k0 in range(0, K, BLOCK_K * CHUNK):
            part = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for kc in range(CHUNK):
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                part = tl.dot(a, b, part, input_precision=PRECISION)
                a_ptrs += BLOCK_K * sak
                b_ptrs += BLOCK_K * sbk
            acc += part
    c_ptrs = c_ptr + bidx * M * N + rm[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc, mask=(rm < M)[:, None] & (rn < N)[None, :])


def run_kernel(a, b, cfg):
    batched = a.dim() == 3
    a3 = a if batched else a.unsqueeze(0)
    b3 = b if batched else b.unsqueeze(0)
    B, M, K = a3.shape
    N = b3.shape[2]
    c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
    bm, bn, bk, warps, stages, mode, chunk, prec = cfg
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), B)
    bmm_kernel[grid](
        a3, b3, c, M, N, K, a3.stride(0), a3.stride(1), a3.stride(2), b3.stride(0), b3.stride(1), b3.stride(2),
        BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, MODE=mode, CHUNK=chunk, PRECISION=prec,
        num_warps=warps, num_stages=stages,
    )
    return c if batched else c[0]


def fails(x, ref):
    return int((~torch.isclose(x, ref, atol=1e-4, rtol=1e-4)).sum().item())


def accuracy(name, shape_a, shape_b, results):
    torch.manual_seed(0)
    a = torch.randn(*shape_a, device="cuda")
    b = torch.randn(*shape_b, device="cuda")
    exact = torch.matmul(a.double(), b.double())
    cublas = torch.matmul(a, b)
    ways = {"cublas": cublas, "exact_rounded": exact.float()}
    configs = {
        "chain_tf32x3": (128, 128, 32, 8, 3, 0, 1, "tf32x3"),
        "chunk4_tf32x3": (128, 128, 32, 8, 3, 1, 4, "tf32x3"),
        "chunk1_tf32x3": (128, 128, 32, 8, 3, 1, 1, "tf32x3"),
        "ieee": (64, 64, 32, 4, 3, 0, 1, "ieee"),
    }
    for key, cfg in configs.items():
        ways[key] = run_kernel(a, b, cfg)
    for key, x in ways.items():
        err = (x.double() - exact).abs()
        row = {
            "problem": name, "way": key,
            "max_err_vs_exact": err.max().item(), "mean_err_vs_exact": err.mean().item(),
            "fails_vs_cublas": fails(x, cublas), "fails_vs_exact": fails(x, exact.float()),
        }
        if key in configs:
            row["ms"] = do_bench(lambda: run_kernel(a, b, configs[key]), warmup=25, rep=100)
        elif key == "cublas":
            row["ms"] = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=100)
        results.append(row)
        print(json.dumps(row), flush=True)


def speed(name, shape_a, shape_b, results):
    torch.manual_seed(0)
    a = torch.randn(*shape_a, device="cuda")
    b = torch.randn(*shape_b, device="cuda")
    cublas_ms = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=100)
    results.append({"problem": name, "way": "cublas", "ms": cublas_ms})
    print(json.dumps(results[-1]), flush=True)
    for bm, bn, bk, warps, stages in [
        (128, 128, 32, 8, 3), (128, 128, 32, 4, 3), (128, 128, 32, 8, 4), (128, 256, 32, 8, 3),
        (256, 128, 32, 8, 3), (128, 128, 64, 8, 2), (64, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    ]:
        for mode, chunk in [(0, 1), (1, 4)]:
            cfg = (bm, bn, bk, warps, stages, mode, chunk, "tf32x3")
            try:
                ms = do_bench(lambda: run_kernel(a, b, cfg), warmup=25, rep=100)
            except Exception as e:  # out of shared memory for this tile: record and go on
                ms = None
                print(f"{cfg}: {type(e).__name__}: {str(e)[:120]}", flush=True)
            results.append({"problem": name, "way": "cfg", "cfg": list(cfg), "ms": ms,
                            "vs_cublas": (cublas_ms / ms) if ms else None})
            print(json.dumps(results[-1]), flush=True)


@triton.jit
def pad_copy_kernel(src_ptr, dst_ptr, R, C, RP, CP, s0, s1, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr,
                    SPLIT: tl.constexpr):
    # dst [RP, CP] (row-major) = src [R, C] (strides s0, s1) zero-padded at the end of both dims. (Sizes are run-time
    # arguments, unlike tritonize's, so that each split count does not compile new copies.) SPLIT: dst is
    # [2, RP, CP], x's TF32 high part (as tritonize's _tf32_hi rounds it) then the rest, x - hi (exact).
    rr = (tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R))[:, None]
    cc = (tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C))[None, :]
    x = tl.load(src_ptr + rr * s0 + cc * s1, mask=(rr < R) & (cc < C), other=0.0)
    mask = (rr < RP) & (cc < CP)
    if SPLIT:
        hi = ((x.to(tl.uint32, bitcast=True) + 0x1000) & 0xFFFFE000).to(tl.float32, bitcast=True)
        tl.store(dst_ptr + rr * CP + cc, hi, mask=mask)
        tl.store(dst_ptr + RP * CP + rr * CP + cc, x - hi, mask=mask)
    else:
        tl.store(dst_ptr + rr * CP + cc, x, mask=mask)


@triton.jit
def splitk_kernel(
    a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, NP: tl.constexpr, CHUNK: tl.constexpr,
    KTOT: tl.constexpr, sam: tl.constexpr, sak: tl.constexpr, sbk: tl.constexpr, sbn: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    MASK_K: tl.constexpr, ATOMIC: tl.constexpr, PRECISION: tl.constexpr, A_LO: tl.constexpr = 0,
    B_LO: tl.constexpr = 0,
):
    # tritonize's matmul kernel on the split product: program_id(1) is the split (the batch of the [S, M, K/S] x
    # [S, K/S, N'] views), each program one BLOCK_M x BLOCK_N tile of its partial product over CHUNK of K.
    # MASK_K: 0 none (CHUNK a multiple of BLOCK_K, K padded), 1 tritonize's `rk < CHUNK - k0` (K padded to a
    # multiple of 4 S only), 2 `rk < KTOT - k` (unpadded operands). ATOMIC adds into c [M, N] instead of storing
    # the partial c[split] of [S, M, NP]. A_LO, B_LO (presplit layout): the operands were split by their copies
    # into TF32 high parts and the rest, the low parts A_LO and B_LO elements further on; the three TF32 dots of
    # tf32x3 run on them as tritonize's _dot_tf32x3 does, with no split in the loop.
    pid = tl.program_id(0)
    split = tl.program_id(1)
    grid_m: tl.constexpr = (M + BLOCK_M - 1) // BLOCK_M
    grid_n: tl.constexpr = (NP + BLOCK_N - 1) // BLOCK_N
    in_group = GROUP_M * grid_n
    first_m = pid // in_group * GROUP_M
    group_rows = min(grid_m - first_m, GROUP_M)
    pid_m = first_m + pid % in_group % group_rows
    pid_n = pid % in_group // group_rows
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    k_first = split * CHUNK
    a_ptrs = a_ptr + k_first * sak + (rm % M)[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + k_first * sbk + rk[:, None] * sbk + (rn % NP)[None, :] * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, CHUNK, BLOCK_K):
        if MASK_K == 0:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            if MASK_K == 1:
                k_left = CHUNK - k0
            else:
                k_left = KTOT - k_first - k0
            a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0.0)
            b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0.0)
        if A_LO == 0:
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
        else:
            a_lo = tl.load(a_ptrs + A_LO)
            b_lo = tl.load(b_ptrs + B_LO)
            small = tl.dot(a_lo, b, input_precision="tf32")
            small = tl.dot(a, b_lo, small, input_precision="tf32")
            acc = tl.dot(a, b, acc + tl.where(small == small, small, 0.0), input_precision="tf32")
        a_ptrs += BLOCK_K * sak
        b_ptrs += BLOCK_K * sbk
    if ATOMIC:
        tl.atomic_add(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm < M)[:, None] & (rn < N)[None, :])
    else:
        c_ptrs = c_ptr + split * (M * NP) + rm[:, None] * NP + rn[None, :]
        tl.store(c_ptrs, acc, mask=(rm < M)[:, None] & (rn < NP)[None, :])


@triton.jit
def partial_sum_kernel(p_ptr, out_ptr, S, M, N, NP, S_P2: tl.constexpr, BLOCK: tl.constexpr):
    # out [M, N] = the sum over S of partials [S, M, NP] (fp32), BLOCK outputs a program.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    i = offs // N
    j = offs % N
    s = tl.arange(0, S_P2)[:, None]
    x = tl.load(p_ptr + s * (M * NP) + (i * NP + j)[None, :], mask=(s < S) & (offs < M * N)[None, :], other=0.0)
    tl.store(out_ptr + offs, tl.sum(x, axis=0), mask=offs < M * N)


# The two corpus problems (tests/corpus/gemm_large_k.py, gemm_large_k_bt.py); small: the shrunk shapes that
# --interpret runs. compiler_s: the split count passes/split_k.cpp picks for them.
LARGEK_PROBLEMS = {
    "gemm_large_k": dict(M=509, K=196613, N=383, bt=False, compiler_s=16, small=(17, 4099, 19)),
    "gemm_large_k_bt": dict(M=512, K=1000003, N=640, bt=True, compiler_s=8, small=(21, 4103, 13)),
}
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): the compiler's fp32 tile first, then tiles plausible for
# Hopper's tf32 dots (shared memory per stage (BM + BN) * BK * 4 bytes; at most about 150 KB in all).
LARGEK_TILES = [
    (128, 64, 32, 4, 4), (128, 128, 32, 8, 3), (128, 128, 32, 4, 3), (64, 128, 32, 4, 4), (128, 64, 64, 4, 3),
    (256, 128, 32, 8, 3), (128, 256, 32, 8, 3),
]


def cdiv(a, b):
    return (a + b - 1) // b


def round_up(a, b):
    return cdiv(a, b) * b


def variant(problem, tile, splits, layout="pad", group_m=8, chunk_align="block", reduce="sum", tag=""):
    """A variant of the split-K forward. layout: pad (tritonize's copies: A [M, Kp], B [Kp, Np] row-major),
    kmajor (B copied as [Np, Kp], K contiguous), nopad (no copies; masks on the originals), presplit (as pad, the
    copies writing TF32 high and low parts, the loop three TF32 dots; needs chunk_align block); chunk_align: block
    (each split's chunk a multiple of BLOCK_K, no mask in the K loop) or 4 (tritonize's: K padded to a multiple of
    4 S, a masked K loop)."""
    bm, bn, bk, warps, stages = tile
    return dict(problem=problem, bm=bm, bn=bn, bk=bk, warps=warps, stages=stages, splits=splits, layout=layout,
                group_m=group_m, chunk_align=chunk_align, reduce=reduce, tag=tag)


def largek_phase1(problem, sms):
    """The compiler's form (its tile and S, chunks of 4 S), then each tile with its S for about one and two
    programs per multiprocessor and the compiler's S; and the compiler's tile without a split."""
    p = LARGEK_PROBLEMS[problem]
    out = [variant(problem, LARGEK_TILES[0], p["compiler_s"], chunk_align=4, tag="compiler"),
           variant(problem, LARGEK_TILES[0], 1, tag="nosplit")]
    np_ = round_up(p["N"], 4)
    for tile in LARGEK_TILES:
        tiles = cdiv(p["M"], tile[0]) * cdiv(np_, tile[1])
        for s in sorted({p["compiler_s"], max(2, round(sms / tiles)), max(2, round(2 * sms / tiles))}):
            if p["K"] // s >= 1024:
                out.append(variant(problem, tile, s))
    return out


def largek_phase2(best):
    """Around the best phase-1 variants (best first): the other layouts for the best two; GROUP_M 1, the atomic
    reduction, tritonize's chunk alignment and a stage more (where shared memory allows) for the best."""
    out = []
    for v in best[:2]:
        for layout in ("kmajor", "nopad", "presplit"):
            out.append(dict(v, layout=layout, tag=""))
    v = dict(best[0], tag="")
    out += [dict(v, group_m=1), dict(v, reduce="atomic"), dict(v, chunk_align=4)]
    if (v["bm"] + v["bn"]) * v["bk"] * 4 * (v["stages"] + 1) <= 200 * 1024:
        out.append(dict(v, stages=v["stages"] + 1))
    return out


def describe(v):
    return (f"{v['bm']}x{v['bn']}x{v['bk']} w{v['warps']} s{v['stages']} S={v['splits']} G{v['group_m']} "
            f"{v['layout']} k{v['chunk_align']} {v['reduce']}" + (f" [{v['tag']}]" if v["tag"] else ""))


def pad_copy(src, rows, cols, split=False):
    """src (2-D, any strides) zero-padded to [rows, cols], row-major, by one copy kernel ([2, rows, cols] of TF32
    high and low parts when split)."""
    dst = torch.empty((2, rows, cols) if split else (rows, cols), device=src.device, dtype=src.dtype)
    transposing = src.stride(0) < src.stride(1)
    br, bc, warps = (64, 64, 8) if transposing else (16, 256, 4)
    pad_copy_kernel[(cdiv(rows, br), cdiv(cols, bc))](
        src, dst, src.shape[0], src.shape[1], rows, cols, src.stride(0), src.stride(1),
        BLOCK_R=br, BLOCK_C=bc, SPLIT=split, num_warps=warps)
    return dst


def splitk_launch(v, M, K, N, b_strides, precision="tf32x3"):
    """The split-K product's launch for variant v on [M, K] x [K, N] (B's strides as given when not copied):
    its grid, its arguments after the three pointers, and what the copies must produce (kp, np_)."""
    s, bk = v["splits"], v["bk"]
    if v["layout"] == "nopad":
        chunk = round_up(cdiv(K, s), bk)
        kp, np_, mask_k = K, N, 2
        sam, sak = K, 1
        sbk, sbn = b_strides
    else:
        chunk = round_up(cdiv(K, s), bk if v["chunk_align"] == "block" else 4)
        kp, np_ = chunk * s, round_up(N, 4)
        mask_k = 0 if chunk % bk == 0 else 1
        sam, sak = kp, 1
        sbk, sbn = (1, kp) if v["layout"] == "kmajor" else (np_, 1)  # kmajor: B^T [Np, Kp] row-major
    atomic = v["reduce"] == "atomic" or s == 1
    grid = (cdiv(M, v["bm"]) * cdiv(np_, v["bn"]), s)
    args = (M, N, np_, chunk, kp, sam, sak, sbk, sbn)
    kwargs = dict(BLOCK_M=v["bm"], BLOCK_N=v["bn"], BLOCK_K=bk, GROUP_M=v["group_m"], MASK_K=mask_k, ATOMIC=atomic,
                  PRECISION=precision, num_warps=v["warps"], num_stages=v["stages"])
    if v["layout"] == "presplit":
        assert mask_k == 0, "presplit loads its low parts unmasked"
        kwargs.update(A_LO=M * kp, B_LO=kp * np_)
    return dict(grid=grid, args=args, kwargs=kwargs, kp=kp, np_=np_, atomic=atomic)


def largek_forward(v, a, b, precision="tf32x3"):
    """The forward of variant v on a [M, K] and b [K, N] (a view: w.t() for the bt problem): copies, split-K
    product, sum of the partials. Returns [M, N] fp32."""
    M, K = a.shape
    N = b.shape[1]
    s = v["splits"]
    launch = splitk_launch(v, M, K, N, (b.stride(0), b.stride(1)), precision)
    kp, np_ = launch["kp"], launch["np_"]
    if v["layout"] == "nopad":
        ka, kb = a, b
    else:
        split = v["layout"] == "presplit"
        ka = pad_copy(a, M, kp, split)
        kb = pad_copy(b.t(), np_, kp) if v["layout"] == "kmajor" else pad_copy(b, kp, np_, split)
    atomic = launch["atomic"]
    c = torch.zeros((M, N), device=a.device) if atomic else torch.empty((s, M, np_), device=a.device)
    splitk_kernel[launch["grid"]](ka, kb, c, *launch["args"], **launch["kwargs"])
    if atomic:  # (S = 1: one "atomic" add per element into zeros, i.e. a store)
        return c
    out = torch.empty((M, N), device=a.device)
    block = 128
    partial_sum_kernel[(cdiv(M * N, block),)](c, out, s, M, N, np_, S_P2=triton.next_power_of_2(s), BLOCK=block,
                                              num_warps=4)
    return out


def _warm_splitk(launches):
    # (a worker process) compiles split-K kernels into Triton's on-disk cache, where the timing process finds them.
    dummy = torch.empty(64, device="cuda")
    for launch in launches:
        try:
            splitk_kernel.warmup(dummy, dummy, dummy, *launch["args"], grid=launch["grid"], **launch["kwargs"])
        except Exception:  # (the timing process reports it)
            pass


def largek_precompile(variants, shape, b_strides):
    """Compiles the variants' split-K kernels in parallel processes (Triton compiles one kernel in about a second,
    and a sweep has dozens); the timing process then loads them from Triton's cache. Best effort: on any failure
    the timing process compiles them itself."""
    import concurrent.futures
    import multiprocessing
    launches = [splitk_launch(v, *shape, b_strides) for v in variants]
    workers = max(1, min(12, (os.cpu_count() or 2) - 2))
    try:
        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx) as pool:
            list(pool.map(_warm_splitk, [launches[i::workers] for i in range(workers)]))
    except Exception as e:
        print(f"precompile failed ({type(e).__name__}: {str(e)[:120]}); compiling while timing", flush=True)


def largek_inputs(p, device, small=False):
    M, K, N = p["small"] if small else (p["M"], p["K"], p["N"])
    a = torch.randn(M, K, device=device)
    if p["bt"]:
        w = torch.randn(N, K, device=device) / K**0.5
        return a, w.t()
    return a, torch.randn(K, N, device=device) / K**0.5


def largek_interpret():
    """Every form of largek_forward (layouts, chunk alignments, reductions, S = 1) on the problems' small shapes
    under Triton's interpreter, against float64: catches errors in the kernels and their arguments on the CPU."""
    failures = 0
    for name, p in LARGEK_PROBLEMS.items():
        torch.manual_seed(0)
        a, b = largek_inputs(p, "cpu", small=True)
        exact = a.double() @ b.double()
        forms = [variant(name, (16, 16, 16, 1, 1), 3, layout=layout, chunk_align=align, reduce=red)
                 for layout in ("pad", "kmajor", "nopad") for align in ("block", 4) for red in ("sum", "atomic")]
        forms += [variant(name, (16, 16, 16, 1, 1), 3, layout="presplit", reduce=red) for red in ("sum", "atomic")]
        forms.append(variant(name, (16, 16, 16, 1, 1), 1))
        for v in forms:
            got = largek_forward(v, a, b, precision="ieee")
            err = (got.double() - exact).abs().max().item()
            ok = got.shape == exact.shape and err < 1e-4
            failures += not ok
            print(f"{name:16} {describe(v):58} max err {err:.2e} {'ok' if ok else 'FAIL'}", flush=True)
    print(f"FAILURES {failures}")
    return failures


def largek_bench(fn, est_ms):
    # Enough repetitions for a median whatever the time: about 40 runs of a 2 ms forward, 10 of a 20 ms one.
    return do_bench(fn, warmup=max(25, 2 * est_ms), rep=max(100, 10 * est_ms), return_mode="median")


def largek_run(name, variants, a, b, exact, cublas, cublas_ms, results):
    rows = []
    for v in variants:
        row = dict(v, cfg=describe(v), programs=cdiv(a.shape[0], v["bm"]) * cdiv(round_up(b.shape[1], 4), v["bn"])
                   * v["splits"])
        try:
            got = largek_forward(v, a, b)
            torch.cuda.synchronize()
            row["max_err"] = (got.double() - exact).abs().max().item()
            row["fails_vs_cublas"] = fails(got, cublas)
            del got
            row["ms"] = largek_bench(lambda: largek_forward(v, a, b), cublas_ms)
            row["vs_cublas"] = cublas_ms / row["ms"]
        except Exception as e:  # out of shared memory or registers for this tile: record and go on
            row["error"] = f"{type(e).__name__}: {str(e)[:160]}"
        rows.append(row)
        results.append(row)
        print(json.dumps(row), flush=True)
    return rows


def largek(results, sms):
    torch.backends.cuda.matmul.allow_tf32 = False  # cuBLAS in full fp32, as eager runs the corpus problems
    for name, p in LARGEK_PROBLEMS.items():
        torch.manual_seed(0)
        a, b = largek_inputs(p, "cuda")
        exact = torch.matmul(a.double(), b.double())
        cublas = torch.matmul(a, b)
        cublas_ms = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=200, return_mode="median")
        row = {"problem": name, "cfg": "cublas fp32", "ms": cublas_ms, "vs_cublas": 1.0,
               "max_err": (cublas.double() - exact).abs().max().item(), "fails_vs_cublas": 0}
        results.append(row)
        print(json.dumps(row), flush=True)
        shape, b_strides = (p["M"], p["K"], p["N"]), (b.stride(0), b.stride(1))
        largek_precompile(largek_phase1(name, sms), shape, b_strides)
        phase1 = largek_run(name, largek_phase1(name, sms), a, b, exact, cublas, cublas_ms, results)
        ranked = sorted((r for r in phase1 if r.get("ms") and r["fails_vs_cublas"] == 0 and r["tag"] != "compiler"),
                        key=lambda r: r["ms"])
        keys = ("problem", "bm", "bn", "bk", "warps", "stages", "splits", "layout", "group_m", "chunk_align",
                "reduce", "tag")
        best = [{k: r[k] for k in keys} for r in ranked[:2]]
        if best:
            largek_precompile(largek_phase2(best), shape, b_strides)
            largek_run(name, largek_phase2(best), a, b, exact, cublas, cublas_ms, results)
        del a, b, exact, cublas
        torch.cuda.empty_cache()


def largek_table(results):
    print(f"\n{'problem':16} {'variant':64} {'progs':>5} {'ms':>8} {'x cuBLAS':>8} {'max err':>9} {'fails':>6}")
    for r in results:
        if "problem" not in r or "cfg" not in r:
            continue
        ms = f"{r['ms']:8.3f}" if r.get("ms") else "   error"
        vs = f"{r['vs_cublas']:8.2f}" if r.get("vs_cublas") else ""
        err = f"{r['max_err']:9.2e}" if r.get("max_err") is not None else ""
        print(f"{r['problem']:16} {r['cfg']:64} {r.get('programs', ''):>5} {ms} {vs:>8} {err:>9} "
              f"{r.get('fails_vs_cublas', ''):>6}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", choices=["all", "largek"], default="all")
    ap.add_argument("--dry", action="store_true", help="list the variants (--only largek) and exit; no GPU")
    ap.add_argument("--interpret", action="store_true",
                    help="run each form of --only largek on small shapes under Triton's interpreter (CPU)")
    args = ap.parse_args()
    results = []
    if args.only == "largek":
        if args.interpret:
            sys.exit(1 if largek_interpret() else 0)
        sms = torch.cuda.get_device_properties(0).multi_processor_count if torch.cuda.is_available() else 132
        if args.dry:
            for name in LARGEK_PROBLEMS:
                phase1 = largek_phase1(name, sms)
                for v in phase1:
                    print(name, describe(v))
                phase2 = largek_phase2([phase1[2], phase1[3]])
                print(f"{name}: {len(phase1)} phase-1 variants, then {len(phase2)} in phase 2, e.g.:")
                for v in phase2:
                    print("   ", describe(v))
            return
        largek(results, sms)
        largek_table(results)
    else:
        accuracy("matmul_4096", (4096, 4096), (4096, 4096), results)
        accuracy("matmul_k16384", (1024, 16384), (16384, 1024), results)
        speed("bmm_64x1024x768x1024", (64, 1024, 768), (64, 768, 1024), results)
        speed("matmul_4096", (4096, 4096), (4096, 4096), results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
