"""The `_round_tf32` helper that fp32 convolution kernels apply to their tl.dot operands under TF32: taken from a
generated file and run by Triton's interpreter on special and random values, against an independent rounding in
float64 arithmetic (to nearest with 10 stored mantissa bits, ties to even, as cuDNN rounds; measured in
docs/NUMERICS.md). On the CPU the generated launchers never ask for TF32 (PyTorch's CPU convs are full fp32), so
this is where the branch is exercised."""

import textwrap

from .paths import run_on_corpus_problem

SCRIPT = textwrap.dedent(
    r'''
    import importlib.util, math, struct, sys
    import numpy as np
    import torch
    import triton
    import triton.language as tl

    spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    ROUND = gen._round_tf32

    @triton.jit
    def kernel(x_ptr, y_ptr, N: tl.constexpr, PRECISION: tl.constexpr):
        offs = tl.arange(0, N)
        tl.store(y_ptr + offs, ROUND(tl.load(x_ptr + offs), PRECISION))

    def expected(x):
        if math.isnan(x) or math.isinf(x) or x == 0.0:
            return x
        m, e = math.frexp(abs(x))                    # abs(x) = m * 2**e, 0.5 <= m < 1
        quantum = 2.0 ** max(e - 11, -136)           # 11 significant bits; subnormals: a fixed quantum
        q = round(abs(x) / quantum) * quantum         # exact division; Python rounds halves to even
        q = math.copysign(q, x)
        return q if abs(q) < 2.0 ** 128 else math.copysign(math.inf, x)

    def f32(bits):
        return struct.unpack("<f", struct.pack("<I", bits))[0]

    values = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan, 3.4028234663852886e38, -3.4028234663852886e38,
              1.1754943508222875e-38, 1e-40, -3e-42, 1.401298464324817e-45]
    for base in (0x3F800000, 0xBF812345 & ~0x1FFF, 0x00400000 & ~0x1FFF, 0x7F000000):
        for low in (0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x0001):   # below, at and above the halfway point
            values.append(f32(base | low))
    gen_rng = np.random.default_rng(7)
    values += list(gen_rng.standard_normal(200).astype(np.float32) * 10.0 ** gen_rng.integers(-30, 30, 200))
    bits = [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]
    bits.append(0x7F800001)                                  # a NaN whose payload is only in the dropped bits
    n = 1 << (len(bits) - 1).bit_length()
    bits += [0x3F800000] * (n - len(bits))
    x = torch.tensor(np.array(bits, dtype=np.uint32).view(np.int32)).view(torch.float32)
    failures = 0
    for precision in ("tf32", "tf32x3"):
        y = torch.empty_like(x)
        kernel[(1,)](x, y, N=n, PRECISION=precision)
        for xi, yi in zip(x.tolist(), y.tolist()):
            want = expected(xi) if precision == "tf32" else xi
            same = (math.isnan(want) and math.isnan(yi)) or (want == yi and math.copysign(1, want) == math.copysign(1, yi))
            if not same:
                failures += 1
                print(f"{precision}: {xi!r} -> {yi!r}, expected {want!r}")
    print("FAILURES", failures)
    '''
)


def test_round_tf32_helper(tmp_path):
    run_on_corpus_problem(tmp_path, "conv_2d_basic", ["batch_size=1", "height=5", "width=5"], SCRIPT)
