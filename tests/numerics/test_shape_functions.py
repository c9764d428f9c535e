"""Shape and index functions traced with existing graph ops (src/trace/shape_functions.cpp): torch.chunk / split /
unbind (tuples of slices), F.pad (constant: pads under a where, negative pads crop; reflect, replicate and circular
as torch.cat of slices, flips and expands), torch.roll, Tensor.repeat / torch.tile, torch.arange in forward (the
iota leaf), F.one_hot, torch.count_nonzero and the vector products outer / ger / dot / inner, in their torch.X,
Tensor.X and keyword spellings with negative dims. They were all refused ("... is not supported"). Each case runs
the generated file under Triton's interpreter against eager PyTorch: the same dtype, the same shape (tuples piece
by piece) and values within atol = rtol = 1e-4 (1e-2 for 16-bit inputs), NaN where eager has NaN."""


from .paths import convert_error, convert_forward, forward_runner, run_interpreted

# (forward's expression, get_inputs' expression, forward's parameters)
CASES = [
    # pieces: chunk gives ceil(n / chunks)-sized pieces, so 5 in 4 chunks is 3 pieces (2, 2, 1)
    ("x.chunk(3, dim=-1)", "torch.randn(4, 10)", "x"),
    ("torch.chunk(x, 4, 1)", "torch.randn(3, 5)", "x"),
    ("torch.chunk(x, chunks=2)[1] * 3", "torch.randn(9, 4).t()", "x"),  # a transposed input
    ("x.chunk(2, -1)[0] * torch.sigmoid(x.chunk(2, -1)[1])", "torch.randn(3, 7, 12)", "x"),
    ("torch.split(x, 3, dim=0)", "torch.randn(7, 4)", "x"),
    ("x.split([2, 5, 1], -1)", "torch.randn(3, 8)", "x"),
    ("torch.split(x, split_size_or_sections=(1, 2), dim=-2)[1] + x.split(split_size=2)[0].sum()", "torch.randn(3, 5)",
     "x"),
    ("torch.unbind(x, dim=-2)", "torch.randn(2, 3, 5)", "x"),
    ("x.unbind(1)[2] * 2 + torch.unbind(x)[0].sum()", "torch.randn(4, 3)", "x"),
    # F.pad, constant: any value, several dims, negative pads crop
    ("F.pad(x, (1, 2))", "torch.randn(3, 5)", "x"),
    ("F.pad(torch.sigmoid(x), (2, 1, 0, -1), value=0.5)", "torch.randn(4, 5)", "x"),
    ("F.pad(x, [1, 1, 2, 0, 1, 1], 'constant', -1.5)", "torch.randn(2, 3, 5)", "x"),
    ("F.pad(x, (-1, 2, -2, -1), value=torch.inf) - 1", "torch.randn(6, 7)", "x"),
    ("F.pad(x * 2, (0, 0, 1, 1), mode='constant')", "torch.randn(3, 4, 5).permute(2, 0, 1)", "x"),
    ("F.pad(x * 2, (0, 0, 2, 1))[:, 1:-2] + F.pad(x, (1, 1), value=3.0)[..., 2:]", "torch.randn(2, 5, 4)", "x"),
    ("F.pad(x, (1, 1), value=2.7)", "torch.randint(0, 5, (3, 4))", "x"),
    ("F.pad(x > 0, (1, 0), value=True).float()", "torch.randn(3, 4)", "x"),
    ("F.pad(torch.log(x), (1, 1, 1, 0), value=float('nan'))", "torch.randn(3, 4)", "x"),
    # F.pad, other modes
    ("F.pad(x, (3, 2), mode='reflect')", "torch.randn(2, 3, 7)", "x"),
    ("F.pad(x, (1, 2, 2, 1), mode='replicate')", "torch.randn(2, 3, 5, 6)", "x"),
    ("F.pad(x, (2, 3), mode='circular')", "torch.randn(2, 3, 5)", "x"),
    ("F.pad(x, (1, 0, 0, 2, 2, 1), 'reflect')", "torch.randn(2, 4, 3, 5)", "x"),
    ("F.pad(x + 1, (2, 0, 1, 3), mode='replicate')", "torch.randn(3, 5, 4).transpose(1, 2)", "x"),
    # roll
    ("torch.roll(x, 3)", "torch.randn(4, 5)", "x"),
    ("x.roll(-2, -1)", "torch.randn(3, 7)", "x"),
    ("torch.roll(x, shifts=(1, -3), dims=(0, 1))", "torch.randn(5, 6)", "x"),
    ("x.roll((13,), (1,)) * 2", "torch.randn(3, 5).t()", "x"),
    # repeat / tile
    ("x.repeat(2, 3)", "torch.randn(3, 4)", "x"),
    ("x.repeat(2, 1, 2) + 1", "torch.randn(3, 5)", "x"),
    ("x.repeat((1, 3))", "torch.randn(5, 3).t()", "x"),
    ("x.repeat(repeats=(2, 1))", "torch.randn(3, 1)", "x"),
    ("torch.tile(x, (2,))", "torch.randn(3, 4)", "x"),
    ("x.tile(2, 1, 1) - torch.tile(x, dims=(2, 1, 1))", "torch.randn(3, 4)", "x"),
    # arange in forward: int64 for ints, float32 otherwise, dtype= wins, device= ignored
    ("x + torch.arange(x.shape[-1])", "torch.randn(3, 7)", "x"),
    ("x * torch.arange(0.5, 3.0, 0.25)", "torch.randn(10)", "x"),
    ("torch.arange(1, 2, 0.1) + x.sum()", "torch.randn(3)", "x"),
    ("torch.arange(-3.3, 1000.0, 0.7) * x", "torch.randn(1434)", "x"),
    ("torch.arange(start=2, end=11, step=3, device=x.device) + x.long()", "torch.randn(3)", "x"),
    ("torch.arange(10, 0, -3, dtype=torch.int32) * 2 + x.int()", "torch.randn(4)", "x"),
    ("torch.arange(5.0) + torch.arange(0, 5, 1.5, dtype=torch.int64).float() + x", "torch.randn(5)", "x"),
    ("torch.arange(0.5, 5, 1.7, dtype=torch.int32).repeat(2) + x.int()", "torch.randn(6)", "x"),
    ("torch.arange(9).flip(0) + torch.arange(1, 10).roll(2) + x.long()", "torch.randn(9)", "x"),
    # one_hot
    ("F.one_hot(x, 5)", "torch.randint(0, 5, (3, 4))", "x"),
    ("F.one_hot(x, num_classes=7).float() * 2 + F.one_hot(torch.arange(7).flip(0), 7)", "torch.randint(0, 7, (7,))",
     "x"),
    # count_nonzero: NaN counts as nonzero
    ("torch.count_nonzero(torch.relu(x), dim=1)", "torch.randn(4, 9)", "x"),
    ("x.count_nonzero(dim=(0, -1)) + torch.count_nonzero(x)", "torch.log(torch.randn(3, 4, 5)) * torch.randint(0, 2, (3, 4, 5))",
     "x"),
    ("torch.count_nonzero(x > 0.5, -1)", "torch.randn(3, 4, 6)", "x"),
    # outer / ger: products; dot / inner: sums of products
    ("torch.outer(x, y)", "torch.randn(5), torch.randn(7)", "x, y"),
    ("x.outer(y) + torch.ger(x, y) - x.ger(vec2=y)", "torch.randn(9), torch.randn(4)", "x, y"),
    ("torch.outer(x, y)", "torch.randn(6), torch.randint(0, 5, (3,))", "x, y"),
    ("torch.dot(x, y) + x.dot(y) * 2", "torch.randn(37), torch.randn(37)", "x, y"),
    ("torch.inner(x, y)", "torch.randn(33), torch.randn(33)", "x, y"),
    ("torch.inner(x, y) + x.inner(y)", "torch.randn(3, 5), torch.randn(2, 4, 5)", "x, y"),
    ("torch.inner(x, y.sum())", "torch.randn(3, 5), torch.randn(4)", "x, y"),
]

HALF_CASES = [
    ("x.chunk(2, -1)[0] * torch.sigmoid(x.chunk(2, -1)[1])", "torch.randn(3, 12, dtype=torch.float16)", "x"),
    ("F.pad(x, (2, 1, 1, 0), value=-2.0)", "torch.randn(3, 5, dtype=torch.bfloat16)", "x"),
    ("F.pad(x, (2, 2), mode='reflect')", "torch.randn(2, 3, 5, dtype=torch.float16)", "x"),
    ("x.roll(2, 0).repeat(1, 2)", "torch.randn(5, 3, dtype=torch.bfloat16)", "x"),
    ("torch.arange(0, 8, 0.5, dtype=torch.float16) + x", "torch.randn(16, dtype=torch.float16)", "x"),
    # (values exact in bfloat16: eager's CPU kernel rounds a vector's base to bfloat16 first, its CUDA kernel, which
    # the generated code follows, does not: an inexact step can differ by an ulp of bfloat16 from the CPU)
    ("torch.arange(-40.0, 40.0, 0.25, dtype=torch.bfloat16) * x", "torch.randn(320, dtype=torch.bfloat16)", "x"),
    ("torch.outer(x, y)", "torch.randn(5, dtype=torch.float16), torch.randn(6, dtype=torch.float16)", "x, y"),
    ("torch.dot(x, y)", "torch.randn(40, dtype=torch.bfloat16), torch.randn(40, dtype=torch.bfloat16)", "x, y"),
]

# Like paths.FORWARD_RUNNER, for results that may be tuples (pieces): every piece has eager's dtype and shape and
# its values within tolerance (NaN where eager has NaN).
RUNNER = forward_runner(r"""
want = list(want) if isinstance(want, tuple) else [want]
got = list(got) if isinstance(got, tuple) else [got]
problem = None
if len(got) != len(want):
    problem = f"{len(got)} results, eager has {len(want)}"
for k, (g, w) in enumerate(zip(got, want)):
    if problem:
        break
    if g.dtype != w.dtype or g.shape != w.shape:
        problem = f"result {k}: {g.dtype} {tuple(g.shape)}, eager {w.dtype} {tuple(w.shape)}"
    elif not torch.allclose(g.float(), w.float(), atol=tol, rtol=tol, equal_nan=True):
        problem = f"result {k}: max diff {(g.float() - w.float()).abs().nan_to_num(1e9).max().item()}"
failures.append(None if problem is None else job["expr"] + ": " + problem)
""")


def run_cases(tmp_path, cases, tol):
    jobs = []
    for i, (expr, inputs, params) in enumerate(cases):
        gen = convert_forward(tmp_path, f"shape{i}", expr, inputs, params)
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
    return run_interpreted(RUNNER, jobs, str(tol), timeout=600)


def test_shape_functions(tmp_path):
    failures = run_cases(tmp_path, CASES, 1e-4)
    assert not failures, "\n".join(failures)


def test_shape_functions_16bit(tmp_path):
    failures = run_cases(tmp_path, HALF_CASES, 1e-2)
    assert not failures, "\n".join(failures)


def test_pieces_and_pads_are_views(tmp_path):
    """A chunk feeding a pointwise op reads its slice of the input (no copy kernel first), and a constant pad of
    an input is one kernel (masked loads, the value where the pads are)."""
    gen = convert_forward(tmp_path, "glu", "x.chunk(2, -1)[0] * torch.sigmoid(x.chunk(2, -1)[1])",
                          "torch.randn(3, 12)")
    assert gen.read_text().count("@triton.jit") == 1, gen.read_text()
    gen = convert_forward(tmp_path, "pad", "F.pad(x, (2, 1, 1, 1), value=0.5)", "torch.randn(3, 5)")
    assert gen.read_text().count("@triton.jit") == 1, gen.read_text()


def refused(tmp_path, expr, inputs):
    stderr = convert_error(tmp_path, "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                           f"class Model(nn.Module):\n    def forward(self, x):\n        return {expr}\n\n\n"
                           f"def get_inputs():\n    return [{inputs}]\n\n\ndef get_init_inputs():\n    return []\n")
    assert "bad.py:8:" in stderr, stderr
    return stderr


def test_what_pytorch_refuses_is_refused(tmp_path):
    assert "to sum exactly to 8" in refused(tmp_path, "x.split([2, 5], -1)", "torch.randn(3, 8)")
    assert "greater than 0" in refused(tmp_path, "x.chunk(0)", "torch.randn(3, 8)")
    assert "less than the corresponding input dimension" in refused(tmp_path, "F.pad(x, (5, 1), mode='reflect')",
                                                                    "torch.randn(2, 3, 5)")
    assert "doesn't take in value" in refused(tmp_path, "F.pad(x, (1, 1), mode='replicate', value=1.0)",
                                              "torch.randn(2, 3, 5)")
    assert "shifts and dimensions must align" in refused(tmp_path, "x.roll((1, 2))", "torch.randn(3, 8)")
    assert "can not be smaller" in refused(tmp_path, "x.repeat(2)", "torch.randn(3, 8)")
    assert "LongTensor" in refused(tmp_path, "F.one_hot(x, 3)", "torch.randn(3, 8)")
    assert "1D tensors expected" in refused(tmp_path, "torch.dot(x, x)", "torch.randn(3, 8)")
    assert "Expected 1-D argument" in refused(tmp_path, "torch.outer(x, x)", "torch.randn(3, 8)")
