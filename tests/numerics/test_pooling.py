"""Pooling options against PyTorch, beyond the pool_* corpus problems: each case is one pooling call on a small
input (with a NaN in it, which max pooling must propagate, and index), converted by tritonize and run by Triton's
interpreter on the CPU in one subprocess. The cases cover the kernel's paths: a loop per window offset,
[BLOCK, KW] tiles for non-overlapping windows, chunked lanes for long windows, single outputs, transposed inputs,
2-D tiles for channels-last inputs, adaptive windows of varying size, the reductions that global pools become, and
return_indices."""


from .paths import convert_forward, run_interpreted

CASES = [
    ("F.max_pool1d(x, 4, stride=2, padding=2, dilation=3, ceil_mode=True)", (2, 3, 37)),
    ("F.adaptive_max_pool1d(x, 2)", (2, 3, 700)),
    ("F.adaptive_avg_pool1d(x, 3)", (2, 3, 1001)),
    ("F.avg_pool1d(x, 40, stride=7, padding=20, ceil_mode=True, count_include_pad=False)", (2, 3, 301)),
    ("F.avg_pool1d(x, 40, stride=7, padding=20, ceil_mode=True)", (2, 3, 301)),
    ("F.max_pool1d(x, 300, stride=5, padding=150)", (2, 3, 301)),
    ("F.max_pool2d(x, (3, 20), stride=(2, 13), padding=(1, 10))", (2, 3, 11, 97)),
    ("F.avg_pool2d(x, (2, 17), stride=(2, 3), padding=(1, 8), divisor_override=5)", (2, 3, 11, 97)),
    ("F.max_pool2d(x, 2)", (2, 3, 11, 98)),
    ("F.max_pool2d(x, 4, padding=2)", (2, 3, 11, 98)),
    ("F.avg_pool2d(x, 8, padding=3, ceil_mode=True, count_include_pad=False)", (2, 3, 19, 45)),
    ("F.max_pool2d(x, (2, 4), stride=(3, 1))", (1, 1, 3, 4)),
    ("F.max_pool2d(x.transpose(2, 3), 2)", (2, 3, 11, 98)),
    ("F.max_pool3d(x, (1, 2, 8), stride=(1, 2, 8))", (2, 3, 3, 5, 67)),
    ("F.avg_pool3d(x, (2, 3, 2), stride=(1, 2, 3), padding=(1, 1, 0), ceil_mode=True)", (2, 3, 5, 7, 9)),
    ("F.adaptive_avg_pool3d(x, (1, 2, 1))", (2, 3, 3, 5, 67)),
    ("F.adaptive_max_pool2d(x, (None, 5))", (3, 9, 23)),
    ("F.adaptive_avg_pool2d(x, 1)", (2, 3, 9, 23)),
    ("F.max_pool1d(x, 4, stride=2, padding=2, dilation=3, ceil_mode=True, return_indices=True)", (2, 3, 37)),
    ("F.max_pool2d(x, 3, stride=2, padding=1, dilation=2, ceil_mode=True, return_indices=True)", (2, 3, 17, 19)),
    ("F.max_pool2d(x, 2, return_indices=True)", (2, 3, 11, 98)),
    ("F.max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=(1, 1, 0), return_indices=True)", (2, 3, 5, 7, 9)),
    ("F.adaptive_max_pool2d(x, (3, 5), return_indices=True)", (2, 3, 11, 23)),
    # windows whose only rows are padding (dilation steps over the one input row): PyTorch's initial index
    ("F.max_pool3d(x, (4, 2, 3), stride=(1, 2, 2), padding=(0, 1, 1), dilation=(1, 2, 1), ceil_mode=True,"
     " return_indices=True)", (1, 1, 5, 1, 6)),
    ("F.adaptive_max_pool1d(x, 1, return_indices=True)", (2, 3, 41)),
    # channels-last inputs pooled as NCHW: [BLOCK_T channels, BLOCK_I output columns] tiles, masked on both axes
    ("F.max_pool1d(x.transpose(1, 2), 3, stride=2, ceil_mode=True)", (2, 40, 19)),
    ("F.avg_pool1d(x.transpose(1, 2), 4, stride=3, padding=2, ceil_mode=True, count_include_pad=False)", (2, 70, 33)),
    ("F.max_pool2d(x.permute(0, 3, 1, 2), 3, stride=2, padding=1, ceil_mode=True)", (2, 9, 37, 20)),
    ("F.avg_pool2d(x.permute(0, 3, 1, 2), (2, 3), stride=(1, 2), padding=(1, 1))", (2, 5, 36, 17)),
    ("F.max_pool2d(x.permute(0, 3, 1, 2), (2, 3), stride=(2, 1), dilation=(1, 2), return_indices=True)",
     (2, 6, 40, 17)),
    ("F.adaptive_max_pool2d(x.permute(0, 3, 1, 2), (20, 1))", (2, 41, 7, 18)),  # the output rows run along h
]
# Global max pools become max reductions, whose tl.max drops NaN (a reduction-kernel matter, not pooling's):
# their inputs get no NaN.
NO_NAN = {"F.adaptive_max_pool1d(x, 1, return_indices=True)"}

RUNNER = r"""
import importlib.util, json, sys
import torch
import torch.nn.functional as F
results = []
for path, call, shape, nan in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    x = torch.randn(*shape)
    if nan:
        x.view(-1)[5] = float("nan")
    ref = eval(call, {"F": F, "x": x})
    got = m.ModelNew()(x)
    refs, gots = (ref, got) if isinstance(ref, tuple) else ((ref,), (got,))
    ok = len(refs) == len(gots) and all(
        g.shape == r.shape and g.dtype == r.dtype and torch.allclose(g, r, atol=1e-5, rtol=1e-5, equal_nan=True)
        for g, r in zip(gots, refs))
    results.append(None if ok else f"{call} on {list(shape)}: got {gots}, expected {refs}")
print(json.dumps(results))
"""


def test_pool_options(tmp_path):
    jobs = []
    for i, (call, shape) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", call, f"torch.randn{shape}")
        jobs.append((str(out), call, shape, call not in NO_NAN))
    failures = run_interpreted(RUNNER, jobs)
    assert not failures, "\n".join(failures)
