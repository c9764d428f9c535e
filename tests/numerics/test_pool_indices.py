"""Max pooling with return_indices against PyTorch on inputs that make the argmax rule matter: small integers
(many windows hold their maximum more than once: the first occurrence in row-major order wins), NaNs in the second
batch (the last NaN in row-major order wins, several in many windows) and a plane of -inf (windows where nothing exceeds the
initial -inf keep PyTorch's initial index). The cases cover the window kernel's [BLOCK, LANES] tiles (per-lane
argmax combined across lanes: non-overlapping windows, long windows, chunked lanes, adaptive windows of varying
size), its serial form, and values and indices computed by one kernel. Run by Triton's interpreter on the CPU."""

from .paths import convert_forward, run_interpreted

# (call, input shape, whether the window's last dim is a [BLOCK, LANES] tile)
CASES = [
    ("F.adaptive_max_pool2d(x, (5, 7), return_indices=True)", (2, 3, 25, 129), True),
    ("F.adaptive_max_pool2d(x, (3, 2), return_indices=True)[1]", (2, 3, 9, 40), True),  # the indices alone
    ("F.adaptive_max_pool1d(x, 3, return_indices=True)", (2, 3, 100), True),
    ("F.adaptive_max_pool3d(x, (2, 3, 4), return_indices=True)", (2, 3, 5, 7, 80), True),  # 9 rows: < 4 * OW
    ("F.max_pool1d(x, 300, stride=5, padding=150, return_indices=True)", (2, 3, 301), True),  # 3 chunks of 128
    ("F.max_pool2d(x, 2, return_indices=True)", (2, 3, 11, 98), True),
    ("F.max_pool2d(x, (3, 8), stride=(2, 8), return_indices=True)", (2, 3, 11, 64), True),
    ("F.max_pool3d(x, (2, 2, 4), stride=(2, 2, 4), return_indices=True)", (2, 3, 4, 6, 33), True),
    ("F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)", (2, 3, 13, 17), False),
    ("F.adaptive_max_pool1d(x.transpose(1, 2), 4, return_indices=True)", (2, 40, 20), False),
]

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
results = []
for path, call, shape, lanes in json.loads(sys.argv[1]):
    source = open(path).read()
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    g = torch.Generator().manual_seed(0)
    x = torch.randint(-2, 3, shape, generator=g).float()
    x[1][torch.rand(shape[1:], generator=g) < 0.03] = float("nan")  # the first batch has ties only
    x.view(-1, shape[-1])[:max(1, shape[-2] // 2)] = float("-inf")  # whole windows of the first plane
    ref = eval(call, {"F": F, "x": x})
    got = m.ModelNew()(x)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    problems = []
    if len(refs) != len(gots):
        problems.append(f"{len(gots)} outputs, expected {len(refs)}")
    for r, o in zip(refs, gots):
        if o.shape != r.shape or o.dtype != r.dtype:
            problems.append(f"{o.dtype} {list(o.shape)}, expected {r.dtype} {list(r.shape)}")
        elif not torch.equal(o.isnan(), r.isnan()) or not torch.equal(o.nan_to_num(), r.nan_to_num()):
            bad = (o.nan_to_num() != r.nan_to_num()) | (o.isnan() != r.isnan())
            problems.append(f"{r.dtype}: {int(bad.sum())} of {r.numel()} differ, e.g. got "
                            f"{o[bad][:5].tolist()}, expected {r[bad][:5].tolist()}")
    if lanes and "[BLOCK, " not in source:
        problems.append("the window is not read as a [BLOCK, LANES] tile")
    if source.count("@triton.jit") != 1:
        problems.append("values and indices are not computed by one kernel")
    results.append(f"{call} on {list(shape)}: " + "; ".join(problems) if problems else None)
print(json.dumps(results))
"""


def test_pool_indices_ties_and_nans(tmp_path):
    jobs = []
    for i, (call, shape, lanes) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}")
        jobs.append((str(out), call, shape, lanes))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
