"""Normalisation statistics over rows that the reduction kernel holds whole in registers anyway (up to 32768
elements: passes/decompose.cpp, moments; kernel/row_forms.h) are not chunked: the statistics and the normalised
output are one kernel that reads x once. Longer rows stay chunked (statistics, then the output's pass). Checked
for the form (--emit=kernels, the generated text) and against PyTorch under Triton's interpreter."""

from .paths import check_forwards, convert_forward, emitted_kernels

# (forward, inputs, the kernels expected in --emit=kernels, a line the generated file must hold)
CASES = [
    # groups of 4 x 96 x 60 = 23040 elements (past the 16384 of one-pass tiles): held whole, one kernel
    ("F.group_norm(x, 2, eps=1e-3)", "torch.randn(2, 8, 96, 60) * 2 + 3",
     ["kernel 0 reduction space [2, 2, 4, 5760] axes {2,3}"], "BLOCK_R=32768"),
    # planes of 200 x 210 = 42000 (past what a program holds): chunked statistics, then the output
    ("F.instance_norm(x, eps=1e-3) * 0.5", "torch.randn(2, 3, 200, 210) * 2 - 1",
     ["kernel 0 reduction space [2, 3, 4, 50, 210] axes {3,4}", "kernel 1 reduction space [2, 3, 4] axes {2}",
      "kernel 2 pointwise space [2, 3, 200, 210]"], "def "),
]


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
