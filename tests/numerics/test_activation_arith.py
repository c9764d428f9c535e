"""Activations computed with eager's own arithmetic, on fp32 inputs where a shortcut shows (run by Triton's
interpreter against eager PyTorch on the CPU):
- elu, selu, celu and torch.expm1 near 0, within 1e-6 relative: ATen takes expm1 for the negative branch, and
  exp(x) - 1 loses the digits of a small x (1e-4 relative at x = -1e-3; docs/NUMERICS.md);
- hardsigmoid and hardswish bit for bit (torch.equal): ATen's CPU kernels divide by 6 (hardswish as (x * r) / 6,
  r = relu6(x + 3)), its CUDA kernels multiply by the float 1/6; x * (r / 6) or r * (1 / 6) is an ulp off for
  about a quarter of all x."""

import pytest

from .paths import convert_forward, run_interpreted

# magnitudes from 1e-8 to about 3, three quarters of them negative
NEAR_ZERO = "torch.where(torch.rand(4001) < 0.75, -1.0, 1.0) * torch.exp(torch.rand(4001) * -19 + 1)"
WIDE = "torch.randn(65537) * 4"

# (forward expression, get_inputs()' expression, exact)
CASES = [
    ("F.elu(x)", NEAR_ZERO, False),
    ("torch.selu(x)", NEAR_ZERO, False),
    ("F.celu(x, alpha=1.3)", NEAR_ZERO, False),
    ("F.elu(x, alpha=0.5)", WIDE, False),
    ("torch.expm1(x)", NEAR_ZERO, False),
    ("F.hardsigmoid(x)", WIDE, True),
    ("F.hardswish(x)", WIDE, True),
    ("nn.Hardswish()(x) + F.hardsigmoid(x * 0.37)", WIDE, True),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn as nn
import torch.nn.functional as F
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
    if job["exact"]:
        if not torch.equal(got, want):
            f = job["expr"] + ": " + str((got != want).sum().item()) + " of " + str(want.numel()) + " differ"
    else:
        rel = ((got.double() - want.double()).abs() / want.double().abs().clamp_min(1e-30)).max().item()
        if rel > 1e-6:
            f = job["expr"] + ": max relative diff " + str(rel)
    failures.append(f)
print(json.dumps(failures))
"""


def test_activation_arithmetic(tmp_path):
    jobs = []
    for i, (expr, inp, exact) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"act{i}", expr, inp)
        jobs.append({"gen": str(gen), "expr": expr, "input": inp, "exact": exact})
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
