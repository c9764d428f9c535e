"""Scans with broadcast producers, and integer scans of bool values (lower_scan.cpp).

A pointwise producer of a column scan whose operand varies along the scanned dim alone (a [B, T] padding mask over
the features: cumsum(x * mask.unsqueeze(-1), dim=1)) is fused into the scan kernel, the operand loaded as a 1-D
[BLOCK_R] tile and expanded (`tl.load(...)[:, None]`): loaded as [BLOCK_R, 1] it gave the whole tile a layout with
the rows across the lanes, so the product ran as a kernel of its own and the scan read it back. An integer scan of
bool values (positions from a mask) accumulates in int32 where every partial result fits, and is widened to int64.

Each case is converted by tritonize, its text checked for that form (one kernel, the 1-D load, the accumulator's
type), and run by Triton's interpreter on the CPU: floating scans bit for bit against the emulation of ATen's CUDA
scan (aten_scan.py: the fold's order of operations is kept) and closely against PyTorch, integer scans exactly
against PyTorch."""

import re
import sys

import pytest

from .paths import HERE, convert_forward, run_interpreted

MASK = "torch.rand({b}, {t}) < 0.7"

# (forward body, params, inputs, ATen-order reference or None, PyTorch reference, kernels, text checks)
# Text checks: "line" (the factor m is loaded 1-D and expanded), "i32" / "i64" (the integer scan's accumulator).
CASES = [
    # the corpus form (scan_masked_cumsum_time, shrunk): 41 = 32 + 9 (a ragged chunk), 131 columns (two blocks)
    ("torch.cumsum(x * m.unsqueeze(-1), dim=1)", "x, m", "torch.randn(3, 41, 131), " + MASK.format(b=3, t=41),
     "aten_scan(x * m.unsqueeze(-1), 1, 'sum')", "torch.cumsum(x * m.unsqueeze(-1), dim=1)", 1, ["line"]),
    # a float factor, fp16: eager rounds the product to fp16 before the scan adds it
    ("torch.cumsum(x * w.unsqueeze(-1), dim=1)", "x, w", "torch.rand(2, 70, 300).half(), torch.rand(2, 70).half()",
     "aten_scan(x * w.unsqueeze(-1), 1, 'sum')", "torch.cumsum((x * w.unsqueeze(-1)).float(), 1).half()", 1, ["line"]),
    # a reverse scan (the flipped row: the 1-D index runs backwards too), cumprod with a factor near 1
    ("(x * m.unsqueeze(-1)).flip(1).cumsum(1).flip(1)", "x, m", "torch.randn(3, 41, 131), " + MASK.format(b=3, t=41),
     "aten_scan((x * m.unsqueeze(-1)).flip(1), 1, 'sum').flip(1)",
     "(x * m.unsqueeze(-1)).flip(1).cumsum(1).flip(1)", 1, ["line"]),
    ("torch.cumprod(x * w.unsqueeze(-1), 1)", "x, w", "1 + 0.05 * torch.randn(2, 45, 70), 1 + 0.05 * torch.randn(2, 45)",
     "aten_scan(x * w.unsqueeze(-1), 1, 'prod')", "torch.cumprod(x * w.unsqueeze(-1), 1)", 1, ["line"]),
    # a factor over the scanned dim only ([T, 1], broadcast over the batch too), and a 4-D tensor whose factor spans
    # the outer and scanned dims ([B, T, 1, 1]: the inner dims merge into one run of 120)
    ("torch.cumsum(x * w, 1)", "x, w", "torch.randn(3, 37, 50), torch.randn(37, 1)",
     "aten_scan(x * w, 1, 'sum')", "torch.cumsum(x * w, 1)", 1, ["line"]),
    ("torch.cumsum(x * m[:, :, None, None], 1) + 1.0", "x, m", "torch.randn(2, 37, 3, 40), " + MASK.format(b=2, t=37),
     "aten_scan(x * m[:, :, None, None], 1, 'sum') + 1.0", "torch.cumsum(x * m[:, :, None, None], 1) + 1.0", 1,
     ["line"]),
    # positions from a bool mask (scan_mask_positions, shrunk): int32 accumulation, int64 result; a row longer
    # than one tile (5000: chunks of 2048, the carry in int32 too); a column scan of a bool mask
    ("torch.cumsum(m, dim=1) * m - 1", "m", "torch.randint(0, 2, (23, 517)).bool()",
     None, "torch.cumsum(m, dim=1) * m - 1", 1, ["i32"]),
    ("torch.cumsum(m, dim=1) * m - 1", "m", "torch.randint(0, 2, (3, 5000)).bool()",
     None, "torch.cumsum(m, dim=1) * m - 1", 1, ["i32"]),
    ("torch.cumsum(m.int(), 0)", "m", "torch.rand(300, 70) < 0.5", None, "torch.cumsum(m.int(), 0)", 1, ["i32"]),
    ("torch.cumprod(m, 1)", "m", "torch.rand(5, 300) < 0.9", None, "torch.cumprod(m, 1)", 1, ["i32"]),
    # int64 values are not bounded by their dtype: the scan stays int64; an integer column scan with a bool row
    # factor loads the factor 1-D too
    ("torch.cumsum(k, dim=1)", "k", "torch.randint(-2**40, 2**40, (7, 300))", None, "torch.cumsum(k, dim=1)", 1,
     ["i64"]),
    ("torch.cumsum(k * m.unsqueeze(-1), 1)", "k, m", "torch.randint(-9, 9, (3, 41, 70)), " + MASK.format(b=3, t=41),
     None, "torch.cumsum(k * m.unsqueeze(-1), 1)", 1, ["line", "i64"]),
]

RUNNER = r"""
import importlib.util, json, sys
sys.path.insert(0, sys.argv[2])
import torch
from protocol import patch_interpreter
from aten_scan import aten_scan
patch_interpreter()
results = []
for path, params, inputs, ref, eager in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    torch.manual_seed(0)
    args = eval(inputs)
    args = args if isinstance(args, tuple) else (args,)
    names = dict(zip([p.strip() for p in params.split(",")], args), torch=torch, aten_scan=aten_scan)
    near = eval(eager, names)
    want = eval(ref, names) if ref else near
    got = m.ModelNew()(*args)
    if got.dtype != want.dtype or got.shape != want.shape:
        results.append(f"{eager}: {got.dtype} {tuple(got.shape)}, want {want.dtype} {tuple(want.shape)}")
    elif not torch.equal(got, want):
        diff = (got.double() - want.double()).abs()
        results.append(f"{ref or eager}: {int((diff > 0).sum())} elements differ, max {diff.max():.3g}")
    elif ref and not torch.allclose(got.float(), near.float(), rtol=1e-2 if got.dtype == torch.float16 else 1e-4,
                                    atol=1e-2 if got.dtype == torch.float16 else 1e-4):
        results.append(f"{eager}: max diff {(got.float() - near.float()).abs().max():.3g}")
    else:
        results.append(None)
print(json.dumps(results))
"""


def test_scan_producers(tmp_path):
    jobs = []
    for i, (body, params, inputs, ref, eager, kernels, checks) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", body, inputs, params=params)
        text = out.read_text()
        assert len(re.findall(r"^def \w+_kernel\(", text, re.M)) == kernels, f"{body}: kernels\n{text}"
        if "line" in checks:
            factor = "m" if "m" in params else "w"
            assert re.search(rf"{factor} = tl\.load\({factor}_ptr \+ [^\n]*r_line[^\n]*\)\[:, None\](\.to\(tl\.float32\))?\n", text), \
                f"{body}: the factor is not loaded as a 1-D tile\n{text}"
        if "i32" in checks:
            assert re.search(r"\.to\(tl\.int32\)", text) and not re.search(r"to\(tl\.int64\), [01]\)", text), \
                f"{body}: not accumulated in int32\n{text}"
            assert "int64" in text, f"{body}: not widened to int64\n{text}"
        if "i64" in checks:
            assert "tl.int32" not in text, f"{body}: int64 values accumulated in int32\n{text}"
        jobs.append((str(out), params, inputs, ref, eager))
    failures = run_interpreted(RUNNER, jobs, str(HERE), timeout=600)
    assert not failures, "\n".join(failures)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
