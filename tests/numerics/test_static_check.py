"""Unit tests of the static check (python/tritonize/static_check.py, through tests/numerics/static_check.py) on small
hand-written files: each known-bad form is reported under its rule, the clean file under none."""

import textwrap

import pytest

from .static_check import check_source

HEADER = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, x * 2.0 + tl.sum(x, axis=0), mask=offs < n)

'''

CLEAN_LAUNCHER = '''
def launch(x, scale):
    n = x.numel()
    y = torch.empty_like(x)
    block = 128 if n > 64 else 64
    grid = (triton.cdiv(n, block),)
    precision = "tf32" if torch.backends.cuda.matmul.allow_tf32 else "tf32x3"
    meta = {"BLOCK": block}
    for key in meta.values():
        block = max(block, key)
    with torch.cuda.device(x.device):
        k[grid](x, y, n * 2 - 1, BLOCK=block)
    return y.view(x.shape)
'''


def check(body, launcher=CLEAN_LAUNCHER):
    return check_source(HEADER + textwrap.dedent(launcher) + textwrap.dedent(body))


def clean_model(forward):
    return '''
class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = nn.Parameter(torch.empty(n))
        nn.init.uniform_(self.w, -1.0, 1.0)
        self.b = nn.Parameter(torch.randn(n).mul_(0.1).to(torch.float32))
        self.eps = 1e-5

''' + textwrap.indent(textwrap.dedent(forward), "    ")


def test_clean_file():
    problems = check(clean_model('''
        def forward(self, x):
            if x.dim() != 2 or x.shape[1] != self.w.shape[0]:
                raise ValueError(f"bad shape {tuple(x.shape)}")
            d = x.shape[0] % 2 + 1
            x2 = x.view(x.shape[0], -1).transpose(0, 1).t().unsqueeze(0).squeeze(0)
            y = launch(x2, self.eps * d)
            return y.permute(1, 0).expand(-1, -1)
    '''))
    assert problems == []


@pytest.mark.parametrize("forward, expected", [
    ("return torch.matmul(x, x)", "[torch_compute]"),
    ("return torch.zeros_like(x)", "[torch_compute]"),
    ("return F.gelu(x)", "[functional]"),
    ("return torch.nn.functional.relu(x)", "[functional]"),
    ("return launch(x.to(torch.float32), 1.0)", "[tensor_method]"),
    ("return launch(x.contiguous(), 1.0)", "[tensor_method]"),
    ("return launch(x.reshape(-1), 1.0)", "[tensor_method]"),
    ("return x.sum()", "[tensor_method]"),
    ("return launch(x, 1.0) * 2", "[tensor_arith]"),
    ("return -launch(x, 1.0)", "[tensor_arith]"),
    ("return x + self.w", "[tensor_arith]"),
    ("return launch(x, 1.0) * self.w", "[tensor_arith]"),
    ("return launch(x, self.b * 2)", "[tensor_arith]"),
    ("y = launch(x, 1.0)\nreturn y[0] @ y[1]", "[tensor_arith]"),
    ("y = torch.empty_like(x)\ny[0] = 1.0\nreturn y", "[tensor_arith]"),
    ("y = launch(x, 1.0)\ny += x\nreturn y", "[tensor_arith]"),
    ("return nn.Linear(4, 4)(x)", "[nn_layer]"),
    ("return abs(x)", "[tensor_arith]"),
    ("return launch(x, 1.0) > 0", "[tensor_arith]"),
])
def test_forward_violations(forward, expected):
    body = "def forward(self, x):\n" + textwrap.indent(forward, "    ")
    problems = check(clean_model(body))
    assert any(expected in p for p in problems), problems


def test_violation_in_launcher_is_found():
    launcher = CLEAN_LAUNCHER.replace("y = torch.empty_like(x)", "y = torch.empty_like(x)\n    x = x.contiguous()")
    problems = check(clean_model("def forward(self, x):\n    return launch(x, 1.0)"), launcher)
    assert any("[tensor_method]" in p for p in problems), problems


def test_violation_in_helper_method_is_found():
    body = '''
        def helper(self, t):
            return t.exp()

        def forward(self, x):
            return launch(self.helper(x), 1.0)
    '''
    problems = check(clean_model(body))
    assert any("[tensor_method]" in p for p in problems), problems


def test_tensor_passed_on_through_launcher_chain():
    # x is used like a tensor only two calls down; `x * 2` in forward is still compute.
    launcher = CLEAN_LAUNCHER + '''
def outer(a):
    return launch(a, 1.0)
'''
    problems = check(clean_model("def forward(self, x):\n    y = outer(x)\n    return outer(x * 2)"), launcher)
    assert any("[tensor_arith]" in p for p in problems), problems


def test_unused_helper_is_not_checked():
    launcher = CLEAN_LAUNCHER + '''
def reference(x):
    return x.sum()
'''
    assert check(clean_model("def forward(self, x):\n    return launch(x, 1.0)"), launcher) == []


@pytest.mark.parametrize("snippet, expected", [
    ("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n", "[try_except]"),
    ("def unused():\n    pass\n", "[pass_stmt]"),
    ("def unused(x):\n    return F.relu(x)\n", "[functional]"),
])
def test_file_wide_rules(snippet, expected):
    problems = check(clean_model("def forward(self, x):\n    return launch(x, 1.0)") + "\n" + snippet)
    assert any(expected in p for p in problems), problems


def test_no_kernel_and_no_model():
    problems = check_source("import torch\n\ndef f(x):\n    return x\n")
    assert any("[no_triton_kernel]" in p for p in problems), problems
    assert any("[no_modelnew]" in p for p in problems), problems


def test_from_import_of_torch_function():
    src = HEADER + "from torch import matmul\n" + CLEAN_LAUNCHER + clean_model(
        "def forward(self, x):\n    return matmul(x, x)")
    assert any("[torch_compute]" in p for p in check_source(src)), src


def test_syntax_error():
    assert check_source("def f(:\n")[0].startswith("1: [syntax_error]")
