"""A cat of a scan's result (sliced along the scanned dim) and constants, along the scanned dim, is stored by the
scan kernel itself, each piece at its offset in the cat's buffer (fuse.cpp place_cat_store: an exclusive cumsum
written as torch.cat([zeros, c[:, :-1]]) was a scan kernel writing c and a copy kernel reading it back shifted).
Each case is converted by tritonize, its text checked for the one kernel and its shifted store, and run by Triton's
interpreter on the CPU: bit for bit against the emulation of ATen's CUDA scan (aten_scan.py) and closely against
PyTorch."""

import re
import sys

import pytest

from .paths import HERE, convert_forward, run_interpreted
from .test_scan_chunks import RUNNER

EXCL = "torch.cat([torch.zeros_like(x[:, :1]), {c}[:, :-1]], 1)"

# (forward body over x, input shape, dtype, input kind, ATen-order reference, PyTorch reference, kernels)
CASES = [
    # rows in ATen's tiles (a ragged last tile), the scan stored one element to the right, 0 in column 0
    (EXCL.format(c="torch.cumsum(x, 1)"), (7, 1031), "float32", "randn",
     EXCL.format(c="aten_scan(x, 1, 'sum')"), EXCL.format(c="torch.cumsum(x, 1)"), 1),
    # rows held whole, 16-bit
    (EXCL.format(c="torch.cumsum(x, 1)"), (5, 129), "bfloat16", "rand",
     EXCL.format(c="aten_scan(x, 1, 'sum')"), EXCL.format(c="torch.cumsum(x.float(), 1).bfloat16()"), 1),
    # columns (dim 0 of a 3-D tensor): the zero slab first, the scan one row down
    ("torch.cat((torch.zeros(1, x.shape[1], x.shape[2]), x.cumsum(0)[:-1]), 0)", (37, 3, 131), "float32", "randn",
     "torch.cat((torch.zeros(1, 3, 131), aten_scan(x, 0, 'sum')[:-1]), 0)",
     "torch.cat((torch.zeros(1, 3, 131), x.cumsum(0)[:-1]), 0)", 1),
    # a reverse exclusive scan: the scan shifted left (slice start 1), two zeros at the end
    ("torch.cat([x.flip(1).cumsum(1).flip(1)[:, 2:], torch.zeros_like(x[:, :2])], 1)", (6, 200), "float32",
     "randn", "torch.cat([aten_scan(x.flip(1), 1, 'sum').flip(1)[:, 2:], torch.zeros_like(x[:, :2])], 1)",
     "torch.cat([x.flip(1).cumsum(1).flip(1)[:, 2:], torch.zeros_like(x[:, :2])], 1)", 1),
    # an exclusive cumprod over columns, ones first
    ("torch.cat([torch.ones_like(x[:, :1]), torch.cumprod(x, 1)[:, :-1]], 1)", (3, 70, 130), "float32", "near1",
     "torch.cat([torch.ones_like(x[:, :1]), aten_scan(x, 1, 'prod')[:, :-1]], 1)",
     "torch.cat([torch.ones_like(x[:, :1]), torch.cumprod(x, 1)[:, :-1]], 1)", 1),
    # the cat read by another kernel: stored by the scan, read back from memory
    ("torch.relu(" + EXCL.format(c="torch.cumsum(x, 1)") + ") * 2", (4, 300), "float32", "randn",
     "torch.relu(" + EXCL.format(c="aten_scan(x, 1, 'sum')") + ") * 2",
     "torch.relu(" + EXCL.format(c="torch.cumsum(x, 1)") + ") * 2", 2),
]


def test_scan_cat_store(tmp_path):
    jobs = []
    for i, (body, shape, dtype, kind, ref, eager, kernels) in enumerate(CASES):
        out = convert_forward(tmp_path, f"case{i}", body,
                              f"torch.rand({', '.join(map(str, shape))}, dtype=torch.{dtype})")
        text = out.read_text()
        assert len(re.findall(r"^def \w+_kernel\(", text, re.M)) == kernels, f"{body}: kernels\n{text}"
        scan = text[text.index("def fused_cumsum_cat_kernel(" if "cumsum" in body else "def fused_cumprod_cat_kernel("):]
        scan = scan.split("\ndef ")[0]
        # two stores of the cat's buffer a chunk: the constant piece and the shifted scan
        assert len(re.findall(r"tl\.store\(buf0_ptr", scan)) >= 2, f"{body}: not stored piece by piece\n{scan}"
        jobs.append((str(out), shape, dtype, kind, ref, eager))
    failures = run_interpreted(RUNNER, jobs, str(HERE), timeout=600)
    assert not failures, "\n".join(failures)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
