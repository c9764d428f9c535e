"""A reduction of the same reduction over other axes is one reduction over the union of the axes (decompose.cpp,
NestedReductions), against PyTorch.

- min of min, max of max keep PyTorch's NaN rule (a NaN anywhere in the union, beside -inf and +inf, gives NaN)
  and are compared exactly; keepdim on either side, a chain of three.
- float32 sum of sum, prod of prod and mean of mean are one accumulation (compared at 1e-4); an int32 sum of sum
  (int64, exact).
- the corpus form (red_sum_min_keepdim_false): `sum(x, (1, 2)) + x.min(2).values.amin(1)` is one kernel, so x is
  read once (it was three kernels, x read twice).
- left alone: an inner reduction used twice, a 16-bit sum of sums (eager rounds the intermediate), an inner min
  beside the argmin of the same axes (it shares the argmin's read of x).
Converted by tritonize and run by Triton's interpreter in one subprocess."""

import re

from .paths import convert_forward, emitted_kernels, run_interpreted

SHAPE = "(3, 5, 7, 9)"
NANS = ("x[0, 2, 3, 4] = float('nan'); x[1, 4, 6, 0] = float('nan'); x[1, 0, 0, 0] = float('-inf');"
        "x[2, 1, 5, 8] = float('inf'); x[2, 3, 2, 8] = float('nan')")

# (forward expression, input expression, fix-up run on x, exact comparison, kernels generated,
#  a text --emit=kernels must contain)
CASES = [
    ("x.amin(1, keepdim=True).amin(2)", f"torch.randn{SHAPE}", NANS, True, 1, "axes {1,2}: min*"),
    ("x.min(dim=2).values.amin(dim=1)", f"torch.randn{SHAPE}", NANS, True, 1, "axes {1,2}: min*"),
    ("x.amax(2, keepdim=True).amax(1)", f"torch.randn{SHAPE}.to(torch.bfloat16)", NANS, True, 1,
     "axes {1,2}: max*"),
    ("x.amax(3).amax(2).amax(1, keepdim=True)", f"torch.randn{SHAPE}", NANS, True, 1, "axes {1,2,3}: max*"),
    # the corpus form (a NaN makes both the sum and the min NaN; the other outputs compared at 1e-4)
    ("torch.sum(x, dim=(1, 2)) + x.min(dim=2).values.amin(dim=1)", f"torch.randn{SHAPE}", NANS, False, 1,
     "axes {1,2}: sum min add*"),
    ("x.sum(2).sum(1)", f"torch.randn{SHAPE}", "", False, 1, "axes {1,2}: sum*"),
    ("x.prod(2, keepdim=True).prod(1, keepdim=True)", f"1 + 0.1 * torch.randn{SHAPE}", "", False, 1,
     "axes {1,2}: prod*"),
    ("x.mean(3).mean(2)", f"torch.randn{SHAPE}", "", False, 1, "axes {2,3}: sum mul*"),
    ("x.sum(1).sum(1)", f"torch.randint(-9, 9, {SHAPE}, dtype=torch.int32)", "", True, 1, "axes {1,2}: sum*"),
    # not merged
    ("x.amin(2).amin(1), x.amin(2)", f"torch.randn{SHAPE}", NANS, True, 2, "axes {2}: min*"),
    ("x.sum(2).sum(1)", f"torch.randn{SHAPE}.to(torch.float16)", "", False, 2, "axes {2}: sum*"),
    ("torch.min(x, 2)[1], torch.min(x, 2)[0].amin(1)", f"torch.randn{SHAPE}", NANS, True, 2,
     "axes {2}: min* argmin*"),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
results = []
for path, call, inputs, fix, exact in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    x = eval(inputs, {"torch": torch})
    exec(fix, {"x": x})
    ref = eval(call, {"torch": torch, "x": x})
    refs = tuple(ref) if isinstance(ref, tuple) else (ref,)
    got = m.ModelNew()(x)
    gots = tuple(got) if isinstance(got, (tuple, list)) else (got,)
    problem = None if len(gots) == len(refs) else f"{len(gots)} outputs, expected {len(refs)}"
    for i, (g, r) in enumerate(zip(gots, refs)):
        if problem:
            break
        if g.shape != r.shape or g.dtype != r.dtype:
            problem = f"output {i}: {g.dtype}{list(g.shape)}, expected {r.dtype}{list(r.shape)}"
        elif exact and r.is_floating_point() and not torch.equal(g.isnan(), r.isnan()):
            problem = f"output {i}: NaN at {g.isnan().nonzero().tolist()}, expected {r.isnan().nonzero().tolist()}"
        elif exact and not torch.equal(g.nan_to_num(7.0) if r.is_floating_point() else g,
                                       r.nan_to_num(7.0) if r.is_floating_point() else r):
            problem = f"output {i} differs: {g.flatten()[:8]} against {r.flatten()[:8]}"
        elif not exact:
            tol = 1e-4 if r.dtype == torch.float32 else 1e-2
            if not torch.allclose(g.float(), r.float(), atol=tol, rtol=tol, equal_nan=True):
                problem = f"output {i}: max diff {(g.float() - r.float()).abs().nan_to_num(0.0).max().item()}"
    results.append(None if problem is None else f"{call} on {inputs}: {problem}")
print(json.dumps(results))
"""


def test_nested_reductions(tmp_path):
    jobs = []
    for i, (call, inputs, fix, exact, kernels, form) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, inputs)
        text = out.read_text()
        launched = re.findall(r"^def \w+_kernel\(", text, re.M)
        assert len(launched) == kernels, f"{call} on {inputs}: {len(launched)} kernels, expected {kernels}"
        assert form in emitted_kernels(out), f"{call} on {inputs}: no kernel {form!r}"
        jobs.append((str(out), call, inputs, fix, exact))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
