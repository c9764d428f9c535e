"""Row scans in ATen's tiles of 32 whose rows Triton loads an element at a time (rows not 16-byte aligned) load CHUNKS
tiles of each row per loop step (lower_scan.cpp): every chunk's
loads at the top of the step, then the chunks' levels one after the other, the carry chained between them, so more
bytes are in flight while the order of operations stays ATen's. Each case is converted by tritonize, its generated
text checked for that form (the loop's step, CHUNKS in the launch, the second chunk loaded before the first is
scanned), and run by Triton's interpreter on the CPU: compared bit for bit with the emulation of ATen's CUDA scan
(aten_scan.py) and closely with PyTorch. The cases cover ragged rows whose last step has chunks wholly past the end
(masked), short rows, reverse scans, fp16/bf16, cumprod, a consumer reading the loaded input again (cumsum - x: the
load is reused), and aligned rows and rows strided in memory (the scan of x.t()), which keep one tile a step."""

import re
import sys

import pytest

from .paths import HERE, convert_forward, run_interpreted

# (forward body over x, input shape, input dtype, input kind, ATen-order reference, PyTorch reference, CHUNKS)
# ATen takes tiles of 32 when there are at least as many rows as next_pow2(R). Rows loaded an element at a time (not
# 16-byte aligned: 301 floats, 300 halves) take 8 tiles a step, or the row's tiles rounded up to a power of two.
CASES = [
    # 301 = 9 tiles + 13: steps of 8 tiles, the second step's last chunks masked whole
    ("torch.cumsum(x, dim=-1)", (512, 301), "float32", "randn", "aten_scan(x, -1, 'sum')",
     "torch.cumsum(x, -1)", 8),
    # 97 = 3 tiles + 1: one step of 4 chunks
    ("torch.cumsum(x, dim=-1)", (256, 97), "float32", "randn", "aten_scan(x, -1, 'sum')",
     "torch.cumsum(x, -1)", 4),
    ("torch.cumsum(x, dim=-1)", (512, 300), "float16", "rand", "aten_scan(x, -1, 'sum')",
     "torch.cumsum(x.float(), -1).half()", 8),
    ("x.flip(-1).cumsum(-1).flip(-1)", (512, 300), "bfloat16", "rand", "aten_scan(x.flip(-1), -1, 'sum').flip(-1)",
     "x.float().flip(-1).cumsum(-1).flip(-1).bfloat16()", 8),
    ("x.flip(1).cumprod(1).flip(1)", (256, 101), "float32", "near1", "aten_scan(x.flip(1), 1, 'prod').flip(1)",
     "x.flip(1).cumprod(1).flip(1)", 4),
    ("torch.cumsum(x, dim=-1) - x", (512, 301), "float32", "randn", "aten_scan(x, -1, 'sum') - x",
     "torch.cumsum(x, -1) - x", 8),
    # rows loaded as vectors (300 floats: 16-byte aligned) keep one tile a step (measured slower with more)
    ("torch.cumsum(x, dim=-1)", (512, 300), "float32", "randn", "aten_scan(x, -1, 'sum')",
     "torch.cumsum(x, -1)", 1),
    # rows strided in memory keep one tile a step (each chunk's load goes through shared memory before the next)
    ("x.t().cumsum(1)", (300, 512), "float32", "randn", "aten_scan(x.t(), -1, 'sum')", "x.t().cumsum(1)", 1),
]

RUNNER = r"""
import importlib.util, json, sys
sys.path.insert(0, sys.argv[2])
import torch
from protocol import patch_interpreter
from aten_scan import aten_scan, make_input
patch_interpreter()
results = []
for path, shape, dtype, kind, ref, eager in json.loads(sys.argv[1]):
    spec = importlib.util.spec_from_file_location("generated", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    x = make_input(shape, dtype, kind)
    want = eval(ref, {"aten_scan": aten_scan, "x": x, "torch": torch})
    near = eval(eager, {"x": x, "torch": torch})
    got = m.ModelNew()(x)
    # 16-bit: ATen rounds every add to 16 bits, CPU PyTorch accumulates in fp32 here: a looser closeness
    tol = 1e-4 if dtype == "float32" else 1e-1
    if got.dtype != want.dtype or got.shape != want.shape or not torch.equal(got, want):
        diff = (got.double() - want.double()).abs()
        results.append(f"{ref} on {shape} {dtype}: {int((diff > 0).sum())} elements differ, max {diff.max():.3g}")
    elif not torch.allclose(got.float(), near.float(), rtol=tol, atol=tol):
        results.append(f"{eager} on {shape} {dtype}: max diff {(got.float() - near.float()).abs().max():.3g}")
    else:
        results.append(None)
print(json.dumps(results))
"""


def test_scan_chunks(tmp_path):
    jobs = []
    for i, (body, shape, dtype, kind, ref, eager, chunks) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", body,
                              f"torch.rand({', '.join(map(str, shape))}, dtype=torch.{dtype})")
        text = out.read_text()
        jobs.append((str(out), shape, dtype, kind, ref, eager))
        if chunks == 1:
            assert "for r0 in range(0, R, BLOCK_R):" in text and "CHUNKS" not in text, f"{body}: chunked\n{text}"
            continue
        assert "for r0 in range(0, R, BLOCK_R * CHUNKS):" in text, f"{body}: not the chunked form\n{text}"
        assert f"CHUNKS={chunks})" in text, f"{body}: expected CHUNKS={chunks}"
        # every chunk's load comes before the first chunk's levels
        loop = text[text.index("for r0 in range(0, R, BLOCK_R * CHUNKS):"):]
        last_load = loop.index(f"r{chunks - 1} = ")
        assert last_load < loop.index("_aten_scan_tile("), f"{body}: chunks not loaded first"
        assert len(re.findall(r"tl\.load\(", loop.split("\ndef ")[0])) == chunks, f"{body}: one load per chunk"
    failures = run_interpreted(RUNNER, jobs, str(HERE), timeout=600)
    assert not failures, "\n".join(failures)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
