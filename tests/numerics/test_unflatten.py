"""Tensor.unflatten / torch.unflatten: a reshape of one dim into sizes (one may be -1; the dim may be negative),
traced as a view (src/trace/torch_api.cpp); it was refused as an unknown method. Checked against PyTorch under
Triton's interpreter, with a wrong split refused as PyTorch refuses it; the generated file reads the split dims
as a free view (no copy kernel) where no permute comes first."""

import subprocess

from .paths import TRITONIZE, check_forwards, convert_forward

CASES = [
    ("torch.log_softmax((x * 2).unflatten(1, (4, -1)), dim=2) + torch.unflatten(x, -1, (4, 3)).sum(2, keepdim=True)",
     "torch.randn(3, 12)"),
    ("x.unflatten(0, (2, 3, 2)).permute(2, 1, 0, 3).reshape(12, 5).cumsum(0)", "torch.randn(12, 5)"),
    ("torch.tril((x + 1).unflatten(-1, (5, 7)), 1)", "torch.randn(2, 35)"),
]


def test_unflatten(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"unflatten{i}", expr, inputs)
        if "permute" not in expr:  # (a permuted value reshaped is copied first: any reshape would be)
            assert "copy" not in gen.read_text().split("def forward", 1)[1], expr
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=1e-4)
    assert not failures, "\n".join(failures)


def test_unflatten_wrong_sizes(tmp_path):
    model = tmp_path / "bad.py"
    model.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n"
                     "        return x.unflatten(1, (5, 2))\n\n\n"
                     "def get_inputs():\n    return [torch.randn(3, 12)]\n\n\ndef get_init_inputs():\n    return []\n")
    r = subprocess.run([str(TRITONIZE), "convert", str(model), "-o", str(tmp_path / "out.py")], capture_output=True,
                       text=True)
    assert r.returncode == 1 and "bad.py:7:" in r.stderr and "is invalid for input of size 36" in r.stderr, r.stderr
