"""Split-K (passes/split_k.cpp): fp32 products with a long K and few output tiles become S partial products and
a sum. The corpus' shrunk sizes are too small to split, so these cases are sized for it (K of 16411 and more, a
few rows and columns) and checked against PyTorch under Triton's interpreter: A @ B, x @ w.t() (a transposed
operand), F.linear plus a constant, and K already a multiple of 4 S (no padding copies). Each generated file must
hold the split (a batched matmul and a sum over the partials)."""

import subprocess

from .paths import TRITONIZE, run_interpreted

CASES = [
    # (forward, input shapes, init)
    ("torch.mm(a, b)", [(17, 16411), (16411, 19)]),
    ("a @ b.t()", [(21, 20483), (13, 20483)]),
    ("F.linear(a, b) + 1.5", [(9, 16384), (13, 16384)]),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
jobs = json.loads(sys.argv[1])
failures = []
for job in jobs:
    spec = importlib.util.spec_from_file_location("gen", job["gen"])
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    torch.manual_seed(0)
    a, b = (torch.randn(*s) / s[-1] ** 0.25 for s in job["shapes"])
    want = eval(job["expr"])
    got = gen.ModelNew()(a, b)
    ok = torch.allclose(got, want, atol=1e-4, rtol=1e-4)
    failures.append(None if ok else job["expr"] + ": max diff " + str((got - want).abs().max().item()))
print(json.dumps(failures))
"""


def test_split_k(tmp_path):
    jobs = []
    for i, (expr, shapes) in enumerate(CASES):
        model = tmp_path / f"sk{i}.py"
        inputs = ", ".join(f"torch.randn{s}" for s in shapes)
        model.write_text("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
                         f"class Model(nn.Module):\n    def forward(self, a, b):\n        return {expr}\n\n\n"
                         f"def get_inputs():\n    return [{inputs}]\n\n\ndef get_init_inputs():\n    return []\n")
        gen = tmp_path / f"sk{i}_triton.py"
        r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(gen)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        kernels = subprocess.run([str(TRITONIZE), "convert", str(model), "--emit=kernels"], capture_output=True,
                                 text=True).stdout
        assert "matmul space [" in kernels and "axes {0}: sum" in kernels, f"{expr}: not split\n{kernels}"
        jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes})
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)
