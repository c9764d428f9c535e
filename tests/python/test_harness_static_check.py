"""The static checker against known-bad files (one per hack) and known-good ones.

Each file in static_cases/ starts with "# expect: RULE..." (the rules that must be reported) or "# expect: ok".
"""
import glob
import os

import pytest
from harness_paths import HACKS, STATIC_CASES

from tritonize import static_check


def expectation(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    assert first.startswith("# expect:"), f"{path} has no '# expect:' line"
    return first.split(":", 1)[1].split()


CASES = sorted(glob.glob(os.path.join(STATIC_CASES, "*.py")))


def test_there_is_a_case_per_hack():
    names = {os.path.basename(p) for p in CASES}
    for hack in ("try_except_fallback", "inherit_and_pass", "torch_ops_in_forward", "functional_in_forward",
                 "side_stream", "thread", "cached_result", "nn_linear_in_forward"):
        assert f"bad_{hack}.py" in names


@pytest.mark.parametrize("path", CASES, ids=os.path.basename)
def test_static_case(path):
    expected = expectation(path)
    report = static_check.check_file(path)
    if "ok" in expected:
        assert report.ok, [v.message for v in report.violations]
        assert report.kernels and report.launches >= 1
        assert report.kernelbench_ok == ("kernelbench_rejects" not in expected), report.kernelbench_violations
    else:
        assert not report.ok
        missing = set(expected) - set(report.rules())
        assert not missing, f"not reported: {missing}; reported: {report.rules()}"


def test_every_rule_is_known():
    for path in CASES:
        for rule in static_check.check_file(path).rules():
            assert rule in static_check.RULES


@pytest.mark.parametrize("name, rules", [
    ("0_good_relu", []), ("1_wrong_one_trial", []), ("2_unwritten_output", []), ("3_aliased_output", []),
    ("4_try_except_fallback", ["try_except"]), ("5_side_stream", ["stream"]), ("6_hang", []),
    ("7_illegal_address", []), ("8_good_after_faults", []),
])
def test_gpu_hack_files_static_verdicts(name, rules):
    # The runtime hacks are statically clean on purpose: only the runtime checks can catch them.
    report = static_check.check_file(os.path.join(HACKS, "gen", name + ".py"))
    assert set(rules) <= set(report.rules())
    assert report.ok == (not rules)


MODEL_TEMPLATE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32))

{helpers}

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4))
        self.block = 128
        self.count = 0

    def forward(self, x):
{body}
'''


def rules_of(body, helpers=""):
    body = "\n".join("        " + line for line in body.strip().splitlines())
    return static_check.check_source(MODEL_TEMPLATE.format(body=body, helpers=helpers)).rules()


@pytest.mark.parametrize("body, helpers, rules", [
    # allowed
    ("y = torch.empty_like(x)\nk[(1,)](y, x.numel(), BLOCK=self.block)\nreturn y", "", []),
    ("n = x.shape[0] * self.block + 1\ny = x.view(n, -1).t()\nreturn y", "", []),
    ("return launch(x)", "def launch(t):\n    y = torch.empty_like(t)\n    k[(grid(t.numel(), 4),)](y, 1, BLOCK=4)\n"
     "    return y\n\ndef grid(n, b):\n    return (n + b - 1) // b\n", []),
    ("if x.dtype == torch.float16 or x.dim() != 2:\n    raise ValueError(f'bad {tuple(x.shape)}')\nreturn x", "", []),
    ("assert x.is_contiguous()\nreturn x.new_empty((2,))", "", []),
    # not allowed
    ("return x + 1", "", ["tensor_arith"]),
    ("return -x", "", ["tensor_arith"]),
    ("return self.w * 2", "", ["tensor_arith"]),
    ("y = x.view(-1)\nreturn y > 0", "", ["tensor_arith"]),
    ("return torch.ones_like(x)", "", ["torch_compute"]),
    ("return x.float()", "", ["tensor_method"]),
    ("return float(x)", "", ["tensor_arith"]),
    ("self.count += 1\nreturn x", "", ["stateful_forward"]),
    ("setattr(self, 'last', x)\nreturn x", "", ["stateful_forward"]),
    ("global CACHE\nreturn x", "", ["stateful_forward"]),
    ("return helper(x)", "def helper(t):\n    return t.exp()\n", ["tensor_method"]),
    ("return helper(x)", "def helper(t):\n    return t * t\n", ["tensor_arith"]),
    ("f = self.pick()\nreturn f(x)", "", ["module_call", "unknown_call"]),
    ("return super().forward(x)", "", ["super_call"]),
    ("return k(x, 1, 4)", "", ["unknown_call"]),
])
def test_forward_forms(body, helpers, rules):
    got = rules_of(body, helpers)
    assert set(got) == set(rules), got


def test_imports_resolve_aliases():
    source = MODEL_TEMPLATE.format(helpers="from torch.nn.functional import relu as r\nfrom torch import sigmoid\n",
                                   body="        return sigmoid(r(x))")
    assert {"functional", "torch_compute"} <= set(static_check.check_source(source).rules())


def test_kernels_are_not_analysed_as_forward_code():
    # arithmetic and min() inside @triton.jit code are the point of a kernel
    report = static_check.check_file(os.path.join(STATIC_CASES, "good_linear_gelu_design_example.py"))
    assert report.ok


def test_kernelbench_rules():
    assert static_check.kernelbench_check("import torch.nn.functional as F\n")  # KernelBench flags this import
    source = open(os.path.join(STATIC_CASES, "good_scaled_relu.py")).read()
    assert static_check.kernelbench_check(source) == []
    assert any("try" in p for p in static_check.kernelbench_check(source + "\ntry:\n    x = 1\nexcept:\n    x = 2\n"))


def test_submodule_defined_after_its_user_is_followed():
    source = MODEL_TEMPLATE.format(helpers="", body="        return self.sub(x)").replace(
        "        self.count = 0\n", "        self.count = 0\n        self.sub = Later()\n")
    source += "\n\nclass Later(nn.Module):\n    def forward(self, x):\n        return x * 2\n"
    assert static_check.check_source(source).rules() == ["tensor_arith"]
