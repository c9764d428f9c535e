"""Long rows on the GPU (a measurement for the device tool): which forms reach the bandwidth floor.

Softmax / log_softmax over rows longer than one register tile:
  three   - three passes per row (max, sum of exp, write) on a persistent grid (what tritonize emits now);
  online  - max and sum in one pass (running max, rescaled sum), then the write pass: 2 reads + 1 write;
  coop    - each row split over G programs that run at the same time, each holding its chunk in registers:
            chunk max and sum -> stats in memory, an arrival counter per row (atomics), a wait for the row's G
            programs, combine, write from registers: 1 read + 1 write;
  coop_l2 - coop, but the chunk is read again (from L2) after the wait instead of being held.
Matrix-vector products (fp32, memory-bound): tile shapes, grids and the compensated (Neumaier) sum.

    python3 tests/gpu/rows_experiment.py [--json OUT.json]
"""
import argparse
import json

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def three_pass(x_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, PROGRAMS: tl.constexpr):
    for row in range(tl.program_id(0), M, PROGRAMS):
        base = row * R
        acc = tl.full([BLOCK_R], float("-inf"), dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            acc = tl.maximum(acc, x)
        mx = tl.max(acc, axis=0)
        acc1 = tl.zeros([BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            acc1 += tl.exp(x - mx)
        lse = tl.log(tl.sum(acc1, axis=0))
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R).to(tl.float32)
            tl.store(y_ptr + base + r, (x - mx - lse).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def online(x_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, PROGRAMS: tl.constexpr):
    for row in range(tl.program_id(0), M, PROGRAMS):
        base = row * R
        m = tl.full([BLOCK_R], float("-inf"), dtype=tl.float32)
        s = tl.zeros([BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            m_new = tl.maximum(m, x)
            s = s * tl.exp(tl.where(m_new == float("-inf"), 0.0, m - m_new)) + tl.where(
                m_new == float("-inf"), 0.0, tl.exp(x - m_new))
            m = m_new
        mx = tl.max(m, axis=0)
        total = tl.sum(s * tl.exp(tl.where(m == float("-inf"), float("-inf"), m - mx)), axis=0)
        lse = tl.log(total)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R).to(tl.float32)
            tl.store(y_ptr + base + r, (x - mx - lse).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def coop(x_ptr, y_ptr, stats_ptr, count_ptr, M: tl.constexpr, R: tl.constexpr, CHUNK: tl.constexpr,
         G: tl.constexpr, GP: tl.constexpr, PROGRAMS: tl.constexpr, HOLD: tl.constexpr):
    for t in range(tl.program_id(0), M * G, PROGRAMS):
        row = t // G
        part = t % G
        r = part * CHUNK + tl.arange(0, CHUNK)
        mask = r < R
        x = tl.load(x_ptr + row * R + r, mask=mask, other=float("-inf")).to(tl.float32)
        m = tl.max(x, axis=0)
        s = tl.sum(tl.exp(x - m), axis=0)
        tl.store(stats_ptr + (row * G + part) * 2, m)
        tl.store(stats_ptr + (row * G + part) * 2 + 1, s)
        seen = tl.atomic_add(count_ptr + row, 1, sem="acq_rel") + 1
        while seen < G:
            seen = tl.atomic_add(count_ptr + row, 0, sem="acquire")
        g = tl.arange(0, GP)
        ms = tl.load(stats_ptr + (row * G + g) * 2, mask=g < G, other=float("-inf"), volatile=True)
        ss = tl.load(stats_ptr + (row * G + g) * 2 + 1, mask=g < G, other=0.0, volatile=True)
        mx = tl.max(ms, axis=0)
        lse = tl.log(tl.sum(ss * tl.exp(ms - mx), axis=0))
        if not HOLD:
            x = tl.load(x_ptr + row * R + r, mask=mask).to(tl.float32)
        tl.store(y_ptr + row * R + r, (x - mx - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def matvec(A_ptr, x_ptr, y_ptr, M: tl.constexpr, K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
           PROGRAMS: tl.constexpr, COMP: tl.constexpr):
    for tile in range(tl.program_id(0), tl.cdiv(M, BLOCK_M), PROGRAMS):
        rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
        acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
        comp = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)[None, :]
            v = tl.load(A_ptr + rows * K + k) * tl.load(x_ptr + k)
            if COMP:
                t = acc + v
                comp += tl.where(tl.abs(acc) >= tl.abs(v), acc - t + v, v - t + acc)
                acc = t
            else:
                acc += v
        if COMP:
            tot = tl.sum(acc.to(tl.float64) + comp.to(tl.float64), axis=1, keep_dims=True).to(tl.float32)
        else:
            tot = tl.sum(acc, axis=1, keep_dims=True)
        tl.store(y_ptr + rows, tot)


@triton.jit
def vecmat(v_ptr, W_ptr, y_ptr, K: tl.constexpr, N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr,
           COMP: tl.constexpr, EVERY: tl.constexpr = 1):
    # COMP: compensated (Neumaier) lane sums; EVERY > 1: plain partial sums of EVERY chunks, each added with
    # compensation (what tritonize emits for sums over more than 16 chunks, with EVERY = 8)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    acc = tl.zeros([BLOCK_K, BLOCK_N], dtype=tl.float32)
    comp = tl.zeros([BLOCK_K, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K * EVERY):
        part = tl.zeros([BLOCK_K, BLOCK_N], dtype=tl.float32)
        for k1 in range(k0, k0 + BLOCK_K * EVERY, BLOCK_K):
            k = k1 + tl.arange(0, BLOCK_K)[:, None]
            part += tl.load(W_ptr + k * N + cols) * tl.load(v_ptr + k)
        v = part
        if COMP:
            t = acc + v
            comp += tl.where(tl.abs(acc) >= tl.abs(v), acc - t + v, v - t + acc)
            acc = t
        else:
            acc += v
    if COMP:
        tot = tl.sum(acc.to(tl.float64) + comp.to(tl.float64), axis=0, keep_dims=True).to(tl.float32)
    else:
        tot = tl.sum(acc, axis=0, keep_dims=True)
    tl.store(y_ptr + cols, tot)


def record(results, **kw):
    results.append(kw)
    print(json.dumps(kw), flush=True)


def bench(fn):
    return do_bench(fn, warmup=25, rep=300)


def softmax_forms(results, sms):
    for M, R in [(8192, 50257), (1024, 262144)]:
        torch.manual_seed(0)
        x = torch.randn(M, R, device="cuda")
        ref = torch.log_softmax(x, dim=-1)
        floor_ms = 2 * x.numel() * 4 / 4.25e12 * 1e3
        ms = bench(lambda: torch.log_softmax(x, dim=-1))
        record(results, shape=[M, R], form="eager", ms=ms, floor=floor_ms / ms)
        y = torch.empty_like(x)
        forms = []
        for block, warps in [(4096, 8), (8192, 16)]:
            for per_sm in (1, 2):
                forms.append(("three", per_sm, block, warps))
                forms.append(("online", per_sm, block, warps))
        for name, per_sm, block, warps in forms:
            programs = min(sms * per_sm, M)
            kernel = three_pass if name == "three" else online
            run = lambda: kernel[(programs,)](x, y, M, R, BLOCK_R=block, PROGRAMS=programs, num_warps=warps)
            run()
            ok = torch.allclose(y, ref, atol=1e-4, rtol=1e-4)
            ms = bench(run)
            record(results, shape=[M, R], form=name, programs=programs, block=block, warps=warps, ms=ms,
                   floor=floor_ms / ms, correct=ok)
        for chunk, warps in [(8192, 8), (8192, 16), (16384, 16), (4096, 4), (4096, 8)]:
            G = triton.cdiv(R, chunk)
            for hold in (True, False):
                stats = torch.empty(M * G * 2, device="cuda", dtype=torch.float32)
                # co-residency: one program per SM always fits; more only when registers allow
                for per_sm in (1, 2, 4):
                    programs = (sms * per_sm // G) * G
                    if programs == 0:
                        continue
                    if per_sm > 1:
                        probe = coop[(G,)](x, y, stats, torch.zeros(M, device="cuda", dtype=torch.int32), M, R,
                                           CHUNK=chunk, G=G, GP=triton.next_power_of_2(G), PROGRAMS=G, HOLD=hold,
                                           num_warps=warps)
                        regs = probe.n_regs
                        if regs * 32 * warps * per_sm > 65536 or warps * per_sm > 64:
                            record(results, shape=[M, R], form="coop", chunk=chunk, warps=warps, per_sm=per_sm,
                                   skipped=f"{regs} registers")
                            continue

                    def run():
                        count = torch.zeros(M, device="cuda", dtype=torch.int32)
                        return coop[(programs,)](x, y, stats, count, M, R, CHUNK=chunk, G=G,
                                                 GP=triton.next_power_of_2(G), PROGRAMS=programs, HOLD=hold,
                                                 num_warps=warps)
                    k = run()
                    torch.cuda.synchronize()
                    ok = torch.allclose(y, ref, atol=1e-4, rtol=1e-4)
                    ms = bench(run)
                    record(results, shape=[M, R], form="coop" if hold else "coop_l2", chunk=chunk, G=G,
                           warps=warps, per_sm=per_sm, programs=programs, regs=k.n_regs, spills=k.n_spills, ms=ms,
                           floor=floor_ms / ms, correct=ok)
        del x, y, ref


def matvec_forms(results, sms):
    M = K = 32768
    torch.manual_seed(0)
    A = torch.randn(M, K, device="cuda")
    x = torch.randn(K, device="cuda")
    ref = A @ x
    floor_ms = A.numel() * 4 / 4.25e12 * 1e3
    ms = bench(lambda: A @ x)
    record(results, shape=[M, K], form="mv_eager", ms=ms, floor=floor_ms / ms)
    y = torch.empty(M, 1, device="cuda")
    for bm, bk, warps, per_sm, comp in [(1, 8192, 16, 0, 1), (1, 8192, 16, 0, 0), (1, 8192, 16, 2, 0),
                                        (1, 8192, 16, 2, 1), (1, 4096, 8, 0, 0), (1, 4096, 8, 4, 0),
                                        (2, 4096, 8, 0, 0), (4, 2048, 8, 0, 0), (8, 1024, 8, 0, 0),
                                        (4, 2048, 8, 4, 0), (1, 2048, 4, 0, 0), (4, 2048, 8, 0, 1)]:
        programs = M // bm if per_sm == 0 else min(M // bm, sms * per_sm)
        run = lambda: matvec[(programs,)](A, x, y, M, K, BLOCK_M=bm, BLOCK_K=bk, PROGRAMS=programs, COMP=comp,
                                          num_warps=warps)
        run()
        ok = torch.allclose(y[:, 0], ref, atol=1e-4, rtol=1e-4)
        ms = bench(run)
        record(results, shape=[M, K], form="matvec", block_m=bm, block_k=bk, warps=warps, per_sm=per_sm, comp=comp,
               ms=ms, floor=floor_ms / ms, correct=ok)
    W = torch.randn(K, M, device="cuda") / K ** 0.5
    ref = x @ W
    ms = bench(lambda: x @ W)
    record(results, shape=[K, M], form="vm_eager", ms=ms, floor=floor_ms / ms)
    y = torch.empty(1, M, device="cuda")
    exact = (x.double() @ W.double()).float()
    for bk, bn, warps, comp, every in [(64, 64, 8, 1, 1), (64, 64, 8, 0, 1), (64, 64, 8, 1, 8), (64, 64, 8, 1, 32),
                                       (128, 64, 8, 0, 1), (128, 64, 8, 1, 8), (128, 64, 8, 1, 32),
                                       (32, 128, 8, 0, 1), (64, 128, 8, 0, 1), (64, 64, 4, 0, 1)]:
        run = lambda: vecmat[(M // bn,)](x, W, y, K, M, BLOCK_K=bk, BLOCK_N=bn, COMP=comp, EVERY=every,
                                         num_warps=warps)
        run()
        ok = torch.allclose(y[0], ref, atol=1e-4, rtol=1e-4)
        ms = bench(run)
        record(results, shape=[K, M], form="vecmat", block_k=bk, block_n=bn, warps=warps, comp=comp, every=every,
               ms=ms, floor=floor_ms / ms, correct=ok, err_vs_exact=(y[0] - exact).abs().max().item(),
               cublas_err_vs_exact=(ref - exact).abs().max().item())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only", choices=["softmax", "matvec"])
    args = ap.parse_args()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    results = []
    if args.only != "matvec":
        softmax_forms(results, sms)
    if args.only != "softmax":
        matvec_forms(results, sms)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
