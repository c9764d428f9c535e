"""The `_tf32_hi` / `_dot_tf32x3` helpers of fp32 attention kernels (the three-TF32-dot product, with the
operands split by the kernel so that the query block is split once): taken from a generated file and run by
Triton's interpreter. The interpreter's tl.dot is exact fp32, so here a "tf32" dot first truncates its operands
to TF32 (the top 19 bits), as the H200's tensor cores do (docs/NUMERICS.md): then one TF32 dot misses 1e-4
against float64 and the three-dot product does not. Also: hi is a TF32 number and hi + lo == x exactly; NaN,
inf and signed zeros survive the split; an infinite operand gives inf where fp32 does, not NaN."""

import textwrap

from .paths import run_on_corpus_problem

SCRIPT = textwrap.dedent(
    r'''
    import importlib.util, math, sys
    import numpy as np
    import torch
    import triton
    import triton.language as tl
    from triton._C.libtriton import ir
    from triton.runtime import interpreter

    exact_dot = interpreter.InterpreterBuilder.create_dot

    def tf32_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        # TF32 tensor cores read an fp32 operand's top 19 bits
        if input_precision == ir.INPUT_PRECISION.TF32 and a.data.dtype == np.float32:
            a = interpreter.TensorHandle((a.data.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32), a.dtype)
            b = interpreter.TensorHandle((b.data.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32), b.dtype)
        return exact_dot(self, a, b, d, input_precision, max_num_imprecise_acc)

    interpreter.InterpreterBuilder.create_dot = tf32_dot

    spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    HI, DOT = gen._tf32_hi, gen._dot_tf32x3

    @triton.jit
    def split_kernel(x_ptr, hi_ptr, lo_ptr, N: tl.constexpr, PRECISION: tl.constexpr):
        offs = tl.arange(0, N)
        x = tl.load(x_ptr + offs)
        hi = HI(x, PRECISION)
        tl.store(hi_ptr + offs, hi)
        tl.store(lo_ptr + offs, x - hi)

    @triton.jit
    def dot_kernel(a_ptr, b_ptr, c_ptr, o_ptr, PRECISION: tl.constexpr):
        r = tl.arange(0, 32)
        a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
        b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
        c = tl.load(c_ptr + r[:, None] * 32 + r[None, :])
        a_hi = HI(a, PRECISION)
        b_hi = HI(b, PRECISION)
        tl.store(o_ptr + r[:, None] * 32 + r[None, :], DOT(a_hi, a - a_hi, b_hi, b - b_hi, c, PRECISION))

    failures = []
    rng = np.random.default_rng(3)
    special = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan, 3.0e38, -3.0e38, 1.1754943508222875e-38, 1e-40,
               1.401298464324817e-45]
    bits = list(np.array(special, dtype=np.float32).view(np.uint32))
    bits += [0x7FFFFFFF, 0xFFFFF000, 0x7F800001, 0x3F800FFF, 0x3F801000, 0x3F801001]  # NaN payloads; halfway
    vals = (rng.standard_normal(1024 - len(bits)) * 10.0 ** rng.integers(-30, 30, 1024 - len(bits))).astype(np.float32)
    bits += list(vals.view(np.uint32))
    x = torch.from_numpy(np.array(bits, dtype=np.uint32).view(np.float32).copy())
    n = x.numel()
    for precision in ("tf32x3", "tf32", "ieee"):
        hi, lo = torch.empty_like(x), torch.empty_like(x)
        split_kernel[(1,)](x, hi, lo, N=n, PRECISION=precision)
        for xi, hb, h, l in zip(x.tolist(), hi.view(torch.int32).tolist(), hi.tolist(), lo.tolist()):
            if math.isnan(xi):
                ok = math.isnan(h)
            elif precision != "tf32x3":
                ok = h == xi  # lo is not used then
            elif math.isinf(xi):
                ok = h == xi
            else:
                # rounded to nearest: lo is at most half of hi's last place (2^-136 apart below 2^-126)
                bound = max(abs(xi) * 2.0 ** -11, 2.0 ** -137)
                ok = (hb & 0x1FFF) == 0 and h + l == xi and (math.isinf(h) or abs(l) <= bound)
                ok = ok and (xi != 0.0 or math.copysign(1, h) == math.copysign(1, xi))
            if not ok:
                failures.append(f"{precision}: split({xi!r}) = {h!r} + {l!r}")

    # products: a [32, 32] @ b + c against float64; tf32x3 within fp32 accuracy, a single TF32 dot not
    a = torch.randn(32, 32, dtype=torch.float32)
    b = torch.randn(32, 32, dtype=torch.float32)
    c = torch.randn(32, 32, dtype=torch.float32)
    want = a.double() @ b.double() + c.double()
    for precision, bound in (("tf32x3", 2e-5), ("ieee", 2e-5)):
        o = torch.empty_like(c)
        dot_kernel[(1,)](a, b, c, o, PRECISION=precision)
        err = (o.double() - want).abs().max().item()
        if not err < bound:
            failures.append(f"{precision}: max error {err:.2e} against float64 (bound {bound:.0e})")
    o = torch.empty_like(c)
    dot_kernel[(1,)](a, b, c, o, PRECISION="tf32")
    err = (o.double() - want).abs().max().item()
    if not err > 1e-4:
        failures.append(f"tf32: max error {err:.2e}: the emulated TF32 truncation did not take effect")

    # an infinite operand: fp32 gives +-inf (or NaN where inf meets 0), the split must not turn inf into NaN
    b_inf = b.clone()
    b_inf[5, 7] = math.inf
    o = torch.empty_like(c)
    dot_kernel[(1,)](a, b_inf, c, o, PRECISION="tf32x3")
    ref = a @ b_inf + c
    same = (torch.isnan(o) == torch.isnan(ref)) & (torch.isinf(o) == torch.isinf(ref))
    if not bool(same.all()) or not bool(torch.isinf(o[:, 7]).all()):
        failures.append(f"tf32x3 with an inf operand: {o[:4, 7].tolist()} expected {ref[:4, 7].tolist()}")
    print("\n".join(failures))
    print("FAILURES", len(failures))
    '''
)


def test_tf32_split_helpers(tmp_path):
    run_on_corpus_problem(tmp_path, "attn_sdpa_basic",
                          ["batch_size=1", "num_heads=1", "seq_len=16", "head_dim=16"], SCRIPT)
