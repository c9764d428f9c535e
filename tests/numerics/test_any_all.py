"""Tensor.any/all and torch.any/all (with or without a dim, keepdim): a bool max/min of x != 0, a tensor like any
other reduction (src/trace/torch_api.cpp). They were refused as if they always depended on the tensor's data
("Tensor.any() is not supported"); only a truth test of the result does (`if x.any():`, refused where it happens).
Checked against PyTorch under Triton's interpreter; the generated kernels reduce with tl.max / tl.min."""

import subprocess

from .paths import TRITONIZE, check_forwards, convert_forward

CASES = [
    ("(x > 0).any(1).float() + (x > 0.5).all(dim=1).float() * 2", "torch.randn(4, 33)"),
    ("torch.any(x > 0, 0, keepdim=True).float() - torch.all(x > -2, dim=0, keepdim=True).float()", "torch.randn(5, 7)"),
    ("x.any().float() + torch.all(x > -3).float() + (x * 3).int().any(-1).float()", "torch.randn(3, 6)"),
    ("(x > 1).any(dim=(0, 2)).float() + x.all(2).float().sum(0)", "torch.randn(4, 3, 5)"),
]


def test_any_all(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"anyall{i}", expr, inputs)
        text = gen.read_text()
        assert "tl.max(" in text or "tl.min(" in text, f"{expr}: no max/min reduction in\n{text}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=0)
    assert not failures, "\n".join(failures)


def test_truth_test_of_any_is_refused(tmp_path):
    model = tmp_path / "branch.py"
    model.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
                     "        if (x > 0).any():\n            return x * 2\n        return x\n\n\n"
                     "def get_inputs():\n    return [torch.randn(3, 4)]\n\n\ndef get_init_inputs():\n    return []\n")
    r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(tmp_path / "out.py")], capture_output=True,
                       text=True)
    assert r.returncode == 1 and "branch.py:7:13: error: the truth value of a tensor depends on its data" in r.stderr, r.stderr
