"""Reshapes that split or merge dims of a computed value, or merge a permuted input across its permuted dims, between
pointwise ops and reductions: sink_reshape runs the consumer in the common refinement of both shapes, so the
producer and consumer share one kernel and the input is read by strides (no buffer between them, no copy kernel).
Each case is converted by tritonize, its kernel count checked, and run by Triton's interpreter against eager
PyTorch."""

import pytest

from .paths import check_forwards, convert_forward

# (forward expression, inputs, parameter names, kernels expected, dtype tolerance)
CASES = [
    # flatten(x, 2) + pos feeding flatten(x, 1) * w: a merge of a computed value (was two kernels and a buffer)
    ("torch.flatten(x, 1) * w + (x.flatten(2) + p).flatten(1)",
     "torch.randn(3, 5, 11, 13), torch.randn(715), torch.randn(143)", "x, w, p", 1, 1e-4),
    # a split of a computed value before a broadcast add
    ("(x * 2 + 1).reshape(3, 5, 143) + p", "torch.randn(3, 715), torch.randn(143)", "x, p", 1, 1e-4),
    # merged heads of a permuted input normalised over the merged dim (was a copy kernel, then the norm)
    ("x.transpose(1, 2).reshape(2, 29, 21) * torch.rsqrt(x.transpose(1, 2).reshape(2, 29, 21).pow(2).mean(-1, keepdim=True) + 1e-6)",
     "torch.randn(2, 3, 29, 7)", "x", 1, 1e-4),
    ("(x.transpose(1, 2).reshape(2, 29, 21).float() * torch.rsqrt(x.transpose(1, 2).reshape(2, 29, 21).float().pow(2).mean(-1, keepdim=True) + 1e-6)).to(x.dtype)",
     "torch.randn(2, 3, 29, 7).to(torch.bfloat16)", "x", 1, 1e-2),
    # a sum over a merge of a computed value, its result scaled per row
    ("x.exp().reshape(3, -1).sum(1) * s", "torch.randn(3, 5, 7), torch.randn(3)", "x, s", 1, 1e-4),
    # tril/triu read their row and column: computed in their own shape only (the base sank tril through the
    # reshape into [3, 715], a wrong result); here the producer is split instead
    ("torch.tril((x * 2).reshape(3, 5, 143)) + p", "torch.randn(3, 715), torch.randn(143)", "x, p", 1, 1e-4),
    ("torch.tril((x * 2).reshape(3, 715)) + p", "torch.randn(3, 5, 143), torch.randn(715)", "x, p", 2, 1e-4),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_refined_views(tmp_path, case):
    expr, inputs, params, kernels, tol = CASES[case]
    gen = convert_forward(tmp_path, f"refined{case}", expr, inputs, params)
    text = gen.read_text()
    assert text.count("@triton.jit") == kernels, f"{expr}: {text.count('@triton.jit')} kernels\n{text}"
    assert "pointwise_copy" not in text, f"{expr}: a copy kernel"
    names = [p.strip() for p in params.split(",")]
    failures = check_forwards([{"gen": str(gen), "expr": expr, "inputs": inputs, "params": names}], tol)
    assert not failures, "\n".join(failures)
