"""Inputs that get_inputs() returns permuted (a transpose, a permute, .t(), a cast of one, a permutation undone by
another, an elementwise op on one): the graph's input is the tensor in memory and forward sees it through the permutation, so the kernels
read it with its own strides. Each case is converted by tritonize and run by Triton's interpreter against eager
PyTorch on the permuted input; ModelNew must also refuse the same values laid out contiguously (a ValueError,
not a wrong result)."""

import pytest
import torch

from .paths import convert_forward, run_interpreted

# (forward expression, get_inputs()' expression)
CASES = [
    ("x @ x.t()", "torch.randn(37, 21).t()"),
    ("x.softmax(dim=-1) * 2", "torch.randn(19, 45).t()"),
    ("x.sum(dim=1) * x.amax(dim=1)", "torch.randn(5, 7, 33).permute(2, 0, 1)"),
    ("x.cumsum(dim=0)", "torch.randn(3, 40, 9).transpose(0, 2)"),
    ("torch.relu(x).float()", "torch.randn(17, 23, dtype=torch.float16).t()"),
    ("x.mean(dim=0)", "torch.randn(29, 31).t().to(torch.bfloat16)"),
    ("x * 3", "torch.randn(6, 8, 10).permute(1, 2, 0).permute(2, 0, 1)"),  # back to contiguous
    ("x - 1", "torch.randn(11, 13).t().contiguous()"),
    ("x + 1", "torch.randn(11, 13).t() * 2 + 1"),  # elementwise results keep their first operand's layout
    ("x.sum(dim=1)", "(lambda a: a + a.t())(torch.randn(12, 12))"),  # ... contiguous when it is
    ("x * 2", "torch.randn(6, 6).t().t()"),  # a square tensor transposed back: contiguous
    # a fresh tensor made after an op on a permuted one takes nothing from it
    ("x - 2", "(lambda a: (a.float(), torch.zeros(6, 8))[1])(torch.randn(8, 6).t())"),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
jobs = json.loads(sys.argv[1])
failures = []
for job in jobs:
    spec = importlib.util.spec_from_file_location("gen", job["gen"])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    torch.manual_seed(0)
    x = eval(job["input"])
    want = eval(job["expr"])
    got = gen.ModelNew()(x)
    f = None
    if not torch.allclose(got.float(), want.float(), atol=1e-2 if x.dtype != torch.float32 else 1e-4, rtol=1e-2):
        f = job["expr"] + ": max diff " + str((got.float() - want.float()).abs().max().item())
    elif not x.is_contiguous():
        try:
            gen.ModelNew()(x.contiguous())
            f = job["expr"] + ": a contiguous input was accepted"
        except ValueError as e:
            if "strides" not in str(e):
                f = job["expr"] + ": " + str(e)
    failures.append(f)
print(json.dumps(failures))
"""


def test_permuted_inputs(tmp_path):
    jobs = []
    for i, (expr, inp) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"perm{i}", expr, inp)
        text = gen.read_text()
        if eval(inp, {"torch": torch}).is_contiguous():
            assert "is_contiguous()" in text, f"{inp}: the generated forward does not check contiguity"
        else:
            assert "strides" in text, f"{inp}: the generated forward does not check the layout"
        jobs.append({"gen": str(gen), "expr": expr, "input": inp})
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("inp", ["torch.randn(1, 9).expand(4, 9)", "torch.randn(9, 1).t().expand(5, 9) * 2"])
def test_other_layouts_rejected(tmp_path, inp):
    import subprocess

    from .paths import TRITONIZE

    model = tmp_path / "m.py"
    model.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
                     f"        return x * 2\n\n\ndef get_inputs():\n    return [{inp}]\n\n\n"
                     "def get_init_inputs():\n    return []\n")
    out = tmp_path / "m_triton.py"
    r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 1 and "memory layout tritonize does not follow" in r.stderr, r.stderr
    assert not out.exists()
