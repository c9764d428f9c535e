"""Window kernels (lower_window.cpp): a max pool without indices keeps its running maximum with
tl.maximum(acc, v, propagate_nan=ALL) (one max.NaN instruction; PyTorch's rule, a larger value or a NaN replaces
the maximum, gives the same values); an input contiguous along a pooled dim that is not the last one (a 2-D pool of
x.transpose(2, 3)) gets the transposed [BLOCK_T, BLOCK_I] tile, its loads along that dim and its stores along the
output's last dim, as a channels-last input already did along its channels. Checked against PyTorch on inputs with
ties (small integers), NaNs and -inf rows, and by the generated text. Run by Triton's interpreter."""

from .paths import convert_forward, run_interpreted

NANMAX = "propagate_nan=tl.PropagateNan.ALL)"
TRANSPOSED = "[BLOCK_T, BLOCK_I]"

# (call, input shape, dtype, what the generated text must show)
CASES = [
    ("F.max_pool2d(x, 3, 1, 1)", (2, 3, 17, 20), "bfloat16", [NANMAX]),
    ("F.max_pool1d(x, 3, 2, 1, dilation=2, ceil_mode=True)", (2, 3, 41), "float16", [NANMAX]),
    ("F.max_pool3d(x, (2, 3, 3), 2, dilation=(1, 1, 2), ceil_mode=True)", (2, 2, 7, 10, 13), "float32", [NANMAX]),
    ("F.max_pool1d(x, 16, 4)", (2, 3, 70), "float32", [NANMAX]),  # lanes
    ("torch.relu(F.max_pool2d(x.permute(0, 3, 1, 2), 3, 2, 1))", (2, 9, 40, 20), "float32", [NANMAX, TRANSPOSED]),
    ("F.max_pool2d(x.transpose(2, 3), (3, 2), (2, 3), (1, 0), (2, 3), ceil_mode=True)", (2, 3, 50, 40), "float32",
     [NANMAX, TRANSPOSED]),
    ("F.avg_pool2d(x.transpose(2, 3), 3, 2, 1, ceil_mode=True, count_include_pad=False)", (2, 3, 36, 41),
     "bfloat16", [TRANSPOSED]),
    ("F.max_pool3d(x.permute(0, 1, 4, 2, 3), 2, 2, return_indices=True)", (2, 2, 6, 34, 40), "float32",
     [TRANSPOSED]),
    ("F.adaptive_max_pool2d(x, (2, 3))", (2, 3, 40, 30), "float16", [NANMAX]),  # the row form, values only
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
results = []
for path, call, shape, dtype, marks in json.loads(sys.argv[1]):
    source = open(path).read()
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    g = torch.Generator().manual_seed(0)
    if "max" in call:
        x = torch.randint(-2, 3, shape, generator=g).float()
        x[1][torch.rand(shape[1:], generator=g) < 0.03] = float("nan")  # the first batch has ties only
        x.view(-1, shape[-1])[:max(1, shape[-2] // 2)] = float("-inf")  # whole windows of the first plane
    else:
        x = torch.randn(shape, generator=g)
    x = x.to(getattr(torch, dtype))
    ref = eval(call, {"F": F, "x": x.float(), "torch": torch})
    got = m.ModelNew()(x)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    problems = []
    for r, o in zip(refs, gots):
        if o.shape != r.shape:
            problems.append(f"{list(o.shape)}, expected {list(r.shape)}")
        elif r.dtype == torch.int64:
            if not torch.equal(o, r):
                problems.append(f"indices: {int((o != r).sum())} of {r.numel()} differ")
        elif "max" in call:
            o = o.float()
            if not torch.equal(o.isnan(), r.isnan()) or not torch.equal(o.nan_to_num(), r.nan_to_num()):
                bad = (o.nan_to_num() != r.nan_to_num()) | (o.isnan() != r.isnan())
                problems.append(f"{int(bad.sum())} of {r.numel()} differ, e.g. got {o[bad][:5].tolist()}, "
                                f"expected {r[bad][:5].tolist()}")
        else:
            tol = 1e-5 if dtype == "float32" else 1e-2
            if not torch.allclose(o.float(), r, atol=tol, rtol=tol):
                problems.append(f"max diff {(o.float() - r).abs().max().item()}")
    for mark in marks:
        if mark not in source:
            problems.append(f"the kernel has no {mark!r}")
    if "max" in call and "return_indices" not in call and "(v > acc) | (v != v)" in source:
        problems.append("a max without indices still takes PyTorch's rule by compare and select")
    if source.count("@triton.jit") != 1:
        problems.append("not one kernel")
    results.append(f"{call} on {list(shape)} {dtype}: " + "; ".join(problems) if problems else None)
print(json.dumps(results))
"""


def test_pool_window_forms_against_torch(tmp_path):
    jobs = []
    for i, (call, shape, dtype, marks) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to(torch.{dtype})")
        jobs.append((str(out), call, shape, dtype, marks))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
