"""fmod, remainder (Python's %) and floor division (Python's //, torch.floor_divide, div with rounding_mode='floor')
of floating tensors (src/trace/math_fns.cpp: Op::Fmod, the _fmod helper of every generated file that uses it), run
by Triton's interpreter against eager PyTorch on the CPU, bit for bit ("exact": the same values, NaN where eager
has NaN, the sign of every zero), on inputs with NaN, +-inf, +-0.0, ties, huge and tiny values, divisors that are
zero or infinite, numbers on either side, 16-bit tensors, and integer tensors (C's % and / corrected as ATen's
div_floor_integer and remainder do; an integer division by a zero element is undefined on the GPU, an error in
eager on the CPU, so none is tried). 16-bit floor division by a tensor rounds each step
in the 16-bit type on CUDA (as ATen's kernel does there) and in float32 on the CPU: those cases are compared by
allclose at 1e-2.
Eager's vectorized float32 fmod on the CPU is itself inexact where |a / b| overflows float32 (a subnormal divisor
gives NaN there); CUDA's fmodf is exact. So _fmod is also checked alone, on random bit patterns (every exponent,
subnormals, infinities, NaNs), against fmod in float64, which is exact for float32 operands."""

from .paths import convert_forward, run_interpreted
from .test_math_functions import RUNNER, SPECIAL, check_cases

DIVISORS = ("torch.cat([torch.tensor([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1e-3, -7e-3, 1e-30,"
            " 1e30, 0.5, -0.5, 3.0, -3.0, 2.5, 0.1]), torch.randn(1314) * 2])")
WIDE = "torch.randn(37, 29) * 50"
SMALL = "torch.randn(37, 29) * 3"
HALF = "(torch.randn(37, 29) * 40).half()"
INTS = "torch.randint(-50, 50, (37, 29))"
NONZERO = "(torch.randint(1, 9, (37, 29)) * (torch.randint(0, 2, (37, 29)) * 2 - 1))"

CASES = [
    ("torch.fmod(x, y)", "x, y", f"{SPECIAL}, {DIVISORS}", "exact", 0),
    ("torch.remainder(x, y)", "x, y", f"{SPECIAL}, {DIVISORS}", "exact", 0),
    ("x % y", "x, y", f"{SPECIAL}, torch.flip({DIVISORS}, [0])", "exact", 0),
    ("x // y", "x, y", f"{SPECIAL}, {DIVISORS}", "exact", 0),
    ("torch.floor_divide(x, y)", "x, y", f"{WIDE}, {SMALL}", "exact", 0),
    ("torch.div(x, y, rounding_mode='floor')", "x, y", f"{WIDE}, torch.randn(29)", "exact", 0),
    ("x.fmod(2.5) + x.remainder(-0.3)", "x", SPECIAL, "exact", 0),
    ("x % 7 + x // 7", "x", SPECIAL, "exact", 0),
    ("x // 0.1", "x", "torch.arange(-300, 301) * 0.1", "exact", 0),
    ("x // -2.5", "x", SPECIAL, "exact", 0),
    ("torch.div(x, 0.0, rounding_mode='floor')", "x", SPECIAL, "exact", 0),
    ("7.5 % y + 3 // y", "x, y", f"{WIDE}, {SMALL}", "exact", 0),
    ("torch.remainder(-2.0, y)", "y", DIVISORS, "exact", 0),
    ("x.t() % y", "x, y", f"torch.randn(29, 37) * 9, torch.randn(37, 1) + 2", "exact", 0),
    ("x % y", "x, y", f"{HALF}, (torch.rand(29) * 4 + 0.25).half()", "exact", 0),
    ("torch.fmod(x, 0.5) + x % -1.25", "x", "(torch.randn(301) * 40).bfloat16()", "exact", 0),
    ("x // 0.75", "x", HALF, "exact", 0),
    ("x // y", "x, y", f"{HALF}, (torch.rand(37, 29) + 0.2).half()", "close", 1e-2),
    ("torch.floor_divide(x, y)", "x, y", "(torch.randn(301) * 9).bfloat16(), (torch.rand(301) + 0.3).bfloat16()",
     "close", 1e-2),
    ("(x % 3.0) * torch.sigmoid(x) + x.sum(dim=-1, keepdim=True) % 5", "x", WIDE, "close", 1e-4),
    # integers: C's % and / corrected as ATen's integer kernels (negative operands on either side)
    ("x % y", "x, y", f"{INTS}, {NONZERO}", "exact", 0),
    ("x // y", "x, y", f"{INTS}, {NONZERO}", "exact", 0),
    ("torch.fmod(x, y) + torch.remainder(x, -7) * 100 + torch.floor_divide(x, -3) * 10000", "x, y",
     f"{INTS}, {NONZERO}", "exact", 0),
    ("x // 4 + x % 4 * 1000 + 37 // y + (-37) % y * 1000", "x, y", f"{INTS}.int(), {NONZERO}.int()", "exact", 0),
    ("torch.div(x, y, rounding_mode='floor') + x.t() % 6", "x, y", "torch.randint(-99, 99, (29, 29)), "
     "torch.tensor(-4)", "exact", 0),
    ("x % 2.5 + x // 1.5", "x", INTS, "exact", 0),  # an integer tensor and a float number compute in float32
]


BITS = "torch.randint(-2**31, 2**31 - 1, (30000,), dtype=torch.int64).to(torch.int32).view(torch.float32)"
# (converted expression, the exact reference evaluated by eager, parameters, inputs)
EXACT_CASES = [
    ("torch.fmod(x, y)", "torch.fmod(x.double(), y.double()).float()", "x, y", f"{BITS}, {BITS}"),
    # the exponents apart by 0-60 (one or two steps of _fmod's loop), the divisors near a power of two
    ("torch.fmod(x, y)", "torch.fmod(x.double(), y.double()).float()", "x, y",
     "torch.randn(30000) * torch.exp2(torch.randint(0, 60, (30000,)).float()), "
     "torch.exp2(torch.randint(-20, 20, (30000,)).float()) * (1 + torch.randn(30000) * 1e-6)"),
]


def test_fmod_functions(tmp_path):
    check_cases(tmp_path, "fmod", CASES)


def test_fmod_helper_exact(tmp_path):
    jobs = []
    for i, (expr, exact, params, inputs) in enumerate(EXACT_CASES):
        # (converted with plain inputs of the same shape: the tracer does not run Tensor.view(dtype))
        gen = convert_forward(tmp_path, f"fmod_exact{i}", expr, "torch.randn(30000), torch.randn(30000)", params)
        jobs.append({"gen": str(gen), "expr": exact, "params": [p.strip() for p in params.split(",")],
                     "inputs": inputs, "mode": "exact", "tol": 0})
    failures = run_interpreted(RUNNER, jobs, timeout=900)
    assert not failures, "\n".join(failures)
