"""A pointwise op that reads a broadcast of a reduction computed in a merged view of its operands (x minus the mean
of x.view(b, c, h * w) viewed back as [b, c, 1, 1]): sink_reshape runs it in the reduction's coarser space (its
operands merged by strides) and views the result back, so it joins the reduction's kernel and x is read once.
Each case is converted by tritonize, its kernel count checked, and run by Triton's interpreter against eager
PyTorch (values, shape and strides: the output stays a contiguous tensor of the consumer's shape)."""

import re

import pytest

from .paths import FORWARD_RUNNER, convert_forward, run_interpreted

X = "torch.randn(3, 5, 13, 17)"  # rows of 221: masked, more than one program along each kept dim
MEAN = "x.view(3, 5, -1).mean(2).view(3, 5, 1, 1)"

# (forward expression, inputs, parameter names, kernels expected, tolerance)
CASES = [
    # the centring of tests/corpus/view_shape_center.py (was a reduction kernel, then a pointwise one reading x)
    (f"x - {MEAN}", X, "x", 1, 1e-4),
    # an instance norm written by hand: the sub's result is merged again by the div (a chain stays coarse)
    (f"(x - {MEAN}) / torch.sqrt(x.view(3, 5, -1).var(2, unbiased=False).view(3, 5, 1, 1) + 1e-5)", X, "x", 1, 1e-4),
    # keepdim, then unsqueeze
    ("x - x.view(3, 5, -1).mean(2, keepdim=True).unsqueeze(-1)", X, "x", 1, 1e-4),
    # the reduced dim is not the merged one: a max over channels broadcast along them
    ("x - x.view(3, 5, -1).amax(1).view(3, 1, 13, 17)", X, "x", 1, 1e-4),
    # a parameter of lower rank broadcast along the merged dims, and a pointwise producer of x recomputed
    (f"(x.exp() - {MEAN}) * w", f"{X}, torch.randn(5, 1, 1)", "x, w", 1, 1e-4),
    # a value computed in the coarse space, viewed back, then scaled (was two kernels)
    ("(x.view(3, 5, -1) - x.view(3, 5, -1).mean(2, keepdim=True)).view(3, 5, 13, 17) * w",
     f"{X}, torch.randn(5, 1, 1)", "x, w", 1, 1e-4),
    # fp16: the mean rounded to fp16 as eager's is, then the sub
    (f"x - {MEAN}", f"{X}.to(torch.float16)", "x", 1, 1e-2),
    # one kernel already before this rule: a reduction over a merge of a computed value (x.float()) runs in the
    # refinement, [3, 5, 13, 17] (the consumer's shape)
    ("(x.float() - x.float().view(3, 5, -1).mean(2).view(3, 5, 1, 1)).to(x.dtype)",
     f"{X}.to(torch.float16)", "x", 1, 1e-2),
    # unchanged: an operand that strides cannot merge (transposed), one broadcast along some of a merged run's
    # dims and not others ([13, 1] against [13, 17]), a sum over one of the merged dims
    (f"x.transpose(2, 3) - {MEAN}", X, "x", 2, 1e-4),
    (f"x - {MEAN} + y", f"{X}, torch.randn(13, 1)", "x, y", 2, 1e-4),
    (f"(x - {MEAN}).sum(3)", X, "x", 2, 1e-4),
]

# FORWARD_RUNNER, also failing when eager's result is contiguous and ModelNew's is not (the coarse result viewed
# back must be the tensor PyTorch returns; eager keeps a transposed operand's layout, ModelNew stays contiguous)
RUNNER = FORWARD_RUNNER.replace(
    "ok = got.shape == want.shape and",
    "ok = got.shape == want.shape and (got.is_contiguous() or not want.is_contiguous()) and")


@pytest.mark.parametrize("case", range(len(CASES)))
def test_coarsened_views(tmp_path, case):
    expr, inputs, params, kernels, tol = CASES[case]
    gen = convert_forward(tmp_path, f"coarsened{case}", expr, inputs, params)
    text = gen.read_text()
    found = len(re.findall(r"^def \w+_kernel\(", text, re.M))
    assert found == kernels, f"{expr}: {found} kernels\n{text}"
    names = [p.strip() for p in params.split(",")]
    failures = run_interpreted(RUNNER, [{"gen": str(gen), "expr": expr, "inputs": inputs, "params": names}], str(tol))
    assert not failures, "\n".join(failures)
