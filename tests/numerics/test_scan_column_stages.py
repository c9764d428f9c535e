"""Column scans (ATen's sequential fold per column, lower_scan.cpp's AtenColumns) on a grid of at most 4 programs
per multiprocessor loop with tl.range(..., num_stages=3), so that Triton's pipeliner loads the next chunks while
the current one is folded; larger grids keep range(). Each case is converted by tritonize, its text checked for
the loop's form, and run by Triton's interpreter on the CPU: bit for bit against the emulation of ATen's CUDA
scan (aten_scan.py) and closely against PyTorch (the pipeliner changes when loads issue, never the operations)."""

import sys

import pytest

from .paths import HERE, convert_forward, run_interpreted
from .test_scan_chunks import RUNNER

PIPELINED = "for r0 in tl.range(0, R, BLOCK_R, num_stages=3):"

# (forward body over x, input shape, input dtype, input kind, ATen-order reference, PyTorch reference)
CASES = [
    # 300 columns: three column blocks of 128, 70 rows: two chunks of 32 and a ragged one
    ("torch.cumsum(x, 0)", (70, 300), "float32", "randn", "aten_scan(x, 0, 'sum')", "torch.cumsum(x, 0)"),
    ("x.flip(0).cumsum(0).flip(0)", (65, 200), "float32", "randn", "aten_scan(x.flip(0), 0, 'sum').flip(0)",
     "x.flip(0).cumsum(0).flip(0)"),
    ("torch.cumprod(0.9 + 0.2 * x, 1)", (3, 70, 130), "float32", "rand", "aten_scan(0.9 + 0.2 * x, 1, 'prod')",
     "torch.cumprod(0.9 + 0.2 * x, 1)"),
    ("torch.cumsum(x, 1)", (3, 70, 300), "bfloat16", "rand", "aten_scan(x, 1, 'sum')",
     "torch.cumsum(x.float(), 1).bfloat16()"),
]


def test_column_scans_pipelined(tmp_path):
    jobs = []
    for i, (body, shape, dtype, kind, ref, eager) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", body,
                              f"torch.rand({', '.join(map(str, shape))}, dtype=torch.{dtype})")
        assert PIPELINED in out.read_text(), f"{body}: not pipelined\n{out.read_text()}"
        jobs.append((str(out), shape, dtype, kind, ref, eager))
    failures = run_interpreted(RUNNER, jobs, str(HERE), timeout=600)
    assert not failures, "\n".join(failures)


def test_column_scans_on_a_full_grid_keep_range(tmp_path):
    # 64 x 32 column blocks = 2048 programs (scan_cumsum_middle_3d's shape): more than 4 per SM, no pipelining
    out = convert_forward(tmp_path, "full", "torch.cumsum(x, 1) * 0.5", "torch.rand(64, 1023, 4096)")
    text = out.read_text()
    assert "for r0 in range(0, R, BLOCK_R):" in text and "num_stages=3):" not in text, text


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
