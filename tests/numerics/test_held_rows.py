"""Rows of 16385 to 32768 elements read more than once (kernel/lower_reduction.cpp, kMaxRowTile) are held whole in
registers on 32 warps and read once, where they used to loop over chunks three times; rows read once (a sum) still
loop past 16384. Checked against PyTorch under Triton's interpreter, with -inf and NaN rows for the softmax."""

import re

from .paths import convert_forward, run_interpreted
from .test_coop_rows import RUNNER  # (in its "one" mode: each kernel launched once, as it would be)

# (forward expression, input shape, input fix-up on x (randn))
HELD = [
    ("torch.softmax(x, dim=-1)", (3, 20011), "x[1] = float('-inf'); x[2, 5] = float('nan')"),
    ("torch.nn.functional.layer_norm(x, (32768,), eps=1e-6)", (2, 32768), "x[1] += 100.0"),
    ("torch.log_softmax(x * 2.0, dim=1)", (3, 30001), "x[0, :100] = float('inf')"),
]


def test_rows_held_whole(tmp_path):
    jobs = []
    for i, (call, shape, fix) in enumerate(HELD):
        out = convert_forward(tmp_path, f"held{i}", call, f"torch.randn{shape}")
        text = out.read_text()
        assert "for r0 in range" not in text and "num_warps=32" in text, f"{call} on {shape}: not held whole\n{text}"
        jobs.append((str(out), call, shape, fix))
    failures = run_interpreted(RUNNER, jobs, "one")
    assert not failures, "\n".join(failures)


def test_rows_read_once_still_loop(tmp_path):
    text = convert_forward(tmp_path, "sum", "x.sum(dim=-1)", "torch.randn(3, 20011)").read_text()
    assert "for r0 in range" in text
    assert not re.search(r"num_warps=(32)", text)


# Held rows that Triton loads an element at a time (a row stride that is not a multiple of 16 bytes) get one warp
# per 256 elements of the row, so that a lane reduces several elements of a row itself (with the usual 8 warps a
# lane held one element of each of 16 rows); rows that vectorize keep the usual warps.
UNALIGNED = [
    ("-(torch.softmax(x, dim=-1) * torch.log_softmax(x, dim=-1)).sum(dim=-1)", (37, 151), "x[3] = float('-inf')", 1),
    ("torch.nn.functional.layer_norm(x, (1001,))", (9, 1001), "x[2] += 50.0", 4),
]


def test_unaligned_rows_few_warps(tmp_path):
    jobs = []
    for i, (call, shape, fix, warps) in enumerate(UNALIGNED):
        out = convert_forward(tmp_path, f"unaligned{i}", call, f"torch.randn{shape}")
        text = out.read_text()
        assert f"num_warps={warps})" in text, f"{call} on {shape}: expected {warps} warps\n{text}"
        jobs.append((str(out), call, shape, fix))
    aligned = convert_forward(tmp_path, "aligned", "torch.softmax(x, dim=-1)", "torch.randn(64, 256)").read_text()
    assert "num_warps=1)" not in aligned, aligned
    failures = run_interpreted(RUNNER, jobs, "one")
    assert not failures, "\n".join(failures)
