"""Small-window pools far below the bandwidth floor (16-bit inputs, strided or transposed ones): tritonize's forms
against candidate forms, each a hand-edited kernel, on the H200 (triton.testing.do_bench median after an L2 flush;
floor fraction = bytes the problem must move / 4.25e12 / seconds; eager and torch.compile timed beside).

Forms (per problem below; every variant is checked against eager first: max exactly, avg to 1e-2 for 16-bit):
  flat      - tritonize's form before this session: a 1-D tile of BLOCK flat outputs (each output's indices by / and
              %), every tap a masked scalar load, max by PyTorch's rule as where((v > acc) | (v != v), v, acc).
              BLOCK / (32 warps) outputs per thread: 8 for windows of <= 4 values, so a warp's scalar tap load for
              a 16-bit input spans 32 x 8 x stride x 2 bytes (8 lines of 128 B for 64 useful bytes).
  nanmax    - flat with tl.maximum(acc, v, propagate_nan=ALL) (one max.NaN instruction; what tritonize emits now).
              "(now)" marks the variant that is tritonize's output after this session's commits.
  lanes1    - nanmax with one output per thread (BLOCK = 32 x warps; 4, 16 and 32 warps): a warp's tap load spans
              32 x stride x element bytes. Model to test: a warp load costs the L1 about one cycle per 4 sectors it
              touches; with 8 outputs a thread (flat, windows <= 4) a tap load touches 32 sectors for 64 (16-bit) or
              128 (fp32) useful bytes. It predicts pool_max1d_dilated_ceil_fp16 at 1.5 ms (measured 1.67), pool_avg1d_pad
              0.51 (0.66), pool_max3d_module 0.75 (0.96), pool_avg3d_module 0.75 (0.90); lanes1 about 4x less.
  lanes2    - two outputs a thread.
  rows      - a [BR, BW] tile: rows = every output dim but the last, flattened (indices per row, not per output),
              BW outputs along the last; the tile's pointer at o * stride (aligned) and each tap a constant offset
              (folded into the load; taps at a multiple of 8 16-bit elements load 16-byte vectors); masks per row
              and per column.
  strip     - each thread 8 (stride 1) or 4 (stride 2) consecutive outputs of a row: per window row one aligned
              16-byte vector of the inputs under them plus the few neighbours (a scalar or a 4-byte pair), the taps
              taken from registers (tl.split / tl.join), so every load is a vector and no input is loaded twice
              by one thread. Rows must be 16-byte aligned (W * 2 bytes % 16 == 0).
  fused     - (pool_avg1d_ceil_pad_modes_bf16) both pools of one input in one kernel: the stride-2 pool's window
              at 2o - 1 .. 2o + 1 is inside the stride-1 pool's window at w = 2o, so one read of x gives both
              (two kernels read x twice: 1.4x the floor's bytes).
  tile_t    - (pool_max2d_dilated_ceil_transposed: input [N, C, W, H] transposed, contiguous along H = the pooled
              dim before the last) a [BLOCK_H, BLOCK_W] tile with lanes along oh (loads coalesced along H) and the
              store along ow (Triton converts through shared memory); the flat tile's lanes walk ow, W rows apart
              in memory: every lane of a tap load its own 32-byte sector. tritonize emits [64, 64] on 8 warps
              with the window rows a loop now (lower_window.cpp's transposed tile, extended to pooled dims).
  rowseg    - (pool_adaptive_max2d_none: AdaptiveMaxPool2d((None, 6)) of fp32 [128, 64, 256, 250]) whole input rows
              [BR, 256] read once, each of the 6 outputs a masked max over its column segment, against the lanes
              form ([32 outputs, 64 lanes], every window row a 64-lane masked load, 43 used).
  unroll/c64 - (pool_avg2d_nhwc_exclude_pad) the channels-last tile with the window rows unrolled, or 64 channels.

    python3 tests/gpu/pools_experiment.py [--only NAME,NAME] [--json OUT.json] [--compile]   # GPU; --compile
                                                     # also times torch.compile (the suite has its times)
    python3 tests/gpu/pools_experiment.py --dry      # interpreter, small shapes: every variant vs PyTorch
    python3 tests/gpu/pools_experiment.py --census   # no GPU: PTX for sm_90a of every variant at the real shapes
                                                     # (instructions / output, loads by width, registers)
"""
import argparse
import collections
import json
import os
import re
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

BANDWIDTH = 4.25e12
DRY = "--dry" in sys.argv
CENSUS = "--census" in sys.argv


# ---------------------------------------------------------------------------------------------------------------
# Generic forms over NC(D)HW contiguous inputs (1-D and 2-D pools have D = OD = 1, and H = OH = 1 for 1-D).
# CD/CH/CW: which bounds a window may cross along that dim (1: below 0 (padding), 2: past the end, 3: both).
# AVG: 0 max, 1 avg with a constant divisor DIV, 2 avg counting the padding up to size + pad (ceil_mode's last
# window clipped), 3 avg over the valid positions only (count_include_pad=False).

@triton.jit
def _count(start, K: tl.constexpr, SIZE: tl.constexpr, PAD: tl.constexpr, AVG: tl.constexpr):
    if AVG == 2:
        return tl.minimum(start + K, SIZE + PAD) - start
    else:
        return tl.minimum(start + K, SIZE) - tl.maximum(start, 0)


@triton.jit
def pool_flat(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, NANMAX: tl.constexpr, AVG: tl.constexpr,
              DIV: tl.constexpr, D: tl.constexpr, H: tl.constexpr, W: tl.constexpr, OD: tl.constexpr,
              OH: tl.constexpr, OW: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
              SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr, PH: tl.constexpr,
              PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr, CD: tl.constexpr,
              CH: tl.constexpr, CW: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    ow = offs % OW
    rest = offs // OW
    base = rest * 0
    d_start = base
    h_start = base
    if OH > 1:
        h_start = rest % OH * SH - PH
        rest = rest // OH
    if OD > 1:
        d_start = rest % OD * SD - PD
        rest = rest // OD
    base = rest * (D * H * W)
    w_start = ow * SW - PW
    if AVG == 0:
        acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
        other = float("-inf")
    else:
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        other = 0.0
    for kd in tl.static_range(KD):
        d_in = d_start + kd * DD
        md = mask
        if CD % 2 == 1:
            md = md & (d_in >= 0)
        if CD >= 2:
            md = md & (d_in < D)
        row_d = base + d_in * (H * W)
        for kh in tl.static_range(KH):
            h_in = h_start + kh * DH
            mh = md
            if CH % 2 == 1:
                mh = mh & (h_in >= 0)
            if CH >= 2:
                mh = mh & (h_in < H)
            row_h = row_d + h_in * W
            for kw in tl.static_range(KW):
                w_in = w_start + kw * DW
                m = mh
                if CW % 2 == 1:
                    m = m & (w_in >= 0)
                if CW >= 2:
                    m = m & (w_in < W)
                v = tl.load(x_ptr + (row_h + w_in), mask=m, other=other).to(tl.float32)
                if AVG > 0:
                    acc = acc + v
                elif NANMAX:
                    acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
                else:
                    acc = tl.where((v > acc) | (v != v), v, acc)
    if AVG == 1:
        acc = acc / DIV
    elif AVG > 1:
        count = _count(w_start, KW, W, PW, AVG)
        if OH > 1:
            count = count * _count(h_start, KH, H, PH, AVG)
        if OD > 1:
            count = count * _count(d_start, KD, D, PD, AVG)
        acc = acc / count.to(tl.float32)
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def pool_rows(x_ptr, y_ptr, ROWS: tl.constexpr, BR: tl.constexpr, BW: tl.constexpr, AVG: tl.constexpr,
              DIV: tl.constexpr, D: tl.constexpr, H: tl.constexpr, W: tl.constexpr, OD: tl.constexpr,
              OH: tl.constexpr, OW: tl.constexpr, KD: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr,
              SD: tl.constexpr, SH: tl.constexpr, SW: tl.constexpr, PD: tl.constexpr, PH: tl.constexpr,
              PW: tl.constexpr, DD: tl.constexpr, DH: tl.constexpr, DW: tl.constexpr, CD: tl.constexpr,
              CH: tl.constexpr, CW: tl.constexpr):
    NWB: tl.constexpr = (OW + BW - 1) // BW
    pid = tl.program_id(0)
    r = (pid // NWB) * BR + tl.arange(0, BR)[:, None]
    ow = (pid % NWB) * BW + tl.arange(0, BW)[None, :]
    oh = r % OH
    od = r // OH % OD
    nc = r // (OH * OD)
    d0 = od * SD - PD
    h0 = oh * SH - PH
    w0 = ow * SW - PW
    # The window's first position without the padding (aligned as the row is); each tap adds a constant.
    p = x_ptr + (nc * (D * H * W) + od * (SD * H * W) + oh * (SH * W) + ow * SW)
    out_ok = (r < ROWS) & (ow < OW)
    if AVG == 0:
        acc = tl.full([BR, BW], float("-inf"), dtype=tl.float32)
        other = float("-inf")
    else:
        acc = tl.zeros([BR, BW], dtype=tl.float32)
        other = 0.0
    for kd in tl.static_range(KD):
        md = out_ok
        if CD % 2 == 1:
            md = md & (d0 + kd * DD >= 0)
        if CD >= 2:
            md = md & (d0 + kd * DD < D)
        for kh in tl.static_range(KH):
            mh = md
            if CH % 2 == 1:
                mh = mh & (h0 + kh * DH >= 0)
            if CH >= 2:
                mh = mh & (h0 + kh * DH < H)
            for kw in tl.static_range(KW):
                m = mh
                if CW % 2 == 1:
                    m = m & (w0 + kw * DW >= 0)
                if CW >= 2:
                    m = m & (w0 + kw * DW < W)
                v = tl.load(p + ((kd * DD - PD) * H * W + (kh * DH - PH) * W + kw * DW - PW), mask=m,
                            other=other).to(tl.float32)
                if AVG == 0:
                    acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
                else:
                    acc = acc + v
    if AVG == 1:
        acc = acc / DIV
    elif AVG > 1:
        count = _count(w0, KW, W, PW, AVG)
        if OH > 1:
            count = count * _count(h0, KH, H, PH, AVG)
        if OD > 1:
            count = count * _count(d0, KD, D, PD, AVG)
        acc = acc / count.to(tl.float32)
    tl.store(y_ptr + (r * OW + ow), acc.to(y_ptr.dtype.element_ty), mask=out_ok)


# ---------------------------------------------------------------------------------------------------------------
# Strips: a thread's 8 (or 4) consecutive outputs from one aligned vector per window row, the taps from registers.

@triton.jit
def _split8(x, A: tl.constexpr, B: tl.constexpr):
    # [A, B, 8] -> its 8 columns, each [A, B] (a thread holds its 8 elements: register moves only)
    e, o = tl.split(tl.reshape(x, [A, B, 4, 2]))
    ee, eo = tl.split(tl.reshape(e, [A, B, 2, 2]))
    oe, oo = tl.split(tl.reshape(o, [A, B, 2, 2]))
    c0, c4 = tl.split(ee)
    c2, c6 = tl.split(eo)
    c1, c5 = tl.split(oe)
    c3, c7 = tl.split(oo)
    return c0, c1, c2, c3, c4, c5, c6, c7


@triton.jit
def _join8(c0, c1, c2, c3, c4, c5, c6, c7, A: tl.constexpr, B: tl.constexpr):
    e = tl.reshape(tl.join(tl.join(c0, c4), tl.join(c2, c6)), [A, B, 4])
    o = tl.reshape(tl.join(tl.join(c1, c5), tl.join(c3, c7)), [A, B, 4])
    return tl.reshape(tl.join(e, o), [A, B, 8])


@triton.jit
def _join4(c0, c1, c2, c3, A: tl.constexpr, B: tl.constexpr):
    e = tl.reshape(tl.join(c0, c2), [A, B, 2])
    o = tl.reshape(tl.join(c1, c3), [A, B, 2])
    return tl.reshape(tl.join(e, o), [A, B, 4])


@triton.jit
def _mx(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def max2d_3s1p1_strip(x_ptr, y_ptr, ROWS: tl.constexpr, H: tl.constexpr, W: tl.constexpr, BR: tl.constexpr):
    # MaxPool2d(3, stride=1, padding=1), W % 8 == 0: rows r = (n, c, oh); thread t owns outputs 8t .. 8t + 7.
    T: tl.constexpr = W // 8
    r = tl.program_id(0) * BR + tl.arange(0, BR)[:, None, None]
    t = tl.arange(0, T)[None, :, None]
    j = tl.arange(0, 8)[None, None, :]
    oh = r % H
    ok = r < ROWS
    p = x_ptr + (r * W + t * 8)
    a0 = tl.full([BR, T], float("-inf"), tl.float32)
    a1 = a0
    a2 = a0
    a3 = a0
    a4 = a0
    a5 = a0
    a6 = a0
    a7 = a0
    for kh in tl.static_range(3):
        mh = ok & (oh + (kh - 1) >= 0) & (oh + (kh - 1) < H)
        q = p + (kh - 1) * W
        m = tl.load(q + j, mask=mh, other=float("-inf")).to(tl.float32)
        left = tl.reshape(tl.load(q - 1, mask=mh & (t > 0), other=float("-inf")), [BR, T]).to(tl.float32)
        right = tl.reshape(tl.load(q + 8, mask=mh & (t < T - 1), other=float("-inf")), [BR, T]).to(tl.float32)
        c0, c1, c2, c3, c4, c5, c6, c7 = _split8(m, BR, T)
        a0 = _mx(a0, _mx(_mx(left, c0), c1))
        a1 = _mx(a1, _mx(_mx(c0, c1), c2))
        a2 = _mx(a2, _mx(_mx(c1, c2), c3))
        a3 = _mx(a3, _mx(_mx(c2, c3), c4))
        a4 = _mx(a4, _mx(_mx(c3, c4), c5))
        a5 = _mx(a5, _mx(_mx(c4, c5), c6))
        a6 = _mx(a6, _mx(_mx(c5, c6), c7))
        a7 = _mx(a7, _mx(_mx(c6, c7), right))
    out = _join8(a0, a1, a2, a3, a4, a5, a6, a7, BR, T)
    tl.store(y_ptr + (r * W + t * 8 + j), out.to(y_ptr.dtype.element_ty), mask=ok)


@triton.jit
def avg2d_4s2p2_strip(x_ptr, y_ptr, ROWS: tl.constexpr, H: tl.constexpr, W: tl.constexpr, OH: tl.constexpr,
                      OW: tl.constexpr, BR: tl.constexpr, T: tl.constexpr):
    # AvgPool2d(4, stride=2, padding=2), W % 8 == 0 (OW = W / 2 + 1): rows r = (n, c, oh); thread t owns outputs
    # 4t .. 4t + 3, whose windows cover x[8t - 2 .. 8t + 7] of each window row: the pair at 8t - 2 (4 bytes) and
    # the vector at 8t (16 bytes). The divisor is 16 (every window counts its padding).
    r = tl.program_id(0) * BR + tl.arange(0, BR)[:, None, None]
    t = tl.program_id(1) * T + tl.arange(0, T)[None, :, None]
    j = tl.arange(0, 8)[None, None, :]
    j2 = tl.arange(0, 2)[None, None, :]
    oh = r % OH
    nc = r // OH
    ok = r < ROWS
    p = x_ptr + (nc * (H * W) + oh * (2 * W) + t * 8)
    s0 = tl.zeros([BR, T], tl.float32)
    s1 = s0
    s2 = s0
    s3 = s0
    for kh in tl.static_range(4):
        h = oh * 2 - 2 + kh
        mh = ok & (h >= 0) & (h < H)
        q = p + (kh - 2) * W
        m = tl.load(q + j, mask=mh & (8 * t + j < W), other=0.0).to(tl.float32)
        pair = tl.load(q - 2 + j2, mask=mh & (t > 0) & (8 * t - 2 < W), other=0.0).to(tl.float32)
        lm2, lm1 = tl.split(pair)
        c0, c1, c2, c3, c4, c5, c6, c7 = _split8(m, BR, T)
        s0 += (lm2 + lm1) + (c0 + c1)
        s1 += (c0 + c1) + (c2 + c3)
        s2 += (c2 + c3) + (c4 + c5)
        s3 += (c4 + c5) + (c6 + c7)
    out = _join4(s0, s1, s2, s3, BR, T) / 16.0
    jo = tl.arange(0, 4)[None, None, :]
    ow = 4 * t + jo
    tl.store(y_ptr + (r * OW + ow), out.to(y_ptr.dtype.element_ty), mask=ok & (ow < OW))


# ---------------------------------------------------------------------------------------------------------------
# Two avg pools of one input in one kernel (pool_avg1d_ceil_pad_modes_bf16):
#   a = AvgPool1d(3, stride=2, padding=1, ceil_mode=True) (divisor counts the padding, up to W + 1),
#   b = avg_pool1d(5, stride=1, padding=2, count_include_pad=False).
# One output of b per lane (w = 0 .. W, W + 1 rounded up to the block); an even w = 2o also gives a's output o,
# whose taps w - 1 .. w + 1 are three of b's five.

@triton.jit
def avg1d_pair_fused(x_ptr, a_ptr, b_ptr, W: tl.constexpr, OA: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(1)
    w = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    p = x_ptr + row * W + w
    xm2 = tl.load(p - 2, mask=(w >= 2) & (w - 2 < W), other=0.0).to(tl.float32)
    xm1 = tl.load(p - 1, mask=(w >= 1) & (w - 1 < W), other=0.0).to(tl.float32)
    x0 = tl.load(p, mask=w < W, other=0.0).to(tl.float32)
    xp1 = tl.load(p + 1, mask=w + 1 < W, other=0.0).to(tl.float32)
    xp2 = tl.load(p + 2, mask=w + 2 < W, other=0.0).to(tl.float32)
    mid = xm1 + x0 + xp1
    b = (xm2 + mid + xp2) / (tl.minimum(w + 3, W) - tl.maximum(w - 2, 0)).to(tl.float32)
    tl.store(b_ptr + row * W + w, b.to(b_ptr.dtype.element_ty), mask=w < W)
    o = w // 2
    a = mid / (tl.minimum(w + 2, W + 1) - (w - 1)).to(tl.float32)
    tl.store(a_ptr + row * OA + o, a.to(a_ptr.dtype.element_ty), mask=(w % 2 == 0) & (o < OA))


# ---------------------------------------------------------------------------------------------------------------
# pool_max2d_dilated_ceil_transposed: MaxPool2d((3, 2), stride=(2, 3), padding=(1, 0), dilation=(2, 3),
# ceil_mode=True) of x.transpose(2, 3), x stored [N, C, WS, HS] (HS contiguous): element (h, w) at w * HS + h.

@triton.jit
def max2d_transposed_flat(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, HS: tl.constexpr, WS: tl.constexpr,
                          OH: tl.constexpr, OW: tl.constexpr, NANMAX: tl.constexpr):
    # tritonize's flat form (lanes along ow: W rows apart in memory)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ow = offs % OW
    oh = offs // OW % OH
    base = offs // (OW * OH) * (HS * WS)
    h_start = oh * 2 - 1
    w_start = ow * 3
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for kh in tl.static_range(3):
        h_in = h_start + kh * 2
        ok_h = (h_in >= 0) & (h_in < HS)
        for kw in tl.static_range(2):
            w_in = w_start + kw * 3
            v = tl.load(x_ptr + (base + h_in + w_in * HS), mask=ok_h & (w_in < WS) & (offs < N),
                        other=float("-inf")).to(tl.float32)
            if NANMAX:
                acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
            else:
                acc = tl.where((v > acc) | (v != v), v, acc)
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=offs < N)


@triton.jit
def max2d_transposed_tile(x_ptr, y_ptr, HS: tl.constexpr, WS: tl.constexpr, OH: tl.constexpr, OW: tl.constexpr,
                          BH: tl.constexpr, BW: tl.constexpr, UNROLL: tl.constexpr):
    # lanes along oh (H contiguous in memory), stores along ow; UNROLL=0: the window rows a loop (tritonize now)
    NHB: tl.constexpr = (OH + BH - 1) // BH
    NWB: tl.constexpr = (OW + BW - 1) // BW
    pid = tl.program_id(0)
    oh = (pid % NHB * BH + tl.arange(0, BH))[:, None]
    ow = (pid // NHB % NWB * BW + tl.arange(0, BW))[None, :]
    nc = pid // (NHB * NWB)
    base = nc * (HS * WS)
    h0 = oh * 2 - 1
    w0 = ow * 3
    ok = (oh < OH) & (ow < OW)
    acc = tl.full([BH, BW], float("-inf"), tl.float32)
    if UNROLL:
        for kh in tl.static_range(3):
            h = h0 + kh * 2
            mh = ok & (h >= 0) & (h < HS)
            for kw in tl.static_range(2):
                w = w0 + kw * 3
                v = tl.load(x_ptr + (base + w * HS + h), mask=mh & (w < WS), other=float("-inf")).to(tl.float32)
                acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    else:
        for kh in range(3):
            h = h0 + kh * 2
            mh = ok & (h >= 0) & (h < HS)
            for kw in tl.static_range(2):
                w = w0 + kw * 3
                v = tl.load(x_ptr + (base + w * HS + h), mask=mh & (w < WS), other=float("-inf")).to(tl.float32)
                acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    tl.store(y_ptr + (nc * (OH * OW) + oh * OW + ow), acc.to(y_ptr.dtype.element_ty), mask=ok)


# ---------------------------------------------------------------------------------------------------------------
# pool_adaptive_max2d_none: AdaptiveMaxPool2d((None, 6)) of [N, C, H, W]: rows of W read whole.

@triton.jit
def adaptive_max_lanes(x_ptr, y_ptr, N: tl.constexpr, BLOCK: tl.constexpr, LANES: tl.constexpr, W: tl.constexpr,
                       OW: tl.constexpr, NANMAX: tl.constexpr):
    # tritonize's lanes form (NANMAX=0 as emitted before this session, 1 as now; 2: the lanes reduced by one
    # NaN-keeping max, tl.reduce with max.NaN, instead of tl.max plus a sum of the NaN lanes)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)[:, None]
    ow = offs % OW
    row = offs // OW
    w_end = ((ow + 1) * W + OW - 1) // OW
    w_in = ow * W // OW + tl.arange(0, LANES)[None, :]
    v = tl.load(x_ptr + (row * W + w_in), mask=(w_in < w_end) & (offs < N), other=float("-inf")).to(tl.float32)
    acc = tl.full([BLOCK, LANES], float("-inf"), tl.float32)
    if NANMAX:
        acc = tl.maximum(acc, v, propagate_nan=tl.PropagateNan.ALL)
    else:
        acc = tl.where((v > acc) | (v != v), v, acc)
    if NANMAX == 2:
        acc = tl.reduce(acc, 1, _mx, keep_dims=True)
    else:
        acc = tl.max(acc, axis=1, keep_dims=True) + tl.sum(tl.where(acc != acc, acc, 0.0), axis=1, keep_dims=True)
    tl.store(y_ptr + offs, acc.to(y_ptr.dtype.element_ty), mask=offs < N)


@triton.jit
def adaptive_max_rowseg(x_ptr, y_ptr, ROWS: tl.constexpr, BR: tl.constexpr, W: tl.constexpr, BW: tl.constexpr,
                        OW: tl.constexpr, BO: tl.constexpr):
    # whole rows [BR, BW], each output's segment by a mask, reduced by a NaN-keeping max (max.NaN)
    r = tl.program_id(0) * BR + tl.arange(0, BR)[:, None]
    w = tl.arange(0, BW)[None, :]
    x = tl.load(x_ptr + (r * W + w), mask=(r < ROWS) & (w < W), other=float("-inf")).to(tl.float32)
    o = tl.arange(0, BO)[None, :]
    out = tl.full([BR, BO], float("-inf"), tl.float32)
    for k in tl.static_range(OW):
        seg = (w >= k * W // OW) & (w < ((k + 1) * W + OW - 1) // OW)
        s = tl.where(seg, x, float("-inf"))
        top = tl.reduce(s, 1, _mx, keep_dims=True)
        out = tl.where(o == k, top, out)
    tl.store(y_ptr + (r * OW + o), out.to(y_ptr.dtype.element_ty), mask=(r < ROWS) & (o < OW))


# ---------------------------------------------------------------------------------------------------------------
# pool_avg2d_nhwc_exclude_pad: F.avg_pool2d(x.permute(0, 3, 1, 2), 3, 2, 1, ceil_mode=True,
# count_include_pad=False), x stored [N, H, W, C]: tritonize's [BLOCK_T channels, BLOCK_I ow] tile (UNROLL=0 as
# emitted: the window rows a runtime loop), UNROLL=1 the window rows unrolled.

@triton.jit
def avg2d_nhwc_tile(x_ptr, y_ptr, C: tl.constexpr, H: tl.constexpr, W: tl.constexpr, OH: tl.constexpr,
                    OW: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_I: tl.constexpr, UNROLL: tl.constexpr):
    NT: tl.constexpr = (C + BLOCK_T - 1) // BLOCK_T
    NI: tl.constexpr = (OW + BLOCK_I - 1) // BLOCK_I
    pid = tl.program_id(0)
    c = (pid // NI % NT * BLOCK_T + tl.arange(0, BLOCK_T))[:, None]
    ow = (pid % NI * BLOCK_I + tl.arange(0, BLOCK_I))[None, :]
    rest = pid // (NI * NT)
    oh = rest % OH
    n = rest // OH
    base = n * (H * W * C) + c
    h_start = oh * 2 - 1
    w_start = ow * 2 - 1
    acc = tl.zeros([BLOCK_T, BLOCK_I], dtype=tl.float32)
    if UNROLL:
        for kh in tl.static_range(3):
            h_in = h_start + kh
            ok_h = (h_in >= 0) & (h_in < H)
            row_h = base + h_in * (W * C)
            for kw in tl.static_range(3):
                w_in = w_start + kw
                ok_w = (w_in >= 0) & (w_in < W)
                acc += tl.load(x_ptr + (row_h + w_in * C), mask=(c < C) & ok_h & ok_w, other=0.0).to(tl.float32)
    else:
        for kh in range(3):
            h_in = h_start + kh
            ok_h = (h_in >= 0) & (h_in < H)
            row_h = base + h_in * (W * C)
            for kw in tl.static_range(3):
                w_in = w_start + kw
                ok_w = (w_in >= 0) & (w_in < W)
                acc += tl.load(x_ptr + (row_h + w_in * C), mask=(c < C) & ok_h & ok_w, other=0.0).to(tl.float32)
    count_h = tl.minimum(h_start + 3, H) - tl.maximum(h_start, 0)
    count_w = tl.minimum(w_start + 3, W) - tl.maximum(w_start, 0)
    pooled = acc / (count_h * count_w).to(tl.float32)
    tl.store(y_ptr + (n * (C * OH * OW) + c * (OH * OW) + oh * OW + ow), pooled.to(y_ptr.dtype.element_ty),
             mask=(c < C) & (ow < OW))


# ---------------------------------------------------------------------------------------------------------------
# Problems (shapes of the corpus files; --dry shrinks them). `spec` = per pooled dim (size, out, k, s, p, dil).

def bounds(size, out, k, s, p, d):
    return (1 if p > 0 else 0) + (2 if (out - 1) * s - p + (k - 1) * d >= size else 0)


def dims3(spec):
    """Pad a 1-D/2-D spec to (d, h, w) with unit dims."""
    unit = (1, 1, 1, 1, 0, 1)
    return [unit] * (3 - len(spec)) + list(spec)


def generic_args(spec, avg, div):
    (D, OD, KD, SD, PD, DD), (H, OH, KH, SH, PH, DH), (W, OW, KW, SW, PW, DW) = dims3(spec)
    return dict(AVG=avg, DIV=float(div), D=D, H=H, W=W, OD=OD, OH=OH, OW=OW, KD=KD, KH=KH, KW=KW, SD=SD, SH=SH,
                SW=SW, PD=PD, PH=PH, PW=PW, DD=DD, DH=DH, DW=DW, CD=bounds(D, OD, KD, SD, PD, DD),
                CH=bounds(H, OH, KH, SH, PH, DH), CW=bounds(W, OW, KW, SW, PW, DW))


def flat_variant(name, spec, avg, div, block, warps, nanmax):
    def make(x, ys):
        y = ys[0]
        n = y.numel()
        args = dict(N=n, BLOCK=block, NANMAX=nanmax, **generic_args(spec, avg, div))
        return (pool_flat, (triton.cdiv(n, block),), (x, y), args, warps)
    return name, make


def rows_variant(name, spec, avg, div, br, bw, warps):
    def make(x, ys):
        y = ys[0]
        ow = y.shape[-1]
        rows = y.numel() // ow
        args = dict(ROWS=rows, BR=br, BW=bw, **generic_args(spec, avg, div))
        return (pool_rows, (triton.cdiv(rows, br) * triton.cdiv(ow, bw),), (x, y), args, warps)
    return name, make


def block_rule(window):
    """tritonize's flat BLOCK and warps for a window of this many values (lower_window.cpp)."""
    block = 1024 if window <= 4 else 512 if window <= 16 else 256
    warps = min(max(block // (64 if window > 4 else 128), 1), 8 if window > 4 else 4)
    return block, warps


def standard(spec, avg, div, rows_tiles, lanes_warps=4, lanes2=False):
    window = 1
    for s in spec:
        window *= s[2]
    block, warps = block_rule(window)
    v = [flat_variant(f"flat {block} w{warps} (before)", spec, avg, div, block, warps, 0)]
    if avg == 0:
        v.append(flat_variant(f"nanmax {block} w{warps} (now)", spec, avg, div, block, warps, 1))
    for w in ((lanes_warps, 16, 32) if lanes2 else (lanes_warps, 16)):  # one output a thread, small and big CTAs
        v.append(flat_variant(f"lanes1 {32 * w} w{w}", spec, avg, div, 32 * w, w, 1))
    if lanes2:
        v.append(flat_variant(f"lanes2 {64 * lanes_warps} w{lanes_warps}", spec, avg, div, 64 * lanes_warps,
                              lanes_warps, 1))
    for br, bw, w in rows_tiles:
        v.append(rows_variant(f"rows [{br}, {bw}] w{w}", spec, avg, div, br, bw, w))
    return v


def problems():
    """name -> (input shape (stored), dtype, reference(x) -> outputs, variants, case note)."""
    P = {}
    # pool_max2d_same_bf16: MaxPool2d(3, 1, 1) of bf16 [32, 64, 256, 256]
    n, c, h, w = (2, 3, 16, 64) if DRY else (32, 64, 256, 256)
    spec = [(h, h, 3, 1, 1, 1), (w, w, 3, 1, 1, 1)]
    v = standard(spec, 0, 1, [(4, 256, 4), (16, 64, 4)] if not DRY else [(4, 64, 4), (8, 32, 4)])

    def strip(x, ys, br=4, warps=4):
        y = ys[0]
        rows = y.numel() // y.shape[-1]
        return (max2d_3s1p1_strip, (triton.cdiv(rows, br),), (x, y),
                dict(ROWS=rows, H=x.shape[2], W=x.shape[3], BR=br), warps)
    v.append(("strip [4 rows, 8/thread] w4", strip))
    v.append(("strip [8 rows, 8/thread] w8", lambda x, ys: strip(x, ys, 8, 8)))
    P["max2d_same_bf16"] = ((n, c, h, w), torch.bfloat16, lambda x: [F.max_pool2d(x, 3, 1, 1)], v)

    # pool_avg2d_window_fp16: AvgPool2d(4, 2, 2) of fp16 [32, 64, 383, 384]
    n, c, h, w = (2, 3, 13, 48) if DRY else (32, 64, 383, 384)
    oh, ow = h // 2 + 1, w // 2 + 1
    spec = [(h, oh, 4, 2, 2, 1), (w, ow, 4, 2, 2, 1)]
    v = standard(spec, 1, 16, [(64, 16, 4), (4, 256, 4)] if not DRY else [(8, 16, 4)])

    def strip2(x, ys, br=4, t=16, warps=2):
        y = ys[0]
        rows = y.numel() // y.shape[-1]
        return (avg2d_4s2p2_strip, (triton.cdiv(rows, br), triton.cdiv(y.shape[-1], 4 * t)), (x, y),
                dict(ROWS=rows, H=x.shape[2], W=x.shape[3], OH=y.shape[2], OW=y.shape[3], BR=br, T=t), warps)
    v.append(("strip [4 rows, 16 x 4/thread] w2", strip2))
    v.append(("strip [2 rows, 64 x 4/thread] w4", lambda x, ys: strip2(x, ys, 2, 64, 4)))
    P["avg2d_window_fp16"] = ((n, c, h, w), torch.float16, lambda x: [F.avg_pool2d(x, 4, 2, 2)], v)

    # pool_max3d_ceil_fp16: max_pool3d((2, 3, 3), 2, dilation (1, 1, 2), ceil) of fp16 [16, 32, 63, 96, 97]
    n, c, d, h, w = (2, 3, 7, 10, 13) if DRY else (16, 32, 63, 96, 97)

    def out(size, k, s, p, dil):
        o = -(-(size + 2 * p - dil * (k - 1) - 1) // s) + 1
        return o - 1 if (o - 1) * s >= size + p else o
    spec = [(d, out(d, 2, 2, 0, 1), 2, 2, 0, 1), (h, out(h, 3, 2, 0, 1), 3, 2, 0, 1),
            (w, out(w, 3, 2, 0, 2), 3, 2, 0, 2)]
    v = standard(spec, 0, 1, [(64, 16, 4)] if not DRY else [(16, 8, 4)])
    P["max3d_ceil_fp16"] = ((n, c, d, h, w), torch.float16,
                            lambda x: [F.max_pool3d(x, (2, 3, 3), 2, dilation=(1, 1, 2), ceil_mode=True)], v)

    # pool_max1d_dilated_ceil_fp16: max_pool1d(3, 2, 1, dilation 2, ceil) of fp16 [128, 500, 16382]
    n, c, w = (2, 3, 70) if DRY else (128, 500, 16382)
    spec = [(w, out(w, 3, 2, 1, 2), 3, 2, 1, 2)]
    v = standard(spec, 0, 1, [(1, 1024, 4)] if not DRY else [(2, 32, 4)], lanes2=True)
    P["max1d_dilated_ceil_fp16"] = ((n, c, w), torch.float16,
                                    lambda x: [F.max_pool1d(x, 3, 2, 1, dilation=2, ceil_mode=True)], v)

    # fp32 pools whose flat tile holds 8 (pool_avg1d_pad) or 2 (pool_max3d_module) outputs a thread: checks of the
    # L1 model (a warp's tap load spans 32 x outputs a thread x stride x 4 bytes; 32 sectors for pool_avg1d_pad)
    def floor_out(size, k, s, p):
        return (size + 2 * p - k) // s + 1
    n, c, w = (2, 3, 71) if DRY else (64, 256, 16385)
    spec = [(w, floor_out(w, 4, 2, 1), 4, 2, 1, 1)]
    v = standard(spec, 1, 4, [], lanes2=True)
    P["avg1d_pad_fp32"] = ((n, c, w), torch.float32, lambda x: [F.avg_pool1d(x, 4, 2, 1)], v)
    n, c, d, h, w = (2, 2, 8, 9, 12) if DRY else (16, 32, 96, 96, 97)
    spec = [(d, floor_out(d, 3, 2, 1), 3, 2, 1, 1), (h, floor_out(h, 3, 2, 1), 3, 2, 1, 1),
            (w, floor_out(w, 3, 2, 1), 3, 2, 1, 1)]
    v = standard(spec, 0, 1, [])
    P["max3d_module_fp32"] = ((n, c, d, h, w), torch.float32, lambda x: [F.max_pool3d(x, 3, 2, 1)], v)

    # pool_avg1d_ceil_pad_modes_bf16: AvgPool1d(3, 2, 1, ceil) and avg_pool1d(5, 1, 2, exclude pad) of one bf16 x
    n, c, w = (2, 3, 70) if DRY else (128, 384, 16382)
    oa = out(w, 3, 2, 1, 1)
    spec_a, spec_b = [(w, oa, 3, 2, 1, 1)], [(w, w, 5, 1, 2, 1)]

    def pair(make_a, make_b):
        def run(x, ys):
            return [make_a(x, ys[:1]), make_b(x, ys[1:])]
        return run
    ba, wa = block_rule(3)
    bb, wb = block_rule(5)
    v = [("flat x2 (before)", pair(flat_variant("", spec_a, 2, 1, ba, wa, 0)[1],
                                   flat_variant("", spec_b, 3, 1, bb, wb, 0)[1])),
         ("lanes1 128 w4 x2", pair(flat_variant("", spec_a, 2, 1, 128, 4, 0)[1],
                                   flat_variant("", spec_b, 3, 1, 128, 4, 0)[1])),
         ("rows [1, 1024] w4 x2", pair(rows_variant("", spec_a, 2, 1, 1, 1024, 4)[1],
                                       rows_variant("", spec_b, 3, 1, 1, 1024, 4)[1]))]
    for block, warps in ((256, 4), (512, 4), (1024, 8)):
        def fused(x, ys, block=block, warps=warps):
            rows = x.numel() // x.shape[-1]
            return (avg1d_pair_fused, (triton.cdiv(x.shape[-1] + 1, block), rows), (x, ys[0], ys[1]),
                    dict(W=x.shape[-1], OA=ys[0].shape[-1], BLOCK=block), warps)
        v.append((f"fused one kernel {block} w{warps}", fused))
    P["avg1d_ceil_pad_modes_bf16"] = (
        (n, c, w), torch.bfloat16,
        lambda x: [F.avg_pool1d(x, 3, 2, 1, ceil_mode=True), F.avg_pool1d(x, 5, 1, 2, count_include_pad=False)], v)

    # pool_max2d_dilated_ceil_transposed: fp32 x [32, 64, 767, 510] pooled as x.transpose(2, 3)
    n, c, ws, hs = (2, 3, 23, 20) if DRY else (32, 64, 767, 510)
    oh_t, ow_t = out(hs, 3, 2, 1, 2), out(ws, 2, 3, 0, 3)
    spec = [(hs, oh_t, 3, 2, 1, 2), (ws, ow_t, 2, 3, 0, 3)]

    def tile_t(x, ys, bh=64, bw=32, warps=4, unroll=1):
        y = ys[0]
        grid = (x.shape[0] * x.shape[1] * triton.cdiv(oh_t, bh) * triton.cdiv(ow_t, bw),)
        return (max2d_transposed_tile, grid, (x, y), dict(HS=hs, WS=ws, OH=oh_t, OW=ow_t, BH=bh, BW=bw,
                                                          UNROLL=unroll), warps)
    def flat_t(x, ys, nanmax):
        y = ys[0]
        return (max2d_transposed_flat, (triton.cdiv(y.numel(), 512),), (x, y),
                dict(N=y.numel(), BLOCK=512, HS=hs, WS=ws, OH=oh_t, OW=ow_t, NANMAX=nanmax), 8)
    v = [("flat 512 w8 (before)", lambda x, ys: flat_t(x, ys, 0)),
         ("nanmax 512 w8 (now)", lambda x, ys: flat_t(x, ys, 1)),
         ("tile_t [64 oh, 64 ow] w8 kh loop (now)", lambda x, ys: tile_t(x, ys, 64, 64, 8, 0)),
         ("tile_t [64 oh, 32 ow] w4", tile_t),
         ("tile_t [64 oh, 64 ow] w8", lambda x, ys: tile_t(x, ys, 64, 64, 8)),
         ("tile_t [128 oh, 16 ow] w4", lambda x, ys: tile_t(x, ys, 128, 16, 4))]
    P["max2d_dilated_ceil_transposed"] = (
        (n, c, ws, hs), torch.float32,
        lambda x: [F.max_pool2d(x.transpose(2, 3), (3, 2), (2, 3), (1, 0), (2, 3), ceil_mode=True)], v)

    # pool_adaptive_max2d_none: AdaptiveMaxPool2d((None, 6)) of fp32 [128, 64, 256, 250]
    n, c, ha, wa_ = (2, 3, 5, 50) if DRY else (128, 64, 256, 250)
    bw = triton.next_power_of_2(wa_)
    kmax = max(((o + 1) * wa_ + 5) // 6 - o * wa_ // 6 for o in range(6))
    lanes = triton.next_power_of_2(kmax)

    def lanes_form(x, ys, nanmax):
        y = ys[0]
        return (adaptive_max_lanes, (triton.cdiv(y.numel(), 32),), (x, y),
                dict(N=y.numel(), BLOCK=32, LANES=lanes, W=wa_, OW=6, NANMAX=nanmax), 8)

    def rowseg(x, ys, br=8, warps=4):
        y = ys[0]
        rows = y.numel() // 6
        return (adaptive_max_rowseg, (triton.cdiv(rows, br),), (x, y),
                dict(ROWS=rows, BR=br, W=wa_, BW=bw, OW=6, BO=8), warps)
    v = [("lanes [32, 64] w8 (before)", lambda x, ys: lanes_form(x, ys, 0)),
         ("lanes [32, 64] w8 nanmax (now)", lambda x, ys: lanes_form(x, ys, 1)),
         ("lanes [32, 64] w8 nan-reduce", lambda x, ys: lanes_form(x, ys, 2)),
         ("rowseg [8, 256] w4", rowseg),
         ("rowseg [4, 256] w2", lambda x, ys: rowseg(x, ys, 4, 2))]
    P["adaptive_max2d_none"] = ((n, c, ha, wa_), torch.float32, lambda x: [F.adaptive_max_pool2d(x, (None, 6))], v)

    # pool_avg2d_nhwc_exclude_pad: fp32 x [32, 255, 255, 200] (NHWC) pooled as NCHW
    n, h, w, c = (2, 9, 11, 40) if DRY else (32, 255, 255, 200)
    oh_n, ow_n = out(h, 3, 2, 1, 1), out(w, 3, 2, 1, 1)

    def nhwc(x, ys, bt=32, bi=64, warps=4, unroll=0):
        y = ys[0]
        grid = (n * oh_n * triton.cdiv(c, bt) * triton.cdiv(ow_n, bi),)
        return (avg2d_nhwc_tile, grid, (x, y), dict(C=c, H=h, W=w, OH=oh_n, OW=ow_n, BLOCK_T=bt, BLOCK_I=bi,
                                                     UNROLL=unroll), warps)
    v = [("tile [32 c, 64 ow] w4 loop (before)", nhwc),
         ("tile [32 c, 64 ow] w4 unrolled", lambda x, ys: nhwc(x, ys, 32, 64, 4, 1)),
         ("tile [64 c, 32 ow] w4 unrolled", lambda x, ys: nhwc(x, ys, 64, 32, 4, 1)),
         ("tile [32 c, 32 ow] w4 unrolled", lambda x, ys: nhwc(x, ys, 32, 32, 4, 1))]
    P["avg2d_nhwc_exclude_pad"] = (
        (n, h, w, c), torch.float32,
        lambda x: [F.avg_pool2d(x.permute(0, 3, 1, 2), 3, 2, 1, ceil_mode=True, count_include_pad=False)], v)
    return P


# ---------------------------------------------------------------------------------------------------------------

def launch_all(launches):
    for kernel, grid, tensors, args, warps in launches:
        kernel[grid](*tensors, **args, num_warps=warps)


def census_of(kernel, tensors, args, warps):
    """PTX of one launch for sm_90a (no GPU): instructions of one thread, loads/stores by width, registers."""
    import glob
    import subprocess
    import tempfile
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    names = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16"}
    sig, cx, attrs = {}, {}, {}
    ti = 0
    for i, p in enumerate(kernel.params):
        if p.is_constexpr:
            sig[p.name] = "constexpr"
            cx[p.name] = args[p.name]
        else:
            t = tensors[ti]
            ti += 1
            sig[p.name] = "*" + names[t.dtype]
            attrs[(i,)] = [["tt.divisibility", 16]]
    c = triton.compile(ASTSource(fn=kernel, signature=sig, constexprs=cx, attrs=attrs),
                       target=GPUTarget("cuda", 90, 32), options=dict(num_warps=warps))
    ptx = c.asm["ptx"]
    ops = collections.Counter(re.findall(r"^\s+(?:@!?%p\d+\s+)?([a-z][a-z0-9_.]*)", ptx, re.M))
    ptxas = glob.glob(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))[0]
    with tempfile.TemporaryDirectory() as tmp:
        with open(tmp + "/k.ptx", "w") as f:
            f.write(ptx)
        err = subprocess.run([ptxas, "-arch=sm_90a", "-v", tmp + "/k.ptx", "-o", tmp + "/k.cubin"],
                             capture_output=True, text=True).stderr
    regs = int(re.search(r"Used (\d+) registers", err).group(1))
    loops = "bra" in ops and bool(re.search(r"bra(\.uni)?\s+\$L__BB0_\d+;\s*\n\s*\$L__BB0_\d+:\s*$", ptx, re.M))
    return dict(instr=sum(ops.values()), regs=regs, smem=c.metadata.shared,
                lds={k[10:]: n for k, n in ops.items() if k.startswith("ld.global")},
                sts={k[10:]: n for k, n in ops.items() if k.startswith("st.global")},
                loops=any(k.startswith("bra") for k in ops))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--census", action="store_true")
    ap.add_argument("--compile", action="store_true", help="time torch.compile too (about 4 s of compiling each)")
    opts = ap.parse_args()
    from triton.testing import do_bench
    dev = "cpu" if (DRY or CENSUS) else "cuda"
    results = []
    for name, entry in problems().items():
        if opts.only and name not in opts.only.split(","):
            continue
        shape, dtype, ref_fn, variants = entry[:4]
        if CENSUS:
            x = torch.empty(shape, dtype=dtype, device="meta")
        else:
            torch.manual_seed(0)
            x = torch.randn(shape, dtype=dtype, device=dev)
            if DRY:  # a NaN, which every pool must carry to its outputs as PyTorch does
                x.view(-1)[5] = float("nan")
        refs = ref_fn(x.float() if DRY else x) if not CENSUS else ref_fn(torch.empty(shape, device="meta"))
        nbytes = x.numel() * x.element_size() + sum(r.numel() for r in refs) * x.element_size()
        row = {"problem": name, "floor_ms": nbytes / BANDWIDTH * 1e3, "variants": []}
        if not (DRY or CENSUS):
            baselines = [("eager", lambda: ref_fn(x))]
            if opts.compile:
                baselines.append(("compile", torch.compile(ref_fn)))
            for label, fn in baselines:
                fn()
                row[label + "_ms"] = do_bench(fn, warmup=10, rep=50, return_mode="median")
        print(f"== {name} {list(shape)} {str(dtype)[6:]}  floor {row['floor_ms']:.3f} ms  "
              f"eager {row.get('eager_ms', 0):.3f}  compile {row.get('compile_ms', 0):.3f}", flush=True)
        for label, make in variants:
            ys = [torch.empty(r.shape, dtype=dtype, device=x.device) for r in refs]
            made = make(x, ys)
            launches = made if isinstance(made, list) else [made]
            if CENSUS:
                outs = sum(y.numel() for y in ys)
                total, parts = 0.0, []
                for kernel, grid, tensors, args, warps in launches:
                    cs = census_of(kernel, tensors, args, warps)
                    programs = 1
                    for g in grid:
                        programs *= g
                    threads = programs * warps * 32
                    total += cs["instr"] * threads
                    parts.append(f"{kernel.__name__} {cs['instr']} instr x {threads // 32} warps, regs {cs['regs']}, "
                                 f"smem {cs['smem']}, ld {cs['lds']}, st {cs['sts']}" + (" (loops)" if cs["loops"]
                                                                                          else ""))
                issue_ms = total / 32 / (132 * 4 * 1.98e9) * 1e3
                print(f"  {label:38s} {total / outs:6.1f} instr/output (static), issue >= {issue_ms:.3f} ms | "
                      + " | ".join(parts), flush=True)
                row["variants"].append(dict(variant=label, instr_per_output=total / outs, issue_ms=issue_ms))
                continue
            launch_all(launches)
            errs = []
            for y, r in zip(ys, refs):
                y, r = y.float(), r.float()
                same_nan = torch.equal(torch.isnan(y), torch.isnan(r))
                errs.append(float("inf") if not same_nan else (y.nan_to_num() - r.nan_to_num()).abs().max().item())
            err = max(errs)
            ok = err <= (0.0 if "max" in name else 1e-2 if dtype != torch.float32 else 1e-4)
            v = {"variant": label, "max_err": err, "ok": ok}
            if not DRY:
                ms = do_bench(lambda: launch_all(launches), warmup=10, rep=50, return_mode="median")
                v.update(ms=ms, floor_fraction=row["floor_ms"] / ms, vs_eager=row["eager_ms"] / ms)
                if "compile_ms" in row:
                    v["vs_compile"] = row["compile_ms"] / ms
                print(f"  {label:38s} {ms:.4f} ms  floor {v['floor_fraction']:.2f}  x{v['vs_eager']:.2f} eager  "
                      + (f"x{v['vs_compile']:.2f} compile  " if "vs_compile" in v else "")
                      + f"err {err:.1e} {'ok' if ok else 'WRONG'}", flush=True)
            else:
                print(f"  {label:38s} err {err:.1e} {'ok' if ok else 'WRONG'}", flush=True)
            row["variants"].append(v)
        results.append(row)
        if opts.json:
            with open(opts.json, "w") as f:
                json.dump(results, f, indent=1)
    if DRY and not all(v["ok"] for r in results for v in r["variants"]):
        sys.exit("some variant differs from PyTorch")


if __name__ == "__main__":
    main()
