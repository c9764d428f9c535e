"""Pointwise math functions (src/trace/math_fns.cpp, the unaries of torch_api.cpp, F.logsigmoid), run by Triton's
interpreter against eager PyTorch on the CPU, on inputs with NaN, +-inf, -0.0, ties (n + 0.5), huge and tiny
values, and in float16/bfloat16:
- "exact": the same dtype, the same bits (NaN where eager has NaN, the sign of every zero): floor, ceil, trunc,
  round (ties to even, decimals=), frac, sign, the class tests, nan_to_num, logical_xor, division with
  rounding_mode='trunc'; and integer inputs, which floor/ceil/round/trunc return unchanged;
- "rel": the relative error, element by element, within `tol` of eager: log1p, log_sigmoid, sinh, cosh, tan
  near 0 and at their extremes, where a shortcut (log(1 + x), exp(x) - exp(-x)) loses every digit;
- "close": allclose with NaN where eager has NaN (atol = rtol = 1e-4, 1e-2 in 16-bit).
The runner applies protocol.patch_interpreter() (the interpreter's bf16 casts round to nearest even, as the GPU's
do: docs/INTERPRETER.md). sinh and cosh between |x| = 88.7 and 89.4 are compared on a
short tensor: eager's vectorized CPU kernels overflow there (exp(x) does), its scalar path and CUDA do not."""

from .paths import convert_forward, forward_runner, run_interpreted

SPECIAL = (
    "torch.cat([torch.tensor([float('nan'), float('inf'), float('-inf'), -0.0, 0.0, 0.5, 1.5, 2.5, -0.5, -1.5,"
    " -2.5, 3.5, 1e-8, -1e-8, 1e30, -1e30, 8388607.5, 8388608.0, 8388609.0, 4194303.5, 0.49999997, -0.49999997,"
    " 1.0, -1.0, 100.0, -100.0, 0.3, -0.3]), torch.randn(1000) * 4, torch.randint(-40, 40, (301,)) * 0.5])"
)
WIDE = "torch.randn(37, 29) * 3"
TINY = "torch.where(torch.rand(2001) < 0.5, -1.0, 1.0) * torch.exp(torch.rand(2001) * -40 - 1)"
HALF = f"({SPECIAL}).clamp(-6e4, 6e4).half()"
BF16 = f"({SPECIAL}).bfloat16()"
INTS = "torch.randint(-50, 50, (37, 29))"

# (forward expression, parameters, get_inputs()' expression, mode, tolerance)
CASES = [
    # rounding, exact (ties to even, -0.0 kept)
    ("torch.floor(x)", "x", SPECIAL, "exact", 0),
    ("x.ceil()", "x", SPECIAL, "exact", 0),
    ("torch.trunc(x)", "x", SPECIAL, "exact", 0),
    ("x.fix()", "x", SPECIAL, "exact", 0),
    ("torch.frac(x)", "x", SPECIAL, "exact", 0),
    ("torch.round(x)", "x", SPECIAL, "exact", 0),
    ("x.round()", "x", HALF, "exact", 0),
    ("torch.round(x) + x.floor() * 2", "x", BF16, "exact", 0),
    ("torch.round(x, decimals=2)", "x", SPECIAL, "exact", 0),
    ("x.round(decimals=-1)", "x", SPECIAL, "exact", 0),
    ("torch.round(x, decimals=1)", "x", HALF, "exact", 0),
    ("torch.trunc(x).frac() + x.frac()", "x", BF16, "exact", 0),
    ("x.t().floor()", "x", WIDE, "exact", 0),  # a permuted (non-contiguous) view
    ("torch.floor(x) + torch.ceil(x) * 3 + torch.round(x) * 5 + torch.trunc(x) * 7", "x", INTS, "exact", 0),
    ("torch.div(x, y, rounding_mode='trunc')", "x, y", f"{SPECIAL}, torch.randn(1329) * 2", "exact", 0),
    ("x.div(2.5, rounding_mode='trunc')", "x", SPECIAL, "exact", 0),
    ("torch.div(x, 0.1, rounding_mode='trunc') + x.div(-3, rounding_mode='trunc')", "x", SPECIAL, "exact", 0),
    # tenths divided by 0.3: x * float32(1 / 0.3) (CUDA's form) moves 42 of these 601 quotients across an integer
    ("x.div(0.3, rounding_mode='trunc')", "x", "torch.arange(-300, 301) * 0.1", "exact", 0),
    ("torch.div(x, 0.7, rounding_mode='trunc')", "x", INTS, "exact", 0),
    ("torch.div(x, y, rounding_mode='trunc')", "x, y", f"{WIDE}, torch.tensor(0.3)", "exact", 0),
    ("torch.divide(x, y, rounding_mode='trunc')", "x, y", "(torch.randn(37, 29) * 9).half(), "
     "torch.randn(37, 29).half()", "exact", 0),
    # sign and the class tests, exact
    ("torch.sign(x)", "x", SPECIAL, "exact", 0),
    ("x.sgn() * 3", "x", HALF, "exact", 0),
    ("torch.sign(x)", "x", INTS, "exact", 0),
    ("torch.isnan(x)", "x", SPECIAL, "exact", 0),
    ("x.isinf()", "x", SPECIAL, "exact", 0),
    ("torch.isposinf(x) | torch.isneginf(x).logical_not()", "x", BF16, "exact", 0),
    ("x.isneginf()", "x", HALF, "exact", 0),
    ("torch.isfinite(x)", "x", SPECIAL, "exact", 0),
    ("torch.isnan(x) | x.isinf() | torch.isfinite(x)", "x", INTS, "exact", 0),
    ("torch.nan_to_num(x)", "x", SPECIAL, "exact", 0),
    ("x.nan_to_num(nan=1.5, posinf=7.0, neginf=-8.0)", "x", SPECIAL, "exact", 0),
    ("torch.nan_to_num(x)", "x", HALF, "exact", 0),
    ("torch.nan_to_num(x, posinf=1e30)", "x", BF16, "exact", 0),
    ("torch.nan_to_num(x) + 1", "x", INTS, "exact", 0),
    ("torch.logical_xor(x, y)", "x, y", f"{SPECIAL}, torch.randint(0, 2, (1329,)).float()", "exact", 0),
    ("x.logical_xor(y > 0)", "x, y", f"{INTS}, torch.randn(29)", "exact", 0),
    # log1p and logsigmoid: relative error near 0, where log(1 + x) has nothing left
    ("torch.log1p(x)", "x", TINY, "rel", 1e-6),
    ("x.log1p()", "x", "torch.rand(999) * 100 - 0.9999", "rel", 1e-6),
    ("torch.log1p(x)", "x", "torch.tensor([-1.0, -2.0, float('inf'), float('nan'), -0.0, 0.0, 1e30, -0.9999999])",
     "rel", 1e-6),
    ("F.logsigmoid(x)", "x", "torch.rand(1001) * 80", "rel", 1e-6),
    ("nn.LogSigmoid()(x)", "x", SPECIAL, "close", 1e-4),
    ("F.logsigmoid(x) * 2", "x", HALF, "close", 1e-2),
    ("F.logsigmoid(x)", "x", BF16, "close", 1e-2),
    # log2, log10, exp2
    ("torch.log2(x)", "x", SPECIAL, "close", 1e-4),
    ("x.log10()", "x", SPECIAL, "close", 1e-4),
    ("torch.log10(x) + x.log2()", "x", "torch.rand(1001) * 1e4", "rel", 1e-6),
    ("torch.exp2(x)", "x", "torch.randn(1001) * 30", "rel", 1e-6),
    ("torch.exp2(x)", "x", INTS, "close", 1e-4),
    ("x.log10() + torch.exp2(x)", "x", HALF, "close", 1e-2),
    # sinh, cosh, tan
    ("torch.sinh(x)", "x", TINY, "rel", 1e-6),
    ("x.sinh()", "x", "torch.linspace(-88.5, 88.5, 2001)", "rel", 2e-6),
    ("torch.cosh(x)", "x", "torch.linspace(-88.5, 88.5, 2001)", "rel", 2e-6),
    ("torch.stack([x.sinh(), x.cosh()])", "x", "torch.tensor([88.8, -89.0, 89.4, -89.41, 89.42, 100.0])", "rel", 2e-6),
    ("x.cosh() * 2 + torch.sinh(x)", "x", SPECIAL, "close", 1e-4),
    ("torch.sinh(x) * x.cosh()", "x", HALF, "close", 1e-2),
    ("torch.tan(x)", "x", "torch.rand(2001) * 3.14 - 1.57", "rel", 1e-5),
    ("x.tan()", "x", BF16, "close", 1e-2),
    ("torch.sinh(x) * 2 + torch.cosh(x) * 3 + torch.tan(x)", "x", INTS, "close", 1e-4),
    # lerp, addcmul, addcdiv
    ("torch.lerp(x, y, 0.3)", "x, y", f"{WIDE}, {WIDE}", "close", 1e-4),
    ("x.lerp(y, 0.7)", "x, y", f"{WIDE}, {WIDE}", "close", 1e-4),
    ("torch.lerp(x, y, -0.2)", "x, y", f"{WIDE}, torch.randn(29)", "close", 1e-4),
    ("torch.lerp(x, y, w)", "x, y, w", f"{WIDE}, {WIDE}, torch.rand(37, 29) * 2 - 0.5", "close", 1e-4),
    ("torch.lerp(x.t(), y, w)", "x, y, w", f"torch.randn(29, 37), torch.randn(37, 29), torch.rand(29) * 1.5",
     "close", 1e-4),
    ("torch.lerp(x, y, w)", "x, y, w", f"({WIDE}).half(), ({WIDE}).half(), torch.rand(37, 29).half()", "close", 1e-2),
    ("x.lerp(y, 0.9)", "x, y", f"({WIDE}).bfloat16(), ({WIDE}).bfloat16()", "close", 1e-2),
    ("torch.addcmul(x, y, w)", "x, y, w", f"{WIDE}, {WIDE}, torch.randn(29)", "close", 1e-4),
    ("x.addcmul(y, w, value=-0.5)", "x, y, w", f"{WIDE}, {WIDE}, {WIDE}", "close", 1e-4),
    ("torch.addcmul(x, y, w, value=3)", "x, y, w", f"{INTS}, {INTS}, {INTS}", "exact", 0),
    ("torch.addcdiv(x, y, w)", "x, y, w", f"{WIDE}, {WIDE}, torch.rand(37, 29) + 0.5", "close", 1e-4),
    ("x.addcdiv(y, w, value=2.5)", "x, y, w", f"{WIDE}, {WIDE}, torch.rand(37, 29) + 0.5", "close", 1e-4),
    ("torch.addcdiv(x, y, w, value=0.1)", "x, y, w",
     f"({WIDE}).half(), ({WIDE}).half(), (torch.rand(37, 29) + 0.5).half()", "close", 1e-2),
]

RUNNER = forward_runner(r"""
name = job["expr"] + " on " + job["inputs"][:40] + ": "
if got.dtype != want.dtype or got.shape != want.shape:
    failures.append(name + f"{got.dtype} {tuple(got.shape)}, eager {want.dtype} {tuple(want.shape)}")
    continue
if job["mode"] == "exact":
    same = (got == want) | (got.isnan() & want.isnan()) if got.is_floating_point() else got == want
    if got.is_floating_point():
        same &= (got.signbit() == want.signbit()) | want.isnan()  # (a NaN's sign means nothing)
    bad = (~same).nonzero().flatten()[:4].tolist()
    f = None if not bad else name + f"{(~same).sum().item()} differ, first at {bad}: " + \
        f"{got.flatten()[(~same).flatten()][:4].tolist()} vs {want.flatten()[(~same).flatten()][:4].tolist()}"
elif job["mode"] == "rel":
    g, w = got.double(), want.double()
    fin = w.isfinite()
    rel = ((g - w).abs() / w.abs().clamp_min(1e-38))[fin]
    special = ~((g == w) | (g.isnan() & w.isnan()))[~fin]
    f = None
    if rel.numel() and rel.max().item() > job["tol"]:
        f = name + f"max relative diff {rel.max().item():.3g}"
    elif special.any():
        f = name + "infinities or NaNs differ"
else:
    ok = torch.allclose(got.float(), want.float(), atol=job["tol"], rtol=job["tol"], equal_nan=True)
    f = None if ok else name + f"max diff {(got.float() - want.float()).abs().nan_to_num(1e30).max().item()}"
failures.append(f)
""", setup="from protocol import patch_interpreter\npatch_interpreter()\n")


def check_cases(tmp_path, prefix, cases):
    """Converts each (expression, parameters, inputs, mode, tolerance) case, runs them all through RUNNER and
    asserts that none failed."""
    jobs = []
    for i, (expr, params, inputs, mode, tol) in enumerate(cases):
        gen = convert_forward(tmp_path, f"{prefix}{i}", expr, inputs, params)
        jobs.append({"gen": str(gen), "expr": expr, "params": [p.strip() for p in params.split(",")],
                     "inputs": inputs, "mode": mode, "tol": tol})
    failures = run_interpreted(RUNNER, jobs, timeout=900)
    assert not failures, "\n".join(failures)


def test_math_functions(tmp_path):
    check_cases(tmp_path, "math", CASES)
