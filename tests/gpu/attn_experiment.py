"""fp32 flash-attention variants on the GPU (3xTF32), timed with do_bench against eager SDPA:
`python3 tests/gpu/attn_experiment.py [--filter=odd,mode1]` (run from tests/gpu; `--small` under TRITON_INTERPRET=1
checks the variants' arithmetic on the CPU).

MODE 0: tl.dot(input_precision="tf32x3") (Triton's own split inside every dot: the generated kernels until
        2026-12-03)
MODE 1: our own split: Q's hi/lo once per program, K, P, V split in the loop, three "tf32" dots chained into the
        running tile (what kernel/lower_attention.cpp emits now, there with the small products' NaNs cleaned)
MODE 2: K and V split beforehand by a small kernel (hi/lo tensors in memory, V transposed when VT), so the loop's
        K/V tiles could go straight to shared memory; Q hoisted, P split in the loop
Head dims: PAD (next power of two) or pieces (a power of two + a smaller one: 80 = 64 + 16).
TAIL: full key blocks unmasked, the last partial block masked in its own iteration.

Session of 2026-12-03 (H200): only the padded variants ran (the others hit a bug of this script, since fixed and
checked by compiling every variant for sm_90 without a GPU): attn_sdpa_scale_odd_head's shape with E padded to 128
and EV to 64, 64 x 32 tiles: MODE 0 on 8 warps 1.95 ms, on 4 warps 1.18 ms; MODE 1 with 64 x 64 tiles 0.89 ms
(eager 1.39 ms under do_bench's timing). MODE 2 and the pieces against padding are not measured here yet (the
compiler's output with pieces was measured through tritonize.check: docs/RESULTS.md).
"""
import math
import os
import sys
import time

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _split(x):
    bits = x.to(tl.uint32, bitcast=True)
    hi = ((bits + 0x1000) & 0xFFFFE000).to(tl.float32, bitcast=True)
    return hi, x - hi


@triton.jit
def _dot3(a_hi, a_lo, b_hi, b_lo, acc):
    acc = tl.dot(a_lo, b_hi, acc, input_precision="tf32")
    acc = tl.dot(a_hi, b_lo, acc, input_precision="tf32")
    return tl.dot(a_hi, b_hi, acc, input_precision="tf32")


@triton.jit
def split_kernel(x_ptr, hi_ptr, lo_ptr, N, ROWS: tl.constexpr, COLS: tl.constexpr, TRANS: tl.constexpr,
                 BLOCK: tl.constexpr):
    # x [batch, ROWS, COLS] -> hi, lo [batch, ROWS, COLS] (or [batch, COLS, ROWS] when TRANS)
    if TRANS:
        pid = tl.program_id(0)
        b = tl.program_id(1)
        r = pid * 64 + tl.arange(0, 64)
        c = tl.arange(0, BLOCK)
        m = (r[:, None] < ROWS) & (c[None, :] < COLS)
        x = tl.load(x_ptr + b * ROWS * COLS + r[:, None] * COLS + c[None, :], mask=m, other=0.0)
        hi, lo = _split(x)
        dst = b * ROWS * COLS + c[None, :] * ROWS + r[:, None]
        tl.store(hi_ptr + dst, hi, mask=m)
        tl.store(lo_ptr + dst, lo, mask=m)
    else:
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        x = tl.load(x_ptr + offs, mask=m)
        hi, lo = _split(x)
        tl.store(hi_ptr + offs, hi, mask=m)
        tl.store(lo_ptr + offs, lo, mask=m)


@triton.jit
def _kv_block(n0, q0h, q0l, q1h, q1l, acc0, acc1, m_i, l_i, rm, rn, re0, re1, rv0, rv1,
              k_base, kl_base, v_base, vl_base, qk_scale,
              S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
              E0: tl.constexpr, E1: tl.constexpr, EV0: tl.constexpr, EV1: tl.constexpr,
              MODE: tl.constexpr, VT: tl.constexpr, MASKED: tl.constexpr, CAUSAL: tl.constexpr):
    cols = n0 + rn
    kmask_r = cols[None, :] < S
    kmask_c = cols[:, None] < S
    if not MASKED:
        kmask_r = None
        kmask_c = None
    # K^T pieces [E0, BN], [E1, BN]
    e0m = None
    if E0 > E:
        e0m = re0[:, None] < E
    mk0 = e0m
    if e0m is None:
        mk0 = kmask_r
    elif kmask_r is not None:
        mk0 = e0m & kmask_r
    if mk0 is None:
        kt0 = tl.load(k_base + re0[:, None] + cols[None, :] * E)
    else:
        kt0 = tl.load(k_base + re0[:, None] + cols[None, :] * E, mask=mk0, other=0.0)
    if MODE == 0:
        s = tl.dot(q0h, kt0, input_precision="tf32x3")
    elif MODE == 1:
        kh, kl = _split(kt0)
        s = _dot3(q0h, q0l, kh, kl, tl.zeros([q0h.shape[0], kt0.shape[1]], dtype=tl.float32))
    else:
        if mk0 is None:
            kl0 = tl.load(kl_base + re0[:, None] + cols[None, :] * E)
        else:
            kl0 = tl.load(kl_base + re0[:, None] + cols[None, :] * E, mask=mk0, other=0.0)
        s = _dot3(q0h, q0l, kt0, kl0, tl.zeros([q0h.shape[0], kt0.shape[1]], dtype=tl.float32))
    if E1 > 0:
        e1m = None
        if E0 + E1 > E:
            e1m = (E0 + re1[:, None]) < E
        mk1 = e1m
        if e1m is None:
            mk1 = kmask_r
        elif kmask_r is not None:
            mk1 = e1m & kmask_r
        if mk1 is None:
            kt1 = tl.load(k_base + E0 + re1[:, None] + cols[None, :] * E)
        else:
            kt1 = tl.load(k_base + E0 + re1[:, None] + cols[None, :] * E, mask=mk1, other=0.0)
        if MODE == 0:
            s = tl.dot(q1h, kt1, s, input_precision="tf32x3")
        elif MODE == 1:
            kh1, kl1 = _split(kt1)
            s = _dot3(q1h, q1l, kh1, kl1, s)
        else:
            if mk1 is None:
                kl1 = tl.load(kl_base + E0 + re1[:, None] + cols[None, :] * E)
            else:
                kl1 = tl.load(kl_base + E0 + re1[:, None] + cols[None, :] * E, mask=mk1, other=0.0)
            s = _dot3(q1h, q1l, kt1, kl1, s)
    s = s * qk_scale
    if MASKED:
        s = tl.where(kmask_r, s, float("-inf"))
    if CAUSAL:
        s = tl.where(rm[:, None] >= cols[None, :], s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1, keep_dims=True))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new)
    l_i = l_i * alpha + tl.sum(p, axis=1, keep_dims=True)
    acc0 = acc0 * alpha
    if MODE != 0:
        ph, pl = _split(p)
    v0m = None
    if EV0 > EV:
        v0m = rv0[None, :] < EV
    if MODE == 2 and VT:
        vp = v_base + rv0[None, :] * S + cols[:, None]
        vlp = vl_base + rv0[None, :] * S + cols[:, None]
    else:
        vp = v_base + cols[:, None] * EV + rv0[None, :]
        vlp = vl_base + cols[:, None] * EV + rv0[None, :]
    mv0 = v0m
    if v0m is None:
        mv0 = kmask_c
    elif kmask_c is not None:
        mv0 = v0m & kmask_c
    if mv0 is None:
        v0 = tl.load(vp)
    else:
        v0 = tl.load(vp, mask=mv0, other=0.0)
    if MODE == 0:
        acc0 = tl.dot(p, v0, acc0, input_precision="tf32x3")
    elif MODE == 1:
        vh, vl = _split(v0)
        acc0 = _dot3(ph, pl, vh, vl, acc0)
    else:
        if mv0 is None:
            vl0 = tl.load(vlp)
        else:
            vl0 = tl.load(vlp, mask=mv0, other=0.0)
        acc0 = _dot3(ph, pl, v0, vl0, acc0)
    if EV1 > 0:
        acc1 = acc1 * alpha
        v1m = None
        if EV0 + EV1 > EV:
            v1m = (EV0 + rv1[None, :]) < EV
        if MODE == 2 and VT:
            vp1 = v_base + (EV0 + rv1[None, :]) * S + cols[:, None]
            vlp1 = vl_base + (EV0 + rv1[None, :]) * S + cols[:, None]
        else:
            vp1 = v_base + cols[:, None] * EV + EV0 + rv1[None, :]
            vlp1 = vl_base + cols[:, None] * EV + EV0 + rv1[None, :]
        mv1 = v1m
        if v1m is None:
            mv1 = kmask_c
        elif kmask_c is not None:
            mv1 = v1m & kmask_c
        if mv1 is None:
            v1 = tl.load(vp1)
        else:
            v1 = tl.load(vp1, mask=mv1, other=0.0)
        if MODE == 0:
            acc1 = tl.dot(p, v1, acc1, input_precision="tf32x3")
        elif MODE == 1:
            vh1, vl1 = _split(v1)
            acc1 = _dot3(ph, pl, vh1, vl1, acc1)
        else:
            if mv1 is None:
                vl1 = tl.load(vlp1)
            else:
                vl1 = tl.load(vlp1, mask=mv1, other=0.0)
            acc1 = _dot3(ph, pl, v1, vl1, acc1)
    return acc0, acc1, m_new, l_i


@triton.jit
def attn_kernel(q_ptr, k_ptr, kl_ptr, v_ptr, vl_ptr, o_ptr, qk_scale,
                L: tl.constexpr, S: tl.constexpr, E: tl.constexpr, EV: tl.constexpr,
                E0: tl.constexpr, E1: tl.constexpr, EV0: tl.constexpr, EV1: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, MODE: tl.constexpr, VT: tl.constexpr,
                TAIL: tl.constexpr, CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    q_base = q_ptr + bh * (L * E)
    k_base = k_ptr + bh * (S * E)
    kl_base = kl_ptr + bh * (S * E)
    v_base = v_ptr + bh * (S * EV)
    vl_base = vl_ptr + bh * (S * EV)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    re0 = tl.arange(0, E0)
    rv0 = tl.arange(0, EV0)
    re1 = tl.arange(0, 16)
    rv1 = tl.arange(0, 16)
    if E1 > 0:
        re1 = tl.arange(0, E1)
    if EV1 > 0:
        rv1 = tl.arange(0, EV1)
    row_ok = rm[:, None] < L
    q0 = tl.load(q_base + rm[:, None] * E + re0[None, :], mask=row_ok & (re0[None, :] < E), other=0.0)
    q1 = tl.zeros([BLOCK_M, 16], dtype=tl.float32)
    if E1 > 0:
        q1 = tl.load(q_base + rm[:, None] * E + E0 + re1[None, :], mask=row_ok & (E0 + re1[None, :] < E), other=0.0)
    if MODE == 0:
        q0h = q0
        q0l = q0
        q1h = q1
        q1l = q1
    else:
        q0h, q0l = _split(q0)
        q1h, q1l = _split(q1)
    m_i = tl.full([BLOCK_M, 1], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M, 1], dtype=tl.float32)
    acc0 = tl.zeros([BLOCK_M, EV0], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK_M, 16], dtype=tl.float32)
    if EV1 > 0:
        acc1 = tl.zeros([BLOCK_M, EV1], dtype=tl.float32)
    stop = S
    if CAUSAL:
        stop = tl.minimum((pid_m + 1) * BLOCK_M, S)
    if TAIL and not CAUSAL:
        full = (S // BLOCK_N) * BLOCK_N
        for n0 in range(0, full, BLOCK_N):
            acc0, acc1, m_i, l_i = _kv_block(n0, q0h, q0l, q1h, q1l, acc0, acc1, m_i, l_i, rm, rn, re0, re1, rv0, rv1,
                                             k_base, kl_base, v_base, vl_base, qk_scale, S, E, EV, E0, E1, EV0, EV1,
                                             MODE, VT, False, CAUSAL)
        if full < S:
            acc0, acc1, m_i, l_i = _kv_block(full, q0h, q0l, q1h, q1l, acc0, acc1, m_i, l_i, rm, rn, re0, re1, rv0, rv1,
                                             k_base, kl_base, v_base, vl_base, qk_scale, S, E, EV, E0, E1, EV0, EV1,
                                             MODE, VT, True, CAUSAL)
    else:
        for n0 in range(0, stop, BLOCK_N):
            acc0, acc1, m_i, l_i = _kv_block(n0, q0h, q0l, q1h, q1l, acc0, acc1, m_i, l_i, rm, rn, re0, re1, rv0, rv1,
                                             k_base, kl_base, v_base, vl_base, qk_scale, S, E, EV, E0, E1, EV0, EV1,
                                             MODE, VT, S % BLOCK_N != 0, CAUSAL)
    o_base = o_ptr + bh * (L * EV)
    tl.store(o_base + rm[:, None] * EV + rv0[None, :], acc0 / l_i, mask=row_ok & (rv0[None, :] < EV))
    if EV1 > 0:
        tl.store(o_base + rm[:, None] * EV + EV0 + rv1[None, :], acc1 / l_i, mask=row_ok & (EV0 + rv1[None, :] < EV))


def next_pow2(x):
    return 1 << (x - 1).bit_length()


def pieces(e, pad):
    if pad:
        return max(16, next_pow2(e)), 0
    p0 = max(16, 1 << (e.bit_length() - 1))
    if p0 >= e:
        return p0, 0
    return p0, max(16, next_pow2(e - p0))


SHAPES = {
    "odd": dict(B=4 * 12, L=1000, S=1900, E=80, EV=48, scale=0.05, causal=False),
    "basic": dict(B=4 * 16, L=2048, S=2048, E=64, EV=64, scale=1 / 8, causal=False),
    "bigcausal": dict(B=64, L=1024, S=1024, E=320, EV=320, scale=1 / math.sqrt(320), causal=True),
}

# (shape, mode, pad_e, pad_ev, BM, BN, warps, stages, vt, tail)
VARIANTS = []
def V(shape, mode, pad_e, pad_ev, bm, bn, w, st, vt=True, tail=False):
    VARIANTS.append((shape, mode, pad_e, pad_ev, bm, bn, w, st, vt, tail))

V("odd", 0, True, True, 64, 32, 8, 2)     # today's kernel
V("odd", 0, True, True, 64, 32, 4, 2)
for cfg in [(64, 32, 4, 2), (64, 64, 4, 2), (128, 32, 8, 2), (128, 64, 8, 2), (64, 64, 4, 3)]:
    for mode in (0, 1, 2):
        V("odd", mode, False, False, *cfg)
V("odd", 1, True, True, 64, 64, 4, 2)
V("odd", 2, True, True, 64, 64, 4, 2)
V("odd", 1, False, True, 64, 64, 4, 2)
V("odd", 2, False, False, 64, 64, 4, 2, vt=False)
V("odd", 1, False, False, 64, 64, 4, 2, tail=True)
V("odd", 2, False, False, 64, 64, 4, 2, tail=True)
for cfg in [(64, 32, 4, 2), (64, 64, 4, 2), (128, 64, 8, 2), (128, 32, 8, 2), (64, 64, 4, 3)]:
    for mode in (0, 1, 2):
        V("basic", mode, False, False, *cfg)
V("bigcausal", 0, True, True, 64, 32, 8, 2)
for mode in (0, 1, 2):
    V("bigcausal", mode, False, False, 64, 32, 8, 2)
V("bigcausal", 2, False, False, 64, 64, 8, 2)
V("bigcausal", 1, False, False, 64, 32, 4, 2)


def make_inputs(shape, device, small=False):
    d = dict(SHAPES[shape])
    if small:
        d.update(B=2, L=37, S=53)
    g = torch.Generator(device="cpu").manual_seed(0)
    q = torch.randn(d["B"], d["L"], d["E"], generator=g).to(device)
    k = torch.randn(d["B"], d["S"], d["E"], generator=g).to(device)
    v = torch.randn(d["B"], d["S"], d["EV"], generator=g).to(device)
    return d, q, k, v


def runner(var, d, q, k, v):
    shape, mode, pad_e, pad_ev, bm, bn, w, st, vt, tail = var
    E0, E1 = pieces(d["E"], pad_e)
    EV0, EV1 = pieces(d["EV"], pad_ev)
    B, L, S, E, EV = d["B"], d["L"], d["S"], d["E"], d["EV"]
    out = torch.empty(B, L, EV, device=q.device, dtype=q.dtype)
    bm = min(bm, max(16, next_pow2(L)))
    bn = min(bn, max(16, next_pow2(S)))
    grid = (triton.cdiv(L, bm), B)
    qk_scale = d["scale"] * 1.4426950408889634
    if mode == 2:
        k_hi, k_lo = torch.empty_like(k), torch.empty_like(k)
        if vt:
            v_hi, v_lo = torch.empty(B, EV, S, device=v.device), torch.empty(B, EV, S, device=v.device)
        else:
            v_hi, v_lo = torch.empty_like(v), torch.empty_like(v)
    nk = k.numel()

    def fn():
        if mode == 2:
            split_kernel[(triton.cdiv(nk, 1024),)](k, k_hi, k_lo, nk, 1, 1, False, 1024, num_warps=4)
            if vt:
                split_kernel[(triton.cdiv(S, 64), B)](v, v_hi, v_lo, v.numel(), S, EV, True, max(16, next_pow2(EV)), num_warps=4)
            else:
                split_kernel[(triton.cdiv(v.numel(), 1024),)](v, v_hi, v_lo, v.numel(), 1, 1, False, 1024, num_warps=4)
            args = (q, k_hi, k_lo, v_hi, v_lo)
        else:
            args = (q, k, k, v, v)
        attn_kernel[grid](*args, out, qk_scale, L, S, E, EV, E0, E1, EV0, EV1, bm, bn, mode, vt, tail,
                          d["causal"], num_warps=w, num_stages=st)
        return out
    return fn


def name(var):
    shape, mode, pad_e, pad_ev, bm, bn, w, st, vt, tail = var
    return (f"{shape:9s} mode{mode} {'padE' if pad_e else 'pcsE'} {'padV' if pad_ev else 'pcsV'} "
            f"BM{bm:<3d} BN{bn:<3d} w{w} s{st}{'' if vt else ' noVT'}{' tail' if tail else ''}")


def warm(i):
    var = VARIANTS[i]
    d, q, k, v = make_inputs(var[0], "cuda", small=True)
    t = time.time()
    try:
        runner(var, d, q, k, v)()
        torch.cuda.synchronize()
        return i, None, time.time() - t
    except Exception as e:  # report, keep going
        return i, repr(e)[:300], time.time() - t


def main():
    small = "--small" in sys.argv
    device = "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"
    errors = {}
    if device == "cuda" and "--no-warm" not in sys.argv:
        import concurrent.futures as cf
        import multiprocessing as mp
        t = time.time()
        with cf.ProcessPoolExecutor(max_workers=14, mp_context=mp.get_context("spawn")) as ex:
            for i, err, dt in ex.map(warm, range(len(VARIANTS))):
                if err:
                    errors[i] = err
        print(f"compiled {len(VARIANTS)} variants in {time.time() - t:.1f} s", flush=True)
    refs = {}
    print(f"{'variant':58s} {'ms':>7s} {'x eager':>7s} {'maxdiff':>9s} ok")
    filt = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--filter=")]
    for i, var in enumerate(VARIANTS):
        shape = var[0]
        if filt and not all(f in name(var) for f in filt[0].split(",")):
            continue
        if shape not in refs:
            d, q, k, v = make_inputs(shape, device, small=small)
            ref = F.scaled_dot_product_attention(q, k, v, scale=d["scale"], is_causal=d["causal"])
            if device == "cuda":
                t_eager = triton.testing.do_bench(
                    lambda: F.scaled_dot_product_attention(q, k, v, scale=d["scale"], is_causal=d["causal"]),
                    warmup=25, rep=200, return_mode="median")
                exact = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), scale=d["scale"],
                                                       is_causal=d["causal"])
                print(f"{shape:58s} eager {t_eager:.3f} ms, eager vs fp64 {(ref.double() - exact).abs().max().item():.2e}",
                      flush=True)
            else:
                t_eager = float("nan")
            refs[shape] = (d, q, k, v, ref, t_eager)
        d, q, k, v, ref, t_eager = refs[shape]
        if i in errors:
            print(f"{name(var):58s} FAILED {errors[i]}", flush=True)
            continue
        try:
            fn = runner(var, d, q, k, v)
            out = fn().clone()
            diff = (out - ref).abs().max().item()
            ok = torch.allclose(out, ref, atol=1e-4, rtol=1e-4)
            ms = triton.testing.do_bench(fn, warmup=25, rep=150, return_mode="median") if device == "cuda" else float("nan")
            print(f"{name(var):58s} {ms:7.3f} {t_eager / ms:7.2f} {diff:9.2e} {'yes' if ok else 'NO'}", flush=True)
        except Exception as e:
            print(f"{name(var):58s} FAILED {repr(e)[:300]}", flush=True)


if __name__ == "__main__":
    main()
