"""Horizontal fusion of pointwise kernels that meet (fuse.cpp, merge_pointwise): a pointwise op reading values of
two pointwise kernels over its space, neither cheap enough to recompute, runs with both in one kernel instead of
one kernel storing its value for the other; never when one kernel reads from the other (directly or through a
third: a cycle), nor when the value is read through a view (computed twice under another map). Each case is
converted by tritonize, its kernel count checked, and run by Triton's interpreter against eager PyTorch."""

import re

import pytest

from .paths import check_forwards, convert_forward

# Chains of more than kMaxInlined (16) pointwise nodes each: never recomputed by another kernel.
A = "F.selu(F.elu(F.silu(x) * 1.5, alpha=0.7) + F.mish(x) * F.softplus(x))"
B = "F.selu(F.elu(F.silu(y) * 0.5, alpha=1.3) + F.mish(y) * F.softsign(y))"
C = "F.selu(F.elu(F.silu(({B}).flip(-1)) * 0.5, alpha=1.1) + F.mish({B}) * 0.25)".format(B=B)

# (forward expression, inputs, parameter names, kernels expected, tolerance)
CASES = [
    # act_hardsigmoid_leaky_selu_fp16's body: was selu(x) * selu(y * 0.5) stored by one kernel, read by the next
    ("F.hardsigmoid(x * 4.0) * F.leaky_relu(y, 0.2) + F.hardsigmoid(y * 4.0) * F.leaky_relu(x, negative_slope=0.05)"
     " + torch.selu(x) * F.selu(y * 0.5)",
     "torch.randn(3, 7, 131).half(), torch.randn(3, 7, 131).half()", "x, y", 1, 1e-2),
    (f"{A} + {B}", "torch.randn(3, 7, 131), torch.randn(3, 7, 131)", "x, y", 1, 1e-4),
    # the second value read transposed: not merged (each kernel computes its values under one map)
    (f"{A} + ({B}).t()", "torch.randn(67, 67), torch.randn(67, 67)", "x, y", 2, 1e-4),
    # the flipped value must be in memory before the second kernel reads it: never merged
    (f"({A}).flip(-1) * 2 + F.selu(F.elu(F.silu(x.flip(-1)) * 1.5, alpha=0.7) + F.mish(x) * F.softplus(x))",
     "torch.randn(3, 7, 131)", "x", 2, 1e-4),
    # a + b * sum(flip(a)): b's kernel reads the sum's kernel, which reads a's: never merged
    (f"{A} + ({B}) * ({A}).flip(-1).sum(-1, keepdim=True)", "torch.randn(3, 7, 131), torch.randn(3, 7, 131)",
     "x, y", 3, 1e-4),
    # where(a > 0, b, c), c reading b flipped: c's kernel merges into a's, b's does not (a + b would read c,
    # which reads b: a cycle); was three kernels
    (f"torch.where({A} > 0, {B}, {C})", "torch.randn(3, 7, 131), torch.randn(3, 7, 131)", "x, y", 2, 1e-4),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_pointwise_merge(tmp_path, case):
    expr, inputs, params, kernels, tol = CASES[case]
    gen = convert_forward(tmp_path, f"merge{case}", expr, inputs, params)
    text = gen.read_text()
    found = len(re.findall(r"^@triton\.jit\ndef \w+_kernel\(", text, re.M))  # (not the _expm1 helpers)
    assert found == kernels, f"{expr}: {found} kernels\n{text}"
    names = [p.strip() for p in params.split(",")]
    failures = check_forwards([{"gen": str(gen), "expr": expr, "inputs": inputs, "params": names}], tol)
    assert not failures, "\n".join(failures)
