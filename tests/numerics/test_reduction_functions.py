"""torch.logsumexp, F.softmin, torch.var_mean / std_mean, F.glu, F.threshold and the losses F.nll_loss,
F.binary_cross_entropy and F.binary_cross_entropy_with_logits (with their nn modules), each converted and run by
Triton's interpreter against eager PyTorch on the same inputs: odd sizes, negative and tuple dims, infinities and
NaN where the function defines them (logsumexp of a row of -inf is -inf, of a row holding +inf is inf; BCE clamps
log(0) to -100), 16-bit inputs (1e-2), ignored targets and weights."""

import pytest

from .paths import TRITONIZE, convert_error, run_interpreted

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
FOOTER = "\n\ndef get_init_inputs():\n    return []\n"

# (name, forward expression, parameter names, inputs expression (a tuple), tolerance)
CASES = [
    # row 3 all -inf, (5, 7) +inf, (9, 2) NaN
    ("lse_rows", "torch.logsumexp(x, dim=1)", "x",
     "(torch.where(torch.arange(37)[:, None] * 1000 + torch.arange(130) == 5007, float('inf'), "
     "torch.where(torch.arange(37)[:, None] * 1000 + torch.arange(130) == 9002, float('nan'), "
     "torch.where(torch.arange(37)[:, None] == 3, float('-inf'), torch.randn(37, 130) * 30))),)", 1e-4),
    ("lse_dims_keepdim", "x.logsumexp((0, -1), keepdim=True), torch.special.logsumexp(x, 1)", "x",
     "(torch.randn(5, 33, 7),)", 1e-4),
    ("lse_fp16", "torch.logsumexp(x, -1)", "x", "(torch.randn(19, 300).half() * 4,)", 1e-2),
    ("lse_int", "torch.logsumexp(x, 0)", "x", "(torch.randint(-5, 6, (7, 9)),)", 1e-4),
    ("softmin", "F.softmin(x, dim=0), F.softmin(x.half(), 1, dtype=torch.float32)", "x", "(torch.randn(17, 33),)",
     1e-4),
    ("var_mean", "torch.var_mean(x, dim=1)[0], torch.var_mean(x, dim=1)[1], "
     "torch.std_mean(x, (0, 2), correction=0, keepdim=True)[1], torch.var_mean(x, unbiased=False)[0]", "x",
     "(torch.randn(6, 35, 9) + 3,)", 1e-4),
    ("var_mean_bf16", "torch.std_mean(x, -1)[0], torch.std_mean(x, -1)[1]", "x", "(torch.randn(9, 130).bfloat16(),)",
     1e-2),
    ("glu", "F.glu(x), F.glu(x, dim=0)", "x", "(torch.randn(10, 40),)", 1e-4),
    ("glu_fp16", "F.glu(x, 1)", "x", "(torch.randn(3, 22, 5).half(),)", 1e-2),
    ("threshold", "F.threshold(x, 0.1, 20.0), torch.threshold(x, -0.5, -2.0)", "x",
     "(torch.cat([torch.randn(7, 33), torch.full((1, 33), 0.1), torch.full((1, 33), float('nan'))]),)", 1e-4),
    # 0.1 and -0.3 round down in magnitude... 0.1 in fp16 is 0.0999755859375: the fp16 values next to it compare
    # alike with either threshold (CUDA's rounded one, the CPU's float32 one)
    ("threshold_fp16", "F.threshold(x, 0.1, 20.0), F.threshold(x, -0.25, -1.0)", "x",
     "((torch.randn(40, 50) * 0.01 + torch.cat([torch.full((40, 25), 0.1), torch.full((40, 25), -0.25)], 1)).half(),)",
     1e-2),
    ("nll", "F.nll_loss(F.log_softmax(x, 1), t), F.nll_loss(x, t, reduction='none'), "
     "F.nll_loss(x, t, reduction='sum', ignore_index=2)", "x, t",
     "(torch.randn(13, 7), torch.randint(0, 7, (13,)))", 1e-4),
    ("nll_weight_ignore", "F.nll_loss(x, t, weight=w), F.nll_loss(x, t, weight=w, reduction='none'), "
     "F.nll_loss(x, t, weight=w, reduction='sum')", "x, t, w",
     "(torch.randn(13, 7), torch.where(torch.rand(13) < 0.3, -100, torch.randint(0, 7, (13,))), "
     "torch.rand(7) + 0.5)", 1e-4),
    ("nll_spatial_fp16", "F.nll_loss(F.log_softmax(x, 1), t), F.nll_loss(x[0, :, 0, 0], t[0, 0, 0])", "x, t",
     "(torch.randn(3, 5, 9, 11).half(), torch.randint(0, 5, (3, 9, 11)))", 1e-2),
    ("bce", "F.binary_cross_entropy(p, y), F.binary_cross_entropy(p, y, reduction='none'), "
     "F.binary_cross_entropy(p, y, weight=w, reduction='sum')", "p, y, w",
     "(torch.cat([torch.rand(11, 33), torch.zeros(1, 33), torch.ones(1, 33), torch.full((1, 33), 1e-9)]), "
     "torch.rand(14, 33), torch.rand(33))", 1e-4),
    ("bce_fp16", "F.binary_cross_entropy(p, y, reduction='none'), F.binary_cross_entropy(p, y)", "p, y",
     "(torch.rand(9, 130).half(), torch.rand(9, 130).half())", 1e-2),
    ("bce_logits", "F.binary_cross_entropy_with_logits(x, y), "
     "F.binary_cross_entropy_with_logits(x, y, pos_weight=pw, reduction='none'), "
     "F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw, reduction='sum')", "x, y, pw, w",
     "(torch.randn(17, 33) * 12, torch.rand(17, 33), torch.rand(33) * 3, torch.rand(17, 1))", 1e-4),
    ("bce_logits_bf16", "F.binary_cross_entropy_with_logits(x, y, reduction='none'), "
     "F.binary_cross_entropy_with_logits(x, y)", "x, y", "(torch.randn(9, 70).bfloat16() * 5, "
     "torch.rand(9, 70).bfloat16())", 1e-2),
]

# Modules: (name, __init__ body, forward body, parameter names, inputs expression, tolerance)
MODULES = [
    ("modules",
     "self.softmin = nn.Softmin(dim=1)\n        self.glu = nn.GLU()\n        self.thr = nn.Threshold(0.5, -1.0)",
     "v, m = torch.std_mean(x, dim=0)\n        return self.softmin(x), self.glu(x), self.thr(x), v, m", "x",
     "(torch.randn(9, 34),)", 1e-4),
    ("loss_modules",
     "self.nll = nn.NLLLoss(weight=torch.rand(7) + 0.5, ignore_index=2)\n"
     "        self.bce = nn.BCELoss(reduction='sum')\n"
     "        self.bcel = nn.BCEWithLogitsLoss(pos_weight=torch.rand(7) * 2)",
     "return self.nll(F.log_softmax(x, 1), t), self.bce(torch.sigmoid(x), torch.sigmoid(-x)), "
     "self.bcel(x, torch.sigmoid(2 * x))", "x, t", "(torch.randn(13, 7), torch.randint(0, 7, (13,)))", 1e-4),
]

# (NaN-aware where the protocol's allclose is not; with the protocol's patches of the interpreter's bf16 casts)
RUNNER = r"""
import importlib.util, json, sys
import torch
import protocol
protocol.patch_interpreter()
jobs = json.loads(sys.argv[1])
failures = []
for job in jobs:
    mods = []
    for path in (job["ref"], job["gen"]):
        spec = importlib.util.spec_from_file_location("m", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append(mod)
    torch.manual_seed(0)
    ref = mods[0].Model()
    torch.manual_seed(0)
    gen = mods[1].ModelNew()
    failure = None
    for trial in range(2):
        torch.manual_seed(trial)
        args = mods[0].get_inputs()
        want = ref(*[a.clone() for a in args])
        got = gen(*args)
        wants = want if isinstance(want, tuple) else (want,)
        gots = got if isinstance(got, tuple) else (got,)
        flat_w, flat_g = [], []
        for w, g in zip(wants, gots):
            flat_w += list(w) if isinstance(w, tuple) else [w]
            flat_g += list(g) if isinstance(g, tuple) else [g]
        tol = job["tol"]
        for i, (w, g) in enumerate(zip(flat_w, flat_g)):
            if g.shape != w.shape or g.dtype != w.dtype:
                failure = f"{job['name']} output {i}: {tuple(g.shape)} {g.dtype} against {tuple(w.shape)} {w.dtype}"
            elif not torch.allclose(g.double(), w.double(), atol=tol, rtol=tol, equal_nan=True):
                diff = (g.double() - w.double()).abs().nan_to_num(nan=float("inf")).max().item()
                failure = f"{job['name']} output {i}, trial {trial}: max diff {diff}"
        if len(flat_w) != len(flat_g):
            failure = f"{job['name']}: {len(flat_g)} outputs against {len(flat_w)}"
        if failure:
            break
    failures.append(failure)
print(json.dumps(failures))
"""


def problem_source(init, forward, params, inputs):
    return (HEADER + "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            f"        {init}\n\n    def forward(self, {params}):\n        {forward}\n\n\n"
            f"def get_inputs():\n    return list({inputs})\n" + FOOTER)


def write_problem(tmp_path, name, init, forward, params, inputs):
    ref = tmp_path / f"{name}.py"
    ref.write_text(problem_source(init, forward, params, inputs))
    return ref


def convert(ref):
    import subprocess

    gen = ref.with_name(ref.stem + "_triton.py")
    r = subprocess.run([str(TRITONIZE), "convert", str(ref), "-o", str(gen)], capture_output=True, text=True)
    assert r.returncode == 0, f"{ref.name}: {r.stderr}"
    return gen


def test_reduction_functions(tmp_path):
    cases = [(name, "pass", f"return {expr}", params, inputs, tol) for name, expr, params, inputs, tol in CASES]
    check_modules(tmp_path, cases + MODULES)


def check_modules(tmp_path, cases):
    """Converts each (name, __init__ body, forward body, parameters, inputs, tolerance) module and runs RUNNER over
    them; asserts no failure."""
    jobs = []
    for name, init, forward, params, inputs, tol in cases:
        ref = write_problem(tmp_path, name, init, forward, params, inputs)
        jobs.append({"name": name, "ref": str(ref), "gen": str(convert(ref)), "tol": tol})
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("forward, message", [
    ("F.glu(x[:, :5])", "glu: halving dimension must be even, but dimension 1 is size 5"),
    ("F.threshold(x, 0.5)", "threshold() missing its argument value"),
    ("F.threshold(x.half(), 0.3, 1.0)", "threshold 0.3 of a torch.float16 tensor: it rounds to 0.300048828125"),
    ("F.nll_loss(x, x)", "F.nll_loss: class-index targets must be torch.int64"),
    ("F.binary_cross_entropy(torch.sigmoid(x), x[0])", "F.binary_cross_entropy: the target's shape [6]"),
    ("F.binary_cross_entropy(torch.sigmoid(x).half(), x)", "F.binary_cross_entropy: target of type torch.float32 "
     "for an input of type torch.float16"),
    ("F.nll_loss(x.half(), x[:, 0].long(), weight=x[0])", "F.nll_loss: weight of type torch.float32 for an input of "
     "type torch.float16"),
])
def test_rejected(tmp_path, forward, message):
    stderr = convert_error(tmp_path, problem_source("pass", f"return {forward}", "x", "(torch.randn(4, 6),)"))
    assert message in stderr, stderr
