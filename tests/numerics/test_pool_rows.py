"""Adaptive pools whose windows span many rows read the input plane by whole rows (lower_window.cpp's row form: a
[BLOCK_H, BLOCK_W] tile of window rows by the full input row, the rows reduced, then each output's segment of the
row). Checked against PyTorch on inputs that make the argmax rule matter: small integers (ties: the first in
row-major order wins), NaNs in the second batch (the last NaN wins) and -inf rows in the first plane (windows where
nothing exceeds -inf keep PyTorch's initial index); averages over windows of varying size. The cases cover rows in
chunks with a masked tail (BLOCK_H < the window's rows), overlapping windows along both dims, a 3-D pool, a unit
output dim, rows that are not a power of two, a permuted input and 16-bit inputs. Run by Triton's interpreter."""

from .paths import convert_forward, run_interpreted

# (call, input shape, dtype)
CASES = [
    ("F.adaptive_max_pool2d(x, (4, 7), return_indices=True)", (2, 3, 122, 61), "float32"),
    ("F.adaptive_max_pool2d(x, (2, 2), return_indices=True)", (2, 2, 21, 1100), "float32"),  # 11 rows, 2 a chunk
    ("F.adaptive_max_pool2d(x, (2, 3))", (2, 3, 37, 50), "float16"),
    ("F.adaptive_max_pool2d(x, (3, 2), return_indices=True)[1]", (2, 3, 40, 30), "float32"),  # the indices alone
    ("F.adaptive_max_pool3d(x, (2, 3, 2), return_indices=True)", (2, 3, 7, 9, 23), "float32"),
    ("F.adaptive_avg_pool2d(x, (3, 5))", (2, 3, 65, 47), "float32"),
    ("F.adaptive_avg_pool3d(x, (1, 3, 2))", (2, 3, 5, 11, 19), "bfloat16"),
    ("F.adaptive_avg_pool3d(x, (2, 2, 3))", (2, 3, 7, 9, 13), "float32"),
    ("torch.relu(F.adaptive_avg_pool2d(x.transpose(0, 1), (2, 3)))", (3, 2, 40, 37), "float32"),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
results = []
for path, call, shape, dtype in json.loads(sys.argv[1]):
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
    ref = eval(call, {"F": F, "x": x, "torch": torch})
    got = m.ModelNew()(x)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    problems = []
    if len(refs) != len(gots):
        problems.append(f"{len(gots)} outputs, expected {len(refs)}")
    for r, o in zip(refs, gots):
        if o.shape != r.shape or o.dtype != r.dtype:
            problems.append(f"{o.dtype} {list(o.shape)}, expected {r.dtype} {list(r.shape)}")
        elif "max" in call and (not torch.equal(o.isnan(), r.isnan()) or not torch.equal(o.nan_to_num(), r.nan_to_num())):
            bad = (o.nan_to_num() != r.nan_to_num()) | (o.isnan() != r.isnan())
            problems.append(f"{r.dtype}: {int(bad.sum())} of {r.numel()} differ, e.g. got "
                            f"{o[bad][:5].tolist()}, expected {r[bad][:5].tolist()}")
        elif "avg" in call:
            tol = 1e-5 if dtype == "float32" else 1e-2
            if not torch.allclose(o.float(), r.float(), atol=tol, rtol=tol):
                problems.append(f"max diff {(o.float() - r.float()).abs().max().item()}")
    if "[BLOCK_H, BLOCK_W]" not in source:
        problems.append("the input is not read by whole rows ([BLOCK_H, BLOCK_W])")
    if source.count("@triton.jit") != 1:
        problems.append("not one kernel")
    results.append(f"{call} on {list(shape)}: " + "; ".join(problems) if problems else None)
print(json.dumps(results))
"""


def test_pool_rows_against_torch(tmp_path):
    jobs = []
    for i, (call, shape, dtype) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}.to(torch.{dtype})")
        jobs.append((str(out), call, shape, dtype))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
