"""The graph passes that rewrite fp32 matrix products, against PyTorch under Triton's interpreter. The corpus'
shrunk sizes are under both passes' thresholds, so these cases are sized for them; each generated file must show
the rewrite (or its absence) in its kernels.

- split_k (passes/split_k.cpp): a long K with few output tiles becomes S partial products and a sum: A @ B,
  x @ w.t() (a transposed operand), F.linear plus a constant, K already a multiple of 4 S (no padding copies),
  and K and N both misaligned on a product large enough for gemm_align (split_k's copy of B pads N too).
- gemm_align (passes/gemm_align.cpp): K or N rows not 16-byte aligned run on zero-padded copies: row-major
  operands, a transposed A, a transposed B, both transposed (the copy transposes them), and N alone misaligned
  with a transposed A (A is not copied, and the pass leaves a product whose uncopied operand is not row-major).

Each operand is padded by one copy at most: no copy kernel reads another copy's output (B with K and N both
misaligned was copied twice, 2 GB of extra traffic on gemm_large_k)."""

import re

import pytest

from .paths import convert_forward, emitted_kernels, run_interpreted

SPLIT_K = [
    # (forward, input shapes)
    ("torch.mm(a, b)", [(17, 16411), (16411, 19)]),
    ("a @ b.t()", [(21, 20483), (13, 20483)]),
    ("F.linear(a, b) + 1.5", [(9, 16384), (13, 16384)]),
    ("torch.mm(a, b)", [(257, 8195), (8195, 259)]),
]
GEMM_ALIGN = [
    # (forward, input shapes, padded)
    ("torch.mm(a, b)", [(257, 261), (261, 259)], True),
    ("torch.mm(a.t(), b)", [(261, 257), (261, 259)], True),
    ("a @ b.t()", [(257, 261), (259, 261)], True),
    ("torch.mm(a.t(), b.t())", [(261, 257), (259, 261)], True),
    ("torch.mm(a.t(), b)", [(264, 257), (264, 259)], False),
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
    a, b = (torch.randn(*s) / s[-1] ** job["scale"] for s in job["shapes"])
    want = eval(job["expr"])
    got = gen.ModelNew()(a, b)
    ok = torch.allclose(got, want, atol=1e-4, rtol=1e-4)
    failures.append(None if ok else job["expr"] + ": max diff " + str((got - want).abs().max().item()))
print(json.dumps(failures))
"""


def copies_of_copies(gen):
    """The copy launches in the generated forward() that read the output of another copy launch."""
    forward = gen.read_text().split("def forward", 1)[1]
    copied, found = set(), []
    for out, fn, args in re.findall(r"(\w+) = (\w+)\(([^)]*)\)", forward):
        if fn.startswith("pointwise_copy"):
            found += [f"{fn}({args})" for arg in args.split(",") if arg.strip() in copied]
            copied.add(out)
    return found


def convert(tmp_path, name, expr, shapes):
    return convert_forward(tmp_path, name, expr, ", ".join(f"torch.randn{s}" for s in shapes), params="a, b")


@pytest.mark.parametrize("pass_name", ["split_k", "gemm_align"])
def test_gemm_pass(tmp_path, pass_name):
    jobs = []
    if pass_name == "split_k":
        for i, (expr, shapes) in enumerate(SPLIT_K):
            gen = convert(tmp_path, f"sk{i}", expr, shapes)
            kernels = emitted_kernels(gen)
            assert "matmul space [" in kernels and "axes {0}: sum" in kernels, f"{expr}: not split\n{kernels}"
            assert not copies_of_copies(gen), f"{expr}: copies of copies {copies_of_copies(gen)}\n{kernels}"
            jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes, "scale": 0.25})
    else:
        for i, (expr, shapes, padded) in enumerate(GEMM_ALIGN):
            gen = convert(tmp_path, f"ga{i}", expr, shapes)
            kernels = emitted_kernels(gen)
            copied = "pointwise space" in kernels and "copy*" in kernels
            assert copied == padded, f"{expr}: padded copy {copied}\n{kernels}"
            assert not copies_of_copies(gen), f"{expr}: copies of copies {copies_of_copies(gen)}\n{kernels}"
            jobs.append({"gen": str(gen), "expr": expr, "shapes": shapes, "scale": 0.0})
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)
