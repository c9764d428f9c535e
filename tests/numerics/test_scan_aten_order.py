"""Scans bit for bit as PyTorch computes them on a GPU: each case is a small model with a cumsum or cumprod,
converted by tritonize, run by Triton's interpreter on the CPU, and compared with torch.equal against an
emulation of ATen's CUDA scan (aten/src/ATen/native/cuda/ScanUtils.cuh) written here from its description,
independently of the lowering: innermost scans in tiles of 2T elements with Sklansky's levels, outer scans as a
sequential fold per column, fp16/bf16 rounded after every operation. CPU PyTorch scans in another order, so
these references are not torch.cumsum on the CPU. The cases reach T = 16 (log 4), 32, 64, 256 and 512 (log 9),
several tiles per row with a ragged last one, single tiles, odd sizes, outer dims (a trailing unit dim
included), fp32/fp16/bf16, cumprod, flip-reverse scans, dtype= upcasts, and fused producers and consumers."""

import sys

import pytest
import torch

from .aten_scan import aten_scan, make_input
from .paths import HERE, convert_forward, run_interpreted

# (forward body over x, input shape, input dtype, input kind, reference over x and aten_scan)
CASES = [
    # innermost: 256 rows of 100 -> log_x = (9 + 7 - 8) / 2 = 4: tiles of 32, four per row, the last ragged
    ("torch.cumsum(x, dim=-1)", (256, 100), "float32", "randn", "aten_scan(x, -1, 'sum')"),
    ("torch.cumsum(x, dim=-1)", (256, 100), "float16", "rand", "aten_scan(x, -1, 'sum')"),
    ("torch.cumsum(x, dim=-1)", (256, 100), "bfloat16", "rand", "aten_scan(x, -1, 'sum')"),
    ("torch.cumprod(x, dim=-1)", (256, 100), "float32", "near1", "aten_scan(x, -1, 'prod')"),
    ("torch.cumprod(x, dim=-1)", (256, 100), "float16", "near1", "aten_scan(x, -1, 'prod')"),
    # 2 rows of 3000 -> log_x = 9 (clamped from 10): tiles of 1024, three per row
    ("x.cumsum(1)", (2, 3000), "float32", "randn", "aten_scan(x, 1, 'sum')"),
    ("x.cumsum(1)", (2, 3000), "float16", "rand", "aten_scan(x, 1, 'sum')"),
    # 8 rows of 777 -> log_x = 8: tiles of 512, two per row
    ("torch.cumsum(x, 1) * 0.5", (8, 777), "float32", "randn", "aten_scan(x, 1, 'sum') * 0.5"),
    # 3-D, 32 rows of 300 -> log_x = 6: tiles of 128
    ("torch.cumsum(x, 2)", (4, 8, 300), "float32", "randn", "aten_scan(x, 2, 'sum')"),
    # a row within one tile (37 in ATen's 128)
    ("torch.cumsum(x, -1)", (5, 37), "float16", "rand", "aten_scan(x, -1, 'sum')"),
    # reverse scans written with flip: the flipped row is scanned in its own order
    ("x.flip(-1).cumsum(-1).flip(-1)", (256, 100), "float16", "rand", "aten_scan(x.flip(-1), -1, 'sum').flip(-1)"),
    ("x.flip(1).cumsum(1).flip(1)", (8, 777), "float32", "randn", "aten_scan(x.flip(1), 1, 'sum').flip(1)"),
    # ... with the row in one tile (37 in a tile of 64, held backwards), a reverse cumprod, a reverse 3-D
    # scan in tiles of 128 (the widest tile scanned by gathers)
    ("x.flip(-1).cumsum(-1).flip(-1)", (5, 37), "float16", "rand", "aten_scan(x.flip(-1), -1, 'sum').flip(-1)"),
    ("x.flip(-1).cumprod(-1).flip(-1)", (256, 100), "float32", "near1",
     "aten_scan(x.flip(-1), -1, 'prod').flip(-1)"),
    ("x.flip(2).cumsum(2).flip(2)", (4, 8, 300), "bfloat16", "rand", "aten_scan(x.flip(2), 2, 'sum').flip(2)"),
    # 64 rows of 100 -> log_x = 5: tiles of 64 (gathers, the carry reduced to a column)
    ("torch.cumsum(x, -1)", (64, 100), "bfloat16", "rand", "aten_scan(x, -1, 'sum')"),
    # dtype= upcast: the scan runs in fp32
    ("torch.cumsum(x, dim=-1, dtype=torch.float32)", (2, 3000), "bfloat16", "randn",
     "aten_scan(x.float(), -1, 'sum')"),
    # a fused fp16 producer: eager rounds x * x to fp16 before scanning it
    ("torch.cumsum(x * x, dim=-1)", (256, 100), "float16", "rand", "aten_scan(x * x, -1, 'sum')"),
    # a fused fp32 producer: x * 3 + 1 must not become an fma with the scan's first add
    ("torch.cumsum(x * 3.0, dim=-1)", (8, 512), "float32", "randn", "aten_scan(x * 3.0, -1, 'sum')"),
    # outer dims: a sequential fold per column
    ("torch.cumsum(x, 0)", (37, 5), "float32", "randn", "aten_scan(x, 0, 'sum')"),
    ("torch.cumsum(x, 1)", (3, 29, 7), "float16", "rand", "aten_scan(x, 1, 'sum')"),
    ("torch.cumsum(x, 1)", (3, 29, 7), "bfloat16", "rand", "aten_scan(x, 1, 'sum')"),
    ("torch.cumprod(x, 1)", (3, 29, 70), "float32", "near1", "aten_scan(x, 1, 'prod')"),
    ("torch.cumsum(x, 1)", (6, 20, 1), "float32", "randn", "aten_scan(x, 1, 'sum')"),  # not the last dim
    ("x.flip(0).cumsum(0).flip(0)", (37, 5), "float32", "randn", "aten_scan(x.flip(0), 0, 'sum').flip(0)"),
]

RUNNER = r"""
import importlib.util, json, sys
sys.path.insert(0, sys.argv[2])
import torch
from protocol import patch_interpreter
from aten_scan import aten_scan, make_input
patch_interpreter()
results = []
for path, shape, dtype, kind, ref in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    x = make_input(shape, dtype, kind)
    want = eval(ref, {"aten_scan": aten_scan, "x": x, "torch": torch})
    got = m.ModelNew()(x)
    if got.dtype != want.dtype or got.shape != want.shape or not torch.equal(got, want):
        diff = (got.double() - want.double()).abs()
        results.append(f"{ref} on {shape} {dtype}: {int((diff > 0).sum())} elements differ, max {diff.max():.3g}")
    else:
        results.append(None)
print(json.dumps(results))
"""


def test_emulation_is_not_cpu_order():
    """The reference differs from CPU PyTorch's scan where orders matter (else this test proves nothing)."""
    x = make_input((256, 100), "float16", "rand")
    assert not torch.equal(aten_scan(x, -1, "sum"), torch.cumsum(x.float(), -1).half())


def test_scans_follow_aten_order(tmp_path):
    jobs = []
    for i, (body, shape, dtype, kind, ref) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", body,
                              f"torch.rand({', '.join(map(str, shape))}, dtype=torch.{dtype})")
        jobs.append((str(out), shape, dtype, kind, ref))
    failures = run_interpreted(RUNNER, jobs, str(HERE), timeout=600)
    assert not failures, "\n".join(failures)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
