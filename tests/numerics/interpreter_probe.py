"""What Triton's interpreter (TRITON_INTERPRET=1) runs correctly on CPU tensors, case by case.

    .venv/bin/python tests/numerics/interpreter_probe.py             # the interpreter as installed
    .venv/bin/python tests/numerics/interpreter_probe.py --patched   # with protocol.patch_interpreter()

Prints one line per case ("ok", "ok (detail)" or "FAIL ...") and, last, `PROBE-RESULT {json}`. Each case is
a small kernel checked against PyTorch. test_interpreter.py holds what each case is expected to give and fails
when that changes (a new numpy, triton or torch). docs/INTERPRETER.md explains the results.
"""

import os
import sys

os.environ["TRITON_INTERPRET"] = "1"  # a script: switch the interpreter on before triton is imported

import json  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

warnings.filterwarnings("ignore", message="Conversion of an array with ndim > 0", category=DeprecationWarning)

CASES = {}


def case(name):
    def deco(fn):
        CASES[name] = fn
        return fn
    return deco


def close(got, want, tol, what=""):
    d = (got.double() - want.double()).abs().max().item()
    assert torch.allclose(got.float(), want.float(), atol=tol, rtol=tol), f"{what}max abs diff {d:.3g}"
    return d


# ------------------------------------------------------------------------- matmul: K loop, masks, tl.dot, erf
@triton.jit
def _linear_gelu(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, sxm, sxk, swn, swk, sym, syn,
                 PREC: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):  # a runtime loop bound
        k = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * sxm + k[None, :] * sxk, mask=(rm[:, None] < M) & (k[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * swn + k[:, None] * swk, mask=(rn[None, :] < N) & (k[:, None] < K), other=0.0)
        acc = tl.dot(x.to(tl.float32), w.to(tl.float32), acc, input_precision=PREC)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    h = acc + b[None, :]
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + rm[:, None] * sym + rn[None, :] * syn, y.to(y_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def linear_gelu(dtype, prec):
    M, N, K = 37, 45, 70
    x, w, b = torch.randn(M, K).to(dtype), torch.randn(N, K).to(dtype), torch.randn(N).to(dtype)
    y = torch.empty(M, N, dtype=dtype)
    _linear_gelu[(triton.cdiv(M, 16), triton.cdiv(N, 32))](
        x, w, b, y, M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1), y.stride(0), y.stride(1),
        PREC=prec, BM=16, BN=32, BK=16)
    ref = torch.nn.functional.gelu(torch.nn.functional.linear(x.float(), w.float(), b.float())).to(dtype)
    return f"max abs diff {close(y, ref, 1e-4 if dtype == torch.float32 else 1e-2):.1e}"


case("loop range(0, K, BK) + masks + tl.dot tf32x3 + tl.erf, fp32")(lambda: linear_gelu(torch.float32, "tf32x3"))
case("same, tl.dot ieee")(lambda: linear_gelu(torch.float32, "ieee"))
case("same, tl.dot tf32")(lambda: linear_gelu(torch.float32, "tf32"))
case("same, fp16 tensors loaded and upcast .to(tl.float32)")(lambda: linear_gelu(torch.float16, "ieee"))
case("same, bf16 tensors loaded and upcast .to(tl.float32)")(lambda: linear_gelu(torch.bfloat16, "ieee"))


@triton.jit
def _dot_tile(x_ptr, w_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    x = tl.load(x_ptr + rm[:, None] * BK + rk[None, :])
    w = tl.load(w_ptr + rk[:, None] * BN + rn[None, :])
    tl.store(y_ptr + rm[:, None] * BN + rn[None, :], tl.dot(x, w))


def dot_tile(dtype, size=16):
    x, w = torch.randn(size, size).to(dtype), torch.randn(size, size).to(dtype)
    y = torch.empty(size, size)
    _dot_tile[(1,)](x, w, y, BM=size, BN=size, BK=size)
    close(y, x.float() @ w.float(), 1e-2)


case("tl.dot on fp16 operands, fp32 result")(lambda: dot_tile(torch.float16))
case("tl.dot on bf16 operands, fp32 result")(lambda: dot_tile(torch.bfloat16))
case("tl.dot 8x8x8 (the GPU needs every dim >= 16)")(lambda: dot_tile(torch.float32, 8))


@triton.jit
def _bmm(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb, rm, rn, rk = tl.arange(0, B), tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
    tl.store(c_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :],
             tl.dot(a, b, input_precision="tf32x3"))


@case("tl.dot on 3-D blocks (batched)")
def bmm():
    a, b, c = torch.randn(2, 16, 16), torch.randn(2, 16, 16), torch.empty(2, 16, 16)
    _bmm[(1,)](a, b, c, B=2, M=16, N=16, K=16)
    close(c, a @ b, 1e-4)


# ------------------------------------------------------------------------------------------------- loops
@triton.jit
def _rowsum(x_ptr, y_ptr, n_cols, stride, KIND: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    if KIND == "tl.range":
        for c0 in tl.range(0, n_cols, BLOCK):
            cols = c0 + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    elif KIND == "cdiv":
        for i in range(tl.cdiv(n_cols, BLOCK)):
            cols = i * BLOCK + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    elif KIND == "while":
        c0 = 0
        while c0 < n_cols:
            cols = c0 + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
            c0 += BLOCK
    else:
        for i in tl.static_range(7):
            cols = i * BLOCK + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def rowsum(kind):
    x, y = torch.randn(5, 203), torch.empty(5)
    _rowsum[(5,)](x, y, 203, x.stride(0), KIND=kind, BLOCK=32)
    close(y, x.sum(1), 1e-4)


case("loop tl.range(0, n, BLOCK)")(lambda: rowsum("tl.range"))
case("loop range(tl.cdiv(n, BLOCK))")(lambda: rowsum("cdiv"))
case("while loop on a runtime value")(lambda: rowsum("while"))
case("loop tl.static_range(7)")(lambda: rowsum("static"))


# ------------------------------------------------------------------------------ reductions, softmax, scans
@triton.jit
def _softmax(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


def softmax(dtype):
    x = torch.randn(7, 50).to(dtype)
    y = torch.empty_like(x)
    _softmax[(7,)](x, y, 50, x.stride(0), BLOCK=64)
    close(y, torch.softmax(x.float(), -1).to(dtype), 1e-4 if dtype == torch.float32 else 1e-2)


case("softmax: tl.max, tl.exp, tl.sum, fp32")(lambda: softmax(torch.float32))
case("softmax, fp16 in and out, fp32 math")(lambda: softmax(torch.float16))
case("softmax, bf16 in and out, fp32 math")(lambda: softmax(torch.bfloat16))


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _scans(x_ptr, c_ptr, p_ptr, a_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(c_ptr + offs, tl.cumsum(x, axis=0))
    tl.store(p_ptr + offs, tl.associative_scan(x, 0, _mul))
    tl.store(a_ptr, tl.argmax(x, axis=0))


@case("tl.cumsum, tl.associative_scan (cumprod), tl.argmax")
def scans():
    x = torch.rand(16) + 0.5
    c, p, a = torch.empty(16), torch.empty(16), torch.empty(1, dtype=torch.int32)
    _scans[(1,)](x, c, p, a, BLOCK=16)
    close(c, torch.cumsum(x, 0), 1e-5)
    close(p, torch.cumprod(x, 0), 1e-4)
    assert a.item() == x.argmax().item()


# ----------------------------------------------------------------------------------------- pointwise math
@triton.jit
def _math(x_ptr, y_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0).to(tl.float32)
    if OP == "exp":
        y = tl.exp(x)
    elif OP == "exp2":
        y = tl.exp2(x)
    elif OP == "log":
        y = tl.log(tl.abs(x) + 1.0)
    elif OP == "sqrt_rn":
        y = tl.sqrt_rn(tl.abs(x))
    elif OP == "rsqrt":
        y = tl.rsqrt(tl.abs(x) + 1.0)
    elif OP == "sigmoid":
        y = tl.sigmoid(x)
    elif OP == "erf":
        y = tl.erf(x)
    elif OP == "cos":
        y = tl.cos(x)
    elif OP == "fma":
        y = tl.fma(x, x, x)
    elif OP == "where":
        y = tl.where(x > 0, x, 0.0)
    elif OP == "maximum":
        y = tl.maximum(x, 0.0)
    elif OP == "tanh_sigmoid":
        y = 2.0 * tl.sigmoid(2.0 * x) - 1.0
    elif OP == "libdevice_tanh":
        y = tl.extra.libdevice.tanh(x)
    else:
        y = x
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=m)


def math(op, ref, dtype=torch.float32, scale=1.0):
    x = (torch.randn(100) * scale).to(dtype)
    y = torch.empty(100, dtype=dtype)
    _math[(1,)](x, y, 100, OP=op, BLOCK=128)
    return f"max abs diff {close(y, ref(x.float()).to(dtype), 1e-4 if dtype == torch.float32 else 1e-2):.1e}"


for _op, _ref in [("exp", torch.exp), ("exp2", torch.exp2), ("log", lambda x: torch.log(x.abs() + 1)),
                  ("sqrt_rn", lambda x: x.abs().sqrt()), ("rsqrt", lambda x: torch.rsqrt(x.abs() + 1)),
                  ("sigmoid", torch.sigmoid), ("erf", torch.erf), ("cos", torch.cos), ("fma", lambda x: x * x + x),
                  ("where", torch.relu), ("maximum", torch.relu)]:
    case(f"tl.{_op} fp32")(lambda op=_op, ref=_ref: math(op, ref))
case("tanh as 2*tl.sigmoid(2x)-1 (|x| up to ~15)")(lambda: math("tanh_sigmoid", torch.tanh, scale=5.0))
case("tl.erf on fp16 data upcast to fp32")(lambda: math("erf", torch.erf, torch.float16))
case("tl.exp on bf16 data upcast to fp32")(lambda: math("exp", torch.exp, torch.bfloat16))
case("libdevice.tanh (triton.language.extra.libdevice)")(lambda: math("libdevice_tanh", torch.tanh))


@triton.jit
def _exp_raw(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.exp(tl.load(x_ptr + offs)))


def exp_raw(dtype):
    x = torch.randn(16).to(dtype)
    y = torch.empty_like(x)
    _exp_raw[(1,)](x, y, BLOCK=16)
    close(y, x.float().exp().to(dtype), 1e-2)


case("tl.exp directly on fp16 values (no upcast)")(lambda: exp_raw(torch.float16))
case("tl.exp directly on bf16 values (no upcast)")(lambda: exp_raw(torch.bfloat16))


@triton.jit
def _binary(x_ptr, y_ptr, o_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    if OP == "add":
        r = x + y
    elif OP == "mul":
        r = x * y
    elif OP == "where":
        r = tl.where(x > y, x, y)
    elif OP == "maximum":
        r = tl.maximum(x, y)
    elif OP == "neg_abs":
        r = -x + tl.abs(y)
    elif OP == "scalar":
        r = x * 2.5 - 1.0
    elif OP == "clamp":
        r = tl.clamp(x, -0.5, y)
    elif OP == "max":
        r = tl.zeros_like(x) + tl.max(x, axis=0)
    elif OP == "argmin":
        r = tl.zeros_like(x) + tl.argmin(x, axis=0).to(x.dtype)
    elif OP == "cumsum":
        r = tl.cumsum(x, axis=0)
    else:
        r = tl.zeros_like(x) + tl.sum(x, axis=0)
    tl.store(o_ptr + offs, r, mask=m)


def binary(op, ref, dtype):
    x, y = torch.randn(20).to(dtype), torch.randn(20).to(dtype)
    o = torch.empty_like(x)
    _binary[(1,)](x, y, o, 20, OP=op, BLOCK=32)
    close(o, ref(x.float(), y.float()), 5e-2)


for _dt in (torch.float16, torch.bfloat16):
    _n = str(_dt).replace("torch.", "")
    case(f"{_n} x + y without upcast")(lambda dt=_dt: binary("add", lambda a, b: a + b, dt))
    case(f"{_n} x * y without upcast")(lambda dt=_dt: binary("mul", lambda a, b: a * b, dt))
    case(f"{_n} tl.where(x > y, x, y) without upcast")(lambda dt=_dt: binary("where", torch.maximum, dt))
    case(f"{_n} tl.maximum without upcast")(lambda dt=_dt: binary("maximum", torch.maximum, dt))
    case(f"{_n} -x + tl.abs(y) without upcast")(lambda dt=_dt: binary("neg_abs", lambda a, b: -a + b.abs(), dt))
    case(f"{_n} x * 2.5 - 1.0 without upcast")(lambda dt=_dt: binary("scalar", lambda a, b: a * 2.5 - 1.0, dt))
    case(f"{_n} tl.clamp without upcast")(lambda dt=_dt: binary("clamp", lambda a, b: torch.minimum(a.clamp(min=-0.5), b), dt))
    case(f"{_n} tl.sum without upcast")(lambda dt=_dt: binary("sum", lambda a, b: torch.zeros_like(a) + a.sum(), dt))
    case(f"{_n} tl.max without upcast")(lambda dt=_dt: binary("max", lambda a, b: torch.zeros_like(a) + a.max(), dt))
    case(f"{_n} tl.argmin without upcast")(lambda dt=_dt: binary("argmin", lambda a, b: torch.zeros_like(a) + a.argmin(), dt))
    case(f"{_n} tl.cumsum without upcast")(lambda dt=_dt: binary("cumsum", lambda a, b: a.cumsum(0), dt))


# ------------------------------------------------------------------------------------------------- casts
@triton.jit
def _downcast(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m).to(y_ptr.dtype.element_ty), mask=m)


def downcast(dtype):
    x = torch.randn(1000) * 10
    y = torch.empty(1000, dtype=dtype)
    _downcast[(1,)](x, y, 1000, BLOCK=1024)
    want = x.to(dtype)
    if not torch.equal(y, want):
        d = (y.float() - want.float()).abs().max().item()
        raise AssertionError(f"{int((y != want).sum())} of 1000 differ from PyTorch's rounding, max {d:.3g}")


case("fp32 -> fp16 cast rounds as PyTorch does")(lambda: downcast(torch.float16))
case("fp32 -> bf16 cast rounds as PyTorch does")(lambda: downcast(torch.bfloat16))


@triton.jit
def _int_casts(i_ptr, b_ptr, h_ptr, j_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(i_ptr + offs)
    b = i.to(tl.bfloat16)
    tl.store(b_ptr + offs, b)
    tl.store(h_ptr + offs, b.to(tl.float16))
    tl.store(j_ptr + offs, (b * 2.0).to(tl.int32))


@case("int32 <-> bf16 <-> fp16 casts")
def int_casts():
    i = torch.arange(-8, 8, dtype=torch.int32)
    b, h, j = torch.empty(16, dtype=torch.bfloat16), torch.empty(16, dtype=torch.float16), torch.empty_like(i)
    _int_casts[(1,)](i, b, h, j, BLOCK=16)
    assert torch.equal(b, i.to(torch.bfloat16)), b
    assert torch.equal(h, i.to(torch.float16)), h
    assert torch.equal(j, i * 2), j


# ------------------------------------------------------------------------------- memory, views, integers
@triton.jit
def _strided(x_ptr, y_ptr, M, N, sxm, sxn, BM: tl.constexpr, BN: tl.constexpr):
    rm, rn = tl.arange(0, BM), tl.arange(0, BN)
    msk = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * sxm + rn[None, :] * sxn, mask=msk, other=0.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], x + 1.0, mask=msk)


@case("strided views: .t() and .expand() inputs (stride 0)")
def strided():
    for x in (torch.randn(10, 12).t(), torch.randn(1, 10).expand(12, 10)):
        y = torch.empty(12, 10)
        _strided[(1,)](x, y, 12, 10, x.stride(0), x.stride(1), BM=16, BN=16)
        close(y, x + 1, 0)


@triton.jit
def _desc(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    o = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm, pn = tl.program_id(0), tl.program_id(1)
    o.store([pm * BM, pn * BN], d.load([pm * BM, pn * BN]) * 2.0)


@case("tl.make_tensor_descriptor load/store (ragged edges)")
def desc():
    x = torch.randn(20, 40)
    y = torch.zeros_like(x)
    _desc[(2, 3)](x, y, 20, 40, BM=16, BN=16)
    close(y, 2 * x, 0)


@triton.jit
def _shapes(x_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK * BLOCK)
    x2 = tl.reshape(tl.load(x_ptr + offs), (BLOCK, BLOCK))
    c = tl.clamp(tl.trans(x2) + tl.permute(x2, (1, 0)), -1.0, 1.0) * tl.full((BLOCK, BLOCK), 2.0, tl.float32)
    c = tl.floor(c * 3.0) + tl.ceil(c)
    c += tl.broadcast_to(tl.sum(x2, axis=1)[:, None], (BLOCK, BLOCK))
    tl.store(o_ptr + offs, tl.reshape(c, (BLOCK * BLOCK,)))


@case("tl.reshape, trans, permute, full, clamp, floor, ceil, broadcast_to")
def shapes():
    x, o = torch.randn(64), torch.empty(64)
    _shapes[(1,)](x, o, BLOCK=8)
    x2 = x.view(8, 8)
    c = torch.clamp(x2.t() + x2.t(), -1, 1) * 2
    close(o.view(8, 8), torch.floor(c * 3) + torch.ceil(c) + x2.sum(1)[:, None], 1e-5)


@triton.jit
def _atomic(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(y_ptr, tl.sum(tl.load(x_ptr + offs, mask=offs < n, other=0.0), axis=0))


@case("tl.atomic_add across programs")
def atomic():
    x, y = torch.randn(100), torch.zeros(1)
    _atomic[(4,)](x, y, 100, BLOCK=32)
    close(y, x.sum().reshape(1), 1e-4)


@triton.jit
def _idiv(x_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    tl.store(q_ptr + offs, x // 3, mask=m)
    tl.store(r_ptr + offs, x % 3, mask=m)


@case("integer // and % on negative numbers")
def idiv():
    x = torch.arange(-10, 10, dtype=torch.int32)
    q, r = torch.empty_like(x), torch.empty_like(x)
    _idiv[(1,)](x, q, r, 20, BLOCK=32)
    assert torch.equal(q, torch.div(x, 3, rounding_mode="trunc")) and torch.equal(r, torch.fmod(x, 3))
    return "C semantics (truncate), as on the GPU: not Python's/PyTorch's floor"


@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64}, num_warps=8)], key=["n"])
@triton.jit
def _tuned(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@case("@triton.autotune with two configs")
def tuned():
    x = torch.randn(100)
    y = torch.empty_like(x)
    _tuned[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](x, y, 100)
    close(y, x + 1, 0)
    return f"ran BLOCK={_tuned.best_config.kwargs['BLOCK']}"


@case("torch.cuda.device(cpu tensor's device) in a launcher")
def cuda_device_guard():
    with torch.cuda.device(torch.empty(1).device):
        pass


@case("tl.arange(0, 48): not a power of 2")
def arange_48():
    x, y = torch.randn(48), torch.empty(48)
    _copy[(1,)](x, y, 48, BLOCK=48)


@triton.jit
def _copy(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@case("speed: cost per program")
def speed():
    x = torch.randn(1 << 16)
    o = torch.empty_like(x)
    _copy[(16,)](x, o, 1 << 16, BLOCK=4096)
    t = time.perf_counter()
    _copy[(1024,)](x, o, 1 << 16, BLOCK=64)
    many = time.perf_counter() - t
    t = time.perf_counter()
    _copy[(16,)](x, o, 1 << 16, BLOCK=4096)
    few = time.perf_counter() - t
    return f"{many / 1024 * 1e3:.2f} ms per program (1024 x 64 elements), {few * 1e3:.0f} ms for 16 x 4096"


def main(argv):
    if "--patched" in argv:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from protocol import patch_interpreter
        patch_interpreter()
    print(f"numpy {np.__version__}, torch {torch.__version__}, triton {triton.__version__}"
          f"{', patched' if '--patched' in argv else ''}")
    results = {}
    for name, fn in CASES.items():
        torch.manual_seed(0)
        try:
            detail = fn()
            results[name] = "ok" + (f" ({detail})" if detail else "")
        except Exception as e:  # every case reports; none stops the others
            msg = str(e).splitlines()[0][:160] if str(e) else ""
            results[name] = f"FAIL {type(e).__name__}: {msg}"
            if os.environ.get("VERBOSE"):
                traceback.print_exc()
    width = max(map(len, results))
    for name, result in results.items():
        print(f"{name:<{width}}  {result}")
    print("PROBE-RESULT " + json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
