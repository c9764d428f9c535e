"""Normalisation statistics over rows that the reduction kernel reads from memory once anyway (passes/decompose.cpp,
moments; kernel/row_forms.h) are not chunked: the statistics and the normalised output are one kernel that reads
x once, held whole in registers (rows up to 32768 elements) or as cooperative rows (from 40000). Checked for the
form (--emit=kernels, the generated text) and against PyTorch under Triton's interpreter. Statistics that leave
the kernel (a BatchNorm's running statistics) keep the chunks: the kernel could not hold rows cooperatively, and
a looped row would be read once per statistic."""

import subprocess

from .paths import TRITONIZE, check_forwards, convert_forward, emitted_kernels

# (forward, inputs, the kernels expected in --emit=kernels, a line the generated file must hold)
CASES = [
    # a group of 4 x 96 x 60 = 23040 elements (past the 16384 of one-pass tiles): held whole
    ("F.group_norm(x, 2, eps=1e-3)", "torch.randn(2, 8, 96, 60) * 2 + 3",
     ["kernel 0 reduction space [2, 2, 4, 5760] axes {2,3}"], "BLOCK_R=32768"),
    # planes of 200 x 210 = 42000: cooperative rows
    ("F.instance_norm(x, eps=1e-3) * 0.5", "torch.randn(2, 3, 200, 210) * 2 - 1",
     ["kernel 0 reduction space [2, 3, 200, 210] axes {2,3}"], "_coop_split("),
]

BATCH_NORM = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(256)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.randn(4, 256, 12000)]


def get_init_inputs():
    return []
'''


def test_norm_rows_read_once(tmp_path):
    jobs = []
    for i, (expr, inputs, kernels, line) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"ro{i}", expr, inputs)
        emitted = [k for k in emitted_kernels(gen).splitlines() if k.startswith("kernel")]
        assert len(emitted) == len(kernels), f"{expr}: expected {kernels}, got\n" + "\n".join(emitted)
        for want, got in zip(kernels, emitted):
            assert got.startswith(want), f"{expr}: expected '{want}', got '{got}'"
        assert line in gen.read_text(), f"{expr}: no '{line}' in the generated file"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x"]})
    failures = check_forwards(jobs, tol=1e-4)
    assert not failures, "\n".join(failures)


def test_escaping_statistics_stay_chunked(tmp_path):
    # rows of 4 x 12000 = 48000 per channel over 256 channels: cooperative rows by length, but the running
    # statistics are outputs of the statistics kernel
    problem = tmp_path / "bn.py"
    problem.write_text(BATCH_NORM)
    emitted = subprocess.run([str(TRITONIZE), "convert", str(problem), "--emit=kernels"], capture_output=True,
                             text=True, check=True).stdout
    kernels = [k for k in emitted.splitlines() if k.startswith("kernel")]
    assert any("reduction space [256, 4, 12000] axes {2}" in k for k in kernels), "\n".join(kernels)  # the chunks
    assert kernels[-1].split()[2] == "pointwise", "\n".join(kernels)  # the output's own pass
