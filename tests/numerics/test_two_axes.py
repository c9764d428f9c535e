"""Two reductions of one input over different axes in one kernel (fuse's two-axes merge, kernel/lower_two_axes.cpp):
x.sum(0) beside x.mean(1) read x once. A program owns BLOCK_R rows of one class of dims and walks the other in
segments: the reductions over the walked dims complete in the program; each step stores the partials of the ones
over the rows, and a segment's last program (count-in) combines them in row-block order. The cases cover the lanes
along the kept dims ([T, B, D] reduced over 0 and 1) and along a reduced dim (rows and columns of a matrix; a kept
outer dim), fp16 products (rounded once, as eager), NaN and -inf through max/min, row masks, and more row blocks than
a finisher block. Several segments need partials past 1 MB (16M elements: minutes in the interpreter), so
test_two_axes_segments only converts such a case. Each model is called twice (the second call finds the counters the first
left). The base compiler launched two kernels, each reading the whole input."""

import re

from .paths import convert_forward, run_interpreted

# (forward expression, inputs, parameter names, tolerance, fix-up on the inputs, SEGMENTS of the launch)
CASES = [
    # lanes along the kept D; R = dim 1 (129 rows: 3 row blocks, the last masked), C = dim 0 walked index by index
    ("x.sum(dim=0), torch.mean(x, dim=1)", "torch.randn(11, 129, 53)", "x", 1e-4, "", 1),
    # fp16 products of factors near 1 over dims 0 and 1 (eager accumulates in fp32 and rounds once)
    ("(1.0 + 0.01 * x).prod(dim=0), torch.prod(1.0 + 0.01 * x, 1)", "torch.randn(7, 66, 20).half()", "x", 1e-2, "",
     1),
    # NaN rules: a NaN and a -inf (log(-inf) is NaN) in rows and columns, a full-size output beside the reductions
    ("torch.amax(torch.log(x + 3.5), dim=1), torch.amin(torch.log(x + 3.5), dim=0), torch.relu(torch.log(x + 3.5))",
     "torch.randn(150, 301)", "x", 1e-6, "x[100, 5] = float('nan'); x[3, 7] = float('-inf'); x[149, 300] = float('nan')",
     1),
    # a kept outer dim (a counter per outer index), lanes along the reduced last dim
    ("torch.sum(x, dim=2), torch.amax(x, dim=1, keepdim=True)", "torch.randn(3, 67, 130)", "x", 1e-4, "", 1),
    # 66 row blocks (two finisher blocks of 64, the second masked)
    ("x.amax(dim=1), x.sum(dim=0)", "torch.randn(4200, 20)", "x", 1e-4, "x[4100, 19] = float('nan')", 1),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
results = []
for path, expr, inputs, params, tol, fix in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    args = eval(inputs)
    args = args if isinstance(args, tuple) else (args,)
    names = [p.strip() for p in params.split(",")]
    exec(fix, dict(zip(names, args)))
    want = eval(expr, {"torch": torch}, dict(zip(names, args)))
    wants = want if isinstance(want, tuple) else (want,)
    model = m.ModelNew()
    failure = None
    for attempt in ("first call", "second call"):
        got = model(*args)
        gots = got if isinstance(got, tuple) else (got,)
        for g, w in zip(gots, wants):
            ok = g.shape == w.shape and g.dtype == w.dtype and torch.allclose(g.float(), w.float(), atol=tol,
                                                                               rtol=tol, equal_nan=True)
            if not ok:
                failure = f"{expr} on {inputs}, {attempt}: max diff {(g.float() - w.float()).abs().max().item()}"
        if failure:
            break
    results.append(failure)
print(json.dumps(results))
"""


def launches(text: str) -> list:
    """The kernels the generated file launches, in order."""
    return re.findall(r"_launch\(\s*(\w+_kernel),", text)


def test_two_axes(tmp_path):
    jobs = []
    for i, (expr, inputs, params, tol, fix, segments) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", expr, inputs, params)
        text = out.read_text()
        assert len(launches(text)) == 1, f"{expr}: launches {launches(text)}, expected one kernel reading x once"
        assert "walking the looped dims in SEGMENTS segments" in text, f"{expr}: not the two-axes form"
        assert re.findall(r"\bSEGMENTS=(\d+)", text) == [str(segments)], f"{expr}: SEGMENTS"
        jobs.append((str(out), expr, inputs, params, tol, fix))
    failures = run_interpreted(RUNNER, jobs, timeout=600)
    assert not failures, "\n".join(failures)


def test_two_axes_rule(tmp_path):
    # (expression, one kernel?): reductions of different inputs, argmax/argmin (index-keeping combines, not in this
    # form) and kept dims on both sides of the reduced ones stay separate kernels
    rule = [
        ("x.sum(dim=0), y.sum(dim=1)", "torch.randn(64, 96), torch.randn(64, 96)", "x, y", False),
        ("torch.argmax(x, dim=0), x.sum(dim=1)", "torch.randn(64, 96)", "x", False),
        ("x.sum(dim=1), x.sum(dim=3)", "torch.randn(4, 8, 6, 10)", "x", False),  # kept dims 0 and 2: two runs
        ("x.sum(dim=1), x.amin(dim=2)", "torch.randn(4, 8, 6)", "x", True),
        # read across the space's last dim: the column kernel's transposed tile stores both outputs coalesced
        ("x.transpose(1, 2).mean(dim=1), x.transpose(1, 2).mean(dim=0)", "torch.randn(5, 40, 30)", "x", False),
    ]
    for i, (expr, inputs, params, one) in enumerate(rule):
        text = convert_forward(tmp_path, f"rule{i}", expr, inputs, params).read_text()
        assert (len(launches(text)) == 1) == one, f"{expr}: launches {launches(text)}"


def test_two_axes_segments(tmp_path):
    # 128 row blocks of 64 rows; a segment's partials are at most 1 MB: 32 chunks of 64 columns, so 2100 columns
    # make two segments, the second of one masked chunk (its values checked once in the interpreter, 4 minutes)
    text = convert_forward(tmp_path, "seg", "x.amax(dim=1), x.sum(dim=0)", "torch.randn(8192, 2100)").read_text()
    assert len(launches(text)) == 1
    assert re.findall(r"\bSEGMENTS=(\d+)", text) == ["2"] and "SEGMENT=2048" in text and "ROW_BLOCKS=128" in text
